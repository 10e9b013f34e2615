// SPDX-License-Identifier: GPL-2.0
/*
 * The report model: names of types, roles and usage bits, and the
 * owning allocation/free of a struct ldr_report (invariants in report.h).
 */
#include <stdlib.h>
#include <string.h>

#include "parse/report.h"
#include "util/xalloc.h"

static const char *const type_names[LDR_TYPE_NR] = {
	[LDR_CIRCULAR_DEPENDENCY]	  = "circular-dependency",
	[LDR_RECURSIVE_LOCKING]		  = "recursive-locking",
	[LDR_INCONSISTENT_LOCK_STATE]	  = "inconsistent-lock-state",
	[LDR_IRQ_SAFE_UNSAFE_ORDER]	  = "irq-safe-unsafe-order",
	[LDR_IRQ_LOCK_INVERSION]	  = "irq-lock-inversion",
	[LDR_BAD_UNLOCK_BALANCE]	  = "bad-unlock-balance",
	[LDR_BAD_UNLOCK_ORDER]		  = "bad-unlock-order",
	[LDR_HELD_LOCK_FREED]		  = "held-lock-freed",
	[LDR_LOCKS_HELD_AT_EXIT]	  = "locks-held-at-exit",
	[LDR_LOCK_HELD_RETURNING_TO_USER] = "lock-held-returning-to-user",
	[LDR_NESTED_LOCK_NOT_TAKEN]	  = "nested-lock-not-taken",
	[LDR_SUSPICIOUS_RCU_USAGE]	  = "suspicious-rcu-usage",
	[LDR_INVALID_WAIT_CONTEXT]	  = "invalid-wait-context",
	[LDR_LOCKDEP_LIMIT]		  = "lockdep-limit",
	[LDR_NON_STATIC_KEY]		  = "non-static-key",
	[LDR_CHAIN_KEY_COLLISION]	  = "chain-key-collision",
	[LDR_BAD_CONTENTION]		  = "bad-contention",
	[LDR_HELD_LOCKS_DUMP]		  = "held-locks-dump",
	[LDR_OTHER_LOCKDEP]		  = "other-lockdep",
};

static const char *const role_names[LDR_ROLE_NR] = {
	[LDR_ROLE_ACQUIRING]	= "acquiring",
	[LDR_ROLE_HOLDING]	= "holding",
	[LDR_ROLE_RELEASING]	= "releasing",
	[LDR_ROLE_EXPECTED]	= "expected",
	[LDR_ROLE_CONTENDING]	= "contending",
	[LDR_ROLE_FREED]	= "freed",
	[LDR_ROLE_NEST_LOCK]	= "nest-lock",
	[LDR_ROLE_IRQ_SAFE]	= "irq-safe",
	[LDR_ROLE_IRQ_UNSAFE]	= "irq-unsafe",
	[LDR_ROLE_CHAIN]	= "chain",
	[LDR_ROLE_DEPENDENCY]	= "dependency",
	[LDR_ROLE_HELD]		= "held",
	[LDR_ROLE_OTHER]	= "other",
};

static const char *const usage_bit_names[LDR_USAGE_BITS] = {
	"IN-HARDIRQ-W", "IN-HARDIRQ-R", "HARDIRQ-ON-W", "HARDIRQ-ON-R",
	"IN-SOFTIRQ-W", "IN-SOFTIRQ-R", "SOFTIRQ-ON-W", "SOFTIRQ-ON-R",
	"IN-RECLAIM_FS-W", "IN-RECLAIM_FS-R",
	"RECLAIM_FS-ON-W", "RECLAIM_FS-ON-R",
};

const char *ldr_type_name(enum ldr_type type)
{
	return (unsigned int)type < LDR_TYPE_NR ? type_names[type] : NULL;
}

int ldr_type_from_name(const char *name)
{
	int i;

	for (i = 0; i < LDR_TYPE_NR; i++)
		if (!strcmp(type_names[i], name))
			return i;
	return -1;
}

const char *ldr_role_name(enum ldr_role role)
{
	return (unsigned int)role < LDR_ROLE_NR ? role_names[role] : NULL;
}

const char *ldr_usage_bit_name(unsigned int bit)
{
	return bit < LDR_USAGE_BITS ? usage_bit_names[bit] : NULL;
}

struct ldr_report *report_new(enum ldr_type type, const char *input)
{
	struct ldr_report *r = xcalloc(1, sizeof(*r));

