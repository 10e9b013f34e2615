/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one collection got, item by item, whatever the source: every file
 * with its status, the kernel log's sequence numbers and gaps, and each
 * scenario trigger. Sinks record it (the raw sink as MANIFEST) and the
 * exit status is computed from it.
 *
 * Invariants:
 * (1) Every allow-listed file has exactly one entry, in allow-list order;
 *     after them come the module files (allowlist.h) the source found, at
 *     most one entry per path and PROTO_MAX_MODULE_FILES in all, in the
 *     order found. Only those paths are owned.
 * (2) An entry is COMPLETE only when the source confirmed its total size
 *     and that many bytes arrived.
 * (3) Kernel log sequence numbers only grow; a jump is recorded as a gap.
 */
#ifndef LDT_COLLECT_SUMMARY_H
#define LDT_COLLECT_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/proto.h"

enum item_status {
	ITEM_MISSING,		/* nothing arrived (err says why) */
	ITEM_INCOMPLETE,	/* some arrived, then it was cut (err) */
	ITEM_COMPLETE,
};

/* err value of a file the agent did not offer in its LIST reply */
#define ITEM_UNLISTED	(-1)

struct file_item {
	const char *path;
	bool required;
	enum item_status status;
	uint64_t bytes;
	int err;
};

struct trigger_item {
	const char *name;
	bool done;
	int err;		/* why not done (ENOTCONN: never sent) */
};

/*
 * The workload of --run: the guest's /workload/run, started by the agent.
 * Sequence numbers are the kernel log's: reports from start_seq on and
 * before end_seq happened while it ran.
 */
enum workload_state {
	WORKLOAD_NONE,		/* no workload was asked for */
	WORKLOAD_NOT_STARTED,	/* err says why */
	WORKLOAD_RUNNING,	/* started; its end never arrived */
	WORKLOAD_EXITED,
};

#define WORKLOAD_NAME_MAX	64
#define WORKLOAD_SEQ_UNKNOWN	UINT64_MAX
/* lockdep-collect's status when all is complete but the workload failed */
#define COLLECT_EXIT_WORKLOAD_FAILED	4

struct workload_item {
	char name[WORKLOAD_NAME_MAX + 1];
	enum workload_state state;
	int err;
	uint64_t start_seq, end_seq;	/* WORKLOAD_SEQ_UNKNOWN if unknown */
	int wait_status;		/* as waitpid() gives it */
	uint64_t duration_ms;
	uint64_t output_total;		/* bytes it wrote, kept or not */
	uint8_t *output;		/* the last output_len of them */
	size_t output_len;
};

/* A workload name is 1..WORKLOAD_NAME_MAX bytes of [A-Za-z0-9._+-]. */
bool workload_name_valid(const char *name, size_t len);
/* "exit status 3", "killed by signal 9" for @w's wait status */
void workload_status_text(const struct workload_item *w, char *buf,
			  size_t size);

/* The longest reason a collection is partial, in words. */
#define COLLECT_WHY_MAX	512

struct kmsg_gap {
	uint64_t from, to;	/* missing sequence numbers, inclusive */
};

struct kmsg_item {
	enum item_status status;
	int err;
	uint64_t records;
	uint64_t first, last;	/* valid when records > 0 */
	struct kmsg_gap *gaps;
	size_t ngaps;
};

/*
 * The lockdep dependency events (trace_pipe text) that came with the
 * kernel log: offered when the agent sent at least one EVENTS frame.
 */
struct events_item {
	bool offered;
	uint64_t bytes;
};

struct collect_summary {
	char identity[PROTO_MAX_IDENTITY];	/* sanitised, "" if unknown */
	struct file_item *files;
	size_t nfiles;
	struct trigger_item *triggers;
	size_t ntriggers;
	struct kmsg_item kmsg;
	struct events_item events;
	struct workload_item workload;
	/*
	 * How the guest ended when that made the collection partial (it
	 * panicked, it went away during a follow), or "".
	 */
	char end_reason[COLLECT_WHY_MAX];
	/* no /proc/lockdep: see collect_summary_no_lockdep() */
	bool no_lockdep;
};

/* One MISSING entry per allow-listed file, one per trigger name. */
int collect_summary_init(struct collect_summary *sum,
			 const char *const *triggers, size_t ntriggers);

/*
 * A MISSING entry for the module file @path[0..@len), which must be one
 * (proto_module_file_path()). Returns it, or NULL with -EEXIST (already
 * there), -E2BIG (PROTO_MAX_MODULE_FILES reached) or -ENOMEM in *@err.
 */
struct file_item *collect_summary_add_module_file(struct collect_summary *sum,
						  const char *path, size_t len,
						  int *err);
void collect_summary_release(struct collect_summary *sum);

/*
 * Account for a kernel log record with sequence number @seq. Returns 0,
 * -EPROTO when @seq does not follow the last one, or -ENOMEM.
 */
int collect_summary_kmsg_seq(struct collect_summary *sum, uint64_t seq);

/*
 * EXIT_PARTIAL when partial (collect_summary_why_partial()), else
 * COLLECT_EXIT_WORKLOAD_FAILED when the workload failed, else
 * EXIT_NOT_OFFERED when the kernel did not offer something
 * (collect_summary_not_offered()), else EXIT_OK.
 */
int collect_summary_exit_status(const struct collect_summary *sum);

/*
 * What the kernel does not offer, as opposed to what it offered and
 * did not arrive whole: an optional file it does not have (missing with
 * ENOENT, or not listed by the agent) and a trigger that found no
 * scenario module (ENOENT). True if there is any, listed in @what
 * ("/sys/kernel/debug/lockdep/graph, trigger ab_ba (no scenario module)").
 */
bool collect_summary_not_offered(const struct collect_summary *sum,
				 char *what, size_t size);

/*
 * A kernel without lockdep (CONFIG_PROVE_LOCKING and CONFIG_LOCKDEP
 * off) has no /proc/lockdep, lockdep_stats or lockdep_chains: when
 * /proc/lockdep is missing for that reason (ENOENT, or not listed) and
 * no other lockdep file arrived, even in part, those files are what the
 * kernel does not offer rather than required ones missing, and
 * no_lockdep is set; otherwise they are required again. Returns
 * no_lockdep. Call it as files arrive (a later lockdep file undoes an
 * early verdict) and once they all have.
 */
bool collect_summary_no_lockdep(struct collect_summary *sum);

/* @it is an optional file the kernel does not have (see above). */
bool file_item_not_offered(const struct file_item *it);
/*
 * True when partial, with why in words in @why: end_reason, or the first
 * item that is not as required ("'/proc/lockdep' is incomplete (EPIPE)").
 * What the kernel does not offer never makes a collection partial.
 */
bool collect_summary_why_partial(const struct collect_summary *sum,
				 char *why, size_t size);

/* "complete", "incomplete" or "missing" */
const char *item_status_name(enum item_status st);

/* "ENOENT", "unlisted", ...: the reason token of MANIFEST and messages */
const char *item_err_name(int err, char *buf, size_t size);

#endif
