// SPDX-License-Identifier: GPL-2.0
/*
 * The merge of other databases' boots (store-merge.h). The schema is
 * read once per merger: which tables have a renumbered key, and which
 * column of each copied table holds such a key (following the foreign
 * keys). Each source is then ATTACHed and copied in one transaction:
 *
 *   the boots to copy (new, with a uuid)   -> temp.merge_copy_0
 *   each renumbered table's rows of them    -> temp.merge_copy_N
 *   INSERT INTO main.T SELECT (keys shifted) FROM src.T
 *       WHERE every key column names a row being copied
 *
 * one set-based statement per table, never a lookup per row. A row that
 * names a row of no boot of the source (boot_id 0, a boot deleted
 * without its rows) would otherwise be shifted onto a row the database
 * already holds: it is skipped, and counted per table in a warning.
 *
 * Foreign keys are off for the copy: a key of one column naming a
 * renumbered key is kept by the filter above (the ids of its set are the
 * rows copied with it), which is the lookup SQLite's check would repeat
 * for each row; the other keys (several columns: a trace's frames) are
 * checked by one query each on the source (read_fks(), check_fks()).
 *
 * The dependency_packs triggers stay off for the copy (a connection's
 * setting: the schema and its cookie are untouched): it inserts only
 * rows of boots it adds, whose packs it writes itself before the commit,
 * so no pack it did not write can go stale. The union of the boots
 * (store-union.h) is kept in the same transaction, after the copy: the
 * boots it adds join it, set-based, in time proportional to them.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store/dep-pack.h"
#include "store/schema.h"
#include "store/store-int.h"
#include "store/store-merge.h"
#include "store/store-union.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * A uuid in the one form compared and stored: dashes and blanks
 * dropped, lowercase. Valid when that is 32 hex digits.
 */
#define CANON_UUID(x) "lower(replace(replace(replace(replace(replace(" x \
	", '-', ''), ' ', ''), char(9), ''), char(10), ''), char(13), ''))"
#define VALID_UUID(u) "(length(" u ") = 32 AND " u " NOT GLOB '*[^0-9a-f]*')"

/* A table whose INTEGER PRIMARY KEY is renumbered, and by how much. */
struct renumbered {
	char *table, *column;
	long long offset;
	bool built;		/* its temp sets exist (for this source) */
};

/* A copied column, and the renumbered key it holds (or -1). */
struct column {
	char *name;
	int ren;
};

/*
 * A foreign key of a copied table that the copy's filters do not keep
 * (read_fks()): the query counting the rows being copied that break it.
 */
struct fk_check {
	char *parent, *sql;
};

struct table {
	char *name;
	struct column *cols;
	size_t nr, alloc;
	struct fk_check *fks;
	size_t nr_fks, alloc_fks;
};

struct store_merger {
	struct store *st;
	long long cookie;	/* main's schema cookie the tables are of */
	struct renumbered *ren;
	size_t nr_ren, alloc_ren;
	struct table *tables;
	size_t nr_tables, alloc_tables;
	const char *path;	/* the source being merged */
	struct store_union *u;	/* the union, between sources */
};

static int merge_fail(struct store_merger *m, const char *what)
{
	return error("unable to merge '%s' into '%s': %s: %s", m->path,
		     store_path(m->st), what, sqlite3_errmsg(m->st->db));
}

