// SPDX-License-Identifier: GPL-2.0
/* The CONFIG_LOCKDEP_*_BITS that hold a workload (capacity.h). */
#include <stdio.h>
#include <string.h>

#include "advise/advise-rules.h"
#include "advise/capacity.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

const struct cap_table_desc cap_tables[CAP_TABLE_NR] = {
	[CAP_CLASSES] = { "classes", "classes", "lock-classes",
			  "MAX_LOCKDEP_KEYS", NULL },
	[CAP_LIST_ENTRIES] = { "list_entries", "list entries",
			       "direct dependencies", "MAX_LOCKDEP_ENTRIES",
			       "LOCKDEP_BITS" },
	[CAP_CHAINS] = { "chains", "chains", "dependency chains",
			 "MAX_LOCKDEP_CHAINS", "LOCKDEP_CHAINS_BITS" },
	[CAP_CHAIN_HLOCKS] = { "chain_hlocks", "chain hlocks",
			       "dependency chain hlocks used",
			       "MAX_LOCKDEP_CHAIN_HLOCKS",
			       "LOCKDEP_CHAINS_BITS" },
	[CAP_STACK_TRACE] = { "stack_trace_entries", "stack trace entries",
			      "stack-trace entries", "MAX_STACK_TRACE_ENTRIES",
			      "LOCKDEP_STACK_TRACE_BITS" },
	[CAP_STACK_HASH] = { "stack_trace_hash_chains",
			     "stack trace hash chains",
			     "number of stack hash chains",
			     "STACK_TRACE_HASH_SIZE",
			     "LOCKDEP_STACK_TRACE_HASH_BITS" },
};

int cap_table_by_stat(const char *label)
{
	int i;

	for (i = 0; i < CAP_TABLE_NR; i++)
		if (!strcmp(cap_tables[i].stat, label))
			return i;
	return -1;
}

/* Each option: its name, its Kconfig range, the table that sizes it. */
static const struct {
	const char *name;
	unsigned int lo, hi;
	enum cap_table table;
} options[CAP_OPT_NR] = {
	[CAP_OPT_BITS] = { "CONFIG_LOCKDEP_BITS", 10, 24, CAP_LIST_ENTRIES },
	[CAP_OPT_CHAINS_BITS] = { "CONFIG_LOCKDEP_CHAINS_BITS", 10, 30,
				  CAP_CHAINS },
	[CAP_OPT_STACK_TRACE_BITS] = { "CONFIG_LOCKDEP_STACK_TRACE_BITS", 10,
				       26, CAP_STACK_TRACE },
	[CAP_OPT_STACK_TRACE_HASH_BITS] = {
		"CONFIG_LOCKDEP_STACK_TRACE_HASH_BITS", 10, 26,
		CAP_STACK_HASH },
};

/* lockdep's default 19 bits of trace entries to 14 of hash buckets */
#define HASH_BITS_BELOW_TRACE_BITS	5

long long cap_option_bytes(enum cap_option o, unsigned int bits)
{
	long long n = 1LL << bits;

	switch (o) {
	case CAP_OPT_BITS:	/* list_entries[], list_entries_in_use */
		return n * 56 + n / 8;
	case CAP_OPT_CHAINS_BITS:
		/* lock_chains[], its bitmap, chain_hlocks[], chainhash_table[] */
		return n * 32 + n / 8 + 5 * n * 2 + n / 2 * 8;
	case CAP_OPT_STACK_TRACE_BITS:
	case CAP_OPT_STACK_TRACE_HASH_BITS:
		return n * 8;
	case CAP_OPT_NR:
		break;
	}
	return -1;
}

/* log2 of @max if it is a power of two, else 0 */
static unsigned int bits_of(unsigned long long max)
{
	unsigned int b = 0;

	if (!max || (max & (max - 1)))
		return 0;
	while (max >> (b + 1))
		b++;
	return b;
}

/* The smallest bits whose table of @per_bit << bits entries keeps @free % free. */
static unsigned int need_bits(unsigned long long used, unsigned int per_bit,
			      unsigned int free)
{
	unsigned int b = 0;

	while (b < 40 && (unsigned long long)per_bit * (1ULL << b) *
	       (100 - free) < used * 100)
		b++;
	return b;
}

static void mib(struct strbuf *sb, long long bytes)
{
	strbuf_addf(sb, "%.1f MiB", (double)bytes / (1024.0 * 1024.0));
}

