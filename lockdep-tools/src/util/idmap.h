/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A map from 64-bit row ids to 32-bit values (a class's row id to its
 * graph node): add every pair, build once, then look up. Row ids of one
 * table are dense, so the usual index is a plain array from the smallest
 * id; sparse ids get a hash index (util/hindex.h) over the pairs instead.
 * Lookups of ids never added give UINT32_MAX; of an id added twice, the
 * value added last.
 */
#ifndef UTIL_IDMAP_H
#define UTIL_IDMAP_H

#include <stddef.h>
#include <stdint.h>

#include "util/hindex.h"

struct idmap_pair {
	int64_t id;
	uint32_t value;
};

struct idmap {
	struct idmap_pair *pairs;	/* as added */
	size_t nr, alloc;
	int64_t base;
	uint32_t *dense;	/* [id - base] */
	size_t nr_dense;
	struct hindex index;	/* else a hash index of the pairs */
};

#define IDMAP_INIT { 0 }

/* Room for @n more pairs, allocated at once (a hint). */
void idmap_reserve(struct idmap *m, size_t n);
void idmap_add(struct idmap *m, int64_t id, uint32_t value);
/* Index the pairs added so far (before the first idmap_get()). */
void idmap_build(struct idmap *m);
uint32_t idmap_get(const struct idmap *m, int64_t id);
/* Empty it for another round of adds, keeping the memory of the pairs. */
void idmap_reset(struct idmap *m);
void idmap_release(struct idmap *m);

#endif
