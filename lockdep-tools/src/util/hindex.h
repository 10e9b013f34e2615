/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one hash table of the tools: an index over entries that its user
 * keeps in an array of its own, numbered from 0 (interned strings, graph
 * nodes, classes, traces, row ids). Open addressing, linear probing, at
 * most half full. A slot holds 32 bits of the entry's hash beside its
 * number, so a probe compares keys only when the hashes match and growing
 * the table reads no key. The user compares keys, in its own loop:
 *
 *   struct hindex_probe p;
 *   for (id = hindex_first(&ix, h, &p); id != HINDEX_NONE;
 *        id = hindex_next(&ix, &p))
 *           if (!strcmp(names[id], name))
 *                   return id;
 *   hindex_add(&ix, h, new_id);
 *
 * Why not a Debian library's (glib's GHashTable, hsearch_r): the keys live
 * in the users' arrays already (a pointer table would add a word per
 * entry and a call per probe), GHashTable would make glib a dependency of
 * every tool for ~60 lines, and hsearch_r cannot grow.
 */
#ifndef UTIL_HINDEX_H
#define UTIL_HINDEX_H

#include <stddef.h>
#include <stdint.h>

#define HINDEX_NONE	UINT32_MAX

struct hindex {
	uint64_t *slots;	/* hash << 32 | number + 1; 0: empty */
	size_t nr, cap;		/* cap: a power of two, or 0 */
};

#define HINDEX_INIT { 0 }

struct hindex_probe {
	size_t i;
	uint32_t hash;
};

/* The next entry of the probe's hash, or HINDEX_NONE at an empty slot. */
static inline uint32_t hindex_next(const struct hindex *x,
				   struct hindex_probe *p)
{
	uint64_t s;

	while ((s = x->slots[p->i])) {
		p->i = (p->i + 1) & (x->cap - 1);
		if ((uint32_t)(s >> 32) == p->hash)
			return (uint32_t)s - 1;
	}
	return HINDEX_NONE;
}

/* Start a lookup of hash @hash: its first candidate, or HINDEX_NONE. */
static inline uint32_t hindex_first(const struct hindex *x, uint64_t hash,
				    struct hindex_probe *p)
{
	p->hash = (uint32_t)(hash ^ hash >> 32);
	p->i = x->cap ? p->hash & (x->cap - 1) : 0;
	return x->cap ? hindex_next(x, p) : HINDEX_NONE;
}

/* Add entry @id (below HINDEX_NONE) of hash @hash; not there already. */
void hindex_add(struct hindex *x, uint64_t hash, uint32_t id);
/* Room for @n entries with no growth on the way (a hint). */
void hindex_reserve(struct hindex *x, size_t n);
/* Empty, keeping its memory. */
void hindex_clear(struct hindex *x);
void hindex_release(struct hindex *x);

#endif
