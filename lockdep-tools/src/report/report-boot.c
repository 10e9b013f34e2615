// SPDX-License-Identifier: GPL-2.0
/*
 * The head of a stored boot's reports (lockdep-report --db --boot): the
 * boot, its workload and how many reports it has, printed whatever that
 * number is, so that a boot of no report (a clean run, a kernel without
 * lockdep) still says what it was and how its workload ended.
 */
#include <inttypes.h>
#include <stdbool.h>

#include "report/report-print.h"
#include "store/store-graph.h"
#include "util/term-text.h"

struct boot_head {
	FILE *out;
	int64_t id;
	long long reports;
};

static int no_lockdep(int64_t boot_id, bool none, void *data)
{
	(void)boot_id;
	*(bool *)data = none;
	return 0;
}

static int print_row(const struct store_boot_row *b, void *data)
{
	struct boot_head *h = data;

	if (b->id != h->id)
		return 0;
	h->reports = b->reports;
	fprintf(h->out, "boot %" PRId64, b->id);
	if (b->label) {
		fputs(" (", h->out);
		term_text_fputs(h->out, b->label);
		fputc(')', h->out);
	}
	fputs(": kernel ", h->out);
	term_text_fputs(h->out, b->kernel_release ? b->kernel_release : "unknown");
	fputs(", ", h->out);
	term_text_fputs(h->out, b->completeness ? b->completeness : "unknown");
	return 1;
}

int report_print_boot(FILE *out, struct store *st, int64_t boot)
{
	struct boot_head h = { .out = out, .id = boot };
	struct store_workload w;
	bool none = false;
	char status[64];
	int ret;

	if (store_boot_foreach(st, print_row, &h) < 0 ||
	    store_graph_no_exports(st, &boot, 1, no_lockdep, &none))
		return -1;
	fputs(none ? "; no lockdep\n" : "\n", out);
	ret = store_workload_load(st, boot, &w);
	if (ret < 0)
		return -1;
	if (ret) {
		store_workload_status(&w, status, sizeof(status));
		fputs("workload ", out);
		term_text_fputs(out, w.name);
		fprintf(out, ": %s\n", status);
		store_workload_release(&w);
	} else {
		fputs("workload: none\n", out);
	}
	if (report_print_repro(out, st, boot))
		return -1;
	fprintf(out, "%lld report%s\n", h.reports, h.reports == 1 ? "" : "s");
	return 0;
}
