/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where an address falls in a sorted array of addresses (the code
 * symbols' starts, the symbol index's range starts), in O(1): internal
 * to src/symbolise/.
 *
 * A binary search over a large array is a chain of dependent loads,
 * most of them cache misses, and half of its branches mispredicted.
 * Instead the span of the array is cut into 2^k equal buckets, each
 * knowing the first element at or above its start: an address's bucket
 * is a subtraction and a shift, and the elements to search are the few
 * in that bucket. The bucket of an address is known before any load, so
 * a batch can fetch every bucket it needs at once (addr_search_bucket()).
 */
#ifndef SYMBOLISE_ADDR_SEARCH_H
#define SYMBOLISE_ADDR_SEARCH_H

#include <stddef.h>
#include <stdint.h>

struct addr_search {
	const uint64_t *v;	/* sorted (not owned) */
	size_t nr;
	uint64_t base;
	unsigned int shift;
	/*
	 * bucket b > 0 holds the elements in [base + b << shift, base +
	 * (b + 1) << shift), the first also those below, the last also
	 * those above; first[b] is the first element of bucket b (first[0]
	 * is 0, first[nr_buckets] is nr)
	 */
	size_t nr_buckets;
	uint32_t *first;
};

/* Indexes the @nr sorted addresses @v (nr < UINT32_MAX); kept by the caller. */
void addr_search_init(struct addr_search *as, const uint64_t *v, size_t nr);
void addr_search_release(struct addr_search *as);

/* The bucket entry of @addr: first[b], first[b + 1] are the bounds. */
static inline const uint32_t *addr_search_bucket(const struct addr_search *as,
						 uint64_t addr)
{
	uint64_t b = (addr - as->base) >> as->shift;

	if (addr < as->base)
		b = 0;
	else if (b >= as->nr_buckets)
		b = as->nr_buckets - 1;
	return &as->first[b];
}

/* How many of the addresses are at or below @addr. */
static inline size_t addr_search_upto(const struct addr_search *as,
				      uint64_t addr)
{
	const uint32_t *bucket = addr_search_bucket(as, addr);
	size_t lo = bucket[0], hi = bucket[1];

	while (lo < hi) {	/* the first above addr, in the bucket */
		size_t mid = lo + (hi - lo) / 2;

		if (as->v[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
