/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The string hash of the tools' hash tables (the interned strings, the
 * lock graph's node map, the store's class map): FNV-1a, 64 bits. One
 * definition, so that the tables cannot drift apart in quality.
 */
#ifndef UTIL_HASH_H
#define UTIL_HASH_H

#include <stddef.h>

static inline size_t str_hash(const char *s)
{
	size_t h = 14695981039346656037ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

#endif
