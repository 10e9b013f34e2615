/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lock graph: lock classes as nodes, "held A when B was taken"
 * dependencies as edges, from one boot or the union of several.
 *
 * Build it with graph_add_boot(), graph_add_node() and graph_add_edge()
 * (graph_load_uses() does so from the store), then graph_finish(). The
 * algorithms (graph-scc.c, graph-cycles.c, graph-select.c) and the
 * writers (graph-dot.c, graph-print.c) take a finished graph.
 *
 * Invariants of a finished graph:
 *  (1) A class is one node whatever the number of boots that have it:
 *      nodes are merged by their merge key (the class identity across
 *      boots where the store has one, else the printed name). A graph
 *      of one boot, whose classes are distinct nodes, may skip the
 *      merging (graph_append_node()). Names and keys are copied into
 *      one pool, not allocated one by one.
 *  (2) edges[] is sorted by (from, to) with no duplicate pair: the same
 *      dependency seen in several boots is one edge whose boot list
 *      (graph_edge_boots()) holds each of those boots once, ascending.
 *      out[n] .. out[n + 1] are node n's out-edges; in_edge[in[n]] ..
 *      in_edge[in[n + 1] - 1] the indices of its in-edges.
 *  (3) Every boot in a boot list is an index into boots[], below
 *      nr_boots; there is no limit on the number of boots (a fleet's
 *      union of a thousand boots is one graph).
 *  (4) Building is linear in nodes + edges (hashing, an in-place
 *      counting sort, a merge when the rows came as two sorted runs, a
 *      boot after the others, none at all when they came sorted): a million
 *      edges must load, sort and merge in well under a second. An edge
 *      is 28 bytes; a site is stored once however many edges share it.
 */
#ifndef GRAPH_GRAPH_H
#define GRAPH_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strset.h"

/*
 * The kernel's dependency bits (lock_list::dep, kernel/locking/lockdep.c):
 * for prev -> next, S/E is prev taken shared (read) / exclusive, R/N is
 * next taken as a recursive reader / not. -(EN)-> is the plain kind.
 */
enum graph_dep_bit {
	GRAPH_DEP_SR = 1 << 0,
	GRAPH_DEP_ER = 1 << 1,
	GRAPH_DEP_SN = 1 << 2,
	GRAPH_DEP_EN = 1 << 3,
};

struct graph_boot {
	int64_t id;
	char *label;		/* or NULL */
	/* no graph export: the graph is /proc/lockdep's alone */
	bool no_export;
	/* ... and /proc/lockdep too: a kernel without lockdep, no graph */
	bool no_lockdep;
	/* classes of an identity shared within a boot: nodes of their own */
	size_t nr_ambiguous;
};

/*
 * What the graph of a boot without the graph export lacks (a kernel
 * without our series): JSON names and words, GRAPH_NR_MISSING of them.
 */
#define GRAPH_NR_MISSING	5
extern const char *const graph_missing_json[GRAPH_NR_MISSING];
extern const char *const graph_missing_text[GRAPH_NR_MISSING];

/*
 * "boot 1 (plain) has no graph export: dependencies from
 * /proc/lockdep alone, without sites, ..." into @sb: one line, or with
 * @wrap three lines short enough for a note beside a graph; with
 * @no_lockdep, "boot 1 (distro) has no lock graph: this kernel has no
 * lockdep ...".
 */
struct strbuf;
void graph_missing_line(struct strbuf *sb, const char *boot, bool wrap,
			bool no_lockdep);

struct graph_node {
	char *name;		/* as printed: class[#version][/subclass] */
	unsigned int usage_bits;	/* LDR_USAGE_*, OR of every boot's */
	uint32_t nr_boots;	/* the boots that have the class */
	int32_t last_boot;	/* while building: the last one counted */
};

struct graph_edge {
	uint32_t from, to;	/* node indices: from was held, to taken */
	uint32_t site;		/* where to was taken (a trace): 0 if
				 * unknown, else graph_edge_site() */
	uint32_t boots;		/* offset of its boot list in edge_boots[]
				 * (while building: the one boot, or
				 * UINT32_MAX for none) */
	uint32_t nr_boots;	/* the boots that saw it */
	int32_t site_boot;	/* the boot index site came from, or -1 */
	int16_t distance;	/* smallest, -1 if unknown */
	int8_t dep_bits;	/* OR of graph_dep_bit, -1 if unknown */
};

struct graph_map;

struct graph {
	struct graph_boot *boots;
	size_t nr_boots, alloc_boots;
	struct graph_node *nodes;
	size_t nr_nodes, alloc_nodes;
	struct graph_edge *edges;
	size_t nr_edges, alloc_edges;
	uint32_t *edge_boots;	/* the edges' boot lists, back to back */
	uint32_t *out;		/* nr_nodes + 1 offsets into edges[] */
	uint32_t *in;		/* nr_nodes + 1 offsets into in_edge[] */
	uint32_t *in_edge;	/* edge indices grouped by to */
	struct graph_map *map;	/* merge key -> node, while building */
	struct strset sites;	/* the distinct sites */
	bool unkeyed;		/* built by graph_append_node() */
	/* while building: the rows out of (from, to, boot) order and the
	 * first of them (the second sorted run), the highest boot before
	 * it, and whether the rows from it on are of more than one boot */
	size_t breaks, run2;
	uint32_t run1_boot;
	bool run2_mixed;
	bool finished;
};

