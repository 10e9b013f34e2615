// SPDX-License-Identifier: GPL-2.0
/* The lockdep_stats series of a boot (store-series.h). */
#include <stdlib.h>

#include "parse/proc-stats.h"
#include "store/store-int.h"
#include "store/store-series.h"

int store_add_stats_sample(struct store *st, unsigned int sample_idx,
			   const struct proc_stats_sample *h)
{
	sqlite3_stmt *s;

	if (store_need_boot(st, "add a lockdep_stats sample"))
		return -1;
	if (!(s = store_stmt(st, ST_SAMPLE_INSERT)))
		return -1;
	sqlite3_bind_int64(s, 1, st->boot_id);
	sqlite3_bind_int(s, 2, sample_idx);
	store_bind_u64(s, 3, h->seq);
	store_bind_u64(s, 4, h->time_ms);
	if (h->kind == PROC_STATS_PERIODIC) {
		sqlite3_bind_text(s, 5, "periodic", -1, SQLITE_STATIC);
		store_bind_u64(s, 6, h->arg);
		if (h->has_kmsg_seq)
			store_bind_u64(s, 7, h->kmsg_seq);
	} else {
		sqlite3_bind_text(s, 5, "snapshot", -1, SQLITE_STATIC);
		store_bind_u64(s, 7, h->arg);
	}
	return store_step_done(st, s, "add a lockdep_stats sample");
}

int store_add_stats_sample_value(struct store *st, unsigned int sample_idx,
				 unsigned int idx,
				 const struct proc_lockdep_stat *p)
{
	sqlite3_stmt *s;

	if (store_need_boot(st, "add a lockdep_stats sample line"))
		return -1;
	if (!(s = store_stmt(st, ST_SAMPLE_VALUE_INSERT)))
		return -1;
	sqlite3_bind_int64(s, 1, st->boot_id);
	sqlite3_bind_int(s, 2, sample_idx);
	sqlite3_bind_int(s, 3, idx);
	sqlite3_bind_text(s, 4, p->label, p->label_len, SQLITE_STATIC);
	store_bind_u64(s, 5, p->value);
	if (p->has_max)
		store_bind_u64(s, 6, p->max);
	sqlite3_bind_int(s, 7, p->known);
	return store_step_done(st, s, "add a lockdep_stats sample line");
}

int store_link_stats_snapshots(struct store *st, const char *graph_path,
			       unsigned long *unlinked,
			       unsigned long *unsnapped)
{
	static const char link[] =
		"UPDATE stats_samples SET report_id = (SELECT r.id FROM reports r"
		" WHERE r.boot_id = stats_samples.boot_id"
		" AND r.kmsg_seq = stats_samples.kmsg_seq"
		" AND r.type = 'lockdep-limit' ORDER BY r.seq LIMIT 1),"
		" graph_path = (SELECT f.path FROM files f"
		" WHERE f.boot_id = stats_samples.boot_id AND f.path = ?2"
		" AND f.status = 'complete')"
		" WHERE boot_id = ?1 AND kind = 'snapshot'";
	static const char count[] =
		"SELECT (SELECT count(*) FROM stats_samples WHERE boot_id = ?1"
		" AND kind = 'snapshot' AND report_id IS NULL),"
		" (SELECT count(*) FROM reports r WHERE r.boot_id = ?1"
		" AND r.type = 'lockdep-limit' AND NOT EXISTS (SELECT 1"
		" FROM stats_samples s WHERE s.boot_id = ?1"
		" AND s.report_id = r.id))";
	sqlite3_stmt *s;
	int64_t n[2];

	if (store_need_boot(st, "link the lockdep_stats snapshots"))
		return -1;
	if (store_prepare(st, link, &s))
		return -1;
	sqlite3_bind_int64(s, 1, st->boot_id);
	store_bind_text(s, 2, graph_path);
	if (store_step_done(st, s, "link the lockdep_stats snapshots")) {
		sqlite3_finalize(s);
		return -1;
	}
	sqlite3_finalize(s);
	if (store_query_boot(st, count, st->boot_id, n, 2))
		return store_fail(st, "unable to count the snapshots without a report in");
	*unlinked = n[0];
	*unsnapped = n[1];
	return 0;
}

/* A snapshot row of SNAPSHOT_COLUMNS to *@snap. */
#define SNAPSHOT_COLUMNS \
	"SELECT s.idx, s.seq, s.time_ms, s.kmsg_seq, s.report_id," \
	" s.graph_path, (SELECT group_concat(v.name, ', ')" \
	" FROM stats_sample_values v WHERE v.boot_id = s.boot_id" \
	" AND v.sample_idx = s.idx AND v.max IS NOT NULL" \
	" AND v.value >= v.max) FROM stats_samples s"

static void snapshot_row(sqlite3_stmt *s, struct store_stats_snapshot *snap)
{
	snap->idx = sqlite3_column_int64(s, 0);
	snap->seq = sqlite3_column_int64(s, 1);
	snap->time_ms = sqlite3_column_int64(s, 2);
	snap->kmsg_seq = sqlite3_column_int64(s, 3);
	snap->report_id = sqlite3_column_int64(s, 4);
	snap->graph_path = store_col_strdup(s, 5);
	snap->full = store_col_strdup(s, 6);
}

int store_report_snapshot(struct store *st, int64_t report_id,
			  struct store_stats_snapshot *snap)
{
	static const char sql[] = SNAPSHOT_COLUMNS
		" WHERE s.boot_id = (SELECT boot_id FROM reports WHERE id = ?1)"
		" AND s.report_id = ?1 ORDER BY s.idx LIMIT 1";
	sqlite3_stmt *s;
	int rc, found = 0;

	if (store_prepare(st, sql, &s))
		return -1;
	sqlite3_bind_int64(s, 1, report_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		snapshot_row(s, snap);
		found = 1;
		rc = SQLITE_DONE;
	}
	return store_finish(st, s, rc, 0) ? -1 : found;
}

void store_stats_snapshot_release(struct store_stats_snapshot *s)
{
	free(s->graph_path);
	free(s->full);
}
