// SPDX-License-Identifier: GPL-2.0
/*
 * The lock-graph half of a diff (diff.h): both boots' classes and
 * dependencies in one graph keyed by class identity, then the added and
 * removed classes and dependencies, the usage changes, the new paths
 * from an irq-safe to an irq-unsafe class, and the new cycles.
 *
 * Classes come from the store with their row id; dependencies name
 * classes by row id, so each side keeps an idmap (row id -> node): the
 * whole load is one pass per table and side.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diff/diff.h"
#include "parse/proc-line.h"
#include "parse/report.h"
#include "store/identity.h"
#include "store/store-graph.h"
#include "util/idmap.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct load {
	struct diff *d;
	int side;
	int base;		/* side A: the baseline boot's index */
	int64_t last_id;	/* base_index()'s last answer */
	int last_base;
	struct idmap refs;	/* the side's classes.id -> node */
	size_t alloc_nodes;
	struct strbuf key;	/* on_class()'s node key */
};

static void grow_nodes(struct load *l, uint32_t node)
{
	struct diff *d = l->d;
	size_t old = l->alloc_nodes;

	if (node < old)
		return;
	l->alloc_nodes = old ? old * 2 : 1024;
	if (l->alloc_nodes <= node)
		l->alloc_nodes = node + 1;
	d->nodes = xrealloc(d->nodes, l->alloc_nodes * sizeof(*d->nodes));
	memset(d->nodes + old, 0, (l->alloc_nodes - old) * sizeof(*d->nodes));
}

/* One more class of ambiguous identity @i in the side being loaded. */
static void count_ambiguous(struct load *l, uint32_t i)
{
	struct diff_ambiguous *a = &l->d->ambiguous[i];

	if (l->side == DIFF_B) {
		a->count[DIFF_B]++;
		return;
	}
	/* count[A]: the most classes of the identity in one boot */
	if (a->last_base != l->base) {
		a->last_base = l->base;
		a->cur = 0;
	}
	if (++a->cur > a->count[DIFF_A])
		a->count[DIFF_A] = a->cur;
}

/*
 * A class is the node of its identity (key "i" and the identity), or,
 * when the identity is ambiguous, a node of its own (key "c", the side
 * and its row id), named as its boot printed it: invariant (2).
 */
static int on_class(const struct store_graph_class *c, void *data)
{
	struct load *l = data;
	struct diff *d = l->d;
	int boot = l->side == DIFF_A ? l->base : (int)d->nr_base;
	unsigned int version, subclass;
	char *own = NULL;
	const char *ident = c->identity;
	struct diff_node *n;
	uint32_t node, amb;
	size_t len;

	if (!ident) {
		/* not stored by this build's rule: apply it here */
		len = proc_split_name(c->name, strlen(c->name), &version,
				      &subclass);
		ident = own = store_class_identity(c->name, len, subclass);
	}
	amb = strset_find(&d->ambiguous_ids, ident);
	strbuf_reset(&l->key);
	if (amb == UINT32_MAX)
		strbuf_addf(&l->key, "i%s", ident);
	else
		strbuf_addf(&l->key, "c%d:%" PRId64, l->side, c->id);
	node = graph_add_node(d->g, l->key.buf, c->name, c->usage_bits, boot);
	grow_nodes(l, node);
	n = &d->nodes[node];
	if (!n->identity) {
		n->identity = amb == UINT32_MAX ? graph_node_key(d->g, node) + 1 :
			      d->g->nodes[node].name;
		n->ambiguous = amb != UINT32_MAX;
	}
	if (n->ambiguous)
		count_ambiguous(l, amb);
	n->usage[l->side] |= c->usage_bits;
	n->in[l->side] = true;
	if (l->side == DIFF_A)
		n->nr_base++;
	d->boot[l->side].nr_classes++;
	idmap_add(&l->refs, c->id, node);
	free(own);
	return 0;
}

static int add_ambiguous(int64_t boot_id, const char *identity, void *data)
{
	(void)boot_id;
	strset_add(data, identity);
	return 0;
}

