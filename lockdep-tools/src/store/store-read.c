// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the store back: boots, and reports rebuilt as the struct
 * ldr_report the printers take. A database can be edited by hand, so
 * whatever is read is checked again, like any other input: an index
 * that names no row of its report (or is NULL where one is needed) is
 * an error naming the database, the report and the column, which keeps
 * invariant (1) of report.h true for every report rebuilt.
 */
#include <assert.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"
#include "util/error.h"
#include "util/xalloc.h"

/* Column @i as text, "" for NULL: what the report model's fields want. */
static const char *col_text(sqlite3_stmt *s, int i)
{
	const char *t = store_col_text(s, i);

	return t ? t : "";
}

/*
 * Column @i of @s, @what ("report_chain.lock_idx") of the report @r, an
 * index into an array of @nr: into *@v, -1 for NULL if @nullable.
 * Returns 0, or -1 after saying why it names nothing.
 */
static int col_index(const struct store *st, const struct ldr_report *r,
		     sqlite3_stmt *s, int i, size_t nr, bool nullable,
		     const char *what, int *v)
{
	sqlite3_int64 x;

	if (sqlite3_column_type(s, i) == SQLITE_NULL) {
		*v = -1;
		if (nullable)
			return 0;
		return error("'%s': report %u: %s is NULL",
			     store_path(st), r->id, what);
	}
	x = sqlite3_column_int64(s, i);
	if (x < 0 || (uint64_t)x >= nr)
		return error("'%s': report %u: %s %lld names no row of the %zu it has",
			     store_path(st), r->id, what, (long long)x, nr);
	*v = (int)x;
	return 0;
}


/* ---- boots ---- */

void store_boot_row_release(struct store_boot_row *b)
{
	free(b->label);
	free(b->collected_at);
	free(b->source);
	free(b->kernel_release);
	free(b->completeness);
	memset(b, 0, sizeof(*b));
}

int store_boot_foreach(struct store *st, store_boot_fn fn, void *data)
{
	struct store_boot_row b;
	sqlite3_stmt *s;
	int rc, ret = 0;

	if (store_prepare(st, "SELECT b.id, b.label, b.collected_at, b.source,"
		    " b.kernel_release, b.completeness,"
		    " (SELECT count(*) FROM reports r WHERE r.boot_id = b.id)"
		    " FROM boots b ORDER BY b.id", &s))
		return -1;
	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		b.id = sqlite3_column_int64(s, 0);
		b.label = store_col_strdup(s, 1);
		b.collected_at = store_col_strdup(s, 2);
		b.source = store_col_strdup(s, 3);
		b.kernel_release = store_col_strdup(s, 4);
		b.completeness = store_col_strdup(s, 5);
		b.reports = sqlite3_column_int64(s, 6);
		ret = fn(&b, data);
		store_boot_row_release(&b);
	}
	if (ret) {
		sqlite3_finalize(s);
		return ret;
	}
	return store_finish(st, s, rc, 0);
}

static int64_t select_int(struct store *st, const char *sql, int64_t arg,
			  int64_t none)
{
	sqlite3_stmt *s;
	int64_t v = none;
	int rc;

	if (store_prepare(st, sql, &s))
		return -1;
	sqlite3_bind_int64(s, 1, arg);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL)
		v = sqlite3_column_int64(s, 0);
	if (rc == SQLITE_ROW)
		rc = SQLITE_DONE;
	return store_finish(st, s, rc, 0) ? -1 : v;
}

int64_t store_boot_latest(struct store *st)
{
	return select_int(st, "SELECT max(id) FROM boots WHERE ? = 0", 0, 0);
}

/* ---- reports ---- */

static int role_from_name(const char *name)
{
	int i;

	for (i = 0; i < LDR_ROLE_NR; i++)
		if (!strcmp(ldr_role_name(i), name))
			return i;
	return LDR_ROLE_OTHER;
}

