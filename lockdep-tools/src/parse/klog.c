// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel log parser: the lockdep report state machine.
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
 *   HEAD   --"X/123 is trying to acquire lock:" [task_line]--> LOCKS
 *   LOCKS  --"the existing dependency chain ..." [phrase]-->   CHAIN
 *   any    --"the (shortest) dependencies between ..."-->     CLASSDUMP
 *   any    --"Chain exists of:"--> SUMMARY --"a --> b"-->      OTHER
 *   any    --"Possible ... scenario:"--> SCENARIO --"*** DEADLOCK ***"--> OTHER
 *   any    --"N locks held by X/123:" [held_header]-->       HELD
 *   any    --"stack backtrace:", "CPU: N PID:", "Call Trace:"--> BACKTRACE
 *   BACKTRACE --"</TASK>", end marker, banner, foreign line [end_report]--> idle
 *   any    --new header, oops line, too many unknown lines, EOF [end_report]--> idle
 *
 * end_report() decides truncation: a report is complete once its
 * backtrace printed a frame (and closed <TASK> if it opened one); a
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
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parse/klog-line.h"
#include "parse/klog-shapes.h"
#include "parse/klog.h"
#include "util/xalloc.h"

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
	unsigned int unknown_run;
	unsigned long lineno;
	char *banner;
	unsigned long banner_lineno;
	unsigned int banner_age;
};

struct klog_parser {
	char *input;
	klog_report_fn fn;
	void *data;
	struct klog_reader rd;
	struct ctx *ctx;
	size_t nr_ctx, alloc_ctx;
	unsigned int next_id;
	unsigned long lineno;
};

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static bool ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* ---- contexts ---- */

static struct ctx *ctx_find(struct klog_parser *p, const char *caller)
{
	size_t i;

	for (i = 0; i < p->nr_ctx; i++)
		if (!strcmp(p->ctx[i].caller, caller))
			return &p->ctx[i];
	return NULL;
}

static struct ctx *ctx_add(struct klog_parser *p, const char *caller)
{
	struct ctx *c;

	ALLOC_GROW(p->ctx, p->nr_ctx + 1, p->alloc_ctx);
	c = &p->ctx[p->nr_ctx++];
	memset(c, 0, sizeof(*c));
	snprintf(c->caller, sizeof(c->caller), "%s", caller);
	return c;
}

static void drop_banner(struct ctx *c)
{
	free(c->banner);
	c->banner = NULL;
}

/* Invariant (1): forget a context once it holds nothing. */
static void ctx_tidy(struct klog_parser *p, struct ctx *c)
{
	size_t i = c - p->ctx;

	if (c->rep || c->banner)
		return;
	free(c->holder);
	p->ctx[i] = p->ctx[--p->nr_ctx];
}

static void reset_state(struct ctx *c)
{
	c->sec = SEC_HEAD;
	c->role = -1;
	c->target = T_NONE;
	c->last_lock = c->irq_lock = c->dep_lock = -1;
	free(c->holder);
	c->holder = NULL;
	c->held_announced = -1;
	c->held_seen = 0;
	c->scenario_col = 0;
	c->bt_frames = 0;
	c->task_open = c->task_closed = c->complete = false;
	c->unknown_run = 0;
}

/* ---- small field parsers ---- */

/* "comm/123" -> task and pid of the report, if not known yet. */
static void set_task(struct ldr_report *r, const char *s, size_t n)
{
	const char *slash = NULL;
	size_t i;
	char *end;
	long pid;

	for (i = n; i > 0; i--) {
		if (s[i - 1] == '/') {
			slash = s + i - 1;
			break;
		}
	}
	if (r->task || !slash || slash == s || slash + 1 == s + n ||
	    !isdigit((unsigned char)slash[1]))
		return;
	pid = strtol(slash + 1, &end, 10);
	if (end != s + n)
		return;
	r->task = xstrndup(s, slash - s);
	r->pid = pid;
}

