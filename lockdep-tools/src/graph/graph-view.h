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
};

struct graph_view {
	uint8_t *node;		/* graph_mark per node */
	uint8_t *edge;		/* graph_mark per edge */
	bool sites;		/* write sites as edge labels, not only tooltips */
	const char *title;
	const char *note;	/* a note beside the graph (advice), or NULL */
};

void graph_view_init(struct graph_view *v, const struct graph *g);
void graph_view_release(struct graph_view *v);

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
 * NULL) from @st into a new finished graph; NULL after an error.
 */
struct graph *graph_load(struct store *st, const int64_t *ids,
			 char *const *labels, size_t nr);

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
