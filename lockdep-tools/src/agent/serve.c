// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's request loop: one request in, one whole reply out, in order.
 * A malformed or unknown request costs an ERROR reply and nothing else;
 * only a broken stream (oversized length, close mid-frame, I/O error)
 * ends the connection.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "agent/agent.h"
#include "proto/allowlist.h"

static int agent_hello(struct proto_conn *c, const struct proto_frame *req)
{
	uint8_t buf[PROTO_HELLO_SIZE + PROTO_MAX_IDENTITY];
	struct utsname uts;
	uint32_t version;
	int n;

	if (req->len != PROTO_HELLO_SIZE)
		return proto_conn_send_error(c, EINVAL, PROTO_NO_DEADLINE,
				"HELLO payload is %u bytes, expected %d",
				req->len, PROTO_HELLO_SIZE);
	version = proto_get_be32(req->payload);
	if (version != PROTO_VERSION)
		return proto_conn_send_error(c, EPROTONOSUPPORT,
				PROTO_NO_DEADLINE,
				"protocol version %u not supported, agent speaks %d",
				version, PROTO_VERSION);
	if (uname(&uts))
		memset(&uts, 0, sizeof(uts));
	proto_put_be32(buf, PROTO_VERSION);
	memcpy(buf + 4, req->payload + 4, 4);	/* the host's nonce */
	n = snprintf((char *)buf + PROTO_HELLO_SIZE, PROTO_MAX_IDENTITY,
		     "lockdep-agent %d %s %s %s", PROTO_VERSION, uts.sysname,
		     uts.release, uts.machine);
	if (n >= PROTO_MAX_IDENTITY)
		n = PROTO_MAX_IDENTITY - 1;
	return proto_conn_send(c, PROTO_HELLO_REPLY, buf, PROTO_HELLO_SIZE + n,
			       PROTO_NO_DEADLINE);
}

static int agent_list(struct proto_conn *c, const struct proto_frame *req)
{
	char buf[4096];
	size_t i, len = 0;

	if (req->len)
		return proto_conn_send_error(c, EINVAL, PROTO_NO_DEADLINE,
					     "LIST takes no payload");
	for (i = 0; i < proto_allowlist_len; i++) {
		size_t n = strlen(proto_allowlist[i].path);

		/* the list is ours and small: outgrowing buf is a bug */
		if (len + n + 1 > sizeof(buf))
			return proto_conn_send_error(c, EOVERFLOW, PROTO_NO_DEADLINE,
						     "allow-list too long");
		memcpy(buf + len, proto_allowlist[i].path, n);
		buf[len + n] = '\n';
		len += n + 1;
	}
	return proto_conn_send(c, PROTO_LIST_REPLY, buf, len,
			       PROTO_NO_DEADLINE);
}

static int agent_handle(struct proto_conn *c, const struct proto_frame *req)
{
	const char *name;

	switch (req->type) {
	case PROTO_HELLO:
		return agent_hello(c, req);
	case PROTO_LIST:
		return agent_list(c, req);
	case PROTO_READ:
		return agent_read_file(c, req);
	case PROTO_KMSG:
		return agent_kmsg(c, req);
	case PROTO_TRIGGER:
		return agent_trigger(c, req);
	case PROTO_POWEROFF:
		if (req->len)
			return proto_conn_send_error(c, EINVAL,
					PROTO_NO_DEADLINE,
					"POWEROFF takes no payload");
		return proto_conn_send(c, PROTO_OK, NULL, 0,
				       PROTO_NO_DEADLINE);
	}
	name = proto_type_name(req->type);
	if (name)
		return proto_conn_send_error(c, EOPNOTSUPP, PROTO_NO_DEADLINE,
					     "%s is a reply, not a request",
					     name);
	return proto_conn_send_error(c, EOPNOTSUPP, PROTO_NO_DEADLINE,
				     "unknown request type 0x%02x", req->type);
}

int agent_serve(struct proto_conn *c)
{
	struct proto_frame f;
	int ret;

	for (;;) {
		ret = proto_conn_recv(c, &f, PROTO_NO_DEADLINE);
		if (ret == 0)
			return AGENT_HANGUP;
		if (ret == -ENOMEM)
			return ret;
		if (ret == -EMSGSIZE) {
			fprintf(stderr,
				"lockdep-agent: refusing a frame of %u bytes (limit %u), dropping the connection\n",
				proto_get_be32(c->dec.header),
				PROTO_MAX_PAYLOAD);
			proto_conn_send_error(c, EMSGSIZE, PROTO_NO_DEADLINE,
					"frame of %u bytes exceeds the limit of %u",
					proto_get_be32(c->dec.header),
					PROTO_MAX_PAYLOAD);
			return AGENT_DROP;
		}
		if (ret == -ECONNRESET) {
			fputs("lockdep-agent: the host closed the connection mid-frame, dropping it\n",
			      stderr);
			return AGENT_DROP;
		}
		if (ret < 0) {
			fprintf(stderr,
				"lockdep-agent: unable to read a request: %s, dropping the connection\n",
				strerror(-ret));
			return AGENT_DROP;
		}
		ret = agent_handle(c, &f);
		if (ret) {
			fprintf(stderr,
				"lockdep-agent: unable to send a reply: %s, dropping the connection\n",
				strerror(-ret));
			return AGENT_DROP;
		}
		if (f.type == PROTO_POWEROFF && !f.len)
			return AGENT_POWEROFF;
	}
}
