// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the database reader behind lockdep-report --db
 * (src/store/store-read.c) and the printers it feeds.
 *
 * A small database of two boots, each with a circular-dependency report
 * (a chain of two links, frames, an inline frame, a held lock), is made
 * once; each input is read as a list of edits of its report rows (set a
 * column to NULL, a small or huge or negative integer or a word; delete
 * a row), applied to a fresh copy, which is then read boot by boot as
 * lockdep-report --db does, and each report printed as text and JSON.
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
#include "store/store.h"
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

static char seed[PATH_MAX], work[PATH_MAX];
static FILE *devnull;

static void keep(struct ldr_report *r, void *data)
{
	*(struct ldr_report **)data = r;
}

/* One boot holding the report of LOG, with an inline frame. */
static void seed_boot(struct store *st, const char *label)
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
	FUZZ_CHECK(!store_boot_begin(st, &b, &boot) &&
		   !store_add_report(st, r, NULL) &&
		   !store_boot_commit(st, "complete"));
	report_free(r);
}

static void cleanup(void)
{
	char path[PATH_MAX + 8];

	unlink(seed);
	unlink(work);
	snprintf(path, sizeof(path), "%s-shm", work);
	unlink(path);
	snprintf(path, sizeof(path), "%s-wal", work);
	unlink(path);
	*strrchr(work, '/') = '\0';
	rmdir(work);
}

static void setup(void)
{
	char dir[] = "/tmp/ldt-fuzz-db.XXXXXX";
	struct store *st;

	FUZZ_CHECK(mkdtemp(dir));
	snprintf(seed, sizeof(seed), "%s/seed.db", dir);
	snprintf(work, sizeof(work), "%s/work.db", dir);
	st = store_open(seed, 0);
	FUZZ_CHECK(st);
	seed_boot(st, "one");
	seed_boot(st, "two");
	store_close(st);
	devnull = fopen("/dev/null", "w");
	FUZZ_CHECK(devnull);
	atexit(cleanup);
}

static void copy_seed(void)
{
	char buf[65536], path[PATH_MAX + 8];
	FILE *in = fopen(seed, "rb"), *out = fopen(work, "wb");
	size_t n;

	FUZZ_CHECK(in && out);
	while ((n = fread(buf, 1, sizeof(buf), in)))
		FUZZ_CHECK(fwrite(buf, 1, n, out) == n);
	fclose(in);
	FUZZ_CHECK(!fclose(out));
	snprintf(path, sizeof(path), "%s-wal", work);
	unlink(path);
	snprintf(path, sizeof(path), "%s-shm", work);
	unlink(path);
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

static void apply_edits(const uint8_t *data, size_t size)
{
	char sql[512];
	sqlite3_stmt *s;
	sqlite3 *db;
	const struct target *t;

	FUZZ_CHECK(sqlite3_open(work, &db) == SQLITE_OK);
	/* a scratch copy: no fsync */
	sqlite3_exec(db, "PRAGMA synchronous = OFF; BEGIN", NULL, NULL, NULL);
	if (size > 4 * MAX_EDITS)
		size = 4 * MAX_EDITS;
	for (; size >= 4; data += 4, size -= 4) {
		t = &targets[(data[0] & 7) % NR_TARGETS];
		if (data[2] == 255)
			snprintf(sql, sizeof(sql),
				 "DELETE FROM %s WHERE (%s) IN (SELECT %s FROM %s"
				 " ORDER BY %s LIMIT 1 OFFSET ?2)",
				 t->table, t->key, t->key, t->table, t->key);
		else
			snprintf(sql, sizeof(sql),
				 "UPDATE %s SET %s = ?1 WHERE (%s) IN (SELECT %s"
				 " FROM %s ORDER BY %s LIMIT 1 OFFSET ?2)",
				 t->table, t->columns[(data[0] >> 3) % 5], t->key,
				 t->key, t->table, t->key);
		if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
			continue;
		if (data[2] != 255)
			bind_value(s, data[2], data[3]);
		sqlite3_bind_int(s, 2, data[1] % 16);
		sqlite3_step(s);
		sqlite3_finalize(s);
	}
	FUZZ_CHECK(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(db);
}

/* What the rows say, through a connection of the harness's own. */
static sqlite3 *rows;

static int64_t count(const char *sql, int64_t id)
{
	sqlite3_stmt *s;
	int64_t v = -1;

	FUZZ_CHECK(sqlite3_prepare_v2(rows, sql, -1, &s, NULL) == SQLITE_OK);
	sqlite3_bind_int64(s, 1, id);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
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
	FUZZ_CHECK(count("SELECT boot_id FROM reports WHERE id = ?", r->id) ==
		   v->boot);
	FUZZ_CHECK(count("SELECT count(*) FROM report_locks WHERE report_id = ?",
			 r->id) == (int64_t)r->nr_locks);
	FUZZ_CHECK(count("SELECT count(*) FROM report_stacks WHERE report_id = ?",
			 r->id) == (int64_t)r->nr_stacks);
	FUZZ_CHECK(count("SELECT count(*) FROM report_chain WHERE report_id = ?",
			 r->id) == (int64_t)r->nr_chain);
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	struct visit v;
	struct store *st;

	if (!ready) {
		setup();
		ready = true;
	}
	copy_seed();
	apply_edits(data, size);
	st = store_open(work, STORE_READ_ONLY);
	FUZZ_CHECK(st);
	FUZZ_CHECK(sqlite3_open_v2(work, &rows, SQLITE_OPEN_READONLY, NULL) ==
		   SQLITE_OK);
	for (v.boot = 1; v.boot <= 2; v.boot++)
		store_report_foreach(st, v.boot, check_report, &v);
	sqlite3_close(rows);
	store_close(st);
	return 0;
}
