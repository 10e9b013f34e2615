// SPDX-License-Identifier: GPL-2.0
/*
 * Advice on a lockdep report: the verdicts, the builders the rules use,
 * and the choice of rule by report type. The rules that look at sites
 * are in advise-nesting.c (recursion, release order) and advise-irq.c
 * (irq and softirq usage); the ones that need only the type are here.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "advise/advise-rules.h"
#include "advise/advise-source.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *const keys[ADV_VERDICT_NR] = {
	[ADV_ANNOTATE] = "annotate",
	[ADV_DEADLOCK] = "deadlock",
	[ADV_IRQ_CONTEXT] = "irq-context",
	[ADV_LOCKING_BUG] = "locking-bug",
	[ADV_LIMIT] = "limit",
	[ADV_UNSURE] = "unsure",
	[ADV_CAPACITY] = "capacity",
};

static const char *const texts[ADV_VERDICT_NR] = {
	[ADV_ANNOTATE] = "false positive of lock nesting: annotate",
	[ADV_DEADLOCK] = "real deadlock: change the order or split the lock",
	[ADV_IRQ_CONTEXT] = "irq context mismatch: make the acquisition irq-safe (or move the work out of the irq)",
	[ADV_LOCKING_BUG] = "locking bug (double unlock, lock freed while held, lock held on return to user): fix the code path",
	[ADV_LIMIT] = "limit reached: raise the CONFIG_ option of the full table",
	[ADV_UNSURE] = "unsure: the report does not show enough to decide",
	[ADV_CAPACITY] = "lockdep's tables for this workload",
};

const char *adv_verdict_key(enum adv_verdict v)
{
	return (unsigned int)v < ADV_VERDICT_NR ? keys[v] : NULL;
}

const char *adv_verdict_text(enum adv_verdict v)
{
	return (unsigned int)v < ADV_VERDICT_NR ? texts[v] : NULL;
}

static void push(char ***v, size_t *nr, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_vaddf(&sb, fmt, ap);
	*v = xrealloc(*v, (*nr + 1) * sizeof(**v));
	(*v)[(*nr)++] = strbuf_detach(&sb, NULL);
}

void advice_reason(struct advice *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	push(&a->reasons, &a->nr_reasons, fmt, ap);
	va_end(ap);
}

void advice_choice(struct advice *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	push(&a->choices, &a->nr_choices, fmt, ap);
	va_end(ap);
}

struct adv_change *advice_add_change(struct advice *a)
{
	a->changes = xrealloc(a->changes, (a->nr_changes + 1) * sizeof(*a->changes));
	memset(&a->changes[a->nr_changes], 0, sizeof(*a->changes));
	return &a->changes[a->nr_changes++];
}

void advice_release(struct advice *a)
{
	size_t i;

	for (i = 0; i < a->nr_reasons; i++)
		free(a->reasons[i]);
	for (i = 0; i < a->nr_choices; i++)
		free(a->choices[i]);
	for (i = 0; i < a->nr_changes; i++) {
		struct adv_change *c = &a->changes[i];

		free(c->file);
		free(c->function);
		free(c->current);
		free(c->proposed);
		free(c->why);
		free(c->path);
		free(c->old_text);
		free(c->new_text);
	}
	free(a->reasons);
	free(a->choices);
	free(a->changes);
	free(a->patch);
	free(a->no_patch);
	free(a->patch_file);
	memset(a, 0, sizeof(*a));
}

void advice_set(struct advice *a, enum adv_verdict v, const char *rule, bool sure)
{
	a->verdict = v;
	a->rule = rule;
	a->sure = sure;
}

const struct ldr_lock *adv_lock_of(const struct ldr_report *r,
				   enum ldr_role role)
{
	size_t i;

	for (i = 0; i < r->nr_locks; i++)
		if (r->locks[i].role == role)
			return &r->locks[i];
	return NULL;
}

void advice_summary(struct strbuf *sb, const struct advice *a)
{
	size_t i;

	strbuf_addf(sb, "advice: %s\nrule: %s%s", adv_verdict_text(a->verdict),
		    a->rule, a->sure ? "" : " (unsure)");
	for (i = 0; i < a->nr_changes; i++)
		strbuf_addf(sb, "\n%s:%u: %s -> %s",
			    a->changes[i].file ? a->changes[i].file : "?",
			    a->changes[i].line, a->changes[i].current,
			    a->changes[i].proposed);
	if (!a->nr_changes && a->no_patch)
		strbuf_addf(sb, "\nno change: %s", a->no_patch);
}

/* ---- rules that need only the report's type ---- */

