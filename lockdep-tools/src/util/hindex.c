// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "util/hindex.h"
#include "util/xalloc.h"

static void put(uint64_t *slots, size_t cap, uint64_t s)
{
	size_t i = (uint32_t)(s >> 32) & (cap - 1);

	while (slots[i])
		i = (i + 1) & (cap - 1);
	slots[i] = s;
}

static void grow_to(struct hindex *x, size_t cap)
{
	uint64_t *old = x->slots;
	size_t i, old_cap = x->cap;

	x->slots = xcalloc(cap, sizeof(*x->slots));
	x->cap = cap;
	for (i = 0; i < old_cap; i++)
		if (old[i])
			put(x->slots, cap, old[i]);
	free(old);
}

void hindex_reserve(struct hindex *x, size_t n)
{
	size_t cap = x->cap ? x->cap : 256;

	while (cap < 2 * n)
		cap *= 2;
	if (cap != x->cap)
		grow_to(x, cap);
}

void hindex_add(struct hindex *x, uint64_t hash, uint32_t id)
{
	uint32_t h = (uint32_t)(hash ^ hash >> 32);

	if (2 * (x->nr + 1) > x->cap)
		grow_to(x, x->cap ? 2 * x->cap : 256);
	put(x->slots, x->cap, (uint64_t)h << 32 | ((uint64_t)id + 1));
	x->nr++;
}

void hindex_clear(struct hindex *x)
{
	if (x->cap)
		memset(x->slots, 0, x->cap * sizeof(*x->slots));
	x->nr = 0;
}

void hindex_release(struct hindex *x)
{
	free(x->slots);
	memset(x, 0, sizeof(*x));
}
