/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel log parser internals: the state of one context and the line
 * handlers shared by klog.c (boundaries), klog-section.c (what a line
 * inside a report means), klog-locks.c (lock, task and held-list lines)
 * and klog-fields.c (kernel, task and taint fields).
 *
 * Lines arrive from klog-line.c already stripped of prefixes and joined
 * back where mail or dmesg wrapped them. Each PRINTK_CALLER tag gets its
 * own context, so reports printed at the same time by two tasks or CPUs
 * do not mix; an untagged log has one context.
 *
 * A context is idle or inside a report. Inside, it is in one section at a
 * time, and the section says what a lock line or a frame line means:
 *
 *   idle   --header [start_report]-->                       HEAD
 *   HEAD   --"X/123 is trying to acquire lock:" [klog_task_line]--> LOCKS
 *   LOCKS  --"the existing dependency chain ..." [phrase_line]-->   CHAIN
 *   any    --"the (shortest) dependencies between ..."-->     CLASSDUMP
 *   any    --"Chain exists of:"--> SUMMARY --"a --> b"-->      OTHER
 *   any    --"Possible ... scenario:"--> SCENARIO --"*** DEADLOCK ***"--> OTHER
 *   any    --"N locks held by X/123:" [klog_held_header]-->  HELD
 *   any    --"stack backtrace:", "CPU: N PID:", "Call Trace:"--> BACKTRACE
 *   any    --panic_on_warn panic or fault before a backtrace frame
 *            [klog_cut_report]--> cut --its "CPU:" line, same task-->
 *            BACKTRACE (cut); another task's: [end_report]--> idle
 *   BACKTRACE --"</TASK>", end marker, banner, foreign line [end_report]--> idle
 *   any    --new header, oops line, too many unknown lines, EOF [end_report]--> idle
 *
 * end_report() decides truncation: a report is complete once its
 * backtrace printed a frame (and closed <TASK> if it opened one) and no
 * panic or fault cut it (its backtrace is then the panic's or fault's); a
 * held-locks dump once its closing banner came; a "lock held when
 * returning to user space" report once all its announced locks came.
 *
 * Invariants:
 *  (1) ctx->rep is NULL exactly when the context is idle; idle contexts
 *      without a waiting banner are dropped, so the context array only
 *      holds live ones.
 *  (2) ctx->target_idx indexes an existing element of the array that
 *      ctx->target names (a stack, a lock's "at" frames, an irq event).
 */
#ifndef PARSE_KLOG_CTX_H
#define PARSE_KLOG_CTX_H

#include <stdbool.h>
#include <string.h>

#include "parse/klog-line.h"
#include "parse/report.h"

/* A report that sees this many unknown lines in a row was cut short. */
#define MAX_UNKNOWN_RUN 64
/* A banner waits this many lines for its header (interleaved output). */
#define MAX_BANNER_AGE 4
#define MAX_NOTES 32

enum section {
	SEC_HEAD, SEC_LOCKS, SEC_CHAIN, SEC_CLASSDUMP, SEC_SUMMARY,
	SEC_SCENARIO, SEC_HELD, SEC_BACKTRACE, SEC_OTHER,
};

enum target { T_NONE, T_STACK, T_LOCK_AT, T_IRQ };

/* What report_line() made of a line. */
enum verdict {
	V_UNKNOWN,	/* not recognised; kept in the raw text */
	V_TAKEN,	/* part of the report */
	V_TAKEN_END,	/* part of the report, and its last line */
	V_NOT_MINE,	/* the report ended before this line */
};

struct ctx {
	char caller[KLOG_CALLER_MAX];
	struct ldr_report *rep;
	enum section sec;
	int role;		/* enum ldr_role of the next lock line, or -1 */
	enum target target;
	int target_idx;
	int last_lock;
	int irq_lock;		/* last irq-safe/unsafe lock */
	int dep_lock;		/* lock of the class dump being read */
	char *holder;		/* owner of the held list being read */
	long held_announced;
	size_t held_seen;
	int scenario_col;	/* column of "CPU1" in the scenario table */
	size_t bt_frames;
	bool task_open, task_closed, complete;
	bool other_task;	/* inside another task's stack dump */
	bool cut;		/* a panic or fault cut the report: its trace
				 * is read as the backtrace */
	unsigned int unknown_run;
	unsigned long lineno;
	char *banner;
	unsigned long banner_lineno;
	unsigned int banner_age;
};

/*
 * The first byte compared first: a line of a report is tried against
 * some forty phrases, and starts with the first byte of few of them.
 */
static inline bool starts(const char *s, const char *prefix)
{
	return (*s == *prefix || !*prefix) &&
	       !strncmp(s, prefix, strlen(prefix));
}

static inline bool ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static inline const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* klog-fields.c */
/* "comm/123" (s[0..n)) -> task and pid of the report, if not known yet. */
void klog_set_task(struct ldr_report *r, const char *s, size_t n);
/* "6.1.0-rc1 #4 Not tainted" printed right under the header */
bool klog_version_line(struct ldr_report *r, const char *t);
/* "CPU: 1 PID: 6505 Comm: a.out Not tainted 6.1.119 #4" and variants */
void klog_cpu_line(struct ldr_report *r, const char *t);
/* "Pid: 684, comm: modprobe Not tainted 3.1.0 #1" (x86 before 3.x) */
void klog_pid_line(struct ldr_report *r, const char *t);

/* klog-locks.c: each returns true if the line was its kind */
bool klog_lock_line(struct ctx *c, const char *t);
bool klog_task_line(struct ctx *c, const char *t);
bool klog_held_header(struct ctx *c, const char *t);

/* klog-section.c */
void klog_set_target(struct ctx *c, enum target t, int idx);
void klog_new_stack(struct ctx *c, const char *label, int lock);
/*
 * A panic_on_warn panic or a fault (line t) cut the report before its
 * backtrace printed a frame: the trace that follows, if the same task's,
 * is read as the report's backtrace, the lines before it as the panic's.
 */
void klog_cut_report(struct ctx *c, const char *t);
/* One line of an open report (raw: untrimmed text). */
enum verdict klog_report_line(struct ctx *c, const char *raw);

#endif