struct graph *graph_new(void);
void graph_free(struct graph *g);

/* Add a boot; its index (the boot lists' entries). */
int graph_add_boot(struct graph *g, int64_t id, const char *label);
/*
 * The node of merge key @key (NULL: @name), created if new, with @boot
 * and @usage_bits added to it. The classes of one boot come one after
 * the other (nr_boots counts the changes of boot).
 */
uint32_t graph_add_node(struct graph *g, const char *key, const char *name,
			unsigned int usage_bits, int boot);
/*
 * A new node named @name, merged with none (its key is its name): for
 * a graph of one boot, whose classes are each a node of their own. A
 * graph is built with this or with graph_add_node(), not both.
 */
uint32_t graph_append_node(struct graph *g, const char *name,
			   unsigned int usage_bits, int boot);
/* Add dependency from -> to as seen by @boot (sites: NULL if unknown). */
void graph_add_edge(struct graph *g, uint32_t from, uint32_t to, int boot,
		    int dep_bits, int distance, const char *site);
/*
 * Room for @nodes more nodes and @edges more edges, allocated before
 * they come (a hint, say from the store's packs: at most
 * GRAPH_RESERVE_MAX of each is taken, the rest grows as it comes).
 * Arrays sized once are huge-page backed from the first touch, which
 * arrays grown by doubling are not: a million edges fault a third less.
 */
#define GRAPH_RESERVE_MAX	(1u << 22)
void graph_reserve(struct graph *g, uint64_t nodes, uint64_t edges);
/* Sort and merge the edges and build the adjacency (invariant 2). */
void graph_finish(struct graph *g);

/* The boot list of edge @e of a finished graph: e->nr_boots entries. */
static inline const uint32_t *graph_edge_boots(const struct graph *g,
					       const struct graph_edge *e)
{
	return g->edge_boots + e->boots;
}

/* Where edge @e's second lock was taken (a trace's site), or NULL. */
static inline const char *graph_edge_site(const struct graph *g,
					  const struct graph_edge *e)
{
	return e->site ? strset_str(&g->sites, e->site - 1) : NULL;
}

/* Did boot index @boot see edge @e (finished graphs; binary search)? */
bool graph_edge_has_boot(const struct graph *g, const struct graph_edge *e,
			 uint32_t boot);

/* The edge from -> to, or UINT32_MAX (finished graphs; binary search). */
uint32_t graph_find_edge(const struct graph *g, uint32_t from, uint32_t to);
/* Node @n's merge key (its name if it was added without one). */
const char *graph_node_key(const struct graph *g, uint32_t n);
/* The node named exactly @name, or UINT32_MAX. */
uint32_t graph_find_node(const struct graph *g, const char *name);

/* "+.+." from usage bits, as /proc/lockdep prints it; @buf >= 8 bytes. */
const char *graph_usage_str(unsigned int usage_bits, char *buf);
/* "EN", "SR,EN", ... of dep bits; "" if unknown; @buf >= 16 bytes. */
const char *graph_dep_str(int dep_bits, char *buf);
/* "boot 3 (label)" into @buf of @len bytes. */
const char *graph_boot_str(const struct graph *g, int boot, char *buf,
			   size_t len);

/*
 * Append untrusted text (a class name, a label) as printable ASCII:
 * every other byte becomes the four characters "\xNN".
 */
struct strbuf;
void graph_text_add(struct strbuf *sb, const char *s);

/* Irq usage of a class for the colours and --irq (see graph-select.c). */
bool graph_irq_safe(unsigned int usage_bits, int state);
bool graph_irq_unsafe(unsigned int usage_bits, int state);

/* ---- strongly connected components (graph-scc.c) ---- */

struct graph_scc {
	uint32_t *comp;		/* component of each node */
	uint32_t *size;		/* nodes of each component */
	size_t nr;		/* components */
	size_t nr_cyclic;	/* components with a cycle (size > 1 or a loop) */
};

/* Tarjan's algorithm, iterative: memory O(V + E), no recursion. */
void graph_scc(const struct graph *g, struct graph_scc *scc);
void graph_scc_release(struct graph_scc *scc);

/* ---- shortest cycles (graph-cycles.c) ---- */

struct graph_cycle {
	uint32_t *edges;	/* e0, e1, ...: to of each is from of the next */
	size_t nr;
	uint32_t comp;		/* its strongly connected component */
	bool cross_boot;	/* no single boot saw every edge */
};

struct graph_cycles {
	struct graph_cycle *v;
	size_t nr, alloc;
	uint8_t *on_cycle;	/* per edge: 1 if on a listed cycle */
	size_t uncovered;	/* edges of cyclic components on none (cap) */
};

/*
 * For every cyclic component, a shortest cycle through each of its edges
 * that no cycle found before covers (breadth-first from the edge's head
 * back to its tail, inside the component), at most @max_per_comp cycles
 * per component (0: no limit); edges left over are counted in
 * uncovered. Lockdep never adds an edge that closes a cycle, so in the
 * union of boots every cycle found is one no single boot saw; the
 * cross_boot flag still says so per cycle.
 */
void graph_cycles(const struct graph *g, const struct graph_scc *scc,
		  size_t max_per_comp, struct graph_cycles *out);
void graph_cycles_release(struct graph_cycles *c);

#endif
