// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the SQLite store: the schema and its pragmas, migration
 * from an older version, one transaction per boot (an aborted or killed
 * collection leaves nothing), reports that come back as they went in, and
 * the sizes graph readers take from the dependency packs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "parse/klog.h"
#include "store/dep-pack.h"
#include "store/schema.h"
#include "store/store.h"
#include "store/store-graph.h"
#include "store/store-int.h"	/* the connection, to lower its limit */

static char dir[] = "/tmp/test-store.XXXXXX";
static char path[64];

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/test-store.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/db", dir);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

/* The one integer a query on a plain sqlite3 connection answers. */
static long long query_int(const char *sql)
{
	sqlite3_stmt *s;
	sqlite3 *db;
	long long v = -1;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return v;
}

static void exec_raw(const char *sql)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

#define LOG								\
	"[   12.000000] ======================================================\n" \
	"[   12.000000] WARNING: possible circular locking dependency detected\n" \
	"[   12.000000] 6.1.0 #1 Not tainted\n"				\
	"[   12.000000] ------------------------------------------------------\n" \
	"[   12.000000] insmod/77 is trying to acquire lock:\n"		\
	"[   12.000000] ffff888000000010 (lock_b\"'; DROP TABLE boots;--){+.+.}-{3:3}, at: ab_ba_init+0x30/0x60 [m]\n" \
	"[   12.000000] \n"						\
	"[   12.000000] but task is already holding lock:\n"		\
	"[   12.000000] ffff888000000020 (lock_a){+.+.}-{3:3}, at: ab_ba_init+0x20/0x60 [m]\n" \
	"[   12.000000] \n"						\
	"[   12.000000] which lock already depends on the new lock.\n"	\
	"[   12.000000] \n"						\
	"[   12.000000] the existing dependency chain (in reverse order) is:\n" \
	"[   12.000000] \n"						\
	"[   12.000000] -> #1 (lock_a){+.+.}-{3:3}:\n"			\
	"[   12.000000]        lock_acquire+0xc4/0x2d0\n"		\
	"[   12.000000]        ba_init+0x10/0x60 [m]\n"			\
	"[   12.000000] \n"						\
	"[   12.000000] -> #0 (lock_b\"'; DROP TABLE boots;--){+.+.}-{3:3}:\n" \
	"[   12.000000]        lock_acquire+0xc4/0x2d0\n"		\
	"[   12.000000]        ab_ba_init+0x30/0x60 [m]\n"		\
	"[   12.000000] \n"						\
	"[   12.000000] other info that might help us debug this:\n"	\
	"[   12.000000] \n"						\
	"[   12.000000] 1 lock held by insmod/77:\n"			\
	"[   12.000000]  #0: ffff888000000020 (lock_a){+.+.}-{3:3}, at: ab_ba_init+0x20/0x60 [m]\n" \
	"[   12.000000] \n"						\
	"[   12.000000] stack backtrace:\n"				\
	"[   12.000000] CPU: 0 PID: 77 Comm: insmod Not tainted 6.1.0 #1\n" \
	"[   12.000000] Call Trace:\n"					\
	"[   12.000000]  <TASK>\n"					\
	"[   12.000000]  dump_stack_lvl+0x45/0x5d\n"			\
	"[   12.000000]  ? ab_ba_init+0x30/0x60 [m]\n"			\
	"[   12.000000]  </TASK>\n"

static void keep(struct ldr_report *r, void *data)
{
	struct ldr_report **out = data;

	assert_null(*out);
	*out = r;
}

static struct ldr_report *parse_log(void)
{
	struct ldr_report *r = NULL;
	unsigned int id = 1;
	FILE *in = fmemopen((void *)LOG, strlen(LOG), "r");

	assert_non_null(in);
	assert_int_equal(klog_parse_stream(in, "test.log", &id, keep, &r), 0);
	fclose(in);
	assert_non_null(r);
	return r;
}

/* One committed boot holding the report of LOG; returns its id. */
static int64_t add_boot(struct store *st, const char *label)
{
	struct store_boot b = { .label = label, .source = "log",
				.source_path = "test.log" };
	struct ldr_report *r = parse_log();
	int64_t id;

	assert_int_equal(store_boot_begin(st, &b, &id), 0);
	assert_int_equal(store_boot_set(st, "kernel_release", "6.1.0"), 0);
	assert_int_equal(store_add_report(st, r, NULL), 0);
	assert_int_equal(store_boot_commit(st, "complete"), 0);
	report_free(r);
	return id;
}

