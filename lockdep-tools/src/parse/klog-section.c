// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel log parser: what a line inside a report means, by section
 * (see the state diagram in klog-ctx.h): the fixed sentences that switch
 * section, frames, irq state lines, the scenario table, the chain
 * summary and the backtrace.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/klog-ctx.h"
#include "parse/klog-shapes.h"
#include "util/xalloc.h"

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

void klog_set_target(struct ctx *c, enum target t, int idx)
{
	c->target = t;
	c->target_idx = idx;
}

void klog_new_stack(struct ctx *c, const char *label, int lock)
{
	klog_set_target(c, T_STACK, report_add_stack(c->rep, label, lock));
}

static void add_frame(struct ctx *c, const struct ldr_frame *f)
{
	if (c->target == T_NONE)
		klog_new_stack(c, "trace", -1);
	*frames_add(target_frames(c)) = *f;
	if (c->sec == SEC_BACKTRACE && c->target == T_STACK &&
	    c->target_idx == c->rep->backtrace)
		c->bt_frames++;
}

/*
 * ARM32: each line names a function and the one that called it, so the
 * first line of a stack gives two frames and every later one the caller.
 */
static bool arm_frame_line(struct ctx *c, const char *t)
{
	struct ldr_frame callee, caller;
	struct ldr_frames *dst = c->target != T_NONE ? target_frames(c) : NULL;

	if (!klog_parse_arm_frame(t, &callee, &caller))
		return false;
	if (dst && dst->nr && dst->v[dst->nr - 1].func &&
	    !strcmp(dst->v[dst->nr - 1].func, callee.func))
		frame_release(&callee);
	else
		add_frame(c, &callee);
	add_frame(c, &caller);
	return true;
}

static bool frame_line(struct ctx *c, const char *t)
{
	struct ldr_frame f;

	if (!klog_parse_frame(t, &f))
		return arm_frame_line(c, t);
	add_frame(c, &f);
	return true;
}

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
	klog_set_target(c, T_STACK, c->rep->backtrace);
}

void klog_cut_report(struct ctx *c, const char *t)
{
	struct ldr_report *r = c->rep;

	c->cut = true;
	if (r->nr_notes < MAX_NOTES)
		report_add_note(r, t);
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
		/* the series' bad unlock order (after the indexes above) */
		{ "but this lock, taken after it, is still held:", LDR_ROLE_EXPECTED },
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
		klog_set_target(c, T_NONE, 0);
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
		   starts(t, "If releasing out of order is intended") ||
		   starts(t, "with lockdep_allow_unordered_unlock()") ||
		   starts(t, "turning off the locking correctness validator") ||
		   starts(t, "INFO: lockdep is turned off")) {
		if (r->nr_notes < MAX_NOTES)
			report_add_note(r, t);
		return true;
	} else if (starts(t, "inconsistent {")) {
		report_set(&r->message, t);
		return true;
	} else if (starts(t, "... acquired at:")) {
		klog_new_stack(c, "acquired at", -1);
		return true;
	} else if (starts(t, "... which became ") && ends(t, " at:")) {
		label = xstrndup(t + 17, strlen(t) - 17 - 4);

		klog_new_stack(c, label, c->irq_lock);
		free(label);
		return true;
	} else if (t[0] == '{' && ends(t, " state was registered at:")) {
		label = xstrndup(t, strlen(t) - strlen(" was registered at:"));

		klog_new_stack(c, label, first_lock_with_role(r, LDR_ROLE_ACQUIRING));
		free(label);
		return true;
	} else if (c->sec == SEC_CLASSDUMP && ends(t, " at:") &&
		   strspn(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_- ") >= strlen(t) - 4) {
		/* "IN-HARDIRQ-W at:", "INITIAL USE at:" */
		label = xstrndup(t, strlen(t) - 4);

		klog_new_stack(c, label, c->dep_lock);
		free(label);
		return true;
	} else {
		return false;
	}
	c->role = -1;
	klog_set_target(c, T_NONE, 0);
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
	    starts(t, "Backtrace:") || starts(t, "DWARF2 unwinder stuck") ||
	    starts(t, "Modules linked in:") || starts(t, "Exception stack(") ||
	    (starts(t, "Process ") && strstr(t, "(pid: ")) ||
	    klog_addr2line_line(t))
		return V_TAKEN;
	if (starts(t, "CPU: ")) {
		klog_cpu_line(r, t);
		return V_TAKEN;
	}
	if (starts(t, "Pid: ")) {
		klog_pid_line(r, t);
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
		klog_new_stack(c, "leftover inexact backtrace", -1);
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
	/* after a cut, the panic's or fault's words, not the report's */
	if (!*t || c->cut)
		return V_UNKNOWN;
	if (!r->message)
		r->message = xstrdup(t);
	else if (r->nr_notes < MAX_NOTES)
		report_add_note(r, t);
	return V_UNKNOWN;
}

