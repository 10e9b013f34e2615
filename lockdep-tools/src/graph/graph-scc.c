// SPDX-License-Identifier: GPL-2.0
/*
 * Strongly connected components by Tarjan's algorithm, with the
 * recursion turned into an explicit stack of (node, next out-edge)
 * frames: a path of a million classes costs a million frames of heap,
 * not of the C stack.
 *
 * Invariants while running:
 *  (1) index[n] == UNSEEN until n is first visited; then index[n] is
 *      its visit order and low[n] the smallest index reachable from n's
 *      subtree through at most one back edge to a node still on the
 *      component stack.
 *  (2) on_stack[n] is true exactly while n sits on the component stack.
 *  (3) A node whose low equals its index, when its frame is popped, is
 *      the root of a component: the component stack down to it is it.
 */
#include <stdlib.h>

#include "graph/graph.h"
#include "util/xalloc.h"

#define UNSEEN UINT32_MAX

struct frame {
	uint32_t node, next;	/* next: the out-edge to look at next */
};

void graph_scc(const struct graph *g, struct graph_scc *scc)
{
	size_t n = g->nr_nodes, top, sp, i, alloc_size = 0;
	uint32_t *index = xmalloc((n ? n : 1) * sizeof(*index));
	uint32_t *low = xmalloc((n ? n : 1) * sizeof(*low));
	uint32_t *stack = xmalloc((n ? n : 1) * sizeof(*stack));
	struct frame *calls = xmalloc((n ? n : 1) * sizeof(*calls));
	bool *on_stack = xcalloc(n ? n : 1, sizeof(*on_stack));
	uint32_t counter = 0, v, w, e, c;

	scc->comp = xmalloc((n ? n : 1) * sizeof(*scc->comp));
	scc->size = NULL;
	scc->nr = scc->nr_cyclic = 0;
	for (i = 0; i < n; i++)
		index[i] = UNSEEN;
	sp = 0;
	for (i = 0; i < n; i++) {
		if (index[i] != UNSEEN)
			continue;
		top = 0;
		calls[top++] = (struct frame){ (uint32_t)i, g->out[i] };
		index[i] = low[i] = counter++;
		stack[sp++] = (uint32_t)i;
		on_stack[i] = true;
		while (top) {
			struct frame *f = &calls[top - 1];

			v = f->node;
			if (f->next < g->out[v + 1]) {
				w = g->edges[f->next++].to;
				if (index[w] == UNSEEN) {
					index[w] = low[w] = counter++;
					stack[sp++] = w;
					on_stack[w] = true;
					calls[top++] = (struct frame){ w, g->out[w] };
				} else if (on_stack[w] && index[w] < low[v]) {
					low[v] = index[w];
				}
				continue;
			}
			/* v is done: a root pops its component (invariant 3) */
			if (low[v] == index[v]) {
				ALLOC_GROW(scc->size, scc->nr + 1, alloc_size);
				c = (uint32_t)scc->nr++;
				scc->size[c] = 0;
				do {
					w = stack[--sp];
					on_stack[w] = false;
					scc->comp[w] = c;
					scc->size[c]++;
				} while (w != v);
			}
			top--;
			if (top && low[v] < low[calls[top - 1].node])
				low[calls[top - 1].node] = low[v];
		}
	}
	for (c = 0; c < scc->nr; c++)
		if (scc->size[c] > 1)
			scc->nr_cyclic++;
	/* a single class with a loop edge (edges are unique) is a cycle too */
	for (e = 0; e < g->nr_edges; e++)
		if (g->edges[e].from == g->edges[e].to &&
		    scc->size[scc->comp[g->edges[e].from]] == 1)
			scc->nr_cyclic++;
	free(index);
	free(low);
	free(stack);
	free(calls);
	free(on_stack);
}

void graph_scc_release(struct graph_scc *scc)
{
	free(scc->comp);
	free(scc->size);
	scc->comp = scc->size = NULL;
	scc->nr = scc->nr_cyclic = 0;
}