static void test_fresh_schema(void **state)
{
	struct store *st;

	(void)state;
	st = store_open(path, 0);
	assert_non_null(st);
	assert_int_equal(store_user_version(st), store_schema_version());
	assert_int_equal(store_schema_version(), store_nr_migrations);
	store_close(st);
	assert_int_equal(query_int("PRAGMA user_version"), store_nr_migrations);
	/* the migration's literal is the header's constant */
	assert_int_equal(query_int("PRAGMA application_id"),
			 STORE_APPLICATION_ID);
	assert_int_equal(query_int(
		"SELECT count(*) FROM sqlite_master WHERE name IN ('boots',"
		" 'reports', 'report_locks', 'report_frames', 'classes',"
		" 'dependencies', 'chains', 'stats', 'lock_stat', 'selftest',"
		" 'reports_by_type', 'irq_safe_classes',"
		" 'class_dependency_counts')"), 13);
}

static void test_pragmas(void **state)
{
	struct store *st;

	(void)state;
	st = store_open(path, 0);
	assert_non_null(st);
	store_close(st);
	/* WAL is a property of the file, kept for every later connection */
	{
		sqlite3_stmt *s;
		sqlite3 *db;

		assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
		sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &s, NULL);
		assert_int_equal(sqlite3_step(s), SQLITE_ROW);
		assert_string_equal((const char *)sqlite3_column_text(s, 0),
				    "wal");
		sqlite3_finalize(s);
		sqlite3_close(db);
	}
}

static void test_foreign_keys_cascade(void **state)
{
	struct store *st;
	int64_t a, b;

	(void)state;
	st = store_open(path, 0);
	assert_non_null(st);
	a = add_boot(st, "a");
	b = add_boot(st, "b");
	assert_true(b > a);
	store_close(st);
	exec_raw("PRAGMA foreign_keys = ON; DELETE FROM boots WHERE label = 'a'");
	assert_int_equal(query_int("SELECT count(*) FROM reports"), 1);
	assert_int_equal(query_int("SELECT count(*) FROM report_locks l"
				   " JOIN reports r ON r.id = l.report_id"
				   " WHERE r.boot_id <> (SELECT id FROM boots)"),
			 0);
	assert_int_equal(query_int("SELECT count(*) FROM report_frames f"
				   " WHERE f.report_id NOT IN"
				   " (SELECT id FROM reports)"), 0);
}

/* An old database: version 1 written by "an older build", with a boot. */
static void test_migration_from_v1(void **state)
{
	struct store *st;
	char *sql;

	(void)state;
	sql = malloc(strlen(store_migrations[0]) + 64);
	sprintf(sql, "%sPRAGMA user_version = 1;", store_migrations[0]);
	exec_raw(sql);
	free(sql);
	exec_raw("INSERT INTO boots (label, collected_at, source, completeness)"
		 " VALUES ('old', '2024-01-01T00:00:00Z', 'log', 'complete');"
		 "INSERT INTO reports (boot_id, seq, type, title, dedup_key,"
		 " header, old_format, truncated, input, first_line, last_line,"
		 " raw_dropped) VALUES (1, 1, 'recursive-locking',"
		 " 'possible deadlock in f', 'k', 'WARNING: x', 0, 0, 'a.log',"
		 " 1, 2, 0)");
	assert_int_equal(query_int("SELECT count(*) FROM sqlite_master"
				   " WHERE name = 'classes'"), 0);

	/* a reader reads a migrated copy: the file stays at version 1 */
	st = store_open(path, STORE_READ_ONLY);
	assert_non_null(st);
	assert_int_equal(store_user_version(st), store_schema_version());
	store_close(st);
	assert_int_equal(query_int("PRAGMA user_version"), 1);
	st = store_open(path, 0);
	assert_non_null(st);
	assert_int_equal(store_user_version(st), store_schema_version());
	store_close(st);
	assert_int_equal(query_int("PRAGMA application_id"),
			 STORE_APPLICATION_ID);
	assert_int_equal(query_int("SELECT count(*) FROM sqlite_master"
				   " WHERE name = 'classes'"), 1);
	assert_int_equal(query_int("SELECT count(*) FROM boot_summary"
				   " WHERE label = 'old' AND reports = 1"), 1);
}

static void test_migrate_refuses_back_and_newer(void **state)
{
	struct store *st;

	(void)state;
	st = store_open(path, 0);
	assert_non_null(st);
	assert_int_equal(store_migrate_to(st, 1), -1);
	store_close(st);
	exec_raw("PRAGMA user_version = 999");
	assert_null(store_open(path, 0));
	assert_null(store_open(path, STORE_READ_ONLY));
}

