// SPDX-License-Identifier: GPL-2.0
/*
 * The union of the boots, kept by the merge (store-union.h; invariants
 * U1 to U5 at schema.c's version 15).
 *
 * Writing: the merger keeps the union's identities, ambiguous identities
 * and dependencies in memory between its sources (struct store_union,
 * loaded from the tables when union_state's generation is not the one it
 * wrote), so that a boot joins by one read of its classes and one of its
 * dependencies, hash lookups, and a write only of what is new to the
 * union (a node, a dependency, a usage bit, a site) and of its pack: no
 * statement per row of the boot, no lookup in SQL. Boots join in id
 * order, so that a node's first class and an edge's first site are those
 * of the first boot, as the graph read from the rows has them.
 *
 * A pack, unsigned LEB128 varints: the number of the boot's classes that
 * are nodes of their own; the number of its nodes, then each node's id
 * (ascending) minus the previous one's (0 before the first); the number
 * of its dependencies, then each (from_id, to_id) pair in ascending
 * order: from_id minus the previous pair's, then to_id itself, or, when
 * from_id is the previous one's, to_id minus the previous to_id minus 1
 * (the pairs are distinct).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "store/dep-pack.h"
#include "store/store-int.h"
#include "store/store-union.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/hindex.h"
#include "util/idmap.h"
#include "util/strset.h"
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

/*
 * What the writer knows of the union between a merger's sources: the
 * identities with their node and usage, the ambiguous identities, the
 * dependencies with what the graph merges of them. Valid while
 * union_state's generation is the one it wrote last (a random number:
 * another writer's union, or a rolled-back one, has another).
 */
struct union_dep {
	int64_t from, to;
	int dep_bits, distance;	/* -1: unknown */
	bool site;
};

struct store_union {
	bool loaded;
	int64_t generation;
	struct strset identities;	/* escaped as store_col_name() */
	int64_t *node;			/* per identity: its union id */
	int64_t *usage;
	uint64_t *seen;			/* the last boot that had it */
	size_t alloc_node;
	uint64_t boot;			/* the boot being joined, from 1 */
	struct strset ambiguous;
	struct union_dep *deps;
	size_t nr_deps, alloc_deps;
	struct hindex dep_index;
	/* one boot's, reused */
	struct idmap map;		/* classes.id -> union id */
	int64_t *pairs;			/* from, to */
	size_t nr_pairs, alloc_pairs;
	struct dep_pack_row *rows;	/* its dependency pack's */
	size_t nr_rows, alloc_rows;
	struct strbuf pack, sb;
};

enum {
	U_RANGE,
	U_CLASSES,
	U_DEPS,
	U_AMBIGUOUS,
	U_CLASS,
	U_USAGE,
	U_DEP,
	U_DEP_UPDATE,
	U_PACK,
	U_NR
};

