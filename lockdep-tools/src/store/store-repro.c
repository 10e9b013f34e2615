// SPDX-License-Identifier: GPL-2.0
/*
 * A C reproducer's runs (lockdep-db(5), table repro_runs): written once
 * per boot by the collector, its verdict fixed then from the boot's own
 * rows; read by lockdep-report as one run and as the history of a source.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"
#include "util/hash.h"

static void bind_bytes(sqlite3_stmt *s, int i, const void *p, size_t len)
{
	if (p)
		sqlite3_bind_blob64(s, i, len ? p : (const void *)"", len,
				    SQLITE_STATIC);
}

int store_add_repro(struct store *st, const struct store_repro *r)
{
	char hash[17];
	sqlite3_stmt *s;
	int rc;

	if (store_need_boot(st, "add a reproducer run"))
		return -1;
	snprintf(hash, sizeof(hash), "%016" PRIx64, fnv1a(r->source, r->source_len));
	/*
	 * The first report while it ran, by the order the kernel printed
	 * them; the run's length is the workload's, which vm/repro-run.sh
	 * ends as soon as a report is counted.
	 */
	if (sqlite3_prepare_v2(st->db,
			"INSERT INTO repro_runs (boot_id, source_name, source_hash,"
			" source, fragment_name, fragment, patch_names, patches,"
			" reproduced, report_seq, duration_ms)"
			" SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, f.seq IS NOT NULL, f.seq,"
			" (SELECT w.duration_ms FROM workloads w WHERE w.boot_id = ?1)"
			" FROM (SELECT (SELECT r.seq FROM reports r"
			" JOIN report_workload_phase p ON p.report_id = r.id"
			" WHERE r.boot_id = ?1 AND p.phase = 'during'"
			" ORDER BY r.seq LIMIT 1) AS seq) f",
			-1, &s, NULL) != SQLITE_OK)
		return store_fail(st, "unable to prepare a statement on");
	sqlite3_bind_int64(s, 1, st->boot_id);
	store_bind_text(s, 2, r->source_name);
	store_bind_text(s, 3, hash);
	bind_bytes(s, 4, r->source, r->source_len);
	store_bind_text(s, 5, r->fragment_name);
	bind_bytes(s, 6, r->fragment, r->fragment_len);
	store_bind_text(s, 7, r->patch_names);
	bind_bytes(s, 8, r->patches, r->patches_len);
	rc = store_step_done(st, s, "add a reproducer run");
	sqlite3_finalize(s);
	return rc;
}

void store_repro_row_release(struct store_repro_row *r)
{
	free(r->label);
	free(r->source_name);
	free(r->source_hash);
	free(r->fragment_name);
	free(r->patch_names);
	memset(r, 0, sizeof(*r));
}

#define REPRO_SELECT \
	"SELECT p.boot_id, b.label, p.source_name, p.source_hash," \
	" p.fragment_name, p.patch_names, p.reproduced," \
	" (SELECT r.id FROM reports r WHERE r.boot_id = p.boot_id" \
	"  AND r.seq = p.report_seq), p.duration_ms" \
	" FROM repro_runs p JOIN boots b ON b.id = p.boot_id"

static void row_read(sqlite3_stmt *s, struct store_repro_row *r)
{
	r->boot_id = sqlite3_column_int64(s, 0);
	r->label = store_col_strdup(s, 1);
	r->source_name = store_col_strdup(s, 2);
	r->source_hash = store_col_strdup(s, 3);
	r->fragment_name = store_col_strdup(s, 4);
	r->patch_names = store_col_strdup(s, 5);
	r->reproduced = sqlite3_column_int(s, 6);
	r->report_id = sqlite3_column_int64(s, 7);
	r->duration_ms = sqlite3_column_type(s, 8) == SQLITE_NULL ? -1 :
			 sqlite3_column_int64(s, 8);
}

int store_repro_load(struct store *st, int64_t boot_id, struct store_repro_row *r)
{
	sqlite3_stmt *s;
	int rc, found = 0;

	memset(r, 0, sizeof(*r));
	if (store_prepare(st, REPRO_SELECT " WHERE p.boot_id = ?1", &s))
		return -1;
	sqlite3_bind_int64(s, 1, boot_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		row_read(s, r);
		found = 1;
		rc = SQLITE_DONE;
	}
	if (store_finish(st, s, rc, 0)) {
		store_repro_row_release(r);
		return -1;
	}
	return found;
}

int store_repro_foreach(struct store *st, const char *hash, store_repro_fn fn,
			void *data)
{
	struct store_repro_row r;
	sqlite3_stmt *s;
	int rc, ret = 0;

	if (store_prepare(st, REPRO_SELECT " WHERE p.source_hash = ?1"
			  " ORDER BY p.boot_id", &s))
		return -1;
	store_bind_text(s, 1, hash);
	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		row_read(s, &r);
		ret = fn(&r, data);
		store_repro_row_release(&r);
	}
	if (ret) {
		sqlite3_finalize(s);
		return ret;
	}
	return store_finish(st, s, rc, 0);
}
