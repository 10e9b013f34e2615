/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the store knows of one dependency beyond the graph's edge: the
 * stack trace that added it and when the event stream first saw it
 * (lockdep-db(5): traces, trace_frames, dependency_first_seen). For the
 * few edges of a path, one query each, not a pass over the graph.
 */
#ifndef STORE_STORE_PATH_H
#define STORE_STORE_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

struct store_dep_detail {
	int64_t first_us;	/* first dependency event, -1 if none */
	char **frames;		/* the trace, innermost first, as the
				 * kernel prints a stack: "func+0x1f/0x40
				 * (file.c:123)", or the bare address */
	size_t nr_frames;
};

/*
 * A class of boot @boot, named by its printed name, its identity, or its
 * row (classes.id, in decimal): how graph_load_uses() merged
 * it (graph_node_key()).
 */
enum store_ref_kind { STORE_REF_NAME, STORE_REF_IDENTITY, STORE_REF_ROW };

struct store_class_ref {
	enum store_ref_kind kind;
	const char *text;
};

/*
 * The detail of dependency @from -> @to of boot @boot into @d (zeroed
 * first): 1 if the boot has that dependency, 0 if not, -1 after an
 * error was printed.
 */
int store_dep_detail(struct store *st, int64_t boot,
		     const struct store_class_ref *from,
		     const struct store_class_ref *to,
		     struct store_dep_detail *d);
void store_dep_detail_release(struct store_dep_detail *d);

#endif
