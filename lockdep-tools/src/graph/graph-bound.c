// SPDX-License-Identifier: GPL-2.0
/*
 * --max-nodes: at most so many classes in one picture (graph-view.h).
 *
 * The dependencies that matter most are drawn first: those on a cycle or
 * an irq-safe -> irq-unsafe path (bold ones, listed by the selection,
 * before those merely inside a cyclic component or on a computed irq
 * path), then those the most lock chains go through. The drawn set
 * grows from the focus (--class) one best edge at a time, as Prim's
 * algorithm grows a tree, so what is drawn stays connected to what the
 * reader asked about; without a focus it starts from the best edge of
 * all, and from the best left when a component is used up. Each class
 * left out is folded into the drawn class it would have come in by,
 * counted per direction with its commonest name prefixes. Edges between
 * two classes of one layer of a neighbourhood are left out, counted.
 */
#include <stdlib.h>
#include <string.h>

#include "graph/graph-view.h"
#include "util/strbuf.h"
#include "util/strset.h"
#include "util/xalloc.h"

#define NOT_KEPT	UINT32_MAX
/*
 * A candidate's key, highest first: next to the drawn set (beats any
 * new start), then the fewest edges from where it started (a class's
 * own neighbours before theirs), its edge's tier, and its chain uses.
 */
#define FRONTIER	((uint64_t)1 << 63)
#define DEPTH_SHIFT	44
#define DEPTH_MAX	((1u << 18) - 1)
#define TIER_SHIFT	40
#define NR_PREFIXES	3
#define PREFIX_MAX	24
/* fold boxes drawn, the largest: many boxes of one class are clutter */
#define MAX_FOLDS	8

struct cand {
	uint64_t key;
	uint32_t node, depth;
};

struct heap {
	struct cand *v;
	size_t nr, alloc;
};

static void heap_push(struct heap *h, uint64_t key, uint32_t node,
		      uint32_t depth)
{
	size_t i, up;
	struct cand c = { key, node, depth };

	ALLOC_GROW(h->v, h->nr + 1, h->alloc);
	for (i = h->nr++; i; i = up) {
		up = (i - 1) / 2;
		if (h->v[up].key >= key)
			break;
		h->v[i] = h->v[up];
	}
	h->v[i] = c;
}

static struct cand heap_pop(struct heap *h)
{
	struct cand top = h->v[0], last = h->v[--h->nr];
	size_t i = 0, kid;

	for (; (kid = 2 * i + 1) < h->nr; i = kid) {
		if (kid + 1 < h->nr && h->v[kid + 1].key > h->v[kid].key)
			kid++;
		if (last.key >= h->v[kid].key)
			break;
		h->v[i] = h->v[kid];
	}
	if (h->nr)
		h->v[i] = last;
	return top;
}

/* Per shown edge: its tier (bold 3; on a cycle or irq path 2) and uses */
static uint64_t *edge_ranks(const struct graph *g, const struct graph_view *v,
			    const uint32_t *chain_uses)
{
	uint64_t *rank = xcalloc(g->nr_edges ? g->nr_edges : 1, sizeof(*rank));
	uint8_t *risky = xcalloc(g->nr_edges ? g->nr_edges : 1, 1);
	struct graph_scc scc;
	struct graph_irq_paths irq;
	const struct graph_edge *e;
	size_t i, k;
	uint64_t tier;

	graph_scc(g, &scc);
	graph_irq_paths(g, &irq);
	for (i = 0; i < irq.nr; i++)
		for (k = 0; k < irq.v[i].nr; k++)
			risky[irq.v[i].edges[k]] = 1;
	for (i = 0; i < g->nr_edges; i++) {
		e = &g->edges[i];
		if (!(v->edge[i] & GRAPH_SHOWN))
			continue;
		if (scc.comp[e->from] == scc.comp[e->to] &&
		    (e->from == e->to || scc.size[scc.comp[e->from]] > 1))
			risky[i] = 1;
		tier = v->edge[i] & GRAPH_BOLD ? 3 : risky[i] ? 2 : 1;
		rank[i] = tier << TIER_SHIFT | (chain_uses ? chain_uses[i] : 0);
	}
	graph_irq_paths_release(&irq);
	graph_scc_release(&scc);
	free(risky);
	return rank;
}

