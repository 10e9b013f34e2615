// SPDX-License-Identifier: GPL-2.0
/*
 * The lock graph's queries (store-graph.h). The boot ids are integers
 * the caller parsed, printed into the statement's IN lists: one statement
 * per table whatever the number of boots.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "proto/allowlist.h"
#include "store/dep-pack.h"
#include "store/store-graph.h"
#include "store/store-int.h"
#include "util/strbuf.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/hindex.h"
#include "util/strset.h"
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

int store_graph_classes(struct store *st, const int64_t *boots, size_t nr,
			int (*fn)(const struct store_graph_class *c, void *data),
			void *data)
{
	struct strbuf name = STRBUF_INIT, identity = STRBUF_INIT;
	struct store_graph_class c;
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, ret = 0;

	/* a scan in row order beats the index on boot_id for most boots */
	s = prepare_in(st, "SELECT id, boot_id, name, key, identity, usage_bits"
		       " FROM classes NOT INDEXED WHERE boot_id IN %s",
		       boots, nr);
	if (!s)
		return -1;
	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		c.id = sqlite3_column_int64(s, 0);
		c.boot_id = sqlite3_column_int64(s, 1);
		c.name = store_col_name(s, 2, &name);
		c.key = store_col_text(s, 3);
		c.identity = store_col_name(s, 4, &identity);
		c.usage_bits = (unsigned int)sqlite3_column_int64(s, 5);
		if (!c.name)
			c.name = "";
		ret = fn(&c, data);
	}
	strbuf_release(&name);
	strbuf_release(&identity);
	return store_finish(st, s, rc, ret);
}

int store_graph_no_exports(struct store *st, const int64_t *boots, size_t nr,
			   int (*fn)(int64_t boot_id, bool no_lockdep,
				     void *data), void *data)
{
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, ret = 0;

	s = prepare_in(st, "SELECT f.boot_id, EXISTS (SELECT 1 FROM files l"
		       " WHERE l.boot_id = f.boot_id AND l.path = '/proc/lockdep'"
		       " AND l.status = 'missing') FROM files f WHERE f.boot_id IN %s"
		       /* the v2 series' name: a database of older tools */
		       " AND f.path IN ('" PROTO_GRAPH_PATH "', '"
		       PROTO_GRAPH_PATH_V2 "')"
		       " AND f.status = 'missing'", boots, nr);
	if (!s)
		return -1;
	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW)
		ret = fn(sqlite3_column_int64(s, 0),
			 sqlite3_column_int(s, 1) != 0, data);
	return store_finish(st, s, rc, ret);
}

int store_graph_boot_classes(struct store *st, int64_t boot,
			     int (*fn)(const struct store_graph_class *c,
				       void *data),
			     void *data)
{
	struct strbuf name = STRBUF_INIT;
	struct store_graph_class c = { .boot_id = boot };
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, ret = 0;

	if (sqlite3_prepare_v2(st->db, "SELECT id, name, usage_bits FROM classes"
			       " NOT INDEXED WHERE boot_id = ?1", -1, &s, NULL))
		return store_fail(st, "unable to read");
	sqlite3_bind_int64(s, 1, boot);
	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		c.id = sqlite3_column_int64(s, 0);
		c.name = store_col_name(s, 1, &name);
		c.usage_bits = (unsigned int)sqlite3_column_int64(s, 2);
		if (!c.name)
			c.name = "";
		ret = fn(&c, data);
	}
	strbuf_release(&name);
	return store_finish(st, s, rc, ret);
}

