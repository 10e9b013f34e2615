// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the database reader behind lockdep-report --db
 * (src/store/store-read.c) and the printers it feeds.
 *
 * A small database of two boots, each with a circular-dependency report
 * (a chain of two links, frames, an inline frame, a held lock), is made
 * once and kept open; each input is read as a list of edits of its
 * report rows (set a column to NULL, a small or huge or negative integer
 * or a word; delete a row), made inside a transaction; one boot is then
 * read as lockdep-report --db --boot does, each report printed as text
 * and JSON, before the transaction is rolled back: the next input starts
 * from the same rows. The input picks the boot: the first with no bytes
 * past its last whole edit, the second with one to three. One connection
 * for all of it: a connection per input parses the whole schema (about
 * half of the 11 ms an input took with a copy of the file and three
 * connections per input).
 *
 * Invariants: the reader either refuses the report or returns one whose
 * every index is -1 or names an element of its array (report.h (1)):
 * nothing is read outside an array (the ASan+UBSan build checks the
 * printers' reads); every report read for a boot is a row of that boot
 * (no row moved to another boot); a report has as many locks, stacks
 * and chain links as its rows say, none lost or borrowed.
 */
#include <limits.h>
#include <sqlite3.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "parse/klog.h"
#include "parse/report.h"
#include "report/report-print.h"
#include "store/store-int.h"	/* the connection, for the edits */
#include "util/json-writer.h"

#define LOG								\
	"======================================================\n"	\
	"WARNING: possible circular locking dependency detected\n"	\
	"6.1.0 #1 Not tainted\n"					\
	"------------------------------------------------------\n"	\
	"insmod/77 is trying to acquire lock:\n"			\
	"ffff888000000010 (lock_b){+.+.}-{3:3}, at: ab_ba_init+0x30/0x60 [m]\n" \
	"\n"								\
	"but task is already holding lock:\n"				\
	"ffff888000000020 (lock_a){+.+.}-{3:3}, at: ab_ba_init+0x20/0x60 [m]\n" \
	"\n"								\
	"which lock already depends on the new lock.\n"			\
	"\n"								\
	"the existing dependency chain (in reverse order) is:\n"	\
	"\n"								\
	"-> #1 (lock_a){+.+.}-{3:3}:\n"					\
	"       lock_acquire+0xc4/0x2d0\n"				\
	"       ba_init+0x10/0x60 [m]\n"				\
	"\n"								\
	"-> #0 (lock_b){+.+.}-{3:3}:\n"					\
	"       lock_acquire+0xc4/0x2d0\n"				\
	"       ab_ba_init+0x30/0x60 [m]\n"				\
	"\n"								\
	"other info that might help us debug this:\n"			\
	"\n"								\
	"1 lock held by insmod/77:\n"					\
	" #0: ffff888000000020 (lock_a){+.+.}-{3:3}, at: ab_ba_init+0x20/0x60 [m]\n" \
	"\n"								\
	"stack backtrace:\n"						\
	"CPU: 0 PID: 77 Comm: insmod Not tainted 6.1.0 #1\n"		\
	"Call Trace:\n"							\
	" <TASK>\n"							\
	" dump_stack_lvl+0x45/0x5d\n"					\
	" ? ab_ba_init+0x30/0x60 [m]\n"					\
	" </TASK>\n"

/* The columns an edit may touch, with each table's primary key. */
struct target {
	const char *table, *key;
	const char *columns[5];
};

static const struct target targets[] = {
	{ "reports", "id", { "boot_id", "backtrace", "type", "seq", "id" } },
	{ "report_locks", "report_id, idx",
	  { "report_id", "idx", "held_index", "role", "name" } },
	{ "report_stacks", "report_id, idx",
	  { "report_id", "idx", "lock_idx", "label", "lock_idx" } },
	{ "report_frames", "report_id, owner, owner_idx, idx",
	  { "report_id", "owner", "owner_idx", "idx", "func" } },
	{ "frame_inlines", "report_id, owner, owner_idx, frame_idx, depth",
	  { "report_id", "owner", "owner_idx", "frame_idx", "depth" } },
	{ "report_chain", "report_id, idx",
	  { "report_id", "idx", "lock_idx", "stack_idx", "lock_idx" } },
	{ "report_irq_events", "report_id, idx",
	  { "report_id", "idx", "what", "stamp", "idx" } },
};
#define NR_TARGETS	(sizeof(targets) / sizeof(*targets))

static char dir[PATH_MAX], path[PATH_MAX];
static struct store *st;
static FILE *devnull;
static void finalize_statements(void);

static void keep(struct ldr_report *r, void *data)
{
	*(struct ldr_report **)data = r;
}

/* One boot holding the report of LOG, with an inline frame. */
static void seed_boot(const char *label)
{
	struct store_boot b = { .label = label, .source = "log",
				.source_path = "fuzz.log" };
	struct ldr_report *r = NULL;
	unsigned int id = 1;
	FILE *in = fmemopen((void *)LOG, strlen(LOG), "r");
	struct ldr_frame *f;
	int64_t boot;

	FUZZ_CHECK(in && !klog_parse_stream(in, "fuzz.log", &id, keep, &r));
	fclose(in);
	FUZZ_CHECK(r && r->nr_chain == 2 && r->nr_stacks > 0 &&
		   r->stacks[0].frames.nr > 0);
	f = &r->stacks[0].frames.v[0];
	f->inl = calloc(1, sizeof(*f->inl));
	FUZZ_CHECK(f->inl);
	f->inl[0].func = strdup("inner_fn");
	f->inl[0].file = strdup("kernel/x.c");
	f->inl[0].line = 42;
	f->nr_inl = 1;
	/*
	 * Two of the raw lines of the log: no edit touches them, and reading
	 * and printing them all made a third of an input's time.
	 */
	while (r->nr_raw > 2)
		free(r->raw[--r->nr_raw].text);
	FUZZ_CHECK(!store_boot_begin(st, &b, &boot) &&
		   !store_add_report(st, r, NULL) &&
		   !store_boot_commit(st, "complete"));
	report_free(r);
}

static void cleanup(void)
{
	char name[PATH_MAX + 8];

	finalize_statements();
	store_close(st);
	unlink(path);
	snprintf(name, sizeof(name), "%s-shm", path);
	unlink(name);
	snprintf(name, sizeof(name), "%s-wal", path);
	unlink(name);
	rmdir(dir);
}

static void setup(void)
{
	/* a refused report says why: a quarter of the inputs */
	fuzz_quiet_errors();
	snprintf(dir, sizeof(dir), "%s/ldt-fuzz-db.XXXXXX", fuzz_tmpdir());
	FUZZ_CHECK(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/fuzz.db", dir);
	st = store_open(path, 0);
	FUZZ_CHECK(st);
	atexit(cleanup);
	seed_boot("one");
	seed_boot("two");
	/*
	 * The edits are a foreign writer's, as with another connection: a
	 * row may point at a report that is not there, none is cascaded.
	 */
	FUZZ_CHECK(sqlite3_exec(st->db, "PRAGMA foreign_keys = OFF", NULL,
				NULL, NULL) == SQLITE_OK);
	/*
	 * No other connection: the locks taken once and kept, and with them
	 * the page cache, not checked against the file at every transaction.
	 */
	FUZZ_CHECK(sqlite3_exec(st->db, "PRAGMA locking_mode = EXCLUSIVE",
				NULL, NULL, NULL) == SQLITE_OK);
	devnull = fopen("/dev/null", "w");
	FUZZ_CHECK(devnull);
}

/* Bind an edit's value, chosen by @kind, from the byte @v. */
static void bind_value(sqlite3_stmt *s, unsigned int kind, uint8_t v)
{
	static const char *const words[] = { "stack", "lock", "irq-event", "" };

	switch (kind % 7) {
	case 0:
		sqlite3_bind_null(s, 1);
		break;
	case 1:
		sqlite3_bind_int(s, 1, (int8_t)v);
		break;
	case 2:
		sqlite3_bind_int(s, 1, v);
		break;
	case 3:
		sqlite3_bind_int64(s, 1, INT64_MIN + v);
		break;
	case 4:
		sqlite3_bind_int64(s, 1, (int64_t)INT_MAX + 1 + v);
		break;
	case 5:
		sqlite3_bind_int64(s, 1, (int64_t)UINT_MAX + 1 + v);
		break;
	default:
		sqlite3_bind_text(s, 1, words[v % 4], -1, SQLITE_STATIC);
		break;
	}
}

/*
 * Each edit is 4 bytes: target and column (low 3 bits and the rest),
 * row, kind (255: delete the row), value. Edits SQLite refuses (a key
 * taken twice, a NOT NULL or CHECK constraint) are simply not made.
 * The first MAX_EDITS only: the database has about a hundred rows, and a
 * seed of 64 KiB would be 16,384 statements (past libFuzzer's timeout).
 */
#define MAX_EDITS	256

/* Each edit's statement, prepared once: [target][column]; [5] deletes */
static sqlite3_stmt *edit_stmt[NR_TARGETS][6];

static sqlite3_stmt *edit_statement(const struct target *t, unsigned int col)
{
	sqlite3_stmt **s = &edit_stmt[t - targets][col];
	char sql[512];

	if (*s) {
		sqlite3_reset(*s);
		sqlite3_clear_bindings(*s);
		return *s;
	}
	/*
	 * The row by "=" to a scalar subquery: "IN (SELECT ...)" built an
	 * ephemeral table (a B-tree and its pager opened and closed) for
	 * every edit. No row at the offset is a NULL key, no row edited.
	 */
	if (col == 5)
		snprintf(sql, sizeof(sql),
			 "DELETE FROM %s WHERE (%s) = (SELECT %s FROM %s"
			 " ORDER BY %s LIMIT 1 OFFSET ?2)",
			 t->table, t->key, t->key, t->table, t->key);
	else
		snprintf(sql, sizeof(sql),
			 "UPDATE %s SET %s = ?1 WHERE (%s) = (SELECT %s"
			 " FROM %s ORDER BY %s LIMIT 1 OFFSET ?2)",
			 t->table, t->columns[col], t->key, t->key, t->table,
			 t->key);
	FUZZ_CHECK(sqlite3_prepare_v3(st->db, sql, -1,
				      SQLITE_PREPARE_PERSISTENT, s,
				      NULL) == SQLITE_OK);
	return *s;
}

static void apply_edits(const uint8_t *data, size_t size)
{
	const struct target *t;
	sqlite3_stmt *s;

	if (size > 4 * MAX_EDITS)
		size = 4 * MAX_EDITS;
	for (; size >= 4; data += 4, size -= 4) {
		t = &targets[(data[0] & 7) % NR_TARGETS];
		s = edit_statement(t, data[2] == 255 ? 5 : (data[0] >> 3) % 5);
		if (data[2] != 255)
			bind_value(s, data[2], data[3]);
		sqlite3_bind_int(s, 2, data[1] % 16);
		sqlite3_step(s);
		sqlite3_reset(s);
	}
}

/* What the rows say, through statements of the harness's own. */
enum { Q_BOOT, Q_LOCKS, Q_STACKS, Q_CHAIN, NR_QUERIES };
static sqlite3_stmt *query_stmt[NR_QUERIES];
/* BEGIN and ROLLBACK, around each input (transaction()) */
static sqlite3_stmt *txn_stmt[2];

static int64_t count(unsigned int q, int64_t id)
{
	static const char *const sql[NR_QUERIES] = {
		"SELECT boot_id FROM reports WHERE id = ?",
		"SELECT count(*) FROM report_locks WHERE report_id = ?",
		"SELECT count(*) FROM report_stacks WHERE report_id = ?",
		"SELECT count(*) FROM report_chain WHERE report_id = ?",
	};
	sqlite3_stmt *s;
	int64_t v = -1;

	if (!query_stmt[q])
		FUZZ_CHECK(sqlite3_prepare_v3(st->db, sql[q], -1,
					      SQLITE_PREPARE_PERSISTENT,
					      &query_stmt[q],
					      NULL) == SQLITE_OK);
	s = query_stmt[q];
	sqlite3_bind_int64(s, 1, id);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	return v;
}

static void finalize_statements(void)
{
	size_t i, j;

	for (i = 0; i < NR_TARGETS; i++)
		for (j = 0; j < 6; j++)
			sqlite3_finalize(edit_stmt[i][j]);
	for (i = 0; i < NR_QUERIES; i++)
		sqlite3_finalize(query_stmt[i]);
	for (i = 0; i < 2; i++)
		sqlite3_finalize(txn_stmt[i]);
}

static bool index_ok(int i, size_t nr)
{
	return i == -1 || (i >= 0 && (size_t)i < nr);
}

struct visit {
	int64_t boot;
};

static void check_report(struct ldr_report *r, void *data)
{
	const struct visit *v = data;
	struct json_writer *w;
	size_t i;

	/* a report of the boot asked for, and all of its rows */
	FUZZ_CHECK(count(Q_BOOT, r->id) == v->boot);
	FUZZ_CHECK(count(Q_LOCKS, r->id) == (int64_t)r->nr_locks);
	FUZZ_CHECK(count(Q_STACKS, r->id) == (int64_t)r->nr_stacks);
	FUZZ_CHECK(count(Q_CHAIN, r->id) == (int64_t)r->nr_chain);
	/* report.h (1): every index -1 or in its array; a link needs both */
	for (i = 0; i < r->nr_chain; i++) {
		FUZZ_CHECK(r->chain[i].lock >= 0 &&
			   (size_t)r->chain[i].lock < r->nr_locks);
		FUZZ_CHECK(r->chain[i].stack >= 0 &&
			   (size_t)r->chain[i].stack < r->nr_stacks);
	}
	for (i = 0; i < r->nr_stacks; i++)
		FUZZ_CHECK(index_ok(r->stacks[i].lock, r->nr_locks));
	FUZZ_CHECK(index_ok(r->backtrace, r->nr_stacks));
	report_print_plain(devnull, r);
	w = jsonw_new(devnull, false);
	jsonw_start_array(w);
	report_print_json(w, r, NULL, NULL);
	jsonw_end_array(w);
	jsonw_destroy(&w);
	report_free(r);
}

/*
 * A transaction around an input's edits and reads, rolled back: nothing
 * is written (a savepoint released after its rollback wrote the pages it
 * had touched to the WAL again), and both statements are prepared once.
 */
static void transaction(unsigned int which)
{
	sqlite3_stmt **s = txn_stmt;

	if (!s[which])
		FUZZ_CHECK(sqlite3_prepare_v3(st->db, which ? "ROLLBACK" :
					      "BEGIN", -1,
					      SQLITE_PREPARE_PERSISTENT,
					      &s[which], NULL) == SQLITE_OK);
	FUZZ_CHECK(sqlite3_step(s[which]) == SQLITE_DONE);
	sqlite3_reset(s[which]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct visit v;

	if (!st)
		setup();
	transaction(0);
	apply_edits(data, size);
	/* one boot an input: both was twice the work for the same checks */
	v.boot = size % 4 ? 2 : 1;
	store_report_foreach(st, v.boot, check_report, &v);
	transaction(1);
	return 0;
}
