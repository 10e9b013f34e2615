// SPDX-License-Identifier: GPL-2.0
/*
 * Loading the lock graph of some boots from the store: one pass over
 * their classes and one over their dependencies, whose class ids an
 * idmap turns into nodes.
 *
 * A class is merged with the classes of other boots by its identity
 * (lockdep-db(5)). An identity that several classes of one of the boots
 * share (two mutex_init() sites of &of->mutex, with no key symbol to
 * tell them apart) is ambiguous in all of them: merging its classes
 * would draw dependencies, and cycles, that no boot had, and matching
 * them by printed name would trust the "#N" of registration order. So
 * each of its classes is a node of its own boot. Within one boot, two
 * classes are never one node. The store names those ambiguous
 * identities first, so each class row is decided as it comes.
 * A graph of one boot merges nothing: its classes are appended as they
 * come, with no key built or hashed. A graph of several boots reads the
 * union the merge keeps of them when there is one of exactly those boots
 * (store-union.h): the same nodes under the same keys in the same order,
 * each boot's dependencies from its pack, so the same graph; else their
 * rows.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph-view.h"
#include "store/store-graph.h"
#include "store/store-union.h"
#include "util/error.h"
#include "util/idmap.h"
#include "util/strbuf.h"
#include "util/strset.h"
#include "util/xalloc.h"

struct loader {
	struct graph *g;
	struct idmap map;	/* classes.id -> node */
	const int64_t *boot_ids;
	size_t nr_boots;
	int64_t last_id;
	int last_boot;
	unsigned long dangling;
	struct strset ambiguous;	/* identities shared within a boot */
	struct strbuf key;
	uint32_t *nodes;	/* the union's nodes, in its order */
	size_t nr_nodes, alloc_nodes;
};

static int boot_index(struct loader *l, int64_t id)
{
	size_t i;

	if (id == l->last_id)
		return l->last_boot;
	for (i = 0; i < l->nr_boots; i++)
		if (l->boot_ids[i] == id)
			break;
	l->last_id = id;
	l->last_boot = i < l->nr_boots ? (int)i : -1;
	return l->last_boot;
}

static int add_ambiguous(int64_t boot_id, const char *identity, void *data)
{
	struct loader *l = data;

	(void)boot_id;
	strset_add(&l->ambiguous, identity);
	return 0;
}

static int add_class(const struct store_graph_class *c, void *data)
{
	struct loader *l = data;

	if (l->nr_boots == 1) {
		idmap_add(&l->map, c->id,
			  graph_append_node(l->g, c->name, c->usage_bits, 0));
		return 0;
	}
	strbuf_reset(&l->key);
	/* no identity, or an ambiguous one: a node of its own (its row) */
	if (!c->identity ||
	    strset_find(&l->ambiguous, c->identity) != UINT32_MAX) {
		strbuf_addf(&l->key, "c%" PRId64, c->id);
		if (boot_index(l, c->boot_id) >= 0)
			l->g->boots[boot_index(l, c->boot_id)].nr_ambiguous++;
	} else {
		/* not strbuf_addf(): a printf per class was 8 % of a union's load */
		strbuf_addch(&l->key, 'i');
		strbuf_addstr(&l->key, c->identity);
	}
	idmap_add(&l->map, c->id,
		  graph_add_node(l->g, l->key.buf, c->name, c->usage_bits,
				 boot_index(l, c->boot_id)));
	return 0;
}

static int add_dep(const struct store_graph_dep *d, void *data)
{
	struct loader *l = data;
	uint32_t from = idmap_get(&l->map, d->from);
	uint32_t to = idmap_get(&l->map, d->to);

	if (from == UINT32_MAX || to == UINT32_MAX) {
		l->dangling++;	/* a hand-edited database; say so below */
		return 0;
	}
	graph_add_edge(l->g, from, to, boot_index(l, d->boot_id), d->dep_bits,
		       d->distance, d->trace);
	return 0;
}

static int no_export(int64_t boot_id, bool no_lockdep, void *data)
{
	struct loader *l = data;
	int b = boot_index(l, boot_id);

	if (b >= 0) {
		l->g->boots[b].no_export = true;
		l->g->boots[b].no_lockdep = no_lockdep;
	}
	return 0;
}

struct chain_uses {
	struct loader *l;
	uint32_t *uses;
};

