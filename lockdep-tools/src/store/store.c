// SPDX-License-Identifier: GPL-2.0
/*
 * The store: opening a database, migrating its schema forward, and the
 * one-transaction-per-boot life cycle of every write.
 *
 * NOTES ON THE DESIGN OF THE STORE
 *
 * (1) PRAGMA user_version is the schema version: the number of entries of
 *     store_migrations[] applied, in order. Each migration runs in its own
 *     transaction together with the user_version bump, so a database is
 *     always exactly at some version, never between two.
 * (2) A database at a version above store_schema_version() was written by
 *     a newer build: it is refused, never written.
 * (3) Foreign keys are on for every connection, so no row can point at a
 *     boot, report or class that does not exist, and deleting a boot
 *     deletes everything of it (ON DELETE CASCADE).
 * (4) The journal is WAL: readers (lockdep-report, sqlite3) never block
 *     the one writer, and a writer never sees a half-written page after a
 *     crash. A busy timeout makes a second writer wait, not fail at once.
 * (5) Every write of a boot happens between store_boot_begin() (BEGIN
 *     IMMEDIATE + the boots row) and store_boot_commit(). A collection
 *     that fails, is interrupted or crashes before the commit leaves the
 *     database as it was: no half boot, the previous boots intact.
 * (6) At most one boot is open per handle (st->boot_id != 0 exactly while
 *     the transaction of (5) is open).
 * (7) The store never prints to stdout and never exits; each failure is
 *     one error line naming the database file, and the caller decides.
 * (8) A writer's checkpoints are its own: SQLite's automatic one runs
 *     inside COMMIT and its failure (a full disk, a file size limit)
 *     becomes COMMIT's, so a boot that was stored looked lost.
 *     store_boot_commit() checkpoints after the commit, and a failure
 *     there is a warning: the boot is safe in the write-ahead log, and
 *     the next connection takes it in.
 * (9) It writes only into a database of ours (PRAGMA application_id, or
 *     one of ours from before it), and readers refuse others too: --db
 *     on another application's file must not add our tables to it.
 * (10) Readers open read-only and never migrate, create or write, not
 *     even the -shm file where they cannot (store_needs_immutable()).
 *     They read every schema version ever written: one older than this
 *     build's is copied into memory and the copy migrated
 *     (store_migrate_private()); the file stays as it was.
 *
 * States of a handle and the functions that move between them:
 *
 *   CLOSED --store_open()--> IDLE --store_boot_begin()--> IN_BOOT
 *   IN_BOOT --store_boot_commit() / store_boot_abort()--> IDLE
 *   IDLE --store_close()--> CLOSED   (IN_BOOT --store_close()--> aborted)
 */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store/dep-pack.h"
#include "store/schema.h"
#include "store/store-int.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * How long a writer waits for another's transaction before it gives up.
 * Writers queue: the last of N waits for the N - 1 before it, and on a
 * loaded 2-core machine eight small collections and merges into one
 * file took over 10 s for the last (t6200). A collection that took a
 * whole boot is worth a minute's wait.
 */
#define STORE_BUSY_TIMEOUT_MS	60000

