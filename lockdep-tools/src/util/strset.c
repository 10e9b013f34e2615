// SPDX-License-Identifier: GPL-2.0
/* Interned strings (strset.h): util/hindex.h on an FNV-1a hash. */
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/strset.h"
#include "util/xalloc.h"

static uint32_t find(const struct strset *set, const char *s, uint64_t h)
{
	struct hindex_probe p;
	uint32_t i;

	for (i = hindex_first(&set->index, h, &p); i != HINDEX_NONE;
	     i = hindex_next(&set->index, &p))
		if (!strcmp(set->strs[i], s))
			break;
	return i;
}

uint32_t strset_add(struct strset *set, const char *s)
{
	uint64_t h = str_hash(s);
	uint32_t i = find(set, s, h);

	if (i != HINDEX_NONE)
		return i;
	ALLOC_GROW(set->strs, set->nr + 1, set->alloc);
	set->strs[set->nr] = xstrdup(s);
	hindex_add(&set->index, h, (uint32_t)set->nr);
	return (uint32_t)set->nr++;
}

uint32_t strset_find(const struct strset *set, const char *s)
{
	/* most finds are in an empty set (sites of boots with no export) */
	return set->nr ? find(set, s, str_hash(s)) : UINT32_MAX;
}

void strset_release(struct strset *set)
{
	size_t i;

	for (i = 0; i < set->nr; i++)
		free(set->strs[i]);
	free(set->strs);
	hindex_release(&set->index);
	memset(set, 0, sizeof(*set));
}
