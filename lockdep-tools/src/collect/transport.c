// SPDX-License-Identifier: GPL-2.0
/*
 * The agent client. Requests go out one at a time and each reply is read
 * whole before the next request, so a reply can never be mistaken for
 * another's. The one exception is the handshake: HELLO is repeated while
 * the guest boots; the first reply carrying one of our nonces is taken,
 * the replies to the HELLOs sent after that one are read and dropped, and
 * anything else before it (left over from an earlier host) is skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "collect/transport.h"
#include "proto/allowlist.h"
#include "proto/message.h"

#define HELLO_INTERVAL_MS	1000
#define CONNECT_RETRY_MS	100

static int client_fail(struct agent_client *cl, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int client_fail(struct agent_client *cl, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cl->why, sizeof(cl->why), fmt, ap);
	va_end(ap);
	return err;
}

/* The sink already said what failed; the collection cannot go on. */
static int client_sink_failed(struct agent_client *cl, int err)
{
	cl->local_failure = true;
	return client_fail(cl, err, "unable to save what the agent sent");
}

/* Turn a proto_conn_recv() failure into words; @what names the request. */
static int client_recv_failed(struct agent_client *cl, int ret,
			      const char *what)
{
	switch (ret) {
	case 0:
		return client_fail(cl, -EPIPE,
				   "the agent closed the connection during %s",
				   what);
	case -ECONNRESET:
		return client_fail(cl, ret,
				   "the connection closed in the middle of a frame during %s",
				   what);
	case -ETIMEDOUT:
		return client_fail(cl, ret, "no reply from the agent for %d s during %s",
				   cl->timeout_ms / 1000, what);
	case -EMSGSIZE:
		return client_fail(cl, ret,
				   "the agent sent a frame of %" PRIu32 " bytes (limit %u) during %s",
				   proto_get_be32(cl->conn.dec.header),
				   PROTO_MAX_PAYLOAD, what);
	}
	return client_fail(cl, ret, "unable to read from the agent during %s: %s",
			   what, strerror(-ret));
}

/*
 * Any request ends a KMSG follow: the agent answers END, then the request.
 * The request is a KMSG dump that starts past every sequence number, so
 * its reply is an empty END whatever arrived meanwhile.
 */
static int client_stop_follow(struct agent_client *cl)
{
	uint8_t req[PROTO_KMSG_SIZE] = { PROTO_KMSG_DUMP };

	proto_put_be64(req + 1, UINT64_MAX);
	return proto_conn_send(&cl->conn, PROTO_KMSG, req, sizeof(req),
			       proto_now_ms() + cl->timeout_ms);
}

static int client_recv(struct agent_client *cl, struct proto_frame *f,
		       const char *what)
{
	int64_t deadline = proto_now_ms() + cl->timeout_ms;
	int ret;

	/* following: wait until the end of the run, then stop the agent */
	if (cl->follow && !cl->follow_stopped)
		deadline = cl->follow_until_ms;
	ret = proto_conn_recv(&cl->conn, f, deadline);
	if (ret == -ETIMEDOUT && cl->follow && !cl->follow_stopped) {
		cl->follow_stopped = true;
		ret = client_stop_follow(cl);
		if (!ret)
			ret = proto_conn_recv(&cl->conn, f,
					      proto_now_ms() + cl->timeout_ms);
	}
	return ret == 1 ? 0 : client_recv_failed(cl, ret, what);
}

static int client_send(struct agent_client *cl, uint8_t type,
		       const void *payload, size_t len, const char *what)
{
	int ret;

	ret = proto_conn_send(&cl->conn, type, payload, len,
			      proto_now_ms() + cl->timeout_ms);
	if (ret)
		return client_fail(cl, ret, "unable to send %s to the agent: %s",
				   what, strerror(-ret));
	return 0;
}

/* Send a request and receive the first frame of its reply into @f. */
static int client_ask(struct agent_client *cl, uint8_t type,
		      const void *payload, size_t len, struct proto_frame *f,
		      const char *what)
{
	int ret = client_send(cl, type, payload, len, what);

	return ret ? ret : client_recv(cl, f, what);
}

static int client_unexpected(struct agent_client *cl,
			     const struct proto_frame *f, const char *what)
{
	const char *name = proto_type_name(f->type);

	return client_fail(cl, -EPROTO,
			   "unexpected %s frame (type 0x%02x, %" PRIu32 " bytes) in reply to %s",
			   name ? name : "unknown", f->type, f->len, what);
}