static const char *const stmt_sql[ST_NR] = {
	[ST_BOOT_INSERT] =
		"INSERT INTO boots (label, collected_at, source, source_path,"
		" uuid) VALUES (?, ?, ?, ?, lower(hex(randomblob(16))))",
	[ST_FILE_INSERT] =
		"INSERT INTO files (boot_id, path, status, bytes, reason, content)"
		" VALUES (?, ?, ?, ?, ?, ?)",
	[ST_REPORT_INSERT] =
		"INSERT INTO reports (boot_id, seq, type, title, dedup_key,"
		" header, message, release, taint, task, pid, cpu,"
		" irq_context, hardware, irq_class, irq_event_stamp,"
		" old_format, truncated, input, first_line, last_line,"
		" backtrace, raw_dropped, kmsg_seq) VALUES (?, ?, ?, ?, ?, ?,"
		" ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_LOCK_INSERT] =
		"INSERT INTO report_locks (report_id, idx, role, name,"
		" class_name, version, subclass, usage, usage_bits,"
		" wait_outer, wait_inner, addr, held_index, holder, line)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_STACK_INSERT] =
		"INSERT INTO report_stacks (report_id, idx, label, lock_idx)"
		" VALUES (?, ?, ?, ?)",
	[ST_FRAME_INSERT] =
		"INSERT INTO report_frames (report_id, owner, owner_idx, idx,"
		" func, off, size, addr, module, build_id, file, line,"
		" unreliable, inlined) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
		" ?, ?, ?, ?)",
	[ST_CHAIN_INSERT] =
		"INSERT INTO report_chain (report_id, idx, lock_idx, stack_idx)"
		" VALUES (?, ?, ?, ?)",
	[ST_CHAIN_SUMMARY_INSERT] =
		"INSERT INTO report_chain_summary (report_id, idx, name)"
		" VALUES (?, ?, ?)",
	[ST_SCENARIO_INSERT] =
		"INSERT INTO report_scenario (report_id, idx, cpu, text)"
		" VALUES (?, ?, ?, ?)",
	[ST_IRQ_EVENT_INSERT] =
		"INSERT INTO report_irq_events (report_id, idx, what, stamp)"
		" VALUES (?, ?, ?, ?)",
	[ST_NOTE_INSERT] =
		"INSERT INTO report_notes (report_id, idx, text)"
		" VALUES (?, ?, ?)",
	[ST_RAW_INSERT] =
		"INSERT INTO report_raw (report_id, idx, lineno, text)"
		" VALUES (?, ?, ?, ?)",
	[ST_INLINE_INSERT] =
		"INSERT INTO frame_inlines (report_id, owner, owner_idx,"
		" frame_idx, depth, func, file, line)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_CLASS_INSERT] =
		"INSERT INTO classes (boot_id, key, name, ops, forward_deps,"
		" backward_deps, usage, usage_bits, wait_outer, wait_inner,"
		" identity) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_DEP_INSERT] =
		"INSERT OR IGNORE INTO dependencies (boot_id, from_class,"
		" to_class, dep_bits, distance, trace)"
		" VALUES (?, ?, ?, ?, ?, ?)",
	[ST_CHAIN_ROW_INSERT] =
		"INSERT INTO chains (boot_id, idx, irq_context)"
		" VALUES (?, ?, ?)",
	[ST_CHAIN_CLASS_INSERT] =
		"INSERT INTO chain_classes (chain_id, idx, key, name, class_id)"
		" VALUES (?, ?, ?, ?, ?)",
	[ST_STAT_INSERT] =
		"INSERT INTO stats (boot_id, idx, name, value, max)"
		" VALUES (?, ?, ?, ?, ?)",
	[ST_LOCK_STAT_INSERT] =
		"INSERT INTO lock_stat (boot_id, idx, name, read, con_bounces,"
		" contentions, waittime_min, waittime_max, waittime_total,"
		" waittime_avg, acq_bounces, acquisitions, holdtime_min,"
		" holdtime_max, holdtime_total, holdtime_avg)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_LOCK_POINT_INSERT] =
		"INSERT INTO lock_stat_points (boot_id, idx, class_seq, kind,"
		" name, count, addr, symbol) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_SELFTEST_INSERT] =
		"INSERT INTO selftest (boot_id, idx, section, test, variant,"
		" result) VALUES (?, ?, ?, ?, ?, ?)",
	[ST_EVENT_INSERT] =
		"INSERT INTO dependency_events (boot_id, seq, time_us, cpu, kind,"
		" class_idx, to_idx, dep_bits, distance, usage_bit, trace_id)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_CLASS_EVENT_INSERT] =
		"INSERT INTO class_events (boot_id, seq, time_us, cpu, class_idx,"
		" key_addr, subclass, name_version, name)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_SAMPLE_INSERT] =
		"INSERT INTO stats_samples (boot_id, idx, seq, time_ms, kind,"
		" interval_ms, kmsg_seq) VALUES (?, ?, ?, ?, ?, ?, ?)",
	[ST_SAMPLE_VALUE_INSERT] =
		"INSERT INTO stats_sample_values (boot_id, sample_idx, idx, name, value,"
		" max, known) VALUES (?, ?, ?, ?, ?, ?, ?)",
	[ST_SELFTEST_SUMMARY_INSERT] =
		"INSERT OR REPLACE INTO selftest_summary (boot_id, outcome,"
		" failures, total) VALUES (?, ?, ?, ?)",
};

