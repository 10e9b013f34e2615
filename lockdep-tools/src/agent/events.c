// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's lockdep dependency events (lock:lockdep_dependency,
 * lock:lockdep_usage and lock:lockdep_class_zapped, from our kernel
 * series, and lock:lockdep_class from its v3 on) for a KMSG request that
 * asks for them: enabled in tracefs,
 * read from trace_pipe, which hands out each buffered event once (since
 * boot when the command line enabled them), and sent as EVENTS frames of
 * whole lines. The first EVENTS frame goes out as soon as the events are
 * on, empty when nothing is buffered: a kernel without them sends none.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent/agent.h"
#include "proto/message.h"

#define TRACEFS	"/sys/kernel/tracing"

static const struct {
	const char *name;
	/* absent from the v2 series: its stream goes without it */
	bool optional;
} events[] = {
	{ "lockdep_dependency",		false },
	{ "lockdep_usage",		false },
	{ "lockdep_class_zapped",	false },
	{ "lockdep_class",		true },
};

static int enable(const char *name)
{
	char path[128];
	int fd, ret = 0;

	snprintf(path, sizeof(path), TRACEFS "/events/lock/%s/enable", name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "1", 1) != 1)
		ret = -errno;
	close(fd);
	return ret;
}

int agent_events_open(struct proto_conn *c, struct agent_events *ev)
{
	size_t i;

	ev->fd = -1;
	ev->have = 0;
	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (enable(events[i].name) && !events[i].optional)
			return 0;
	ev->fd = open(TRACEFS "/trace_pipe", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (ev->fd < 0)
		return 0;
	return proto_conn_send(c, PROTO_EVENTS, NULL, 0, PROTO_NO_DEADLINE);
}

/*
 * "lockdep-agent: READ @path" in the trace buffer, before the file is
 * opened: in the event stream, the events before that line happened
 * before the read, so a snapshot such as the graph export holds what
 * they added.
 */
int agent_events_mark_read(const char *path)
{
	char line[PROTO_MAX_PATH + 32];
	int fd, n, ret = 0;
	ssize_t w;

	fd = open(TRACEFS "/trace_marker", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = snprintf(line, sizeof(line), "lockdep-agent: READ %s\n", path);
	w = write(fd, line, (size_t)n);
	if (w != n)
		ret = w < 0 ? -errno : -EIO;
	close(fd);
	return ret;
}

void agent_events_close(struct agent_events *ev)
{
	if (ev->fd >= 0)
		close(ev->fd);
	ev->fd = -1;
}

/* Send the whole lines of ev->buf, keep the rest for the next read. */
static int send_lines(struct proto_conn *c, struct agent_events *ev)
{
	size_t n = ev->have;
	int ret;

	while (n && ev->buf[n - 1] != '\n')
		n--;
	/* a line longer than the buffer goes out in pieces */
	if (!n && ev->have == sizeof(ev->buf))
		n = ev->have;
	if (!n)
		return 0;
	ret = proto_conn_send(c, PROTO_EVENTS, ev->buf, n, PROTO_NO_DEADLINE);
	memmove(ev->buf, ev->buf + n, ev->have - n);
	ev->have -= n;
	return ret;
}

int agent_events_drain(struct proto_conn *c, struct agent_events *ev)
{
	ssize_t n;
	int ret;

	while (ev->fd >= 0) {
		n = read(ev->fd, ev->buf + ev->have, sizeof(ev->buf) - ev->have);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return 0;
			ret = proto_conn_send_error(c, errno, PROTO_NO_DEADLINE,
					"unable to read " TRACEFS "/trace_pipe");
			return ret ? ret : 1;
		}
		if (n == 0)
			return 0;
		ev->have += (size_t)n;
		ret = send_lines(c, ev);
		if (ret)
			return ret;
	}
	return 0;
}
