// SPDX-License-Identifier: GPL-2.0
/*
 * The merge of another database's boots (store-merge.h): ATTACH it, then
 * one INSERT ... SELECT per table with each id column shifted by its
 * table's offset; boots already present are copied with the rest and
 * deleted again before the commit (ON DELETE CASCADE), which keeps every
 * table's copy one plain statement.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store/dep-pack.h"
#include "store/schema.h"
#include "store/store-int.h"
#include "store/store-merge.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* A table whose INTEGER PRIMARY KEY is renumbered, and by how much. */
struct renumbered {
	char *table, *column;
	long long offset;
};

struct merge {
	struct store *st;
	const char *path;
	struct renumbered *ren;
	size_t nr_ren, alloc_ren;
};

static int merge_fail(struct merge *m, const char *what)
{
	return error("unable to merge '%s' into '%s': %s: %s", m->path,
		     store_path(m->st), what, sqlite3_errmsg(m->st->db));
}

static int exec(struct merge *m, const char *sql, const char *what)
{
	if (sqlite3_exec(m->st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return merge_fail(m, what);
	return 0;
}

/* One integer from @sql (no parameters); -1 after an error. */
static int query_ll(struct merge *m, const char *sql, long long *v)
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

/*
 * Tables with a rowid alias of their own: shift the source's ids past
 * ours. A rowid alias that is a foreign key (selftest_summary.boot_id)
 * is its parent's id, shifted as that is (column_offset()).
 */
static int find_renumbered(struct merge *m)
{
	struct strbuf sql = STRBUF_INIT;
	struct renumbered *r;
	sqlite3_stmt *s;
	long long hi, lo;
	size_t i;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(m->st->db,
			       "SELECT t.name, c.name FROM main.sqlite_schema t,"
			       " pragma_table_info(t.name, 'main') c"
			       " WHERE t.type = 'table' AND t.name NOT LIKE 'sqlite_%'"
			       " AND c.pk = 1 AND upper(c.type) = 'INTEGER'"
			       " AND t.sql NOT LIKE '%WITHOUT ROWID%'"
			       " AND (SELECT count(*) FROM pragma_table_info(t.name, 'main')"
			       " WHERE pk > 0) = 1"
			       /* a key that names a boot moves with the boot */
			       " AND c.name NOT IN (SELECT \"from\""
			       " FROM pragma_foreign_key_list(t.name, 'main'))",
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

static const struct renumbered *renumbered(const struct merge *m,
					   const char *table,
					   const char *column)
{
	size_t i;

	for (i = 0; i < m->nr_ren; i++)
		if (!strcmp(m->ren[i].table, table) &&
		    !strcmp(m->ren[i].column, column))
			return &m->ren[i];
	return NULL;
}

/*
 * The offset of @table.@column: its table's if it is a renumbered key,
 * else that of the column its foreign key refers to (followed through
 * composite keys: trace_frames.boot_id -> traces.boot_id -> boots.id).
 */
static int column_offset(struct merge *m, const char *table,
			 const char *column, int depth, long long *off)
{
	const struct renumbered *r = renumbered(m, table, column);
	sqlite3_stmt *s;
	char *parent = NULL, *to = NULL;
	int rc, ret = 0;

	*off = 0;
	if (r) {
		*off = r->offset;
		return 0;
	}
	if (depth > 8)
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
		ret = column_offset(m, parent, to ? to : "id", depth + 1, off);
	free(parent);
	free(to);
	return ret;
}

/* INSERT INTO main.T SELECT (each column shifted) FROM src.T */
static int copy_table(struct merge *m, const char *table)
{
	struct strbuf cols = STRBUF_INIT, sel = STRBUF_INIT, sql = STRBUF_INIT;
	sqlite3_stmt *s;
	long long off;
	const char *c;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(m->st->db,
			       "SELECT name FROM pragma_table_info(?1, 'main')"
			       " ORDER BY cid", -1, &s, NULL))
		return merge_fail(m, "unable to read the schema");
	sqlite3_bind_text(s, 1, table, -1, SQLITE_STATIC);
	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		c = (const char *)sqlite3_column_text(s, 0);
		ret = column_offset(m, table, c, 0, &off);
		strbuf_addf(&cols, "%s\"%s\"", cols.len ? ", " : "", c);
		if (sel.len)
			strbuf_addstr(&sel, ", ");
		if (!strcmp(table, "boots") && !strcmp(c, "uuid"))
			/* a copy of a boot we hold: deleted before the commit */
			strbuf_addstr(&sel, "iif(id IN (SELECT id FROM temp.merge_dup),"
				      " NULL, lower(uuid))");
		else if (off)
			strbuf_addf(&sel, "\"%s\" + %lld", c, off);
		else
			strbuf_addf(&sel, "\"%s\"", c);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = merge_fail(m, "unable to read the schema");
	sqlite3_finalize(s);
	if (!ret) {
		strbuf_addf(&sql, "INSERT INTO main.\"%s\" (%s) SELECT %s FROM src.\"%s\"",
			    table, cols.buf, sel.buf, table);
		if (sqlite3_exec(m->st->db, sql.buf, NULL, NULL, NULL) != SQLITE_OK) {
			strbuf_reset(&cols);
			strbuf_addf(&cols, "unable to copy table %s", table);
			ret = merge_fail(m, cols.buf);
		}
	}
	strbuf_release(&cols);
	strbuf_release(&sel);
	strbuf_release(&sql);
	return ret;
}

static int copy_tables(struct merge *m)
{
	sqlite3_stmt *s;
	char **tables = NULL;
	size_t nr = 0, alloc = 0, i;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(m->st->db,
			       "SELECT name FROM main.sqlite_schema WHERE type = 'table'"
			       " AND name NOT LIKE 'sqlite_%'"
			       /* a pack names its boot's class ids: written anew */
			       " AND name <> 'dependency_packs'"
			       " ORDER BY name = 'boots' DESC, name",
			       -1, &s, NULL))
		return merge_fail(m, "unable to read the schema");
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ALLOC_GROW(tables, nr + 1, alloc);
		tables[nr++] = xstrdup((const char *)sqlite3_column_text(s, 0));
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		ret = merge_fail(m, "unable to read the schema");
	for (i = 0; i < nr; i++) {
		if (!ret)
			ret = copy_table(m, tables[i]);
		free(tables[i]);
	}
	free(tables);
	return ret;
}

/*
 * The source's boots not to copy, into temp.merge_dup: those whose uuid
 * (compared as lowercase hex, as the writers store it) @st holds or an
 * earlier boot of the source has, and those without one. A uuid held by
 * a boot that is not this one (another collection time, label, source
 * or kernel) is a claim, and a boot without a uuid has no identity that
 * would keep a second merge from copying it again: both are named and
 * counted as refused.
 */
static int find_dups(struct merge *m, struct store_merge_result *r)
{
	sqlite3_stmt *s;
	int rc;

	if (exec(m, "CREATE TEMP TABLE merge_dup AS"
		 " SELECT d.*, (SELECT count(*) FROM main.boots b"
		 "  WHERE b.id = d.held AND b.collected_at IS d.collected_at"
		 "  AND b.label IS d.label AND b.source IS d.source"
		 "  AND b.build_id IS d.build_id) AS same"
		 " FROM (SELECT s.id, s.uuid, s.collected_at, s.label, s.source,"
		 "  s.build_id, (SELECT min(b.id) FROM main.boots b"
		 "   WHERE lower(b.uuid) = lower(s.uuid)) AS held,"
		 "  (SELECT min(o.id) FROM src.boots o WHERE o.id < s.id"
		 "   AND lower(o.uuid) = lower(s.uuid)) AS twin"
		 "  FROM src.boots s) d"
		 " WHERE d.uuid IS NULL OR trim(d.uuid) = '' OR d.held IS NOT NULL"
		 " OR d.twin IS NOT NULL", "unable to read"))
		return -1;
	if (sqlite3_prepare_v2(m->st->db, "SELECT id, uuid, held, twin,"
			       " uuid IS NULL OR trim(uuid) = ''"
			       " FROM temp.merge_dup WHERE NOT same ORDER BY id",
			       -1, &s, NULL))
		return merge_fail(m, "unable to read");
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		r->refused++;
		if (sqlite3_column_int(s, 4))
			warning("'%s': boot %lld has no uuid, so no identity that would keep another merge from adding it again: refused",
				m->path, sqlite3_column_int64(s, 0));
		else if (sqlite3_column_type(s, 3) != SQLITE_NULL)
			warning("'%s': boot %lld claims the uuid of the source's boot %lld: refused",
				m->path, sqlite3_column_int64(s, 0),
				sqlite3_column_int64(s, 3));
		else
			warning("'%s': boot %lld claims the uuid of boot %lld of '%s', another boot: refused",
				m->path, sqlite3_column_int64(s, 0),
				sqlite3_column_int64(s, 2), store_path(m->st));
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return merge_fail(m, "unable to read");
	return 0;
}

static int merge_locked(struct merge *m, struct store_merge_result *r)
{
	struct strbuf sql = STRBUF_INIT;
	const struct renumbered *b;
	long long v, last;
	int ret;

	if (find_dups(m, r) || query_ll(m, "SELECT count(*) FROM src.boots", &v))
		return -1;
	r->boots = (size_t)v;
	if (query_ll(m, "SELECT count(*) FROM temp.merge_dup", &v))
		return -1;
	r->added = r->boots - (size_t)v;
	if (!r->added)
		return 0;	/* every boot is here: nothing to copy */
	if (query_ll(m, "SELECT coalesce(max(id), 0) FROM main.boots", &last) ||
	    find_renumbered(m) || copy_tables(m))
		return -1;
	b = renumbered(m, "boots", "id");
	if (!b)
		return error("'%s': no boots table", store_path(m->st));
	strbuf_addf(&sql, "DELETE FROM main.boots WHERE id IN"
		    " (SELECT id + %lld FROM temp.merge_dup)", b->offset);
	/* a row naming a row the source lacks fails the COMMIT (deferred) */
	ret = exec(m, sql.buf, "unable to drop the boots already held");
	strbuf_release(&sql);
	/* the copied boots' packs, from their rows under their new ids */
	if (!ret)
		ret = store_pack_missing(m->st, last);
	return ret;
}

/*
 * ATTACH @path read-only, without locks where store_open() found it
 * needs none (a source in a directory we may not write: no -shm file).
 */
static int attach(struct merge *m, bool immutable)
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

int store_merge(struct store *st, const char *path,
		struct store_merge_result *r)
{
	struct merge m = { .st = st, .path = path };
	struct stat sb, db;
	struct store *src;
	long long v;
	size_t i;
	bool immutable;
	int ret;

	memset(r, 0, sizeof(*r));
	if (st->boot_id || st->read_only)
		return error("unable to merge into '%s': %s", store_path(st),
			     st->read_only ? "opened read-only" : "a boot is open");
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

	if (attach(&m, immutable))
		return -1;
	ret = query_ll(&m, "PRAGMA src.user_version", &v);
	if (!ret && v != store_nr_migrations)
		ret = error("unable to merge '%s': schema version %lld changed under us",
			    path, v);
	/*
	 * A merge is repeatable (guarantee 1): a crash may lose its last
	 * transactions, never corrupt the database (WAL), so it need not
	 * wait for the disk at each source's commit.
	 */
	if (!ret)
		ret = exec(&m, "PRAGMA synchronous = NORMAL", "unable to configure");
	if (!ret)
		ret = exec(&m, "BEGIN IMMEDIATE", "unable to lock");
	if (!ret) {
		/* the copy inserts children before their parents' checks */
		ret = exec(&m, "PRAGMA defer_foreign_keys = ON", "unable to configure");
		if (!ret)
			ret = merge_locked(&m, r);
		sqlite3_exec(st->db, "DROP TABLE IF EXISTS temp.merge_dup", NULL, NULL, NULL);
		if (!ret)
			ret = exec(&m, "COMMIT", "unable to commit");
		if (ret)
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	}
	sqlite3_exec(st->db, "DETACH DATABASE src", NULL, NULL, NULL);
	for (i = 0; i < m.nr_ren; i++) {
		free(m.ren[i].table);
		free(m.ren[i].column);
	}
	free(m.ren);
	if (ret)
		memset(r, 0, sizeof(*r));
	return ret ? -1 : 0;
}