int store_graph_shared_identities(struct store *st, const int64_t *boots,
				  size_t nr,
				  int (*fn)(int64_t boot_id, const char *identity,
					    void *data),
				  void *data)
{
	struct strbuf identity = STRBUF_INIT, prev = STRBUF_INIT;
	sqlite3_stmt *s;
	const char *t;
	int64_t boot, prev_boot = 0;
	int n, rc = SQLITE_DONE, ret = 0;
	bool have = false, said = false;

	/*
	 * classes_identity (schema version 14) holds each boot's
	 * identities in order: a scan of its entries, no table row read,
	 * brings two classes of one identity next to each other. Compared
	 * here: SQLite's GROUP BY costs more per row than the scan.
	 */
	s = prepare_in(st, "SELECT boot_id, identity FROM classes"
		       " INDEXED BY classes_identity WHERE boot_id IN %s"
		       " ORDER BY boot_id, identity", boots, nr);
	if (!s)
		return -1;
	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		boot = sqlite3_column_int64(s, 0);
		t = store_col_text(s, 1);
		n = sqlite3_column_bytes(s, 1);
		if (!t) {
			have = false;	/* no identity: shared with none */
			continue;
		}
		if (have && boot == prev_boot && (size_t)n == prev.len &&
		    !memcmp(t, prev.buf, n)) {
			if (!said)
				ret = fn(boot, store_col_name(s, 1, &identity), data);
			said = true;
			continue;
		}
		strbuf_reset(&prev);
		strbuf_add(&prev, t, n);
		prev_boot = boot;
		have = true;
		said = false;
	}
	strbuf_release(&identity);
	strbuf_release(&prev);
	return store_finish(st, s, rc, ret);
}

/*
 * The sites of the boots' traces, by (boot, trace id): a few thousand
 * per boot, read once, so that the million dependencies need no join.
 */
struct trace_map {
	int64_t *keys;		/* boot, id pairs */
	uint32_t *sites;	/* into @strs */
	struct strset strs;
	size_t nr, alloc;
	struct hindex index;
};

static uint64_t trace_hash(int64_t boot, int64_t id)
{
	return u64_hash((uint64_t)boot ^ u64_hash((uint64_t)id));
}

static uint32_t trace_find(const struct trace_map *m, int64_t boot,
			   int64_t id)
{
	struct hindex_probe p;
	uint32_t i;

	for (i = hindex_first(&m->index, trace_hash(boot, id), &p);
	     i != HINDEX_NONE; i = hindex_next(&m->index, &p))
		if (m->keys[2 * i] == boot && m->keys[2 * i + 1] == id)
			break;
	return i;
}

static void trace_put(struct trace_map *m, int64_t boot, int64_t id,
		      const char *site)
{
	uint32_t i = trace_find(m, boot, id);

	if (i == HINDEX_NONE) {
		ALLOC_GROW(m->sites, m->nr + 1, m->alloc);
		m->keys = xrealloc(m->keys, 2 * m->alloc * sizeof(*m->keys));
		i = (uint32_t)m->nr++;
		m->keys[2 * i] = boot;
		m->keys[2 * i + 1] = id;
		hindex_add(&m->index, trace_hash(boot, id), i);
	}
	m->sites[i] = strset_add(&m->strs, site);
}

static const char *trace_get(const struct trace_map *m, int64_t boot,
			     int64_t id)
{
	uint32_t i = trace_find(m, boot, id);

	return i != HINDEX_NONE ? strset_str(&m->strs, m->sites[i]) : NULL;
}

static void trace_map_release(struct trace_map *m)
{
	free(m->keys);
	free(m->sites);
	strset_release(&m->strs);
	hindex_release(&m->index);
}

static int load_traces(struct store *st, const int64_t *boots, size_t nr,
		       struct trace_map *m)
{
	sqlite3_stmt *s;
	int rc;

	s = prepare_in(st, "SELECT boot_id, id, site FROM traces"
		       " WHERE boot_id IN %s AND site IS NOT NULL", boots, nr);
	if (!s)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		trace_put(m, sqlite3_column_int64(s, 0),
			  sqlite3_column_int64(s, 1), store_col_text(s, 2));
	return store_finish(st, s, rc, 0);
}

/* One boot's dependencies with their site from @traces, to @fn. */
struct dep_reader {
	const struct trace_map *traces;
	int (*fn)(const struct store_graph_dep *d, void *data);
	void *data;
	struct store_graph_dep d;
	int64_t base;
};

