/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A set of distinct strings, each stored once and numbered in the order
 * first added: interning for loaders that see the same name on many rows
 * (a class identity in a thousand boots, a trace site on many edges).
 * The strings stay where they are until strset_release().
 */
#ifndef UTIL_STRSET_H
#define UTIL_STRSET_H

#include <stddef.h>
#include <stdint.h>

#include "util/hindex.h"

struct strset {
	char **strs;		/* by number */
	struct hindex index;
	size_t nr, alloc;
};

#define STRSET_INIT { 0 }

/* The number of @s, added (copied) if new. */
uint32_t strset_add(struct strset *set, const char *s);
/* The number of @s, or UINT32_MAX if it is not in the set. */
uint32_t strset_find(const struct strset *set, const char *s);
static inline const char *strset_str(const struct strset *set, uint32_t i)
{
	return set->strs[i];
}
void strset_release(struct strset *set);

#endif