/* "Not tainted 6.1.0 #1" / "Tainted: G   W   6.1.0 #1": taint, release */
static void taint_and_release(struct ldr_report *r, const char *s)
{
	const char *t, *flags;
	size_t n;

	if ((t = strstr(s, "Not tainted")) != NULL) {
		if (!r->taint)
			r->taint = xstrdup("");
		t = skip_blanks(t + 11);
	} else if ((t = strstr(s, "Tainted: ")) != NULL) {
		flags = t += 9;
		while (*t && !isdigit((unsigned char)*t))
			t++;
		n = t - flags;
		while (n && flags[n - 1] == ' ')
			n--;
		if (!r->taint)
			r->taint = xstrndup(flags, n);
	} else {
		return;
	}
	if (!r->release && isdigit((unsigned char)*t))
		r->release = xstrndup(t, strcspn(t, " "));
}

/* "6.1.0-rc1 #4 Not tainted" printed right under the header */
static bool version_line(struct ldr_report *r, const char *t)
{
	size_t n = strcspn(t, " ");

	if (r->release || !isdigit((unsigned char)t[0]) || !memchr(t, '.', n) ||
	    (t[n] && strncmp(t + n, " #", 2)))
		return false;
	r->release = xstrndup(t, n);
	taint_and_release(r, t + n);
	return true;
}

/* "CPU: 1 PID: 6505 Comm: a.out Not tainted 6.1.119 #4" and variants */
static void cpu_line(struct ldr_report *r, const char *t)
{
	const char *q, *comm, *stop;
	const char *const stops[] = { " Not tainted", " Tainted: ", " Kdump: " };
	size_t i, n;

	if (r->cpu < 0 && isdigit((unsigned char)t[5]))
		r->cpu = strtol(t + 5, NULL, 10);
	if ((q = strstr(t, "PID: ")) != NULL && r->pid < 0)
		r->pid = strtol(q + 5, NULL, 10);
	if ((comm = strstr(t, "Comm: ")) != NULL && !r->task) {
		comm += 6;
		n = strlen(comm);
		for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
			if ((stop = strstr(comm, stops[i])) &&
			    (size_t)(stop - comm) < n)
				n = stop - comm;
		r->task = xstrndup(comm, n);
	}
	taint_and_release(r, t);
}

/* "Pid: 684, comm: modprobe Not tainted 3.1.0 #1" (x86 before 3.x) */
static void pid_line(struct ldr_report *r, const char *t)
{
	const char *comm = strstr(t, ", comm: ");
	size_t n;

	if (r->pid < 0)
		r->pid = strtol(t + 5, NULL, 10);
	if (comm && !r->task) {
		comm += 8;
		n = strcspn(comm, " ");
		r->task = xstrndup(comm, n);
	}
	taint_and_release(r, t);
}

/* ---- frames ---- */

static struct ldr_frames *target_frames(struct ctx *c)
{
	struct ldr_report *r = c->rep;

	switch (c->target) {
	case T_STACK:
		return &r->stacks[c->target_idx].frames;
	case T_LOCK_AT:
		return &r->locks[c->target_idx].at;
	case T_IRQ:
		return &r->irq_events[c->target_idx].frames;
	case T_NONE:
		break;
	}
	return NULL;
}

static void set_target(struct ctx *c, enum target t, int idx)
{
	c->target = t;
	c->target_idx = idx;
}

static void new_stack(struct ctx *c, const char *label, int lock)
{
	set_target(c, T_STACK, report_add_stack(c->rep, label, lock));
}

static bool frame_line(struct ctx *c, const char *t)
{
	struct ldr_frame f;
	struct ldr_frames *dst;

	if (!klog_parse_frame(t, &f))
		return false;
	if (c->target == T_NONE)
		new_stack(c, "trace", -1);
	dst = target_frames(c);
	*frames_add(dst) = f;
	if (c->sec == SEC_BACKTRACE && c->target == T_STACK &&
	    c->target_idx == c->rep->backtrace)
		c->bt_frames++;
	return true;
}

/* ---- locks ---- */

static bool same_lock(const struct ldr_lock *a, const struct ldr_lock *b)
{
	return a->role == b->role && a->index == b->index &&
	       a->has_addr == b->has_addr && a->addr == b->addr &&
	       !strcmp(a->name, b->name) &&
	       !(a->holder && b->holder && strcmp(a->holder, b->holder));
}

static bool has_lock_named(const struct ldr_report *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nr_locks; i++)
		if (!strcmp(r->locks[i].name, name))
			return true;
	return false;
}

