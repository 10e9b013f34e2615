// SPDX-License-Identifier: GPL-2.0
/*
 * Rules for irq context: inconsistent lock state, irq-safe -> irq-unsafe
 * order, irq lock inversion. Each says one lock class is taken in hardirq
 * (softirq) context somewhere and with hardirqs (softirqs) enabled
 * somewhere else, directly or through a dependency: an interrupt on the
 * CPU of a task that holds it would wait on it forever. The change is at
 * the acquisition with interrupts enabled (the "-ON-" usage): take it
 * with them off, spin_lock_irq() (spin_lock_bh()), and release it to
 * match; lockdep proved interrupts were on there, so _irq (not _irqsave)
 * is right. The other way out, moving the work out of the interrupt, is
 * named in the advice.
 */
#include <strings.h>
#include <string.h>

#include "advise/advise-rules.h"
#include "advise/advise-source.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *const state_names[LDR_STATE_NR] = {
	[LDR_HARDIRQ] = "HARDIRQ", [LDR_SOFTIRQ] = "SOFTIRQ",
	[LDR_RECLAIM_FS] = "RECLAIM_FS",
};

/* The state named at the start of @s ("SOFTIRQ-ON-W", "in-softirq-W"). */
static int state_in(const char *s)
{
	int i;

	if (!s)
		return -1;
	if (!strncasecmp(s, "IN-", 3))
		s += 3;
	for (i = 0; i < LDR_STATE_NR; i++)
		if (!strncasecmp(s, state_names[i], strlen(state_names[i])))
			return i;
	return -1;
}

static bool is_unsafe(const struct ldr_lock *l, int state)
{
	unsigned int in = LDR_USAGE_IN(state) | LDR_USAGE_IN_READ(state);
	unsigned int on = LDR_USAGE_ON(state) | LDR_USAGE_ON_READ(state);

	return (l->usage_bits & on) && !(l->usage_bits & in);
}

/* "X-ON-W at:" (or -R) of a lock never taken in X context, or NULL. */
static const struct ldr_stack *unsafe_stack(const struct ldr_report *r,
					    int state)
{
	struct strbuf w = STRBUF_INIT, rd = STRBUF_INIT, label = STRBUF_INIT;
	const struct ldr_stack *found = NULL;
	size_t i;

	strbuf_addf(&label, "%s-irq-unsafe", state_names[state]);
	strbuf_addf(&w, "%s-ON-W", state_names[state]);
	strbuf_addf(&rd, "%s-ON-R", state_names[state]);
	for (i = 0; i < r->nr_stacks && !found; i++)
		if (!strcasecmp(r->stacks[i].label, label.buf))
			found = &r->stacks[i];
	for (i = 0; i < r->nr_stacks && !found; i++) {
		const struct ldr_stack *s = &r->stacks[i];

		if ((!strcasecmp(s->label, w.buf) || !strcasecmp(s->label, rd.buf)) &&
		    s->lock >= 0 && is_unsafe(&r->locks[s->lock], state))
			found = s;
	}
	strbuf_release(&w);
	strbuf_release(&rd);
	strbuf_release(&label);
	return found;
}

/* For inconsistent lock state: "{A} -> {B}" of the message. */
static bool usage_pair(const char *msg, char *from, char *to, size_t n)
{
	const char *a = msg ? strchr(msg, '{') : NULL;
	const char *ae = a ? strchr(a, '}') : NULL;
	const char *b = ae ? strchr(ae, '{') : NULL;
	const char *be = b ? strchr(b, '}') : NULL;

	if (!be || (size_t)(ae - a) > n || (size_t)(be - b) > n)
		return false;
	memcpy(from, a + 1, ae - a - 1);
	from[ae - a - 1] = '\0';
	memcpy(to, b + 1, be - b - 1);
	to[be - b - 1] = '\0';
	return true;
}