/* An ERROR reply: its errno, or a protocol failure if it is malformed. */
static int client_error_reply(struct agent_client *cl,
			      const struct proto_frame *f, const char *what,
			      int *err)
{
	if (proto_error_decode(f, err, cl->agent_msg, sizeof(cl->agent_msg)))
		return client_fail(cl, -EPROTO,
				   "malformed ERROR frame in reply to %s", what);
	return 0;
}

int agent_client_connect(struct agent_client *cl, const char *path,
			 int timeout_ms, int64_t deadline_ms)
{
	const struct timespec pause = { .tv_nsec = CONNECT_RETRY_MS * 1000000L };
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, err;

	memset(cl, 0, sizeof(*cl));
	cl->fd = -1;
	cl->timeout_ms = timeout_ms;
	proto_conn_init(&cl->conn, -1);
	if (strlen(path) >= sizeof(sa.sun_path))
		return client_fail(cl, -ENAMETOOLONG,
				   "socket path '%s' is too long", path);
	strcpy(sa.sun_path, path);
	for (;;) {
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return client_fail(cl, -errno, "unable to create a socket: %s",
					   strerror(errno));
		if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
			break;
		err = errno;
		close(fd);
		/* QEMU creates the socket when it starts: wait for it */
		if ((err != ENOENT && err != ECONNREFUSED) ||
		    proto_now_ms() >= deadline_ms)
			return client_fail(cl, -err, "unable to connect to '%s': %s",
					   path, strerror(err));
		nanosleep(&pause, NULL);
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)) {
		err = errno;
		close(fd);
		return client_fail(cl, -err, "unable to set up '%s': %s", path,
				   strerror(err));
	}
	cl->fd = fd;
	proto_conn_init(&cl->conn, fd);
	return 0;
}

void agent_client_close(struct agent_client *cl)
{
	proto_conn_release(&cl->conn);
	if (cl->fd >= 0)
		close(cl->fd);
	cl->fd = -1;
}

static int client_send_hello(struct agent_client *cl)
{
	uint8_t req[PROTO_HELLO_SIZE];

	cl->nonce++;
	proto_put_be32(req, PROTO_VERSION);
	proto_put_be32(req + 4, cl->nonce);
	return client_send(cl, PROTO_HELLO, req, sizeof(req), "HELLO");
}

/*
 * Each HELLO sent after the one answered gets its own reply, in order,
 * before anything else: read those @pending replies so that none is
 * taken for the reply to the next request.
 */
static int client_drain_hellos(struct agent_client *cl, uint32_t pending)
{
	struct proto_frame f;
	int ret;

	while (pending) {
		ret = client_recv(cl, &f, "HELLO");
		if (ret)
			return ret;
		if (f.type == PROTO_HELLO_REPLY || f.type == PROTO_ERROR)
			pending--;
	}
	return 0;
}

int agent_client_hello(struct agent_client *cl, struct collect_summary *sum,
		       int64_t deadline_ms)
{
	int64_t now, next = 0;
	uint32_t first, nonce;
	struct proto_frame f;
	bool refused = false;
	int ret, err;

	/* a random first nonce tells our replies from a previous host's */
	if (getrandom(&first, sizeof(first), 0) != sizeof(first))
		first = (uint32_t)proto_now_ms() ^ (uint32_t)getpid();
	cl->nonce = first - 1;
	for (;;) {
		now = proto_now_ms();
		if (now >= deadline_ms && refused)
			return client_fail(cl, -EPROTO, "the agent refused HELLO: %s",
					   cl->agent_msg);
		if (now >= deadline_ms)
			return client_fail(cl, -ETIMEDOUT,
					   "the agent did not answer HELLO in time (is the guest up? see its console log)");
		if (now >= next) {
			ret = client_send_hello(cl);
			if (ret)
				return ret;
			next = now + HELLO_INTERVAL_MS;
		}
		ret = proto_conn_recv(&cl->conn, &f,
				      next < deadline_ms ? next : deadline_ms);
		if (ret == -ETIMEDOUT)
			continue;
		/* QEMU (not the agent) holds the socket: it went away */
		if (!ret || (ret == -ECONNRESET &&
			     !proto_decoder_pending(&cl->conn.dec)))
			return client_fail(cl, -EPIPE,
					   "the connection closed before the agent answered HELLO (no byte came): QEMU exited, was killed or timed out, or the guest died (see its console log)");
		if (ret != 1)
			return client_recv_failed(cl, ret, "HELLO");
		/* an ERROR cannot be told from a previous host's: keep it */
		if (f.type == PROTO_ERROR) {
			ret = client_error_reply(cl, &f, "HELLO", &err);
			if (ret)
				return ret;
			refused = true;
			continue;
		}
		/* anything else, or a nonce we never sent: stale */
		nonce = f.len >= PROTO_HELLO_SIZE ?
			proto_get_be32(f.payload + 4) : 0;
		if (f.type != PROTO_HELLO_REPLY || f.len < PROTO_HELLO_SIZE ||
		    nonce - first > cl->nonce - first)
			continue;
		if (proto_get_be32(f.payload) != PROTO_VERSION)
			return client_fail(cl, -EPROTONOSUPPORT,
					   "the agent speaks protocol version %" PRIu32 ", this lockdep-collect %d",
					   proto_get_be32(f.payload), PROTO_VERSION);
		proto_sanitize(sum->identity, sizeof(sum->identity),
			       f.payload + PROTO_HELLO_SIZE,
			       f.len - PROTO_HELLO_SIZE);
		return client_drain_hellos(cl, cl->nonce - nonce);
	}
}

