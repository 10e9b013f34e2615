// SPDX-License-Identifier: GPL-2.0
/*
 * The consumers of lockdep's tables that grew from boot A to boot B
 * (diff.h): each boot's tables counted as lockdep-report --capacity
 * counts them (report/capacity.h), then, per table and grouping, the
 * consumers whose rows B has more of, largest growth first. A patch that
 * doubled the chains shows here as the class or subsystem that made them.
 */
#include <stdlib.h>
#include <string.h>

#include "diff/diff.h"
#include "report/capacity.h"
#include "util/xalloc.h"

/* The groupings compared, and how many consumers each shows per table. */
static const enum cap_by compared[] = { CAP_BY_CLASS, CAP_BY_KEY,
					CAP_BY_SUBSYSTEM };
#define GREW_PER_TABLE	3

static int grew_cmp(const void *x, const void *y)
{
	const struct diff_grew *a = x, *b = y;
	unsigned long long da = a->b - a->a, db = b->b - b->a;

	if (a->table != b->table)
		return a->table < b->table ? -1 : 1;
	if (a->by != b->by)
		return a->by < b->by ? -1 : 1;
	if (da != db)
		return da > db ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void collect_grew(struct diff *d, const struct capacity *a,
			 const struct capacity *b)
{
	size_t i, j, k, first;
	int t;

	for (t = 0; t < CAP_STACK_HASH; t++) {
		if (!a->has_counted[t] || !b->has_counted[t])
			continue;
		for (j = 0; j < sizeof(compared) / sizeof(compared[0]); j++) {
			const struct cap_map *mb = &b->by[compared[j]];
			const struct cap_map *ma = &a->by[compared[j]];

			/* a class is one class: each new one "grew" by 1 */
			if (compared[j] == CAP_BY_CLASS && t == CAP_CLASSES)
				continue;
			first = d->nr_grew;
			for (i = 0; i < mb->names.nr; i++) {
				const char *name = strset_str(&mb->names, (uint32_t)i);
				uint32_t ia = strset_find(&ma->names, name);
				unsigned long long ra = ia == UINT32_MAX ? 0 :
					ma->rows[ia][t];
				struct diff_grew *g;

				if (mb->rows[i][t] <= ra)
					continue;
				ALLOC_GROW(d->grew, d->nr_grew + 1, d->alloc_grew);
				g = &d->grew[d->nr_grew++];
				g->table = t;
				g->by = compared[j];
				g->name = xstrdup(name);
				g->a = ra;
				g->b = mb->rows[i][t];
			}
			/* qsort() of nothing must still get an array */
			if (d->nr_grew > first)
				qsort(d->grew + first, d->nr_grew - first,
				      sizeof(*d->grew), grew_cmp);
			for (k = first + GREW_PER_TABLE; k < d->nr_grew; k++)
				free(d->grew[k].name);
			if (d->nr_grew > first + GREW_PER_TABLE)
				d->nr_grew = first + GREW_PER_TABLE;
		}
	}
}

int diff_load_capacity(struct diff *d)
{
	struct capacity cap[DIFF_SIDES];
	int side, ret = 0;

	for (side = 0; side < DIFF_SIDES && !ret; side++)
		ret = capacity_load(d->boot[side].st, &d->boot[side].id, 1,
				    &cap[side]);
	if (!ret)
		collect_grew(d, &cap[DIFF_A], &cap[DIFF_B]);
	while (side--)
		capacity_release(&cap[side]);
	return ret;
}

const char *diff_grew_table(const struct diff_grew *g)
{
	return cap_tables[g->table].key;
}

const char *diff_grew_by(const struct diff_grew *g)
{
	return cap_by_name(g->by);
}