static int exec(struct store_merger *m, const char *sql, const char *what)
{
	if (sqlite3_exec(m->st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return merge_fail(m, what);
	return 0;
}

/* One integer from @sql (no parameters); -1 after an error. */
static int query_ll(struct store_merger *m, const char *sql, long long *v)
{
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(m->st->db, sql, -1, &s, NULL))
		return merge_fail(m, "unable to read");
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return merge_fail(m, "unable to read");
	return 0;
}

/* ---- the schema, read once per merger ---- */

static void forget_schema(struct store_merger *m)
{
	size_t i, j;

	for (i = 0; i < m->nr_ren; i++) {
		free(m->ren[i].table);
		free(m->ren[i].column);
	}
	for (i = 0; i < m->nr_tables; i++) {
		for (j = 0; j < m->tables[i].nr; j++)
			free(m->tables[i].cols[j].name);
		for (j = 0; j < m->tables[i].nr_fks; j++) {
			free(m->tables[i].fks[j].parent);
			free(m->tables[i].fks[j].sql);
		}
		free(m->tables[i].fks);
		free(m->tables[i].cols);
		free(m->tables[i].name);
	}
	m->nr_ren = m->nr_tables = 0;
}

/*
 * Tables with a rowid alias of their own, boots first: the source's ids
 * are shifted past ours. A rowid alias that is a foreign key
 * (selftest_summary.boot_id) is its parent's id, shifted as that is
 * (resolve()).
 */
static int find_renumbered(struct store_merger *m)
{
	struct renumbered *r;
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(m->st->db,
			       "SELECT t.name, c.name FROM main.sqlite_schema t,"
			       " pragma_table_info(t.name, 'main') c"
			       " WHERE t.type = 'table' AND t.name NOT LIKE 'sqlite_%'"
			       /* the union is not copied (read_schema()) */
			       " AND t.name NOT LIKE 'union\\_%' ESCAPE '\\'"
			       " AND c.pk = 1 AND upper(c.type) = 'INTEGER'"
			       " AND t.sql NOT LIKE '%WITHOUT ROWID%'"
			       " AND (SELECT count(*) FROM pragma_table_info(t.name, 'main')"
			       " WHERE pk > 0) = 1"
			       /* a key that names a boot moves with the boot */
			       " AND c.name NOT IN (SELECT \"from\""
			       " FROM pragma_foreign_key_list(t.name, 'main'))"
			       " ORDER BY t.name = 'boots' DESC, t.name",
			       -1, &s, NULL))
		return merge_fail(m, "unable to read the schema");
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ALLOC_GROW(m->ren, m->nr_ren + 1, m->alloc_ren);
		r = &m->ren[m->nr_ren++];
		r->table = xstrdup((const char *)sqlite3_column_text(s, 0));
		r->column = xstrdup((const char *)sqlite3_column_text(s, 1));
		r->offset = 0;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return merge_fail(m, "unable to read the schema");
	if (!m->nr_ren || strcmp(m->ren[0].table, "boots"))
		return error("'%s': no boots table", store_path(m->st));
	return 0;
}

static int renumbered(const struct store_merger *m, const char *table,
		      const char *column)
{
	size_t i;

	for (i = 0; i < m->nr_ren; i++)
		if (!strcmp(m->ren[i].table, table) &&
		    !strcmp(m->ren[i].column, column))
			return (int)i;
	return -1;
}

/*
 * The renumbered key @table.@column holds into *@ren (-1: none): its own
 * table's if it is one, else that of the column its foreign key refers
 * to (followed through composite keys: trace_frames.boot_id ->
 * traces.boot_id -> boots.id).
 */
static int resolve(struct store_merger *m, const char *table,
		   const char *column, int depth, int *ren)
{
	sqlite3_stmt *s;
	char *parent = NULL, *to = NULL;
	int rc, ret = 0;

	*ren = renumbered(m, table, column);
	if (*ren >= 0 || depth > 8)
		return 0;
	if (sqlite3_prepare_v2(m->st->db,
			       "SELECT \"table\", \"to\" FROM pragma_foreign_key_list(?1, 'main')"
			       " WHERE \"from\" = ?2", -1, &s, NULL))
		return merge_fail(m, "unable to read the schema");
	sqlite3_bind_text(s, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, column, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		parent = xstrdup((const char *)sqlite3_column_text(s, 0));
		/* a NULL "to": the parent's primary key */
		to = sqlite3_column_type(s, 1) == SQLITE_NULL ? NULL :
		     xstrdup((const char *)sqlite3_column_text(s, 1));
	} else if (rc != SQLITE_DONE) {
		ret = merge_fail(m, "unable to read the schema");
	}
	sqlite3_finalize(s);
	if (parent)
		ret = resolve(m, parent, to ? to : "id", depth + 1, ren);
	free(parent);
	free(to);
	return ret;
}