int agent_client_list(struct agent_client *cl, struct collect_summary *sum,
		      bool *offered)
{
	const struct proto_allowed *a;
	char shown[PROTO_MAX_PATH];
	const uint8_t *p, *end, *nl;
	bool too_many = false;
	struct proto_frame f;
	int ret, err;

	ret = client_ask(cl, PROTO_LIST, NULL, 0, &f, "LIST");
	if (ret)
		return ret;
	if (f.type == PROTO_ERROR) {
		ret = client_error_reply(cl, &f, "LIST", &err);
		return ret ? ret : client_fail(cl, -EPROTO,
				"the agent refused LIST: %s", cl->agent_msg);
	}
	if (f.type != PROTO_LIST_REPLY)
		return client_unexpected(cl, &f, "LIST");
	end = f.payload + f.len;
	for (p = f.payload; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		if (nl == p)
			continue;
		a = proto_allowlist_find((const char *)p, nl - p);
		if (a) {
			offered[a - proto_allowlist] = true;
			continue;
		}
		if (proto_module_file_path((const char *)p, nl - p)) {
			if (collect_summary_add_module_file(sum, (const char *)p,
							    nl - p, &err) ||
			    err == -EEXIST)
				continue;
			if (err == -ENOMEM) {
				cl->local_failure = true;
				return client_fail(cl, err, "out of memory");
			}
			too_many = true;
			continue;
		}
		proto_sanitize(shown, sizeof(shown), p, nl - p);
		fprintf(stderr,
			"lockdep-collect: warning: ignoring '%s' offered by the agent: not in the allow-list\n",
			shown);
	}
	if (too_many)
		fprintf(stderr,
			"lockdep-collect: warning: the agent offered more than %d module files; ignoring the rest\n",
			PROTO_MAX_MODULE_FILES);
	return 0;
}

/* The READ reply loop; returns as agent_client_read(). */
static int client_read_reply(struct agent_client *cl, struct file_item *it,
			     struct collect_sink *sink, const char *what)
{
	struct proto_frame f;
	uint64_t total;
	int ret;

	for (;;) {
		ret = client_recv(cl, &f, what);
		if (ret)
			return ret;
		switch (f.type) {
		case PROTO_DATA:
			if (it->bytes + f.len > AGENT_MAX_FILE)
				return client_fail(cl, -EFBIG,
						   "the agent sent more than %llu bytes during %s",
						   AGENT_MAX_FILE, what);
			ret = sink->ops->file_data(sink, f.payload, f.len);
			if (ret)
				return client_sink_failed(cl, ret);
			it->bytes += f.len;
			continue;
		case PROTO_END:
			if (f.len != PROTO_END_SIZE)
				return client_unexpected(cl, &f, what);
			total = proto_get_be64(f.payload);
			if (total != it->bytes)
				return client_fail(cl, -EPROTO,
						   "the agent ended %s at %" PRIu64 " bytes but sent %" PRIu64,
						   what, total, it->bytes);
			it->status = ITEM_COMPLETE;
			it->err = 0;
			return 0;
		case PROTO_ERROR:
			ret = client_error_reply(cl, &f, what, &it->err);
			if (ret)
				return ret;
			it->status = it->bytes ? ITEM_INCOMPLETE : ITEM_MISSING;
			return 0;
		}
		return client_unexpected(cl, &f, what);
	}
}

