// SPDX-License-Identifier: GPL-2.0
/*
 * The union of the boots, kept by the merge (store-union.h; invariants
 * U1 to U5 at schema.c's version 15).
 *
 * Writing: a boot joins the union in five set-based statements, never a
 * lookup per row from here: its identities held twice join
 * union_ambiguous; its classes are upserted into union_classes (a new
 * identity or an own node a new row, a known identity its usage ORed and
 * its count of boots bumped); temp.union_map maps its class ids to union
 * ids; its dependencies are upserted into union_deps; their union ids,
 * sorted, are its pack. Boots join in id order, so that a node's first
 * class and an edge's first site are those of the first boot, as the
 * graph read from the rows has them.
 *
 * A pack: the number of pairs, then each (from_id, to_id) pair in
 * ascending order as LEB128 varints: from_id minus the previous pair's,
 * then to_id itself, or, when from_id is the previous one's, to_id
 * minus the previous to_id minus 1 (the pairs are distinct).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"
#include "store/store-union.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- packs ---- */

static void put_varint(struct strbuf *sb, uint64_t v)
{
	do {
		strbuf_addch(sb, (char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0)));
		v >>= 7;
	} while (v);
}

/* The varint at *@p before @end into *@v: 0, or -1 if there is none. */
static int get_varint(const unsigned char **p, const unsigned char *end,
		      uint64_t *v)
{
	unsigned int shift = 0;

	*v = 0;
	while (*p < end && shift < 64) {
		*v |= (uint64_t)(**p & 0x7f) << shift;
		if (!(*(*p)++ & 0x80))
			return 0;
		shift += 7;
	}
	return -1;
}

/* ---- writing ---- */

enum {
	U_SPLITS,	/* an identity it holds twice that is one node now */
	U_AMBIGUOUS,
	U_CLASSES,
	U_MAP_CLEAR,
	U_MAP,
	U_DEPS,
	U_PAIRS,
	U_COUNT,
	U_PACK,
	U_NR
};

