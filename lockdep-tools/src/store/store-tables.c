// SPDX-License-Identifier: GPL-2.0
/* The small tables of a boot (store-tables.h). */
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"
#include "store/store-tables.h"

static const char *text(sqlite3_stmt *s, int i)
{
	const char *t = store_col_text(s, i);

	return t ? t : "";
}

static int boot_row(sqlite3_stmt *s, void *data)
{
	struct store_boot_info *b = data;

	b->label = store_col_strdup(s, 0);
	b->kernel_release = store_col_strdup(s, 1);
	b->build_id = store_col_strdup(s, 2);
	b->completeness = store_col_strdup(s, 3);
	return 1;
}

int store_boot_info(struct store *st, int64_t boot, struct store_boot_info *b)
{
	memset(b, 0, sizeof(*b));
	return store_each_row(st, "SELECT label, kernel_release, build_id,"
			" completeness FROM boots WHERE id = ?1", boot,
			boot_row, b);
}

void store_boot_info_release(struct store_boot_info *b)
{
	free(b->label);
	free(b->kernel_release);
	free(b->build_id);
	free(b->completeness);
	memset(b, 0, sizeof(*b));
}

/* The caller's row function and its data. */
struct rows {
	union {
		int (*stat)(const struct store_stat_row *r, void *data);
		int (*selftest)(const struct store_selftest_row *r, void *data);
		int (*report_key)(const struct store_report_key_row *r,
				  void *data);
	} fn;
	void *data;
};

static int stat_row(sqlite3_stmt *s, void *data)
{
	struct rows *r = data;
	struct store_stat_row row = {
		.name = text(s, 0),
		.value = (unsigned long long)sqlite3_column_int64(s, 1),
		.has_max = sqlite3_column_type(s, 2) != SQLITE_NULL,
		.max = (unsigned long long)sqlite3_column_int64(s, 2),
	};

	return r->fn.stat(&row, r->data);
}

int store_stat_foreach(struct store *st, int64_t boot,
		       int (*fn)(const struct store_stat_row *r, void *data),
		       void *data)
{
	struct rows r = { .fn.stat = fn, .data = data };

	return store_each_row(st, "SELECT name, value, max FROM stats"
			" WHERE boot_id = ?1 ORDER BY idx", boot, stat_row, &r);
}

static int selftest_row(sqlite3_stmt *s, void *data)
{
	struct rows *r = data;
	struct store_selftest_row row = {
		.section = text(s, 0),
		.test = text(s, 1),
		.variant = text(s, 2),
		.result = store_col_text(s, 3),
	};

	return r->fn.selftest(&row, r->data);
}

int store_selftest_foreach(struct store *st, int64_t boot,
			   int (*fn)(const struct store_selftest_row *r,
				     void *data),
			   void *data)
{
	struct rows r = { .fn.selftest = fn, .data = data };

	return store_each_row(st, "SELECT section, test, variant, result"
			" FROM selftest WHERE boot_id = ?1 ORDER BY idx",
			boot, selftest_row, &r);
}

static int report_key_row(sqlite3_stmt *s, void *data)
{
	struct rows *r = data;
	struct store_report_key_row row = {
		.dedup_key = text(s, 0),
		.type = store_col_text(s, 1),
		.title = store_col_text(s, 2),
		.count = (unsigned int)sqlite3_column_int64(s, 3),
	};

	return r->fn.report_key(&row, r->data);
}

int store_report_key_foreach(struct store *st, int64_t boot,
			     int (*fn)(const struct store_report_key_row *r,
				       void *data),
			     void *data)
{
	struct rows r = { .fn.report_key = fn, .data = data };

	return store_each_row(st, "SELECT dedup_key, type, title, count(*)"
			" FROM reports WHERE boot_id = ?1 GROUP BY dedup_key"
			" ORDER BY min(seq)", boot, report_key_row, &r);
}
