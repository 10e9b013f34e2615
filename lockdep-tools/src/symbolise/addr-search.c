// SPDX-License-Identifier: GPL-2.0
/* Buckets over sorted addresses: see addr-search.h. */
#include <stdlib.h>

#include "symbolise/addr-search.h"
#include "util/xalloc.h"

void addr_search_init(struct addr_search *as, const uint64_t *v, size_t nr)
{
	/*
	 * the buckets span the middle of the addresses: a few far out (a
	 * range at 0 below the kernel's) would stretch them so that all
	 * the rest fell in one; those outside go to the first or last
	 */
	size_t tail = nr / 64, b, i = 0;
	uint64_t span = nr ? v[nr - 1 - tail] - v[tail] : 0;

	as->v = v;
	as->nr = nr;
	as->base = nr ? v[tail] : 0;
	/* about one element a bucket: the smallest shift giving <= nr */
	as->shift = 0;
	while (as->shift < 63 && (span >> as->shift) >= (nr ? nr : 1))
		as->shift++;
	as->nr_buckets = (size_t)(span >> as->shift) + 1;
	as->first = xmalloc((as->nr_buckets + 1) * sizeof(*as->first));
	as->first[0] = 0;
	for (b = 1; b < as->nr_buckets; b++) {
		uint64_t start = as->base + ((uint64_t)b << as->shift);

		while (i < nr && v[i] < start)
			i++;
		as->first[b] = (uint32_t)i;
	}
	as->first[as->nr_buckets] = (uint32_t)nr;
}

void addr_search_release(struct addr_search *as)
{
	free(as->first);
	as->first = NULL;
}