static unsigned int pct(unsigned long long part, unsigned long long whole)
{
	return whole ? (unsigned int)((part * 100 + whole / 2) / whole) : 0;
}

static void add_change(struct advice *a, const struct cap_option_advice *o,
		       const char *why)
{
	struct adv_change *c;
	struct strbuf sb = STRBUF_INIT;

	a->changes = xrealloc(a->changes,
			      (a->nr_changes + 1) * sizeof(*a->changes));
	c = &a->changes[a->nr_changes++];
	memset(c, 0, sizeof(*c));
	strbuf_addf(&sb, "%s=%u", o->name, o->current);
	c->current = strbuf_detach(&sb, NULL);
	strbuf_addf(&sb, "%s=%u", o->name, o->advised);
	c->proposed = strbuf_detach(&sb, NULL);
	c->why = xstrdup(why);
}

static void add_choice(struct advice *a, char *text)
{
	a->choices = xrealloc(a->choices,
			      (a->nr_choices + 1) * sizeof(*a->choices));
	a->choices[a->nr_choices++] = text;
}

static void add_reason(struct advice *a, char *text)
{
	a->reasons = xrealloc(a->reasons,
			      (a->nr_reasons + 1) * sizeof(*a->reasons));
	a->reasons[a->nr_reasons++] = text;
}

/* The bits @t needs (@per_bit entries a bit step), said in @a. */
static unsigned int table_need(const struct cap_usage *u, enum cap_table t,
			       unsigned int per_bit, unsigned int free,
			       unsigned int opt_bits, struct advice *a)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned int need;

	if (!u->has[t]) {
		strbuf_addf(&sb, "%s: not counted in this boot (no lockdep_stats line, no export)",
			    cap_tables[t].text);
		add_reason(a, strbuf_detach(&sb, NULL));
		a->sure = false;
		return 0;
	}
	need = need_bits(u->used[t], per_bit, free);
	if (u->projected[t]) {
		strbuf_addf(&sb, "%s: %llu projected for the whole workload (%llu used",
			    cap_tables[t].text, u->used[t], u->measured[t]);
		if (u->max[t])
			strbuf_addf(&sb, " of %llu", u->max[t]);
		strbuf_addstr(&sb, " when lockdep turned off)");
	} else {
		strbuf_addf(&sb, "%s: %llu used", cap_tables[t].text,
			    u->used[t]);
		if (u->max[t])
			strbuf_addf(&sb, " of %llu (%u %%)", u->max[t],
				    pct(u->used[t], u->max[t]));
	}
	if (!u->max[t])
		a->sure = false;	/* the boot's own size is not known */
	if (!cap_tables[t].option)
		strbuf_addf(&sb, "; %s has no option in 6.1", cap_tables[t].limit);
	else if (opt_bits && need <= opt_bits)
		strbuf_addf(&sb, "; CONFIG_%s=%u keeps %u %% free",
			    cap_tables[t].option, opt_bits, free);
	else
		strbuf_addf(&sb, "; CONFIG_%s=%u keeps %u %% free",
			    cap_tables[t].option, need, free);
	if (u->has_growth[t]) {
		strbuf_addf(&sb, "; growing %.0f a minute in the agent's samples",
			    u->growth_per_min[t]);
		if (u->full_in_s[t] >= 0)
			strbuf_addf(&sb, ", full in %.0f s at that rate",
				    u->full_in_s[t]);
	}
	add_reason(a, strbuf_detach(&sb, NULL));
	return need;
}

void advise_capacity(const struct cap_usage *u, unsigned int headroom,
		     struct cap_option_advice opts[CAP_OPT_NR],
		     struct advice *a)
{
	unsigned int need[CAP_OPT_NR], o, n;
	bool raise = false, consumer = false;
	int t;