static int ambiguous_cmp(const void *a, const void *b)
{
	return strcmp(((const struct diff_ambiguous *)a)->identity,
		      ((const struct diff_ambiguous *)b)->identity);
}

/*
 * The identities several classes of one boot share, in either side:
 * ambiguous in both (invariant (2)). Sorted for the printers once
 * loaded (diff_compute()).
 */
static int load_ambiguous(struct diff *d)
{
	struct diff_boot *b = &d->boot[DIFF_B];
	size_t i;

	if (store_graph_shared_identities(d->boot[DIFF_A].st, d->base_ids,
					  d->nr_base, add_ambiguous,
					  &d->ambiguous_ids) ||
	    store_graph_shared_identities(b->st, &b->id, 1, add_ambiguous,
					  &d->ambiguous_ids))
		return -1;
	d->nr_ambiguous = d->ambiguous_ids.nr;
	d->ambiguous = xcalloc(d->nr_ambiguous ? d->nr_ambiguous : 1,
			       sizeof(*d->ambiguous));
	for (i = 0; i < d->nr_ambiguous; i++) {
		d->ambiguous[i].identity = strset_str(&d->ambiguous_ids,
						      (uint32_t)i);
		d->ambiguous[i].last_base = -1;
	}
	return 0;
}

/* The graph boot index of baseline boot @id (the deps come boot by boot). */
static int base_index(struct load *l, int64_t id)
{
	size_t i;

	if (id != l->last_id) {
		for (i = 0; i < l->d->nr_base; i++)
			if (l->d->base_ids[i] == id)
				break;
		l->last_id = id;
		l->last_base = i < l->d->nr_base ? (int)i : -1;
	}
	return l->last_base;
}

static int on_dep(const struct store_graph_dep *dep, void *data)
{
	struct load *l = data;
	uint32_t f = idmap_get(&l->refs, dep->from);
	uint32_t t = idmap_get(&l->refs, dep->to);

	if (f == UINT32_MAX || t == UINT32_MAX) {
		l->d->boot[l->side].dropped_deps++;
		return 0;
	}
	l->d->boot[l->side].nr_deps++;
	if (l->d->distance1_only && dep->distance > 1) {
		l->d->boot[l->side].left_out_deps++;
		return 0;
	}
	graph_add_edge(l->d->g, f, t, l->side == DIFF_A ?
		       base_index(l, dep->boot_id) : (int)l->d->nr_base, dep->dep_bits,
		       dep->distance, dep->trace);
	return 0;
}

static int no_export(int64_t boot_id, bool no_lockdep, void *data)
{
	struct diff_boot *b = data;

	(void)boot_id;
	b->no_export = true;
	b->nr_no_lockdep += no_lockdep;
	return 0;
}

/* Does a boot of each side miss the graph export? */
static int find_no_export(struct diff *d)
{
	struct diff_boot *a = &d->boot[DIFF_A], *b = &d->boot[DIFF_B];

	if (store_graph_no_exports(a->st, d->base_ids, d->nr_base, no_export,
				   a) ||
	    store_graph_no_exports(b->st, &b->id, 1, no_export, b))
		return -1;
	a->no_lockdep = a->nr_no_lockdep == d->nr_base;
	b->no_lockdep = b->nr_no_lockdep == 1;
	d->distance1_only = a->no_export || b->no_export;
	return 0;
}

/* Side A: the classes of each baseline boot in turn, then their deps. */
static int load_side(struct diff *d, struct load *l, int side)
{
	struct diff_boot *b = &d->boot[side];
	const int64_t *ids = side == DIFF_A ? d->base_ids : &b->id;
	size_t i, nr = side == DIFF_A ? d->nr_base : 1;

	l->side = side;
	idmap_reset(&l->refs);
	for (i = 0; i < nr; i++) {
		l->base = (int)i;
		graph_add_boot(d->g, ids[i], side == DIFF_A && ids[i] != b->id ?
			       NULL : b->label);
		if (store_graph_classes(b->st, &ids[i], 1, on_class, l))
			return -1;
	}
	idmap_build(&l->refs);
	return store_graph_deps(b->st, ids, nr, on_dep, l);
}