static struct ldr_report *report_from_row(sqlite3_stmt *s)
{
	int type = ldr_type_from_name(col_text(s, 2));
	struct ldr_report *r;

	r = report_new(type < 0 ? LDR_OTHER_LOCKDEP : type, col_text(s, 18));
	r->id = sqlite3_column_int64(s, 0);
	r->title = store_col_strdup(s, 3);
	r->dedup_key = store_col_strdup(s, 4);
	report_set(&r->header, col_text(s, 5));
	r->message = store_col_strdup(s, 6);
	r->release = store_col_strdup(s, 7);
	r->taint = store_col_strdup(s, 8);
	r->task = store_col_strdup(s, 9);
	if (sqlite3_column_type(s, 10) != SQLITE_NULL)
		r->pid = sqlite3_column_int64(s, 10);
	if (sqlite3_column_type(s, 11) != SQLITE_NULL)
		r->cpu = sqlite3_column_int64(s, 11);
	r->irq_context = store_col_strdup(s, 12);
	r->hardware = store_col_strdup(s, 13);
	r->irq_class = store_col_strdup(s, 14);
	if (sqlite3_column_type(s, 15) != SQLITE_NULL) {
		r->has_irq_event_stamp = true;
		r->irq_event_stamp = sqlite3_column_int64(s, 15);
	}
	r->old_format = sqlite3_column_int(s, 16);
	r->truncated = sqlite3_column_int(s, 17);
	r->first_line = sqlite3_column_int64(s, 19);
	r->last_line = sqlite3_column_int64(s, 20);
	r->raw_dropped = sqlite3_column_int64(s, 23);
	return r;
}

static void frame_from_row(struct ldr_frame *f, sqlite3_stmt *s)
{
	f->func = store_col_strdup(s, 2);
	if (sqlite3_column_type(s, 3) != SQLITE_NULL) {
		f->has_off = true;
		f->off = sqlite3_column_int64(s, 3);
		f->size = sqlite3_column_int64(s, 4);
	}
	if (sqlite3_column_type(s, 5) != SQLITE_NULL) {
		f->has_addr = true;
		f->addr = strtoull(col_text(s, 5), NULL, 16);
	}
	f->module = store_col_strdup(s, 6);
	f->build_id = store_col_strdup(s, 7);
	f->file = store_col_strdup(s, 8);
	f->line = sqlite3_column_int(s, 9);
	f->unreliable = sqlite3_column_int(s, 10);
	f->inlined = sqlite3_column_int(s, 11);
}

/*
 * The end of a per-report query's rows: its statement is kept for the
 * next report (load_parts() resets it), so a loader never finalizes it.
 */
static int part_end(struct store *st, int rc)
{
	return rc == SQLITE_DONE ? 0 : store_fail(st, "unable to read");
}

static int load_locks(struct store *st, struct ldr_report *r, sqlite3_stmt *s)
{
	struct ldr_lock *l;
	int rc, i;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		i = report_add_lock(r, role_from_name(col_text(s, 0)));
		l = &r->locks[i];
		l->name = xstrdup(col_text(s, 1));
		l->class_name = xstrdup(col_text(s, 2));
		l->version = sqlite3_column_int64(s, 3);
		l->subclass = sqlite3_column_int64(s, 4);
		l->usage = store_col_strdup(s, 5);
		l->usage_bits = sqlite3_column_int64(s, 6);
		if (sqlite3_column_type(s, 7) != SQLITE_NULL)
			l->wait_outer = sqlite3_column_int(s, 7);
		if (sqlite3_column_type(s, 8) != SQLITE_NULL)
			l->wait_inner = sqlite3_column_int(s, 8);
		if (sqlite3_column_type(s, 9) != SQLITE_NULL) {
			l->has_addr = true;
			l->addr = strtoull(col_text(s, 9), NULL, 16);
		}
		if (sqlite3_column_type(s, 10) != SQLITE_NULL)
			l->index = sqlite3_column_int(s, 10);
		l->holder = store_col_strdup(s, 11);
		l->line = sqlite3_column_int64(s, 12);
	}
	return part_end(st, rc);
}

