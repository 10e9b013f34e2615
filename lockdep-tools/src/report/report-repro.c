// SPDX-License-Identifier: GPL-2.0
/*
 * A stored boot's C reproducer run (lockdep-collect --repro-source): what
 * ran on what kernel, its verdict, and the history of its source across
 * the database ("reproduced on A; fixed by P on B"), under the boot's head.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/report-print.h"
#include "util/term-text.h"
#include "util/xalloc.h"

/* The patch names, one a line in the store, as "a.patch, b.patch". */
static void print_patches(FILE *out, const char *names)
{
	char *copy = xstrdup(names), *p, *save = NULL;
	bool first = true;

	for (p = strtok_r(copy, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
		fputs(first ? "" : ", ", out);
		term_text_fputs(out, p);
		first = false;
	}
	free(copy);
}

static void print_boot(FILE *out, int64_t id, const char *label)
{
	fprintf(out, "boot %" PRId64, id);
	if (label) {
		fputs(" (", out);
		term_text_fputs(out, label);
		fputc(')', out);
	}
}

/* "reproduced in 1.2 s: TITLE", syzbot's title; 0 or -1 */
static int print_verdict(FILE *out, struct store *st,
			 const struct store_repro_row *r)
{
	struct ldr_report *rep = NULL;
	bool found = true;

	fputs(r->reproduced ? "reproduced" : "not reproduced", out);
	if (r->duration_ms >= 0)
		fprintf(out, " in %.1f s", r->duration_ms / 1000.0);
	else
		fputs(" (the run did not end)", out);
	if (r->reproduced && r->report_id) {
		rep = store_report_load(st, r->report_id, &found);
		if (!rep)
			return found ? -1 : 0;
		report_title_as_syzbot(rep);
		fputs(": ", out);
		term_text_fputs(out, rep->title);
		report_free(rep);
	}
	return 0;
}

/* The runs of one source, kept for grouping. */
struct history {
	struct store_repro_row *rows;
	size_t nr, alloc;
};

static int history_add(const struct store_repro_row *r, void *data)
{
	struct history *h = data;
	struct store_repro_row *c;

	if (h->nr == h->alloc) {
		h->alloc = h->alloc ? 2 * h->alloc : 8;
		h->rows = xrealloc(h->rows, h->alloc * sizeof(*h->rows));
	}
	c = &h->rows[h->nr++];
	*c = (struct store_repro_row){
		.boot_id = r->boot_id, .reproduced = r->reproduced,
		.label = r->label ? xstrdup(r->label) : NULL,
		.patch_names = r->patch_names ? xstrdup(r->patch_names) : NULL,
	};
	return 0;
}

static bool same_patches(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/*
 * One phrase per (patches, verdict), in the order of their first run:
 * "reproduced on boot 1 (a), boot 3 (c)", "fixed by P on boot 2 (b)",
 * "not fixed by P on ...", "not reproduced on ...".
 */
static void print_history(FILE *out, const struct history *h)
{
	size_t i, j, k;
	bool first = true;

	for (i = 0; i < h->nr; i++) {
		const struct store_repro_row *r = &h->rows[i];

		for (j = 0; j < i; j++)
			if (same_patches(h->rows[j].patch_names, r->patch_names) &&
			    h->rows[j].reproduced == r->reproduced)
				break;
		if (j < i)
			continue;	/* its group was printed */
		fputs(first ? "history: " : "; ", out);
		first = false;
		if (!r->patch_names) {
			fputs(r->reproduced ? "reproduced on " : "not reproduced on ", out);
		} else {
			fputs(r->reproduced ? "not fixed by " : "fixed by ", out);
			print_patches(out, r->patch_names);
			fputs(" on ", out);
		}
		for (k = i; k < h->nr; k++) {
			if (!same_patches(h->rows[k].patch_names, r->patch_names) ||
			    h->rows[k].reproduced != r->reproduced)
				continue;
			if (k != i)
				fputs(", ", out);
			print_boot(out, h->rows[k].boot_id, h->rows[k].label);
		}
	}
	if (!first)
		fputc('\n', out);
}

int report_print_repro(FILE *out, struct store *st, int64_t boot)
{
	struct store_repro_row r;
	struct history h = { 0 };
	size_t i;
	int ret;

	ret = store_repro_load(st, boot, &r);
	if (ret <= 0)
		return ret;
	fputs("reproducer ", out);
	term_text_fputs(out, r.source_name);
	fprintf(out, " (source hash %s)", r.source_hash);
	if (r.fragment_name) {
		fputs(", KCONFIG ", out);
		term_text_fputs(out, r.fragment_name);
	}
	if (r.patch_names) {
		fputs(", patched with ", out);
		print_patches(out, r.patch_names);
	}
	fputs("\nverdict: ", out);
	ret = print_verdict(out, st, &r);
	fputc('\n', out);
	if (!ret)
		ret = store_repro_foreach(st, r.source_hash, history_add, &h);
	if (!ret)
		print_history(out, &h);
	for (i = 0; i < h.nr; i++)
		store_repro_row_release(&h.rows[i]);
	free(h.rows);
	store_repro_row_release(&r);
	return ret ? -1 : 0;
}
