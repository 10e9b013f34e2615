// SPDX-License-Identifier: GPL-2.0
/*
 * Frame encoding and the incremental decoder of the agent protocol.
 *
 * The decoder has two states: collecting the header (header_have <
 * PROTO_HEADER_SIZE) and collecting the payload. Its payload buffer only
 * grows after the length was checked against PROTO_MAX_PAYLOAD, so a
 * hostile length never costs memory.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "proto/proto.h"

void proto_decoder_init(struct proto_decoder *d)
{
	memset(d, 0, sizeof(*d));
}

void proto_decoder_release(struct proto_decoder *d)
{
	free(d->payload);
	proto_decoder_init(d);
}

size_t proto_decoder_pending(const struct proto_decoder *d)
{
	return d->header_have + d->payload_have;
}

static int decoder_reserve(struct proto_decoder *d, size_t len)
{
	uint8_t *p;

	if (len <= d->payload_cap)
		return 0;
	p = realloc(d->payload, len);
	if (!p)
		return -ENOMEM;
	d->payload = p;
	d->payload_cap = len;
	return 0;
}

int proto_decoder_feed(struct proto_decoder *d, const void *buf, size_t len,
		       size_t *used)
{
	const uint8_t *in = buf;
	size_t n, want;
	uint32_t plen;
	int err;

	*used = 0;
	if (d->header_have < PROTO_HEADER_SIZE) {
		n = PROTO_HEADER_SIZE - d->header_have;
		if (n > len)
			n = len;
		memcpy(d->header + d->header_have, in, n);
		d->header_have += n;
		*used += n;
		if (d->header_have < PROTO_HEADER_SIZE)
			return PROTO_FEED_MORE;
	}

	/* Checked on every call: a refused frame stays refused. */
	plen = proto_get_be32(d->header);
	if (plen > PROTO_MAX_PAYLOAD)
		return -EMSGSIZE;
	err = decoder_reserve(d, plen);
	if (err)
		return err;
	want = plen - d->payload_have;
	n = len - *used < want ? len - *used : want;
	if (n)
		memcpy(d->payload + d->payload_have, in + *used, n);
	d->payload_have += n;
	*used += n;
	if (d->payload_have < plen)
		return PROTO_FEED_MORE;

	d->frame.type = d->header[4];
	d->frame.len = plen;
	d->frame.payload = d->payload;
	d->header_have = 0;
	d->payload_have = 0;
	return PROTO_FEED_FRAME;
}

void proto_header_encode(uint8_t out[PROTO_HEADER_SIZE], uint8_t type,
			 uint32_t len)
{
	proto_put_be32(out, len);
	out[4] = type;
}

const char *proto_type_name(uint8_t type)
{
	switch (type) {
	case PROTO_HELLO:	return "HELLO";
	case PROTO_LIST:	return "LIST";
	case PROTO_READ:	return "READ";
	case PROTO_KMSG:	return "KMSG";
	case PROTO_TRIGGER:	return "TRIGGER";
	case PROTO_POWEROFF:	return "POWEROFF";
	case PROTO_RUN:		return "RUN";
	case PROTO_OUTPUT:	return "OUTPUT";
	case PROTO_HELLO_REPLY:	return "HELLO_REPLY";
	case PROTO_LIST_REPLY:	return "LIST_REPLY";
	case PROTO_DATA:	return "DATA";
	case PROTO_END:		return "END";
	case PROTO_RECORD:	return "RECORD";
	case PROTO_OK:		return "OK";
	case PROTO_STARTED:	return "STARTED";
	case PROTO_EXITED:	return "EXITED";
	case PROTO_EVENTS:	return "EVENTS";
	case PROTO_OUTPUT_REPLY:	return "OUTPUT_REPLY";
	case PROTO_ERROR:	return "ERROR";
	}
	return NULL;
}