/* The pid of a "CPU: 1 PID: 77 Comm: x" line, or -1. */
static long cpu_line_pid(const char *t)
{
	const char *q = starts(t, "CPU: ") ? strstr(t, " PID: ") : NULL;

	return q && isdigit((unsigned char)q[6]) ? strtol(q + 6, NULL, 10) : -1;
}

/*
 * A stack dump of another task printed into this report without caller
 * tags ("CPU: 0 PID: 97 ..." where the report is pid 2211's): its
 * lines are kept in the raw text but none of its frames is this
 * report's. It ends with its "</TASK>" or the first line that is not
 * part of a stack dump.
 */
static bool other_task_line(struct ctx *c, const char *t)
{
	struct ldr_frame f;
	long pid = cpu_line_pid(t);

	if (pid >= 0) {
		c->other_task = c->rep->pid >= 0 && pid != c->rep->pid;
		return c->other_task;
	}
	if (!c->other_task)
		return false;
	if (!strcmp(t, "</TASK>")) {
		c->other_task = false;
		return true;
	}
	if (klog_parse_frame(t, &f)) {
		frame_release(&f);
		return true;
	}
	if (starts(t, "Hardware name: ") || starts(t, "Workqueue: ") ||
	    starts(t, "Call Trace:") || starts(t, "Call trace:") ||
	    (t[0] == '<' && ends(t, ">")) || machine_line(t))
		return true;
	c->other_task = false;
	return false;
}

/*
 * After a cut, until its trace starts: the panic's or fault's own lines
 * ("KASAN: null-ptr-deref ...", "PGD 0", "Mem abort info:"), kept in
 * the raw text only. The trace is the report's if its "CPU:" line names
 * the report's task.
 */
static enum verdict cut_line(struct ctx *c, const char *t)
{
	long pid = cpu_line_pid(t);

	if (pid >= 0 && c->rep->pid >= 0 && pid != c->rep->pid)
		return V_NOT_MINE;
	if (pid >= 0 || starts(t, "Call Trace:") || starts(t, "Call trace:")) {
		enter_backtrace(c);
		return backtrace_line(c, t);
	}
	return unknown_line(c, t);
}

enum verdict klog_report_line(struct ctx *c, const char *raw)
{
	const char *t = skip_blanks(raw);
	enum verdict v;

	if (c->cut && c->sec != SEC_BACKTRACE)
		return cut_line(c, t);
	if (other_task_line(c, t))
		return V_TAKEN;
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
	if (phrase_line(c, t) || klog_task_line(c, t) ||
	    klog_held_header(c, t) || klog_addr2line_line(t) ||
	    starts(t, "Modules linked in:"))
		return V_TAKEN;
	if (c->sec == SEC_SCENARIO) {
		scenario_line(c, raw, t);
		return V_TAKEN;
	}
	if (c->sec == SEC_SUMMARY && strstr(t, "-->")) {
		summary_line(c, t);
		return V_TAKEN;
	}
	if ((c->sec == SEC_HEAD && klog_version_line(c->rep, t)) ||
	    irq_line(c, t) || klog_lock_line(c, t) || frame_line(c, t))
		return V_TAKEN;
	return unknown_line(c, t);
}