static void test_not_a_database(void **state)
{
	FILE *fp;

	(void)state;
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("this is not a database, just text that is long enough to"
	      " fill a header of one hundred bytes or so..............\n", fp);
	fclose(fp);
	assert_null(store_open(path, 0));
}

static void test_abort_leaves_nothing(void **state)
{
	struct store_boot b = { .source = "log" };
	struct ldr_report *r;
	struct store *st;
	int64_t first, id;
	bool found;

	(void)state;
	st = store_open(path, 0);
	assert_non_null(st);
	first = add_boot(st, "first");
	r = parse_log();
	assert_int_equal(store_boot_begin(st, &b, &id), 0);
	assert_int_equal(store_add_report(st, r, NULL), 0);
	assert_int_equal(store_add_file(st, "/proc/version", "complete", 5,
					NULL, "Linux", 5), 0);
	store_boot_abort(st);
	report_free(r);
	/* adding outside a boot is refused, not silently auto-committed */
	assert_int_equal(store_add_file(st, "/x", "complete", 0, NULL, "", 0),
			 -1);
	assert_int_equal(store_boot_latest(st), first);
	r = store_report_load(st, 1, &found);
	assert_true(found);
	report_free(r);
	store_close(st);
	assert_int_equal(query_int("SELECT count(*) FROM boots"), 1);
	assert_int_equal(query_int("SELECT count(*) FROM files"), 0);
	assert_int_equal(query_int("SELECT count(*) FROM reports"), 1);
}

/*
 * A file longer than SQLite's length limit (1,000,000,000 bytes by
 * default; lowered here, the same check) is an error, never a row
 * that says complete with no content.
 */
static void test_file_over_length_limit(void **state)
{
	static char big[1001];
	struct store_boot b = { .source = "log" };
	struct store *st;
	int64_t id;

	(void)state;
	st = store_open(path, 0);
	assert_non_null(st);
	sqlite3_limit(st->db, SQLITE_LIMIT_LENGTH, 1000);
	assert_int_equal(store_boot_begin(st, &b, &id), 0);
	assert_int_equal(store_add_file(st, "/proc/lock_stat", "complete",
					sizeof(big), NULL, big, sizeof(big)),
			 -1);
	assert_int_equal(store_add_file(st, "/proc/version", "complete", 5,
					NULL, "Linux", 5), 0);
	store_boot_abort(st);
	store_close(st);
	assert_int_equal(query_int("SELECT count(*) FROM files"), 0);
}

/* A collector killed mid-boot: the database keeps only the earlier boot. */
static void test_killed_collection(void **state)
{
	struct store_boot b = { .source = "log" };
	struct store *st;
	int64_t id;
	pid_t pid;
	int status, i;

	(void)state;
	st = store_open(path, 0);
	assert_non_null(st);
	add_boot(st, "before");
	store_close(st);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct ldr_report *r = parse_log();

		st = store_open(path, 0);
		if (!st || store_boot_begin(st, &b, &id))
			_exit(3);
		for (i = 0; i < 200; i++, r->id++)
			if (store_add_report(st, r, NULL))
				_exit(3);
		raise(SIGKILL);
		_exit(4);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGKILL);
	assert_int_equal(query_int("SELECT count(*) FROM boots"), 1);
	assert_int_equal(query_int("SELECT count(*) FROM reports"), 1);
	assert_int_equal(query_int("SELECT count(*) FROM pragma_integrity_check"
				   " WHERE integrity_check <> 'ok'"), 0);
	st = store_open(path, 0);
	assert_non_null(st);
	add_boot(st, "after");
	store_close(st);
	assert_int_equal(query_int("SELECT count(*) FROM boots"), 2);
}