static int add_chain_pair(int64_t from, int64_t to, uint64_t chains,
			  void *data)
{
	struct chain_uses *c = data;
	uint32_t a = idmap_get(&c->l->map, from), b = idmap_get(&c->l->map, to);
	uint32_t e;

	if (a == UINT32_MAX || b == UINT32_MAX)
		return 0;
	e = graph_find_edge(c->l->g, a, b);
	if (e != UINT32_MAX)
		c->uses[e] = chains > UINT32_MAX - c->uses[e] ? UINT32_MAX :
			     c->uses[e] + (uint32_t)chains;
	return 0;
}

/* ---- from the union (store-union.h) ---- */

static int union_node(const struct store_union_node *n, void *data)
{
	struct loader *l = data;
	uint32_t node;

	strbuf_reset(&l->key);
	if (n->identity) {
		strbuf_addch(&l->key, 'i');
		strbuf_addstr(&l->key, n->identity);
	} else {
		strbuf_addf(&l->key, "c%" PRId64, n->class_id);
	}
	node = graph_add_node(l->g, l->key.buf, n->name, n->usage_bits, -1);
	l->g->nodes[node].nr_boots += n->boots;
	ALLOC_GROW(l->nodes, l->nr_nodes + 1, l->alloc_nodes);
	l->nodes[l->nr_nodes++] = node;
	return 0;
}

static int union_boot(size_t idx, uint64_t own_nodes, void *data)
{
	struct loader *l = data;

	l->g->boots[idx].nr_ambiguous = own_nodes;
	return 0;
}

static int union_edge(uint32_t from, uint32_t to, size_t idx, int dep_bits,
		      int distance, const char *site, void *data)
{
	struct loader *l = data;

	if (from >= l->nr_nodes || to >= l->nr_nodes)
		return -1;	/* the store gives only ordinals it gave */
	graph_add_edge(l->g, l->nodes[from], l->nodes[to], (int)idx, dep_bits,
		       distance, site);
	return 0;
}

/* 1 if the graph came from the union, 0 if it is to be read, -1. */
static int load_union(struct store *st, const int64_t *ids, size_t nr,
		      struct loader *l)
{
	const struct store_union_reader r = {
		.node = union_node, .boot = union_boot, .edge = union_edge,
		.data = l,
	};

	return store_union_read(st, ids, nr, &r);
}

static void loader_release(struct loader *l)
{
	free(l->nodes);
	idmap_release(&l->map);
	strset_release(&l->ambiguous);
	strbuf_release(&l->key);
}

struct graph *graph_load_uses(struct store *st, const int64_t *ids,
			      char *const *labels, size_t nr,
			      uint32_t **chain_uses)
{
	struct chain_uses cu = { 0 };
	struct loader l = { .boot_ids = ids, .nr_boots = nr, .last_id = -1,
			    .key = STRBUF_INIT };
	uint64_t classes, deps;
	size_t i;
	int from_union;

	l.g = graph_new();
	for (i = 0; i < nr; i++)
		graph_add_boot(l.g, ids[i], labels ? labels[i] : NULL);
	if (store_graph_sizes(st, ids, nr, &classes, &deps))
		goto fail;
	/* one boot's classes are its nodes; several boots' are merged */
	graph_reserve(l.g, nr == 1 ? classes : 0, deps);
	idmap_reserve(&l.map, classes < GRAPH_RESERVE_MAX ? classes :
		      GRAPH_RESERVE_MAX);
	if (store_graph_no_exports(st, ids, nr, no_export, &l))
		goto fail;
	/* the union has no class ids for the chains' pairs */
	from_union = nr > 1 && !chain_uses ? load_union(st, ids, nr, &l) : 0;
	if (from_union < 0)
		goto fail;
	if (!from_union &&
	    (nr == 1 ? store_graph_boot_classes(st, ids[0], add_class, &l) :
	     store_graph_shared_identities(st, ids, nr, add_ambiguous, &l) ||
	     store_graph_classes(st, ids, nr, add_class, &l)))
		goto fail;
	idmap_build(&l.map);
	if (!from_union && store_graph_deps(st, ids, nr, add_dep, &l))
		goto fail;
	if (l.dangling)
		warning("'%s': %lu dependencies name a class of another boot or none; skipped",
			store_path(st), l.dangling);
	graph_finish(l.g);
	if (chain_uses) {
		cu.l = &l;
		cu.uses = xcalloc(l.g->nr_edges ? l.g->nr_edges : 1,
				  sizeof(*cu.uses));
		if (store_graph_chain_pairs(st, ids, nr, add_chain_pair, &cu)) {
			free(cu.uses);
			goto fail;
		}
		*chain_uses = cu.uses;
	}
	loader_release(&l);
	return l.g;
fail:
	loader_release(&l);
	graph_free(l.g);
	return NULL;
}
