// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel log parser: lock lines (with their role from the section they
 * are in), the task lines that introduce them and the held-lock lists.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/klog-ctx.h"
#include "parse/klog-shapes.h"
#include "util/xalloc.h"

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
		klog_set_target(c, T_LOCK_AT, idx);
		return;
	}
	if (klog_parse_frame(rest, &f))
		*frames_add(&c->rep->locks[idx].at) = f;
}

bool klog_lock_line(struct ctx *c, const char *t)
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
	klog_set_target(c, T_NONE, 0);
	switch (role) {
	case LDR_ROLE_CHAIN:
		if (r->locks[idx].at.nr == 0 && r->nr_chain &&
		    r->chain[r->nr_chain - 1].lock == idx)
			break;
		snprintf(label, sizeof(label), "chain #%d", l.index);
		klog_new_stack(c, label, idx);
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
		klog_lock_line(c, rest + 4);
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
	klog_set_target(c, T_LOCK_AT, idx);
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
	/* the series' bad unlock order: the lock is on a line of its own */
	{ " is trying to release lock at:", LDR_ROLE_RELEASING },
	{ " is trying to contend lock (", LDR_ROLE_CONTENDING },
	{ " is freeing memory ", LDR_ROLE_FREED },
	{ " is leaving the kernel with locks still held!", -1 },
};

bool klog_task_line(struct ctx *c, const char *t)
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
	klog_set_task(r, t, n);
	c->sec = SEC_LOCKS;
	c->role = task_markers[i].role;
	klog_set_target(c, T_NONE, 0);
	if (m[strlen(task_markers[i].marker) - 1] == '(')
		named_lock(c, m + strlen(task_markers[i].marker) - 1, c->role);
	return true;
}

/* "2 locks held by comm/1:" and "no locks held by comm/1." */
bool klog_held_header(struct ctx *c, const char *t)
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
	klog_set_target(c, T_NONE, 0);
	if (c->rep->type != LDR_HELD_LOCKS_DUMP)
		klog_set_task(c->rep, who, len);
	return true;
}