static const char *const union_sql[U_NR] = {
	[U_SPLITS] =
		"SELECT EXISTS (SELECT 1 FROM classes c WHERE c.boot_id = ?1"
		" AND c.identity IN (SELECT identity FROM union_classes)"
		" AND c.identity NOT IN (SELECT identity FROM union_ambiguous)"
		" GROUP BY c.identity HAVING count(*) > 1)",
	[U_AMBIGUOUS] =
		"INSERT OR IGNORE INTO union_ambiguous SELECT identity"
		" FROM classes WHERE boot_id = ?1 AND identity IS NOT NULL"
		" GROUP BY identity HAVING count(*) > 1",
	/* NULL name or usage: what the rows' reader makes of them */
	[U_CLASSES] =
		"INSERT INTO union_classes (identity, class_id, name,"
		" usage_bits, boots, first_class)"
		" SELECT iif(own, NULL, identity), iif(own, id, NULL),"
		" ifnull(name, ''), ifnull(usage_bits, 0), 1, id FROM"
		" (SELECT id, identity, name, usage_bits, identity IS NULL"
		"  OR identity IN (SELECT identity FROM union_ambiguous) AS own"
		"  FROM classes WHERE boot_id = ?1)"
		" WHERE 1 ORDER BY id"
		" ON CONFLICT (identity) DO UPDATE SET"
		" usage_bits = usage_bits | excluded.usage_bits,"
		" boots = boots + 1",
	[U_MAP_CLEAR] = "DELETE FROM temp.union_map",
	[U_MAP] =
		"INSERT INTO temp.union_map SELECT c.id, ifnull("
		" (SELECT u.id FROM union_classes u WHERE u.class_id = c.id),"
		" (SELECT u.id FROM union_classes u WHERE u.identity = c.identity))"
		" FROM classes c WHERE c.boot_id = ?1",
	/*
	 * What the graph makes of a row (graph_add_edge()): dep_bits and
	 * distance as ints, the bits' low four, the distance at most
	 * INT16_MAX; negative ones unknown. The site is the row's trace,
	 * else its trace's site.
	 */
	[U_DEPS] =
		"INSERT INTO union_deps (from_id, to_id, dep_bits, distance,"
		" site, site_boot)"
		" SELECT f.uid, t.uid,"
		" iif(d.dep_bits BETWEEN 0 AND 2147483647, d.dep_bits & 15, NULL),"
		" iif(d.distance BETWEEN 0 AND 2147483647, min(d.distance, 32767), NULL),"
		" coalesce(d.trace, tr.site),"
		" iif(coalesce(d.trace, tr.site) IS NULL, NULL, ?1)"
		" FROM dependencies d"
		" JOIN temp.union_map f ON f.cid = d.from_class"
		" JOIN temp.union_map t ON t.cid = d.to_class"
		" LEFT JOIN traces tr ON d.trace IS NULL AND tr.boot_id = ?1"
		"  AND tr.id = d.trace_id AND tr.site IS NOT NULL"
		" WHERE d.boot_id = ?1"
		" ON CONFLICT (from_id, to_id) DO UPDATE SET"
		" dep_bits = CASE WHEN excluded.dep_bits IS NULL THEN dep_bits"
		"  WHEN dep_bits IS NULL THEN excluded.dep_bits"
		"  ELSE dep_bits | excluded.dep_bits END,"
		" distance = CASE WHEN excluded.distance IS NULL THEN distance"
		"  WHEN distance IS NULL THEN excluded.distance"
		"  ELSE min(distance, excluded.distance) END,"
		" site_boot = iif(site IS NULL, excluded.site_boot, site_boot),"
		" site = ifnull(site, excluded.site)",
	[U_PAIRS] =
		"SELECT f.uid, t.uid FROM dependencies d"
		" JOIN temp.union_map f ON f.cid = d.from_class"
		" JOIN temp.union_map t ON t.cid = d.to_class"
		" WHERE d.boot_id = ?1 ORDER BY 1, 2",
	[U_COUNT] =
		"SELECT (SELECT count(*) FROM dependencies WHERE boot_id = ?1),"
		" (SELECT count(*) FROM classes WHERE boot_id = ?1"
		"  AND (identity IS NULL"
		"  OR identity IN (SELECT identity FROM union_ambiguous)))",
	[U_PACK] =
		"INSERT INTO union_packs (boot_id, ambiguous, pack)"
		" VALUES (?1, ?2, ?3)",
};

struct writer {
	struct store *st;
	sqlite3_stmt *s[U_NR];
	struct strbuf pack;
};

static int fail(struct writer *w)
{
	return store_fail(w->st, "unable to keep the union of the boots of");
}

/* Run statement @i for @boot to its end: 0, or -1 after an error. */
static int run(struct writer *w, int i, int64_t boot)
{
	sqlite3_stmt *s = w->s[i];

	sqlite3_reset(s);
	if (sqlite3_bind_parameter_count(s))
		sqlite3_bind_int64(s, 1, boot);
	while (sqlite3_step(s) == SQLITE_ROW)
		;
	return sqlite3_reset(s) == SQLITE_OK ? 0 : fail(w);
}

/*
 * Boot @boot into the union: 0, 1 if it cannot be in one (a dependency
 * names a class of another boot), 2 if an identity of it makes a node of
 * the union ambiguous (build anew), -1 after an error.
 */
