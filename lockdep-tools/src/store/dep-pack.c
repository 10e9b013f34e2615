// SPDX-License-Identifier: GPL-2.0
/*
 * Dependency packs (dep-pack.h): the codec, its chunked reader, and the
 * writer that builds a boot's pack from its rows. store-graph.c reads
 * packs through dep_pack_verify() and dep_pack_each().
 *
 * The writer finds boot B's rows by a range of the primary key
 * (from_class between B's smallest and largest class id) instead of a
 * scan of every boot's rows, and packs them only if they are all of B's
 * rows (a count through dependencies_boot). The triggers of schema
 * version 10 drop the pack whenever a row of B's dependencies or classes
 * is inserted, replaced, changed or deleted. A pack is a cache, never
 * trusted over the rows: store-graph.c checks the header's class count
 * and ids against the boot, and the pack's rows against the boot's rows
 * (dep_pack_next()), before it reads one.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "store/dep-pack.h"
#include "store/store-int.h"
#include "util/error.h"
#include "util/xalloc.h"

#define NULL_U32 0xffffffffu
#define NULL_U16 0xffffu
#define NULL_U8 0xffu
#define CRC_AT 36

static size_t row_size(uint32_t flags)
{
	return 8 + (flags & DEP_PACK_TRACE ? 4 : 0) +
	       (flags & DEP_PACK_DISTANCE ? 2 : 0) +
	       (flags & DEP_PACK_BITS ? 1 : 0);
}

uint64_t dep_pack_size(uint64_t nr, uint32_t flags)
{
	return DEP_PACK_HEADER + nr * row_size(flags);
}

static void put_u32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static uint32_t get_u32(const unsigned char *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put_i64(unsigned char *p, int64_t v)
{
	put_u32(p, (uint32_t)(uint64_t)v);
	put_u32(p + 4, (uint32_t)((uint64_t)v >> 32));
}

static int64_t get_i64(const unsigned char *p)
{
	return (int64_t)(get_u32(p) | (uint64_t)get_u32(p + 4) << 32);
}

static uint32_t crc(uint32_t crc, const unsigned char *buf, size_t len)
{
	return (uint32_t)crc32_z(crc, buf, len);
}

uint32_t dep_pack_flags(const struct dep_pack_row *rows, size_t nr)
{
	uint32_t flags = 0;
	size_t i;

	for (i = 0; i < nr; i++) {
		if (rows[i].trace_id >= 0)
			flags |= DEP_PACK_TRACE;
		if (rows[i].distance >= 0)
			flags |= DEP_PACK_DISTANCE;
		if (rows[i].dep_bits >= 0)
			flags |= DEP_PACK_BITS;
	}
	return flags;
}

void dep_pack_encode(struct strbuf *out, const struct dep_pack *boot,
		     const struct dep_pack_row *rows, size_t nr)
{
	uint32_t flags = dep_pack_flags(rows, nr);
	size_t i, size = row_size(flags), off = out->len;
	unsigned char *p, *start;

	strbuf_grow(out, DEP_PACK_HEADER + nr * size);
	start = (unsigned char *)out->buf + off;
	p = start + DEP_PACK_HEADER;
	for (i = 0; i < nr; i++) {
		put_u32(p, rows[i].from);
		put_u32(p + 4, rows[i].to);
		p += 8;
		if (flags & DEP_PACK_TRACE) {
			put_u32(p, rows[i].trace_id < 0 ? NULL_U32 :
				   (uint32_t)rows[i].trace_id);
			p += 4;
		}
		if (flags & DEP_PACK_DISTANCE) {
			uint16_t d = rows[i].distance < 0 ? NULL_U16 :
				     (uint16_t)rows[i].distance;

			p[0] = d;
			p[1] = d >> 8;
			p += 2;
		}
		if (flags & DEP_PACK_BITS)
			*p++ = rows[i].dep_bits < 0 ? NULL_U8 :
			       (unsigned char)rows[i].dep_bits;
	}
	memcpy(start, "LDPK", 4);
	put_u32(start + 4, DEP_PACK_VERSION);
	put_u32(start + 8, (uint32_t)nr);
	put_u32(start + 12, flags);
	put_u32(start + 16, boot->classes);
	put_i64(start + 20, boot->lo);
	put_i64(start + 28, boot->hi);
	put_u32(start + CRC_AT, crc(crc(0, start, CRC_AT),
				    start + DEP_PACK_HEADER, nr * size));
	out->len = off + DEP_PACK_HEADER + nr * size;
	out->buf[out->len] = '\0';
}

/* ---- the reader ---- */

