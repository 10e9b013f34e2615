/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the store: the open handle and the prepared-statement cache
 * shared by store.c (open, migrations, boots), store-report.c (writing
 * reports) and store-read.c (reading them back).
 */
#ifndef STORE_STORE_INT_H
#define STORE_STORE_INT_H

#include <sqlite3.h>

#include "store/store.h"

enum store_stmt {
	ST_BOOT_INSERT,
	ST_FILE_INSERT,
	ST_REPORT_INSERT,
	ST_LOCK_INSERT,
	ST_STACK_INSERT,
	ST_FRAME_INSERT,
	ST_CHAIN_INSERT,
	ST_CHAIN_SUMMARY_INSERT,
	ST_SCENARIO_INSERT,
	ST_IRQ_EVENT_INSERT,
	ST_NOTE_INSERT,
	ST_RAW_INSERT,
	ST_INLINE_INSERT,
	ST_CLASS_INSERT,
	ST_DEP_INSERT,
	ST_CHAIN_ROW_INSERT,
	ST_CHAIN_CLASS_INSERT,
	ST_STAT_INSERT,
	ST_LOCK_STAT_INSERT,
	ST_LOCK_POINT_INSERT,
	ST_SELFTEST_SUMMARY_INSERT,
	ST_SELFTEST_INSERT,
	ST_EVENT_INSERT,
	ST_CLASS_EVENT_INSERT,
	ST_SAMPLE_INSERT,
	ST_SAMPLE_VALUE_INSERT,
	ST_NR
};

#define STORE_REPORT_PARTS	10

struct store {
	sqlite3 *db;
	char *path;
	bool read_only;
	bool immutable;		/* read without locks (store_needs_immutable()) */
	int64_t boot_id;	/* the open boot, 0 if none */
	struct class_map *classes;	/* store-proc.c: the open boot's */
	/* per-boot row counters of the tables keyed by (boot_id, idx) */
	long long nr_chains, nr_stats, nr_lock_stat, nr_points, nr_selftest;
	long long nr_events;
	sqlite3_stmt *stmt[ST_NR];
	/* store-read.c: the queries of a report's parts, kept between reports */
	sqlite3_stmt *report_parts[STORE_REPORT_PARTS];
	/* store-read.c: a boot's reports (store_report_foreach()), kept */
	sqlite3_stmt *report_rows;
	struct pack_check *pack_check;	/* store-graph.c: being checked */
};

/* "file:@path?@query", @path percent-encoded as RFC 3986 wants. */
char *store_uri(const char *path, const char *query);

/*
 * The SQL functions store-graph.c's queries use, on a new connection: 0,
 * or -1 after an error was printed.
 */
int store_graph_functions(struct store *st);

/* Print "@what '@path': sqlite's message" and return -1. */
int store_fail(struct store *st, const char *what);

/*
 * The cached statement @which, reset with its bindings cleared, or NULL
 * after an error was printed.
 */
sqlite3_stmt *store_stmt(struct store *st, enum store_stmt which);

/*
 * The first @n integers of the one row of @sql, whose ?1 is @boot, to
 * @v (-1 for a value that is not an integer): 0, or -1 after an SQLite
 * error, printed by no one.
 */
int store_query_boot(struct store *st, const char *sql, int64_t boot,
		     int64_t *v, int n);

/*
 * The SQL helpers of every store file, once (store-sql.c). Readers:
 *
 *   if (store_prepare(st, sql, &s))
 *           return -1;
 *   while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW)
 *           ret = ...store_col_text(s, 0)...;
 *   return store_finish(st, s, rc, ret);
 */
/* Prepare @sql into *@s: 0, or -1 after printing "unable to read". */
int store_prepare(struct store *st, const char *sql, sqlite3_stmt **s);
/*
 * Finalize a SELECT loop that ended with @rc: @ret if not 0 (the loop's
 * own verdict), else 0, or -1 after printing "unable to read" unless the
 * loop reached SQLITE_DONE.
 */
int store_finish(struct store *st, sqlite3_stmt *s, int rc, int ret);
/*
 * Each row of @sql, whose ?1 is @boot, to @row(@s, @data) until it
 * returns non-zero: that value, else 0, or -1 after printing "unable to
 * read" (the loop above, once).
 */
int store_each_row(struct store *st, const char *sql, int64_t boot,
		   int (*row)(sqlite3_stmt *s, void *data), void *data);
/* Column @i as text, NULL for NULL; valid until the next step. */
const char *store_col_text(sqlite3_stmt *s, int i);
/*
 * Column @i, a class name or identity, as C text: a stored NUL (the
 * bytes may hold one, lockdep-db(5)), which would end the string early
 * and make 'a\0x' and 'a\0y' one class, is written "\0" instead, in
 * @sb. NULL for NULL; valid until the next step or use of @sb.
 */
struct strbuf;
const char *store_col_name(sqlite3_stmt *s, int i, struct strbuf *sb);
/* ... as a copy the caller frees, NULL for NULL. */
char *store_col_strdup(sqlite3_stmt *s, int i);
/*
 * Run @sql (no parameters, no rows): 0, or -1 after printing "unable to
 * @what '@path': message" (printed by no one if @what is NULL).
 */
int store_exec(struct store *st, const char *sql, const char *what);

/* Step @s to SQLITE_DONE; -1 after printing @what failed. */
int store_step_done(struct store *st, sqlite3_stmt *s, const char *what);

/* Bind helpers: NULL for a NULL string, hex TEXT for kernel addresses. */
void store_bind_text(sqlite3_stmt *s, int i, const char *v);
void store_bind_addr(sqlite3_stmt *s, int i, unsigned long long addr,
		     bool valid);
/* Bound as an INTEGER, the same 64 bits read back by store-read.c. */
void store_bind_u64(sqlite3_stmt *s, int i, unsigned long long v);

/* Forget the open boot's class map (store-proc.c). */
void store_classes_reset(struct store *st);

/* Must be inside store_boot_begin()..commit/abort; else print and -1. */
int store_need_boot(struct store *st, const char *what);

#endif
