// SPDX-License-Identifier: GPL-2.0
/*
 * One collection from the guest agent, step by step, with a progress line
 * per step. A connection that breaks ends the run early: what arrived
 * stays in the sink, the summary marks the rest, and the message names
 * the item that was cut and how much of it arrived.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "collect/collect.h"
#include "collect/console.h"
#include "collect/transport.h"
#include "proto/allowlist.h"
#include "util/error.h"

void collect_progress(int64_t t0_ms, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "  %-10s ", "collect");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (%.1fs)\n", (proto_now_ms() - t0_ms) / 1000.0);
}

/*
 * One line per file. When the connection broke (@ret < 0) the reason is
 * told here, with the file, and cleared from cl->why.
 */
static void report_item(int64_t t0, const struct file_item *it,
			struct agent_client *cl, int ret)
{
	const char *err;
	char buf[32];

	err = item_err_name(it->err, buf, sizeof(buf));
	if (ret < 0) {
		fprintf(stderr,
			"lockdep-collect: error: '%s' is %s, %llu bytes received: %s\n",
			it->path, item_status_name(it->status),
			(unsigned long long)it->bytes, cl->why);
		cl->why[0] = '\0';
	} else if (it->status == ITEM_COMPLETE) {
		collect_progress(t0, "%s: %llu bytes", it->path,
				 (unsigned long long)it->bytes);
	} else if (it->status == ITEM_MISSING) {
		collect_progress(t0, "%s: missing (%s: %s)", it->path, err,
				 cl->agent_msg);
	} else {
		fprintf(stderr,
			"lockdep-collect: error: '%s' is incomplete, %llu bytes received: %s: %s\n",
			it->path, (unsigned long long)it->bytes, err,
			cl->agent_msg);
	}
}

static int fetch_files(struct agent_client *cl, struct collect_summary *sum,
		       struct collect_sink *sink, int64_t t0)
{
	size_t i, module_files = 0;
	bool *offered;
	int ret;

	offered = calloc(proto_allowlist_len, sizeof(*offered));
	if (!offered) {
		fputs("lockdep-collect: error: out of memory\n", stderr);
		cl->local_failure = true;
		return -ENOMEM;
	}
	/* adds the module files offered: all of them are offered */
	ret = agent_client_list(cl, sum, offered);
	for (i = 0; !ret && i < sum->nfiles; i++) {
		if (i < proto_allowlist_len && !offered[i]) {
			sum->files[i].err = ITEM_UNLISTED;
			collect_summary_no_lockdep(sum);
			if (sum->files[i].required)
				collect_progress(t0, "%s: missing (not offered by the agent)",
						 sum->files[i].path);
			continue;
		}
		cl->agent_msg[0] = '\0';
		ret = agent_client_read(cl, &sum->files[i], sink);
		/* /proc/lockdep comes first: the rest is then optional */
		if (!ret)
			collect_summary_no_lockdep(sum);
		/* one line for all the module files that arrived */
		if (i >= proto_allowlist_len && !ret &&
		    sum->files[i].status == ITEM_COMPLETE) {
			module_files++;
			continue;
		}
		/* the kernel does not have it: main() says so once */
		if (!cl->local_failure &&
		    (ret || !file_item_not_offered(&sum->files[i])))
			report_item(t0, &sum->files[i], cl, ret);
	}
	if (module_files)
		collect_progress(t0, "module sections and build ids: %zu files",
				 module_files);
	free(offered);
	return ret;
}

static int fetch_kmsg(struct agent_client *cl, struct collect_summary *sum,
		      struct collect_sink *sink, int64_t t0)
{
	const struct kmsg_item *k = &sum->kmsg;
	uint64_t before = k->records;
	char buf[32];
	int ret;

	cl->agent_msg[0] = '\0';
	ret = agent_client_kmsg(cl, sum, sink);
	if (ret < 0 && !cl->local_failure) {
		fprintf(stderr,
			"lockdep-collect: error: kernel log is %s, %llu records received: %s\n",
			item_status_name(k->status),
			(unsigned long long)(k->records - before), cl->why);
		cl->why[0] = '\0';
	} else if (!ret && k->status == ITEM_COMPLETE) {
		collect_progress(t0, "kmsg: %llu new records (gaps so far: %zu)",
				 (unsigned long long)(k->records - before),
				 k->ngaps);
	} else if (!ret) {
		fprintf(stderr,
			"lockdep-collect: error: kernel log is %s, %llu records received: %s: %s\n",
			item_status_name(k->status),
			(unsigned long long)(k->records - before),
			item_err_name(k->err, buf, sizeof(buf)), cl->agent_msg);
	}
	return ret;
}

