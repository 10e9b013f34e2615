// SPDX-License-Identifier: GPL-2.0
/* The export's rows that fill lockdep's tables (store-capacity.h). */
#include <stdlib.h>
#include <string.h>

#include "store/store-capacity.h"
#include "store/store-int.h"

static int export_row(sqlite3_stmt *s, void *data)
{
	*(bool *)data = sqlite3_column_int(s, 0) != 0;
	return 1;
}

int store_capacity_export(struct store *st, int64_t boot, bool *complete)
{
	*complete = false;
	return store_each_row(st, "SELECT complete FROM graph_exports"
			" WHERE boot_id = ?1", boot, export_row, complete);
}

/* The caller's row function and its data. */
struct rows {
	union {
		int (*cls)(const struct store_cap_class *c, void *data);
		int (*chain)(const struct store_cap_chain_class *c, void *data);
		int (*trace)(const struct store_cap_trace *t, void *data);
		int (*growth)(const struct store_cap_growth *g, void *data);
		int (*snapshot)(const struct store_cap_snapshot *s, void *data);
		int (*sample)(const struct store_cap_sample *s, void *data);
	} fn;
	void *data;
};

static int class_row(sqlite3_stmt *s, void *data)
{
	struct rows *r = data;
	struct store_cap_class c = {
		.id = sqlite3_column_int64(s, 0),
		.name = store_col_text(s, 1),
		.key_symbol = store_col_text(s, 2),
		.site = store_col_text(s, 3),
		.deps = (unsigned long long)sqlite3_column_int64(s, 4),
	};

	if (!c.name)
		c.name = "";
	return r->fn.cls(&c, r->data);
}

/*
 * A class's site is the trace of its USED bit (its first acquisition),
 * else of its first usage bit with a trace. Its list entries are its
 * dependencies on either side that the export gave (dep_bits set: the
 * rows /proc/lockdep alone gave have none); dependencies_to and the
 * primary key make both counts index ranges.
 */
int store_capacity_classes(struct store *st, int64_t boot,
			   int (*fn)(const struct store_cap_class *c,
				     void *data),
			   void *data)
{
	struct rows r = { .fn.cls = fn, .data = data };

	return store_each_row(st,
		"SELECT c.id, c.name, c.key_symbol,"
		" (SELECT t.site FROM class_usage u JOIN traces t"
		"  ON t.boot_id = c.boot_id AND t.id = u.trace_id"
		"  WHERE u.class_id = c.id"
		"  ORDER BY u.name <> 'USED', u.bit LIMIT 1),"
		" (SELECT count(*) FROM dependencies d WHERE d.from_class = c.id"
		"  AND d.dep_bits IS NOT NULL)"
		" + (SELECT count(*) FROM dependencies d WHERE d.to_class = c.id"
		"  AND d.dep_bits IS NOT NULL)"
		" FROM classes c WHERE c.boot_id = ?1 AND c.graph_idx IS NOT NULL"
		" ORDER BY c.graph_idx", boot, class_row, &r);
}

static int chain_row(sqlite3_stmt *s, void *data)
{
	struct rows *r = data;
	struct store_cap_chain_class c = {
		.chain = (unsigned long long)sqlite3_column_int64(s, 0),
		.depth = (unsigned int)sqlite3_column_int(s, 1),
		.pos = (unsigned int)sqlite3_column_int(s, 2),
		.class_id = sqlite3_column_int64(s, 3),
	};

	return r->fn.chain(&c, r->data);
}

int store_capacity_chains(struct store *st, int64_t boot,
			  int (*fn)(const struct store_cap_chain_class *c,
				    void *data),
			  void *data)
{
	struct rows r = { .fn.chain = fn, .data = data };

	return store_each_row(st,
		"SELECT h.idx, h.depth, g.pos, g.class_id FROM graph_chains h"
		" JOIN graph_chain_classes g ON g.boot_id = h.boot_id"
		" AND g.chain_idx = h.idx WHERE h.boot_id = ?1"
		" ORDER BY h.idx, g.pos", boot, chain_row, &r);
}

static int trace_row(sqlite3_stmt *s, void *data)
{
	struct rows *r = data;
	struct store_cap_trace t = {
		.id = (unsigned long long)sqlite3_column_int64(s, 0),
		.nr = (unsigned int)sqlite3_column_int(s, 1),
		.site = store_col_text(s, 2),
		.class_id = sqlite3_column_int64(s, 3),
		.refs = (unsigned int)sqlite3_column_int(s, 4),
	};

	return r->fn.trace(&t, r->data);
}

/* The referrers grouped once (no index on trace_id: one pass each). */
int store_capacity_traces(struct store *st, int64_t boot,
			  int (*fn)(const struct store_cap_trace *t,
				    void *data),
			  void *data)
{
	struct rows r = { .fn.trace = fn, .data = data };

	return store_each_row(st,
		"WITH refs AS (SELECT trace_id, to_class AS cls FROM dependencies"
		"  WHERE boot_id = ?1 AND trace_id IS NOT NULL"
		" UNION ALL SELECT u.trace_id, u.class_id FROM class_usage u"
		"  JOIN classes c ON c.id = u.class_id"
		"  WHERE c.boot_id = ?1 AND u.trace_id IS NOT NULL),"
		" byid AS (SELECT trace_id, min(cls) AS cls, count(*) AS n"
		"  FROM refs GROUP BY trace_id)"
		" SELECT t.id, t.nr, t.site, coalesce(b.cls, 0), coalesce(b.n, 0)"
		" FROM traces t LEFT JOIN byid b ON b.trace_id = t.id"
		" WHERE t.boot_id = ?1 ORDER BY t.id", boot, trace_row, &r);
}