static void test_report_round_trip(void **state)
{
	struct ldr_report *in, *out;
	struct store *st;
	int64_t rid;
	bool found;
	size_t i, j;
	struct store_boot b = { .source = "log" };
	int64_t id;

	(void)state;
	in = parse_log();
	/* what symbolisation leaves on a frame goes in and comes back */
	in->stacks[0].frames.v[0].inl = calloc(1, sizeof(struct ldr_inline));
	in->stacks[0].frames.v[0].inl[0].func = strdup("inner_fn");
	in->stacks[0].frames.v[0].inl[0].file = strdup("kernel/x.c");
	in->stacks[0].frames.v[0].inl[0].line = 42;
	in->stacks[0].frames.v[0].nr_inl = 1;
	st = store_open(path, 0);
	assert_non_null(st);
	assert_int_equal(store_boot_begin(st, &b, &id), 0);
	assert_int_equal(store_add_report(st, in, &rid), 0);
	assert_int_equal(store_boot_commit(st, "complete"), 0);
	out = store_report_load(st, rid, &found);
	assert_true(found);
	assert_non_null(out);
	assert_int_equal(out->type, in->type);
	assert_string_equal(out->title, in->title);
	assert_string_equal(out->dedup_key, in->dedup_key);
	assert_string_equal(out->header, in->header);
	assert_string_equal(out->task, in->task);
	assert_string_equal(out->input, in->input);
	assert_int_equal(out->first_line, in->first_line);
	assert_int_equal(out->last_line, in->last_line);
	assert_int_equal(out->truncated, in->truncated);
	assert_string_equal(out->release, in->release);
	assert_int_equal(out->pid, in->pid);
	assert_int_equal(out->nr_locks, in->nr_locks);
	for (i = 0; i < in->nr_locks; i++) {
		assert_string_equal(out->locks[i].name, in->locks[i].name);
		assert_int_equal(out->locks[i].role, in->locks[i].role);
		assert_int_equal(out->locks[i].usage_bits,
				 in->locks[i].usage_bits);
		assert_int_equal(out->locks[i].addr, in->locks[i].addr);
		assert_int_equal(out->locks[i].at.nr, in->locks[i].at.nr);
	}
	assert_string_equal(out->locks[0].name,
			    "lock_b\"'; DROP TABLE boots;--");
	assert_int_equal(out->nr_chain, in->nr_chain);
	for (i = 0; i < in->nr_chain; i++) {
		assert_int_equal(out->chain[i].lock, in->chain[i].lock);
		assert_int_equal(out->chain[i].stack, in->chain[i].stack);
	}
	assert_int_equal(out->nr_stacks, in->nr_stacks);
	for (i = 0; i < in->nr_stacks; i++) {
		assert_int_equal(out->stacks[i].frames.nr,
				 in->stacks[i].frames.nr);
		for (j = 0; j < in->stacks[i].frames.nr; j++) {
			const struct ldr_frame *a = &in->stacks[i].frames.v[j];
			const struct ldr_frame *c = &out->stacks[i].frames.v[j];

			assert_string_equal(c->func, a->func);
			assert_int_equal(c->off, a->off);
			assert_int_equal(c->unreliable, a->unreliable);
		}
	}
	assert_int_equal(out->stacks[0].frames.v[0].nr_inl, 1);
	assert_string_equal(out->stacks[0].frames.v[0].inl[0].func,
			    "inner_fn");
	assert_int_equal(out->backtrace, in->backtrace);
	assert_int_equal(out->nr_raw, in->nr_raw);
	assert_string_equal(out->raw[3].text, in->raw[3].text);
	report_free(in);
	report_free(out);
	store_close(st);
	assert_int_equal(query_int("SELECT count(*) FROM boots"), 1);
}

/*
 * A hand-edited index that points nowhere is an error when read back,
 * never an element out of its array; NULL where allowed reads as -1.
 */
static void test_bad_index_read_back(void **state)
{
	static const char *const edits[] = {
		"UPDATE report_chain SET lock_idx = 1000",
		"UPDATE report_chain SET stack_idx = NULL",
		"UPDATE report_frames SET owner_idx = owner_idx + 100 WHERE owner = 'lock'",
		"UPDATE report_stacks SET lock_idx = -2",
		"UPDATE reports SET backtrace = 9",
	};
	struct ldr_report *r;
	struct store *st;
	bool found;
	size_t i;

	(void)state;
	st = store_open(path, 0);
	assert_non_null(st);
	add_boot(st, "x");
	store_close(st);
	for (i = 0; i < sizeof(edits) / sizeof(*edits); i++) {
		exec_raw(edits[i]);
		st = store_open(path, STORE_READ_ONLY);
		assert_non_null(st);
		assert_null(store_report_load(st, 1, &found));
		assert_true(found);
		store_close(st);
		unlink(path);	/* a fresh database for the next edit */
		st = store_open(path, 0);
		assert_non_null(st);
		add_boot(st, "x");
		store_close(st);
	}
	exec_raw("UPDATE report_stacks SET lock_idx = NULL; UPDATE reports SET backtrace = NULL");
	st = store_open(path, STORE_READ_ONLY);
	assert_non_null(st);
	r = store_report_load(st, 1, &found);
	assert_non_null(r);
	assert_int_equal(r->backtrace, -1);
	assert_int_equal(r->stacks[0].lock, -1);
	report_free(r);
	assert_null(store_report_load(st, 2, &found));
	assert_false(found);
	store_close(st);
}

