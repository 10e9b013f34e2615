/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hashes of the tools, each defined once: FNV-1a (64 bits) for bytes
 * and strings (the hash tables' keys, report dedup keys, the symbol
 * index's strings), and a multiplicative mix for integer keys (row ids).
 */
#ifndef UTIL_HASH_H
#define UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

#define FNV1A_INIT	0xcbf29ce484222325ull

/* One step of FNV-1a: hash @h with byte @c mixed in. */
static inline uint64_t fnv1a_byte(uint64_t h, unsigned char c)
{
	return (h ^ c) * 0x100000001b3ull;
}

/* Continue FNV-1a hash @h over @n bytes at @p. */
static inline uint64_t fnv1a_add(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		h = fnv1a_byte(h, *c++);
	return h;
}

static inline uint64_t fnv1a(const void *p, size_t n)
{
	return fnv1a_add(FNV1A_INIT, p, n);
}

/* fnv1a(s, strlen(s)), in one pass */
static inline uint64_t str_hash(const char *s)
{
	uint64_t h = FNV1A_INIT;

	while (*s)
		h = fnv1a_byte(h, (unsigned char)*s++);
	return h;
}

/* Integer keys: Fibonacci hashing, the high bits the well-mixed ones. */
static inline uint64_t u64_hash(uint64_t v)
{
	v *= 0x9e3779b97f4a7c15ull;
	return v ^ (v >> 29);
}

#endif
