// SPDX-License-Identifier: GPL-2.0
/*
 * The dependency event stream of a boot (lockdep-db(5), tables
 * event_streams, dependency_events and class_events): written once per
 * boot by the collector, from the parsed trace_pipe lines.
 */
#include "parse/trace-events.h"
#include "store/store-int.h"

static const char *const kind_names[] = {
	[TRACE_EVENT_DEPENDENCY] = "dependency",
	[TRACE_EVENT_USAGE] = "usage",
	[TRACE_EVENT_CLASS_ZAPPED] = "class_zapped",
};

/*
 * The columns both event tables start with: boot, seq (the event's place
 * in the stream, shared by the two tables), time and CPU. NULL if the
 * statement cannot be had.
 */
static sqlite3_stmt *event_stmt(struct store *st, enum store_stmt which,
				const struct trace_event *ev)
{
	sqlite3_stmt *s = store_stmt(st, which);

	if (!s)
		return NULL;
	sqlite3_bind_int64(s, 1, st->boot_id);
	sqlite3_bind_int64(s, 2, st->nr_events++);
	sqlite3_bind_int64(s, 3, (sqlite3_int64)ev->time_us);
	sqlite3_bind_int64(s, 4, ev->cpu);
	return s;
}

/* A class registered: a table of its own. */
static int add_class_event(struct store *st, const struct trace_event *ev)
{
	sqlite3_stmt *s = event_stmt(st, ST_CLASS_EVENT_INSERT, ev);

	if (!s)
		return -1;
	sqlite3_bind_int64(s, 5, ev->class);
	/* no class key is at 0: a kernel hiding its addresses prints that */
	store_bind_addr(s, 6, ev->key, ev->key != 0);
	sqlite3_bind_int64(s, 7, ev->subclass);
	sqlite3_bind_int64(s, 8, ev->name_version);
	/* byte for byte, as the kernel printed it */
	sqlite3_bind_text(s, 9, ev->name, (int)ev->name_len, SQLITE_STATIC);
	return store_step_done(st, s, "add a class event");
}

int store_add_dependency_event(struct store *st, const struct trace_event *ev)
{
	sqlite3_stmt *s;

	if (store_need_boot(st, "add a dependency event"))
		return -1;
	if (ev->kind == TRACE_EVENT_CLASS)
		return add_class_event(st, ev);
	s = event_stmt(st, ST_EVENT_INSERT, ev);
	if (!s)
		return -1;
	store_bind_text(s, 5, kind_names[ev->kind]);
	sqlite3_bind_int64(s, 6, ev->class);
	if (ev->kind == TRACE_EVENT_DEPENDENCY) {
		sqlite3_bind_int64(s, 7, ev->to);
		sqlite3_bind_int64(s, 8, ev->dep);
		sqlite3_bind_int64(s, 9, ev->distance);
	}
	if (ev->kind == TRACE_EVENT_USAGE)
		sqlite3_bind_int64(s, 10, ev->bit);
	if (ev->kind != TRACE_EVENT_CLASS_ZAPPED)
		sqlite3_bind_int64(s, 11, ev->trace);
	return store_step_done(st, s, "add a dependency event");
}

int store_add_event_stream(struct store *st,
			   const struct trace_events_stats *stats)
{
	sqlite3_stmt *s;
	int rc;

	if (store_need_boot(st, "add an event stream"))
		return -1;
	if (sqlite3_prepare_v2(st->db,
			"INSERT INTO event_streams (boot_id, events, lost, other)"
			" VALUES (?, ?, ?, ?)", -1, &s, NULL) != SQLITE_OK)
		return store_fail(st, "unable to prepare a statement on");
	sqlite3_bind_int64(s, 1, st->boot_id);
	sqlite3_bind_int64(s, 2, (sqlite3_int64)stats->events);
	store_bind_u64(s, 3, stats->lost);
	sqlite3_bind_int64(s, 4, (sqlite3_int64)(stats->other + stats->unknown));
	rc = store_step_done(st, s, "add an event stream");
	sqlite3_finalize(s);
	return rc;
}