static int add_boot(struct writer *w, int64_t boot)
{
	sqlite3_stmt *s;
	int64_t from, to, pf = 0, pt = 0, rows, own;
	uint64_t nr = 0;
	struct strbuf pairs = STRBUF_INIT;
	int rc, ret = 0;

	s = w->s[U_SPLITS];
	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, boot);
	if (sqlite3_step(s) != SQLITE_ROW)
		return fail(w);
	if (sqlite3_column_int(s, 0))
		return sqlite3_reset(s) == SQLITE_OK ? 2 : fail(w);
	sqlite3_reset(s);
	if (run(w, U_AMBIGUOUS, boot) || run(w, U_CLASSES, boot) ||
	    run(w, U_MAP_CLEAR, boot) || run(w, U_MAP, boot) ||
	    run(w, U_DEPS, boot))
		return -1;
	s = w->s[U_PAIRS];
	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, boot);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		from = sqlite3_column_int64(s, 0);
		to = sqlite3_column_int64(s, 1);
		if (nr && from == pf && to == pt)
			continue;
		if (nr && from == pf) {
			put_varint(&pairs, 0);
			put_varint(&pairs, (uint64_t)(to - pt - 1));
		} else {
			put_varint(&pairs, (uint64_t)(from - pf));
			put_varint(&pairs, (uint64_t)to);
		}
		pf = from;
		pt = to;
		nr++;
	}
	if (sqlite3_reset(s) != SQLITE_OK || rc != SQLITE_DONE)
		ret = fail(w);
	s = w->s[U_COUNT];
	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, boot);
	if (!ret && sqlite3_step(s) != SQLITE_ROW)
		ret = fail(w);
	rows = sqlite3_column_int64(s, 0);
	own = sqlite3_column_int64(s, 1);
	sqlite3_reset(s);
	/* a row of no pair: a class of another boot (or none) */
	if (!ret && (uint64_t)rows != nr)
		ret = 1;
	if (!ret) {
		strbuf_reset(&w->pack);
		put_varint(&w->pack, nr);
		strbuf_add(&w->pack, pairs.buf, pairs.len);
		s = w->s[U_PACK];
		sqlite3_reset(s);
		sqlite3_bind_int64(s, 1, boot);
		sqlite3_bind_int64(s, 2, own);
		sqlite3_bind_blob(s, 3, w->pack.buf, (int)w->pack.len,
				  SQLITE_STATIC);
		if (sqlite3_step(s) != SQLITE_DONE)
			ret = fail(w);
		sqlite3_reset(s);
	}
	strbuf_release(&pairs);
	return ret;
}

static const char clear_sql[] =
	"DELETE FROM union_state; DELETE FROM union_packs;"
	" DELETE FROM union_deps; DELETE FROM union_classes;"
	" DELETE FROM union_ambiguous;";

/* Every boot anew; the identities any of them holds twice first. */
static const char rebuild_sql[] =
	"INSERT INTO union_ambiguous SELECT DISTINCT identity FROM"
	" (SELECT identity FROM classes INDEXED BY classes_identity"
	"  WHERE identity IS NOT NULL"
	"  GROUP BY boot_id, identity HAVING count(*) > 1)";

/* The boots to add, in id order, into *@ids. */
static int boots_to_add(struct store *st, int64_t **ids, size_t *nr)
{
	sqlite3_stmt *s;
	size_t alloc = 0;
	int rc;

	*nr = 0;
	if (store_prepare(st, "SELECT id FROM boots WHERE id NOT IN"
			  " (SELECT boot_id FROM union_packs) ORDER BY id", &s))
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ALLOC_GROW(*ids, *nr + 1, alloc);
		(*ids)[(*nr)++] = sqlite3_column_int64(s, 0);
	}
	return store_finish(st, s, rc, 0);
}

/*
 * The union's state: 1 kept and fresh with boots added after the last
 * one it holds only, 0 to be built anew, -2 marked not kept (and fresh),
 * -1 after an error.
 */
static int state(struct store *st)
{
	int64_t v[3];

	if (store_query_boot(st, "SELECT (SELECT kept FROM union_state"
			     " WHERE schema_version IS (SELECT schema_version"
			     "  FROM main.pragma_schema_version)),"
			     " (SELECT count(*) FROM union_state),"
			     " (SELECT count(*) FROM boots WHERE id < (SELECT"
			     "  max(boot_id) FROM union_packs) AND id NOT IN"
			     "  (SELECT boot_id FROM union_packs)) + ?1",
			     0, v, 3))
		return store_fail(st, "unable to read the union of the boots of");
	if (v[1] != 1 || v[0] < 0)
		return 0;
	if (!v[0])
		return -2;
	return v[2] ? 0 : 1;
}