static int read_columns(struct store_merger *m, struct table *t)
{
	struct column *c;
	sqlite3_stmt *s;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(m->st->db,
			       "SELECT name FROM pragma_table_info(?1, 'main')"
			       " ORDER BY cid", -1, &s, NULL))
		return merge_fail(m, "unable to read the schema");
	sqlite3_bind_text(s, 1, t->name, -1, SQLITE_STATIC);
	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		ALLOC_GROW(t->cols, t->nr + 1, t->alloc);
		c = &t->cols[t->nr++];
		c->name = xstrdup((const char *)sqlite3_column_text(s, 0));
		ret = resolve(m, t->name, c->name, 0, &c->ren);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = merge_fail(m, "unable to read the schema");
	sqlite3_finalize(s);
	return ret;
}

static const struct table *table_named(const struct store_merger *m,
				       const char *name)
{
	size_t i;

	for (i = 0; i < m->nr_tables; i++)
		if (!strcmp(m->tables[i].name, name))
			return &m->tables[i];
	return NULL;
}

static void add_filter(struct strbuf *sb, const struct table *t,
		       const char *as, const char *set, int skip);

/*
 * The check of @t's foreign key to @parent, of the @nr columns @from
 * naming its columns @to: the rows being copied whose key (none of its
 * columns NULL) names no row of @parent being copied.
 */
static void add_fk(struct store_merger *m, struct table *t, const char *parent,
		   char **from, char **to, size_t nr)
{
	static const struct table none;
	const struct table *p = table_named(m, parent);
	struct strbuf sql = STRBUF_INIT;
	struct fk_check *k;
	size_t i;

	strbuf_addf(&sql, "SELECT count(*) FROM src.\"%s\" c WHERE (", t->name);
	add_filter(&sql, t, "c.", "copy", -1);
	strbuf_addch(&sql, ')');
	for (i = 0; i < nr; i++)
		strbuf_addf(&sql, " AND c.\"%s\" IS NOT NULL", from[i]);
	strbuf_addf(&sql, " AND NOT EXISTS (SELECT 1 FROM src.\"%s\" p WHERE ",
		    parent);
	for (i = 0; i < nr; i++)
		strbuf_addf(&sql, "p.\"%s\" = c.\"%s\" AND ", to[i], from[i]);
	strbuf_addch(&sql, '(');
	add_filter(&sql, p ? p : &none, "p.", "copy", -1);
	strbuf_addstr(&sql, "))");
	ALLOC_GROW(t->fks, t->nr_fks + 1, t->alloc_fks);
	k = &t->fks[t->nr_fks++];
	k->parent = xstrdup(parent);
	k->sql = strbuf_detach(&sql, NULL);
}

/*
 * The foreign keys of @t the copy's filters do not keep. The copy runs
 * with foreign keys off: a filter keeps a key of one column that names a
 * renumbered table's own key (its set holds the ids of the parent rows
 * copied with it), and any other (several columns, or a column that is
 * not renumbered) is checked by a query (check_fks()).
 */
static int read_fks(struct store_merger *m, struct table *t)
{
	char **from = NULL, **to = NULL, *parent = NULL;
	size_t nr = 0, alloc_from = 0, alloc_to = 0, i;
	long long id = -1;
	sqlite3_stmt *s;
	int rc;

	/* an omitted "to" names the parent's primary key, in its order */
	if (sqlite3_prepare_v2(m->st->db,
			       "SELECT f.id, f.\"table\", f.\"from\", coalesce(f.\"to\","
			       " (SELECT name FROM pragma_table_info(f.\"table\", 'main')"
			       "  WHERE pk = f.seq + 1))"
			       " FROM pragma_foreign_key_list(?1, 'main') f"
			       " ORDER BY f.id, f.seq", -1, &s, NULL))
		return merge_fail(m, "unable to read the schema");
	sqlite3_bind_text(s, 1, t->name, -1, SQLITE_STATIC);
	do {
		rc = sqlite3_step(s);
		/* a key ends where the next begins, or at the last row */
		if (nr && (rc != SQLITE_ROW || sqlite3_column_int64(s, 0) != id)) {
			if (nr > 1 || renumbered(m, parent, to[0]) < 0)
				add_fk(m, t, parent, from, to, nr);
			for (i = 0; i < nr; i++) {
				free(from[i]);
				free(to[i]);
			}
			free(parent);
			parent = NULL;
			nr = 0;
		}
		if (rc != SQLITE_ROW)
			break;
		id = sqlite3_column_int64(s, 0);
		if (!parent)
			parent = xstrdup((const char *)sqlite3_column_text(s, 1));
		ALLOC_GROW(from, nr + 1, alloc_from);
		ALLOC_GROW(to, nr + 1, alloc_to);
		from[nr] = xstrdup((const char *)sqlite3_column_text(s, 2));
		/* no such column: SQLite's error when the check is run */
		to[nr++] = xstrdup(sqlite3_column_text(s, 3) ?
				   (const char *)sqlite3_column_text(s, 3) : "");
	} while (true);
	sqlite3_finalize(s);
	free(from);
	free(to);
	if (rc != SQLITE_DONE)
		return merge_fail(m, "unable to read the schema");
	return 0;
}