static int blob_read(void *ctx, unsigned char *buf, size_t n, size_t off)
{
	return sqlite3_blob_read(ctx, buf, (int)n, (int)off) ? -1 : 0;
}

static int pack_dep(const struct dep_pack_row *row, void *data)
{
	struct dep_reader *r = data;
	struct store_graph_dep *d = &r->d;

	d->from = r->base + row->from;
	d->to = r->base + row->to;
	d->dep_bits = row->dep_bits;
	d->distance = row->distance;
	d->trace = row->trace_id >= 0 && r->traces->nr ?
		   trace_get(r->traces, d->boot_id, row->trace_id) : NULL;
	return r->fn(d, r->data);
}

/*
 * The rows of a boot against its pack (ldt_pack_agrees(), an aggregate
 * over the rows in primary key order, the pack's order): each row must
 * be the pack's next one and the pack end with them. With two arguments
 * (from_class, to_class) only the ids are compared, with six every
 * field of the pack.
 */
struct pack_check {
	struct dep_pack_cursor c;
	int64_t lo;
	bool bad;
};

static bool is_int(sqlite3_value *v, int64_t want)
{
	return sqlite3_value_type(v) == SQLITE_INTEGER &&
	       sqlite3_value_int64(v) == want;
}

/* An optional field: NULL as the pack's -1 */
static bool is_opt(sqlite3_value *v, int64_t want)
{
	return want < 0 ? sqlite3_value_type(v) == SQLITE_NULL :
			  is_int(v, want);
}

static void pack_check_step(sqlite3_context *ctx, int argc,
			    sqlite3_value **argv)
{
	struct pack_check *k = ((struct store *)sqlite3_user_data(ctx))->pack_check;
	struct dep_pack_row row;

	if (!k) {
		sqlite3_result_error(ctx, "no pack to check", -1);
		return;
	}
	if (k->bad)
		return;
	k->bad = dep_pack_next(&k->c, &row) <= 0 ||
		 !is_int(argv[0], k->lo + row.from) ||
		 !is_int(argv[1], k->lo + row.to) ||
		 (argc > 2 && (!is_opt(argv[2], row.dep_bits) ||
			       !is_opt(argv[3], row.distance) ||
			       !is_opt(argv[4], row.trace_id) ||
			       sqlite3_value_type(argv[5]) != SQLITE_NULL));
}

static void pack_check_final(sqlite3_context *ctx)
{
	struct pack_check *k = ((struct store *)sqlite3_user_data(ctx))->pack_check;
	struct dep_pack_row row;

	sqlite3_result_int(ctx, k && !k->bad && !dep_pack_next(&k->c, &row));
}

int store_graph_functions(struct store *st)
{
	/* on the store, not a pack: made while no statement is active */
	if (sqlite3_create_function(st->db, "ldt_pack_agrees", 2, SQLITE_UTF8,
				    st, NULL, pack_check_step,
				    pack_check_final) ||
	    sqlite3_create_function(st->db, "ldt_pack_agrees", 6, SQLITE_UTF8,
				    st, NULL, pack_check_step,
				    pack_check_final))
		return store_fail(st, "unable to configure");
	return 0;
}

/*
 * Whether the pack @p of boot @boot is its rows: 1, 0, or -1 on an
 * SQLite error (src->unreadable set if the pack could not be read).
 * @ids_only: every row of the boot, through dependencies_boot (which
 * holds the ids: no row is read), against the pack's ids; else every
 * field of the rows in the pack's class range (the caller checked that
 * the boot has no others: the row count).
 */
static int pack_agrees(struct store *st, int64_t boot, const struct dep_pack *p,
		       struct dep_pack_src *src, bool ids_only)
{
	struct pack_check k = { .lo = p->lo };
	sqlite3_stmt *s = NULL;
	int ret = -1;

