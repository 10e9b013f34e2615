// SPDX-License-Identifier: GPL-2.0
/*
 * Selections of the lock graph (graph-view.h): what --cycles, --class
 * with --radius and --irq draw. Each is one linear pass or one
 * breadth-first search over the adjacency of graph.h.
 */
#include <stdlib.h>
#include <string.h>

#include "graph/graph-view.h"
#include "parse/report.h"
#include "util/xalloc.h"

void graph_view_init(struct graph_view *v, const struct graph *g)
{
	memset(v, 0, sizeof(*v));
	v->node = xcalloc(g->nr_nodes ? g->nr_nodes : 1, 1);
	v->edge = xcalloc(g->nr_edges ? g->nr_edges : 1, 1);
}

void graph_view_release(struct graph_view *v)
{
	size_t i;

	for (i = 0; i < v->nr_folds; i++)
		free(v->folds[i].prefixes);
	free(v->folds);
	free(v->node);
	free(v->edge);
	v->node = v->edge = NULL;
	v->folds = NULL;
	v->nr_folds = v->alloc_folds = 0;
}

void graph_select_all(const struct graph *g, struct graph_view *v)
{
	memset(v->node, GRAPH_SHOWN, g->nr_nodes);
	memset(v->edge, GRAPH_SHOWN, g->nr_edges);
}

void graph_select_cycles(const struct graph *g, const struct graph_scc *scc,
			 const struct graph_cycles *cy, struct graph_view *v)
{
	const struct graph_edge *e;
	size_t i;

	for (i = 0; i < g->nr_edges; i++) {
		e = &g->edges[i];
		if (scc->comp[e->from] != scc->comp[e->to])
			continue;
		if (e->from != e->to && scc->size[scc->comp[e->from]] < 2)
			continue;
		v->node[e->from] |= GRAPH_SHOWN;
		v->node[e->to] |= GRAPH_SHOWN;
		v->edge[i] |= GRAPH_SHOWN | (cy->on_cycle[i] ? GRAPH_BOLD : 0);
	}
}

/* Class name without "#version" and "/subclass" (what lockdep adds). */
static size_t base_len(const char *name)
{
	size_t len = strlen(name), i = len;

	while (i && name[i - 1] >= '0' && name[i - 1] <= '9')
		i--;
	if (i && i < len && name[i - 1] == '/') {
		len = i - 1;
		i = len;
		while (i && name[i - 1] >= '0' && name[i - 1] <= '9')
			i--;
	}
	if (i && i < len && name[i - 1] == '#')
		len = i - 1;
	return len;
}

static void show_edges_between(const struct graph *g, struct graph_view *v)
{
	size_t i;

	for (i = 0; i < g->nr_edges; i++)
		if ((v->node[g->edges[i].from] & GRAPH_SHOWN) &&
		    (v->node[g->edges[i].to] & GRAPH_SHOWN))
			v->edge[i] |= GRAPH_SHOWN;
}

static void visit(uint32_t w, uint32_t d, uint32_t *dist, uint32_t *queue,
		  size_t *tail, struct graph_view *v)
{
	if (dist[w] != UINT32_MAX)
		return;
	dist[w] = d;
	v->node[w] |= GRAPH_SHOWN;
	queue[(*tail)++] = w;
}

size_t graph_match_class(const struct graph *g, const char *name,
			 uint32_t **out)
{
	size_t n = g->nr_nodes, i, matched = 0, nlen = strlen(name);
	int pass;

	*out = xmalloc((n ? n : 1) * sizeof(**out));
	for (pass = 0; pass < 2 && !matched; pass++)
		for (i = 0; i < n; i++) {
			const char *s = g->nodes[i].name;

			if (pass ? base_len(s) == nlen && !strncmp(s, name, nlen)
				 : !strcmp(s, name))
				(*out)[matched++] = (uint32_t)i;
		}
	return matched;
}