/*
 * The queries of a report's parts are kept from one report to the next
 * (store-read.c): one refused half-way through its rows leaves them as
 * ready for the next report as a fresh store would, on the same store.
 */
static void test_refused_report_then_next(void **state)
{
	struct ldr_report *want, *r;
	struct store *st;
	bool found;
	size_t i;
	int pass;

	(void)state;
	st = store_open(path, 0);
	assert_non_null(st);
	add_boot(st, "a");
	add_boot(st, "b");
	store_close(st);
	/* report 1's second frame row names no lock: its rows stop there */
	exec_raw("UPDATE report_frames SET owner_idx = 100 WHERE report_id = 1"
		 " AND (owner, owner_idx, idx) IN (SELECT owner, owner_idx, idx"
		 " FROM report_frames WHERE report_id = 1"
		 " ORDER BY owner, owner_idx, idx LIMIT 1 OFFSET 1)");
	st = store_open(path, STORE_READ_ONLY);
	assert_non_null(st);
	want = store_report_load(st, 2, &found);
	assert_non_null(want);
	store_close(st);
	st = store_open(path, STORE_READ_ONLY);
	assert_non_null(st);
	for (pass = 0; pass < 2; pass++) {
		assert_null(store_report_load(st, 1, &found));
		assert_true(found);
		r = store_report_load(st, 2, &found);
		assert_non_null(r);
		assert_int_equal(r->id, 2);
		assert_int_equal(r->nr_locks, want->nr_locks);
		assert_int_equal(r->nr_chain, want->nr_chain);
		assert_int_equal(r->nr_stacks, want->nr_stacks);
		for (i = 0; i < r->nr_locks; i++)
			assert_int_equal(r->locks[i].at.nr,
					 want->locks[i].at.nr);
		for (i = 0; i < r->nr_stacks; i++)
			assert_int_equal(r->stacks[i].frames.nr,
					 want->stacks[i].frames.nr);
		report_free(r);
	}
	report_free(want);
	store_close(st);
}

/*
 * The sizes a graph reader reserves for come from fresh pack headers
 * only: a pack stamped under another schema or with a damaged header
 * adds nothing, and neither does a boot without a pack.
 */
static void test_graph_sizes(void **state)
{
	uint64_t classes, deps;
	struct store *st;
	int64_t boots[2];

	(void)state;
	st = store_open(path, 0);
	assert_non_null(st);
	boots[0] = add_boot(st, "packed");
	boots[1] = add_boot(st, "none");
	store_close(st);
	exec_raw("INSERT INTO classes (id, boot_id, name) VALUES"
		 " (10, 1, 'a'), (11, 1, 'b'), (12, 1, 'c'), (13, 1, 'd');"
		 "INSERT INTO dependencies (boot_id, from_class, to_class) VALUES"
		 " (1, 10, 11), (1, 11, 12), (1, 10, 12)");
	st = store_open(path, 0);
	assert_non_null(st);
	assert_int_equal(sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(store_pack_write(st, 1), 0);
	assert_int_equal(sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(store_graph_sizes(st, boots, 2, &classes, &deps), 0);
	assert_int_equal(classes, 4);
	assert_int_equal(deps, 3);
	store_close(st);

	exec_raw("UPDATE dependency_packs SET schema_version = schema_version - 1");
	st = store_open(path, STORE_READ_ONLY);
	assert_non_null(st);
	assert_int_equal(store_graph_sizes(st, boots, 2, &classes, &deps), 0);
	assert_int_equal(classes + deps, 0);
	store_close(st);

	exec_raw("UPDATE dependency_packs SET pack = substr(pack, 1, 39),"
		 " schema_version = (SELECT schema_version FROM pragma_schema_version)");
	st = store_open(path, STORE_READ_ONLY);
	assert_non_null(st);
	assert_int_equal(store_graph_sizes(st, boots, 2, &classes, &deps), 0);
	assert_int_equal(classes + deps, 0);
	store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fresh_schema, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pragmas, setup, teardown),
		cmocka_unit_test_setup_teardown(test_foreign_keys_cascade, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migration_from_v1, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_refuses_back_and_newer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_a_database, setup, teardown),
		cmocka_unit_test_setup_teardown(test_abort_leaves_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_file_over_length_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_killed_collection, setup, teardown),
		cmocka_unit_test_setup_teardown(test_report_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_index_read_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_report_then_next, setup, teardown),
		cmocka_unit_test_setup_teardown(test_graph_sizes, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