	dep_pack_cursor_init(&k.c, p, src);
	st->pack_check = &k;
	if (sqlite3_prepare_v2(st->db, ids_only ?
			       "SELECT ldt_pack_agrees(from_class, to_class)"
			       " FROM dependencies WHERE boot_id = ?1" :
			       "SELECT ldt_pack_agrees(from_class, to_class,"
			       " dep_bits, distance, trace_id, trace)"
			       " FROM dependencies WHERE from_class BETWEEN ?2"
			       /* the primary key's range, in its order */
			       " AND ?3 AND +boot_id = ?1", -1, &s, NULL))
		goto out;
	sqlite3_bind_int64(s, 1, boot);
	if (!ids_only) {
		sqlite3_bind_int64(s, 2, p->lo);
		sqlite3_bind_int64(s, 3, p->hi);
	}
	if (sqlite3_step(s) == SQLITE_ROW)
		ret = sqlite3_column_int(s, 0);
out:
	sqlite3_finalize(s);
	st->pack_check = NULL;	/* this stack frame's */
	return ret;
}

/*
 * Boot @boot's dependencies from its pack: 0, -1 or @fn's return (any
 * value). If it has no pack or a damaged one, *@rows is set and 0
 * returned: the caller reads its rows. A pack is a cache, never trusted
 * over the rows: nothing reaches @fn before its header was checked
 * against the boot's classes, the whole pack against its CRC, and the
 * pack against the rows. A pack stamped with the schema cookie of now
 * had the triggers watching its boot since it was written (schema.c's
 * version 11): its ids and row count are compared with the rows' (an
 * index scan: a pack written anew with a valid CRC and a row added,
 * dropped or changed is not read), its other fields are taken as the
 * rows'. Any other pack (a trigger was away) is compared field by field.
 */
static int read_pack(struct store *st, int64_t boot, struct dep_reader *r,
		     bool *rows)
{
	unsigned char *buf = NULL;
	sqlite3_blob *b = NULL;
	struct dep_pack_src src = { .read = blob_read, .chunk = DEP_PACK_CHUNK };
	sqlite3_stmt *s;
	struct dep_pack p;
	const char *why = NULL;
	int64_t v[4];
	int rc, ret = 0, fresh = 0, agrees;

	*rows = false;
	if (sqlite3_prepare_v2(st->db, "SELECT typeof(pack) = 'blob',"
			       " schema_version IS (SELECT schema_version"
			       " FROM main.pragma_schema_version)"
			       " FROM dependency_packs WHERE boot_id = ?1",
			       -1, &s, NULL))
		return store_fail(st, "unable to read");
	sqlite3_bind_int64(s, 1, boot);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		if (!sqlite3_column_int(s, 0))
			why = "not a blob";
		fresh = sqlite3_column_int(s, 1);
	}
	sqlite3_finalize(s);
	if (rc == SQLITE_DONE) {
		*rows = true;
		return 0;
	}
	if (rc != SQLITE_ROW)
		return store_fail(st, "unable to read");
	if (why)
		goto damaged;
	/*
	 * The boot as it is now, each count through an index
	 * (classes_boot_name, dependencies_boot; a fresh pack's row count
	 * comes with the comparison of its ids)
	 */
	if (store_query_boot(st, fresh ? "SELECT min(id), max(id), count(*)"
			     " FROM classes WHERE boot_id = ?1" :
			     "SELECT min(id), max(id), count(*),"
			     " (SELECT count(*) FROM dependencies"
			     " WHERE boot_id = ?1)"
			     " FROM classes WHERE boot_id = ?1", boot, v,
			     fresh ? 3 : 4))
		return store_fail(st, "unable to read");
	if (v[0] < 0) {
		why = "its boot has no classes";
		goto damaged;
	}
	if (sqlite3_blob_open(st->db, "main", "dependency_packs", "pack", boot,
			      0, &b)) {
		why = "unreadable";
		goto damaged;
	}
	src.ctx = b;
	src.len = (size_t)sqlite3_blob_bytes(b);
	src.buf = buf = xmalloc(src.chunk);
	why = dep_pack_header(&p, &src);
	/* the boot as it is now, not as it was packed: stale */
	if (!why && (p.lo != v[0] || p.hi != v[1] || p.classes != v[2] ||
		     (!fresh && p.nr != v[3])))
		why = "it does not match its boot's classes and dependencies";
	/* base + an offset fits: what the writer packs (dep_pack_ids_fit) */
	if (!why && !dep_pack_ids_fit(p.lo, p.hi))
		why = "its class ids are out of range";
	/* the whole blob only for a header that matches its boot */
	if (!why)
		why = dep_pack_check_crc(&p, &src);
	if (!why) {
		agrees = pack_agrees(st, boot, &p, &src, fresh);
		if (agrees < 0 && !src.unreadable)
			ret = store_fail(st, "unable to read");
		else if (agrees <= 0)
			why = src.unreadable ? "unreadable" :
			      "its rows are not its boot's dependencies";
	}
	if (!why && !ret) {
		r->d.boot_id = boot;
		r->base = p.lo;
		ret = dep_pack_each(&p, &src, pack_dep, r);
		if (src.unreadable)
			ret = store_fail(st, "unable to read");
	}
	sqlite3_blob_close(b);
	free(buf);
	if (!why || ret)
		return ret;
