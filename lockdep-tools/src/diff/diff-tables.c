// SPDX-License-Identifier: GPL-2.0
/*
 * The small half of a diff (diff.h): each boot's row, /proc/lockdep_stats,
 * the self-test cells and the reports by dedup key, read with one query
 * per table and side and matched by key. These tables hold hundreds of
 * rows, so a key is matched by a linear search over the rows read so
 * far; the lock graph, which can hold millions, is diff.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "diff/diff.h"
#include "store/store-int.h"
#include "util/cli.h"
#include "util/error.h"
#include "util/xalloc.h"

static char *col_dup(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	return t ? xstrdup((const char *)t) : NULL;
}

static const char *col_str(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	return t ? (const char *)t : "";
}

/*
 * Run @sql with ?1 = the boot's id, calling @row for each row; 0 or -1
 * after printing the error against the boot's database.
 */
static int each_row(struct diff *d, int side, const char *sql,
		    void (*row)(struct diff *d, int side, sqlite3_stmt *s))
{
	struct diff_boot *b = &d->boot[side];
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(b->st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return store_fail(b->st, "unable to read");
	sqlite3_bind_int64(s, 1, b->id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		row(d, side, s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return store_fail(b->st, "unable to read");
	return 0;
}

static void boot_row(struct diff *d, int side, sqlite3_stmt *s)
{
	struct diff_boot *b = &d->boot[side];

	b->label = col_dup(s, 0);
	b->kernel_release = col_dup(s, 1);
	b->build_id = col_dup(s, 2);
	b->completeness = col_dup(s, 3);
}

static void stat_row(struct diff *d, int side, sqlite3_stmt *s)
{
	const char *name = col_str(s, 0);
	struct diff_stat *st = NULL;
	size_t i;

	for (i = 0; i < d->nr_stats; i++)
		if (!strcmp(d->stats[i].name, name)) {
			st = &d->stats[i];
			break;
		}
	if (!st) {
		ALLOC_GROW(d->stats, d->nr_stats + 1, d->alloc_stats);
		st = &d->stats[d->nr_stats++];
		memset(st, 0, sizeof(*st));
		st->name = xstrdup(name);
	}
	if (st->has[side])
		return;		/* a name printed twice: the first counts */
	st->has[side] = true;
	st->value[side] = (unsigned long long)sqlite3_column_int64(s, 1);
	/* B's limit wins: B is read first */
	if (sqlite3_column_type(s, 2) != SQLITE_NULL && !st->has_max) {
		st->has_max = true;
		st->max = (unsigned long long)sqlite3_column_int64(s, 2);
	}
}

static void selftest_row(struct diff *d, int side, sqlite3_stmt *s)
{
	const char *sec = col_str(s, 0), *test = col_str(s, 1);
	const char *var = col_str(s, 2);
	struct diff_selftest *c = NULL;
	size_t i;

	for (i = 0; i < d->nr_selftest; i++)
		if (!strcmp(d->selftest[i].section, sec) &&
		    !strcmp(d->selftest[i].test, test) &&
		    !strcmp(d->selftest[i].variant, var)) {
			c = &d->selftest[i];
			break;
		}
	if (!c) {
		ALLOC_GROW(d->selftest, d->nr_selftest + 1, d->alloc_selftest);
		c = &d->selftest[d->nr_selftest++];
		memset(c, 0, sizeof(*c));
		c->section = xstrdup(sec);
		c->test = xstrdup(test);
		c->variant = xstrdup(var);
	}
	if (!c->result[side])
		c->result[side] = col_dup(s, 3);
}

static void report_row(struct diff *d, int side, sqlite3_stmt *s)
{
	const char *key = col_str(s, 0);
	struct diff_report *r = NULL;
	size_t i;

	for (i = 0; i < d->nr_reports; i++)
		if (!strcmp(d->reports[i].dedup_key, key)) {
			r = &d->reports[i];
			break;
		}
	if (!r) {
		ALLOC_GROW(d->reports, d->nr_reports + 1, d->alloc_reports);
		r = &d->reports[d->nr_reports++];
		memset(r, 0, sizeof(*r));
		r->dedup_key = xstrdup(key);
		r->type = col_dup(s, 1);
		r->title = col_dup(s, 2);
	}
	r->count[side] += (unsigned int)sqlite3_column_int64(s, 3);
}

static int load_boot(struct diff *d, int side)
{
	struct diff_boot *b = &d->boot[side];
	int ret;

	if (each_row(d, side, "SELECT label, kernel_release, build_id,"
		     " completeness FROM boots WHERE id = ?1", boot_row))
		return -1;
	if (!b->completeness)
		return error("no boot %lld in '%s'", (long long)b->id, b->db);
	ret = store_workload_load(b->st, b->id, &b->workload);
	b->has_workload = ret > 0;
	return ret < 0 ? -1 : 0;
}

int diff_load_tables(struct diff *d)
{
	static const char *const stats_sql =
		"SELECT name, value, max FROM stats WHERE boot_id = ?1"
		" ORDER BY idx";
	static const char *const selftest_sql =
		"SELECT section, test, variant, result FROM selftest"
		" WHERE boot_id = ?1 ORDER BY idx";
	static const char *const reports_sql =
		"SELECT dedup_key, type, title, count(*) FROM reports"
		" WHERE boot_id = ?1 GROUP BY dedup_key ORDER BY min(seq)";
	struct diff_boot *a = &d->boot[DIFF_A];
	int64_t last = a->id;
	size_t i;
	int side, ret = 0;

	if (load_boot(d, DIFF_A) || load_boot(d, DIFF_B))
		return -1;
	/* B first: its order and its limits are the ones shown */
	for (side = DIFF_B; side >= DIFF_A; side--)
		if (each_row(d, side, stats_sql, stat_row) ||
		    each_row(d, side, selftest_sql, selftest_row))
			return -1;
	/* a report of any baseline boot is not new */
	if (each_row(d, DIFF_B, reports_sql, report_row))
		return -1;
	for (i = 0; i < d->nr_base && !ret; i++) {
		a->id = d->base_ids[i];
		ret = each_row(d, DIFF_A, reports_sql, report_row);
	}
	a->id = last;
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