int store_union_update(struct store *st)
{
	static const char what[] = "unable to keep the union of the boots of";
	struct writer w = { .st = st, .pack = STRBUF_INIT };
	int64_t *ids = NULL;
	size_t nr = 0, i;
	int ret;
	bool anew, kept = true;

	ret = state(st);
	if (ret == -2 || ret == -1)
		return ret == -2 ? 0 : -1;
	anew = !ret;
	ret = store_exec(st, "CREATE TEMP TABLE IF NOT EXISTS union_map"
			 " (cid INTEGER PRIMARY KEY, uid INTEGER)", what);
	for (i = 0; i < U_NR && !ret; i++)
		if (sqlite3_prepare_v2(st->db, union_sql[i], -1, &w.s[i], NULL))
			ret = fail(&w);
	while (!ret) {
		if (anew && (store_exec(st, clear_sql, what) ||
			     store_exec(st, rebuild_sql, what))) {
			ret = -1;
			break;
		}
		free(ids);
		ids = NULL;
		if (boots_to_add(st, &ids, &nr)) {
			ret = -1;
			break;
		}
		for (i = 0; i < nr && !ret; i++)
			ret = add_boot(&w, ids[i]);
		/* an identity split: every boot anew, its identities known */
		if (ret != 2 || anew)
			break;
		anew = true;
		ret = 0;
	}
	if (ret > 0) {
		/* no union of these boots (a row names another boot's class) */
		kept = false;
		ret = store_exec(st, clear_sql, what);
	}
	if (!ret)
		ret = store_exec(st, kept ?
				 "DELETE FROM union_state; INSERT INTO union_state"
				 " SELECT schema_version, 1 FROM main.pragma_schema_version" :
				 "DELETE FROM union_state; INSERT INTO union_state"
				 " SELECT schema_version, 0 FROM main.pragma_schema_version",
				 what);
	for (i = 0; i < U_NR; i++)
		sqlite3_finalize(w.s[i]);
	sqlite3_exec(st->db, "DROP TABLE IF EXISTS temp.union_map", NULL, NULL,
		     NULL);
	strbuf_release(&w.pack);
	free(ids);
	return ret;
}

/* ---- reading ---- */

struct unode {
	int64_t id;
	uint32_t ord;		/* its place in the graph's order */
};

struct udep {
	int64_t from, to;	/* union_classes ids */
	uint32_t nfrom, nto;	/* node ordinals */
	int dep_bits, distance;
	char *site;
	int64_t site_boot;
};

struct union_data {
	struct store_union_node *nodes;	/* in the graph's order */
	char **strs;		/* what the nodes point to */
	struct unode *byid;	/* by id, for the pairs */
	size_t nr_nodes, nr_strs;
	struct udep *deps;	/* by (from, to) */
	size_t nr_deps;
	uint32_t *rows;		/* each boot's deps, boot after boot */
	size_t nr_rows;
	size_t *start;		/* nr + 1 offsets into rows */
	uint64_t *own;		/* per boot */
};

static void union_data_release(struct union_data *u)
{
	size_t i;

	for (i = 0; i < u->nr_strs; i++)
		free(u->strs[i]);
	for (i = 0; i < u->nr_deps; i++)
		free(u->deps[i].site);
	free(u->strs);
	free(u->nodes);
	free(u->byid);
	free(u->deps);
	free(u->rows);
	free(u->start);
	free(u->own);
}

