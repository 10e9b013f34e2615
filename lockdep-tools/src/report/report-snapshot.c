// SPDX-License-Identifier: GPL-2.0
/*
 * The lockdep_stats snapshot of a stored "too low" report (the agent's,
 * lockdep-agent(8) SAMPLES): a line of text, or the JSON "snapshot".
 * A limit report without one says so: the analysis of its tables is
 * then of a later state, not of the moment they ran out.
 */
#include "report/report-print.h"
#include "util/term-text.h"

void report_print_snapshot(FILE *out, const struct store_stats_snapshot *s)
{
	if (!s) {
		fputs("snapshot: none (the agent took no snapshot of lockdep_stats and the graph export for it)\n",
		      out);
		return;
	}
	fprintf(out, "snapshot: lockdep_stats sample %lld at %lld.%03lld s",
		s->seq, s->time_ms / 1000, s->time_ms % 1000);
	if (s->full) {
		fputs(" (full: ", out);
		term_text_fputs(out, s->full);
		fputc(')', out);
	}
	fputs(", graph export ", out);
	if (s->graph_path)
		term_text_fputs(out, s->graph_path);
	else
		fputs("not copied", out);
	fputc('\n', out);
}

void report_json_snapshot(struct json_writer *j,
			  const struct store_stats_snapshot *s)
{
	jsonw_name(j, "snapshot");
	if (!s) {
		jsonw_null(j);
		return;
	}
	jsonw_start_object(j);
	jsonw_int_field(j, "sample", s->seq);
	jsonw_int_field(j, "time_ms", s->time_ms);
	jsonw_int_field(j, "kmsg_seq", s->kmsg_seq);
	jsonw_string_field(j, "full", s->full);
	jsonw_string_field(j, "graph_path", s->graph_path);
	jsonw_end_object(j);
}
