/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sorting an array that is mostly in order already: its runs (stretches
 * in order) found in one pass and merged pairwise until one is left,
 * O(n log r) for r runs where qsort() pays O(n log n). A line program's
 * rows come sequence by sequence, each in address order; a unit's code
 * ranges come in DIE order, mostly in address order too.
 *
 * Stable; @before(a, b): a sorts strictly before b. Inline, so that each
 * caller gets a copy with its element size and @before known: the
 * element moves are then plain loads and stores.
 */
#ifndef UTIL_SORT_RUNS_H
#define UTIL_SORT_RUNS_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static inline void sort_runs(void *base, size_t nr, size_t size,
			     bool (*before)(const void *a, const void *b))
{
	char *v = base, *tmp = NULL, *from = v, *to;
	size_t *runs = NULL, nr_runs = 0, alloc_runs = 0;

	for (size_t i = 0; i < nr; i++)
		if (!i || before(v + i * size, v + (i - 1) * size)) {
			ALLOC_GROW(runs, nr_runs + 1, alloc_runs);
			runs[nr_runs++] = i;
		}
	if (nr_runs > 1)
		tmp = xmalloc(nr * size);
	to = tmp;
	while (nr_runs > 1) {
		size_t k = 0;

		for (size_t i = 0; i < nr_runs; i += 2) {
			size_t a = runs[i], ea = i + 1 < nr_runs ? runs[i + 1] : nr;
			size_t b = ea, eb = i + 2 < nr_runs ? runs[i + 2] : nr;
			size_t o = a;

			while (a < ea && b < eb) {
				/* b first only when strictly before: stable */
				size_t at = before(from + b * size,
						   from + a * size) ? b++ : a++;

				memcpy(to + o++ * size, from + at * size, size);
			}
			memcpy(to + o * size, from + a * size, (ea - a) * size);
			o += ea - a;
			memcpy(to + o * size, from + b * size, (eb - b) * size);
			runs[k++] = runs[i];
		}
		nr_runs = k;
		to = from;
		from = from == v ? tmp : v;
	}
	if (from != v)
		memcpy(v, from, nr * size);
	free(tmp);
	free(runs);
}

#endif
