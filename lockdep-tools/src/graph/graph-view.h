/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What of a finished graph (graph.h) to draw or list: a view marks nodes
 * and edges shown and bold, and the selections below fill it. The dot
 * writer and the printers take a graph and a view.
 *
 * Invariant: an edge is shown only if both its nodes are.
 */
#ifndef GRAPH_GRAPH_VIEW_H
#define GRAPH_GRAPH_VIEW_H

#include <stdio.h>

#include "graph/graph.h"

struct store;
struct json_writer;

enum graph_mark {
	GRAPH_SHOWN	= 1 << 0,
	GRAPH_BOLD	= 1 << 1,	/* on a listed cycle or irq path */
	GRAPH_FOCUS	= 1 << 2,	/* the --class node(s) */
	/* an edge inside one layer of a neighbourhood (both classes as
	 * far from the centre): a bounded picture leaves it out */
	GRAPH_LOOSE	= 1 << 3,
};

/* Classes left out of a picture, hanging off one drawn class */
struct graph_fold {
	uint32_t node;		/* the drawn class */
	bool under;		/* taken while it is held, else held over it */
	uint32_t count;
	char *prefixes;		/* the commonest name prefixes with their
				 * counts ("&ei->* 40, jbd2_* 3"), or "" */
};

struct graph_view {
	uint8_t *node;		/* graph_mark per node */
	uint8_t *edge;		/* graph_mark per edge */
	bool sites;		/* write sites as edge labels, not only tooltips */
	const char *title;
	const char *note;	/* a note beside the graph (advice), or NULL */
	const char *bold_key;	/* what bold says in the key, or NULL:
				 * "on a cycle / irq path" */
	/* graph_view_bound(): the classes selected and drawn, the folds
	 * (the largest), and the classes left out in none of them */
	size_t selected, drawn;
	struct graph_fold *folds;
	size_t nr_folds, alloc_folds;
	size_t apart;
	size_t loose;		/* GRAPH_LOOSE edges left out */
};

void graph_view_init(struct graph_view *v, const struct graph *g);
void graph_view_release(struct graph_view *v);

/*
 * Draw at most @max_nodes (0: no limit) of the classes shown: the focus,
 * then those of the best dependencies first (bold ones; on a cycle or
 * an irq path; used by the most lock chains, @chain_uses per edge or
 * NULL), the rest folded (graph-bound.c), and no GRAPH_LOOSE edge. Sets
 * selected, drawn, the folds, apart and loose.
 */
void graph_view_bound(const struct graph *g, struct graph_view *v,
		      size_t max_nodes, const uint32_t *chain_uses);

/* Everything. */
void graph_select_all(const struct graph *g, struct graph_view *v);
/* Every cyclic component, the edges of the listed cycles bold. */
void graph_select_cycles(const struct graph *g, const struct graph_scc *scc,
			 const struct graph_cycles *cy, struct graph_view *v);
/*
 * The classes within @radius edges (either direction) of the classes
 * named @name: exactly, or, if none is, without its #version and
 * /subclass suffixes. Returns the number of classes matched.
 */
size_t graph_select_radius(const struct graph *g, const char *name,
			   unsigned int radius, struct graph_view *v);
/*
 * The nodes named @name as --class names them (exactly, else without
 * #version and /subclass) into *@out, which the caller frees (room for
 * every node); their number.
 */
size_t graph_match_class(const struct graph *g, const char *name,
			 uint32_t **out);

/* A shortest path from an irq-safe to an irq-unsafe class (state LDR_*). */
struct graph_irq_path {
	int state;		/* LDR_HARDIRQ or LDR_SOFTIRQ */
	uint32_t *edges;	/* from the safe class to the unsafe one */
	size_t nr;
};

struct graph_irq_paths {
	struct graph_irq_path *v;
	size_t nr, alloc;
};

/*
 * For each irq state and each irq-unsafe class reachable from an
 * irq-safe one of that state, a shortest such path (one breadth-first
 * search per state from every safe class at once).
 */
void graph_irq_paths(const struct graph *g, struct graph_irq_paths *out);
void graph_irq_paths_release(struct graph_irq_paths *p);
void graph_select_irq(const struct graph *g, const struct graph_irq_paths *p,
		      struct graph_view *v);

/* ---- loading (graph-load.c) ---- */

/*
 * Load the classes and dependencies of @nr boots (@ids, with @labels or
 * NULL) from @st into a new finished graph; NULL after an error. With
 * @chain_uses, also to *@chain_uses (the caller frees) per edge the
 * number of lock chains of those boots that hold its from class when
 * they take its to class (saturated): how much of the kernel goes
 * through it.
 */
struct graph *graph_load_uses(struct store *st, const int64_t *ids,
			      char *const *labels, size_t nr,
			      uint32_t **chain_uses);

/* A report's dependency chain as a graph of its own (graph-report.c). */
struct ldr_report;
struct graph *graph_from_report(const struct ldr_report *r, int64_t boot_id,
				const char *label);

/* ---- writers (graph-dot.c, graph-print.c) ---- */

/* Graphviz dot of the shown part, with a legend; 0 or -1 (errno). */
int graph_write_dot(FILE *out, const struct graph *g,
		    const struct graph_view *v);
/* Write @s as a dot quoted string (quotes included), nothing unescaped. */
void graph_dot_quote(FILE *out, const char *s);

/* The cycles in lockdep's words. */
void graph_print_cycles(FILE *out, const struct graph *g,
			const struct graph_cycles *cy);
void graph_print_irq_paths(FILE *out, const struct graph *g,
			   const struct graph_irq_paths *p);
/* The same as JSON objects' members (the caller opens the object). */
void graph_json_cycles(struct json_writer *w, const struct graph *g,
		       const struct graph_scc *scc,
		       const struct graph_cycles *cy);
void graph_json_irq_paths(struct json_writer *w, const struct graph *g,
			  const struct graph_irq_paths *p);
/*
 * One dependency in lockdep's words ("-> (A){usage} EN (B){usage}:", the
 * boots that saw it and its site), and its JSON members (from, to, kind,
 * boots, site, site_boot; the caller opens the object).
 */
void graph_print_dep(FILE *out, const struct graph *g, uint32_t edge);
void graph_json_edge_fields(struct json_writer *w, const struct graph *g,
			    uint32_t edge);

/*
 * The explorer (graph-html.c): what the page shows beside the graph,
 * read from @st (each dependency's stack and first-seen time, the
 * boots' reports), and its cycles (at most @max_cycles per component)
 * and irq paths; NULL after an error was printed. graph_html_write()
 * writes the page, the focus on @v's GRAPH_FOCUS class if any: 0, or
 * -1 with errno set.
 */
struct graph_html;
struct graph_html *graph_html_load(struct store *st, const struct graph *g,
				   size_t max_cycles);
int graph_html_write(FILE *out, struct graph_html *h,
		     const struct graph_view *v);
void graph_html_free(struct graph_html *h);

#endif