static const char *const union_sql[U_NR] = {
	/*
	 * A boot's classes are a range of ids (a merge's and a collection's
	 * alike): read in the table's order, not through an index and a
	 * sort; its dependencies the range of the primary key they start
	 * in, counted against the boot's rows. Whether it has a
	 * dependency pack: if not, one is written from the same read.
	 */
	[U_RANGE] =
		"SELECT ifnull(min(id), 0), ifnull(max(id), -1), count(*),"
		" (SELECT count(*) FROM dependencies WHERE boot_id = ?1),"
		" EXISTS (SELECT 1 FROM dependency_packs WHERE boot_id = ?1)"
		" FROM classes WHERE boot_id = ?1",
	[U_CLASSES] =
		"SELECT id, identity, name, ifnull(usage_bits, 0) FROM classes"
		" WHERE id BETWEEN ?2 AND ?3 AND +boot_id = ?1",
	/*
	 * What the graph makes of a row (graph_add_edge()): dep_bits and
	 * distance as ints, the bits' low four, the distance at most
	 * INT16_MAX, negative ones unknown; the site the row's trace, else
	 * its trace's site. First the row as its dependency pack holds it,
	 * in the primary key's order (the pack's).
	 */
	[U_DEPS] =
		"SELECT " DEP_PACK_COLUMNS("d.") ","
		" iif(d.dep_bits BETWEEN 0 AND 2147483647, d.dep_bits & 15, -1),"
		" iif(d.distance BETWEEN 0 AND 2147483647, min(d.distance, 32767), -1),"
		" coalesce(d.trace, tr.site) FROM dependencies d"
		" LEFT JOIN traces tr ON d.trace IS NULL AND tr.boot_id = ?1"
		"  AND tr.id = d.trace_id AND tr.site IS NOT NULL"
		" WHERE d.from_class BETWEEN ?2 AND ?3 AND +d.boot_id = ?1"
		" ORDER BY d.from_class, d.to_class",
	[U_AMBIGUOUS] = "INSERT OR IGNORE INTO union_ambiguous VALUES (?1)",
	[U_CLASS] =
		"INSERT INTO union_classes (identity, class_id, name, usage_bits,"
		" first_class) VALUES (?1, ?2, ?3, ?4, ?5)",
	[U_USAGE] = "UPDATE union_classes SET usage_bits = ?2 WHERE id = ?1",
	[U_DEP] =
		"INSERT INTO union_deps (from_id, to_id, dep_bits, distance,"
		" site, site_boot) VALUES (?1, ?2, nullif(?3, -1), nullif(?4, -1),"
		" ?5, ?6)",
	[U_DEP_UPDATE] =
		"UPDATE union_deps SET dep_bits = nullif(?3, -1),"
		" distance = nullif(?4, -1),"
		" site_boot = iif(site IS NULL, ?6, site_boot),"
		" site = ifnull(site, ?5) WHERE from_id = ?1 AND to_id = ?2",
	[U_PACK] =
		"INSERT INTO union_packs (boot_id, pack) VALUES (?1, ?2)",
};

struct writer {
	struct store *st;
	struct store_union *u;
	sqlite3_stmt *s[U_NR];
};

static const char what[] = "unable to keep the union of the boots of";

static int fail(struct writer *w)
{
	return store_fail(w->st, what);
}

/* Step the write @s to its end and reset it: 0, or -1 after an error. */
static int done(struct writer *w, sqlite3_stmt *s)
{
	int rc = sqlite3_step(s);

	sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : fail(w);
}

static uint64_t pair_hash(int64_t from, int64_t to)
{
	return u64_hash((uint64_t)from * 0x9e3779b97f4a7c15ull ^ (uint64_t)to);
}

static uint32_t dep_lookup(const struct store_union *u, int64_t from,
			   int64_t to)
{
	struct hindex_probe p;
	uint32_t i;

	for (i = hindex_first(&u->dep_index, pair_hash(from, to), &p);
	     i != HINDEX_NONE; i = hindex_next(&u->dep_index, &p))
		if (u->deps[i].from == from && u->deps[i].to == to)
			return i;
	return HINDEX_NONE;
}

static struct union_dep *dep_add(struct store_union *u, int64_t from,
				 int64_t to)
{
	struct union_dep *d;

	ALLOC_GROW(u->deps, u->nr_deps + 1, u->alloc_deps);
	d = &u->deps[u->nr_deps];
	memset(d, 0, sizeof(*d));
	d->from = from;
	d->to = to;
	hindex_add(&u->dep_index, pair_hash(from, to), (uint32_t)u->nr_deps++);
	return d;
}

static uint32_t identity_add(struct store_union *u, const char *identity,
			     int64_t node, int64_t usage)
{
	uint32_t i = strset_add(&u->identities, identity);

	ALLOC_GROW(u->node, (size_t)i + 1, u->alloc_node);
	u->usage = xrealloc(u->usage, u->alloc_node * sizeof(*u->usage));
	u->seen = xrealloc(u->seen, u->alloc_node * sizeof(*u->seen));
	u->node[i] = node;
	u->usage[i] = usage;
	u->seen[i] = 0;
	return i;
}

static void forget(struct store_union *u)
{
	strset_release(&u->identities);
	strset_release(&u->ambiguous);
	hindex_clear(&u->dep_index);
	u->nr_deps = 0;
	u->loaded = false;
}

