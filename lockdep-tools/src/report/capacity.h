/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fills lockdep's tables in a boot or a union of boots
 * (lockdep-report --capacity; lockdep-report(1), CAPACITY): each table's
 * used and max from the stored lockdep_stats, the same count made from
 * the stored graph export's rows, the consumers grouped by class, key
 * symbol, module, subsystem (and, for stack traces, acquisition site),
 * and the shapes the lockdep maintainers ask about.
 *
 * What a row of the export takes (6.1, kernel/locking/lockdep.c):
 *   classes         one lock_classes[] entry a class
 *   list entries    two a dependency (one on each class's list); a class
 *                   is charged one for each dependency it is in
 *   chains          one lock_chains[] entry a chain, charged to the class
 *                   its chain ends with (the one whose acquisition made it)
 *   chain hlocks    one u16 a class in a chain, at least two a chain
 *                   (alloc_chain_hlocks()): a depth-1 chain's class pays 2
 *   stack traces    nr + 3 longs a stored trace (struct lock_trace's
 *                   header); a trace is charged to the class whose
 *                   acquisition it records, the smallest class id of
 *                   those whose dependency or usage bit refers to it
 * Those sums equal lockdep_stats' when the export is whole; the hash
 * chains of stack traces are not counted (the kernel's jhash of the
 * entries decides them), only reported.
 *
 * When the boot has the agent's lockdep_stats series, each table's
 * growth rate is measured over it, and when it has a snapshot taken at
 * a "too low" report, used and max are the snapshot's: the table that
 * ran out, at that moment.
 *
 * Invariants:
 *  (1) For a union, each table's used, max and counted rows, and each
 *      consumer's and shape's rows, are the largest of any one boot of
 *      it: a share is of the fullest boot's table and never above 100 %.
 *  (2) A consumer's rows across one grouping sum to the table's counted
 *      rows (per boot).
 */
#ifndef REPORT_CAPACITY_H
#define REPORT_CAPACITY_H

#include <stdbool.h>
#include <stdint.h>

#include "advise/capacity.h"
#include "store/store.h"
#include "util/strset.h"

enum cap_by {
	CAP_BY_CLASS,		/* the printed class name */
	CAP_BY_KEY,		/* its key's symbol */
	CAP_BY_MODULE,		/* the module of its first-use site */
	CAP_BY_SUBSYSTEM,	/* the directory of that site's file */
	CAP_BY_SITE,		/* stack traces only: the trace's site */
	CAP_BY_NR
};

enum cap_shape {
	CAP_SHAPE_ONE_NAME,	/* many classes of one name: keys per object */
	CAP_SHAPE_SAME_NAME_CHAINS,	/* chains holding several of one name */
	CAP_SHAPE_ORDERS,	/* chains of the same locks in other orders */
	CAP_SHAPE_TRACE_SITE,	/* many stack traces stored for one site */
	CAP_SHAPE_NR
};

/* Consumers (or shapes) by their name, each with its rows per table. */
struct cap_map {
	struct strset names;
	unsigned long long (*rows)[CAP_TABLE_NR];
	unsigned long long *count;	/* classes, chains or traces */
	unsigned long long *extra;	/* keys or orders; see cap_shape */
	size_t alloc;
};

/*
 * A boot whose lockdep turned itself off (a table ran out) stopped
 * counting there: its counts are lower bounds of what its workload
 * needs. The projection: each table's growth from the first sample of
 * the series taken in the workload (the first whose kernel log record is
 * at or past the workload's start_seq) to the snapshot taken when the
 * table ran out, at the same rate over the whole of the workload's
 * duration, counted from that sample:
 *
 *   need = at_start + (at_out - at_start) * workload_ms / (out_ms - start_ms)
 *
 * Its grounds and limits: lockdep's tables grow with the code paths a
 * workload reaches, most of them early (a later minute finds fewer new
 * ones: the rate over the run so far is the higher one); the workload's
 * remaining time counts from its first sample (later than its start: the
 * remainder is taken longer than it was); but the remainder ran with
 * lockdep off, faster than it would have with it on (a workload of fixed
 * work is shorter: its duration is taken shorter than with lockdep on).
 * The second boot with the advice is the check (make check-capacity,
 * t0356: 1.05 to 1.7 times the needs, 2026-12-08).
 */
struct cap_projection {
	bool has;
	int64_t boot;
	long long start_idx;		/* the series' first sample in the workload */
	long long start_ms, out_ms;	/* ... its time, the snapshot's */
	long long workload_ms;		/* the workload's duration */
	unsigned long long at_start[CAP_TABLE_NR], at_out[CAP_TABLE_NR];
	unsigned long long need[CAP_TABLE_NR];	/* projected */
	bool has_table[CAP_TABLE_NR];
};

/*
 * The projection of boot @boot to *@p (p->has), or, when it has none, why
 * in *@why_not (free it): 0, or -1 after an error.
 */
int capacity_project(struct store *st, int64_t boot,
		     struct cap_projection *p, char **why_not);

struct cap_stat {
	char *name;
	unsigned long long value, max;
	bool has_max;
};

struct capacity {
	int64_t *boots;
	size_t nr_boots;
	unsigned long long used[CAP_TABLE_NR], max[CAP_TABLE_NR];
	bool has_stat[CAP_TABLE_NR];
	unsigned long long counted[CAP_TABLE_NR];
	bool has_counted[CAP_TABLE_NR];
	unsigned long long deps;	/* the export's dependencies */
	/* lockdep_stats' debug_locks was 0: lockdep turned itself off, and
	 * every count stopped where it was (a lower bound of the need) */
	bool lockdep_off;
	/*
	 * The agent's series (lockdep-db(5), stats_samples): each table's
	 * growth from the first to the last periodic sample, per minute
	 * (for a union, the fastest boot's); span_ms and samples of the
	 * series it was measured over
	 */
	double growth_per_min[CAP_TABLE_NR];
	bool has_growth[CAP_TABLE_NR];
	long long span_ms;
	unsigned int samples;
	/* used and max are the snapshot's, taken when a "too low" fired */
	bool from_snapshot;
	/* lockdep_off: the projection to the whole workload (for a union,
	 * each table's largest need, the basis of the first boot's) */
	struct cap_projection proj;
	struct cap_map by[CAP_BY_NR];
	struct cap_map shapes[CAP_SHAPE_NR];
	struct cap_stat *other;	/* lockdep_stats lines of no table we know */
	size_t nr_other, alloc_other;
	char **notes;		/* what could not be counted, and why */
	size_t nr_notes, alloc_notes;
};

/* Count boots @boots[0..@nr) of @st into @cap: 0, or -1 after an error. */
int capacity_load(struct store *st, const int64_t *boots, size_t nr,
		  struct capacity *cap);
void capacity_release(struct capacity *cap);

/* The grouping's name: "class", "key", "module", "subsystem", "site". */
const char *cap_by_name(enum cap_by by);
/* The shape's key ("one_name", ...) and its words. */
const char *cap_shape_key(enum cap_shape s);
const char *cap_shape_text(enum cap_shape s);

/*
 * The @n largest entries of @m for table @t (rows, then name), into
 * @out (indices into @m); returns how many.
 */
size_t cap_map_top(const struct cap_map *m, enum cap_table t, uint32_t *out,
		   size_t n);

/* The fullest table (used/max) of those with a limit, or -1. */
int capacity_fullest(const struct capacity *cap);

/* Seconds until table @t is full at its growth, or -1 (not growing, or no limit). */
double capacity_full_in_s(const struct capacity *cap, int t);

/* The usage the advice is drawn from (dominant consumers named). */
void capacity_usage(const struct capacity *cap, struct cap_usage *u,
		    char *words[CAP_TABLE_NR]);

#endif