int store_schema_version(void)
{
	return store_nr_migrations;
}

const char *store_path(const struct store *st)
{
	return st->path;
}

int store_fail(struct store *st, const char *what)
{
	return error("%s '%s': %s", what, st->path, sqlite3_errmsg(st->db));
}

sqlite3_stmt *store_stmt(struct store *st, enum store_stmt which)
{
	sqlite3_stmt *s = st->stmt[which];

	if (!s) {
		if (sqlite3_prepare_v3(st->db, stmt_sql[which], -1,
				       SQLITE_PREPARE_PERSISTENT, &s, NULL)) {
			store_fail(st, "unable to prepare a statement for");
			return NULL;
		}
		st->stmt[which] = s;
		return s;
	}
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return s;
}

int store_step_done(struct store *st, sqlite3_stmt *s, const char *what)
{
	int rc = sqlite3_step(s);

	if (rc != SQLITE_DONE) {
		error("unable to %s in '%s': %s", what, st->path,
		      sqlite3_errmsg(st->db));
		sqlite3_reset(s);
		return -1;
	}
	return 0;
}

void store_bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(s, i);
}

void store_bind_addr(sqlite3_stmt *s, int i, unsigned long long addr,
		     bool valid)
{
	char buf[20];

	if (!valid) {
		sqlite3_bind_null(s, i);
		return;
	}
	snprintf(buf, sizeof(buf), "%016llx", addr);
	sqlite3_bind_text(s, i, buf, -1, SQLITE_TRANSIENT);
}

void store_bind_u64(sqlite3_stmt *s, int i, unsigned long long v)
{
	sqlite3_bind_int64(s, i, (sqlite3_int64)v);
}

int store_need_boot(struct store *st, const char *what)
{
	if (st->boot_id)
		return 0;
	return error("unable to %s in '%s': no boot is open", what, st->path);
}

/* The one integer of @sql (a pragma, a count) to *@out; -1 after an error. */
static int store_query_int(struct store *st, const char *sql, int *out)
{
	sqlite3_stmt *s;
	int ret = -1;

	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL))
		return store_fail(st, "unable to read");
	if (sqlite3_step(s) == SQLITE_ROW) {
		*out = sqlite3_column_int(s, 0);
		ret = 0;
	} else {
		store_fail(st, "unable to read");
	}
	sqlite3_finalize(s);
	return ret;
}

int store_query_boot(struct store *st, const char *sql, int64_t boot,
		     int64_t *v, int n)
{
	sqlite3_stmt *s;
	int i, rc;

	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL))
		return -1;
	sqlite3_bind_int64(s, 1, boot);
	rc = sqlite3_step(s);
	for (i = 0; rc == SQLITE_ROW && i < n; i++)
		v[i] = sqlite3_column_type(s, i) == SQLITE_INTEGER ?
		       sqlite3_column_int64(s, i) : -1;
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : -1;
}

int store_user_version(struct store *st)
{
	int v;

	return store_query_int(st, "PRAGMA user_version", &v) ? -1 : v;
}