/* The union's tables into the cache. */
static int load(struct writer *w)
{
	struct store_union *u = w->u;
	struct union_dep *d;
	sqlite3_stmt *s;
	int rc;

	forget(u);
	if (store_prepare(w->st, "SELECT id, identity, usage_bits FROM union_classes"
			  " WHERE identity IS NOT NULL", &s))
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		identity_add(u, store_col_text(s, 1), sqlite3_column_int64(s, 0),
			     sqlite3_column_int64(s, 2));
	if (store_finish(w->st, s, rc, 0) ||
	    store_prepare(w->st, "SELECT identity FROM union_ambiguous", &s))
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		strset_add(&u->ambiguous, store_col_text(s, 0));
	if (store_finish(w->st, s, rc, 0) ||
	    store_prepare(w->st, "SELECT from_id, to_id, ifnull(dep_bits, -1),"
			  " ifnull(distance, -1), site IS NOT NULL FROM union_deps", &s))
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		d = dep_add(u, sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1));
		d->dep_bits = sqlite3_column_int(s, 2);
		d->distance = sqlite3_column_int(s, 3);
		d->site = sqlite3_column_int(s, 4);
	}
	if (store_finish(w->st, s, rc, 0))
		return -1;
	u->loaded = true;
	return 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int cmp_pair(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

struct boot_class {
	int64_t id, usage;
	char *name;		/* NULL for a node of the union */
	uint32_t identity;	/* in the boot's own set, or UINT32_MAX */
	uint32_t node;		/* a node of the union: its identity's index */
};

/*
 * The boot's identities that are no node of the union held twice
 * (@count per entry of @seen) into the union's ambiguous set: 0, or -1.
 */
static int add_ambiguous(struct writer *w, const struct strset *seen,
			 const uint32_t *count)
{
	struct store_union *u = w->u;
	const char *t;
	size_t i;

	for (i = 0; i < seen->nr; i++) {
		t = strset_str(seen, (uint32_t)i);
		if (count[i] < 2 || strset_find(&u->ambiguous, t) != UINT32_MAX)
			continue;
		strset_add(&u->ambiguous, t);
		sqlite3_bind_text(w->s[U_AMBIGUOUS], 1, t, -1, SQLITE_TRANSIENT);
		if (done(w, w->s[U_AMBIGUOUS]))
			return -1;
	}
	return 0;
}

/* A new node's row, its id to *@id: 0, or -1. */
static int new_node(struct writer *w, const char *identity,
		    const struct boot_class *c, int64_t *id)
{
	sqlite3_stmt *s = w->s[U_CLASS];
	int ret;

	sqlite3_clear_bindings(s);
	if (identity)
		sqlite3_bind_text(s, 1, identity, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_int64(s, 2, c->id);
	sqlite3_bind_text(s, 3, c->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 4, c->usage);
	sqlite3_bind_int64(s, 5, c->id);
	ret = done(w, s);
	*id = sqlite3_last_insert_rowid(w->st->db);
	/* idmap values are 32 bits */
	if (!ret && (*id < 1 || *id >= UINT32_MAX))
		ret = error("unable to keep the union of the boots of '%s': union id %" PRId64 " out of range",
			    store_path(w->st), *id);
	return ret;
}

/*
 * Class @c (of identity @t, escaped, or NULL) of the boot being joined,
 * as read: a node of the union already (c->node), or its name kept and
 * its identity counted in @seen and @count (growing it to *@alloc) for
 * add_ambiguous(). 0, or 2 if it is a node of the union that the boot
 * holds twice (a split: build anew).
 */
static int read_class(struct store_union *u, struct boot_class *c,
		      const char *t, const char *name, struct strset *seen,
		      uint32_t **count, size_t *alloc)
{
	size_t known = seen->nr;

	c->name = NULL;
	c->identity = UINT32_MAX;
	if (t && strset_find(&u->ambiguous, t) == UINT32_MAX &&
	    (c->node = strset_find(&u->identities, t)) != UINT32_MAX) {
		if (u->seen[c->node] == u->boot)
			return 2;
		u->seen[c->node] = u->boot;
		return 0;
	}
	c->name = xstrdup(name ? name : "");
	if (t) {
		c->identity = strset_add(seen, t);
		ALLOC_GROW(*count, seen->nr, *alloc);
		if (seen->nr > known)	/* a new one */
			(*count)[c->identity] = 0;
		(*count)[c->identity]++;
	}
	return 0;
}

/*
 * Boot @boot's classes: each to its node (u->map: classes.id -> union
 * id), new nodes added, usage ORed; the boot's nodes, ascending, as the
 * first part of its pack (u->pack), and its own nodes counted in *@own.
 * 0, 2 for a split, -1.
 */
static int add_classes(struct writer *w, int64_t boot, const int64_t *range,
		       uint64_t *own)
{
	struct store_union *u = w->u;
	struct strset seen = { 0 };
	struct boot_class *c = NULL;
	uint32_t *count = NULL, k;
	size_t nr = 0, alloc = 0, alloc_count = 0, i;
	int64_t *nodes = NULL, node = 0, prev = 0;
	sqlite3_stmt *s = w->s[U_CLASSES];
	const char *t;
	int rc, ret = 0;

	sqlite3_bind_int64(s, 1, boot);
	sqlite3_bind_int64(s, 2, range[0]);
	sqlite3_bind_int64(s, 3, range[1]);
	u->boot++;
	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		ALLOC_GROW(c, nr + 1, alloc);
		c[nr].id = sqlite3_column_int64(s, 0);
		c[nr].usage = sqlite3_column_int64(s, 3);
		ret = read_class(u, &c[nr++], store_col_name(s, 1, &u->sb),
				 store_col_text(s, 2), &seen, &count,
				 &alloc_count);
	}
	sqlite3_reset(s);
	if (!ret && rc != SQLITE_DONE)
		ret = fail(w);
	if (!ret)
		ret = add_ambiguous(w, &seen, count);
	nodes = xcalloc(nr ? nr : 1, sizeof(*nodes));
	for (i = 0; !ret && i < nr; i++) {
		t = c[i].identity == UINT32_MAX ? NULL :
		    strset_str(&seen, c[i].identity);
		if (c[i].name && (!t || strset_find(&u->ambiguous, t) != UINT32_MAX)) {
			ret = new_node(w, NULL, &c[i], &node);
			(*own)++;
		} else if (c[i].name) {
			ret = new_node(w, t, &c[i], &node);
			if (!ret)
				identity_add(u, t, node, c[i].usage);
		} else {
			k = c[i].node;
			node = u->node[k];
			if ((u->usage[k] | c[i].usage) != u->usage[k]) {
				u->usage[k] |= c[i].usage;
				sqlite3_bind_int64(w->s[U_USAGE], 1, node);
				sqlite3_bind_int64(w->s[U_USAGE], 2, u->usage[k]);
				ret = done(w, w->s[U_USAGE]);
			}
		}
		nodes[i] = node;
		idmap_add(&u->map, c[i].id, (uint32_t)node);
	}
	if (!ret) {
		qsort(nodes, nr, sizeof(*nodes), cmp_i64);
		put_varint(&u->pack, nr);
		for (i = 0; i < nr; i++) {
			put_varint(&u->pack, (uint64_t)(nodes[i] - prev));
			prev = nodes[i];
		}
	}
	for (i = 0; i < nr; i++)
		free(c[i].name);
	free(c);
	free(count);
	free(nodes);
	strset_release(&seen);
	return ret;
}

/* The graph's merge of a dependency seen again (graph.c's merge_into()). */
static bool merge_dep(struct union_dep *d, int dep_bits, int distance,
		      bool site)
{
	struct union_dep was = *d;

	if (dep_bits >= 0)
		d->dep_bits = d->dep_bits < 0 ? dep_bits : d->dep_bits | dep_bits;
	if (distance >= 0 && (d->distance < 0 || distance < d->distance))
		d->distance = distance;
	d->site = d->site || site;
	return memcmp(&was, d, sizeof(was)) != 0;
}

/*
 * Boot @boot's dependencies into the union and their pairs, sorted, as
 * the second part of its pack, and, if @pack, its dependency pack from
 * the same rows (if each fits one; else it gets none here): 0, 1 if a
 * row names a class of another boot (no union of boots holds it), -1.
 */
static int add_deps(struct writer *w, int64_t boot, const int64_t *range,
		    bool pack)
{
	struct store_union *u = w->u;
	sqlite3_stmt *s = w->s[U_DEPS], *up;
	struct union_dep *d;
	int64_t from, to, pf = 0, pt = 0;
	int dep_bits, distance, rc, ret = 0;
	uint32_t a, b, k;
	size_t i, nr = 0;
	bool fresh;

	u->nr_pairs = u->nr_rows = 0;
	sqlite3_bind_int64(s, 1, boot);
	sqlite3_bind_int64(s, 2, range[0]);
	sqlite3_bind_int64(s, 3, range[1]);
	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		a = idmap_get(&u->map, sqlite3_column_int64(s, 0));
		b = idmap_get(&u->map, sqlite3_column_int64(s, 1));
		if (a == UINT32_MAX || b == UINT32_MAX) {
			ret = 1;
			break;
		}
		if (pack) {
			ALLOC_GROW_BIG(u->rows, u->nr_rows + 1, u->alloc_rows);
			pack = dep_pack_row_read(s, 0, range[0],
						 &u->rows[u->nr_rows++]);
		}
		dep_bits = sqlite3_column_int(s, 6);
		distance = sqlite3_column_int(s, 7);
		k = dep_lookup(u, a, b);
		fresh = k == HINDEX_NONE;
		d = fresh ? dep_add(u, a, b) : &u->deps[k];
		if (fresh) {
			d->dep_bits = -1;
			d->distance = -1;
		}
		if (merge_dep(d, dep_bits, distance,
			      sqlite3_column_type(s, 8) != SQLITE_NULL) || fresh) {
			up = w->s[fresh ? U_DEP : U_DEP_UPDATE];
			sqlite3_bind_int64(up, 1, a);
			sqlite3_bind_int64(up, 2, b);
			sqlite3_bind_int(up, 3, d->dep_bits);
			sqlite3_bind_int(up, 4, d->distance);
			sqlite3_bind_value(up, 5, sqlite3_column_value(s, 8));
			if (sqlite3_column_type(s, 8) != SQLITE_NULL)
				sqlite3_bind_int64(up, 6, boot);
			else
				sqlite3_bind_null(up, 6);
			ret = done(w, up);
		}
		ALLOC_GROW(u->pairs, 2 * u->nr_pairs + 2, u->alloc_pairs);
		u->pairs[2 * u->nr_pairs] = a;
		u->pairs[2 * u->nr_pairs + 1] = b;
		u->nr_pairs++;
	}
	if (!ret && rc != SQLITE_DONE)
		ret = fail(w);
	sqlite3_reset(s);
	/* a row outside the range names a class of another boot */
	if (!ret && u->nr_pairs != (uint64_t)range[3])
		ret = 1;
	/* a row the format cannot hold: no pack (store_pack_missing()) */
	if (!ret && pack)
		ret = store_pack_rows(w->st, boot, range, u->rows, u->nr_rows);
	if (ret)
		return ret;
	if (u->nr_pairs)	/* pairs is NULL before the first */
		qsort(u->pairs, u->nr_pairs, 2 * sizeof(*u->pairs), cmp_pair);
	for (i = 0; i < u->nr_pairs; i++)
		if (!i || cmp_pair(&u->pairs[2 * i], &u->pairs[2 * i - 2]))
			nr++;
	put_varint(&u->pack, nr);
	for (i = 0; i < u->nr_pairs; i++) {
		from = u->pairs[2 * i];
		to = u->pairs[2 * i + 1];
		if (i && from == pf && to == pt)
			continue;
		if (i && from == pf) {
			put_varint(&u->pack, 0);
			put_varint(&u->pack, (uint64_t)(to - pt - 1));
		} else {
			put_varint(&u->pack, (uint64_t)(from - pf));
			put_varint(&u->pack, (uint64_t)to);
		}
		pf = from;
		pt = to;
	}
	return 0;
}

