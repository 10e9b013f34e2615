/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lockdep's tables, as 6.1 sizes them (kernel/locking/lockdep_internals.h
 * and lockdep.c), and the advice on their CONFIG_LOCKDEP_*_BITS options
 * for a workload (lockdep-report --capacity, lockdep-report(1),
 * CAPACITY). The entry sizes are those of x86_64 6.1, read from the
 * sizes of the arrays in vmlinux (nm -S): a lock_list is 56 bytes, a
 * lock_chain 32, a chain_hlocks slot 2, a stack_trace[] entry and a hash
 * bucket 8; each table with an in-use bitmap adds a bit per entry.
 *
 * Invariants:
 *  (1) An advised bit count holds the table's used entries with at most
 *      (100 - headroom) percent of the table used, within the option's
 *      Kconfig range; it is never below the boot's own value.
 *  (2) The chain hlocks table is 5 slots per chain: the chains option is
 *      advised for the larger need of the two tables.
 *  (3) The stack trace hash keeps the kernel's default ratio to the
 *      trace table (19 bits of entries to 14 of buckets).
 *  (4) Counts of a boot whose lockdep turned itself off are lower bounds:
 *      such advice is sure only when they are projected to the whole
 *      workload (has_projection), and it says it is a projection.
 */
#ifndef ADVISE_CAPACITY_H
#define ADVISE_CAPACITY_H

#include <stdbool.h>

#include "advise/advise.h"

enum cap_table {
	CAP_CLASSES,		/* lock_classes[]: MAX_LOCKDEP_KEYS */
	CAP_LIST_ENTRIES,	/* list_entries[]: MAX_LOCKDEP_ENTRIES */
	CAP_CHAINS,		/* lock_chains[]: MAX_LOCKDEP_CHAINS */
	CAP_CHAIN_HLOCKS,	/* chain_hlocks[]: MAX_LOCKDEP_CHAIN_HLOCKS */
	CAP_STACK_TRACE,	/* stack_trace[]: MAX_STACK_TRACE_ENTRIES */
	CAP_STACK_HASH,		/* stack_trace_hash[]: STACK_TRACE_HASH_SIZE */
	CAP_TABLE_NR
};

struct cap_table_desc {
	const char *key;	/* "list_entries": JSON and --capacity */
	const char *text;	/* "list entries" */
	const char *stat;	/* its lockdep_stats label */
	const char *limit;	/* "MAX_LOCKDEP_ENTRIES" */
	const char *option;	/* "LOCKDEP_BITS" (after CONFIG_), or NULL */
};

extern const struct cap_table_desc cap_tables[CAP_TABLE_NR];

/* The table whose lockdep_stats label is @label, or -1. */
int cap_table_by_stat(const char *label);

/* What the advice is drawn from, per table. */
struct cap_usage {
	unsigned long long used[CAP_TABLE_NR];
	unsigned long long max[CAP_TABLE_NR];	/* 0: not known */
	bool has[CAP_TABLE_NR];			/* used is known */
	/* where one consumer takes at least a third of the table: it, in
	 * words, and its share in percent; else NULL */
	const char *dominant[CAP_TABLE_NR];
	unsigned int dominant_pct[CAP_TABLE_NR];
	/* lockdep turned itself off: the counts stopped short of the need */
	bool lower_bound;
	/* ... and used[] is projected to the whole workload where projected[]
	 * (report/capacity.h, struct cap_projection): measured[] is the count */
	bool has_projection;
	bool projected[CAP_TABLE_NR];
	unsigned long long measured[CAP_TABLE_NR];
	/* the agent's series: growth per minute, seconds to full (-1: never) */
	bool has_growth[CAP_TABLE_NR];
	double growth_per_min[CAP_TABLE_NR];
	double full_in_s[CAP_TABLE_NR];
};

enum cap_option {
	CAP_OPT_BITS,		/* CONFIG_LOCKDEP_BITS */
	CAP_OPT_CHAINS_BITS,	/* CONFIG_LOCKDEP_CHAINS_BITS */
	CAP_OPT_STACK_TRACE_BITS,
	CAP_OPT_STACK_TRACE_HASH_BITS,
	CAP_OPT_NR
};

/* One option's advice. */
struct cap_option_advice {
	const char *name;		/* "CONFIG_LOCKDEP_BITS" */
	unsigned int current;		/* 0: not known */
	unsigned int advised;
	long long bytes_current;	/* -1: not known */
	long long bytes_advised;
};

/*
 * Advice for @u with @headroom percent (0-90) of each table left free:
 * the options in @opts, and in @a (the shape of --advise: verdict capacity,
 * rule "capacity-bits", "capacity-fits" or "capacity-consumer", a
 * reason per table, a change per option to raise, the dominant
 * consumers as choices). Release @a with advice_release().
 */
void advise_capacity(const struct cap_usage *u, unsigned int headroom,
		     struct cap_option_advice opts[CAP_OPT_NR],
		     struct advice *a);

/* The bytes of lockdep's static tables an option's @bits cost on 6.1. */
long long cap_option_bytes(enum cap_option o, unsigned int bits);

#endif
