/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A boot's dependency pack (lockdep-db(5) dependency_packs): the rows of
 * its dependencies as one checked blob, so that a reader of a million
 * edges steps SQLite once instead of a million times.
 *
 * Layout, little-endian:
 *
 *   0  "LDPK"
 *   4  u32 version (DEP_PACK_VERSION)
 *   8  u32 nr: rows (the boot's dependency rows when it was packed)
 *  12  u32 flags: which optional fields each row has (DEP_PACK_*)
 *  16  u32 the boot's classes when it was packed
 *  20  i64 the boot's smallest class id (lo)
 *  28  i64 the boot's largest class id
 *  36  u32 CRC-32 (zlib's) of bytes 0-35 and of the rows
 *  40  nr rows of row_size bytes each:
 *        u32 from, u32 to: classes.id minus lo
 *        u32 trace_id   (DEP_PACK_TRACE; 0xffffffff: NULL)
 *        u16 distance   (DEP_PACK_DISTANCE; 0xffff: NULL)
 *        u8  dep_bits   (DEP_PACK_BITS; 0xff: NULL)
 *
 * A blob is untrusted like every byte of the database: the reader checks
 * the magic, the version, the flags, that the length is exactly the
 * header and nr rows, and the CRC, before any row is used; its caller
 * checks the boot's classes against the header and its rows against
 * the pack's (a forged pack may have a valid CRC).
 */
#ifndef STORE_DEP_PACK_H
#define STORE_DEP_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"
#include "util/strbuf.h"

#define DEP_PACK_VERSION 1
#define DEP_PACK_HEADER 40
/* the reader's chunk: the largest read of the blob at once */
#define DEP_PACK_CHUNK 65536

enum dep_pack_flags {
	DEP_PACK_TRACE = 1 << 0,
	DEP_PACK_DISTANCE = 1 << 1,
	DEP_PACK_BITS = 1 << 2,
	DEP_PACK_ALL = (1 << 3) - 1,
};

/* One dependency row; -1 for a NULL dep_bits, distance or trace_id. */
struct dep_pack_row {
	uint32_t from, to;	/* classes.id - the boot's smallest */
	int dep_bits, distance;
	int64_t trace_id;
};

/* A header: what dep_pack_encode() takes of it, and what a reader finds. */
struct dep_pack {
	uint32_t nr, flags, crc;
	uint32_t classes;	/* the boot's classes, */
	int64_t lo, hi;		/* their smallest and largest id */
	size_t row_size;
};

/* The size of a pack of @nr rows with @flags. */
uint64_t dep_pack_size(uint64_t nr, uint32_t flags);

/* The flags (optional fields) that @nr rows need. */
uint32_t dep_pack_flags(const struct dep_pack_row *rows, size_t nr);

/*
 * Append the pack of the @nr rows @rows (each fitting) of the boot that
 * @boot's classes, lo and hi describe to @out.
 */
void dep_pack_encode(struct strbuf *out, const struct dep_pack *boot,
		     const struct dep_pack_row *rows, size_t nr);

/*
 * Where a reader gets a pack's bytes: @read copies @n bytes at @off
 * into @buf (0, or -1 if they cannot be read). The reader reads at most
 * @chunk bytes at once (DEP_PACK_CHUNK; at least DEP_PACK_HEADER) into
 * @buf, of @chunk bytes.
 */
struct dep_pack_src {
	int (*read)(void *ctx, unsigned char *buf, size_t n, size_t off);
	void *ctx;
	size_t len;		/* of the blob */
	size_t chunk;
	unsigned char *buf;
	bool unreadable;	/* set when @read failed */
};

/*
 * Whether a boot whose class ids run from @lo to @hi can have a pack:
 * each id an offset of less than 0xffffffff from @lo, and @lo plus any
 * 32-bit offset an int64_t. The writer packs only such boots, and the
 * reader reads only their packs.
 */
bool dep_pack_ids_fit(int64_t lo, int64_t hi);

/*
 * Read and check the header and the length of the pack in @src into
 * @p: NULL, or why it is damaged. Cheap: only the header is read, so
 * that a caller can check it against the boot before the whole blob.
 */
const char *dep_pack_header(struct dep_pack *p, struct dep_pack_src *src);

/*
 * Check the CRC of the pack in @src, whose header dep_pack_header()
 * read into @p: NULL, or why it is damaged.
 */
const char *dep_pack_check_crc(const struct dep_pack *p,
			       struct dep_pack_src *src);

/* dep_pack_header() and then dep_pack_check_crc(). */
const char *dep_pack_verify(struct dep_pack *p, struct dep_pack_src *src);

/* The rows of a pack one at a time: dep_pack_cursor_init(), then next. */
struct dep_pack_cursor {
	const struct dep_pack *p;
	struct dep_pack_src *src;
	size_t left;		/* rows not yet read into src->buf */
	size_t in_buf, at;	/* rows in src->buf, the next one's index */
	size_t off;		/* of the next read in the blob */
};

/* A cursor on the rows of the pack @p (checked by dep_pack_verify()). */
void dep_pack_cursor_init(struct dep_pack_cursor *c, const struct dep_pack *p,
			  struct dep_pack_src *src);

/* The next row into @row: 1, 0 after the last, -1 with unreadable set. */
int dep_pack_next(struct dep_pack_cursor *c, struct dep_pack_row *row);

/*
 * Each row of the pack @p (checked by dep_pack_verify()) to @fn, read
 * from @src: 0, @fn's non-zero return, or -1 with src->unreadable set.
 */
int dep_pack_each(const struct dep_pack *p, struct dep_pack_src *src,
		  int (*fn)(const struct dep_pack_row *r, void *data),
		  void *data);

/*
 * The columns of a dependencies row (of alias @t, e.g. "d.") that
 * dep_pack_row_read() reads, in its order.
 */
#define DEP_PACK_COLUMNS(t) t "from_class, " t "to_class, " t "dep_bits, " \
	t "distance, " t "trace_id, " t "trace IS NOT NULL"

/*
 * The DEP_PACK_COLUMNS() of the row of @s from column @col into @r,
 * class ids as offsets from @lo: false if the format cannot hold it (a
 * trace text, a value that is not an integer or out of range, a class
 * below @lo or 0xffffffff past it).
 */
struct sqlite3_stmt;
bool dep_pack_row_read(struct sqlite3_stmt *s, int col, int64_t lo,
		       struct dep_pack_row *r);

/*
 * Write (or replace) the pack of boot @boot from its dependency rows, in
 * the caller's transaction, stamped with the schema cookie it is written
 * under (schema.c, version 11). A boot with no classes, a row the format
 * cannot hold (a trace text, a value that is not an integer or out of
 * range, a class below the boot's smallest), a row outside the range of
 * the boot's class ids or a pack larger than SQLite takes gets none, and
 * so does a boot whose pack could not be written (a warning): readers
 * read its rows. 0, or -1 after an error was printed if the caller's
 * transaction is gone.
 */
int store_pack_write(struct store *st, int64_t boot);

/*
 * store_pack_write() from rows a caller read: the @nr rows @rows of
 * boot @boot, every one fitting (dep_pack_row_read()), whose from_class
 * lies between its smallest and largest class id; @boot_range holds
 * those two ids, the boot's count of classes and its count of
 * dependency rows (the pack is written only if @nr is that count).
 */
int store_pack_rows(struct store *st, int64_t boot, const int64_t *boot_range,
		    const struct dep_pack_row *rows, size_t nr);

/* store_pack_write() for every boot above @after without a pack. */
int store_pack_missing(struct store *st, int64_t after);

/*
 * Drop every pack not stamped with the schema cookie of now (a migration
 * changed the schema since it was written), then store_pack_missing()
 * from the first boot: 0, or -1 after an error was printed.
 */
int store_pack_restamp(struct store *st);

#endif