/*
 * Boot @boot into the union: 0, 1 if it cannot be in one (a dependency
 * names a class of another boot), 2 if an identity of it makes a node of
 * the union ambiguous (build anew), -1 after an error.
 */
static int add_boot(struct writer *w, int64_t boot)
{
	struct store_union *u = w->u;
	sqlite3_stmt *s = w->s[U_PACK];
	uint64_t own = 0;
	struct strbuf head = STRBUF_INIT;
	int64_t range[4];
	bool pack;
	int ret;

	strbuf_reset(&u->pack);
	idmap_reset(&u->map);
	sqlite3_bind_int64(w->s[U_RANGE], 1, boot);
	if (sqlite3_step(w->s[U_RANGE]) != SQLITE_ROW) {
		sqlite3_reset(w->s[U_RANGE]);
		return fail(w);
	}
	for (ret = 0; ret < 4; ret++)
		range[ret] = sqlite3_column_int64(w->s[U_RANGE], ret);
	pack = !sqlite3_column_int(w->s[U_RANGE], 4);
	sqlite3_reset(w->s[U_RANGE]);
	ret = add_classes(w, boot, range, &own);
	idmap_build(&u->map);
	if (!ret)
		ret = add_deps(w, boot, range, pack);
	if (ret)
		return ret;
	put_varint(&head, own);
	strbuf_add(&head, u->pack.buf, u->pack.len);
	sqlite3_bind_int64(s, 1, boot);
	sqlite3_bind_blob(s, 2, head.buf, (int)head.len, SQLITE_STATIC);
	ret = done(w, s);
	strbuf_release(&head);
	return ret;
}