static void circular(const struct ldr_report *r, struct advice *a)
{
	struct adv_site s;
	size_t j;

	advice_set(a, ADV_DEADLOCK, "circular", true);
	advice_reason(a, "a cycle of %zu lock classes: each dependency was taken in the order shown, so tasks taking them concurrently can each wait for the next",
		      r->nr_chain ? r->nr_chain : r->nr_chain_summary);
	advice_reason(a, "a nesting annotation would only hide the cycle: the classes are distinct, not two instances of one");
	for (j = 0; j < r->nr_chain; j++) {
		const struct ldr_lock *l = r->chain[j].lock >= 0 ?
					   &r->locks[r->chain[j].lock] : NULL;
		const struct ldr_frames *f = r->chain[j].stack >= 0 ?
					     &r->stacks[r->chain[j].stack].frames : NULL;

		if (!l)
			continue;
		const struct ldr_frame *fr = f ? report_pick_frame(f) : NULL;

		/* the caller tells apart the orders a shared helper takes */
		const struct ldr_frame *up = fr && fr + 1 < f->v + f->nr &&
					     fr[1].func ? &fr[1] : NULL;

		if (adv_site_of_frames(f, &s))
			advice_choice(a, "break the dependency on %s taken at %s:%u (%s%s%s)",
				      l->name, s.file, s.line,
				      s.function ? s.function : "?",
				      up ? ", called from " : "", up ? up->func : "");
		else if (fr)
			advice_choice(a, "break the dependency on %s taken in %s",
				      l->name, fr->func);
		else
			advice_choice(a, "break the dependency on %s (no stack printed)",
				      l->name);
	}
	advice_choice(a, "which one: the documented order of these locks decides (the comment at their definition, or the subsystem's locking document); a lock taken in two orders for two purposes may be split in two");
	a->no_patch = xstrdup("the order to keep is the developer's choice");
}

static void lock_lifetime(const struct ldr_report *r, struct advice *a)
{
	const struct ldr_frame *f = report_guilty_frame(r);
	static const char *const what[LDR_TYPE_NR] = {
		[LDR_BAD_UNLOCK_BALANCE] = "a lock released that this task does not hold (double unlock, or unlock of a lock taken through an API lockdep does not track)",
		[LDR_HELD_LOCK_FREED] = "memory freed while a lock inside it is held",
		[LDR_LOCKS_HELD_AT_EXIT] = "a task exited holding locks",
		[LDR_LOCK_HELD_RETURNING_TO_USER] = "a system call returned to user space holding a lock",
		[LDR_NESTED_LOCK_NOT_TAKEN] = "a lock taken with a nest_lock that the task does not hold",
		[LDR_SUSPICIOUS_RCU_USAGE] = "an RCU-protected pointer used outside an RCU read-side critical section (or without the lock its check names)",
		[LDR_INVALID_WAIT_CONTEXT] = "a lock that may sleep (or spin with irqs on) taken where that is not allowed",
		[LDR_NON_STATIC_KEY] = "a lock used before it was initialised (its key is not static)",
		[LDR_BAD_CONTENTION] = "contention recorded on a lock this task does not hold",
	};

	advice_set(a, ADV_LOCKING_BUG, "lock-lifetime", true);
	advice_reason(a, "%s", what[r->type]);
	if (f)
		advice_reason(a, "in %s%s%s", f->func, f->file ? " at " : "",
			      f->file ? f->file : "");
	advice_reason(a, "no annotation applies: the code path must take and release its locks where it owns them");
	if (r->type == LDR_SUSPICIOUS_RCU_USAGE)
		advice_choice(a, "rcu_read_lock()/rcu_read_unlock() around the access, or rcu_dereference_protected()/rcu_dereference_check() naming the lock that protects the update side");
	a->no_patch = xstrdup("the fix is in the code path, not in one call");
}

