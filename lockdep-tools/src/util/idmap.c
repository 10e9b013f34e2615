// SPDX-License-Identifier: GPL-2.0
/* Row id -> value maps (idmap.h). */
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/idmap.h"
#include "util/xalloc.h"

void idmap_reserve(struct idmap *m, size_t n)
{
	if (m->nr + n > m->alloc) {
		m->alloc = m->nr + n;
		m->pairs = xrealloc_big(m->pairs, m->alloc * sizeof(*m->pairs));
	}
}

void idmap_add(struct idmap *m, int64_t id, uint32_t value)
{
	ALLOC_GROW_BIG(m->pairs, m->nr + 1, m->alloc);
	m->pairs[m->nr].id = id;
	m->pairs[m->nr++].value = value;
}

/* The pair of @id in the hash index, or HINDEX_NONE. */
static uint32_t find(const struct idmap *m, int64_t id)
{
	struct hindex_probe p;
	uint32_t i;

	for (i = hindex_first(&m->index, u64_hash((uint64_t)id), &p);
	     i != HINDEX_NONE; i = hindex_next(&m->index, &p))
		if (m->pairs[i].id == id)
			break;
	return i;
}

/* An array if it needs at most 4 slots per pair, else a hash table. */
void idmap_build(struct idmap *m)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	uint32_t k;
	size_t i;

	if (!m->nr)
		return;
	for (i = 0; i < m->nr; i++) {
		if (m->pairs[i].id < lo)
			lo = m->pairs[i].id;
		if (m->pairs[i].id > hi)
			hi = m->pairs[i].id;
	}
	if ((uint64_t)hi - (uint64_t)lo < 4 * (uint64_t)m->nr + 1024) {
		m->base = lo;
		m->nr_dense = (size_t)((uint64_t)hi - (uint64_t)lo) + 1;
		m->dense = xmalloc(m->nr_dense * sizeof(*m->dense));
		memset(m->dense, 0xff, m->nr_dense * sizeof(*m->dense));
		for (i = 0; i < m->nr; i++)
			m->dense[m->pairs[i].id - lo] = m->pairs[i].value;
		return;
	}
	hindex_reserve(&m->index, m->nr);
	for (i = 0; i < m->nr; i++) {
		k = find(m, m->pairs[i].id);
		if (k != HINDEX_NONE)	/* an id added twice: the last wins */
			m->pairs[k].value = m->pairs[i].value;
		else
			hindex_add(&m->index, u64_hash((uint64_t)m->pairs[i].id),
				   (uint32_t)i);
	}
}

uint32_t idmap_get(const struct idmap *m, int64_t id)
{
	uint32_t i;

	if (m->dense)
		return id >= m->base &&
		       (uint64_t)id - (uint64_t)m->base < m->nr_dense ?
		       m->dense[id - m->base] : UINT32_MAX;
	i = find(m, id);
	return i != HINDEX_NONE ? m->pairs[i].value : UINT32_MAX;
}

void idmap_reset(struct idmap *m)
{
	free(m->dense);
	m->dense = NULL;
	hindex_release(&m->index);
	m->nr = m->nr_dense = 0;
}

void idmap_release(struct idmap *m)
{
	idmap_reset(m);
	free(m->pairs);
	memset(m, 0, sizeof(*m));
}