/*
 * Run @body for each shown edge of node @u that the picture keeps (not
 * GRAPH_LOOSE): @e its index, @w its other end.
 */
#define KEPT_EDGE(v, e)	(((v)->edge[e] & (GRAPH_SHOWN | GRAPH_LOOSE)) == GRAPH_SHOWN)
#define FOR_SHOWN_EDGES(g, v, u, e, w, body) do {			\
	uint32_t _k;							\
	for (_k = (g)->out[u]; _k < (g)->out[(u) + 1]; _k++) {		\
		(e) = _k;						\
		(w) = (g)->edges[_k].to;				\
		if (KEPT_EDGE(v, e)) { body; }				\
	}								\
	for (_k = (g)->in[u]; _k < (g)->in[(u) + 1]; _k++) {		\
		(e) = (g)->in_edge[_k];					\
		(w) = (g)->edges[e].from;				\
		if (KEPT_EDGE(v, e)) { body; }				\
	}								\
} while (0)

static void keep(const struct graph *g, const struct graph_view *v,
		 const uint64_t *rank, uint32_t u, uint32_t depth,
		 uint32_t *order, size_t *nr_kept, struct heap *h)
{
	uint64_t near;
	uint32_t e, w;

	order[u] = (uint32_t)(*nr_kept)++;
	if (depth < DEPTH_MAX)
		depth++;
	near = (uint64_t)(DEPTH_MAX - depth) << DEPTH_SHIFT;
	FOR_SHOWN_EDGES(g, v, u, e, w,
		if (order[w] == NOT_KEPT)
			heap_push(h, FRONTIER | near | rank[e], w, depth));
}

/* "&ei->" of "&ei->i_data_sem", "(wq_completion)" of "(wq_completion)events" */
static size_t prefix_len(const char *name)
{
	const char *p;
	size_t i;

	if (name[0] == '(' && (p = strchr(name, ')')))
		return (size_t)(p - name) + 1;
	for (i = 1; name[i]; i++) {
		if (name[i] == '-' && name[i + 1] == '>')
			return i + 2;
		if (name[i] == '_' || name[i] == '.' || name[i] == '#' ||
		    name[i] == '/' || name[i] == '(')
			return i + 1;
	}
	return i;
}

struct attach {
	uint32_t kept, hidden;
	bool under;
};

static int by_fold(const void *a, const void *b)
{
	const struct attach *x = a, *y = b;

	if (x->kept != y->kept)
		return x->kept < y->kept ? -1 : 1;
	return (int)y->under - (int)x->under;
}