size_t graph_select_radius(const struct graph *g, const char *name,
			   unsigned int radius, struct graph_view *v)
{
	size_t n = g->nr_nodes, head = 0, tail, i, matched;
	uint32_t *queue;
	uint32_t *dist = xmalloc((n ? n : 1) * sizeof(*dist));
	uint32_t u, k;

	for (i = 0; i < n; i++)
		dist[i] = UINT32_MAX;
	/* the matches start the queue, which holds every node at most once */
	matched = tail = graph_match_class(g, name, &queue);
	for (i = 0; i < matched; i++) {
		dist[queue[i]] = 0;
		v->node[queue[i]] |= GRAPH_SHOWN | GRAPH_FOCUS;
	}
	while (head < tail) {
		u = queue[head++];
		if (dist[u] >= radius)
			continue;
		/* out-neighbours, then in-neighbours */
		for (k = g->out[u]; k < g->out[u + 1]; k++)
			visit(g->edges[k].to, dist[u] + 1, dist, queue, &tail, v);
		for (k = g->in[u]; k < g->in[u + 1]; k++)
			visit(g->edges[g->in_edge[k]].from, dist[u] + 1, dist,
			      queue, &tail, v);
	}
	show_edges_between(g, v);
	for (i = 0; i < g->nr_edges; i++)
		if ((v->edge[i] & GRAPH_SHOWN) &&
		    dist[g->edges[i].from] == dist[g->edges[i].to])
			v->edge[i] |= GRAPH_LOOSE;
	free(queue);
	free(dist);
	return matched;
}

void graph_irq_paths(const struct graph *g, struct graph_irq_paths *out)
{
	static const int states[] = { LDR_HARDIRQ, LDR_SOFTIRQ };
	size_t n = g->nr_nodes ? g->nr_nodes : 1, head, tail, i, len;
	uint32_t *queue = xmalloc(n * sizeof(*queue));
	uint32_t *parent = xmalloc(n * sizeof(*parent));
	uint32_t u, w, e;
	struct graph_irq_path *p;
	unsigned int s;

	memset(out, 0, sizeof(*out));
	for (s = 0; s < sizeof(states) / sizeof(states[0]); s++) {
		head = tail = 0;
		for (i = 0; i < g->nr_nodes; i++) {
			parent[i] = UINT32_MAX - 1;	/* unseen */
			if (graph_irq_safe(g->nodes[i].usage_bits, states[s])) {
				parent[i] = UINT32_MAX;	/* a source */
				queue[tail++] = (uint32_t)i;
			}
		}
		while (head < tail) {
			u = queue[head++];
			for (e = g->out[u]; e < g->out[u + 1]; e++) {
				w = g->edges[e].to;
				if (parent[w] != UINT32_MAX - 1)
					continue;
				parent[w] = e;
				queue[tail++] = w;
			}
		}
		for (i = 0; i < g->nr_nodes; i++) {
			if (parent[i] >= UINT32_MAX - 1 ||
			    !graph_irq_unsafe(g->nodes[i].usage_bits, states[s]))
				continue;
			len = 0;
			for (w = (uint32_t)i; parent[w] != UINT32_MAX;
			     w = g->edges[parent[w]].from)
				len++;
			ALLOC_GROW(out->v, out->nr + 1, out->alloc);
			p = &out->v[out->nr++];
			p->state = states[s];
			p->nr = len;
			p->edges = xmalloc(len * sizeof(*p->edges));
			for (w = (uint32_t)i; parent[w] != UINT32_MAX;
			     w = g->edges[parent[w]].from)
				p->edges[--len] = parent[w];
		}
	}
	free(queue);
	free(parent);
}

void graph_irq_paths_release(struct graph_irq_paths *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		free(p->v[i].edges);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

void graph_select_irq(const struct graph *g, const struct graph_irq_paths *p,
		      struct graph_view *v)
{
	size_t i, k;
	uint32_t e;

	for (i = 0; i < p->nr; i++)
		for (k = 0; k < p->v[i].nr; k++) {
			e = p->v[i].edges[k];
			v->edge[e] |= GRAPH_SHOWN | GRAPH_BOLD;
			v->node[g->edges[e].from] |= GRAPH_SHOWN;
			v->node[g->edges[e].to] |= GRAPH_SHOWN;
		}
}
