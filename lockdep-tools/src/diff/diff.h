/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Boot against boot: what changed in lockdep's view of the kernel from
 * boot A to boot B (lockdep-diff(1)), and the deadlocks that only the two
 * together show.
 *
 * The two boots may sit in one database or in two. Classes are matched
 * by their identity across boots (store/identity.h), so the comparison of
 * classes, dependencies and usage runs on one lock graph (graph/graph.h)
 * holding both sides. Side A may be a set of baseline boots (graph boot
 * indices 0 .. nr_base - 1), B is boot index nr_base: A "has" what any
 * baseline boot has, and what only some of them have is flaky (timing:
 * two idle boots of one kernel differ by a few workqueue and timer
 * dependencies), so a gate on what B added reports only what no
 * baseline boot ever had. The smaller
 * tables (lockdep_stats, the self-test cells, reports by dedup key) are
 * read into memory and compared by key.
 *
 * Invariants:
 *  (1) Every list is sorted (classes and dependencies by identity, stats
 *      in B's order, then A's), so two runs on the same boots print the
 *      same bytes.
 *  (2) A node is one class of each boot that has it, matched across
 *      boots by identity, never two classes of one boot. An identity
 *      that several classes of one boot share (a name with no key
 *      symbol to tell its classes apart: the &of->mutex of two
 *      mutex_init() sites) is ambiguous in every boot of the diff: each
 *      of its classes is a node of its own boot, matched with none, and
 *      neither it nor a dependency touching it is counted as added or
 *      removed. A path through it is a path of its own boot, so cycles
 *      may pass through it; no irq path is new for ending in it.
 *  (3) A new cycle is a cycle of the union of A and B that A alone does
 *      not have: at least one of its edges was not seen by A. It is
 *      cross_boot when neither boot saw all its edges.
 *  (4) Nothing here prints or exits: errors are returned as -1 after one
 *      error line (the store's), and the printers take a stream.
 */
#ifndef DIFF_DIFF_H
#define DIFF_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "graph/graph.h"
#include "store/store.h"
#include "util/strset.h"

enum diff_side_idx { DIFF_A, DIFF_B, DIFF_SIDES };

/* One boot of the comparison. */
struct diff_boot {
	struct store *st;	/* not owned */
	const char *db;		/* the database file */
	int64_t id;
	char *label, *kernel_release, *build_id, *completeness;
	size_t nr_classes, nr_deps;	/* rows, before identity merging */
	size_t dropped_deps;	/* naming a class not of this boot */
	struct store_workload workload;	/* valid when has_workload */
	bool has_workload;
	/*
	 * no graph export (for A: in a baseline boot): the
	 * dependencies are /proc/lockdep's, at distance 1 only
	 */
	bool no_export;
	/* /proc/lockdep missing too (for A: in every baseline boot) */
	bool no_lockdep;
	size_t nr_no_lockdep;	/* while loading: boots without */
	/* at distance > 1, left out because a side has no export */
	size_t left_out_deps;
};

/* A class identity's state in each boot (per graph node). */
struct diff_node {
	const char *identity;	/* the graph's key of the node */
	unsigned int usage[DIFF_SIDES];	/* for A: OR over the baseline */
	bool in[DIFF_SIDES];	/* does the side have the class? */
	bool ambiguous;		/* one class of an ambiguous identity */
	unsigned int nr_base;	/* baseline boots that have it */
};

/* An ambiguous identity (invariant (2)) and its classes in each side. */
struct diff_ambiguous {
	const char *identity;	/* in diff.ambiguous_ids */
	unsigned int count[DIFF_SIDES];	/* for A: the most in one boot */
	unsigned int cur;	/* while loading: in the current A boot */
	int last_base;		/* ... which is this one */
};

struct diff_stat {
	char *name;
	bool has[DIFF_SIDES];
	unsigned long long value[DIFF_SIDES];
	bool has_max;
	unsigned long long max;	/* B's [max: N] (A's if B lacks the row) */
};

struct diff_selftest {
	char *section, *test, *variant;
	char *result[DIFF_SIDES];	/* NULL: no such cell */
};

struct diff_report {
	char *dedup_key, *type, *title;
	unsigned int count[DIFF_SIDES];
};

/* A consumer of a lockdep table with more of its rows in B than in A. */
struct diff_grew {
	int table;		/* enum cap_table (advise/capacity.h) */
	int by;			/* enum cap_by (report/capacity.h) */
	char *name;
	unsigned long long a, b;	/* its rows in each boot */
};

/* A path from an irq-safe class to an irq-unsafe one A did not have. */
struct diff_irq_path {
	int state;		/* LDR_HARDIRQ or LDR_SOFTIRQ */
	uint32_t *edges;	/* graph edge indices, safe end first */
	size_t nr;
};

struct diff {
	/* A: the last baseline boot (stats and self-tests are its) */
	struct diff_boot boot[DIFF_SIDES];
	const int64_t *base_ids;	/* every baseline boot, not owned */
	size_t nr_base;
	struct graph *g;
	/*
	 * A side has no graph export: both are compared as
	 * /proc/lockdep shows them, dependencies at distance 1 only, so
	 * that what the export alone shows is not "added" or "removed"
	 */
	bool distance1_only;
	struct diff_node *nodes;	/* per graph node */
	uint32_t *order;	/* node indices sorted by identity */
	uint32_t *rank;		/* rank[node]: position in order */
	uint32_t *edge_order;	/* edge indices by (rank from, rank to) */
	struct strset ambiguous_ids;	/* the ambiguous identities */
	struct diff_ambiguous *ambiguous;	/* by identity, sorted */
	size_t nr_ambiguous;

	struct diff_stat *stats;
	size_t nr_stats, alloc_stats;
	struct diff_selftest *selftest;
	size_t nr_selftest, alloc_selftest;
	struct diff_report *reports;
	size_t nr_reports, alloc_reports;
	/* by table, grouping, then growth: the three largest of each */
	struct diff_grew *grew;
	size_t nr_grew, alloc_grew;

	struct graph_scc scc;
	struct graph_cycles cycles;
	const struct graph_cycle **new_cycles;	/* in cycles.v */
	size_t nr_new_cycles;
	struct diff_irq_path *irq_paths;
	size_t nr_irq_paths;

	/* counts of the changes (the --fail-on conditions read these) */
	size_t classes_added, classes_removed;
	size_t deps_added, deps_removed, usage_changed;
	size_t ambiguous_deps;	/* touching an ambiguous class: not compared */
	size_t reports_new, reports_gone, selftest_changed;
	size_t flaky_classes, flaky_deps;	/* in only some baseline boots */
};

/* Options of diff_compute(). */
struct diff_opts {
	size_t max_cycles;	/* per strongly connected component; 0: all */
};

/*
 * Load the @nr_a baseline boots @a_ids of @a and boot @b_id of @b (may be
 * the same store) and compute everything above. Returns 0, or -1 after
 * an error was printed.
 */
int diff_compute(struct diff *d, struct store *a, const char *a_db,
		 const int64_t *a_ids, size_t nr_a, struct store *b,
		 const char *b_db, int64_t b_id, const struct diff_opts *opts);
void diff_release(struct diff *d);

/* Does edge @e touch a class of an ambiguous identity? */
static inline bool diff_edge_ambiguous(const struct diff *d, uint32_t e)
{
	return d->nodes[d->g->edges[e].from].ambiguous ||
	       d->nodes[d->g->edges[e].to].ambiguous;
}

/* Per-side: did the side have edge @e? */
static inline bool diff_edge_in(const struct diff *d, uint32_t e, int side)
{
	const struct graph_edge *ge = &d->g->edges[e];
	const uint32_t *boots = graph_edge_boots(d->g, ge);

	/* boot lists are ascending: baseline boots first, B last */
	if (!ge->nr_boots)
		return false;
	if (side == DIFF_A)
		return boots[0] < d->nr_base;
	return boots[ge->nr_boots - 1] == d->nr_base;
}

/* Seen in some baseline boots, not all? */
static inline bool diff_edge_flaky(const struct diff *d, uint32_t e)
{
	size_t in_a = d->g->edges[e].nr_boots - diff_edge_in(d, e, DIFF_B);

	return in_a && in_a < d->nr_base;
}

static inline bool diff_node_flaky(const struct diff *d, uint32_t n)
{
	return d->nodes[n].nr_base && d->nodes[n].nr_base < d->nr_base;
}

/* Headroom of a stat against its max, in percent of max (100 if no max). */
double diff_stat_headroom(const struct diff_stat *s);

/* Read the small tables (diff-tables.c; called by diff_compute()). */
int diff_load_tables(struct diff *d);
/*
 * The consumers that grew from A (its last baseline boot) to B, counted
 * from each boot's export as lockdep-report --capacity counts them
 * (diff-capacity.c; called by diff_compute()). Nothing when either boot
 * has no export.
 */
int diff_load_capacity(struct diff *d);
/* The table's key ("chains") and the grouping ("class") of @g. */
const char *diff_grew_table(const struct diff_grew *g);
const char *diff_grew_by(const struct diff_grew *g);

/* ---- output (diff-print.c) ---- */

enum diff_fail_bits {
	DIFF_FAIL_NEW_REPORT	= 1 << 0,
	DIFF_FAIL_NEW_CYCLE	= 1 << 1,
	DIFF_FAIL_NEW_DEP	= 1 << 2,
	DIFF_FAIL_HEADROOM	= 1 << 3,
};

struct diff_fail_on {
	unsigned int conditions;	/* enum diff_fail_bits */
	double headroom_pct;		/* with DIFF_FAIL_HEADROOM */
};

/* The conditions of @f that @d meets (a subset of f->conditions). */
unsigned int diff_failed(const struct diff *d, const struct diff_fail_on *f);

void diff_print_plain(const struct diff *d, FILE *out);
void diff_print_json(const struct diff *d, const struct diff_fail_on *f,
		     FILE *out, bool pretty);

#endif
