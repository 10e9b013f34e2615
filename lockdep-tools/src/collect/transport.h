/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host end of the agent protocol: one client per connection to the
 * QEMU chardev socket behind the agent's virtio port. Every reply is
 * untrusted: sizes are checked against what arrived, frame types against
 * what the request allows, text is sanitised before it is printed.
 *
 * Functions returning int give 0 while the connection is still usable
 * (even if the agent answered with an error) and -errno once it is not;
 * then client->why says what happened, in words. An ERROR reply's text is
 * kept in client->agent_msg.
 */
#ifndef LDT_COLLECT_TRANSPORT_H
#define LDT_COLLECT_TRANSPORT_H

#include <stdbool.h>

#include "collect/sink.h"
#include "collect/summary.h"
#include "proto/conn.h"

/* A file bigger than this is a misbehaving agent, not a kernel file. */
#define AGENT_MAX_FILE	(1ull << 30)
/*
 * Nor is a kernel log dump bigger than this: the largest log buffer
 * (CONFIG_LOG_BUF_SHIFT=25) holds 32 MiB of text. A dump must also end
 * within the reply timeout: it takes seconds at most.
 */
#define KMSG_DUMP_MAX	(64ull << 20)
/*
 * The dependency events of one boot: a line is under 200 bytes, and a
 * kernel has at most a few hundred thousand dependencies and usage bits.
 */
#define EVENTS_MAX	(1ull << 30)

struct agent_client {
	int fd;
	struct proto_conn conn;
	int timeout_ms;		/* longest wait for any one reply */
	uint32_t nonce;		/* of the last HELLO sent */
	bool local_failure;	/* the failure was ours (disk, memory) */
	char why[512];		/* the last failure, in words */
	char agent_msg[PROTO_MAX_ERROR_MSG];	/* the last ERROR's text */
	/* a KMSG follow in progress (agent_client_kmsg_follow()) */
	bool follow, follow_stopped;
	int64_t follow_until_ms;
};

/*
 * Connect to the UNIX socket @path, retrying while it does not exist or
 * refuses (QEMU still starting) until @deadline_ms.
 */
int agent_client_connect(struct agent_client *cl, const char *path,
			 int timeout_ms, int64_t deadline_ms);
void agent_client_close(struct agent_client *cl);

/*
 * Handshake: say HELLO every second until the agent answers one of them
 * (it may still be booting), or @deadline_ms. Stores the agent's
 * sanitised identity in @sum.
 */
int agent_client_hello(struct agent_client *cl, struct collect_summary *sum,
		       int64_t deadline_ms);

/*
 * LIST: set *@offered[i] for each allow-list entry the agent offers, and
 * add an entry to @sum for each module file it offers (up to
 * PROTO_MAX_MODULE_FILES; more, or anything else, is warned about and
 * ignored).
 */
int agent_client_list(struct agent_client *cl, struct collect_summary *sum,
		      bool *offered);

/* READ @it->path into @sink; fills in @it's status, bytes and err. */
int agent_client_read(struct agent_client *cl, struct file_item *it,
		      struct collect_sink *sink);

/*
 * KMSG dump of the records after the last one in @sum, into @sink, and
 * the dependency events buffered meanwhile (as the follow, too).
 */
int agent_client_kmsg(struct agent_client *cl, struct collect_summary *sum,
		      struct collect_sink *sink);

/*
 * KMSG follow: the records after the last one in @sum as they are logged,
 * into @sink, until @until_ms (0: no end; a KMSG dump after it fetches
 * what was logged while the follow was being stopped) or until the guest closes the
 * connection. A close at a record boundary returns -EPIPE with the kernel
 * log still complete: the guest powered off.
 */
int agent_client_kmsg_follow(struct agent_client *cl,
			     struct collect_summary *sum,
			     struct collect_sink *sink, int64_t until_ms);

/* TRIGGER @t->name; fills in @t->done or @t->err. */
int agent_client_trigger(struct agent_client *cl, struct trigger_item *t);

/*
 * RUN: start the guest's workload. Sets @w's state (RUNNING, or
 * NOT_STARTED with the agent's errno); its end comes as EXITED during the
 * next agent_client_kmsg_follow(), which then ends the follow.
 */
int agent_client_run(struct agent_client *cl, struct workload_item *w);

/*
 * OUTPUT: what a workload that did not end has written so far, into @w's
 * output (its state stays RUNNING). An agent without OUTPUT answers
 * ERROR, which is not a failure of the connection: 0, @w unchanged,
 * and the agent's words in @cl->agent_msg.
 */
int agent_client_output(struct agent_client *cl, struct workload_item *w);

/* POWEROFF, acknowledged. */
int agent_client_poweroff(struct agent_client *cl);

#endif