static const char clear_sql[] =
	"DELETE FROM union_state; DELETE FROM union_packs;"
	" DELETE FROM union_deps; DELETE FROM union_classes;"
	" DELETE FROM union_ambiguous;";

/* Every boot anew: the identities any of them holds twice first. */
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
 * The union's state: 1 kept and fresh, with boots to add after the last
 * one it holds only (its generation to *@gen), 0 to be built anew, 2
 * marked not kept (and fresh), -1 after an error.
 */
static int state(struct store *st, int64_t *gen)
{
	int64_t v[4];

	if (store_query_boot(st, "SELECT (SELECT kept FROM union_state"
			     " WHERE schema_version IS (SELECT schema_version"
			     "  FROM main.pragma_schema_version)),"
			     " (SELECT count(*) FROM union_state),"
			     " (SELECT count(*) FROM boots WHERE id < (SELECT"
			     "  max(boot_id) FROM union_packs) AND id NOT IN"
			     "  (SELECT boot_id FROM union_packs)) + ?1,"
			     " (SELECT generation FROM union_state)",
			     0, v, 4))
		return store_fail(st, "unable to read the union of the boots of");
	*gen = v[3];
	if (v[1] != 1 || v[0] < 0)
		return 0;
	if (!v[0])
		return 2;
	return v[2] ? 0 : 1;
}