static int run_triggers(struct agent_client *cl, struct collect_summary *sum,
			struct collect_sink *sink, int64_t t0)
{
	struct trigger_item *t;
	char buf[32];
	size_t i;
	int ret;

	for (i = 0; i < sum->ntriggers; i++) {
		t = &sum->triggers[i];
		cl->agent_msg[0] = '\0';
		ret = agent_client_trigger(cl, t);
		if (ret)
			return ret;
		if (t->done)
			collect_progress(t0, "trigger %s: done", t->name);
		/* ENOENT: no scenario module, which main() says once */
		else if (t->err != ENOENT)
			fprintf(stderr,
				"lockdep-collect: error: trigger '%s' failed (%s: %s)\n",
				t->name, item_err_name(t->err, buf, sizeof(buf)),
				cl->agent_msg);
		ret = fetch_kmsg(cl, sum, sink, t0);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The guest closed the connection during the follow. Only a power-off
 * its console log shows makes that the end of a whole collection; a
 * panic, a guest that just vanished (QEMU killed) or no console to ask
 * make the kernel log incomplete, with the reason in words.
 */
static void follow_ended(const struct collect_agent_opts *o,
			 struct collect_summary *sum)
{
	struct console_verdict v;

	if (!o->console) {
		snprintf(sum->end_reason, sizeof(sum->end_reason),
			 "the guest closed the connection during the follow (give --console to tell a power-off from a crash)");
	} else if (console_read(o->console, &v, NULL, NULL)) {
		snprintf(sum->end_reason, sizeof(sum->end_reason),
			 "the guest closed the connection during the follow, and its console log could not be read");
	} else if (v.end == CONSOLE_POWER_OFF) {
		return;
	} else if (v.end == CONSOLE_PANIC) {
		snprintf(sum->end_reason, sizeof(sum->end_reason),
			 "the guest panicked: %s", v.line);
	} else {
		snprintf(sum->end_reason, sizeof(sum->end_reason),
			 "the guest went away during the follow and neither powered off nor panicked on its console (QEMU exited or was killed)");
	}
	sum->kmsg.status = ITEM_INCOMPLETE;
	sum->kmsg.err = EPIPE;
	error("%s", sum->end_reason);
}

/*
 * The connection broke outside a follow: say how the guest ended, as
 * far as its console log tells (a panic is then the reason the boot is
 * partial).
 */
static void connection_lost(const struct collect_agent_opts *o,
			    struct collect_summary *sum)
{
	struct console_verdict v;

	if (!o->console || console_read(o->console, &v, NULL, NULL))
		return;
	if (v.end == CONSOLE_PANIC) {
		snprintf(sum->end_reason, sizeof(sum->end_reason),
			 "the guest panicked: %s", v.line);
		error("%s", sum->end_reason);
	} else if (v.end == CONSOLE_POWER_OFF) {
		error("the guest powered off (its console log '%s' says so)",
		      o->console);
	} else {
		error("the guest neither panicked nor powered off on its console log '%s': QEMU exited, was killed or timed out",
		      o->console);
	}
}

static bool broken(int ret)
{
	return ret == -EPIPE || ret == -ECONNRESET;
}

/*
 * Stream the kernel log; 1 when the guest went away (follow_ended()
 * says whether that was a power-off).
 */
static int follow_kmsg(struct agent_client *cl, const struct collect_agent_opts *o,
		       struct collect_summary *sum, struct collect_sink *sink,
		       int64_t t0)
{
	uint64_t before = sum->kmsg.records;
	int64_t until = o->duration_s ? proto_now_ms() + o->duration_s * 1000LL : 0;
	int ret;

	if (o->duration_s)
		collect_progress(t0, "following the kernel log for %d s",
				 o->duration_s);
	else
		collect_progress(t0, "following the kernel log until the guest powers off");
	ret = agent_client_kmsg_follow(cl, sum, sink, until);
	if (ret == -EPIPE) {
		collect_progress(t0, "kmsg: %llu records followed, the guest closed the connection",
				 (unsigned long long)(sum->kmsg.records - before));
		cl->why[0] = '\0';
		follow_ended(o, sum);
		return 1;
	}
	if (!ret)
		collect_progress(t0, "kmsg: %llu records followed",
				 (unsigned long long)(sum->kmsg.records - before));
	return ret ? ret : fetch_kmsg(cl, sum, sink, t0);
}

/*
 * The guest went away while the workload ran: whatever the console says,
 * the workload's end is missing, and the reason names it.
 */
static void workload_lost(struct collect_summary *sum)
{
	char why[COLLECT_WHY_MAX];

	snprintf(why, sizeof(why), "%s", sum->end_reason[0] ? sum->end_reason :
		 "the guest powered off");
	snprintf(sum->end_reason, sizeof(sum->end_reason),
		 "workload '%s' did not end: %.360s while it ran; its exit status and output are missing",
		 sum->workload.name, why);
	error("%s", sum->end_reason);
}

/*
 * Start the workload and follow the kernel log until it ends or for
 * @o->run_timeout_s; 1 when the guest went away meanwhile.
 */
static int run_workload(struct agent_client *cl,
			const struct collect_agent_opts *o,
			struct collect_summary *sum, struct collect_sink *sink,
			int64_t t0)
{
	struct workload_item *w = &sum->workload;
	char buf[32], status[48];
	int ret;

	cl->agent_msg[0] = '\0';
	ret = agent_client_run(cl, w);
	if (ret)
		return ret;
	if (w->state == WORKLOAD_NOT_STARTED) {
		error("workload '%s' did not start (%s: %s)", w->name,
		      item_err_name(w->err, buf, sizeof(buf)), cl->agent_msg);
		return 0;
	}
	collect_progress(t0, "workload %s: started, following the kernel log for at most %d s",
			 w->name, o->run_timeout_s);
	ret = agent_client_kmsg_follow(cl, sum, sink,
				       proto_now_ms() + o->run_timeout_s * 1000LL);
	if (ret == -EPIPE) {
		cl->why[0] = '\0';
		follow_ended(o, sum);
		workload_lost(sum);
		return 1;
	}
	if (ret)
		return ret;
	if (w->state == WORKLOAD_EXITED) {
		workload_status_text(w, status, sizeof(status));
		collect_progress(t0, "workload %s: %s after %.1f s, %llu bytes of output",
				 w->name, status, w->duration_ms / 1000.0,
				 (unsigned long long)w->output_total);
	} else {
		/* a hung workload's output is what says where it hung */
		ret = agent_client_output(cl, w);
		if (ret)
			return ret;
		if (w->output)
			snprintf(sum->end_reason, sizeof(sum->end_reason),
				 "workload '%s' did not end within %d s (--run-timeout): its exit status is missing; its output so far is kept (%llu bytes)",
				 w->name, o->run_timeout_s,
				 (unsigned long long)w->output_total);
		else
			snprintf(sum->end_reason, sizeof(sum->end_reason),
				 "workload '%s' did not end within %d s (--run-timeout): its exit status and output are missing (%.200s)",
				 w->name, o->run_timeout_s, cl->agent_msg);
		error("%s", sum->end_reason);
	}
	return fetch_kmsg(cl, sum, sink, t0);
}

int collect_from_agent(const struct collect_agent_opts *o,
		       struct collect_summary *sum, struct collect_sink *sink)
{
	int64_t t0 = proto_now_ms();
	int timeout_ms = o->timeout_s * 1000;
	struct agent_client cl;
	int ret;

	collect_progress(t0, "connecting to '%s'", o->socket_path);
	ret = agent_client_connect(&cl, o->socket_path, timeout_ms,
				   t0 + timeout_ms);
	if (!ret) {
		collect_progress(t0, "waiting for the agent");
		ret = agent_client_hello(&cl, sum, t0 + timeout_ms);
	}
	if (ret) {
		error("%s", cl.why);
		if (broken(ret))
			connection_lost(o, sum);
		agent_client_close(&cl);
		return EXIT_FATAL;
	}
	collect_progress(t0, "agent: %s", sum->identity);

	/* Triggers first, so the files show what the scenarios added. */
	ret = fetch_kmsg(&cl, sum, sink, t0);
	if (!ret)
		ret = run_triggers(&cl, sum, sink, t0);
	if (!ret && sum->workload.name[0]) {
		ret = run_workload(&cl, o, sum, sink, t0);
		if (ret == 1) {
			agent_client_close(&cl);
			return 0;
		}
	}
	if (!ret)
		ret = fetch_files(&cl, sum, sink, t0);
	/* what was logged while they were read, with the events (a follow too) */
	if (!ret && !o->follow)
		ret = fetch_kmsg(&cl, sum, sink, t0);
	if (!ret && o->follow) {
		ret = follow_kmsg(&cl, o, sum, sink, t0);
		if (ret == 1) {
			agent_client_close(&cl);
			return 0;
		}
	}
	if (!ret && o->poweroff) {
		ret = agent_client_poweroff(&cl);
		if (!ret)
			collect_progress(t0, "power-off acknowledged");
	}
	if (ret < 0 && !cl.local_failure && cl.why[0])
		error("%s", cl.why);
	if (!cl.local_failure && broken(ret))
		connection_lost(o, sum);
	agent_client_close(&cl);
	if (ret < 0 && cl.local_failure)
		return EXIT_FATAL;
	if (ret < 0 && o->poweroff) {
		fputs("lockdep-collect: error: the guest was not powered off\n",
		      stderr);
		return EXIT_PARTIAL;
	}
	return 0;
}
