// SPDX-License-Identifier: GPL-2.0
/*
 * The small half of a diff (diff.h): each boot's row, /proc/lockdep_stats,
 * the self-test cells and the reports by dedup key, read with one query
 * per table and side (store/store-tables.h) and matched by key. These
 * tables hold hundreds of rows, so a key is matched by a linear search
 * over the rows read so far; the lock graph, which can hold millions, is
 * diff.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "diff/diff.h"
#include "store/store-tables.h"
#include "util/error.h"
#include "util/xalloc.h"

/* The row functions' data: the diff and the side being read. */
struct side {
	struct diff *d;
	int side;
};

static int stat_row(const struct store_stat_row *row, void *data)
{
	struct side *sd = data;
	struct diff *d = sd->d;
	struct diff_stat *st = NULL;
	size_t i;

	for (i = 0; i < d->nr_stats; i++)
		if (!strcmp(d->stats[i].name, row->name)) {
			st = &d->stats[i];
			break;
		}
	if (!st) {
		ALLOC_GROW(d->stats, d->nr_stats + 1, d->alloc_stats);
		st = &d->stats[d->nr_stats++];
		memset(st, 0, sizeof(*st));
		st->name = xstrdup(row->name);
	}
	if (st->has[sd->side])
		return 0;	/* a name printed twice: the first counts */
	st->has[sd->side] = true;
	st->value[sd->side] = row->value;
	/* B's limit wins: B is read first */
	if (row->has_max && !st->has_max) {
		st->has_max = true;
		st->max = row->max;
	}
	return 0;
}

static int selftest_row(const struct store_selftest_row *row, void *data)
{
	struct side *sd = data;
	struct diff *d = sd->d;
	struct diff_selftest *c = NULL;
	size_t i;

	for (i = 0; i < d->nr_selftest; i++)
		if (!strcmp(d->selftest[i].section, row->section) &&
		    !strcmp(d->selftest[i].test, row->test) &&
		    !strcmp(d->selftest[i].variant, row->variant)) {
			c = &d->selftest[i];
			break;
		}
	if (!c) {
		ALLOC_GROW(d->selftest, d->nr_selftest + 1, d->alloc_selftest);
		c = &d->selftest[d->nr_selftest++];
		memset(c, 0, sizeof(*c));
		c->section = xstrdup(row->section);
		c->test = xstrdup(row->test);
		c->variant = xstrdup(row->variant);
	}
	if (!c->result[sd->side] && row->result)
		c->result[sd->side] = xstrdup(row->result);
	return 0;
}

static int report_row(const struct store_report_key_row *row, void *data)
{
	struct side *sd = data;
	struct diff *d = sd->d;
	struct diff_report *r = NULL;
	size_t i;

	for (i = 0; i < d->nr_reports; i++)
		if (!strcmp(d->reports[i].dedup_key, row->dedup_key)) {
			r = &d->reports[i];
			break;
		}
	if (!r) {
		ALLOC_GROW(d->reports, d->nr_reports + 1, d->alloc_reports);
		r = &d->reports[d->nr_reports++];
		memset(r, 0, sizeof(*r));
		r->dedup_key = xstrdup(row->dedup_key);
		r->type = row->type ? xstrdup(row->type) : NULL;
		r->title = row->title ? xstrdup(row->title) : NULL;
	}
	r->count[sd->side] += row->count;
	return 0;
}

static int load_boot(struct diff *d, int side)
{
	struct diff_boot *b = &d->boot[side];
	struct store_boot_info info;
	int ret;

	ret = store_boot_info(b->st, b->id, &info);
	if (ret < 0)
		return -1;
	if (!ret || !info.completeness) {
		store_boot_info_release(&info);
		return error("no boot %lld in '%s'", (long long)b->id, b->db);
	}
	b->label = info.label;		/* taken over */
	b->kernel_release = info.kernel_release;
	b->build_id = info.build_id;
	b->completeness = info.completeness;
	ret = store_workload_load(b->st, b->id, &b->workload);
	b->has_workload = ret > 0;
	return ret < 0 ? -1 : 0;
}

int diff_load_tables(struct diff *d)
{
	struct side sd = { .d = d };
	size_t i;
	int ret = 0;

	if (load_boot(d, DIFF_A) || load_boot(d, DIFF_B))
		return -1;
	/* B first: its order and its limits are the ones shown */
	for (sd.side = DIFF_B; sd.side >= DIFF_A; sd.side--)
		if (store_stat_foreach(d->boot[sd.side].st, d->boot[sd.side].id,
				       stat_row, &sd) ||
		    store_selftest_foreach(d->boot[sd.side].st,
					   d->boot[sd.side].id,
					   selftest_row, &sd))
			return -1;
	/* a report of any baseline boot is not new */
	sd.side = DIFF_B;
	if (store_report_key_foreach(d->boot[DIFF_B].st, d->boot[DIFF_B].id,
				     report_row, &sd))
		return -1;
	sd.side = DIFF_A;
	for (i = 0; i < d->nr_base && !ret; i++)
		ret = store_report_key_foreach(d->boot[DIFF_A].st,
					       d->base_ids[i], report_row, &sd);
	return ret;
}

double diff_stat_headroom(const struct diff_stat *s)
{
	unsigned long long v = s->has[DIFF_B] ? s->value[DIFF_B] : 0;

	if (!s->has_max || !s->max)
		return 100.0;
	if (v >= s->max)
		return 0.0;
	return 100.0 * (double)(s->max - v) / (double)s->max;
}