static int load_stacks(struct store *st, struct ldr_report *r,
		       sqlite3_stmt *s)
{
	int rc, lock;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (col_index(st, r, s, 1, r->nr_locks, true,
			      "report_stacks.lock_idx", &lock))
			return -1;
		report_add_stack(r, col_text(s, 0), lock);
	}
	return part_end(st, rc);
}

static int load_irq_events(struct store *st, struct ldr_report *r,
			   sqlite3_stmt *s)
{
	struct ldr_irq_event *e;
	int rc;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ALLOC_GROW(r->irq_events, r->nr_irq_events + 1,
			   r->alloc_irq_events);
		e = &r->irq_events[r->nr_irq_events++];
		memset(e, 0, sizeof(*e));
		e->what = xstrdup(col_text(s, 0));
		e->stamp = sqlite3_column_int64(s, 1);
	}
	return part_end(st, rc);
}

/*
 * The frame list a row of @table (report_frames, frame_inlines) belongs
 * to, by its owner and owner_idx columns (0 and 1); NULL after saying
 * why it has none.
 */
static struct ldr_frames *frames_owner(const struct store *st,
				       struct ldr_report *r, sqlite3_stmt *s,
				       const char *table)
{
	const char *owner = col_text(s, 0);
	char what[64];
	size_t nr;
	int i;

	if (!strcmp(owner, "stack"))
		nr = r->nr_stacks;
	else if (!strcmp(owner, "lock"))
		nr = r->nr_locks;
	else if (!strcmp(owner, "irq-event"))
		nr = r->nr_irq_events;
	else {
		error("'%s': report %u: %s.owner is not one of stack, lock, irq-event",
		      store_path(st), r->id, table);
		return NULL;
	}
	snprintf(what, sizeof(what), "%s.owner_idx", table);
	if (col_index(st, r, s, 1, nr, false, what, &i))
		return NULL;
	return owner[0] == 's' ? &r->stacks[i].frames :
	       owner[0] == 'l' ? &r->locks[i].at : &r->irq_events[i].frames;
}

static int load_frames(struct store *st, struct ldr_report *r,
		       sqlite3_stmt *s)
{
	struct ldr_frames *fr;
	int rc;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		fr = frames_owner(st, r, s, "report_frames");
		if (!fr)
			return -1;
		frame_from_row(frames_add(fr), s);
	}
	return part_end(st, rc);
}

static int load_inlines(struct store *st, struct ldr_report *r,
			sqlite3_stmt *s)
{
	struct ldr_frames *fr;
	struct ldr_frame *f;
	int rc, i;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		fr = frames_owner(st, r, s, "frame_inlines");
		if (!fr || col_index(st, r, s, 2, fr->nr, false,
				     "frame_inlines.frame_idx", &i))
			return -1;
		f = &fr->v[i];
		f->inl = xrealloc(f->inl, (f->nr_inl + 1) * sizeof(*f->inl));
		f->inl[f->nr_inl].func = xstrdup(col_text(s, 3));
		f->inl[f->nr_inl].file = store_col_strdup(s, 4);
		f->inl[f->nr_inl++].line = sqlite3_column_int(s, 5);
	}
	return part_end(st, rc);
}