int agent_client_read(struct agent_client *cl, struct file_item *it,
		      struct collect_sink *sink)
{
	char what[PROTO_MAX_PATH + 16];
	int ret, end;

	snprintf(what, sizeof(what), "READ '%s'", it->path);
	it->status = ITEM_MISSING;
	it->bytes = 0;
	ret = sink->ops->file_begin(sink, it);
	if (ret)
		return client_sink_failed(cl, ret);
	ret = client_send(cl, PROTO_READ, it->path, strlen(it->path), what);
	if (!ret)
		ret = client_read_reply(cl, it, sink, what);
	if (ret) {
		it->status = it->bytes ? ITEM_INCOMPLETE : ITEM_MISSING;
		it->err = -ret;
	}
	end = sink->ops->file_end(sink, it);
	if (end && !ret)
		return client_sink_failed(cl, end);
	return ret;
}

/*
 * A dump (not a follow) that passed KMSG_DUMP_MAX bytes or the reply
 * timeout: an agent that never ends it would keep us running and the
 * raw copy growing. The records that arrived stay.
 */
static int client_dump_bounded(struct agent_client *cl, uint64_t bytes,
			       int64_t until_ms)
{
	if (cl->follow)
		return 0;
	if (bytes > KMSG_DUMP_MAX)
		return client_fail(cl, -EFBIG,
				   "the agent's kernel log dump passed %llu MiB without an end; stopped there",
				   KMSG_DUMP_MAX >> 20);
	if (proto_now_ms() > until_ms)
		return client_fail(cl, -ETIME,
				   "the agent's kernel log dump did not end within %d s; stopped there",
				   cl->timeout_ms / 1000);
	return 0;
}

/*
 * The output a frame @what carries, @kept bytes at @out of @total: all
 * of it, or the last PROTO_WORKLOAD_OUTPUT bytes (the agent's ring).
 */
static int client_output(struct agent_client *cl, struct workload_item *w,
			 const uint8_t *out, size_t kept, uint64_t total,
			 const char *what)
{
	if (kept > PROTO_WORKLOAD_OUTPUT || kept > total ||
	    (total > kept && kept < PROTO_WORKLOAD_OUTPUT))
		return client_fail(cl, -EPROTO,
				   "the agent's %s frame keeps %zu bytes of %" PRIu64 " of output",
				   what, kept, total);
	/* the database counts output in 63 bits */
	if (total > INT64_MAX)
		return client_fail(cl, -EPROTO,
				   "the agent's %s frame claims %" PRIu64 " bytes of output, more than 2^63 - 1",
				   what, total);
	free(w->output);
	w->output = malloc(kept ? kept : 1);
	if (!w->output) {
		cl->local_failure = true;
		return client_fail(cl, -ENOMEM, "out of memory");
	}
	memcpy(w->output, out, kept);
	w->output_len = kept;
	w->output_total = total;
	return 0;
}

/*
 * EXITED, the workload's end, during a follow: keep it in @sum and end
 * the follow (the records the agent already sent still arrive).
 */
static int client_exited(struct agent_client *cl, struct collect_summary *sum,
			 const struct proto_frame *f)
{
	struct workload_item *w = &sum->workload;
	uint64_t duration;
	int ret;

	if (!cl->follow || w->state != WORKLOAD_RUNNING ||
	    f->len < PROTO_EXITED_HEADER)
		return client_unexpected(cl, f, "KMSG follow");
	/* checked before anything of the frame is kept: all or nothing */
	duration = proto_get_be64(f->payload + 4);
	if (duration > INT64_MAX)
		return client_fail(cl, -EPROTO,
				   "the agent's EXITED frame claims a run of %" PRIu64 " ms, more than 2^63 - 1",
				   duration);
	ret = client_output(cl, w, f->payload + PROTO_EXITED_HEADER,
			    f->len - PROTO_EXITED_HEADER,
			    proto_get_be64(f->payload + 20), "EXITED");
	if (ret)
		return ret;
	w->duration_ms = duration;
	w->wait_status = (int)proto_get_be32(f->payload);
	w->end_seq = proto_get_be64(f->payload + 12);
	w->state = WORKLOAD_EXITED;
	if (cl->follow_stopped)
		return 0;
	cl->follow_stopped = true;
	return client_stop_follow(cl) ?
	       client_fail(cl, -EPIPE, "unable to end the kernel log follow") : 0;
}