static int read_schema(struct store_merger *m)
{
	struct table *t;
	sqlite3_stmt *s;
	size_t i;
	int rc, ret;

	forget_schema(m);
	ret = query_ll(m, "PRAGMA main.schema_version", &m->cookie);
	if (!ret)
		ret = find_renumbered(m);
	if (ret)
		return ret;
	if (sqlite3_prepare_v2(m->st->db,
			       "SELECT name FROM main.sqlite_schema WHERE type = 'table'"
			       " AND name NOT LIKE 'sqlite_%'"
			       /* a pack names its boot's class ids: written anew */
			       " AND name <> 'dependency_packs'"
			       /* the union is ours, kept after the copy */
			       " AND name NOT LIKE 'union\\_%' ESCAPE '\\'"
			       " ORDER BY name = 'boots' DESC, name",
			       -1, &s, NULL))
		return merge_fail(m, "unable to read the schema");
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ALLOC_GROW(m->tables, m->nr_tables + 1, m->alloc_tables);
		t = &m->tables[m->nr_tables++];
		memset(t, 0, sizeof(*t));
		t->name = xstrdup((const char *)sqlite3_column_text(s, 0));
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return merge_fail(m, "unable to read the schema");
	for (i = 0; i < m->nr_tables && !ret; i++)
		ret = read_columns(m, &m->tables[i]);
	/* the filters (add_filter()) need every table's key columns */
	for (i = 0; i < m->nr_tables && !ret; i++)
		ret = read_fks(m, &m->tables[i]);
	return ret;
}

/* ---- one source ---- */

/*
 * The condition that each key column of @t (of alias @as: "" or "c.")
 * names a row of the set @set ("copy": being copied, "all": of any boot
 * of the source), or is NULL; @skip a column left out (a renumbered
 * table's own key, while its set is built). "1" for a table with no key
 * column.
 */
static void add_filter(struct strbuf *sb, const struct table *t,
		       const char *as, const char *set, int skip)
{
	size_t i, n = 0;

	for (i = 0; i < t->nr; i++) {
		if (t->cols[i].ren < 0 || (int)i == skip)
			continue;
		strbuf_addf(sb, "%s(%s\"%s\" IS NULL OR %s\"%s\" IN temp.merge_%s_%d)",
			    n++ ? " AND " : "", as, t->cols[i].name, as,
			    t->cols[i].name, set, t->cols[i].ren);
	}
	if (!n)
		strbuf_addstr(sb, "1");
}

/*
 * temp.merge_@set_N for each renumbered table N: the boots' ids from
 * @boots, then each table's keys whose rows name rows of those sets,
 * parents before children. The tables are the merger's, emptied for
 * each source: created once, they do not change the schema (and
 * expire every statement) at each source.
 */
