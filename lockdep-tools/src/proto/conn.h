/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A protocol connection over one file descriptor (virtio port, UNIX
 * socket or socketpair): buffered frame input and whole-frame output, both
 * bounded by an absolute deadline on the monotonic clock.
 */
#ifndef LDT_PROTO_CONN_H
#define LDT_PROTO_CONN_H

#include <stdbool.h>
#include <stdint.h>

#include "proto/proto.h"

#define PROTO_NO_DEADLINE	(-1)

struct proto_conn {
	int fd;
	struct proto_decoder dec;
	uint8_t in[16384];
	size_t in_pos, in_len;
};

/* Milliseconds on CLOCK_MONOTONIC, the clock of every deadline. */
int64_t proto_now_ms(void);

/* Takes no ownership of @fd: the caller closes it after release. */
void proto_conn_init(struct proto_conn *c, int fd);
void proto_conn_release(struct proto_conn *c);

/*
 * Receive one frame into *@f (valid until the next receive). Returns 1 for
 * a frame, 0 when the peer closed at a frame boundary, -ECONNRESET when it
 * closed mid-frame, -ETIMEDOUT at @deadline_ms, -EMSGSIZE for an oversized
 * length (drop the connection), or another -errno from read().
 */
int proto_conn_recv(struct proto_conn *c, struct proto_frame *f,
		    int64_t deadline_ms);

/* True when input is already buffered (poll() would not show it). */
bool proto_conn_buffered(const struct proto_conn *c);

/* Send one whole frame. Returns 0, -ETIMEDOUT, -EMSGSIZE or -errno. */
int proto_conn_send(struct proto_conn *c, uint8_t type, const void *payload,
		    size_t len, int64_t deadline_ms);

/* Send an ERROR reply: @err is a Linux errno value. */
int proto_conn_send_error(struct proto_conn *c, int err, int64_t deadline_ms,
			  const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Send an END reply carrying @total. */
int proto_conn_send_end(struct proto_conn *c, uint64_t total,
			int64_t deadline_ms);

#endif
