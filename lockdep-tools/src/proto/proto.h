/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The agent protocol: what travels over the virtio-serial port between
 * lockdep-agent (guest) and lockdep-collect (host). lockdep-agent(8),
 * section PROTOCOL, is the reference; this header is its C form.
 *
 * Invariants:
 * (1) Every frame is a 5-byte header (32-bit big-endian payload length,
 *     then one type byte) followed by exactly that many payload bytes.
 * (2) A length above PROTO_MAX_PAYLOAD is a protocol error: the receiver
 *     refuses it before allocating anything and drops the connection.
 * (3) The host sends only requests (< PROTO_REPLY_BASE), the agent only
 *     replies; the agent answers every request, in order.
 * (4) All integers are big-endian; strings are not NUL-terminated, their
 *     length is the frame's.
 */
#ifndef LDT_PROTO_H
#define LDT_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define PROTO_VERSION		1
#define PROTO_HEADER_SIZE	5
#define PROTO_MAX_PAYLOAD	(1u << 20)
/* The agent splits file contents into DATA frames of at most this. */
#define PROTO_CHUNK		(64u * 1024)
#define PROTO_MAX_PATH		256
#define PROTO_MAX_SCENARIO	64
#define PROTO_MAX_IDENTITY	256
#define PROTO_MAX_ERROR_MSG	512

enum proto_type {
	/* requests, host -> agent */
	PROTO_HELLO		= 0x01,
	PROTO_LIST		= 0x02,
	PROTO_READ		= 0x03,
	PROTO_KMSG		= 0x04,
	PROTO_TRIGGER		= 0x05,
	PROTO_POWEROFF		= 0x06,
	PROTO_RUN		= 0x07,
	PROTO_OUTPUT		= 0x08,
	/* replies, agent -> host */
	PROTO_REPLY_BASE	= 0x40,
	PROTO_HELLO_REPLY	= 0x41,
	PROTO_LIST_REPLY	= 0x42,
	PROTO_DATA		= 0x43,
	PROTO_END		= 0x44,
	PROTO_RECORD		= 0x45,
	PROTO_OK		= 0x46,
	PROTO_STARTED		= 0x47,
	PROTO_EXITED		= 0x48,
	PROTO_EVENTS		= 0x49,
	PROTO_OUTPUT_REPLY	= 0x4a,
	PROTO_ERROR		= 0x7f,
};

enum proto_kmsg_mode {
	PROTO_KMSG_DUMP		= 0,
	PROTO_KMSG_FOLLOW	= 1,
};
/*
 * Or'ed into the KMSG mode: send the kernel's lockdep dependency events
 * too, as EVENTS frames of whole trace_pipe lines.
 */
#define PROTO_KMSG_EVENTS	0x80

/* Sizes of the fixed-size payloads. */
#define PROTO_HELLO_SIZE	8	/* version, nonce */
#define PROTO_KMSG_SIZE		9	/* mode, first sequence number */
#define PROTO_END_SIZE		8	/* total bytes or records */
#define PROTO_STARTED_SIZE	8	/* first kmsg sequence number of the run */
/* wait status, duration in ms, end kmsg sequence number, output bytes */
#define PROTO_EXITED_HEADER	28
/* output bytes so far (OUTPUT_REPLY: a workload that has not ended) */
#define PROTO_OUTPUT_HEADER	8
/* The agent keeps the last this many bytes of a workload's output. */
#define PROTO_WORKLOAD_OUTPUT	(64u * 1024)

/* One received frame; payload points into the decoder's buffer. */
struct proto_frame {
	uint8_t type;
	uint32_t len;
	const uint8_t *payload;
};

/*
 * Incremental frame decoder: feed it bytes as they arrive, in pieces of
 * any size; it yields one whole frame at a time.
 */
struct proto_decoder {
	uint8_t header[PROTO_HEADER_SIZE];
	size_t header_have;
	uint8_t *payload;
	size_t payload_cap;
	size_t payload_have;
	struct proto_frame frame;
};

enum proto_feed {
	PROTO_FEED_MORE = 0,	/* all input consumed, no frame yet */
	PROTO_FEED_FRAME = 1,	/* decoder->frame is valid until the next feed */
};

void proto_decoder_init(struct proto_decoder *d);
void proto_decoder_release(struct proto_decoder *d);

/*
 * Consume up to @len bytes of @buf, stopping after the first complete
 * frame; *@used says how many bytes were consumed. Returns enum
 * proto_feed, -EMSGSIZE for an oversized length (the stream cannot be
 * resynchronised: drop the connection) or -ENOMEM.
 */
int proto_decoder_feed(struct proto_decoder *d, const void *buf, size_t len,
		       size_t *used);

/* Bytes of a started but unfinished frame (0 at a frame boundary). */
size_t proto_decoder_pending(const struct proto_decoder *d);

void proto_header_encode(uint8_t out[PROTO_HEADER_SIZE], uint8_t type,
			 uint32_t len);

/* "HELLO", "DATA", ... or NULL for a type the protocol does not define. */
const char *proto_type_name(uint8_t type);

static inline void proto_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline uint32_t proto_get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline void proto_put_be64(uint8_t *p, uint64_t v)
{
	proto_put_be32(p, v >> 32);
	proto_put_be32(p + 4, (uint32_t)v);
}

static inline uint64_t proto_get_be64(const uint8_t *p)
{
	return (uint64_t)proto_get_be32(p) << 32 | proto_get_be32(p + 4);
}

#endif
