// SPDX-License-Identifier: GPL-2.0
/*
 * Printers of advice (advise/advise.h): text after a report, and the
 * "advice" member of a report's JSON object (lockdep-report(1), ADVICE).
 */
#include <string.h>

#include "report/report-print.h"
#include "util/strbuf.h"
#include "util/term-text.h"

/* Whether a line of @patch changes when made safe for a terminal. */
static bool patch_escaped(const char *patch)
{
	const char *p, *nl;

	for (p = patch; *p; p = *nl ? nl + 1 : nl) {
		nl = strchrnul(p, '\n');
		if (term_text_changes(p, (size_t)(nl - p)))
			return true;
	}
	return false;
}

void report_print_advice(FILE *out, const struct advice *a)
{
	size_t i;

	fputs("advice: ", out);
	term_text_fputs(out, adv_verdict_text(a->verdict));
	fprintf(out, "\n  rule: %s%s\n", a->rule, a->sure ? "" : " (unsure)");
	for (i = 0; i < a->nr_reasons; i++) {
		fputs("  why: ", out);
		term_text_fputs(out, a->reasons[i]);
		fputc('\n', out);
	}
	for (i = 0; i < a->nr_changes; i++) {
		const struct adv_change *c = &a->changes[i];

		fputs("  change: ", out);
		/* a change of the configuration has no source line */
		if (c->file || c->line) {
			term_text_fputs(out, c->file ? c->file : "?");
			fprintf(out, ":%u", c->line);
			if (c->function) {
				fputs(" in ", out);
				term_text_fputs(out, c->function);
			}
			fputs(": ", out);
		}
		term_text_fputs(out, c->why);
		fputs("\n    - ", out);
		term_text_fputs(out, c->current);
		fputs("\n    + ", out);
		term_text_fputs(out, c->proposed);
		fputc('\n', out);
	}
	for (i = 0; i < a->nr_choices; i++) {
		fputs("  choice: ", out);
		term_text_fputs(out, a->choices[i]);
		fputc('\n', out);
	}
	if (a->patch_file) {
		fputs("  patch file: ", out);
		term_text_fputs(out, a->patch_file);
		fputc('\n', out);
	}
	if (a->patch) {
		const char *p = a->patch, *nl;

		/*
		 * as git apply takes it, each line made safe for a terminal:
		 * where that changed a byte of the source, the lines below are
		 * for reading, the file of --patch-dir for applying
		 */
		if (patch_escaped(a->patch))
			fputs("  note: the patch below is escaped for a terminal (\\xNN); apply the one --patch-dir=DIR writes\n",
			      out);
		fputs("  patch:\n", out);
		for (; *p; p = *nl ? nl + 1 : nl) {
			struct strbuf line = STRBUF_INIT;

			nl = strchrnul(p, '\n');
			strbuf_add(&line, p, (size_t)(nl - p));
			term_text_fputs(out, line.buf);
			fputc('\n', out);
			strbuf_release(&line);
		}
	} else if (a->no_patch) {
		fputs("  no patch: ", out);
		term_text_fputs(out, a->no_patch);
		fputc('\n', out);
	}
}

void report_json_advice(struct json_writer *w, const struct advice *a)
{
	size_t i;

	jsonw_name(w, "advice");
	jsonw_start_object(w);
	jsonw_string_field(w, "verdict", adv_verdict_key(a->verdict));
	jsonw_string_field(w, "text", adv_verdict_text(a->verdict));
	jsonw_string_field(w, "rule", a->rule);
	jsonw_bool_field(w, "sure", a->sure);
	report_json_strings(w, "reasons", a->reasons, a->nr_reasons);
	jsonw_name(w, "changes");
	jsonw_start_array(w);
	for (i = 0; i < a->nr_changes; i++) {
		const struct adv_change *c = &a->changes[i];

		jsonw_start_object(w);
		jsonw_string_field(w, "file", c->file);
		jsonw_uint_field(w, "line", c->line);
		jsonw_string_field(w, "function", c->function);
		jsonw_string_field(w, "current", c->current);
		jsonw_string_field(w, "proposed", c->proposed);
		jsonw_string_field(w, "why", c->why);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	report_json_strings(w, "choices", a->choices, a->nr_choices);
	jsonw_string_field(w, "patch", a->patch);
	jsonw_string_field(w, "no_patch", a->no_patch);
	jsonw_string_field(w, "patch_file", a->patch_file);
	jsonw_end_object(w);
}