static int node_cmp(const void *a, const void *b, void *arg)
{
	const struct diff_node *nodes = arg;

	return strcmp(nodes[*(const uint32_t *)a].identity,
		      nodes[*(const uint32_t *)b].identity);
}

static int to_rank_cmp(const void *a, const void *b, void *arg)
{
	const struct diff *d = arg;
	uint32_t x = d->rank[d->g->edges[*(const uint32_t *)a].to];
	uint32_t y = d->rank[d->g->edges[*(const uint32_t *)b].to];

	return (x > y) - (x < y);
}

/* Sort @nr edge indices at @v by the rank of their to node. */
static void sort_by_to_rank(struct diff *d, uint32_t *v, size_t nr)
{
	size_t i, j;
	uint32_t e, r;

	if (nr > 16) {
		qsort_r(v, nr, sizeof(*v), to_rank_cmp, d);
		return;
	}
	for (i = 1; i < nr; i++) {
		e = v[i];
		r = d->rank[d->g->edges[e].to];
		for (j = i; j && d->rank[d->g->edges[v[j - 1]].to] > r; j--)
			v[j] = v[j - 1];
		v[j] = e;
	}
}

/*
 * Invariant (1): one order for nodes and edges, by identity. The edges
 * of a finished graph are grouped by from node (out[]), so the edges
 * by (rank from, rank to) are the groups in rank order, each sorted by
 * rank to (a few edges: no sort over all of them).
 */
static void sort_graph(struct diff *d)
{
	const struct graph *g = d->g;
	size_t i, k, n = g->nr_nodes, m = g->nr_edges, start;
	uint32_t u, e;

	d->order = xmalloc((n ? n : 1) * sizeof(*d->order));
	d->rank = xmalloc((n ? n : 1) * sizeof(*d->rank));
	for (i = 0; i < n; i++)
		d->order[i] = (uint32_t)i;
	qsort_r(d->order, n, sizeof(*d->order), node_cmp, d->nodes);
	for (i = 0; i < n; i++)
		d->rank[d->order[i]] = (uint32_t)i;
	d->edge_order = xmalloc((m ? m : 1) * sizeof(*d->edge_order));
	for (i = 0, k = 0; i < n; i++) {
		u = d->order[i];
		for (start = k, e = g->out[u]; e < g->out[u + 1]; e++)
			d->edge_order[k++] = e;
		sort_by_to_rank(d, d->edge_order + start, k - start);
	}
}

static void count_changes(struct diff *d)
{
	const struct diff_node *n;
	size_t i;

	for (i = 0; i < d->g->nr_nodes; i++) {
		n = &d->nodes[i];
		if (n->ambiguous)
			continue;
		if (!n->in[DIFF_A])
			d->classes_added++;
		else if (!n->in[DIFF_B])
			d->classes_removed++;
		else if (n->usage[DIFF_A] != n->usage[DIFF_B])
			d->usage_changed++;
		if (diff_node_flaky(d, (uint32_t)i))
			d->flaky_classes++;
	}
	for (i = 0; i < d->g->nr_edges; i++) {
		if (diff_edge_ambiguous(d, (uint32_t)i)) {
			d->ambiguous_deps++;
			continue;
		}
		if (!diff_edge_in(d, i, DIFF_A))
			d->deps_added++;
		else if (!diff_edge_in(d, i, DIFF_B))
			d->deps_removed++;
		if (diff_edge_flaky(d, (uint32_t)i))
			d->flaky_deps++;
	}
	for (i = 0; i < d->nr_reports; i++) {
		if (!d->reports[i].count[DIFF_A])
			d->reports_new++;
		else if (!d->reports[i].count[DIFF_B])
			d->reports_gone++;
	}
	for (i = 0; i < d->nr_selftest; i++)
		if (!d->selftest[i].result[DIFF_A] ||
		    !d->selftest[i].result[DIFF_B] ||
		    strcmp(d->selftest[i].result[DIFF_A],
			   d->selftest[i].result[DIFF_B]))
			d->selftest_changed++;
}