/* The stack "{A} state was registered at:". */
static const struct ldr_stack *registered(const struct ldr_report *r)
{
	size_t i;

	for (i = 0; i < r->nr_stacks; i++)
		if (r->stacks[i].label[0] == '{')
			return &r->stacks[i];
	return NULL;
}

static const struct ldr_frames *backtrace(const struct ldr_report *r)
{
	return r->backtrace >= 0 ? &r->stacks[r->backtrace].frames : NULL;
}

static const struct ldr_frames *inconsistent_site(const struct ldr_report *r,
						  struct advice *a, int *state)
{
	const struct ldr_lock *acq = adv_lock_of(r, LDR_ROLE_ACQUIRING);
	const struct ldr_stack *reg = registered(r);
	char from[32], to[32];

	if (!usage_pair(r->message, from, to, sizeof(from))) {
		*state = -1;
		return NULL;
	}
	*state = state_in(to);
	advice_reason(a, "%s was used as {%s} and is now used as {%s}",
		      acq ? acq->name : "the lock", from, to);
	if (!strncasecmp(to, "IN-", 3))	/* now in irq: the other was the irqs-on one */
		return reg ? &reg->frames : NULL;
	return backtrace(r);
}

void adv_irq(const struct ldr_report *r, const char *source_dir,
	     struct advice *a)
{
	const struct ldr_frames *site = NULL;
	const struct ldr_stack *st;
	struct adv_site s;
	int state;

	if (r->type == LDR_INCONSISTENT_LOCK_STATE) {
		advice_set(a, ADV_IRQ_CONTEXT, "inconsistent-irq", true);
		site = inconsistent_site(r, a, &state);
	} else {
		advice_set(a, ADV_IRQ_CONTEXT, r->type == LDR_IRQ_LOCK_INVERSION ?
			   "irq-inversion" : "irq-safe-unsafe", true);
		state = state_in(r->irq_class);
		st = state >= 0 ? unsafe_stack(r, state) : NULL;
		if (st) {
			site = &st->frames;
			advice_reason(a, "%s is %s-unsafe (taken with %ss enabled) and depends on, or is depended on by, a lock taken in %s context",
				      st->lock >= 0 ? r->locks[st->lock].name : "a lock",
				      state_names[state], state == LDR_HARDIRQ ? "irq" : "softirq",
				      state == LDR_HARDIRQ ? "hardirq" : "softirq");
		}
	}
	if (state < 0) {
		advice_set(a, ADV_UNSURE, a->rule, false);
		advice_reason(a, "the report does not say which interrupt context");
		return;
	}
	if (state == LDR_RECLAIM_FS) {
		advice_set(a, ADV_UNSURE, "reclaim-fs", true);
		advice_reason(a, "memory reclaim context, not an interrupt: the lock is taken inside fs reclaim and around an allocation that may enter it");
		advice_choice(a, "allocate with GFP_NOFS (memalloc_nofs_save()) while it is held");
		advice_choice(a, "do not take it from the reclaim path");
		a->no_patch = xstrdup("the choice is the developer's");
		return;
	}
	advice_reason(a, "an interrupt arriving on the CPU of a task that holds it would wait forever: the acquisition with %ss enabled must disable them, or the %s work must move out of the interrupt (a workqueue)",
		      state == LDR_HARDIRQ ? "irq" : "softirq",
		      state == LDR_HARDIRQ ? "hardirq" : "softirq");
	if (!adv_site_of_frames(site, &s)) {
		a->no_patch = xstrdup("the acquisition with interrupts enabled has no source line in the report");
		return;
	}
	adv_edit_site(a, source_dir, &s,
		      state == LDR_HARDIRQ ? ADV_EDIT_IRQ : ADV_EDIT_BH, NULL,
		      state == LDR_HARDIRQ ?
		      "taken here with irqs enabled (HARDIRQ-ON): take it with irqs off" :
		      "taken here with softirqs enabled (SOFTIRQ-ON): take it with softirqs off");
}