static const char *header(struct dep_pack *p, const unsigned char *buf,
			  size_t len)
{
	if (len < DEP_PACK_HEADER || memcmp(buf, "LDPK", 4))
		return "no pack header";
	if (get_u32(buf + 4) != DEP_PACK_VERSION)
		return "unknown pack version";
	p->nr = get_u32(buf + 8);
	p->flags = get_u32(buf + 12);
	p->classes = get_u32(buf + 16);
	p->lo = get_i64(buf + 20);
	p->hi = get_i64(buf + 28);
	p->crc = get_u32(buf + CRC_AT);
	if (p->flags & ~(uint32_t)DEP_PACK_ALL)
		return "unknown pack flags";
	if (p->lo > p->hi || !p->classes)
		return "no class ids";
	p->row_size = row_size(p->flags);
	/* no overflow: nr < 2^32 rows of at most 15 bytes */
	if ((uint64_t)p->nr * p->row_size != len - DEP_PACK_HEADER)
		return "pack length does not match its row count";
	return NULL;
}

static int src_read(struct dep_pack_src *src, size_t n, size_t off)
{
	if (src->read(src->ctx, src->buf, n, off)) {
		src->unreadable = true;
		return -1;
	}
	return 0;
}

bool dep_pack_ids_fit(int64_t lo, int64_t hi)
{
	int64_t span;

	return lo <= hi && lo <= INT64_MAX - (int64_t)UINT32_MAX &&
	       !__builtin_sub_overflow(hi, lo, &span) &&
	       span < (int64_t)NULL_U32;
}

const char *dep_pack_header(struct dep_pack *p, struct dep_pack_src *src)
{
	src->unreadable = false;
	if (src->len < DEP_PACK_HEADER)
		return "no pack header";
	if (src_read(src, DEP_PACK_HEADER, 0))
		return "unreadable";
	return header(p, src->buf, src->len);
}

const char *dep_pack_check_crc(const struct dep_pack *p,
			       struct dep_pack_src *src)
{
	uint32_t sum;
	size_t off, n;

	src->unreadable = false;
	if (src_read(src, DEP_PACK_HEADER, 0))
		return "unreadable";
	sum = crc(0, src->buf, CRC_AT);
	for (off = DEP_PACK_HEADER; off < src->len; off += n) {
		n = src->len - off < src->chunk ? src->len - off : src->chunk;
		if (src_read(src, n, off))
			return "unreadable";
		sum = crc(sum, src->buf, n);
	}
	return sum == p->crc ? NULL : "pack checksum mismatch";
}

const char *dep_pack_verify(struct dep_pack *p, struct dep_pack_src *src)
{
	const char *why = dep_pack_header(p, src);

	return why ? why : dep_pack_check_crc(p, src);
}

static void decode(const struct dep_pack *p, const unsigned char *rec,
		   struct dep_pack_row *r)
{
	uint32_t v;

	r->from = get_u32(rec);
	r->to = get_u32(rec + 4);
	rec += 8;
	r->trace_id = r->distance = r->dep_bits = -1;
	if (p->flags & DEP_PACK_TRACE) {
		v = get_u32(rec);
		r->trace_id = v == NULL_U32 ? -1 : (int64_t)v;
		rec += 4;
	}
	if (p->flags & DEP_PACK_DISTANCE) {
		v = rec[0] | rec[1] << 8;
		r->distance = v == NULL_U16 ? -1 : (int)v;
		rec += 2;
	}
	if (p->flags & DEP_PACK_BITS)
		r->dep_bits = *rec == NULL_U8 ? -1 : *rec;
}

void dep_pack_cursor_init(struct dep_pack_cursor *c, const struct dep_pack *p,
			  struct dep_pack_src *src)
{
	c->p = p;
	c->src = src;
	c->left = p->nr;
	c->at = c->in_buf = 0;
	c->off = DEP_PACK_HEADER;
	src->unreadable = false;
}

int dep_pack_next(struct dep_pack_cursor *c, struct dep_pack_row *row)
{
	size_t per = c->src->chunk / c->p->row_size, n;

	if (c->at == c->in_buf) {
		if (!c->left)
			return 0;
		n = c->left < per ? c->left : per;
		if (src_read(c->src, n * c->p->row_size, c->off))
			return -1;
		c->off += n * c->p->row_size;
		c->left -= n;
		c->in_buf = n;
		c->at = 0;
	}
	decode(c->p, c->src->buf + c->at++ * c->p->row_size, row);
	return 1;
}

int dep_pack_each(const struct dep_pack *p, struct dep_pack_src *src,
		  int (*fn)(const struct dep_pack_row *r, void *data),
		  void *data)
{
	struct dep_pack_cursor c;
	struct dep_pack_row row;
	int rc = 0, ret = 0;

	dep_pack_cursor_init(&c, p, src);
	while (!ret && (rc = dep_pack_next(&c, &row)) > 0)
		ret = fn(&row, data);
	return ret ? ret : rc;
}

/* ---- the writer ---- */