static int by_size(const void *a, const void *b)
{
	const struct graph_fold *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* The fold of @at[0 .. nr): its count and commonest prefixes */
static void add_fold(const struct graph *g, struct graph_view *v,
		     const struct attach *at, size_t nr)
{
	struct strset set = { 0 };
	struct strbuf sb = STRBUF_INIT, pre = STRBUF_INIT;
	uint32_t *count = xcalloc(nr, sizeof(*count)), id, best;
	struct graph_fold *f;
	size_t i, k, len;

	for (i = 0; i < nr; i++) {
		const char *name = g->nodes[at[i].hidden].name;

		len = prefix_len(name);
		strbuf_reset(&pre);
		strbuf_add(&pre, name, len < PREFIX_MAX ? len : PREFIX_MAX);
		id = strset_add(&set, pre.buf);
		count[id]++;
	}
	for (k = 0; k < NR_PREFIXES; k++) {
		best = UINT32_MAX;
		for (id = 0; id < set.nr; id++)
			if (count[id] && (best == UINT32_MAX ||
					  count[id] > count[best]))
				best = id;
		/* a prefix alone is no group */
		if (best == UINT32_MAX || count[best] < 2)
			break;
		strbuf_addf(&sb, "%s%s* %u", k ? ", " : "",
			    strset_str(&set, best), count[best]);
		count[best] = 0;
	}
	ALLOC_GROW(v->folds, v->nr_folds + 1, v->alloc_folds);
	f = &v->folds[v->nr_folds++];
	f->node = at[0].kept;
	f->under = at[0].under;
	f->count = (uint32_t)nr;
	f->prefixes = strbuf_detach(&sb, NULL);
	strbuf_release(&pre);
	strset_release(&set);
	free(count);
}

void graph_view_bound(const struct graph *g, struct graph_view *v,
		      size_t max_nodes, const uint32_t *chain_uses)
{
	size_t n = g->nr_nodes, i, nr_kept = 0, nr_at = 0, start;
	uint32_t *order, e, w, best_e, best_w;
	struct attach *at;
	struct heap h = { 0 };
	uint64_t *rank, best;
	struct cand c;

	for (i = 0, v->selected = 0; i < n; i++)
		v->selected += !!(v->node[i] & GRAPH_SHOWN);
	v->drawn = v->selected;
	if (!max_nodes || v->selected <= max_nodes)
		return;
	rank = edge_ranks(g, v, chain_uses);
	order = xmalloc(n * sizeof(*order));
	for (i = 0; i < n; i++)
		order[i] = NOT_KEPT;
	for (i = 0; i < n; i++)
		if (v->node[i] & GRAPH_FOCUS)
			keep(g, v, rank, (uint32_t)i, 0, order, &nr_kept, &h);
	/* without a focus, every class may start, by its best edge */
	for (i = 0; !nr_kept && i < n; i++) {
		if (!(v->node[i] & GRAPH_SHOWN))
			continue;
		best = 0;
		FOR_SHOWN_EDGES(g, v, (uint32_t)i, e, w,
			if (rank[e] > best)
				best = rank[e]);
		heap_push(&h, best, (uint32_t)i, 0);
	}
	while (nr_kept < max_nodes && h.nr) {
		c = heap_pop(&h);
		if (order[c.node] == NOT_KEPT)
			keep(g, v, rank, c.node, c.depth, order, &nr_kept,
			     &h);
	}
	/* each class left out goes to the drawn class of its best edge */
	at = xmalloc((v->selected - nr_kept) * sizeof(*at));
	for (i = 0; i < n; i++) {
		if (!(v->node[i] & GRAPH_SHOWN) || order[i] != NOT_KEPT)
			continue;
		best_e = UINT32_MAX;
		best_w = 0;
		FOR_SHOWN_EDGES(g, v, (uint32_t)i, e, w,
			if (order[w] != NOT_KEPT &&
			    (best_e == UINT32_MAX || rank[e] > rank[best_e] ||
			     (rank[e] == rank[best_e] &&
			      order[w] < order[best_w]))) {
				best_e = e;
				best_w = w;
			});
		if (best_e == UINT32_MAX) {
			v->apart++;
			continue;
		}
		at[nr_at].hidden = (uint32_t)i;
		at[nr_at].kept = best_w;
		at[nr_at].under = g->edges[best_e].to == i;
		nr_at++;
	}
	for (i = 0; i < n; i++)
		if (order[i] == NOT_KEPT)
			v->node[i] &= (uint8_t)~GRAPH_SHOWN;
	for (i = 0; i < g->nr_edges; i++) {
		if (order[g->edges[i].from] == NOT_KEPT ||
		    order[g->edges[i].to] == NOT_KEPT)
			v->edge[i] &= (uint8_t)~GRAPH_SHOWN;
		/* a neighbourhood is a star: over, the centre, under; an
		 * edge between two neighbours would add a column and the
		 * label of its kind to a picture already cut down */
		if ((v->edge[i] & GRAPH_SHOWN) && (v->edge[i] & GRAPH_LOOSE)) {
			v->edge[i] &= (uint8_t)~GRAPH_SHOWN;
			v->loose++;
		}
	}
	qsort(at, nr_at, sizeof(*at), by_fold);
	for (start = 0, i = 1; i <= nr_at; i++)
		if (i == nr_at || by_fold(&at[start], &at[i])) {
			add_fold(g, v, at + start, i - start);
			start = i;
		}
	/* the largest folds get a box; the others are counted apart */
	qsort(v->folds, v->nr_folds, sizeof(*v->folds), by_size);
	while (v->nr_folds > MAX_FOLDS) {
		v->nr_folds--;
		v->apart += v->folds[v->nr_folds].count;
		free(v->folds[v->nr_folds].prefixes);
	}
	v->drawn = nr_kept;
	free(at);
	free(order);
	free(rank);
	free(h.v);
}