static int load_lists(struct store *st, struct ldr_report *r,
		      sqlite3_stmt *s, int which)
{
	int rc;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		switch (which) {
		case 0:
			ALLOC_GROW(r->chain, r->nr_chain + 1, r->alloc_chain);
			/* a link is a lock and its stack: both needed */
			if (col_index(st, r, s, 0, r->nr_locks, false,
				      "report_chain.lock_idx",
				      &r->chain[r->nr_chain].lock) ||
			    col_index(st, r, s, 1, r->nr_stacks, false,
				      "report_chain.stack_idx",
				      &r->chain[r->nr_chain].stack))
				return -1;
			r->nr_chain++;
			break;
		case 1:
			ALLOC_GROW(r->chain_summary, r->nr_chain_summary + 1,
				   r->alloc_chain_summary);
			r->chain_summary[r->nr_chain_summary++] =
				xstrdup(col_text(s, 0));
			break;
		case 2:
			ALLOC_GROW(r->scenario, r->nr_scenario + 1,
				   r->alloc_scenario);
			r->scenario[r->nr_scenario].cpu =
				sqlite3_column_int(s, 0);
			r->scenario[r->nr_scenario++].text =
				xstrdup(col_text(s, 1));
			break;
		case 3:
			report_add_note(r, col_text(s, 0));
			break;
		case 4:
			ALLOC_GROW(r->raw, r->nr_raw + 1, r->alloc_raw);
			r->raw[r->nr_raw].lineno = sqlite3_column_int64(s, 0);
			r->raw[r->nr_raw++].text = xstrdup(col_text(s, 1));
			break;
		}
	}
	return part_end(st, rc);
}

/* The per-report queries, in the order they must run (owners first). */
static const char *const part_sql[] = {
	"SELECT role, name, class_name, version, subclass, usage, usage_bits,"
	" wait_outer, wait_inner, addr, held_index, holder, line"
	" FROM report_locks WHERE report_id = ? ORDER BY idx",
	"SELECT label, lock_idx FROM report_stacks WHERE report_id = ?"
	" ORDER BY idx",
	"SELECT what, stamp FROM report_irq_events WHERE report_id = ?"
	" ORDER BY idx",
	"SELECT owner, owner_idx, func, off, size, addr, module, build_id,"
	" file, line, unreliable, inlined FROM report_frames"
	" WHERE report_id = ? ORDER BY owner, owner_idx, idx",
	"SELECT owner, owner_idx, frame_idx, func, file, line"
	" FROM frame_inlines WHERE report_id = ?"
	" ORDER BY owner, owner_idx, frame_idx, depth",
	"SELECT lock_idx, stack_idx FROM report_chain WHERE report_id = ?"
	" ORDER BY idx",
	"SELECT name FROM report_chain_summary WHERE report_id = ?"
	" ORDER BY idx",
	"SELECT cpu, text FROM report_scenario WHERE report_id = ?"
	" ORDER BY idx",
	"SELECT text FROM report_notes WHERE report_id = ? ORDER BY idx",
	"SELECT lineno, text FROM report_raw WHERE report_id = ? ORDER BY idx",
};

_Static_assert(sizeof(part_sql) / sizeof(*part_sql) == STORE_REPORT_PARTS,
	       "one cached statement per query of part_sql");

/*
 * Query @i of part_sql, prepared once per store: a report read is ten
 * queries, and preparing them again for every report cost more than
 * running them (a database of many reports; the report reader's fuzz
 * harness spent 40% of its time in sqlite3_prepare_v2()).
 */
static sqlite3_stmt *part_stmt(struct store *st, size_t i)
{
	sqlite3_stmt **s = &st->report_parts[i];

	if (*s)
		return *s;
	if (sqlite3_prepare_v3(st->db, part_sql[i], -1,
			       SQLITE_PREPARE_PERSISTENT, s, NULL)) {
		store_fail(st, "unable to read");
		return NULL;
	}
	return *s;
}

