// SPDX-License-Identifier: GPL-2.0
/*
 * Loading the lock graph of some boots from the store: one pass over
 * their classes and one over their dependencies, whose class ids a hash
 * map turns into nodes.
 *
 * A class is merged with the classes of other boots by its identity
 * (lockdep-db(5)) when that identity is its own in its boot; several
 * classes of one identity in a boot (the i_lock_key#2, #3 of two file
 * systems) are told apart by their printed names instead, as merging
 * them would draw dependencies, and cycles, that no boot had. Within
 * one boot, two classes are never one node.
 */
#include <stdlib.h>

#include "graph/graph-view.h"
#include "store/store-graph.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct id_map {
	int64_t *ids;		/* 0 for empty (classes.id is never 0) */
	uint32_t *nodes;
	size_t nr, cap;		/* cap: a power of two */
};

struct loader {
	struct graph *g;
	struct id_map map;
	const int64_t *boot_ids;
	size_t nr_boots;
	int64_t last_id;
	int last_boot;
	unsigned long dangling;
};

static size_t id_hash(int64_t id, size_t cap)
{
	return ((uint64_t)id * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
}

static size_t id_slot(const struct id_map *m, int64_t id)
{
	size_t i = id_hash(id, m->cap);

	while (m->ids[i] && m->ids[i] != id)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void id_put(struct id_map *m, int64_t id, uint32_t node)
{
	size_t i, old_cap = m->cap;
	int64_t *ids = m->ids;
	uint32_t *nodes = m->nodes;

	if ((m->nr + 1) * 2 > m->cap) {
		m->cap = m->cap ? m->cap * 2 : 1024;
		m->ids = xcalloc(m->cap, sizeof(*m->ids));
		m->nodes = xmalloc(m->cap * sizeof(*m->nodes));
		for (i = 0; i < old_cap; i++)
			if (ids[i]) {
				size_t k = id_slot(m, ids[i]);

				m->ids[k] = ids[i];
				m->nodes[k] = nodes[i];
			}
		free(ids);
		free(nodes);
	}
	i = id_slot(m, id);
	if (!m->ids[i])
		m->nr++;
	m->ids[i] = id;
	m->nodes[i] = node;
}

static uint32_t id_get(const struct id_map *m, int64_t id)
{
	size_t i;

	if (!m->cap)
		return UINT32_MAX;
	i = id_slot(m, id);
	return m->ids[i] ? m->nodes[i] : UINT32_MAX;
}

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

static int add_class(const struct store_graph_class *c, void *data)
{
	struct loader *l = data;
	struct strbuf key = STRBUF_INIT;
	uint32_t n;

	if (c->identity && c->identity_classes == 1)
		strbuf_addf(&key, "i%s", c->identity);
	else
		strbuf_addf(&key, "n%s", c->name);
	n = graph_add_node(l->g, key.buf, c->name, c->usage_bits,
			   boot_index(l, c->boot_id));
	id_put(&l->map, c->id, n);
	strbuf_release(&key);
	return 0;
}

static int add_dep(const struct store_graph_dep *d, void *data)
{
	struct loader *l = data;
	uint32_t from = id_get(&l->map, d->from), to = id_get(&l->map, d->to);

	if (from == UINT32_MAX || to == UINT32_MAX) {
		l->dangling++;	/* a hand-edited database; say so below */
		return 0;
	}
	graph_add_edge(l->g, from, to, boot_index(l, d->boot_id), d->dep_bits,
		       d->distance, d->trace);
	return 0;
}

struct graph *graph_load(struct store *st, const int64_t *ids,
			 char *const *labels, size_t nr)
{
	struct loader l = { .boot_ids = ids, .nr_boots = nr, .last_id = -1 };
	size_t i;

	l.g = graph_new();
	for (i = 0; i < nr; i++)
		if (graph_add_boot(l.g, ids[i], labels ? labels[i] : NULL) < 0) {
			error("too many boots: at most %d", GRAPH_MAX_BOOTS);
			goto fail;
		}
	if (store_graph_classes(st, ids, nr, add_class, &l) ||
	    store_graph_deps(st, ids, nr, add_dep, &l))
		goto fail;
	if (l.dangling)
		warning("'%s': %lu dependencies name a class of another boot or none; skipped",
			store_path(st), l.dangling);
	free(l.map.ids);
	free(l.map.nodes);
	graph_finish(l.g);
	return l.g;
fail:
	free(l.map.ids);
	free(l.map.nodes);
	graph_free(l.g);
	return NULL;
}