/* After the lock: ", at: frame", ", at:" (frame on the next line), ":". */
static void lock_location(struct ctx *c, int idx, const char *rest)
{
	struct ldr_frame f;

	rest = skip_blanks(rest);
	if (strncmp(rest, ", at:", 5))
		return;
	rest = skip_blanks(rest + 5);
	if (!*rest) {
		set_target(c, T_LOCK_AT, idx);
		return;
	}
	if (klog_parse_frame(rest, &f))
		*frames_add(&c->rep->locks[idx].at) = f;
}

static bool lock_line(struct ctx *c, const char *t)
{
	struct ldr_report *r = c->rep;
	struct ldr_lock l;
	const char *rest;
	char label[32];
	int idx, role;

	if (!klog_parse_lock(t, &l, r->old_format, &rest))
		return false;
	l.line = c->lineno;
	if (starts(t, "-> #") && l.index >= 0) {
		role = LDR_ROLE_CHAIN;
	} else if (starts(t, "-> (")) {
		role = LDR_ROLE_DEPENDENCY;
	} else if (c->sec == SEC_HELD) {
		role = LDR_ROLE_HELD;
		l.holder = c->holder ? xstrdup(c->holder) : NULL;
	} else if (c->role >= 0) {
		role = c->role;
	} else if (has_lock_named(r, l.name)) {
		/* "which would create a new lock dependency: (a) -> (b)" */
		lock_release(&l);
		return true;
	} else {
		role = LDR_ROLE_OTHER;
	}
	l.role = role;
	/* syzbot repeats a lock line once per [inline] frame of its "at:" */
	if (c->last_lock >= 0 && same_lock(&r->locks[c->last_lock], &l)) {
		idx = c->last_lock;
		lock_release(&l);
	} else {
		idx = report_add_lock(r, role);
		r->locks[idx] = l;
		c->last_lock = idx;
		if (role == LDR_ROLE_HELD)
			c->held_seen++;
	}
	set_target(c, T_NONE, 0);
	switch (role) {
	case LDR_ROLE_CHAIN:
		if (r->locks[idx].at.nr == 0 && r->nr_chain &&
		    r->chain[r->nr_chain - 1].lock == idx)
			break;
		snprintf(label, sizeof(label), "chain #%d", l.index);
		new_stack(c, label, idx);
		ALLOC_GROW(r->chain, r->nr_chain + 1, r->alloc_chain);
		r->chain[r->nr_chain].lock = idx;
		r->chain[r->nr_chain].stack = c->target_idx;
		r->nr_chain++;
		return true;
	case LDR_ROLE_DEPENDENCY:
		c->dep_lock = idx;
		return true;
	case LDR_ROLE_IRQ_SAFE:
	case LDR_ROLE_IRQ_UNSAFE:
		c->irq_lock = idx;
		break;
	default:
		break;
	}
	lock_location(c, idx, rest);
	if (starts(rest, " -> ("))
		lock_line(c, rest + 4);
	return true;
}

/* "X/1 is trying to release lock (name) at:" and the contend variant */
static void named_lock(struct ctx *c, const char *open, int role)
{
	struct ldr_report *r = c->rep;
	const char *close = strstr(open, ") at:");
	struct ldr_lock *l;
	int idx;

	if (!close)
		close = strrchr(open, ')');
	if (!close || close == open + 1)
		return;
	idx = report_add_lock(r, role);
	l = &r->locks[idx];
	l->name = xstrndup(open + 1, close - open - 1);
	klog_split_lock_name(l->name, &l->class_name, &l->version,
			     &l->subclass);
	l->line = c->lineno;
	c->last_lock = idx;
	set_target(c, T_LOCK_AT, idx);
}

static const struct {
	const char *marker;
	int role;
} task_markers[] = {
	{ " is trying to acquire lock:", LDR_ROLE_ACQUIRING },
	{ " is trying to acquire:", LDR_ROLE_ACQUIRING },
	{ " is trying to lock:", LDR_ROLE_ACQUIRING },
	{ " just changed the state of lock:", LDR_ROLE_ACQUIRING },
	{ " takes:", LDR_ROLE_ACQUIRING },
	{ " is trying to release lock (", LDR_ROLE_RELEASING },
	{ " is trying to contend lock (", LDR_ROLE_CONTENDING },
	{ " is freeing memory ", LDR_ROLE_FREED },
	{ " is leaving the kernel with locks still held!", -1 },
};

