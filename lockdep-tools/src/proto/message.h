/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Payload formats shared by both ends (see lockdep-agent(8), PROTOCOL):
 * checks and decoders for the parts that are more than a byte string.
 */
#ifndef LDT_PROTO_MESSAGE_H
#define LDT_PROTO_MESSAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/proto.h"

/* A scenario name is 1..PROTO_MAX_SCENARIO bytes of [a-z0-9_-]. */
bool proto_scenario_valid(const char *name, size_t len);

/*
 * The sequence number of a raw /dev/kmsg record
 * ("<prio>,<seq>,<usec>,<flags>;<text>"). Returns 0, or -EINVAL when the
 * record does not start that way or a newline inside it is not followed
 * by a space (only dictionary lines " KEY=value" may follow the text).
 */
int proto_kmsg_seq(const uint8_t *rec, size_t len, uint64_t *seq);

/*
 * Copy @len untrusted bytes into the C string @dst (of @size > 0 bytes),
 * replacing anything not printable ASCII with '?'.
 */
void proto_sanitize(char *dst, size_t size, const uint8_t *src, size_t len);

/* Linux errno values are 1..4095; anything else in an ERROR reads as EPROTO. */
#define PROTO_MAX_ERRNO	4095

/*
 * Split an ERROR frame into its errno and its sanitised message. Returns 0,
 * or -EINVAL when the payload is too short to be an ERROR.
 */
int proto_error_decode(const struct proto_frame *f, int *err, char *msg,
		       size_t size);

#endif