/* Invariant (3): the cycles of the union with an edge A did not see. */
static void find_cycles(struct diff *d, size_t max_per_comp)
{
	const struct graph_cycle *cy;
	size_t i, k, alloc = 0;
	bool new;

	graph_scc(d->g, &d->scc);
	graph_cycles(d->g, &d->scc, max_per_comp, &d->cycles);
	for (i = 0; i < d->cycles.nr; i++) {
		cy = &d->cycles.v[i];
		new = false;
		for (k = 0; k < cy->nr; k++)
			if (!diff_edge_in(d, cy->edges[k], DIFF_A))
				new = true;
		if (!new)
			continue;
		ALLOC_GROW(d->new_cycles, d->nr_new_cycles + 1, alloc);
		d->new_cycles[d->nr_new_cycles++] = cy;
	}
}

/*
 * Breadth-first from every class safe in @state over the edges of @mask
 * (usage of the sides in @mask: 1 is A, 3 both): parent[n] is the edge that reached n,
 * UINT32_MAX for a source, UINT32_MAX - 1 if unreached.
 */
static void irq_reach(const struct diff *d, int state, uint64_t mask,
		      uint32_t *parent, uint32_t *queue)
{
	const struct graph *g = d->g;
	size_t head = 0, tail = 0, i;
	unsigned int usage;
	uint32_t u, w, e;

	for (i = 0; i < g->nr_nodes; i++) {
		usage = (mask & 1 ? d->nodes[i].usage[DIFF_A] : 0) |
			(mask & 2 ? d->nodes[i].usage[DIFF_B] : 0);
		parent[i] = UINT32_MAX - 1;
		if (graph_irq_safe(usage, state)) {
			parent[i] = UINT32_MAX;
			queue[tail++] = (uint32_t)i;
		}
	}
	while (head < tail) {
		u = queue[head++];
		for (e = g->out[u]; e < g->out[u + 1]; e++) {
			w = g->edges[e].to;
			if (parent[w] != UINT32_MAX - 1 ||
			    (mask == 1 && !diff_edge_in(d, e, DIFF_A)))
				continue;
			parent[w] = e;
			queue[tail++] = w;
		}
	}
}

/*
 * The irq-safe -> irq-unsafe paths of the union whose unsafe end A alone
 * did not already reach from a safe class: one (shortest) path per end.
 */
static void find_irq_paths(struct diff *d)
{
	static const int states[] = { LDR_HARDIRQ, LDR_SOFTIRQ };
	size_t n = d->g->nr_nodes ? d->g->nr_nodes : 1, i, s, len, alloc = 0;
	uint32_t *in_a = xmalloc(n * sizeof(*in_a));
	uint32_t *parent = xmalloc(n * sizeof(*parent));
	uint32_t *queue = xmalloc(n * sizeof(*queue));
	struct diff_irq_path *p;
	unsigned int u;
	uint32_t w;

	for (s = 0; s < sizeof(states) / sizeof(*states); s++) {
		irq_reach(d, states[s], 1, in_a, queue);
		irq_reach(d, states[s], 3, parent, queue);
		for (i = 0; i < d->g->nr_nodes; i++) {
			u = d->nodes[i].usage[DIFF_A] | d->nodes[i].usage[DIFF_B];
			/*
			 * a source itself is an inconsistent state, not a
			 * path; an ambiguous end has no peer in A to compare
			 */
			if (parent[i] >= UINT32_MAX - 1 || d->nodes[i].ambiguous ||
			    !graph_irq_unsafe(u, states[s]))
				continue;
			if (in_a[i] < UINT32_MAX - 1 &&
			    graph_irq_unsafe(d->nodes[i].usage[DIFF_A], states[s]))
				continue;
			len = 0;
			for (w = (uint32_t)i; parent[w] != UINT32_MAX;
			     w = d->g->edges[parent[w]].from)
				len++;
			ALLOC_GROW(d->irq_paths, d->nr_irq_paths + 1, alloc);
			p = &d->irq_paths[d->nr_irq_paths++];
			p->state = states[s];
			p->nr = len;
			p->edges = xmalloc(len * sizeof(*p->edges));
			for (w = (uint32_t)i; parent[w] != UINT32_MAX;
			     w = d->g->edges[parent[w]].from)
				p->edges[--len] = parent[w];
		}
	}
	free(in_a);
	free(parent);
	free(queue);
}