struct store_union *store_union_new(void)
{
	struct store_union *u = xcalloc(1, sizeof(*u));

	strbuf_init(&u->pack);
	strbuf_init(&u->sb);
	return u;
}

void store_union_free(struct store_union *u)
{
	if (!u)
		return;
	forget(u);
	hindex_release(&u->dep_index);
	idmap_release(&u->map);
	free(u->node);
	free(u->usage);
	free(u->seen);
	free(u->deps);
	free(u->pairs);
	free(u->rows);
	strbuf_release(&u->pack);
	strbuf_release(&u->sb);
	free(u);
}

static int update(struct writer *w)
{
	struct store *st = w->st;
	struct store_union *u = w->u;
	int64_t *ids = NULL, gen;
	size_t nr = 0, i;
	int ret;
	bool anew, kept = true;

	ret = state(st, &gen);
	if (ret == 2 || ret < 0)
		return ret < 0 ? -1 : 0;
	anew = !ret;
	ret = 0;
	if (!anew && (!u->loaded || u->generation != gen))
		ret = load(w);
	while (!ret) {
		if (anew) {
			forget(u);
			if (store_exec(st, clear_sql, what) ||
			    store_exec(st, rebuild_sql, what) || load(w)) {
				ret = -1;
				break;
			}
		}
		free(ids);
		ids = NULL;
		if (boots_to_add(st, &ids, &nr)) {
			ret = -1;
			break;
		}
		for (i = 0; i < nr && !ret; i++)
			ret = add_boot(w, ids[i]);
		/* an identity split: every boot anew, its identities known */
		if (ret != 2 || anew)
			break;
		anew = true;
		ret = 0;
	}
	free(ids);
	/* the cache is the union written below, or nothing */
	u->loaded = false;
	if (ret > 0) {
		/* no union of these boots (a row names another boot's class) */
		kept = false;
		ret = store_exec(st, clear_sql, what);
	}
	if (ret)
		return -1;
	sqlite3_randomness(sizeof(gen), &gen);
	gen &= INT64_MAX;
	if (store_exec(st, "DELETE FROM union_state", what) ||
	    store_query_boot(st, kept ?
			     "INSERT INTO union_state SELECT schema_version, 1, ?1"
			     " FROM main.pragma_schema_version RETURNING generation" :
			     "INSERT INTO union_state SELECT schema_version, 0, ?1"
			     " FROM main.pragma_schema_version RETURNING generation",
			     gen, &u->generation, 1))
		return store_fail(st, what);
	u->loaded = kept;
	return 0;
}