/* lockdep's "BUG: MAX_... too low!" and the option that sizes each table */
static const struct {
	const char *table, *option;
} limits[] = {
	{ "MAX_LOCKDEP_ENTRIES", "CONFIG_LOCKDEP_BITS" },
	{ "MAX_LOCKDEP_CHAIN_HLOCKS", "CONFIG_LOCKDEP_CHAINS_BITS" },
	{ "MAX_LOCKDEP_CHAINS", "CONFIG_LOCKDEP_CHAINS_BITS" },
	{ "MAX_STACK_TRACE_ENTRIES", "CONFIG_LOCKDEP_STACK_TRACE_BITS" },
	{ "STACK_TRACE_HASH", "CONFIG_LOCKDEP_STACK_TRACE_HASH_BITS" },
	{ "MAX_LOCKDEP_KEYS", NULL },
	{ "MAX_LOCK_DEPTH", NULL },
};

static void limit(const struct ldr_report *r, struct advice *a)
{
	const char *msg = r->message ? r->message : r->header;
	size_t i;

	for (i = 0; i < sizeof(limits) / sizeof(limits[0]); i++)
		if (msg && strstr(msg, limits[i].table))
			break;
	if (i == sizeof(limits) / sizeof(limits[0])) {
		advice_set(a, ADV_UNSURE, "limit", false);
		advice_reason(a, "a lockdep limit whose table this tool does not know: \"%s\"",
			      msg ? msg : "");
		return;
	}
	if (!limits[i].option) {
		advice_set(a, ADV_LIMIT, "limit-fixed", true);
		advice_reason(a, "%s is full, and no option sizes it: %s", limits[i].table,
			      !strcmp(limits[i].table, "MAX_LOCK_DEPTH") ?
			      "a task holds 48 locks, which is nearly always a missing unlock in a loop" :
			      "lock keys registered at run time (lockdep_register_key()) and never unregistered are the usual cause");
		a->no_patch = xstrdup("no option raises this limit");
		return;
	}
	advice_set(a, ADV_LIMIT, "limit", true);
	advice_reason(a, "%s is full: lockdep turned itself off and checks nothing more this boot", limits[i].table);
	advice_choice(a, "raise %s (one more bit doubles the table)", limits[i].option);
	a->no_patch = xstrdup("the change is in the kernel configuration, not in the source");
}

void advise_report(const struct ldr_report *r, const char *source_dir,
		   struct advice *a)
{
	memset(a, 0, sizeof(*a));
	switch (r->type) {
	case LDR_CIRCULAR_DEPENDENCY:
		circular(r, a);
		break;
	case LDR_RECURSIVE_LOCKING:
		adv_recursive(r, source_dir, a);
		break;
	case LDR_BAD_UNLOCK_ORDER:
		adv_unlock_order(r, source_dir, a);
		break;
	case LDR_INCONSISTENT_LOCK_STATE:
	case LDR_IRQ_SAFE_UNSAFE_ORDER:
	case LDR_IRQ_LOCK_INVERSION:
		adv_irq(r, source_dir, a);
		break;
	case LDR_BAD_UNLOCK_BALANCE:
	case LDR_HELD_LOCK_FREED:
	case LDR_LOCKS_HELD_AT_EXIT:
	case LDR_LOCK_HELD_RETURNING_TO_USER:
	case LDR_NESTED_LOCK_NOT_TAKEN:
	case LDR_SUSPICIOUS_RCU_USAGE:
	case LDR_INVALID_WAIT_CONTEXT:
	case LDR_NON_STATIC_KEY:
	case LDR_BAD_CONTENTION:
		lock_lifetime(r, a);
		break;
	case LDR_LOCKDEP_LIMIT:
		limit(r, a);
		break;
	case LDR_HELD_LOCKS_DUMP:
		advice_set(a, ADV_UNSURE, "not-a-violation", false);
		advice_reason(a, "a list of held locks (a hung task or SysRq dump), not a broken lock rule: look at what the listed holders wait for");
		break;
	default:
		advice_set(a, ADV_UNSURE, "unknown", false);
		advice_reason(a, "lockdep reported something no rule here covers (%s)",
			      ldr_type_name(r->type));
		break;
	}
	if (r->truncated) {
		a->sure = false;
		advice_reason(a, "the report is truncated: what was cut may change the verdict");
	}
	if (!a->patch && !a->no_patch && a->nr_choices) {
		a->no_patch = xstrdup("a choice is left to the developer");
	} else if (!a->patch && !a->no_patch && a->nr_changes) {
		if (!source_dir)
			a->no_patch = xstrdup("no source directory (--source)");
		else
			a->patch = adv_make_patch(a, source_dir);
	}
}
