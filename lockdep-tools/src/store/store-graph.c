// SPDX-License-Identifier: GPL-2.0
/*
 * The lock graph's queries (store-graph.h). The boot ids are integers
 * the caller parsed, printed into the statement's IN lists: one statement
 * per table whatever the number of boots.
 */
#include <inttypes.h>

#include "store/store-graph.h"
#include "store/store-int.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* @fmt with each "%s" replaced by the IN list of @boots */
static sqlite3_stmt *prepare_in(struct store *st, const char *fmt,
				const int64_t *boots, size_t nr)
{
	struct strbuf sql = STRBUF_INIT, list = STRBUF_INIT;
	sqlite3_stmt *s = NULL;
	const char *p;
	size_t i;

	strbuf_addch(&list, '(');
	for (i = 0; i < nr; i++)
		strbuf_addf(&list, "%s%" PRId64, i ? ", " : "", boots[i]);
	strbuf_addch(&list, ')');
	for (p = fmt; *p; p++) {
		if (p[0] == '%' && p[1] == 's') {
			strbuf_addstr(&sql, list.buf);
			p++;
		} else {
			strbuf_addch(&sql, *p);
		}
	}
	if (sqlite3_prepare_v2(st->db, sql.buf, -1, &s, NULL)) {
		store_fail(st, "unable to read");
		s = NULL;
	}
	strbuf_release(&sql);
	strbuf_release(&list);
	return s;
}

static const char *col_text(sqlite3_stmt *s, int i)
{
	return (const char *)sqlite3_column_text(s, i);
}

static int col_int(sqlite3_stmt *s, int i)
{
	if (sqlite3_column_type(s, i) == SQLITE_NULL)
		return -1;
	return sqlite3_column_int(s, i);
}

static int finish(struct store *st, sqlite3_stmt *s, int rc, int ret)
{
	sqlite3_finalize(s);
	if (!ret && rc != SQLITE_DONE)
		return store_fail(st, "unable to read");
	return ret;
}

int store_graph_classes(struct store *st, const int64_t *boots, size_t nr,
			int (*fn)(const struct store_graph_class *c, void *data),
			void *data)
{
	struct store_graph_class c;
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, ret = 0;

	/* the identities shared by classes of a boot, grouped on the index */
	s = prepare_in(st, "SELECT c.id, c.boot_id, c.name, c.key, c.identity,"
		       " c.usage_bits, coalesce(d.n, 1) FROM classes c"
		       " LEFT JOIN (SELECT boot_id AS b, identity AS i,"
		       " count(*) AS n FROM classes WHERE boot_id IN %s"
		       " GROUP BY boot_id, identity HAVING count(*) > 1) d"
		       " ON d.b = c.boot_id AND d.i = c.identity"
		       " WHERE c.boot_id IN %s", boots, nr);
	if (!s)
		return -1;
	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		c.id = sqlite3_column_int64(s, 0);
		c.boot_id = sqlite3_column_int64(s, 1);
		c.name = col_text(s, 2);
		c.key = col_text(s, 3);
		c.identity = col_text(s, 4);
		c.usage_bits = (unsigned int)sqlite3_column_int64(s, 5);
		c.identity_classes = (unsigned long)sqlite3_column_int64(s, 6);
		if (!c.name)
			c.name = "";
		ret = fn(&c, data);
	}
	return finish(st, s, rc, ret);
}

int store_graph_deps(struct store *st, const int64_t *boots, size_t nr,
		     int (*fn)(const struct store_graph_dep *d, void *data),
		     void *data)
{
	struct store_graph_dep d;
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, ret = 0;

	/* the site of the dependency's trace in the graph export */
	s = prepare_in(st, "SELECT d.boot_id, d.from_class, d.to_class,"
		       " d.dep_bits, d.distance, coalesce(d.trace, t.site)"
		       " FROM dependencies d LEFT JOIN traces t"
		       " ON t.boot_id = d.boot_id AND t.id = d.trace_id"
		       " WHERE d.boot_id IN %s", boots, nr);
	if (!s)
		return -1;
	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		d.boot_id = sqlite3_column_int64(s, 0);
		d.from = sqlite3_column_int64(s, 1);
		d.to = sqlite3_column_int64(s, 2);
		d.dep_bits = col_int(s, 3);
		d.distance = col_int(s, 4);
		d.trace = col_text(s, 5);
		ret = fn(&d, data);
	}
	return finish(st, s, rc, ret);
}

int store_graph_report_boot(struct store *st, int64_t report_id,
			    int64_t *boot_id, char **label)
{
	sqlite3_stmt *s;
	const char *l;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(st->db, "SELECT r.boot_id, b.label FROM reports r"
			       " JOIN boots b ON b.id = r.boot_id WHERE r.id = ?",
			       -1, &s, NULL))
		return store_fail(st, "unable to read");
	sqlite3_bind_int64(s, 1, report_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*boot_id = sqlite3_column_int64(s, 0);
		l = col_text(s, 1);
		*label = l ? xstrdup(l) : NULL;
		ret = 1;
		rc = SQLITE_DONE;
	}
	return finish(st, s, rc, ret);
}