int store_union_update(struct store *st, struct store_union *u)
{
	struct writer w = { .st = st, .u = u };
	size_t i;
	int ret = 0;

	for (i = 0; i < U_NR && !ret; i++)
		if (sqlite3_prepare_v2(st->db, union_sql[i], -1, &w.s[i], NULL))
			ret = fail(&w);
	if (!ret)
		ret = update(&w);
	if (ret)
		u->loaded = false;
	for (i = 0; i < U_NR; i++)
		sqlite3_finalize(w.s[i]);
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
	uint32_t *dense;	/* or [id]: ordinal (the writer's ids are dense) */
	size_t nr_dense;
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
	free(u->dense);
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

	if (u->dense)
		return id >= 0 && (uint64_t)id < u->nr_dense ? u->dense[id] :
		       UINT32_MAX;
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
	size_t alloc = 0, alloc_strs = 0, alloc_ids = 0, i;
	sqlite3_stmt *s;
	int rc;

	if (store_prepare(st, "SELECT id, identity, class_id, name, usage_bits"
			  " FROM union_classes ORDER BY first_class, id", &s))
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
		n->boots = 0;	/* counted from the packs */
		u->nr_nodes++;
	}
	strbuf_release(&sb);
	if (store_finish(st, s, rc, 0))
		return -1;
	qsort(u->byid, u->nr_nodes, sizeof(*u->byid), unode_cmp);
	/* an array where ids are dense (a node's ids per boot: millions) */
	if (u->nr_nodes && u->byid[0].id >= 0 &&
	    u->byid[u->nr_nodes - 1].id < 4 * (int64_t)u->nr_nodes + 1024) {
		u->nr_dense = (size_t)u->byid[u->nr_nodes - 1].id + 1;
		u->dense = xmalloc(u->nr_dense * sizeof(*u->dense));
		memset(u->dense, 0xff, u->nr_dense * sizeof(*u->dense));
		for (i = 0; i < u->nr_nodes; i++)
			u->dense[u->byid[i].id] = u->byid[i].ord;
	}
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

/* Boot @idx's pack into u->rows and u->own: NULL, or why it is damaged. */
static const char *decode(struct union_data *u, size_t idx,
			  const unsigned char *p, size_t len, size_t *alloc)
{
	const unsigned char *end = p + len;
	uint64_t nr, a, b, k;
	int64_t from = 0, to = 0, node = 0;
	uint32_t ord;
	size_t d;

	if (!p || get_varint(&p, end, &u->own[idx]) ||
	    get_varint(&p, end, &nr) || nr > len)
		return "no count of its nodes";
	for (k = 0; k < nr; k++) {
		if (get_varint(&p, end, &a) || (k && !a) ||
		    a > (uint64_t)INT64_MAX - (uint64_t)node)
			return "its nodes out of order";
		node += (int64_t)a;
		ord = node_ord(u, node);
		if (ord == UINT32_MAX)
			return "a node the union does not hold";
		u->nodes[ord].boots++;
	}
	if (get_varint(&p, end, &nr) || nr > len)
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
		return "longer than its counts";
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

	if (store_prepare(st, "SELECT pack FROM union_packs WHERE boot_id = ?1",
			  &s))
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
		why = decode(u, i, sqlite3_column_blob(s, 0),
			     (size_t)sqlite3_column_bytes(s, 0), &alloc);
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