/*
 * EVENTS: dependency event lines, kept as they came (the database sink
 * parses them at the end). An empty one says the events are on.
 */
static int client_events(struct agent_client *cl, struct collect_summary *sum,
			 struct collect_sink *sink, const struct proto_frame *f)
{
	int ret;

	sum->events.offered = true;
	if (!f->len)
		return 0;
	if (sum->events.bytes + f->len > EVENTS_MAX)
		return client_fail(cl, -EFBIG,
				   "the agent's dependency events passed %llu MiB; stopped there",
				   EVENTS_MAX >> 20);
	ret = sink->ops->events_data(sink, f->payload, f->len);
	if (ret)
		return client_sink_failed(cl, ret);
	sum->events.bytes += f->len;
	return 0;
}

/*
 * The KMSG reply loop: records (and EVENTS frames if @events asked for
 * them) until END or ERROR.
 */
static int client_kmsg_reply(struct agent_client *cl,
			     struct collect_summary *sum,
			     struct collect_sink *sink, bool events)
{
	int64_t until = proto_now_ms() + cl->timeout_ms;
	struct kmsg_item *k = &sum->kmsg;
	uint64_t seq, n = 0, bytes = 0;
	struct proto_frame f;
	int ret;

	for (;;) {
		ret = client_recv(cl, &f, "KMSG");
		if (ret)
			return ret;
		switch (f.type) {
		case PROTO_RECORD:
			if (proto_kmsg_seq(f.payload, f.len, &seq))
				return client_fail(cl, -EPROTO,
						   "malformed kernel log record from the agent (%" PRIu32 " bytes)",
						   f.len);
			ret = collect_summary_kmsg_seq(sum, seq);
			if (ret == -EPROTO)
				return client_fail(cl, ret,
						   "kernel log record %" PRIu64 " arrived after record %" PRIu64,
						   seq, k->last);
			if (ret) {
				cl->local_failure = true;
				return client_fail(cl, ret, "out of memory");
			}
			ret = sink->ops->kmsg_record(sink, f.payload, f.len);
			if (ret)
				return client_sink_failed(cl, ret);
			n++;
			bytes += f.len;
			ret = client_dump_bounded(cl, bytes, until);
			if (ret)
				return ret;
			continue;
		case PROTO_END:
			if (f.len != PROTO_END_SIZE)
				return client_unexpected(cl, &f, "KMSG");
			if (proto_get_be64(f.payload) != n)
				return client_fail(cl, -EPROTO,
						   "the agent counted %" PRIu64 " kernel log records but sent %" PRIu64,
						   proto_get_be64(f.payload), n);
			if (k->status != ITEM_INCOMPLETE)
				k->status = ITEM_COMPLETE;
			return 0;
		case PROTO_EXITED:
			ret = client_exited(cl, sum, &f);
			if (ret)
				return ret;
			continue;
		case PROTO_EVENTS:
			if (!events)
				break;
			bytes += f.len;
			ret = client_events(cl, sum, sink, &f) ?:
			      client_dump_bounded(cl, bytes, until);
			if (ret)
				return ret;
			continue;
		case PROTO_ERROR:
			ret = client_error_reply(cl, &f, "KMSG", &k->err);
			if (!ret)
				k->status = k->records ? ITEM_INCOMPLETE :
						ITEM_MISSING;
			return ret;
		}
		return client_unexpected(cl, &f, "KMSG");
	}
}

int agent_client_kmsg(struct agent_client *cl, struct collect_summary *sum,
		      struct collect_sink *sink)
{
	struct kmsg_item *k = &sum->kmsg;
	uint8_t req[PROTO_KMSG_SIZE];
	int ret;

	req[0] = PROTO_KMSG_DUMP | PROTO_KMSG_EVENTS;
	proto_put_be64(req + 1, k->records ? k->last + 1 : 0);
	ret = client_send(cl, PROTO_KMSG, req, sizeof(req), "KMSG");
	if (!ret)
		ret = client_kmsg_reply(cl, sum, sink, true);
	if (ret) {
		k->status = k->records ? ITEM_INCOMPLETE : ITEM_MISSING;
		k->err = -ret;
	}
	return ret;
}