/* An optional column of a row into *@v: false if it does not fit. */
static bool column_fits(sqlite3_stmt *s, int col, int64_t max, int64_t *v)
{
	switch (sqlite3_column_type(s, col)) {
	case SQLITE_NULL:
		*v = -1;
		return true;
	case SQLITE_INTEGER:
		*v = sqlite3_column_int64(s, col);
		return *v >= 0 && *v < max;
	default:
		return false;
	}
}

/* A class id of a row as its offset from @lo: false if it does not fit. */
static bool class_fits(sqlite3_stmt *s, int col, int64_t lo, uint32_t *off)
{
	int64_t v, d;

	if (sqlite3_column_type(s, col) != SQLITE_INTEGER)
		return false;
	v = sqlite3_column_int64(s, col);
	if (v < lo || __builtin_sub_overflow(v, lo, &d) ||
	    d >= (int64_t)NULL_U32)
		return false;
	*off = (uint32_t)d;
	return true;
}

bool dep_pack_row_read(sqlite3_stmt *s, int col, int64_t lo,
		       struct dep_pack_row *r)
{
	int64_t bits = -1, dist = -1, trace = -1;
	bool fits;

	/* integers the format holds, NULL as -1; no trace text */
	fits = class_fits(s, col, lo, &r->from) &&
	       class_fits(s, col + 1, lo, &r->to) &&
	       column_fits(s, col + 2, NULL_U8, &bits) &&
	       column_fits(s, col + 3, NULL_U16, &dist) &&
	       column_fits(s, col + 4, NULL_U32, &trace) &&
	       !sqlite3_column_int(s, col + 5);
	r->dep_bits = (int)bits;
	r->distance = (int)dist;
	r->trace_id = trace;
	return fits;
}

/*
 * Boot @boot's rows whose from_class lies in [lo, hi] into @rows: 1 if
 * all fit, 0 if not, -1 on an SQLite error.
 */
static int read_rows(struct store *st, int64_t boot, const struct dep_pack *h,
		     struct dep_pack_row **rows, size_t *nr, size_t *alloc)
{
	sqlite3_stmt *s;
	int rc, fits = 1;

	if (sqlite3_prepare_v2(st->db, "SELECT " DEP_PACK_COLUMNS("")
			       " FROM dependencies WHERE from_class BETWEEN ?2"
			       /* the primary key's range, not dependencies_boot */
			       " AND ?3 AND +boot_id = ?1", -1, &s, NULL))
		return -1;
	sqlite3_bind_int64(s, 1, boot);
	sqlite3_bind_int64(s, 2, h->lo);
	sqlite3_bind_int64(s, 3, h->hi);
	while (fits && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		ALLOC_GROW_BIG(*rows, *nr + 1, *alloc);
		fits = dep_pack_row_read(s, 0, h->lo, &(*rows)[(*nr)++]);
	}
	sqlite3_finalize(s);
	if (fits && rc != SQLITE_DONE)
		return -1;
	return fits;
}

/*
 * The header of a boot whose class ids run from @lo to @hi, @classes of
 * them, into @h: false for no classes, or ids the reader would not take
 * (32-bit offsets).
 */
static bool boot_header(struct dep_pack *h, int64_t lo, int64_t hi,
			int64_t classes)
{
	if (classes <= 0 || classes > (int64_t)UINT32_MAX ||
	    !dep_pack_ids_fit(lo, hi))
		return false;
	memset(h, 0, sizeof(*h));
	h->lo = lo;
	h->hi = hi;
	h->classes = (uint32_t)classes;
	return true;
}

/*
 * Whether the @nr rows read of a boot's @deps make its pack: all of its
 * rows, not only those of its class range, in a blob SQLite takes.
 */
static bool packable(struct store *st, const struct dep_pack_row *rows,
		     uint64_t nr, int64_t deps)
{
	uint64_t size, max;

	if (deps < 0 || (uint64_t)deps != nr || nr > UINT32_MAX)
		return false;
	size = dep_pack_size(nr, dep_pack_flags(rows, nr));
	max = (uint64_t)sqlite3_limit(st->db, SQLITE_LIMIT_LENGTH, -1);
	return size <= max && size <= INT_MAX;
}

/* Boot @boot's pack into @blob: 1, 0 if it gets none, -1 on an error. */
static int build(struct store *st, int64_t boot, struct strbuf *blob)
{
	struct dep_pack h;
	struct dep_pack_row *rows = NULL;
	size_t nr = 0, alloc = 0;
	int64_t v[3];
	int rc;

	if (store_query_boot(st, "SELECT min(id), max(id), count(*) FROM classes"
		       " WHERE boot_id = ?1", boot, v, 3))
		return -1;
	if (!boot_header(&h, v[0], v[1], v[2]))
		return 0;
	rc = read_rows(st, boot, &h, &rows, &nr, &alloc);
	if (rc > 0 && store_query_boot(st, "SELECT count(*) FROM dependencies"
				 " WHERE boot_id = ?1", boot, v, 1))
		rc = -1;
	if (rc > 0 && !packable(st, rows, nr, v[0]))
		rc = 0;
	if (rc > 0)
		dep_pack_encode(blob, &h, rows, nr);
	free(rows);
	return rc;
}