static int unode_cmp(const void *a, const void *b)
{
	const struct unode *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* The ordinal of node @id, or UINT32_MAX. */
static uint32_t node_ord(const struct union_data *u, int64_t id)
{
	struct unode key = { .id = id }, *n;

	n = bsearch(&key, u->byid, u->nr_nodes, sizeof(key), unode_cmp);
	return n ? n->ord : UINT32_MAX;
}

/* The dependency @from -> @to, or SIZE_MAX. */
static size_t dep_find(const struct union_data *u, int64_t from, int64_t to)
{
	size_t lo = 0, hi = u->nr_deps, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (u->deps[mid].from < from ||
		    (u->deps[mid].from == from && u->deps[mid].to < to))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < u->nr_deps && u->deps[lo].from == from &&
	       u->deps[lo].to == to ? lo : SIZE_MAX;
}

static char *keep(struct union_data *u, size_t *alloc, const char *t)
{
	if (!t)
		return NULL;
	ALLOC_GROW(u->strs, u->nr_strs + 1, *alloc);
	return u->strs[u->nr_strs++] = xstrdup(t);
}

static int read_nodes(struct store *st, struct union_data *u)
{
	struct strbuf sb = STRBUF_INIT;
	struct store_union_node *n;
	size_t alloc = 0, alloc_strs = 0, alloc_ids = 0;
	sqlite3_stmt *s;
	int rc;

	if (store_prepare(st, "SELECT id, identity, class_id, name, usage_bits,"
			  " boots FROM union_classes ORDER BY first_class, id", &s))
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ALLOC_GROW(u->nodes, u->nr_nodes + 1, alloc);
		ALLOC_GROW(u->byid, u->nr_nodes + 1, alloc_ids);
		n = &u->nodes[u->nr_nodes];
		u->byid[u->nr_nodes].id = sqlite3_column_int64(s, 0);
		u->byid[u->nr_nodes].ord = (uint32_t)u->nr_nodes;
		n->identity = keep(u, &alloc_strs, store_col_name(s, 1, &sb));
		n->class_id = sqlite3_column_int64(s, 2);
		n->name = keep(u, &alloc_strs, store_col_name(s, 3, &sb));
		if (!n->name)
			n->name = "";
		n->usage_bits = (unsigned int)sqlite3_column_int64(s, 4);
		n->boots = (uint32_t)sqlite3_column_int64(s, 5);
		u->nr_nodes++;
	}
	strbuf_release(&sb);
	if (store_finish(st, s, rc, 0))
		return -1;
	qsort(u->byid, u->nr_nodes, sizeof(*u->byid), unode_cmp);
	return 0;
}

/* 0, 1 for a dependency of a node that is not there, or -1. */
static int read_deps(struct store *st, struct union_data *u)
{
	struct udep *d;
	size_t alloc = 0;
	sqlite3_stmt *s;
	int rc, bad = 0;

	if (store_prepare(st, "SELECT from_id, to_id, ifnull(dep_bits, -1),"
			  " ifnull(distance, -1), site, site_boot FROM union_deps"
			  " ORDER BY from_id, to_id", &s))
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ALLOC_GROW_BIG(u->deps, u->nr_deps + 1, alloc);
		d = &u->deps[u->nr_deps++];
		d->from = sqlite3_column_int64(s, 0);
		d->to = sqlite3_column_int64(s, 1);
		d->nfrom = node_ord(u, d->from);
		d->nto = node_ord(u, d->to);
		d->dep_bits = sqlite3_column_int(s, 2);
		d->distance = sqlite3_column_int(s, 3);
		d->site = store_col_strdup(s, 4);
		d->site_boot = sqlite3_column_int64(s, 5);
		if (d->nfrom == UINT32_MAX || d->nto == UINT32_MAX)
			bad = 1;
	}
	return store_finish(st, s, rc, 0) ? -1 : bad;
}

/* Boot @idx's pack into u->rows: NULL, or why it is damaged. */
static const char *decode(struct union_data *u, size_t idx,
			  const unsigned char *p, size_t len, size_t *alloc)
{
	const unsigned char *end = p + len;
	uint64_t nr, a, b, k;
	int64_t from = 0, to = 0;
	size_t d;

	if (!p || get_varint(&p, end, &nr) || nr > len)
		return "no count of its pairs";
	for (k = 0; k < nr; k++) {
		if (get_varint(&p, end, &a) || get_varint(&p, end, &b))
			return "shorter than its count";
		if (a > (uint64_t)INT64_MAX - (uint64_t)from ||
		    b > (uint64_t)INT64_MAX - (uint64_t)(a ? 0 : to + 1))
			return "an id out of range";
		if (a) {
			from += (int64_t)a;
			to = (int64_t)b;
		} else if (k) {
			to += (int64_t)b + 1;
		} else {
			to = (int64_t)b;
		}
		d = dep_find(u, from, to);
		if (d == SIZE_MAX)
			return "a pair the union does not hold";
		ALLOC_GROW_BIG(u->rows, u->nr_rows + 1, *alloc);
		u->rows[u->nr_rows++] = (uint32_t)d;
	}
	if (p != end)
		return "longer than its count";
	u->start[idx + 1] = u->nr_rows;
	return NULL;
}

/* 0, 1 for a damaged pack (said), or -1. */
static int read_packs(struct store *st, const int64_t *boots, size_t nr,
		      struct union_data *u)
{
	sqlite3_stmt *s;
	const char *why = NULL;
	size_t i, alloc = 0;
	int rc = SQLITE_DONE;

