// SPDX-License-Identifier: GPL-2.0
/*
 * KMSG: the kernel log as /dev/kmsg hands it out, one record per RECORD
 * frame, untouched, so the host can read the sequence numbers and see any
 * gap. Each request opens /dev/kmsg afresh (its reader starts at the
 * oldest record still buffered) and skips records older than the
 * sequence number the host asked for. With PROTO_KMSG_EVENTS the lockdep
 * dependency events (events.c) go along, each batch after the records
 * read before it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#include "agent/agent.h"
#include "proto/message.h"

/* A record is at most ~8 KiB (CONSOLE_EXT_LOG_MAX); read() needs room. */
#define KMSG_RECORD_MAX	16384

/*
 * A trace_pipe whose wake-up was missed is read again after this long:
 * the events never wait longer for a kernel log record to come.
 */
#define EVENTS_POLL_MS	1000

struct kmsg_stream {
	int fd;
	uint64_t first;
	uint64_t sent;
	struct agent_events ev;
	uint8_t rec[KMSG_RECORD_MAX];
};

/*
 * Send every record readable now. Returns 0 when /dev/kmsg has no more,
 * 1 after an ERROR reply was sent (the stream is over), or -errno when
 * sending failed.
 */
static int kmsg_drain(struct proto_conn *c, struct kmsg_stream *ks)
{
	uint64_t seq;
	ssize_t n;
	int ret;

	for (;;) {
		n = read(ks->fd, ks->rec, sizeof(ks->rec));
		if (n < 0) {
			/* EPIPE: records were overwritten; the seq gap shows it */
			if (errno == EINTR || errno == EPIPE)
				continue;
			if (errno == EAGAIN)
				return 0;
			ret = proto_conn_send_error(c, errno, PROTO_NO_DEADLINE,
					"unable to read /dev/kmsg after %llu records",
					(unsigned long long)ks->sent);
			return ret ? ret : 1;
		}
		if (n == 0)
			return 0;
		if (!proto_kmsg_seq(ks->rec, n, &seq) && seq < ks->first)
			continue;
		ret = proto_conn_send(c, PROTO_RECORD, ks->rec, n,
				      PROTO_NO_DEADLINE);
		if (ret)
			return ret;
		ks->sent++;
	}
}

/* The records readable now, then the events; as kmsg_drain() returns. */
static int drain(struct proto_conn *c, struct kmsg_stream *ks)
{
	int ret = kmsg_drain(c, ks);

	return ret ? ret : agent_events_drain(c, &ks->ev);
}

/*
 * Follow: wait for new records until the host has something to say. A
 * workload that ends meanwhile is told with EXITED, after the records
 * logged before its end.
 */
static int kmsg_follow(struct proto_conn *c, struct kmsg_stream *ks)
{
	struct pollfd pfd[3 + AGENT_WORKLOAD_FDS + AGENT_SAMPLE_FDS];
	int n, ret;

	while (!proto_conn_buffered(c)) {
		ret = agent_workload_report(c);
		if (ret)
			return ret;
		pfd[0] = (struct pollfd){ .fd = ks->fd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = c->fd, .events = POLLIN };
		/* a negative fd (no events) is ignored by poll() */
		pfd[2] = (struct pollfd){ .fd = ks->ev.fd, .events = POLLIN };
		n = 3 + agent_workload_pollfds(pfd + 3);
		n += agent_sample_pollfds(pfd + n);
		if (poll(pfd, n, agent_sample_timeout(ks->ev.fd >= 0 ?
						      EVENTS_POLL_MS : -1)) < 0) {
			if (errno == EINTR)
				continue;
			return proto_conn_send_error(c, errno,
					PROTO_NO_DEADLINE,
					"unable to wait for /dev/kmsg");
		}
		agent_workload_service();
		agent_sample_service();
		if (pfd[1].revents)
			break;
		ret = drain(c, ks);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	return proto_conn_send_end(c, ks->sent, PROTO_NO_DEADLINE);
}

int agent_kmsg(struct proto_conn *c, const struct proto_frame *req)
{
	struct kmsg_stream *ks;
	uint8_t mode;
	int ret;

	if (req->len != PROTO_KMSG_SIZE)
		return proto_conn_send_error(c, EINVAL, PROTO_NO_DEADLINE,
				"KMSG payload is %u bytes, expected %d",
				req->len, PROTO_KMSG_SIZE);
	mode = req->payload[0] & ~PROTO_KMSG_EVENTS;
	if (mode != PROTO_KMSG_DUMP && mode != PROTO_KMSG_FOLLOW)
		return proto_conn_send_error(c, EINVAL, PROTO_NO_DEADLINE,
					     "unknown KMSG mode %u", req->payload[0]);
	ks = malloc(sizeof(*ks));
	if (!ks)
		return proto_conn_send_error(c, ENOMEM, PROTO_NO_DEADLINE,
					     "out of memory for /dev/kmsg");
	ks->first = proto_get_be64(req->payload + 1);
	ks->sent = 0;
	ks->ev.fd = -1;
	ks->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (ks->fd < 0) {
		ret = proto_conn_send_error(c, errno, PROTO_NO_DEADLINE,
					    "unable to open /dev/kmsg");
		free(ks);
		return ret;
	}
	ret = 0;
	if (req->payload[0] & PROTO_KMSG_EVENTS)
		ret = agent_events_open(c, &ks->ev);
	if (!ret)
		ret = drain(c, ks);
	if (!ret)
		ret = mode == PROTO_KMSG_FOLLOW ?
			kmsg_follow(c, ks) :
			proto_conn_send_end(c, ks->sent, PROTO_NO_DEADLINE);
	else if (ret > 0)
		ret = 0;
	agent_events_close(&ks->ev);
	close(ks->fd);
	free(ks);
	return ret;
}