int diff_compute(struct diff *d, struct store *a, const char *a_db,
		 const int64_t *a_ids, size_t nr_a, struct store *b,
		 const char *b_db, int64_t b_id, const struct diff_opts *opts)
{
	struct load l = { .d = d, .last_id = -1, .key = STRBUF_INIT };
	int ret;

	memset(d, 0, sizeof(*d));
	d->base_ids = a_ids;
	d->nr_base = nr_a;
	d->boot[DIFF_A].st = a;
	d->boot[DIFF_A].db = a_db;
	d->boot[DIFF_A].id = a_ids[nr_a - 1];
	d->boot[DIFF_B].st = b;
	d->boot[DIFF_B].db = b_db;
	d->boot[DIFF_B].id = b_id;
	d->g = graph_new();
	ret = diff_load_tables(d);
	if (!ret)
		ret = diff_load_capacity(d);
	if (!ret)
		ret = find_no_export(d);
	if (!ret)
		ret = load_ambiguous(d);
	if (!ret)
		ret = load_side(d, &l, DIFF_A);
	if (!ret)
		ret = load_side(d, &l, DIFF_B);
	idmap_release(&l.refs);
	strbuf_release(&l.key);
	if (ret)
		return -1;
	qsort(d->ambiguous, d->nr_ambiguous, sizeof(*d->ambiguous),
	      ambiguous_cmp);
	graph_finish(d->g);
	sort_graph(d);
	count_changes(d);
	find_cycles(d, opts->max_cycles);
	find_irq_paths(d);
	return 0;
}

void diff_release(struct diff *d)
{
	size_t i;
	int s;

	for (s = 0; s < DIFF_SIDES; s++) {
		free(d->boot[s].label);
		free(d->boot[s].kernel_release);
		free(d->boot[s].build_id);
		free(d->boot[s].completeness);
		if (d->boot[s].has_workload)
			store_workload_release(&d->boot[s].workload);
	}
	if (d->g) {
		if (d->g->finished) {
			graph_cycles_release(&d->cycles);
			graph_scc_release(&d->scc);
		}
		graph_free(d->g);
	}
	free(d->nodes);
	free(d->order);
	free(d->rank);
	free(d->edge_order);
	free(d->ambiguous);
	strset_release(&d->ambiguous_ids);
	for (i = 0; i < d->nr_stats; i++)
		free(d->stats[i].name);
	free(d->stats);
	for (i = 0; i < d->nr_grew; i++)
		free(d->grew[i].name);
	free(d->grew);
	for (i = 0; i < d->nr_selftest; i++) {
		free(d->selftest[i].section);
		free(d->selftest[i].test);
		free(d->selftest[i].variant);
		free(d->selftest[i].result[DIFF_A]);
		free(d->selftest[i].result[DIFF_B]);
	}
	free(d->selftest);
	for (i = 0; i < d->nr_reports; i++) {
		free(d->reports[i].dedup_key);
		free(d->reports[i].type);
		free(d->reports[i].title);
	}
	free(d->reports);
	free(d->new_cycles);
	for (i = 0; i < d->nr_irq_paths; i++)
		free(d->irq_paths[i].edges);
	free(d->irq_paths);
	memset(d, 0, sizeof(*d));
}