/*
 * Write boot @boot's pack (@rc 1: in @blob), or drop it (@rc 0), or say
 * it could not be built (@rc -1): 0, or -1 if the transaction is gone.
 */
static int put(struct store *st, int64_t boot, int rc, struct strbuf *blob)
{
	sqlite3_stmt *s = NULL;

	if (rc < 0 || sqlite3_prepare_v2(st->db, rc > 0 ?
			       "INSERT OR REPLACE INTO dependency_packs"
			       " (boot_id, pack, schema_version) VALUES (?1, ?2,"
			       " (SELECT schema_version"
			       " FROM main.pragma_schema_version))" :
			       "DELETE FROM dependency_packs WHERE boot_id = ?1",
			       -1, &s, NULL))
		goto failed;
	if (sqlite3_bind_int64(s, 1, boot) ||
	    (rc > 0 && sqlite3_bind_blob(s, 2, blob->buf, (int)blob->len,
					 SQLITE_STATIC)) ||
	    sqlite3_step(s) != SQLITE_DONE)
		goto failed;
	sqlite3_finalize(s);
	/* not finalized again at failed: */
	s = NULL;
	if (store_exec(st, "RELEASE dep_pack", NULL))
		goto failed;
	return 0;
failed:
	warning("'%s': unable to write the dependency pack of boot %" PRId64 " (%s); its rows will be read instead",
		store_path(st), boot, sqlite3_errmsg(st->db));
	sqlite3_finalize(s);
	/* back to the savepoint: no pack; a transaction SQLite ended is lost */
	if (sqlite3_get_autocommit(st->db) ||
	    store_exec(st, "ROLLBACK TO dep_pack", NULL) ||
	    store_exec(st, "RELEASE dep_pack", NULL))
		return error("unable to write the dependencies of boot %" PRId64 " to '%s': its transaction ended",
			     boot, store_path(st));
	return 0;
}

int store_pack_write(struct store *st, int64_t boot)
{
	struct strbuf blob = STRBUF_INIT;
	int rc = -1, ret;

	/* a pack that cannot be written is declined, not the boot */
	if (!store_exec(st, "SAVEPOINT dep_pack", NULL))
		rc = build(st, boot, &blob);
	ret = put(st, boot, rc, &blob);
	strbuf_release(&blob);
	return ret;
}

int store_pack_rows(struct store *st, int64_t boot, const int64_t *boot_range,
		    const struct dep_pack_row *rows, size_t nr)
{
	struct strbuf blob = STRBUF_INIT;
	struct dep_pack h;
	int rc = -1, ret;

	if (!store_exec(st, "SAVEPOINT dep_pack", NULL)) {
		rc = boot_header(&h, boot_range[0], boot_range[1], boot_range[2]) &&
		     packable(st, rows, nr, boot_range[3]);
		if (rc)
			dep_pack_encode(&blob, &h, rows, nr);
	}
	ret = put(st, boot, rc, &blob);
	strbuf_release(&blob);
	return ret;
}

int store_pack_missing(struct store *st, int64_t after)
{
	sqlite3_stmt *s;
	int64_t *boots = NULL;
	size_t nr = 0, alloc = 0, i;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(st->db, "SELECT id FROM boots WHERE id > ?1"
			       " AND id NOT IN (SELECT boot_id FROM dependency_packs)",
			       -1, &s, NULL)) {
		warning("'%s': unable to find the boots without a dependency pack (%s)",
			store_path(st), sqlite3_errmsg(st->db));
		return 0;
	}
	sqlite3_bind_int64(s, 1, after);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ALLOC_GROW(boots, nr + 1, alloc);
		boots[nr++] = sqlite3_column_int64(s, 0);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		warning("'%s': unable to find the boots without a dependency pack (%s)",
			store_path(st), sqlite3_errmsg(st->db));
	for (i = 0; i < nr && !ret; i++)
		ret = store_pack_write(st, boots[i]);
	free(boots);
	return ret;
}

int store_pack_restamp(struct store *st)
{
	if (sqlite3_exec(st->db, "DELETE FROM dependency_packs WHERE schema_version"
			 " IS NOT (SELECT schema_version"
			 " FROM main.pragma_schema_version)", NULL, NULL, NULL))
		return store_fail(st, "unable to rewrite the dependency packs of");
	return store_pack_missing(st, 0);
}