static bool task_line(struct ctx *c, const char *t)
{
	struct ldr_report *r = c->rep;
	const char *m = NULL, *hc;
	size_t i, n;

	for (i = 0; i < sizeof(task_markers) / sizeof(task_markers[0]); i++)
		if ((m = strstr(t, task_markers[i].marker)) != NULL)
			break;
	if (!m)
		return false;
	n = m - t;
	/* "comm/1 [HC0[0]:SC0[0]:HE1:SE1] takes:" */
	if (n && t[n - 1] == ']' && (hc = strstr(t, " [HC")) && hc < m) {
		if (!r->irq_context)
			r->irq_context = xstrndup(hc + 2, m - hc - 3);
		n = hc - t;
	}
	set_task(r, t, n);
	c->sec = SEC_LOCKS;
	c->role = task_markers[i].role;
	set_target(c, T_NONE, 0);
	if (c->role == LDR_ROLE_RELEASING || c->role == LDR_ROLE_CONTENDING)
		named_lock(c, m + strlen(task_markers[i].marker) - 1, c->role);
	return true;
}

/* "2 locks held by comm/1:" and "no locks held by comm/1." */
static bool held_header(struct ctx *c, const char *t)
{
	const char *who;
	char *end;
	long n = 0;
	size_t len;

	if (starts(t, "no locks held by ")) {
		who = t + 17;
	} else if (isdigit((unsigned char)*t)) {
		n = strtol(t, &end, 10);
		if (starts(end, " lock held by "))
			who = end + 14;
		else if (starts(end, " locks held by "))
			who = end + 15;
		else
			return false;
	} else {
		return false;
	}
	len = strlen(who);
	if (!len || (who[len - 1] != ':' && who[len - 1] != '.'))
		return false;
	len--;
	free(c->holder);
	c->holder = xstrndup(who, len);
	c->held_announced = n;
	c->held_seen = 0;
	c->sec = SEC_HELD;
	c->role = LDR_ROLE_HELD;
	set_target(c, T_NONE, 0);
	if (c->rep->type != LDR_HELD_LOCKS_DUMP)
		set_task(c->rep, who, len);
	return true;
}

/* ---- irq state ---- */

static bool irq_line(struct ctx *c, const char *t)
{
	struct ldr_report *r = c->rep;
	struct ldr_irq_event *ev;
	const char *p;
	char what[16];
	unsigned long long stamp;
	struct ldr_frame f;
	char *end;
	bool off;

	if (starts(t, "irq event stamp: ")) {
		r->irq_event_stamp = strtoull(t + 17, NULL, 10);
		r->has_irq_event_stamp = true;
		return true;
	}
	if (!starts(t, "hardirqs last ") && !starts(t, "softirqs last "))
		return false;
	p = skip_blanks(t + 14);
	if (starts(p, "enabled at ("))
		off = false, p += 12;
	else if (starts(p, "disabled at ("))
		off = true, p += 13;
	else
		return false;
	snprintf(what, sizeof(what), "%.8s-%s", t, off ? "off" : "on");
	stamp = strtoull(p, &end, 10);
	if (strncmp(end, "):", 2))
		return false;
	if (r->nr_irq_events &&
	    !strcmp(r->irq_events[r->nr_irq_events - 1].what, what) &&
	    r->irq_events[r->nr_irq_events - 1].stamp == stamp) {
		ev = &r->irq_events[r->nr_irq_events - 1];
	} else {
		ALLOC_GROW(r->irq_events, r->nr_irq_events + 1,
			   r->alloc_irq_events);
		ev = &r->irq_events[r->nr_irq_events++];
		memset(ev, 0, sizeof(*ev));
		ev->what = xstrdup(what);
		ev->stamp = stamp;
	}
	if (klog_parse_frame(end + 2, &f))
		*frames_add(&ev->frames) = f;
	return true;
}

/* ---- sections ---- */

static void scenario_line(struct ctx *c, const char *raw, const char *t)
{
	struct ldr_report *r = c->rep;
	const char *cpu1;
	size_t n = strlen(t), indent = t - raw;

	if (starts(t, "CPU0")) {
		cpu1 = strstr(raw, "CPU1");
		c->scenario_col = cpu1 ? (int)(cpu1 - raw) : 0;
		return;
	}
	if (!n || strspn(t, "- ") == n)
		return;
	while (n && isspace((unsigned char)t[n - 1]))
		n--;
	ALLOC_GROW(r->scenario, r->nr_scenario + 1, r->alloc_scenario);
	r->scenario[r->nr_scenario].cpu =
		c->scenario_col && indent + 4 >= (size_t)c->scenario_col;
	r->scenario[r->nr_scenario].text = xstrndup(t, n);
	r->nr_scenario++;
}