static int build_sets(struct store_merger *m, const char *set,
		      const char *boots)
{
	struct strbuf sql = STRBUF_INIT;
	const struct table *t;
	size_t i, j, left = m->nr_ren, pass;
	bool ready;
	int ret = 0;

	for (i = 0; i < m->nr_ren; i++)
		m->ren[i].built = false;
	for (pass = 0; left && pass <= m->nr_ren && !ret; pass++) {
		for (i = 0; i < m->nr_ren && !ret; i++) {
			if (m->ren[i].built)
				continue;
			t = table_named(m, m->ren[i].table);
			ready = true;
			for (j = 0; t && j < t->nr; j++)
				if (t->cols[j].ren >= 0 && t->cols[j].ren != (int)i &&
				    !m->ren[t->cols[j].ren].built)
					ready = false;
			if (!t || !ready)
				continue;
			strbuf_reset(&sql);
			strbuf_addf(&sql, "CREATE TEMP TABLE IF NOT EXISTS merge_%s_%zu"
				    " (id INTEGER PRIMARY KEY); DELETE FROM temp.merge_%s_%zu;"
				    " INSERT INTO temp.merge_%s_%zu ", set, i, set, i, set, i);
			if (!i) {
				strbuf_addstr(&sql, boots);
			} else {
				strbuf_addf(&sql, "SELECT \"%s\" FROM src.\"%s\" WHERE ",
					    m->ren[i].column, t->name);
				for (j = 0; j < t->nr && strcmp(t->cols[j].name, m->ren[i].column); j++)
					;
				add_filter(&sql, t, "", set, (int)j);
			}
			ret = exec(m, sql.buf, "unable to read the source's rows");
			m->ren[i].built = true;
			left--;
		}
	}
	strbuf_release(&sql);
	if (!ret && left)
		ret = error("unable to merge '%s' into '%s': its schema's renumbered keys refer to each other in a circle",
			    m->path, store_path(m->st));
	return ret;
}

static void drop_sets(struct store_merger *m)
{
	struct strbuf sql = STRBUF_INIT;
	size_t i;

	for (i = 0; i < m->nr_ren; i++)
		strbuf_addf(&sql, "DROP TABLE IF EXISTS temp.merge_copy_%zu;"
			    " DROP TABLE IF EXISTS temp.merge_all_%zu;", i, i);
	strbuf_addstr(&sql, "DROP TABLE IF EXISTS temp.merge_dup");
	sqlite3_exec(m->st->db, sql.buf, NULL, NULL, NULL);
	strbuf_release(&sql);
}

/*
 * The source's boots not to copy, into temp.merge_dup (the merger's, as
 * build_sets()' tables): those whose uuid
 * (in its one form, CANON_UUID) @st holds or an earlier boot of the
 * source has, and those without one of 32 hex digits. A uuid held by a
 * boot that is not this one (another collection time, label, source or
 * kernel) is a claim, and a boot without a uuid has no identity that
 * would keep a second merge from copying it again: both are named and
 * counted as refused.
 */
static int find_dups(struct store_merger *m, struct store_merge_result *r)
{
	sqlite3_stmt *s;
	long long id;
	int rc;

	if (exec(m, "CREATE TEMP TABLE IF NOT EXISTS merge_dup (id, uuid, u,"
		 " collected_at, label, source, build_id, first, held, twin, same);"
		 " DELETE FROM temp.merge_dup; INSERT INTO temp.merge_dup"
		 " SELECT d.*, (SELECT count(*) FROM main.boots b"
		 "  WHERE b.id = d.held AND b.collected_at IS d.collected_at"
		 "  AND b.label IS d.label AND b.source IS d.source"
		 "  AND b.build_id IS d.build_id) AS same"
		 " FROM (SELECT v.*, (SELECT min(b.id) FROM main.boots b"
		 /* as stored by the writers, or by a merge before the one form */
		 "   WHERE b.uuid IN (v.u, lower(v.uuid))) AS held,"
		 "  iif(v.first < v.id, v.first, NULL) AS twin"
		 "  FROM (SELECT w.*, min(w.id) OVER (PARTITION BY w.u) AS first"
		 "   FROM (SELECT id, uuid, " CANON_UUID("uuid") " AS u,"
		 "    collected_at, label, source, build_id FROM src.boots) w) v) d"
		 " WHERE d.u IS NULL OR NOT " VALID_UUID("d.u")
		 " OR d.held IS NOT NULL OR d.twin IS NOT NULL", "unable to read"))
		return -1;
	if (sqlite3_prepare_v2(m->st->db, "SELECT id, held, twin,"
			       " coalesce(u, '') = '', " VALID_UUID("u")
			       " FROM temp.merge_dup WHERE NOT same ORDER BY id",
			       -1, &s, NULL))
		return merge_fail(m, "unable to read");
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		r->refused++;
		id = sqlite3_column_int64(s, 0);
		if (sqlite3_column_int(s, 3))
			warning("'%s': boot %lld has no uuid, so no identity that would keep another merge from adding it again: refused",
				m->path, id);
		else if (!sqlite3_column_int(s, 4))
			warning("'%s': boot %lld has no uuid of 32 hexadecimal digits (dashes and blanks aside), so no identity that would keep another merge from adding it again: refused",
				m->path, id);
		else if (sqlite3_column_type(s, 2) != SQLITE_NULL)
			warning("'%s': boot %lld claims the uuid of the source's boot %lld: refused",
				m->path, id, sqlite3_column_int64(s, 2));
		else
			warning("'%s': boot %lld claims the uuid of boot %lld of '%s', another boot: refused",
				m->path, id, sqlite3_column_int64(s, 1),
				store_path(m->st));
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return merge_fail(m, "unable to read");
	return 0;
}

