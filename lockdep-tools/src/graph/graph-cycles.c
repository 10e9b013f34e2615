// SPDX-License-Identifier: GPL-2.0
/*
 * Shortest cycles inside strongly connected components (graph.h).
 *
 * Each edge u -> v of a cyclic component that no cycle found so far
 * covers gives one cycle: u -> v, then the shortest path v ~> u found
 * breadth-first without leaving the component (every cycle through the
 * edge stays inside it). The search stops at u, so a component of small
 * cycles costs little however large the graph.
 *
 * Invariants:
 *  (1) seen[n] == stamp means n was queued by the current search, and
 *      parent[n] is then the edge that reached it: no array is cleared
 *      between searches.
 *  (2) A listed cycle's edges are in order: edges[i].to ==
 *      edges[i + 1].from, and the last edge's to is the first's from.
 */
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "util/xalloc.h"

struct search {
	uint32_t *seen, *parent, *queue;
	uint32_t stamp;
};

/* The edges of a shortest path from -> to inside component c, reversed. */
static size_t shortest_path(const struct graph *g, const struct graph_scc *scc,
			    struct search *s, uint32_t from, uint32_t to,
			    uint32_t c)
{
	size_t head = 0, tail = 0, len = 0;
	uint32_t v, w, e;

	s->stamp++;
	s->seen[from] = s->stamp;
	s->queue[tail++] = from;
	while (head < tail) {
		v = s->queue[head++];
		for (e = g->out[v]; e < g->out[v + 1]; e++) {
			w = g->edges[e].to;
			if (s->seen[w] == s->stamp || scc->comp[w] != c)
				continue;
			s->seen[w] = s->stamp;
			s->parent[w] = e;
			if (w == to)
				goto found;
			s->queue[tail++] = w;
		}
	}
	return 0;	/* not reached: from and to share a component */
found:
	/* reuse the queue for the path, last edge first */
	for (w = to; w != from; w = g->edges[s->parent[w]].from)
		s->queue[len++] = s->parent[w];
	return len;
}

static void add_cycle(const struct graph *g, struct graph_cycles *out,
		      uint32_t first, const uint32_t *rev_path, size_t len,
		      uint32_t comp)
{
	const struct graph_edge *e0 = &g->edges[first];
	const uint32_t *boots = graph_edge_boots(g, e0);
	struct graph_cycle *cy;
	size_t i, b;
	bool common = false;

	ALLOC_GROW(out->v, out->nr + 1, out->alloc);
	cy = &out->v[out->nr++];
	cy->nr = len + 1;
	cy->edges = xmalloc(cy->nr * sizeof(*cy->edges));
	cy->edges[0] = first;
	for (i = 0; i < len; i++)
		cy->edges[i + 1] = rev_path[len - 1 - i];
	cy->comp = comp;
	for (i = 0; i < cy->nr; i++)
		out->on_cycle[cy->edges[i]] = 1;
	/* is there a boot that saw every edge? */
	for (b = 0; b < e0->nr_boots && !common; b++) {
		for (i = 1; i < cy->nr; i++)
			if (!graph_edge_has_boot(g, &g->edges[cy->edges[i]],
						 boots[b]))
				break;
		common = i == cy->nr;
	}
	cy->cross_boot = g->nr_boots > 1 && !common;
}

void graph_cycles(const struct graph *g, const struct graph_scc *scc,
		  size_t max_per_comp, struct graph_cycles *out)
{
	size_t n = g->nr_nodes ? g->nr_nodes : 1, len;
	uint32_t *found = xcalloc(scc->nr ? scc->nr : 1, sizeof(*found));
	struct search s;
	uint32_t e, c;
	const struct graph_edge *ed;

	memset(out, 0, sizeof(*out));
	out->on_cycle = xcalloc(g->nr_edges ? g->nr_edges : 1, 1);
	s.seen = xcalloc(n, sizeof(*s.seen));
	s.parent = xmalloc(n * sizeof(*s.parent));
	s.queue = xmalloc(n * sizeof(*s.queue));
	s.stamp = 0;
	for (e = 0; e < g->nr_edges; e++) {
		ed = &g->edges[e];
		c = scc->comp[ed->from];
		if (c != scc->comp[ed->to] || out->on_cycle[e])
			continue;
		if (max_per_comp && found[c] >= max_per_comp) {
			out->uncovered++;
			continue;
		}
		if (ed->from == ed->to) {
			add_cycle(g, out, e, NULL, 0, c);
		} else {
			len = shortest_path(g, scc, &s, ed->to, ed->from, c);
			if (!len)
				continue;
			add_cycle(g, out, e, s.queue, len, c);
		}
		found[c]++;
	}
	free(found);
	free(s.seen);
	free(s.parent);
	free(s.queue);
}

void graph_cycles_release(struct graph_cycles *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		free(c->v[i].edges);
	free(c->v);
	free(c->on_cycle);
	memset(c, 0, sizeof(*c));
}