	r->type = type;
	r->input = xstrdup(input);
	r->header = xstrdup("");
	r->pid = -1;
	r->cpu = -1;
	r->backtrace = -1;
	return r;
}

void report_set(char **field, const char *s)
{
	free(*field);
	*field = s ? xstrdup(s) : NULL;
}

struct ldr_frame *frames_add(struct ldr_frames *f)
{
	struct ldr_frame *fr;

	ALLOC_GROW(f->v, f->nr + 1, f->alloc);
	fr = &f->v[f->nr++];
	memset(fr, 0, sizeof(*fr));
	return fr;
}

void frame_release(struct ldr_frame *f)
{
	size_t i;

	for (i = 0; i < f->nr_inl && !f->source_borrowed; i++) {
		free(f->inl[i].func);
		free(f->inl[i].file);
	}
	free(f->inl);
	if (!f->func_borrowed)
		free(f->func);
	free(f->module);
	free(f->build_id);
	if (!f->source_borrowed)
		free(f->file);
	memset(f, 0, sizeof(*f));
}

void frames_release(struct ldr_frames *f)
{
	size_t i;

	for (i = 0; i < f->nr; i++)
		frame_release(&f->v[i]);
	free(f->v);
	memset(f, 0, sizeof(*f));
}

void lock_release(struct ldr_lock *l)
{
	free(l->name);
	free(l->class_name);
	free(l->usage);
	free(l->holder);
	frames_release(&l->at);
}

int report_add_lock(struct ldr_report *r, enum ldr_role role)
{
	struct ldr_lock *l;

	ALLOC_GROW(r->locks, r->nr_locks + 1, r->alloc_locks);
	l = &r->locks[r->nr_locks];
	memset(l, 0, sizeof(*l));
	l->role = role;
	l->wait_outer = -1;
	l->wait_inner = -1;
	l->index = -1;
	return (int)r->nr_locks++;
}

int report_add_stack(struct ldr_report *r, const char *label, int lock)
{
	struct ldr_stack *s;

	ALLOC_GROW(r->stacks, r->nr_stacks + 1, r->alloc_stacks);
	s = &r->stacks[r->nr_stacks];
	memset(s, 0, sizeof(*s));
	s->label = xstrdup(label);
	s->lock = lock;
	return (int)r->nr_stacks++;
}

void report_add_raw(struct ldr_report *r, unsigned long lineno,
		    const char *text)
{
	if (r->nr_raw >= LDR_MAX_RAW_LINES) {
		r->raw_dropped++;
		return;
	}
	ALLOC_GROW(r->raw, r->nr_raw + 1, r->alloc_raw);
	r->raw[r->nr_raw].lineno = lineno;
	r->raw[r->nr_raw].text = xstrdup(text);
	r->nr_raw++;
	if (!r->first_line)
		r->first_line = lineno;
	r->last_line = lineno;
}

void report_add_note(struct ldr_report *r, const char *text)
{
	ALLOC_GROW(r->notes, r->nr_notes + 1, r->alloc_notes);
	r->notes[r->nr_notes++] = xstrdup(text);
}

void report_free(struct ldr_report *r)
{
	size_t i;

	if (!r)
		return;
	free(r->input);
	free(r->header);
	free(r->title);
	free(r->syzbot_title);
	free(r->dedup_key);
	free(r->message);
	free(r->release);
	free(r->taint);
	free(r->task);
	free(r->irq_context);
	free(r->hardware);
	free(r->irq_class);
	for (i = 0; i < r->nr_locks; i++)
		lock_release(&r->locks[i]);
	free(r->locks);
	for (i = 0; i < r->nr_stacks; i++) {
		free(r->stacks[i].label);
		frames_release(&r->stacks[i].frames);
	}
	free(r->stacks);
	free(r->chain);
	for (i = 0; i < r->nr_chain_summary; i++)
		free(r->chain_summary[i]);
	free(r->chain_summary);
	for (i = 0; i < r->nr_scenario; i++)
		free(r->scenario[i].text);
	free(r->scenario);
	for (i = 0; i < r->nr_irq_events; i++) {
		free(r->irq_events[i].what);
		frames_release(&r->irq_events[i].frames);
	}
	free(r->irq_events);
	for (i = 0; i < r->nr_notes; i++)
		free(r->notes[i]);
	free(r->notes);
	for (i = 0; i < r->nr_raw; i++)
		free(r->raw[i].text);
	free(r->raw);
	free(r);
}