/* Each renumbered table's offset: the source's ids past ours. */
static int find_offsets(struct store_merger *m)
{
	struct strbuf sql = STRBUF_INIT;
	struct renumbered *r;
	long long hi, lo;
	size_t i;
	int ret = 0;

	for (i = 0; i < m->nr_ren && !ret; i++) {
		r = &m->ren[i];
		strbuf_reset(&sql);
		strbuf_addf(&sql, "SELECT coalesce(max(\"%s\"), 0) FROM main.\"%s\"",
			    r->column, r->table);
		ret = query_ll(m, sql.buf, &hi);
		strbuf_reset(&sql);
		strbuf_addf(&sql, "SELECT coalesce(min(\"%s\"), 1) FROM src.\"%s\"",
			    r->column, r->table);
		if (!ret)
			ret = query_ll(m, sql.buf, &lo);
		/* A source's ids are untrusted: no wrap past INT64_MAX. */
		if (!ret && (__builtin_sub_overflow(hi, lo, &r->offset) ||
			     __builtin_add_overflow(r->offset, 1, &r->offset)))
			ret = error("unable to merge '%s' into '%s': its %s.%s values (from %lld) do not fit after the %lld already there",
				    m->path, store_path(m->st), r->table,
				    r->column, lo, hi);
	}
	strbuf_release(&sql);
	return ret;
}

/*
 * INSERT INTO main.T SELECT (each key shifted) FROM src.T WHERE (each
 * key is being copied), for the @rows rows of src.T; then the rows that
 * name no boot of the source (@all: the sets of every boot's rows),
 * counted and said.
 */
static int copy_table(struct store_merger *m, const struct table *t,
		      long long rows, const char *all,
		      struct store_merge_result *r)
{
	struct strbuf cols = STRBUF_INIT, sel = STRBUF_INIT, sql = STRBUF_INIT;
	const struct column *c;
	long long orphans;
	size_t i;
	int ret = 0;

	if (!rows)
		return 0;
	for (i = 0; i < t->nr; i++) {
		c = &t->cols[i];
		strbuf_addf(&cols, "%s\"%s\"", i ? ", " : "", c->name);
		if (i)
			strbuf_addstr(&sel, ", ");
		if (!strcmp(t->name, "boots") && !strcmp(c->name, "uuid"))
			strbuf_addstr(&sel, CANON_UUID("uuid"));
		else if (c->ren >= 0 && m->ren[c->ren].offset)
			strbuf_addf(&sel, "\"%s\" + %lld", c->name,
				    m->ren[c->ren].offset);
		else
			strbuf_addf(&sel, "\"%s\"", c->name);
	}
	strbuf_addf(&sql, "INSERT INTO main.\"%s\" (%s) SELECT %s FROM src.\"%s\" WHERE ",
		    t->name, cols.buf, sel.buf, t->name);
	add_filter(&sql, t, "", "copy", -1);
	if (sqlite3_exec(m->st->db, sql.buf, NULL, NULL, NULL) != SQLITE_OK) {
		strbuf_reset(&cols);
		strbuf_addf(&cols, "unable to copy table %s", t->name);
		ret = merge_fail(m, cols.buf);
	}
	/* with every boot copied, a row not copied names none of them */
	orphans = rows - sqlite3_changes64(m->st->db);
	if (!ret && orphans && strcmp(all, "copy")) {
		strbuf_reset(&sql);
		strbuf_addf(&sql, "SELECT count(*) FROM src.\"%s\" WHERE NOT (",
			    t->name);
		add_filter(&sql, t, "", all, -1);
		strbuf_addch(&sql, ')');
		ret = query_ll(m, sql.buf, &orphans);
	}
	if (!ret && orphans) {
		r->skipped += (size_t)orphans;
		warning("'%s': %lld row%s of %s belong%s to no boot of the source (a boot_id 0, or of a boot deleted without them): skipped",
			m->path, orphans, orphans == 1 ? "" : "s", t->name,
			orphans == 1 ? "s" : "");
	}
	strbuf_release(&cols);
	strbuf_release(&sel);
	strbuf_release(&sql);
	return ret;
}

