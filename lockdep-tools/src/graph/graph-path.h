/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --path A B: the shortest dependency paths from class A to class B of
 * a finished graph (graph.h), why lockdep has A taken before B, told in
 * its words with each dependency's site, stack and first-seen time from
 * the store, as JSON, or drawn (a view of graph-view.h).
 */
#ifndef GRAPH_GRAPH_PATH_H
#define GRAPH_GRAPH_PATH_H

#include <stdio.h>

#include "graph/graph-view.h"
#include "store/store-path.h"

struct json_writer;

/* At most this many of the shortest paths are listed and drawn */
#define GRAPH_MAX_PATHS	8

struct graph_paths {
	uint32_t *from, *to;	/* the classes each name matched */
	size_t nr_from, nr_to;
	size_t len;		/* edges of a shortest path, 0 if none */
	size_t nr;		/* paths listed: edges[k * len ..] is one */
	uint32_t *edges;
	uint64_t total;		/* shortest paths in all (saturated) */
	size_t reverse_len;	/* edges of a shortest B -> A path, or 0 */
	/* per listed edge (nr * len), from the store: trace, first seen */
	struct store_dep_detail *detail;
	int64_t *detail_boot;	/* the boot each detail is of, or -1 */
};

/*
 * Match both names (graph_match_class()) and find the paths. -1 when
 * a name matches no class in @where (the boots' words; the error
 * names the closest classes) or both name one, after an error.
 */
int graph_find_paths(const struct graph *g, const char *a, const char *b,
		     struct graph_paths *p, const char *where);
/* Each listed edge's trace and first-seen time; 0 or -1 (printed). */
int graph_path_details(struct store *st, const struct graph *g,
		       struct graph_paths *p);
void graph_paths_release(struct graph_paths *p);

/*
 * Up to @k classes whose names are closest to @name (it is a part of
 * theirs, or a few edits away), best first, into @out; their number.
 */
size_t graph_closest_classes(const struct graph *g, const char *name,
			     uint32_t *out, size_t k);

/* The paths shown and bold, their ends in focus; no path: the ends. */
void graph_select_paths(const struct graph *g, const struct graph_paths *p,
			struct graph_view *v);
/* "A" and "B" as the user named them, @where the boots' words */
void graph_print_paths(FILE *out, const struct graph *g,
		       const struct graph_paths *p, const char *a,
		       const char *b, const char *where);
/* The members of the JSON answer (the caller opens the object). */
void graph_json_paths(struct json_writer *w, const struct graph *g,
		      const struct graph_paths *p, const char *a,
		      const char *b);

#endif
