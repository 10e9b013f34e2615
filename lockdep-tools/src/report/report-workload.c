// SPDX-License-Identifier: GPL-2.0
/*
 * The workload of a stored report's boot, and whether the report came
 * before, during or after it: a line of text, or the JSON "workload".
 */
#include "report/report-print.h"
#include "util/term-text.h"

void report_print_workload(FILE *out, const struct report_workload *rw)
{
	char status[64];

	if (!rw->w)
		return;
	store_workload_status(rw->w, status, sizeof(status));
	fputs("workload: ", out);
	term_text_fputs(out, rw->w->name);
	fprintf(out, ", %s", status);
	if (rw->phase[0])
		fprintf(out, "; this report came %s it", rw->phase);
	fputc('\n', out);
}

static void null_field(struct json_writer *j, const char *name)
{
	jsonw_name(j, name);
	jsonw_null(j);
}

void report_json_workload(struct json_writer *j, const struct report_workload *rw)
{
	const struct store_workload *w = rw->w;

	jsonw_name(j, "workload");
	jsonw_start_object(j);
	jsonw_string_field(j, "name", w->name);
	jsonw_string_field(j, "state", store_workload_state_name(w->state));
	if (w->state == STORE_WORKLOAD_EXITED && !w->signal)
		jsonw_int_field(j, "exit_code", w->exit_code);
	else
		null_field(j, "exit_code");
	if (w->signal)
		jsonw_int_field(j, "signal", w->signal);
	else
		null_field(j, "signal");
	if (w->state == STORE_WORKLOAD_EXITED)
		jsonw_int_field(j, "duration_ms", w->duration_ms);
	else
		null_field(j, "duration_ms");
	jsonw_string_field(j, "phase", rw->phase[0] ? rw->phase : NULL);
	jsonw_end_object(j);
}