/*
 * The foreign keys of @t that the filters do not keep (read_fks()): 0,
 * or -1 after saying which rows break one (the source is not merged).
 */
static int check_fks(struct store_merger *m, const struct table *t)
{
	long long bad;
	size_t i;

	for (i = 0; i < t->nr_fks; i++) {
		if (query_ll(m, t->fks[i].sql, &bad))
			return -1;
		if (bad)
			return error("unable to merge '%s' into '%s': %lld row%s of %s name%s no row of %s",
				     m->path, store_path(m->st), bad,
				     bad == 1 ? "" : "s", t->name,
				     bad == 1 ? "s" : "", t->fks[i].parent);
	}
	return 0;
}

/* The source's rows per table, in one statement (a table with none is skipped). */
static int count_rows(struct store_merger *m, long long **rows)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *s;
	size_t i;
	int ret = 0;

	*rows = xcalloc(m->nr_tables, sizeof(**rows));
	strbuf_addstr(&sql, "SELECT 0");
	for (i = 0; i < m->nr_tables; i++)
		strbuf_addf(&sql, ", (SELECT count(*) FROM src.\"%s\")",
			    m->tables[i].name);
	if (sqlite3_prepare_v2(m->st->db, sql.buf, -1, &s, NULL))
		ret = merge_fail(m, "unable to read");
	else if (sqlite3_step(s) != SQLITE_ROW)
		ret = merge_fail(m, "unable to read");
	for (i = 0; !ret && i < m->nr_tables; i++)
		(*rows)[i] = sqlite3_column_int64(s, (int)i + 1);
	sqlite3_finalize(s);
	strbuf_release(&sql);
	return ret;
}

static int merge_locked(struct store_merger *m, struct store_merge_result *r)
{
	const char *all = "copy";
	long long v, last, *rows = NULL;
	size_t i;
	int ret;

	/* a migration by another writer since the schema was read */
	if (query_ll(m, "PRAGMA main.schema_version", &v))
		return -1;
	if (v != m->cookie && read_schema(m))
		return -1;
	if (find_dups(m, r) || query_ll(m, "SELECT count(*) FROM src.boots", &v))
		return -1;
	r->boots = (size_t)v;
	if (query_ll(m, "SELECT count(*) FROM temp.merge_dup", &v))
		return -1;
	r->added = r->boots - (size_t)v;
	if (query_ll(m, "SELECT coalesce(max(id), 0) FROM main.boots", &last) ||
	    find_offsets(m) ||
	    build_sets(m, "copy", "SELECT id FROM src.boots"
		       " WHERE id NOT IN (SELECT id FROM temp.merge_dup)"))
		return -1;
	/* the rows of the boots not copied are not orphans */
	if (v) {
		all = "all";
		if (build_sets(m, all, "SELECT id FROM src.boots"))
			return -1;
	}
	ret = count_rows(m, &rows);
	for (i = 0; i < m->nr_tables && !ret; i++)
		ret = copy_table(m, &m->tables[i], rows[i], all, r);
	for (i = 0; i < m->nr_tables && !ret; i++)
		if (rows[i])
			ret = check_fks(m, &m->tables[i]);
	free(rows);
	/*
	 * The union of every boot, the added ones joined to it, and their
	 * dependency packs from the same read of their rows; then the packs
	 * of those it did not join (no union kept, a row it cannot hold).
	 */
	if (!ret)
		ret = store_union_update(m->st, m->u);
	if (!ret && r->added)
		ret = store_pack_missing(m->st, last);
	return ret;
}

