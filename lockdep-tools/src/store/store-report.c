// SPDX-License-Identifier: GPL-2.0
/*
 * Writing one parsed report (parse/report.h) into the report_* tables of
 * the open boot, every part with its index so store-read.c can rebuild
 * the same struct ldr_report.
 */
#include "store/store-int.h"

/* The inline chain symbolisation left on frame @idx (ldr_inline order). */
static int add_inlines(struct store *st, int64_t rid, const char *owner,
		       int owner_idx, int idx, const struct ldr_frame *f)
{
	sqlite3_stmt *s;
	size_t i;

	for (i = 0; i < f->nr_inl; i++) {
		s = store_stmt(st, ST_INLINE_INSERT);
		if (!s)
			return -1;
		sqlite3_bind_int64(s, 1, rid);
		store_bind_text(s, 2, owner);
		sqlite3_bind_int(s, 3, owner_idx);
		sqlite3_bind_int(s, 4, idx);
		sqlite3_bind_int(s, 5, i);
		store_bind_text(s, 6, f->inl[i].func ? f->inl[i].func : "??");
		store_bind_text(s, 7, f->inl[i].file);
		if (f->inl[i].file)
			sqlite3_bind_int(s, 8, f->inl[i].line);
		if (store_step_done(st, s, "add an inlined frame"))
			return -1;
	}
	return 0;
}

static int add_frames(struct store *st, int64_t rid, const char *owner,
		      int owner_idx, const struct ldr_frames *fr)
{
	const struct ldr_frame *f;
	sqlite3_stmt *s;
	size_t i;

	for (i = 0; i < fr->nr; i++) {
		f = &fr->v[i];
		s = store_stmt(st, ST_FRAME_INSERT);
		if (!s)
			return -1;
		sqlite3_bind_int64(s, 1, rid);
		store_bind_text(s, 2, owner);
		sqlite3_bind_int(s, 3, owner_idx);
		sqlite3_bind_int(s, 4, i);
		store_bind_text(s, 5, f->func);
		if (f->has_off) {
			store_bind_u64(s, 6, f->off);
			store_bind_u64(s, 7, f->size);
		}
		store_bind_addr(s, 8, f->addr, f->has_addr);
		store_bind_text(s, 9, f->module);
		store_bind_text(s, 10, f->build_id);
		store_bind_text(s, 11, f->file);
		if (f->file)
			sqlite3_bind_int(s, 12, f->line);
		sqlite3_bind_int(s, 13, f->unreliable);
		sqlite3_bind_int(s, 14, f->inlined);
		if (store_step_done(st, s, "add a frame") ||
		    add_inlines(st, rid, owner, owner_idx, i, f))
			return -1;
	}
	return 0;
}

static void bind_index(sqlite3_stmt *s, int i, int v)
{
	if (v >= 0)
		sqlite3_bind_int(s, i, v);
}

static int add_locks(struct store *st, int64_t rid, const struct ldr_report *r)
{
	const struct ldr_lock *l;
	sqlite3_stmt *s;
	size_t i;

	for (i = 0; i < r->nr_locks; i++) {
		l = &r->locks[i];
		s = store_stmt(st, ST_LOCK_INSERT);
		if (!s)
			return -1;
		sqlite3_bind_int64(s, 1, rid);
		sqlite3_bind_int(s, 2, i);
		store_bind_text(s, 3, ldr_role_name(l->role));
		store_bind_text(s, 4, l->name);
		store_bind_text(s, 5, l->class_name);
		sqlite3_bind_int64(s, 6, l->version);
		sqlite3_bind_int64(s, 7, l->subclass);
		store_bind_text(s, 8, l->usage);
		sqlite3_bind_int64(s, 9, l->usage_bits);
		bind_index(s, 10, l->wait_outer);
		bind_index(s, 11, l->wait_inner);
		store_bind_addr(s, 12, l->addr, l->has_addr);
		bind_index(s, 13, l->index);
		store_bind_text(s, 14, l->holder);
		sqlite3_bind_int64(s, 15, l->line);
		if (store_step_done(st, s, "add a lock") ||
		    add_frames(st, rid, "lock", i, &l->at))
			return -1;
	}
	return 0;
}

static int add_stacks(struct store *st, int64_t rid, const struct ldr_report *r)
{
	sqlite3_stmt *s;
	size_t i;

	for (i = 0; i < r->nr_stacks; i++) {
		s = store_stmt(st, ST_STACK_INSERT);
		if (!s)
			return -1;
		sqlite3_bind_int64(s, 1, rid);
		sqlite3_bind_int(s, 2, i);
		store_bind_text(s, 3, r->stacks[i].label);
		bind_index(s, 4, r->stacks[i].lock);
		if (store_step_done(st, s, "add a stack") ||
		    add_frames(st, rid, "stack", i, &r->stacks[i].frames))
			return -1;
	}
	return 0;
}