damaged:
	warning("'%s': the dependency pack of boot %" PRId64 " is damaged (%s); reading its rows instead",
		store_path(st), boot, why);
	*rows = true;
	return 0;
}

int store_graph_sizes(struct store *st, const int64_t *boots, size_t nr,
		      uint64_t *classes, uint64_t *deps)
{
	unsigned char buf[DEP_PACK_HEADER];
	struct dep_pack_src src = { .read = blob_read, .buf = buf,
				    .chunk = DEP_PACK_HEADER };
	struct dep_pack p;
	sqlite3_blob *b;
	sqlite3_stmt *s;
	int rc;

	*classes = *deps = 0;
	s = prepare_in(st, "SELECT boot_id FROM dependency_packs"
		       " WHERE boot_id IN %s AND typeof(pack) = 'blob'"
		       " AND schema_version IS (SELECT schema_version"
		       " FROM main.pragma_schema_version)", boots, nr);
	if (!s)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (sqlite3_blob_open(st->db, "main", "dependency_packs", "pack",
				      sqlite3_column_int64(s, 0), 0, &b))
			continue;	/* read_pack() will say why */
		src.ctx = b;
		src.len = (size_t)sqlite3_blob_bytes(b);
		/* the header checks nr against the blob's length */
		if (!dep_pack_header(&p, &src)) {
			*classes += p.classes;
			*deps += p.nr;
		}
		sqlite3_blob_close(b);
	}
	return store_finish(st, s, rc, 0);
}

static int deps_locked(struct store *st, const int64_t *boots, size_t nr,
		       int (*fn)(const struct store_graph_dep *d, void *data),
		       void *data)
{
	struct trace_map traces = { 0 };
	struct dep_reader r = { .traces = &traces, .fn = fn, .data = data };
	struct store_graph_dep d;
	int64_t *rest = xmalloc((nr ? nr : 1) * sizeof(*rest));
	sqlite3_stmt *s = NULL;
	size_t i, nr_rest = 0;
	int rc = SQLITE_DONE, ret;
	bool rows;

	ret = load_traces(st, boots, nr, &traces);
	/* the packed boots, then one statement for the others' rows */
	for (i = 0; i < nr && !ret; i++) {
		ret = read_pack(st, boots[i], &r, &rows);
		if (!ret && rows)
			rest[nr_rest++] = boots[i];
	}
	if (ret || !nr_rest)
		goto out;
	/*
	 * NULL as -1 in SQL: one call per column and row, not two; and
	 * the boot of a row asked only if there are several.
	 */
	s = prepare_in(st, "SELECT from_class, to_class, ifnull(dep_bits, -1),"
		       " ifnull(distance, -1), trace, trace_id, boot_id"
		       " FROM dependencies WHERE boot_id IN %s", rest, nr_rest);
	if (!s) {
		ret = -1;
		goto out;
	}
	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		d.boot_id = nr_rest == 1 ? rest[0] : sqlite3_column_int64(s, 6);
		d.from = sqlite3_column_int64(s, 0);
		d.to = sqlite3_column_int64(s, 1);
		d.dep_bits = sqlite3_column_int(s, 2);
		d.distance = sqlite3_column_int(s, 3);
		d.trace = store_col_text(s, 4);
		if (!d.trace && traces.nr &&
		    sqlite3_column_type(s, 5) != SQLITE_NULL)
			d.trace = trace_get(&traces, d.boot_id,
					    sqlite3_column_int64(s, 5));
		ret = fn(&d, data);
	}
	ret = store_finish(st, s, rc, ret);
