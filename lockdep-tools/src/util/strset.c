// SPDX-License-Identifier: GPL-2.0
/* Interned strings (strset.h): open addressing on an FNV-1a hash. */
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/strset.h"
#include "util/xalloc.h"

static uint32_t *slot(const struct strset *set, const char *s)
{
	size_t i = str_hash(s) & (set->cap - 1);

	while (set->slots[i] && strcmp(set->strs[set->slots[i] - 1], s))
		i = (i + 1) & (set->cap - 1);
	return &set->slots[i];
}

uint32_t strset_add(struct strset *set, const char *s)
{
	uint32_t *sl;
	size_t i;

	if ((set->nr + 1) * 2 > set->cap) {
		free(set->slots);
		set->cap = set->cap ? set->cap * 2 : 256;
		set->slots = xcalloc(set->cap, sizeof(*set->slots));
		for (i = 0; i < set->nr; i++)
			*slot(set, set->strs[i]) = (uint32_t)i + 1;
	}
	sl = slot(set, s);
	if (!*sl) {
		ALLOC_GROW(set->strs, set->nr + 1, set->alloc);
		set->strs[set->nr] = xstrdup(s);
		*sl = (uint32_t)++set->nr;
	}
	return *sl - 1;
}

uint32_t strset_find(const struct strset *set, const char *s)
{
	return set->nr ? *slot(set, s) - 1 : UINT32_MAX;
}

void strset_release(struct strset *set)
{
	size_t i;

	for (i = 0; i < set->nr; i++)
		free(set->strs[i]);
	free(set->strs);
	free(set->slots);
	memset(set, 0, sizeof(*set));
}
