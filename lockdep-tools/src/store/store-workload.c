// SPDX-License-Identifier: GPL-2.0
/*
 * The workload of a boot (lockdep-db(5), table workloads): written once
 * per boot by the collector, read by the report and diff tools.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"
#include "util/xalloc.h"

static const char *const state_names[] = {
	[STORE_WORKLOAD_EXITED] = "exited",
	[STORE_WORKLOAD_RUNNING] = "running",
	[STORE_WORKLOAD_NOT_STARTED] = "not started",
};

const char *store_workload_state_name(enum store_workload_state st)
{
	return state_names[st];
}

void store_workload_status(const struct store_workload *w, char *buf,
			   size_t size)
{
	if (w->state != STORE_WORKLOAD_EXITED)
		snprintf(buf, size, "%s", state_names[w->state]);
	else if (w->signal)
		snprintf(buf, size, "killed by signal %d after %.1f s",
			 w->signal, w->duration_ms / 1000.0);
	else
		snprintf(buf, size, "exit status %d after %.1f s",
			 w->exit_code, w->duration_ms / 1000.0);
}

static void bind_opt(sqlite3_stmt *s, int i, bool known, long long v)
{
	if (known)
		sqlite3_bind_int64(s, i, v);
}

int store_add_workload(struct store *st, const struct store_workload *w)
{
	bool exited = w->state == STORE_WORKLOAD_EXITED;
	sqlite3_stmt *s;
	int rc;

	if (store_need_boot(st, "add a workload"))
		return -1;
	if (sqlite3_prepare_v2(st->db,
			"INSERT INTO workloads (boot_id, name, state, exit_code,"
			" signal, duration_ms, start_seq, end_seq, output,"
			" output_bytes, error)"
			" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			-1, &s, NULL) != SQLITE_OK)
		return store_fail(st, "unable to prepare a statement on");
	sqlite3_bind_int64(s, 1, st->boot_id);
	store_bind_text(s, 2, w->name);
	store_bind_text(s, 3, state_names[w->state]);
	bind_opt(s, 4, exited && w->exit_code >= 0, w->exit_code);
	bind_opt(s, 5, exited && w->signal > 0, w->signal);
	bind_opt(s, 6, exited, w->duration_ms);
	bind_opt(s, 7, w->has_start_seq, w->start_seq);
	bind_opt(s, 8, exited && w->has_end_seq, w->end_seq);
	/* a workload that did not end may have its output so far */
	if (exited || w->output) {
		sqlite3_bind_blob64(s, 9, w->output ? w->output : (void *)"",
				    w->output_len, SQLITE_STATIC);
		sqlite3_bind_int64(s, 10, w->output_bytes);
	}
	store_bind_text(s, 11, w->error);
	rc = store_step_done(st, s, "add a workload");
	sqlite3_finalize(s);
	return rc;
}

static char *column_dup(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	return t ? xstrdup((const char *)t) : NULL;
}

int store_workload_load(struct store *st, int64_t boot_id,
			struct store_workload *w)
{
	const char *state;
	sqlite3_stmt *s;
	void *out;
	int rc, i;

	memset(w, 0, sizeof(*w));
	/* a database from before version 8 has no workloads */
	if (sqlite3_prepare_v2(st->db,
			"SELECT name, state, exit_code, signal, duration_ms,"
			" start_seq, end_seq, output, output_bytes, error"
			" FROM workloads WHERE boot_id = ?",
			-1, &s, NULL) != SQLITE_OK)
		return store_user_version(st) < 8 ? 0 :
		       store_fail(st, "unable to read the workload from");
	sqlite3_bind_int64(s, 1, boot_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE) {
		sqlite3_finalize(s);
		return 0;
	}
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(s);
		return store_fail(st, "unable to read the workload from");
	}
	state = (const char *)sqlite3_column_text(s, 1);
	w->state = STORE_WORKLOAD_EXITED;
	for (i = 0; state && i < (int)(sizeof(state_names) / sizeof(*state_names)); i++)
		if (state_names[i] && !strcmp(state, state_names[i]))
			w->state = i;
	w->name = column_dup(s, 0);
	w->exit_code = sqlite3_column_type(s, 2) == SQLITE_NULL ? -1 :
		       sqlite3_column_int(s, 2);
	w->signal = sqlite3_column_int(s, 3);
	w->duration_ms = sqlite3_column_int64(s, 4);
	w->has_start_seq = sqlite3_column_type(s, 5) != SQLITE_NULL;
	w->start_seq = sqlite3_column_int64(s, 5);
	w->has_end_seq = sqlite3_column_type(s, 6) != SQLITE_NULL;
	w->end_seq = sqlite3_column_int64(s, 6);
	w->output_len = sqlite3_column_bytes(s, 7);
	out = xmalloc(w->output_len + 1);
	if (w->output_len)
		memcpy(out, sqlite3_column_blob(s, 7), w->output_len);
	w->output = out;
	w->output_bytes = sqlite3_column_int64(s, 8);
	w->error = column_dup(s, 9);
	sqlite3_finalize(s);
	return 1;
}

void store_workload_release(struct store_workload *w)
{
	free((char *)w->name);
	free((char *)w->error);
	free((void *)w->output);
	memset(w, 0, sizeof(*w));
}

int store_report_workload(struct store *st, int64_t report_id,
			  struct store_workload *w, char *phase, size_t size)
{
	int64_t boot_id = 0;
	sqlite3_stmt *s;
	int rc;

	phase[0] = '\0';
	memset(w, 0, sizeof(*w));
	if (sqlite3_prepare_v2(st->db,
			"SELECT boot_id, phase FROM report_workload_phase WHERE report_id = ?",
			-1, &s, NULL) != SQLITE_OK)
		return store_user_version(st) < 8 ? 0 :
		       store_fail(st, "unable to read a report's workload from");
	sqlite3_bind_int64(s, 1, report_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		boot_id = sqlite3_column_int64(s, 0);
		if (sqlite3_column_text(s, 1))
			snprintf(phase, size, "%s", sqlite3_column_text(s, 1));
	}
	sqlite3_finalize(s);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return store_fail(st, "unable to read a report's workload from");
	return store_workload_load(st, boot_id, w);
}