out:
	free(rest);
	trace_map_release(&traces);
	return ret;
}

int store_graph_deps(struct store *st, const int64_t *boots, size_t nr,
		     int (*fn)(const struct store_graph_dep *d, void *data),
		     void *data)
{
	bool own = sqlite3_get_autocommit(st->db);
	int ret;

	/* packs, their checks and the rows all of one snapshot */
	if (own && sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL))
		return store_fail(st, "unable to read");
	ret = deps_locked(st, boots, nr, fn, data);
	if (own && sqlite3_exec(st->db, ret ? "ROLLBACK" : "COMMIT", NULL,
				NULL, NULL) && !ret)
		ret = store_fail(st, "unable to read");
	return ret;
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
		l = store_col_text(s, 1);
		*label = l ? xstrdup(l) : NULL;
		ret = 1;
		rc = SQLITE_DONE;
	}
	return store_finish(st, s, rc, ret);
}

int store_graph_chain_pairs(struct store *st, const int64_t *boots, size_t nr,
			    int (*fn)(int64_t from, int64_t to, uint64_t chains,
				      void *data),
			    void *data)
{
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, ret = 0;

	/* every class of a chain is held when each later one is taken */
	s = prepare_in(st, "SELECT a.class_id, b.class_id, count(*)"
		       " FROM chains c JOIN chain_classes a ON a.chain_id = c.id"
		       " JOIN chain_classes b ON b.chain_id = c.id"
		       " AND b.idx > a.idx"
		       " WHERE c.boot_id IN %s AND a.class_id IS NOT NULL"
		       " AND b.class_id IS NOT NULL"
		       " GROUP BY a.class_id, b.class_id", boots, nr);
	if (!s)
		return -1;
	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW)
		ret = fn(sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1),
			 (uint64_t)sqlite3_column_int64(s, 2), data);
	return store_finish(st, s, rc, ret);
}

/* ---- what the explorer shows beside the graph ---- */

/* Is there a table or view @name (a database older than it has none)? */
static int has_schema(struct store *st, const char *name)
{
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(st->db, "SELECT 1 FROM sqlite_master"
			       " WHERE name = ?1", -1, &s, NULL))
		return store_fail(st, "unable to read");
	sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(st, "unable to read");
	return rc == SQLITE_ROW;
}

static int64_t col_int_or(sqlite3_stmt *s, int i, int64_t none)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? none :
	       sqlite3_column_int64(s, i);
}

/*
 * dependency_first_seen's answer (lockdep-db(5)), computed another way:
 * the view's plan reads every event of the boot for each dependency
 * (seconds for a workload boot), where the last zap of each class and
 * one pass over the dependency events take milliseconds. An event counts
 * if neither of its classes was zapped after it.
 */