	if (store_prepare(st, "SELECT ambiguous, pack FROM union_packs"
			  " WHERE boot_id = ?1", &s))
		return -1;
	u->start = xcalloc(nr + 1, sizeof(*u->start));
	u->own = xcalloc(nr ? nr : 1, sizeof(*u->own));
	for (i = 0; i < nr; i++) {
		sqlite3_reset(s);
		sqlite3_bind_int64(s, 1, boots[i]);
		rc = sqlite3_step(s);
		if (rc != SQLITE_ROW) {
			why = "missing";
			break;
		}
		u->own[i] = (uint64_t)sqlite3_column_int64(s, 0);
		why = decode(u, i, sqlite3_column_blob(s, 1),
			     (size_t)sqlite3_column_bytes(s, 1), &alloc);
		if (why)
			break;
		rc = SQLITE_DONE;
	}
	if (store_finish(st, s, rc == SQLITE_ROW ? SQLITE_DONE : rc, 0))
		return -1;
	if (!why)
		return 0;
	warning("'%s': the union pack of boot %" PRId64 " is damaged (%s); reading the boots' rows instead",
		store_path(st), boots[i], why);
	return 1;
}

/* 1 if the union is kept and of exactly the @nr boots, 0 if not, -1. */
static int of_boots(struct store *st, const int64_t *boots, size_t nr)
{
	struct strbuf sql = STRBUF_INIT;
	int64_t v[3];
	size_t i;
	int ret;

	strbuf_addstr(&sql, "SELECT (SELECT count(*) FROM union_state WHERE kept = 1"
		      " AND schema_version IS (SELECT schema_version"
		      "  FROM main.pragma_schema_version)),"
		      " (SELECT count(*) FROM union_state),"
		      " (SELECT count(*) FROM union_packs) - ?1");
	strbuf_addstr(&sql, " + (SELECT count(*) FROM union_packs WHERE boot_id NOT IN (");
	for (i = 0; i < nr; i++)
		strbuf_addf(&sql, "%s%" PRId64, i ? ", " : "", boots[i]);
	strbuf_addstr(&sql, "))");
	ret = store_query_boot(st, sql.buf, (int64_t)nr, v, 3);
	strbuf_release(&sql);
	if (ret)
		return store_fail(st, "unable to read");
	return v[0] == 1 && v[1] == 1 && !v[2];
}

static int union_locked(struct store *st, const int64_t *boots, size_t nr,
			const struct store_union_reader *r)
{
	struct union_data u = { 0 };
	const struct udep *d;
	size_t i, k;
	int ret;

	ret = of_boots(st, boots, nr);
	if (ret <= 0)
		return ret;
	ret = read_nodes(st, &u);
	if (!ret)
		ret = read_deps(st, &u);
	if (ret > 0)
		warning("'%s': the union of the boots names a class it does not hold; reading the boots' rows instead",
			store_path(st));
	if (!ret)
		ret = read_packs(st, boots, nr, &u);
	if (ret) {
		union_data_release(&u);
		return ret < 0 ? -1 : 0;
	}
	for (i = 0; i < u.nr_nodes && !ret; i++)
		ret = r->node(&u.nodes[i], r->data);
	for (i = 0; i < nr && !ret; i++)
		ret = r->boot(i, u.own[i], r->data);
	for (i = 0; i < nr && !ret; i++)
		for (k = u.start[i]; k < u.start[i + 1] && !ret; k++) {
			d = &u.deps[u.rows[k]];
			ret = r->edge(d->nfrom, d->nto, i, d->dep_bits,
				      d->distance, d->site_boot == boots[i] ?
				      d->site : NULL, r->data);
		}
	union_data_release(&u);
	return ret ? ret : 1;
}

int store_union_read(struct store *st, const int64_t *boots, size_t nr,
		     const struct store_union_reader *r)
{
	bool own = sqlite3_get_autocommit(st->db);
	int ret;

	/* the state, the union and its packs all of one snapshot */
	if (own && sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL))
		return store_fail(st, "unable to read");
	ret = union_locked(st, boots, nr, r);
	if (own)
		sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
	return ret;
}
