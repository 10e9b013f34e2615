/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Printers of parsed lockdep reports, in pairs as bpftool has them:
 * report_print_plain() for people (kernel-like text), report_print_json()
 * for scripts, and report_print_list() for one summary line.
 */
#ifndef REPORT_REPORT_PRINT_H
#define REPORT_REPORT_PRINT_H

#include <stdio.h>

#include "advise/advise.h"
#include "parse/report.h"
#include "store/store-series.h"
#include "store/store.h"
#include "util/json-writer.h"

/*
 * The workload of a stored report's boot (NULL: none), and its phase;
 * for a stored "too low" report (limit), its snapshot (NULL: none).
 */
struct report_workload {
	const struct store_workload *w;
	char phase[16];		/* "before", "during", "after" or "" */
	bool limit;
	const struct store_stats_snapshot *snapshot;
};

void report_print_plain(FILE *out, const struct ldr_report *r);
/*
 * With advice @a (or NULL) as the "advice" member, and the workload @rw
 * (or NULL: not from a database) as "workload".
 */
void report_print_json(struct json_writer *w, const struct ldr_report *r,
		       const struct advice *a, const struct report_workload *rw);
/* A member @name: the array of strings v[0..n). */
void report_json_strings(struct json_writer *w, const char *name,
			 char *const *v, size_t n);
/* One frame as JSON: the shape lockdep-symbolise --json writes too. */
void report_json_frame(struct json_writer *w, const struct ldr_frame *f);
void report_print_list(FILE *out, const struct ldr_report *r);

/*
 * "boot 3 (label): kernel 6.1.0, complete[; no lockdep]", "workload
 * NAME: exit status 0 after 1.2 s" (or "workload: none") and "N
 * reports" for stored boot @boot, which must exist: 0, or -1 after an
 * error (the store's).
 */
int report_print_boot(FILE *out, struct store *st, int64_t boot);

/*
 * Boot @boot's C reproducer run, if it has one: "reproducer NAME (source
 * hash H)[, KCONFIG F][, patched with P]", "verdict: reproduced in 1.2 s:
 * TITLE" (syzbot's title) or "verdict: not reproduced in 20.0 s", and the
 * source's runs in the database, "history: reproduced on boot 1 (a);
 * fixed by P on boot 2 (b)". 0, or -1 after an error (the store's).
 */
int report_print_repro(FILE *out, struct store *st, int64_t boot);

/* "workload: NAME, exit status 0 after 1.2 s; this report came during it" */
void report_print_workload(FILE *out, const struct report_workload *rw);
void report_json_workload(struct json_writer *w, const struct report_workload *rw);

/*
 * "snapshot: lockdep_stats sample 41 at 93.250 s (full: direct
 * dependencies), graph export /run/lockdep/snapshot-graph", or that
 * there is none (@s NULL); the JSON "snapshot" (null for none).
 */
void report_print_snapshot(FILE *out, const struct store_stats_snapshot *s);
void report_json_snapshot(struct json_writer *w,
			  const struct store_stats_snapshot *s);

/* Advice on a report (advise/advise.h): text, and the JSON "advice" member. */
void report_print_advice(FILE *out, const struct advice *a);
void report_json_advice(struct json_writer *w, const struct advice *a);


struct strbuf;

/* One frame as the kernel prints it ("? func+0x1/0x2 [mod] file:1"). */
void report_print_frame(FILE *out, const struct ldr_frame *f);
/* The same line (no newline) appended to @sb. */
void report_format_frame(struct strbuf *sb, const struct ldr_frame *f);

#endif