static int growth_row(sqlite3_stmt *s, void *data)
{
	struct rows *r = data;
	struct store_cap_growth g = {
		.name = store_col_text(s, 0),
		.first = (unsigned long long)sqlite3_column_int64(s, 1),
		.last = (unsigned long long)sqlite3_column_int64(s, 2),
		.first_ms = sqlite3_column_int64(s, 3),
		.last_ms = sqlite3_column_int64(s, 4),
		.samples = (unsigned int)sqlite3_column_int(s, 5),
	};

	if (!g.name)
		return 0;
	return r->fn.growth(&g, r->data);
}

int store_capacity_growth(struct store *st, int64_t boot,
			  int (*fn)(const struct store_cap_growth *g,
				    void *data),
			  void *data)
{
	struct rows r = { .fn.growth = fn, .data = data };

	return store_each_row(st,
		"WITH b AS (SELECT min(idx) AS f, max(idx) AS l, count(*) AS n"
		"  FROM stats_samples WHERE boot_id = ?1 AND kind = 'periodic'"
		"  AND idx < coalesce((SELECT min(idx) FROM stats_samples"
		"   WHERE boot_id = ?1 AND kind = 'snapshot'), 1 << 62))"
		" SELECT v1.name, v1.value, v2.value, s1.time_ms, s2.time_ms, b.n"
		" FROM b JOIN stats_samples s1 ON s1.boot_id = ?1 AND s1.idx = b.f"
		" JOIN stats_samples s2 ON s2.boot_id = ?1 AND s2.idx = b.l"
		" JOIN stats_sample_values v1 ON v1.boot_id = ?1"
		"  AND v1.sample_idx = b.f"
		" JOIN stats_sample_values v2 ON v2.boot_id = ?1"
		"  AND v2.sample_idx = b.l AND v2.name = v1.name"
		" WHERE b.n >= 2 ORDER BY v1.idx", boot, growth_row, &r);
}

static int snapshot_row(sqlite3_stmt *s, void *data)
{
	struct rows *r = data;
	struct store_cap_snapshot n = {
		.time_ms = sqlite3_column_int64(s, 0),
		.report_id = sqlite3_column_int64(s, 1),
		.title = store_col_text(s, 2),
		.name = store_col_text(s, 3),
		.value = (unsigned long long)sqlite3_column_int64(s, 4),
		.max = (unsigned long long)sqlite3_column_int64(s, 5),
		.has_max = sqlite3_column_type(s, 5) != SQLITE_NULL,
	};

	if (!n.name)
		return 0;
	return r->fn.snapshot(&n, r->data);
}

int store_capacity_snapshot(struct store *st, int64_t boot,
			    int (*fn)(const struct store_cap_snapshot *s,
				      void *data),
			    void *data)
{
	struct rows r = { .fn.snapshot = fn, .data = data };

	return store_each_row(st,
		"WITH f AS (SELECT idx, time_ms, report_id FROM stats_samples"
		"  WHERE boot_id = ?1 AND kind = 'snapshot' ORDER BY idx LIMIT 1)"
		" SELECT f.time_ms, coalesce(f.report_id, 0), r.title, v.name,"
		" v.value, v.max FROM f"
		" JOIN stats_sample_values v ON v.boot_id = ?1 AND v.sample_idx = f.idx"
		" LEFT JOIN reports r ON r.id = f.report_id ORDER BY v.idx",
		boot, snapshot_row, &r);
}

static int sample_row(sqlite3_stmt *s, void *data)
{
	struct rows *r = data;
	struct store_cap_sample n = {
		.idx = sqlite3_column_int64(s, 0),
		.time_ms = sqlite3_column_int64(s, 1),
		.snapshot = sqlite3_column_int(s, 2) != 0,
		.has_kmsg_seq = sqlite3_column_type(s, 3) != SQLITE_NULL,
		.kmsg_seq = sqlite3_column_int64(s, 3),
		.name = store_col_text(s, 4),
		.value = (unsigned long long)sqlite3_column_int64(s, 5),
	};

	if (!n.name)
		return 0;
	return r->fn.sample(&n, r->data);
}

int store_capacity_samples(struct store *st, int64_t boot,
			   int (*fn)(const struct store_cap_sample *s,
				     void *data),
			   void *data)
{
	struct rows r = { .fn.sample = fn, .data = data };

	return store_each_row(st,
		"SELECT s.idx, s.time_ms, s.kind = 'snapshot', s.kmsg_seq,"
		" v.name, v.value FROM stats_samples s"
		" JOIN stats_sample_values v ON v.boot_id = ?1"
		"  AND v.sample_idx = s.idx"
		" WHERE s.boot_id = ?1 ORDER BY s.idx, v.idx",
		boot, sample_row, &r);
}

struct config_query {
	const char *name;
	long long *value;
};

static int config_row(sqlite3_stmt *s, void *data)
{
	struct config_query *q = data;
	const char *text = store_col_text(s, 0);
	size_t len = strlen(q->name);
	const char *p;
	char *end;

	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, "CONFIG_", 7) || strncmp(p + 7, q->name, len) ||
		    p[7 + len] != '=')
			continue;
		*q->value = strtoll(p + 8 + len, &end, 10);
		if (end != p + 8 + len && (*end == '\n' || !*end))
			return 1;
		return 0;	/* not a number: as if absent */
	}
	return 0;
}

int store_capacity_config(struct store *st, int64_t boot, const char *name,
			  long long *value)
{
	struct config_query q = { .name = name, .value = value };

	return store_each_row(st, "SELECT config FROM boots WHERE id = ?1"
			" AND config IS NOT NULL", boot, config_row, &q);
}