	memset(a, 0, sizeof(*a));
	a->sure = true;
	for (o = 0; o < CAP_OPT_NR; o++) {
		opts[o].name = options[o].name;
		opts[o].current = bits_of(u->max[options[o].table]);
		if (o == CAP_OPT_CHAINS_BITS && !opts[o].current)
			opts[o].current = bits_of(u->max[CAP_CHAIN_HLOCKS] / 5);
	}
	if (u->lower_bound && u->has_projection) {
		add_reason(a, xstrdup("lockdep turned itself off in this boot (debug_locks 0): every table stopped growing there; the advice is for each table's growth in the workload up to then, projected at the same rate over the whole workload (the projection line says its basis)"));
	} else if (u->lower_bound) {
		add_reason(a, xstrdup("lockdep turned itself off in this boot (debug_locks 0): every table stopped growing there, so each count is a lower bound of what the workload needs; boot again with the advice to see"));
		a->sure = false;
	}
	/* classes: no option, said for the record */
	table_need(u, CAP_CLASSES, 1, headroom, 0, a);
	need[CAP_OPT_BITS] = table_need(u, CAP_LIST_ENTRIES, 1, headroom,
					opts[CAP_OPT_BITS].current, a);
	need[CAP_OPT_CHAINS_BITS] = table_need(u, CAP_CHAINS, 1, headroom,
					       opts[CAP_OPT_CHAINS_BITS].current, a);
	n = table_need(u, CAP_CHAIN_HLOCKS, 5, headroom,
		       opts[CAP_OPT_CHAINS_BITS].current, a);
	if (n > need[CAP_OPT_CHAINS_BITS])
		need[CAP_OPT_CHAINS_BITS] = n;
	need[CAP_OPT_STACK_TRACE_BITS] =
		table_need(u, CAP_STACK_TRACE, 1, headroom,
			   opts[CAP_OPT_STACK_TRACE_BITS].current, a);
	need[CAP_OPT_STACK_TRACE_HASH_BITS] = 0;
	for (o = 0; o < CAP_OPT_NR; o++) {
		struct cap_option_advice *p = &opts[o];
		unsigned int b = need[o];

		if (o == CAP_OPT_STACK_TRACE_HASH_BITS)
			b = opts[CAP_OPT_STACK_TRACE_BITS].advised >
				HASH_BITS_BELOW_TRACE_BITS ?
				opts[CAP_OPT_STACK_TRACE_BITS].advised -
				HASH_BITS_BELOW_TRACE_BITS : 0;
		if (b < options[o].lo)
			b = options[o].lo;
		if (b > options[o].hi)
			b = options[o].hi;
		if (b < p->current)
			b = p->current;
		p->advised = b;
		p->bytes_current = p->current ?
			cap_option_bytes(o, p->current) : -1;
		p->bytes_advised = cap_option_bytes(o, b);
	}
	for (o = 0; o < CAP_OPT_NR; o++) {
		struct cap_option_advice *p = &opts[o];
		struct strbuf sb = STRBUF_INIT;

		if (!p->current) {
			strbuf_addf(&sb, "%s: the boot's value is not known (no limit in lockdep_stats, no config); %u is advised",
				    p->name, p->advised);
			add_reason(a, strbuf_detach(&sb, NULL));
			continue;
		}
		if (p->advised == p->current)
			continue;
		raise = true;
		if (o == CAP_OPT_STACK_TRACE_HASH_BITS)
			strbuf_addf(&sb, "the hash of stack traces kept at 1 bucket to %u entries, as lockdep's defaults: ",
				    1U << HASH_BITS_BELOW_TRACE_BITS);
		else
			strbuf_addf(&sb, "%u %% of the table free for this workload: ",
				    headroom);
		mib(&sb, p->bytes_advised);
		if (p->bytes_current >= 0) {
			strbuf_addstr(&sb, " of lockdep's tables instead of ");
			mib(&sb, p->bytes_current);
		}
		add_change(a, p, sb.buf);
		strbuf_release(&sb);
	}
	for (t = 0; t < CAP_TABLE_NR; t++) {
		struct strbuf sb = STRBUF_INIT;
		bool over = u->has[t] && u->max[t] &&
			u->used[t] * 100 > u->max[t] * (100 - headroom);

		if (!u->dominant[t] || !over)
			continue;
		consumer = true;
		strbuf_addf(&sb, "fix the consumer instead: %s takes %u %% of %s",
			    u->dominant[t], u->dominant_pct[t], cap_tables[t].text);
		add_choice(a, strbuf_detach(&sb, NULL));
	}
	advice_set(a, ADV_CAPACITY, consumer ? "capacity-consumer" :
		   raise ? "capacity-bits" : "capacity-fits", a->sure);
	if (!raise)
		a->no_patch = xstrdup("the boot's options hold this workload with the headroom asked for");
	else
		a->no_patch = xstrdup("the change is in the kernel configuration: lockdep-report --capacity --fragment=FILE writes it");
}
