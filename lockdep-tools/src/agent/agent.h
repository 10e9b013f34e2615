/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lockdep-agent internals: finding the port, serving one connection, and
 * the request handlers that touch guest files.
 */
#ifndef LDT_AGENT_H
#define LDT_AGENT_H

#include <poll.h>
#include <stdint.h>

#include "proto/conn.h"

#define AGENT_DEFAULT_PORT	"org.lockdep.agent"
#define AGENT_PORT_WAIT_S	30
#define AGENT_TRIGGER_PATH	"/sys/kernel/debug/lockdep_scenarios/trigger"
/* RUN's default: the initramfs that vm/boot.sh -r appends puts it here. */
#define AGENT_WORKLOAD_PATH	"/workload/run"

/* How a connection ended, as agent_serve() reports it. */
enum agent_end {
	AGENT_HANGUP,	/* host went away at a frame boundary: poll again */
	AGENT_DROP,	/* stream unusable (mid-frame close, oversized, I/O) */
	AGENT_POWEROFF,	/* POWEROFF acknowledged: exit 0 */
};

/*
 * Find the virtio port named @name under /sys/class/virtio-ports and open
 * its /dev node read-write, waiting up to @wait_s seconds for it to appear.
 * Returns the fd, or -1 after printing why.
 */
int agent_port_open(const char *name, int wait_s);

/* A UNIX stream socket listening at @path (removed first), or -1. */
int agent_listen(const char *path);

/*
 * Answer requests on @c until the host hangs up, the stream breaks or the
 * host asks for power-off. Returns enum agent_end, or -errno when the
 * agent itself cannot go on (out of memory).
 */
int agent_serve(struct proto_conn *c);

/*
 * Request handlers. Each sends the whole reply; a return of 0 means the
 * reply went out (possibly an ERROR), -errno that sending failed.
 */
int agent_read_file(struct proto_conn *c, const struct proto_frame *req);
int agent_kmsg(struct proto_conn *c, const struct proto_frame *req);
int agent_trigger(struct proto_conn *c, const struct proto_frame *req);
int agent_run(struct proto_conn *c, const struct proto_frame *req);

/*
 * The lockdep dependency events of a KMSG request with PROTO_KMSG_EVENTS
 * (events.c). agent_events_open() enables them and sends the first,
 * empty, EVENTS frame; fd stays -1 when the kernel has no such events.
 * agent_events_drain() sends the whole lines readable now: 0 when there
 * are no more, 1 after an ERROR reply was sent, or -errno when sending
 * failed. have bytes of an unfinished line wait in buf.
 */
struct agent_events {
	int fd;
	size_t have;
	char buf[PROTO_CHUNK];
};

int agent_events_open(struct proto_conn *c, struct agent_events *ev);
int agent_events_drain(struct proto_conn *c, struct agent_events *ev);
void agent_events_close(struct agent_events *ev);
/* Mark the READ of @path in the trace buffer: 0 or -errno. */
int agent_events_mark_read(const char *path);

/* The workload RUN starts (workload.c): @path instead of the default. */
void agent_workload_set_path(const char *path);
/*
 * While it runs: up to two fds (its output, its pidfd) to add to every
 * poll() of the agent, and the call to make after each poll() wakes up.
 */
#define AGENT_WORKLOAD_FDS	2
int agent_workload_pollfds(struct pollfd *pfd);
void agent_workload_service(void);
/* Send EXITED if the workload has ended and it was not sent yet. */
int agent_workload_report(struct proto_conn *c);
/* OUTPUT: what the workload wrote so far, ended or not. */
int agent_workload_output(struct proto_conn *c, const struct proto_frame *req);

/*
 * The lockdep_stats sampler (sample.c): every @ms (0: none; default
 * AGENT_SAMPLE_DEFAULT_MS), and a snapshot with the graph export at
 * the first "BUG: MAX_... too low!". agent_sample_start() takes the
 * first sample; then, as for the workload, each poll() of the agent
 * adds the fd and bounds its timeout with these, and calls
 * agent_sample_service() when it wakes up.
 */
#define AGENT_SAMPLE_DEFAULT_MS	2000
/* a day: longer is no series */
#define AGENT_SAMPLE_MAX_MS	86400000
#define AGENT_SERIES_MAX	(16u << 20)
#define AGENT_SAMPLE_FDS	1
void agent_sample_set_interval(unsigned int ms);
void agent_sample_start(void);
int agent_sample_pollfds(struct pollfd *pfd);
/* @timeout_ms (-1: none) or less, to wake up for the next sample */
int agent_sample_timeout(int timeout_ms);
void agent_sample_service(void);

#endif
