// SPDX-License-Identifier: GPL-2.0
/* Row id -> value maps (idmap.h). */
#include <stdlib.h>
#include <string.h>

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

static size_t slot(const struct idmap *m, int64_t id)
{
	size_t i = ((uint64_t)id * 0x9e3779b97f4a7c15ull >> 20) & (m->cap - 1);

	while (m->ids[i] != INT64_MIN && m->ids[i] != id)
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* An array if it needs at most 4 slots per pair, else a hash table. */
void idmap_build(struct idmap *m)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	size_t i, k;

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
	for (m->cap = 1024; m->cap < 2 * m->nr; m->cap *= 2)
		;
	m->ids = xmalloc(m->cap * sizeof(*m->ids));
	for (i = 0; i < m->cap; i++)
		m->ids[i] = INT64_MIN;
	m->values = xmalloc(m->cap * sizeof(*m->values));
	for (i = 0; i < m->nr; i++) {
		k = slot(m, m->pairs[i].id);
		m->ids[k] = m->pairs[i].id;
		m->values[k] = m->pairs[i].value;
	}
}

uint32_t idmap_get(const struct idmap *m, int64_t id)
{
	size_t i;

	if (m->dense)
		return id >= m->base &&
		       (uint64_t)id - (uint64_t)m->base < m->nr_dense ?
		       m->dense[id - m->base] : UINT32_MAX;
	if (!m->cap || id == INT64_MIN)
		return UINT32_MAX;
	i = slot(m, id);
	return m->ids[i] == id ? m->values[i] : UINT32_MAX;
}

void idmap_reset(struct idmap *m)
{
	free(m->dense);
	free(m->ids);
	free(m->values);
	m->dense = NULL;
	m->ids = NULL;
	m->values = NULL;
	m->nr = m->nr_dense = m->cap = 0;
}

void idmap_release(struct idmap *m)
{
	idmap_reset(m);
	free(m->pairs);
	memset(m, 0, sizeof(*m));
}