/* The small lists: chain, chain summary, scenario, irq events, notes, raw. */
static int add_lists(struct store *st, int64_t rid, const struct ldr_report *r)
{
	sqlite3_stmt *s;
	size_t i;

	for (i = 0; i < r->nr_chain; i++) {
		if (!(s = store_stmt(st, ST_CHAIN_INSERT)))
			return -1;
		sqlite3_bind_int64(s, 1, rid);
		sqlite3_bind_int(s, 2, i);
		bind_index(s, 3, r->chain[i].lock);
		bind_index(s, 4, r->chain[i].stack);
		if (store_step_done(st, s, "add a chain link"))
			return -1;
	}
	for (i = 0; i < r->nr_chain_summary; i++) {
		if (!(s = store_stmt(st, ST_CHAIN_SUMMARY_INSERT)))
			return -1;
		sqlite3_bind_int64(s, 1, rid);
		sqlite3_bind_int(s, 2, i);
		store_bind_text(s, 3, r->chain_summary[i]);
		if (store_step_done(st, s, "add a chain summary"))
			return -1;
	}
	for (i = 0; i < r->nr_scenario; i++) {
		if (!(s = store_stmt(st, ST_SCENARIO_INSERT)))
			return -1;
		sqlite3_bind_int64(s, 1, rid);
		sqlite3_bind_int(s, 2, i);
		sqlite3_bind_int(s, 3, r->scenario[i].cpu);
		store_bind_text(s, 4, r->scenario[i].text);
		if (store_step_done(st, s, "add a scenario row"))
			return -1;
	}
	for (i = 0; i < r->nr_irq_events; i++) {
		if (!(s = store_stmt(st, ST_IRQ_EVENT_INSERT)))
			return -1;
		sqlite3_bind_int64(s, 1, rid);
		sqlite3_bind_int(s, 2, i);
		store_bind_text(s, 3, r->irq_events[i].what);
		store_bind_u64(s, 4, r->irq_events[i].stamp);
		if (store_step_done(st, s, "add an irq event") ||
		    add_frames(st, rid, "irq-event", i,
			       &r->irq_events[i].frames))
			return -1;
	}
	for (i = 0; i < r->nr_notes; i++) {
		if (!(s = store_stmt(st, ST_NOTE_INSERT)))
			return -1;
		sqlite3_bind_int64(s, 1, rid);
		sqlite3_bind_int(s, 2, i);
		store_bind_text(s, 3, r->notes[i]);
		if (store_step_done(st, s, "add a note"))
			return -1;
	}
	for (i = 0; i < r->nr_raw; i++) {
		if (!(s = store_stmt(st, ST_RAW_INSERT)))
			return -1;
		sqlite3_bind_int64(s, 1, rid);
		sqlite3_bind_int(s, 2, i);
		sqlite3_bind_int64(s, 3, r->raw[i].lineno);
		store_bind_text(s, 4, r->raw[i].text);
		if (store_step_done(st, s, "add a raw line"))
			return -1;
	}
	return 0;
}

int store_add_report(struct store *st, const struct ldr_report *r,
		     int64_t *report_id)
{
	sqlite3_stmt *s;
	int64_t rid;

	if (store_need_boot(st, "add a report"))
		return -1;
	s = store_stmt(st, ST_REPORT_INSERT);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, st->boot_id);
	sqlite3_bind_int64(s, 2, r->id);
	store_bind_text(s, 3, ldr_type_name(r->type));
	store_bind_text(s, 4, r->title ? r->title : "");
	store_bind_text(s, 5, r->dedup_key ? r->dedup_key : "");
	store_bind_text(s, 6, r->header);
	store_bind_text(s, 7, r->message);
	store_bind_text(s, 8, r->release);
	store_bind_text(s, 9, r->taint);
	store_bind_text(s, 10, r->task);
	if (r->pid >= 0)
		sqlite3_bind_int64(s, 11, r->pid);
	if (r->cpu >= 0)
		sqlite3_bind_int64(s, 12, r->cpu);
	store_bind_text(s, 13, r->irq_context);
	store_bind_text(s, 14, r->hardware);
	store_bind_text(s, 15, r->irq_class);
	if (r->has_irq_event_stamp)
		store_bind_u64(s, 16, r->irq_event_stamp);
	sqlite3_bind_int(s, 17, r->old_format);
	sqlite3_bind_int(s, 18, r->truncated);
	store_bind_text(s, 19, r->input);
	sqlite3_bind_int64(s, 20, r->first_line);
	sqlite3_bind_int64(s, 21, r->last_line);
	bind_index(s, 22, r->backtrace);
	sqlite3_bind_int64(s, 23, r->raw_dropped);
	if (r->has_kmsg_seq)
		store_bind_u64(s, 24, r->kmsg_seq);
	if (store_step_done(st, s, "add a report"))
		return -1;
	rid = sqlite3_last_insert_rowid(st->db);
	if (add_locks(st, rid, r) || add_stacks(st, rid, r) ||
	    add_lists(st, rid, r))
		return -1;
	if (report_id)
		*report_id = rid;
	return 0;
}