/*
 * ATTACH @path read-only, without locks where store_open() found it
 * needs none (a source in a directory we may not write: no -shm file).
 */
static int attach(struct store_merger *m, bool immutable)
{
	char *uri = store_uri(m->path, immutable ? "mode=ro&immutable=1" :
			      "mode=ro");
	sqlite3_stmt *s;
	int ret;

	if (sqlite3_prepare_v2(m->st->db, "ATTACH DATABASE ?1 AS src", -1, &s,
			       NULL)) {
		free(uri);
		return merge_fail(m, "unable to attach");
	}
	sqlite3_bind_text(s, 1, uri, -1, SQLITE_STATIC);
	ret = sqlite3_step(s) == SQLITE_DONE ? 0 : merge_fail(m, "unable to attach");
	sqlite3_finalize(s);
	free(uri);
	return ret;
}

static void triggers(struct store_merger *m, int on)
{
	sqlite3_db_config(m->st->db, SQLITE_DBCONFIG_ENABLE_TRIGGER, on, NULL);
}

struct store_merger *store_merger_new(struct store *st)
{
	struct store_merger *m;

	if (st->boot_id || st->read_only) {
		error("unable to merge into '%s': %s", store_path(st),
		      st->read_only ? "opened read-only" : "a boot is open");
		return NULL;
	}
	m = xcalloc(1, sizeof(*m));
	m->st = st;
	m->path = store_path(st);
	m->u = store_union_new();
	/*
	 * A merge is repeatable (guarantee 1): a crash may lose its last
	 * transactions, never corrupt the database (WAL), so it need not
	 * wait for the disk at each source's commit.
	 */
	if (exec(m, "PRAGMA synchronous = NORMAL", "unable to configure") ||
	    read_schema(m)) {
		store_merger_free(m);
		return NULL;
	}
	return m;
}

void store_merger_free(struct store_merger *m)
{
	if (!m)
		return;
	drop_sets(m);
	forget_schema(m);
	store_union_free(m->u);
	free(m->ren);
	free(m->tables);
	free(m);
}

int store_merge(struct store_merger *m, const char *path,
		struct store_merge_result *r)
{
	struct store *st = m->st;
	struct stat sb, db;
	struct store *src;
	long long v;
	bool immutable;
	int ret;

	memset(r, 0, sizeof(*r));
	m->path = path;
	/* ATTACH would create a missing file: say so instead */
	if (stat(path, &sb) || !S_ISREG(sb.st_mode))
		return error("unable to merge '%s': not a database file", path);
	/* else its read would wait for our own write lock, then fail */
	if (!stat(store_path(st), &db) && db.st_dev == sb.st_dev &&
	    db.st_ino == sb.st_ino)
		return error("unable to merge '%s' into '%s': it is that database itself",
			     path, store_path(st));
	/* a database of this schema version, or a clear error */
	src = store_open(path, STORE_READ_ONLY);
	if (!src)
		return -1;
	immutable = src->immutable;
	store_close(src);

	if (attach(m, immutable))
		return -1;
	ret = query_ll(m, "PRAGMA src.user_version", &v);
	if (!ret && v != store_nr_migrations)
		ret = error("unable to merge '%s': schema version %lld changed under us",
			    path, v);
	/*
	 * Foreign keys off for the copy (outside a transaction, as SQLite
	 * wants): the filters keep the keys they can, check_fks() the
	 * others, instead of a lookup per key of each row copied.
	 */
	if (!ret && !(ret = exec(m, "PRAGMA foreign_keys = OFF", "unable to configure"))) {
		ret = exec(m, "BEGIN IMMEDIATE", "unable to lock");
		triggers(m, 0);
		if (!ret)
			ret = merge_locked(m, r);
		triggers(m, 1);
		if (!ret)
			ret = exec(m, "COMMIT", "unable to commit");
		if (ret)
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		if (exec(m, "PRAGMA foreign_keys = ON", "unable to configure"))
			ret = -1;
	}
	sqlite3_exec(st->db, "DETACH DATABASE src", NULL, NULL, NULL);
	if (ret)
		memset(r, 0, sizeof(*r));
	return ret ? -1 : 0;
}
