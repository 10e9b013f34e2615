// SPDX-License-Identifier: GPL-2.0
/*
 * One dependency's trace and first-seen time (store-path.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"
#include "store/store-path.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * The dependency, its trace and its first event: a class by identity,
 * row or name, as the loader merged it. The first event is the view
 * dependency_first_seen's rule (lockdep-db(5)) for this one dependency:
 * the view groups every event of the boot before it can be filtered
 * (6 s on the demo's workload boot), this reads the dependency's own
 * events through their index.
 */
static const char dep_sql[] =
	"SELECT d.trace_id,"
	" (SELECT min(e.time_us) FROM dependency_events e"
	"  WHERE e.boot_id = d.boot_id AND e.kind = 'dependency'"
	"  AND e.class_idx = f.graph_idx AND e.to_idx = t.graph_idx"
	"  AND NOT EXISTS (SELECT 1 FROM dependency_events z"
	"   WHERE z.boot_id = e.boot_id AND z.kind = 'class_zapped'"
	"   AND z.class_idx IN (e.class_idx, e.to_idx) AND z.seq > e.seq))"
	" FROM dependencies d JOIN classes f ON f.id = d.from_class"
	" JOIN classes t ON t.id = d.to_class"
	" WHERE d.boot_id = ?1"
	" AND (CASE ?2 WHEN 1 THEN f.identity WHEN 2 THEN CAST(f.id AS TEXT)"
	" ELSE f.name END) = ?3"
	" AND (CASE ?4 WHEN 1 THEN t.identity WHEN 2 THEN CAST(t.id AS TEXT)"
	" ELSE t.name END) = ?5"
	" ORDER BY d.trace_id IS NULL LIMIT 1";

static const char frames_sql[] =
	"SELECT addr, func, off, size, file, line FROM trace_frames"
	" WHERE boot_id = ?1 AND trace_id = ?2 ORDER BY idx";

static const char *text(sqlite3_stmt *s, int i)
{
	return (const char *)sqlite3_column_text(s, i);
}

/* A frame as the kernel prints one in a stack, with its source line */
static char *frame_str(sqlite3_stmt *s)
{
	struct strbuf sb = STRBUF_INIT;

	if (text(s, 1)) {
		strbuf_addstr(&sb, text(s, 1));
		if (sqlite3_column_type(s, 2) != SQLITE_NULL)
			strbuf_addf(&sb, "+0x%" PRIx64,
				    (uint64_t)sqlite3_column_int64(s, 2));
		if (sqlite3_column_type(s, 3) != SQLITE_NULL)
			strbuf_addf(&sb, "/0x%" PRIx64,
				    (uint64_t)sqlite3_column_int64(s, 3));
		if (text(s, 4))
			strbuf_addf(&sb, " (%s:%" PRId64 ")", text(s, 4),
				    (int64_t)sqlite3_column_int64(s, 5));
	} else {
		strbuf_addf(&sb, "0x%s", text(s, 0) ? text(s, 0) : "?");
	}
	return strbuf_detach(&sb, NULL);
}

static void bind_ref(sqlite3_stmt *s, int i, const struct store_class_ref *r)
{
	sqlite3_bind_int(s, i, (int)r->kind);
	sqlite3_bind_text(s, i + 1, r->text, -1, SQLITE_STATIC);
}

static int read_frames(struct store *st, int64_t boot, int64_t trace,
		       struct store_dep_detail *d)
{
	sqlite3_stmt *s;
	size_t alloc = 0;
	int rc;

	if (sqlite3_prepare_v2(st->db, frames_sql, -1, &s, NULL))
		return store_fail(st, "unable to read");
	sqlite3_bind_int64(s, 1, boot);
	sqlite3_bind_int64(s, 2, trace);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ALLOC_GROW(d->frames, d->nr_frames + 1, alloc);
		d->frames[d->nr_frames++] = frame_str(s);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail(st, "unable to read");
}

int store_dep_detail(struct store *st, int64_t boot,
		     const struct store_class_ref *from,
		     const struct store_class_ref *to,
		     struct store_dep_detail *d)
{
	sqlite3_stmt *s;
	int64_t trace = -1;
	int rc, ret = 0;

	memset(d, 0, sizeof(*d));
	d->first_us = -1;
	if (sqlite3_prepare_v2(st->db, dep_sql, -1, &s, NULL))
		return store_fail(st, "unable to read");
	sqlite3_bind_int64(s, 1, boot);
	bind_ref(s, 2, from);
	bind_ref(s, 4, to);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		ret = 1;
		if (sqlite3_column_type(s, 0) != SQLITE_NULL)
			trace = sqlite3_column_int64(s, 0);
		if (sqlite3_column_type(s, 1) != SQLITE_NULL)
			d->first_us = sqlite3_column_int64(s, 1);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(st, "unable to read");
	if (trace >= 0 && read_frames(st, boot, trace, d))
		return -1;
	return ret;
}

void store_dep_detail_release(struct store_dep_detail *d)
{
	size_t i;

	for (i = 0; i < d->nr_frames; i++)
		free(d->frames[i]);
	free(d->frames);
	memset(d, 0, sizeof(*d));
}