static void summary_line(struct ctx *c, const char *t)
{
	struct ldr_report *r = c->rep;
	const char *sep;
	size_t n;

	for (;;) {
		t = skip_blanks(t);
		sep = strstr(t, "-->");
		n = sep ? (size_t)(sep - t) : strlen(t);
		while (n && isspace((unsigned char)t[n - 1]))
			n--;
		if (n) {
			ALLOC_GROW(r->chain_summary, r->nr_chain_summary + 1,
				   r->alloc_chain_summary);
			r->chain_summary[r->nr_chain_summary++] =
				xstrndup(t, n);
		}
		if (!sep)
			break;
		t = sep + 3;
	}
	c->sec = SEC_OTHER;
}

static void enter_backtrace(struct ctx *c)
{
	if (c->sec == SEC_BACKTRACE)
		return;
	c->sec = SEC_BACKTRACE;
	c->role = -1;
	c->rep->backtrace = report_add_stack(c->rep, "backtrace", -1);
	set_target(c, T_STACK, c->rep->backtrace);
}

static int first_lock_with_role(const struct ldr_report *r, int role)
{
	size_t i;

	for (i = 0; i < r->nr_locks; i++)
		if ((int)r->locks[i].role == role)
			return (int)i;
	return -1;
}

/* Fixed sentences of the reports: the ones that switch section. */
static bool phrase_line(struct ctx *c, const char *t)
{
	static const struct {
		const char *text;
		int role;
	} roles[] = {
		{ "but task is already holding lock:", LDR_ROLE_HOLDING },
		{ "and this task is already holding:", LDR_ROLE_HOLDING },
		{ "but this task is not holding:", LDR_ROLE_NEST_LOCK },
		{ "but the next lock to release is:", LDR_ROLE_EXPECTED },
		{ "which would create a new lock dependency:", -1 },
		{ "but this new dependency connects a ", LDR_ROLE_IRQ_SAFE },
		{ "to a ", LDR_ROLE_IRQ_UNSAFE },
		{ "but this lock took another, ", LDR_ROLE_IRQ_UNSAFE },
		{ "but this lock was taken by another, ", LDR_ROLE_IRQ_SAFE },
		{ "Held locks:", LDR_ROLE_OTHER },
		{ "Locks in cached chain:", LDR_ROLE_OTHER },
	};
	struct ldr_report *r = c->rep;
	size_t i, n;
	const char *q;
	char *label;

	for (i = 0; i < sizeof(roles) / sizeof(roles[0]); i++) {
		if (!starts(t, roles[i].text))
			continue;
		if (i == 6 && !ends(t, "-irq-unsafe lock:"))
			break;
		c->sec = SEC_LOCKS;
		c->role = roles[i].role;
		set_target(c, T_NONE, 0);
		q = t + strlen(roles[i].text);
		n = strcspn(q, "-");
		if (i >= 5 && i <= 8 && !r->irq_class && q[n])
			r->irq_class = xstrndup(q, n);
		return true;
	}
	if (starts(t, "the existing dependency chain")) {
		c->sec = SEC_CHAIN;
	} else if (starts(t, "other info that might help us debug this")) {
		c->sec = SEC_OTHER;
	} else if (starts(t, "Chain exists of:")) {
		c->sec = SEC_SUMMARY;
	} else if (starts(t, "Possible unsafe locking scenario") ||
		   starts(t, "Possible interrupt unsafe locking scenario")) {
		c->sec = SEC_SCENARIO;
		c->scenario_col = 0;
	} else if (starts(t, "*** DEADLOCK ***")) {
		c->sec = SEC_OTHER;
	} else if (starts(t, "the dependencies between ") ||
		   starts(t, "the shortest dependencies between ") ||
		   (starts(t, "the ") && ends(t, "lock's dependencies:"))) {
		c->sec = SEC_CLASSDUMP;
	} else if (starts(t, "stack backtrace:")) {
		enter_backtrace(c);
		return true;
	} else if (starts(t, "which lock already depends on the new lock") ||
		   starts(t, "and interrupts could create inverse lock") ||
		   (c->sec == SEC_CLASSDUMP && starts(t, "and ") &&
		    ends(t, " lock:")) ||
		   starts(t, "... key ") || !strcmp(t, "...") ||
		   !strcmp(t, "}") || strspn(t, "-") == strlen(t)) {
		return true;
	} else if (starts(t, "May be due to missing lock nesting") ||
		   starts(t, "turning off the locking correctness validator") ||
		   starts(t, "INFO: lockdep is turned off")) {
		if (r->nr_notes < MAX_NOTES)
			report_add_note(r, t);
		return true;
	} else if (starts(t, "inconsistent {")) {
		report_set(&r->message, t);
		return true;
	} else if (starts(t, "... acquired at:")) {
		new_stack(c, "acquired at", -1);
		return true;
	} else if (starts(t, "... which became ") && ends(t, " at:")) {
		label = xstrndup(t + 17, strlen(t) - 17 - 4);

		new_stack(c, label, c->irq_lock);
		free(label);
		return true;
	} else if (t[0] == '{' && ends(t, " state was registered at:")) {
		label = xstrndup(t, strlen(t) - strlen(" was registered at:"));

		new_stack(c, label, first_lock_with_role(r, LDR_ROLE_ACQUIRING));
		free(label);
		return true;
	} else if (c->sec == SEC_CLASSDUMP && ends(t, " at:") &&
		   strspn(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_- ") >= strlen(t) - 4) {
		/* "IN-HARDIRQ-W at:", "INITIAL USE at:" */
		label = xstrndup(t, strlen(t) - 4);

		new_stack(c, label, c->dep_lock);
		free(label);
		return true;
	} else {
		return false;
	}
	c->role = -1;
	set_target(c, T_NONE, 0);
	return true;
}

/* Register dumps, hex stack words and such inside a backtrace. */
static bool machine_line(const char *t)
{
	size_t n = strcspn(t, ":"), i;
	bool hex = true;

	if (t[n] == ':' && n > 0 && n <= 16 &&
	    strspn(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		   "0123456789_ ") >= n)
		return true;
	for (i = 0; t[i] && hex; ) {
		size_t k = strspn(t + i, "0123456789abcdef");

		hex = k >= 8 && (!t[i + k] || t[i + k] == ' ' ||
				 (t[i + k] == '.' && !t[i + k + 1]));
		i += k;
		i += strspn(t + i, " .");
	}
	return hex && *t;
}

static enum verdict backtrace_line(struct ctx *c, const char *t)
{
	struct ldr_report *r = c->rep;
	size_t n = strlen(t);

	if (!*t || starts(t, "Call Trace:") || starts(t, "Call trace:") ||
	    starts(t, "DWARF2 unwinder stuck") ||
	    (starts(t, "Process ") && strstr(t, "(pid: ")))
		return V_TAKEN;
	if (starts(t, "CPU: ")) {
		cpu_line(r, t);
		return V_TAKEN;
	}
	if (starts(t, "Pid: ")) {
		pid_line(r, t);
		return V_TAKEN;
	}
	if (starts(t, "Hardware name: ")) {
		if (!r->hardware)
			r->hardware = xstrdup(t + 15);
		return V_TAKEN;
	}
	if (!strcmp(t, "<TASK>")) {
		c->task_open = true;
		return V_TAKEN;
	}
	if (!strcmp(t, "</TASK>")) {
		c->task_closed = true;
		return V_TAKEN_END;
	}
	if (t[0] == '<' && t[n - 1] == '>' && n <= 12)
		return V_TAKEN;	/* <IRQ>, </IRQ>, <NMI>, <EOI>, ... */
	if (starts(t, "Leftover inexact backtrace")) {
		new_stack(c, "leftover inexact backtrace", -1);
		return V_TAKEN;
	}
	if (starts(t, "INFO: lockdep is turned off")) {
		if (r->nr_notes < MAX_NOTES)
			report_add_note(r, t);
		return V_TAKEN_END;
	}
	if (starts(t, "---[ end trace"))
		return V_TAKEN_END;
	if (frame_line(c, t) || machine_line(t))
		return V_TAKEN;
	return V_UNKNOWN;
}

/* The first line that is none of the above says what the report is about. */
static enum verdict unknown_line(struct ctx *c, const char *t)
{
	struct ldr_report *r = c->rep;

	if (++c->unknown_run > MAX_UNKNOWN_RUN)
		return V_NOT_MINE;
	if (!*t)
		return V_UNKNOWN;
	if (!r->message)
		r->message = xstrdup(t);
	else if (r->nr_notes < MAX_NOTES)
		report_add_note(r, t);
	return V_UNKNOWN;
}

static enum verdict report_line(struct ctx *c, const char *raw)
{
	const char *t = skip_blanks(raw);
	enum verdict v;

	if (c->sec == SEC_BACKTRACE) {
		v = backtrace_line(c, t);
		if (v != V_UNKNOWN)
			return v;
		if (c->bt_frames)
			return V_NOT_MINE;
		return unknown_line(c, t);
	}
	if (!*t)
		return V_TAKEN;
	if (starts(t, "CPU: ") || starts(t, "Pid: ") ||
	    starts(t, "Call Trace:") || starts(t, "Call trace:")) {
		enter_backtrace(c);
		return backtrace_line(c, t);
	}
	if (phrase_line(c, t) || task_line(c, t) || held_header(c, t))
		return V_TAKEN;
	if (c->sec == SEC_SCENARIO) {
		scenario_line(c, raw, t);
		return V_TAKEN;
	}
	if (c->sec == SEC_SUMMARY && strstr(t, "-->")) {
		summary_line(c, t);
		return V_TAKEN;
	}
	if ((c->sec == SEC_HEAD && version_line(c->rep, t)) ||
	    irq_line(c, t) || lock_line(c, t) || frame_line(c, t))
		return V_TAKEN;
	return unknown_line(c, t);
}

/* ---- report boundaries ---- */

static bool banner_line(const char *t)
{
	size_t n = strspn(t, "=");

	return n >= 8 && !t[n + strspn(t + n, " ")];
}

/* Other kernel reports that cut a lockdep report short. */
static bool foreign_line(const char *t)
{
	static const char *const starts_of[] = {
		"Unable to handle kernel ", "BUG: unable to handle",
		"BUG: kernel NULL pointer", "BUG: KASAN:", "BUG: KFENCE:",
		"BUG: soft lockup", "BUG: sleeping function called",
		"BUG: scheduling while atomic", "BUG: workqueue lockup",
		"general protection fault", "Internal error: Oops",
		"Oops: ", "Kernel panic - not syncing", "kernel BUG at ",
		"------------[ cut here ]------------", "WARNING: CPU: ",
		"INFO: task ", "INFO: rcu_", "rcu: INFO: ", "watchdog: BUG: ",
	};
	size_t i;

	for (i = 0; i < sizeof(starts_of) / sizeof(starts_of[0]); i++)
		if (starts(t, starts_of[i]))
			return true;
	return false;
}

static void end_report(struct klog_parser *p, struct ctx *c)
{
	struct ldr_report *r = c->rep;
	bool complete = c->complete;

	if (c->sec == SEC_BACKTRACE && c->bt_frames &&
	    !(c->task_open && !c->task_closed))
		complete = true;
	if (r->type == LDR_LOCK_HELD_RETURNING_TO_USER &&
	    c->held_announced > 0 && c->held_seen >= (size_t)c->held_announced)
		complete = true;
	r->truncated = !complete;
	report_finish(r);
	r->id = p->next_id++;
	c->rep = NULL;
	reset_state(c);
	p->fn(r, p->data);
}

static void start_report(struct klog_parser *p, struct ctx *c,
			 const struct klog_header *h, const struct klog_line *line)
{
	struct ldr_report *r = report_new(h->type, p->input);
	const char *t = skip_blanks(line->text);

	c->rep = r;
	reset_state(c);
	r->old_format = h->old_format;
	report_set(&r->header, t);
	if (c->banner)
		report_add_raw(r, c->banner_lineno, c->banner);
	drop_banner(c);
	report_add_raw(r, line->lineno, line->text);
	switch (h->type) {
	case LDR_LOCKDEP_LIMIT:
		report_set(&r->message, h->detail);
		break;
	case LDR_IRQ_SAFE_UNSAFE_ORDER:
		report_set(&r->irq_class, h->detail);
		break;
	case LDR_LOCKS_HELD_AT_EXIT:
		if (h->detail)
			set_task(r, h->detail, strlen(h->detail));
		break;
	default:
		break;
	}
}

static void handle_line(const struct klog_line *line, void *data)
{
	struct klog_parser *p = data;
	struct ctx *c = ctx_find(p, line->caller);
	const char *t = skip_blanks(line->text);
	struct klog_header h;
	enum verdict v;

	if (klog_parse_header(t, &h)) {
		if (!c)
			c = ctx_add(p, line->caller);
		if (c->rep)
			end_report(p, c);
		start_report(p, c, &h, line);
		free(h.detail);
		return;
	}
	if (banner_line(t)) {
		if (!c)
			c = ctx_add(p, line->caller);
		if (c->rep && (c->sec == SEC_BACKTRACE ||
			       c->rep->type == LDR_HELD_LOCKS_DUMP)) {
			/* " =======" closes old traces and the locks dump */
			report_add_raw(c->rep, line->lineno, line->text);
			c->complete = c->bt_frames ||
				      c->rep->type == LDR_HELD_LOCKS_DUMP;
			end_report(p, c);
			if (line->text[0] == ' ')
				goto out;
		}
		if (c->banner && c->rep)
			report_add_raw(c->rep, c->banner_lineno, c->banner);
		drop_banner(c);
		c->banner = xstrdup(line->text);
		c->banner_lineno = line->lineno;
		c->banner_age = 0;
		return;
	}
	if (!c)
		return;
	if (!c->rep) {
		if (++c->banner_age > MAX_BANNER_AGE)
			drop_banner(c);
		goto out;
	}
	if (c->banner) {
		report_add_raw(c->rep, c->banner_lineno, c->banner);
		drop_banner(c);
	}
	if (foreign_line(t)) {
		end_report(p, c);
		goto out;
	}
	c->lineno = line->lineno;
	v = report_line(c, line->text);
	if (v == V_NOT_MINE) {
		end_report(p, c);
		goto out;
	}
	if (v != V_UNKNOWN)
		c->unknown_run = 0;
	report_add_raw(c->rep, line->lineno, line->text);
	if (v == V_TAKEN_END) {
		c->complete = true;
		end_report(p, c);
	}
out:
	ctx_tidy(p, c);
}

/* ---- public interface ---- */

struct klog_parser *klog_parser_new(const char *input, unsigned int first_id,
				    klog_report_fn fn, void *data)
{
	struct klog_parser *p = xcalloc(1, sizeof(*p));

	p->input = xstrdup(input);
	p->fn = fn;
	p->data = data;
	p->next_id = first_id;
	klog_reader_init(&p->rd, handle_line, p);
	return p;
}

void klog_parser_push(struct klog_parser *p, const char *s, size_t len)
{
	klog_reader_push(&p->rd, s, len, ++p->lineno);
}

void klog_parser_finish(struct klog_parser *p)
{
	size_t i;

	klog_reader_flush(&p->rd);
	for (i = 0; i < p->nr_ctx; i++) {
		if (p->ctx[i].rep)
			end_report(p, &p->ctx[i]);
		drop_banner(&p->ctx[i]);
		free(p->ctx[i].holder);
		p->ctx[i].holder = NULL;
	}
	p->nr_ctx = 0;
}

unsigned int klog_parser_next_id(const struct klog_parser *p)
{
	return p->next_id;
}

void klog_parser_free(struct klog_parser *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nr_ctx; i++) {
		report_free(p->ctx[i].rep);
		free(p->ctx[i].banner);
		free(p->ctx[i].holder);
	}
	free(p->ctx);
	klog_reader_release(&p->rd);
	free(p->input);
	free(p);
}

int klog_parse_stream(FILE *in, const char *input, unsigned int *next_id,
		      klog_report_fn fn, void *data)
{
	struct klog_parser *p = klog_parser_new(input, *next_id, fn, data);
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret = 0, saved;

	errno = 0;
	while ((n = getline(&buf, &cap, in)) >= 0) {
		if (n && buf[n - 1] == '\n')
			n--;
		klog_parser_push(p, buf, n);
	}
	saved = errno;
	if (ferror(in)) {
		ret = -1;
		if (!saved)
			saved = EIO;
	}
	klog_parser_finish(p);
	*next_id = klog_parser_next_id(p);
	klog_parser_free(p);
	free(buf);
	errno = saved;
	return ret;
}