int agent_client_kmsg_follow(struct agent_client *cl,
			     struct collect_summary *sum,
			     struct collect_sink *sink, int64_t until_ms)
{
	struct kmsg_item *k = &sum->kmsg;
	uint8_t req[PROTO_KMSG_SIZE];
	int ret;

	req[0] = PROTO_KMSG_FOLLOW | PROTO_KMSG_EVENTS;
	proto_put_be64(req + 1, k->records ? k->last + 1 : 0);
	ret = client_send(cl, PROTO_KMSG, req, sizeof(req), "KMSG follow");
	if (ret)
		goto out;
	cl->follow = true;
	cl->follow_stopped = false;
	cl->follow_until_ms = until_ms > 0 ? until_ms : INT64_MAX;
	ret = client_kmsg_reply(cl, sum, sink, true);
	cl->follow = false;
	/* the stop request's own reply, an empty END */
	if (!ret && cl->follow_stopped)
		ret = client_kmsg_reply(cl, sum, sink, false);
	/* the guest went away at a record boundary: the stream is whole */
	if (ret == -EPIPE && !cl->follow_stopped)
		return ret;
out:
	if (ret) {
		k->status = k->records ? ITEM_INCOMPLETE : ITEM_MISSING;
		k->err = -ret;
	}
	return ret;
}

int agent_client_run(struct agent_client *cl, struct workload_item *w)
{
	struct proto_frame f;
	int ret;

	ret = client_ask(cl, PROTO_RUN, NULL, 0, &f, "RUN");
	if (ret) {
		w->state = WORKLOAD_NOT_STARTED;
		w->err = -ret;
		return ret;
	}
	if (f.type == PROTO_STARTED && f.len == PROTO_STARTED_SIZE) {
		w->start_seq = proto_get_be64(f.payload);
		w->state = WORKLOAD_RUNNING;
		return 0;
	}
	w->state = WORKLOAD_NOT_STARTED;
	if (f.type == PROTO_ERROR)
		return client_error_reply(cl, &f, "RUN", &w->err);
	w->err = EPROTO;
	return client_unexpected(cl, &f, "RUN");
}

int agent_client_output(struct agent_client *cl, struct workload_item *w)
{
	struct proto_frame f;
	int ret, err;

	ret = client_ask(cl, PROTO_OUTPUT, NULL, 0, &f, "OUTPUT");
	if (ret)
		return ret;
	if (f.type == PROTO_OUTPUT_REPLY && f.len >= PROTO_OUTPUT_HEADER)
		return client_output(cl, w, f.payload + PROTO_OUTPUT_HEADER,
				     f.len - PROTO_OUTPUT_HEADER,
				     proto_get_be64(f.payload), "OUTPUT_REPLY");
	if (f.type == PROTO_ERROR)
		return client_error_reply(cl, &f, "OUTPUT", &err);
	return client_unexpected(cl, &f, "OUTPUT");
}

int agent_client_trigger(struct agent_client *cl, struct trigger_item *t)
{
	char what[PROTO_MAX_SCENARIO + 16];
	struct proto_frame f;
	int ret;

	snprintf(what, sizeof(what), "TRIGGER '%s'", t->name);
	ret = client_ask(cl, PROTO_TRIGGER, t->name, strlen(t->name), &f, what);
	if (ret) {
		t->err = -ret;
		return ret;
	}
	if (f.type == PROTO_OK && !f.len) {
		t->done = true;
		return 0;
	}
	if (f.type == PROTO_ERROR)
		return client_error_reply(cl, &f, what, &t->err);
	t->err = EPROTO;
	return client_unexpected(cl, &f, what);
}

int agent_client_poweroff(struct agent_client *cl)
{
	struct proto_frame f;
	int ret, err;

	ret = client_ask(cl, PROTO_POWEROFF, NULL, 0, &f, "POWEROFF");
	if (ret)
		return ret;
	if (f.type == PROTO_OK && !f.len)
		return 0;
	if (f.type == PROTO_ERROR) {
		ret = client_error_reply(cl, &f, "POWEROFF", &err);
		return ret ? ret : client_fail(cl, -EPROTO,
				"the agent refused POWEROFF: %s", cl->agent_msg);
	}
	return client_unexpected(cl, &f, "POWEROFF");
}
