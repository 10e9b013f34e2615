/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parser of the locking API self-test table that lib/locking-selftest.c
 * prints at boot (CONFIG_DEBUG_LOCKING_API_SELFTESTS), read from a
 * console log or dmesg in any of the prefixed forms klog-line.h strips.
 *
 *   | Locking API testsuite:
 *   ----------------------------------------------------------------------------
 *                                    | spin |wlock |rlock |mutex | wsem | rsem |rtmutex
 *     --------------------------------------------------------------------------
 *                        A-A deadlock:  ok  |  ok  |  ok  |  ok  |  ok  |  ok  |  ok  |
 *                 recursive read-lock:             |  ok  |             |  ok  |
 *     | Wound/wait tests |
 *   ...
 *   Good, all 261 testcases passed! |
 *
 * A row is "%33s:" and then cells of 6 characters and a '|': "  ok  "
 * (passed), "failed" (failed as expected: a kernel without
 * PROVE_LOCKING), "FAILED" (unexpected failure), or blanks (no test in
 * that column; a blank run as wide as two cells counts as two). Each cell
 * is named by the column header line in force ("| spin |wlock |...",
 * "|block | try  |context|", "| rcu  | raw  | spin |mutex |"), if any.
 * Sections are the "| Name |" banners ("Locking API testsuite",
 * "Wound/wait tests", ...).
 *
 * Only lines inside the table (from "| Locking API testsuite:" to the
 * summary) are looked at; everything else in the log is ignored, so a
 * whole console log is a valid input. Inside the table, a line that is
 * not a row, header, banner or separator is other kernel output and is
 * ignored too, and so is a line with a byte outside printable ASCII and
 * tab (the kernel prints none in a row: such a line is other output, or
 * bytes glued on a log cut inside the table); a row with a cell that is
 * none of the above is malformed.
 *
 * The summary line is one of (2.6.18 to 6.1 alike):
 *   Good, all %3d testcases passed! |
 *   %3d out of %3d testcases failed, as expected. |
 *   All %3d testcases failed, as expected. |
 *   BUG: %3d unexpected failures (out of %3d) - debugging disabled! |
 * "| Locking API testsuite disabled |" sets PROC_NOTE_SELFTEST_DISABLED.
 *
 * Invariants (besides those of proc-common.h):
 *  (1) cells[i].column is the i-th column of the header in force; its
 *      column_name is NULL when there is no header or it has fewer
 *      columns. Blank cells are delivered (SELFTEST_NONE) so that
 *      columns keep their positions.
 *  (2) section is "" before the first banner.
 *  (3) A table not closed by a summary line sets PROC_NOTE_TRUNCATED.
 *  (4) st->records counts rows and summaries.
 */
#ifndef PARSE_SELFTEST_H
#define PARSE_SELFTEST_H

#include "parse/proc-common.h"

enum selftest_result {
	SELFTEST_NONE,		/* blank: no test in this column */
	SELFTEST_OK,		/* "  ok  " */
	SELFTEST_FAILED,	/* "failed": expected failure */
	SELFTEST_UNEXPECTED,	/* "FAILED": unexpected failure */
};

/* "none", "ok", "failed", "FAILED"; NULL if out of range. */
const char *selftest_result_name(enum selftest_result r);

struct selftest_cell {
	enum selftest_result result;
	unsigned int column;	/* 0-based */
	const char *column_name;	/* "spin", "rtmutex", ... or NULL */
};

struct selftest_row {
	const char *section;	/* "Wound/wait tests", or "" */
	const char *name;	/* "A-A deadlock", "hard-irqs-on + irq-safe-A/12" */
	size_t name_len;
	size_t nr_cells;
	const struct selftest_cell *cells;
	unsigned long line;
};

enum selftest_outcome {
	SELFTEST_ALL_PASSED,		/* "Good, all N testcases passed!" */
	SELFTEST_EXPECTED_FAILURES,	/* "N out of M testcases failed, as expected." */
	SELFTEST_ALL_FAILED_EXPECTED,	/* "All N testcases failed, as expected." */
	SELFTEST_UNEXPECTED_FAILURES,	/* "BUG: N unexpected failures (out of M)" */
};

struct selftest_summary {
	enum selftest_outcome outcome;
	unsigned int failures;	/* unexpected or expected, as printed; 0 if passed */
	unsigned int total;	/* as printed; for ALL_PASSED the passed count */
	unsigned long line;
};

struct selftest_ops {
	int (*row_fn)(const struct selftest_row *r, void *ctx);
	int (*summary_fn)(const struct selftest_summary *s, void *ctx);
};

/* See proc-common.h for the convention. */
int selftest_parse(FILE *in, const char *input, unsigned int flags,
		   const struct selftest_ops *ops, void *ctx,
		   struct proc_parse_stats *st);

#endif