static int load_parts(struct store *st, struct ldr_report *r, sqlite3_stmt *bt)
{
	sqlite3_stmt *s;
	size_t i;
	int ret;

	for (i = 0; i < STORE_REPORT_PARTS; i++) {
		s = part_stmt(st, i);
		if (!s)
			return -1;
		sqlite3_bind_int64(s, 1, r->id);
		switch (i) {
		case 0:
			ret = load_locks(st, r, s);
			break;
		case 1:
			ret = load_stacks(st, r, s);
			break;
		case 2:
			ret = load_irq_events(st, r, s);
			break;
		case 3:
			ret = load_frames(st, r, s);
			break;
		case 4:
			ret = load_inlines(st, r, s);
			break;
		default:
			ret = load_lists(st, r, s, i - 5);
			break;
		}
		sqlite3_reset(s);
		if (ret)
			return -1;
	}
	if (col_index(st, r, bt, 22, r->nr_stacks, true, "reports.backtrace",
		      &r->backtrace))
		return -1;
	/* not stored: derived from what is, with today's rules */
	report_make_syzbot_title(r);
	return 0;
}

#define REPORT_COLUMNS							\
	"SELECT id, boot_id, type, title, dedup_key, header, message,"	\
	" release, taint, task, pid, cpu, irq_context, hardware,"	\
	" irq_class, irq_event_stamp, old_format, truncated, input,"	\
	" first_line, last_line, seq, backtrace, raw_dropped FROM reports"

/*
 * A report's id must fit the model's (unsigned int): cut to 32 bits, a
 * larger one would name another report and read that one's rows.
 */
static int row_id_ok(const struct store *st, sqlite3_stmt *s)
{
	sqlite3_int64 id = sqlite3_column_int64(s, 0);

	if (id >= 1 && id <= UINT_MAX)
		return 1;
	error("'%s': report id %lld is out of range (1 to %u)",
	      store_path(st), (long long)id, UINT_MAX);
	return 0;
}

/*
 * The reports query, prepared once per store like the parts' (parsing
 * its 24 columns cost more than reading a small boot's report), and
 * reset after each use. @fn may read reports (store_report_load()), not
 * start another store_report_foreach() on the same store.
 */
static sqlite3_stmt *rows_stmt(struct store *st)
{
	sqlite3_stmt **s = &st->report_rows;

	if (*s) {
		assert(!sqlite3_stmt_busy(*s));
		return *s;
	}
	if (sqlite3_prepare_v3(st->db, REPORT_COLUMNS
			       " WHERE ? = 0 OR boot_id = ? ORDER BY id", -1,
			       SQLITE_PREPARE_PERSISTENT, s, NULL)) {
		store_fail(st, "unable to read");
		return NULL;
	}
	return *s;
}

int store_report_foreach(struct store *st, int64_t boot_id,
			 void (*fn)(struct ldr_report *r, void *data),
			 void *data)
{
	sqlite3_stmt *s = rows_stmt(st);
	struct ldr_report *r;
	int rc, ret = 0;

	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, boot_id);
	sqlite3_bind_int64(s, 2, boot_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (!row_id_ok(st, s)) {
			ret = -1;
			break;
		}
		r = report_from_row(s);
		if (load_parts(st, r, s)) {
			report_free(r);
			ret = -1;
			break;
		}
		fn(r, data);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = store_fail(st, "unable to read");
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return ret;
}

struct ldr_report *store_report_load(struct store *st, int64_t id,
				     bool *found)
{
	struct ldr_report *r = NULL;
	sqlite3_stmt *s;

	*found = false;
	if (store_prepare(st, REPORT_COLUMNS " WHERE id = ?", &s))
		return NULL;
	sqlite3_bind_int64(s, 1, id);
	switch (sqlite3_step(s)) {
	case SQLITE_ROW:
		/* there, even if it cannot be read (an index pointing nowhere) */
		*found = true;
		if (!row_id_ok(st, s)) {
			sqlite3_finalize(s);
			return NULL;
		}
		r = report_from_row(s);
		if (load_parts(st, r, s)) {
			report_free(r);
			r = NULL;
		}
		sqlite3_finalize(s);
		return r;
	case SQLITE_DONE:
		sqlite3_finalize(s);
		return NULL;
	default:
		store_finish(st, s, SQLITE_ERROR, 0);
		return NULL;
	}
}