/* Invariant (1): one migration and its version bump, atomically. */
static int store_migrate_one(struct store *st, int from)
{
	char bump[64];
	int v;

	if (store_exec(st, "BEGIN IMMEDIATE", "lock"))
		return -1;
	/* another process may have migrated it since we looked (two
	 * collectors creating one database): look again under the lock */
	v = store_user_version(st);
	if (v < 0 || v > from) {
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return v < 0 ? -1 : 0;
	}
	snprintf(bump, sizeof(bump), "PRAGMA user_version = %d", from + 1);
	if (store_exec(st, store_migrations[from], "migrate the schema of") ||
	    /* the packs the schema changes left unstamped, and the boots
	     * stored before packs: anew, under the cookie of now */
	    (from + 1 == store_nr_migrations && store_pack_restamp(st)) ||
	    store_exec(st, bump, "migrate the schema of") ||
	    store_exec(st, "COMMIT", "commit the schema of")) {
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}

int store_migrate_to(struct store *st, int version)
{
	int v = store_user_version(st);

	if (v < 0)
		return -1;
	if (version > store_nr_migrations || v > version)
		return error("unable to migrate '%s' from schema version %d to %d",
			     st->path, v, version);
	for (; v < version; v++)
		if (store_migrate_one(st, v))
			return -1;
	return 0;
}

/*
 * Invariant (9): write only into a database of ours. One is ours if it
 * carries our application_id, or is a fresh file (nothing in it yet), or
 * is one of ours from before application_id: a schema version below
 * store_app_id_version with our boots table.
 */
static int store_check_ours(struct store *st, int version)
{
	int app_id, objects, boots;

	if (version < 0)
		return error("'%s' has schema version %d (PRAGMA user_version), below 0: damaged, or not a lockdep database",
			     st->path, version);
	if (store_query_int(st, "PRAGMA application_id", &app_id))
		return -1;
	if (app_id == STORE_APPLICATION_ID)
		return 0;
	if (app_id)
		return error("'%s' is not a lockdep database: its application_id is 0x%08x, ours is 0x%08x",
			     st->path, (unsigned int)app_id,
			     STORE_APPLICATION_ID);
	if (store_query_int(st, "SELECT count(*) FROM sqlite_master",
			    &objects) ||
	    store_query_int(st, "SELECT count(*) FROM sqlite_master"
			    " WHERE type = 'table' AND name = 'boots'", &boots))
		return -1;
	if (!objects && !version)
		return 0;
	if (boots && version > 0 && version < store_app_id_version)
		return 0;
	return error("'%s' is not a lockdep database: it holds tables but not our application_id",
		     st->path);
}

/*
 * The schema version and the checks of store_check_ours() are read in
 * one transaction, one snapshot: another process may be creating the
 * same new database, and a version read before its first migration with
 * tables read after it would look like somebody else's database.
 */
static int store_read_version(struct store *st, int *v)
{
	int ret;

	if (store_exec(st, "BEGIN", "configure"))
		return -1;
	/* also the first read: a file that is no database fails here */
	ret = store_query_int(st, "PRAGMA user_version", v);
	if (!ret && *v > store_nr_migrations)
		ret = error("'%s' has schema version %d, newer than this build's %d",
			    st->path, *v, store_nr_migrations);
	if (!ret)
		ret = store_check_ours(st, *v);
	/* nothing was written: ending the read cannot lose anything */
	sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
	return ret;
}

/*
 * Invariant (10) for a database of an older schema: read a private copy
 * of it, in memory, migrated to the schema of now. Writers migrate the
 * file itself (lockdep-collect --db, lockdep-merge --db).
 */
static int store_migrate_private(struct store *st, int v)
{
	sqlite3_backup *b;
	sqlite3 *mem;
	int rc;

	if (sqlite3_open_v2(":memory:", &mem, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		sqlite3_close(mem);
		return error("unable to read '%s': no memory for a copy", st->path);
	}
	b = sqlite3_backup_init(mem, "main", st->db, "main");
	rc = b ? sqlite3_backup_step(b, -1) : sqlite3_errcode(mem);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		store_fail(st, "unable to copy");
		sqlite3_close(mem);
		return -1;
	}
	sqlite3_close(st->db);
	st->db = mem;
	sqlite3_extended_result_codes(st->db, 1);
	warning("'%s' has schema version %d: reading a copy migrated to %d in memory (a tool that writes to it migrates the file)",
		st->path, v, store_nr_migrations);
	if (store_exec(st, "PRAGMA foreign_keys = ON", "configure") ||
	    store_graph_functions(st))
		return -1;
	return store_migrate_to(st, store_nr_migrations);
}

/*
 * Turning the file to WAL needs it alone, and SQLite does not call the
 * busy handler for that: two tools opening a new database at once (a
 * merge and a collect into one fleet database) saw "database is locked"
 * (t6200's case of the same name, once in a few dozen runs). WAL stays
 * with the file, so the first opener's conversion serves every later
 * one; until then this waits as the busy timeout would. A refused
 * conversion may also answer with the old mode instead of an error.
 */
static int store_journal_wal(struct store *st)
{
	const struct timespec pause = { 0, 10 * 1000 * 1000 };
	sqlite3_stmt *s = NULL;
	const char *mode = NULL;
	int rc, waited_ms;

	for (waited_ms = 0;; waited_ms += 10) {
		/* preparing it reads the schema: busy too while another writes */
		rc = sqlite3_prepare_v2(st->db, "PRAGMA journal_mode = WAL", -1,
					&s, NULL);
		if (rc == SQLITE_OK) {
			rc = sqlite3_step(s);
			mode = rc == SQLITE_ROW ? store_col_text(s, 0) : NULL;
			if (mode && !strcmp(mode, "wal")) {
				sqlite3_finalize(s);
				return 0;
			}
		}
		if ((rc == SQLITE_ROW || (rc & 0xff) == SQLITE_BUSY) &&
		    waited_ms < STORE_BUSY_TIMEOUT_MS) {
			sqlite3_finalize(s);
			s = NULL;
			nanosleep(&pause, NULL);
			continue;
		}
		if (rc == SQLITE_ROW) {
			error("unable to configure '%s': it stays in journal mode '%s', not WAL",
			      st->path, mode ? mode : "?");
			sqlite3_finalize(s);
			return -1;
		}
		sqlite3_finalize(s);
		return store_fail(st, "unable to configure");
	}
}

static int store_configure(struct store *st)
{
	int v;

	sqlite3_busy_timeout(st->db, STORE_BUSY_TIMEOUT_MS);
	if (store_exec(st, "PRAGMA foreign_keys = ON", "configure") ||
	    store_graph_functions(st))
		return -1;
	if (store_read_version(st, &v))
		return -1;
	if (st->read_only)
		return v < store_nr_migrations ? store_migrate_private(st, v) : 0;
	/*
	 * The dependency_packs triggers make every INSERT a statement that
	 * may write more than one row, so SQLite keeps a statement journal
	 * for each; in a temp file (once one statement passed 64 KiB) that
	 * was a pwrite per journaled page, a million for 650k rows. In
	 * memory it is bounded by the pages one statement changes.
	 */
	if (store_journal_wal(st) ||
	    store_exec(st, "PRAGMA wal_autocheckpoint = 0", "configure") ||
	    store_exec(st, "PRAGMA temp_store = MEMORY", "configure"))
		return -1;
	return store_migrate_to(st, store_nr_migrations);
}

/*
 * Invariant (10): a reader of a WAL database needs its -shm file, which
 * SQLite cannot create where the reader may not write (read-only media,
 * another user's directory). With no -wal file beside it the database
 * file holds every committed boot, so it is read as immutable: no -shm,
 * no locks. Anything else is SQLite's own error.
 */
static bool store_needs_immutable(struct store *st)
{
	sqlite3_stmt *s;
	struct strbuf wal = STRBUF_INIT;
	int rc;
	bool ret;

	if (sqlite3_prepare_v2(st->db, "PRAGMA application_id", -1, &s, NULL))
		rc = sqlite3_errcode(st->db);
	else
		rc = sqlite3_step(s) == SQLITE_ROW ? SQLITE_OK :
		     sqlite3_extended_errcode(st->db);
	sqlite3_finalize(s);
	if ((rc & 0xff) != SQLITE_READONLY && (rc & 0xff) != SQLITE_CANTOPEN)
		return false;
	strbuf_addf(&wal, "%s-wal", st->path);
	ret = access(wal.buf, F_OK) && errno == ENOENT;
	strbuf_release(&wal);
	return ret;
}

char *store_uri(const char *path, const char *query)
{
	static const char hex[] = "0123456789abcdef";
	struct strbuf sb = STRBUF_INIT;
	const unsigned char *p;

	/*
	 * An absolute path gets an empty authority ("file://"), else one
	 * starting with "//" would be read as the authority.
	 */
	strbuf_addstr(&sb, *path == '/' ? "file://" : "file:");
	for (p = (const unsigned char *)path; *p; p++) {
		if (isalnum(*p) || strchr("/-._~", *p)) {
			strbuf_addch(&sb, *p);
		} else {
			strbuf_addch(&sb, '%');
			strbuf_addch(&sb, hex[*p >> 4]);
			strbuf_addch(&sb, hex[*p & 15]);
		}
	}
	strbuf_addf(&sb, "?%s", query);
	return strbuf_detach(&sb, NULL);
}

/*
 * SQLite's settings of the whole process, before its first connection:
 * no count of the memory it holds (nothing here reads it), which takes
 * a mutex of the process at each of its allocations (4 % of the
 * instructions of a 20-boot lockdep-merge).
 */
static void store_config_sqlite(void)
{
	/* SQLITE_MISUSE once SQLite is initialised: its default stays */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

struct store *store_open(const char *path, unsigned int flags)
{
	static pthread_once_t config = PTHREAD_ONCE_INIT;
	struct store *st;
	char *uri;
	int oflags;

	pthread_once(&config, store_config_sqlite);

	/* SQLite's temporary databases: everything stored would be lost */
	if (!*path || !strcmp(path, ":memory:")) {
		error("refusing the database '%s': SQLite takes an empty name or ':memory:' for a temporary database, lost at exit",
		      path);
		return NULL;
	}
	st = xcalloc(1, sizeof(*st));
	st->path = xstrdup(path);
	st->read_only = flags & STORE_READ_ONLY;
	/*
	 * One connection per thread: no mutex around every column read.
	 * URIs on whatever SQLite's build says: ATTACH takes a source
	 * read-only through one (store-merge.c).
	 */
	oflags = (st->read_only ? SQLITE_OPEN_READONLY :
		  SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) |
		 SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI;
	if (sqlite3_open_v2(path, &st->db, oflags, NULL) != SQLITE_OK)
		goto fail;
	if (st->read_only && store_needs_immutable(st)) {
		sqlite3_close(st->db);
		uri = store_uri(path, "immutable=1");
		st->immutable = true;
		if (sqlite3_open_v2(uri, &st->db, oflags, NULL) != SQLITE_OK) {
			free(uri);
			goto fail;
		}
		free(uri);
	}
	sqlite3_extended_result_codes(st->db, 1);
	if (store_configure(st)) {
		store_close(st);
		return NULL;
	}
	return st;
fail:
	store_fail(st, "unable to open database");
	store_close(st);
	return NULL;
}

void store_close(struct store *st)
{
	int i;

	if (!st)
		return;
	if (st->boot_id)
		store_boot_abort(st);
	for (i = 0; i < ST_NR; i++)
		sqlite3_finalize(st->stmt[i]);
	for (i = 0; i < STORE_REPORT_PARTS; i++)
		sqlite3_finalize(st->report_parts[i]);
	sqlite3_finalize(st->report_rows);
	sqlite3_close(st->db);
	free(st->path);
	free(st);
}

/* ---- boots: invariants (5) and (6) ---- */

int store_boot_begin(struct store *st, const struct store_boot *b,
		     int64_t *boot_id)
{
	char now[32];
	struct tm tm;
	time_t t = time(NULL);
	sqlite3_stmt *s;

	assert(!st->boot_id);
	if (st->read_only)
		return error("unable to add a boot to '%s': opened read-only",
			     st->path);
	if (store_exec(st, "BEGIN IMMEDIATE", "start a boot in"))
		return -1;
	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	s = store_stmt(st, ST_BOOT_INSERT);
	if (!s)
		goto fail;
	store_bind_text(s, 1, b->label);
	store_bind_text(s, 2, now);
	store_bind_text(s, 3, b->source);
	store_bind_text(s, 4, b->source_path);
	if (store_step_done(st, s, "add a boot"))
		goto fail;
	st->boot_id = sqlite3_last_insert_rowid(st->db);
	st->nr_chains = st->nr_stats = st->nr_lock_stat = 0;
	st->nr_points = st->nr_selftest = st->nr_events = 0;
	*boot_id = st->boot_id;
	return 0;
fail:
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* The boots columns store_boot_set() may write. */
static const char *const boot_columns[] = {
	"kernel_release", "kernel_version", "build_id", "cmdline", "config",
	"agent", "manifest", "label", "partial_reason", "not_offered",
};

int store_boot_set(struct store *st, const char *column, const char *value)
{
	char sql[96];
	sqlite3_stmt *s;
	size_t i;
	int ret;

	if (store_need_boot(st, "describe a boot"))
		return -1;
	for (i = 0; i < sizeof(boot_columns) / sizeof(*boot_columns); i++)
		if (!strcmp(boot_columns[i], column))
			break;
	/* a column name from our own code, never from input */
	assert(i < sizeof(boot_columns) / sizeof(*boot_columns));
	snprintf(sql, sizeof(sql), "UPDATE boots SET %s = ? WHERE id = ?",
		 boot_columns[i]);
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL))
		return store_fail(st, "unable to describe a boot in");
	store_bind_text(s, 1, value);
	sqlite3_bind_int64(s, 2, st->boot_id);
	ret = store_step_done(st, s, "describe a boot");
	sqlite3_finalize(s);
	return ret;
}

int store_boot_commit(struct store *st, const char *completeness)
{
	sqlite3_stmt *s;
	int ret;

	if (store_need_boot(st, "commit a boot"))
		return -1;
	if (sqlite3_prepare_v2(st->db,
			"UPDATE boots SET completeness = ? WHERE id = ?",
			-1, &s, NULL)) {
		store_fail(st, "unable to commit a boot to");
		store_boot_abort(st);
		return -1;
	}
	store_bind_text(s, 1, completeness);
	sqlite3_bind_int64(s, 2, st->boot_id);
	ret = store_step_done(st, s, "commit a boot");
	sqlite3_finalize(s);
	if (!ret)
		ret = store_pack_write(st, st->boot_id);
	if (!ret)
		ret = store_exec(st, "COMMIT", "commit a boot to");
	if (ret) {
		store_boot_abort(st);
		return -1;
	}
	if (sqlite3_wal_checkpoint_v2(st->db, NULL, SQLITE_CHECKPOINT_PASSIVE,
				      NULL, NULL) != SQLITE_OK)
		warning("boot %" PRId64 " is stored, in the write-ahead log '%s-wal': moving it into '%s' failed (%s); the next open of the database will",
			st->boot_id, st->path, st->path,
			sqlite3_errmsg(st->db));
	st->boot_id = 0;
	store_classes_reset(st);
	return 0;
}

void store_boot_abort(struct store *st)
{
	int i;

	if (!st->boot_id)
		return;
	/* a statement still stepping would keep the transaction alive */
	for (i = 0; i < ST_NR; i++)
		if (st->stmt[i])
			sqlite3_reset(st->stmt[i]);
	if (sqlite3_get_autocommit(st->db) == 0)
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	st->boot_id = 0;
	store_classes_reset(st);
}

int store_add_file(struct store *st, const char *path, const char *status,
		   uint64_t bytes, const char *reason, const void *content,
		   size_t len)
{
	sqlite3_stmt *s;

	if (store_need_boot(st, "add a file"))
		return -1;
	s = store_stmt(st, ST_FILE_INSERT);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, st->boot_id);
	store_bind_text(s, 2, path);
	store_bind_text(s, 3, status);
	sqlite3_bind_int64(s, 4, (sqlite3_int64)bytes);
	store_bind_text(s, 5, reason);
	/* over SQLITE_LIMIT_LENGTH the column would silently stay NULL */
	if (content &&
	    sqlite3_bind_blob64(s, 6, content, len, SQLITE_STATIC) != SQLITE_OK) {
		error("unable to store '%s' in '%s': %zu bytes, over SQLite's limit of %d per value",
		      path, st->path, len,
		      sqlite3_limit(st->db, SQLITE_LIMIT_LENGTH, -1));
		return -1;
	}
	return store_step_done(st, s, "add a file");
}