static const char first_seen_sql[] =
	"WITH zap AS (SELECT boot_id AS b, class_idx AS ci, max(seq) AS s"
	" FROM dependency_events WHERE boot_id IN %s AND kind = 'class_zapped'"
	" GROUP BY boot_id, class_idx),"
	" fs AS (SELECT e.boot_id AS b, e.class_idx AS ci, e.to_idx AS ti,"
	" min(e.time_us) AS us FROM dependency_events e"
	" LEFT JOIN zap z1 ON z1.b = e.boot_id AND z1.ci = e.class_idx"
	" LEFT JOIN zap z2 ON z2.b = e.boot_id AND z2.ci = e.to_idx"
	" WHERE e.boot_id IN %s AND e.kind = 'dependency'"
	" AND e.seq > ifnull(z1.s, -1) AND e.seq > ifnull(z2.s, -1)"
	" GROUP BY e.boot_id, e.class_idx, e.to_idx)"
	" SELECT d.boot_id, f.name, t.name, d.trace_id, fs.us"
	" FROM dependencies d JOIN classes f ON f.id = d.from_class"
	" JOIN classes t ON t.id = d.to_class"
	" LEFT JOIN fs ON fs.b = d.boot_id AND fs.ci = f.graph_idx"
	" AND fs.ti = t.graph_idx WHERE d.boot_id IN %s";

int store_graph_dep_infos(struct store *st, const int64_t *boots, size_t nr,
			  int (*fn)(const struct store_graph_dep_info *d,
				    void *data),
			  void *data)
{
	struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
	struct store_graph_dep_info d;
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, ret = 0, events;

	events = has_schema(st, "dependency_events");
	if (events < 0)
		return -1;
	s = prepare_in(st, events ? first_seen_sql :
		       "SELECT d.boot_id, f.name, t.name, d.trace_id, NULL"
		       " FROM dependencies d JOIN classes f ON f.id = d.from_class"
		       " JOIN classes t ON t.id = d.to_class"
		       " WHERE d.boot_id IN %s", boots, nr);
	if (!s)
		return -1;
	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		d.boot_id = sqlite3_column_int64(s, 0);
		d.from = store_col_name(s, 1, &from);
		d.to = store_col_name(s, 2, &to);
		d.trace_id = col_int_or(s, 3, -1);
		d.first_us = col_int_or(s, 4, -1);
		ret = fn(&d, data);
	}
	strbuf_release(&from);
	strbuf_release(&to);
	return store_finish(st, s, rc, ret);
}

int store_graph_frames(struct store *st, const int64_t *boots, size_t nr,
		       int (*fn)(const struct store_graph_frame *f, void *data),
		       void *data)
{
	struct store_graph_frame f;
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, ret = 0;

	s = prepare_in(st, "SELECT boot_id, trace_id, addr, func, off, size,"
		       " file, line FROM trace_frames WHERE boot_id IN %s"
		       " ORDER BY boot_id, trace_id, idx", boots, nr);
	if (!s)
		return -1;
	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		f.boot_id = sqlite3_column_int64(s, 0);
		f.trace_id = sqlite3_column_int64(s, 1);
		f.addr = store_col_text(s, 2);
		f.func = store_col_text(s, 3);
		f.off = col_int_or(s, 4, -1);
		f.size = col_int_or(s, 5, -1);
		f.file = store_col_text(s, 6);
		f.line = col_int_or(s, 7, -1);
		if (!f.addr)
			f.addr = "";
		ret = fn(&f, data);
	}
	return store_finish(st, s, rc, ret);
}

int store_graph_report_locks(struct store *st, const int64_t *boots,
			     size_t nr,
			     int (*fn)(const struct store_graph_report_lock *l,
				       void *data),
			     void *data)
{
	struct store_graph_report_lock l;
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, ret = 0;

	s = prepare_in(st, "SELECT r.id, r.boot_id, r.type, r.title, l.name"
		       " FROM reports r LEFT JOIN report_locks l"
		       " ON l.report_id = r.id AND l.role <> 'held'"
		       " WHERE r.boot_id IN %s ORDER BY r.id, l.idx", boots, nr);
	if (!s)
		return -1;
	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		l.report_id = sqlite3_column_int64(s, 0);
		l.boot_id = sqlite3_column_int64(s, 1);
		l.type = store_col_text(s, 2);
		l.title = store_col_text(s, 3);
		l.name = store_col_text(s, 4);
		ret = fn(&l, data);
	}
	return store_finish(st, s, rc, ret);
}
