/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parser of /proc/lockdep_stats (kernel/locking/lockdep_proc.c,
 * lockdep_stats_show()): one counter a line,
 *
 *    lock-classes:                             1534 [max: 8192]
 *    indirect dependencies:                   32178
 *
 * Every line of that shape is a record, known label or not: a newer or
 * older kernel's counters are kept as generic label/value pairs, never
 * lost. known says whether the label is one of the kernel's own, 2.6.17
 * to 6.1 and our series' (proc_lockdep_stat_known() lists them); it never changes how a
 * line is parsed. Blank lines separate groups and are skipped.
 *
 * Invariants (besides those of proc-common.h):
 *  (1) label is the text before the colon without the surrounding
 *      blanks, never empty.
 *  (2) value and max are the decimal numbers printed (unsigned; a value
 *      that does not fit 64 bits makes the line malformed); max is 0
 *      unless has_max.
 *  (3) Each record is one line, st->records counts them.
 */
#ifndef PARSE_PROC_STATS_H
#define PARSE_PROC_STATS_H

#include "parse/proc-common.h"

struct proc_lockdep_stat {
	const char *label;	/* "lock-classes", "debug_locks", ... */
	size_t label_len;
	unsigned long long value;
	unsigned long long max;	/* "[max: N]", if has_max */
	bool has_max;
	bool known;		/* a label some kernel prints */
	unsigned long line;
};

struct proc_stats_ops {
	int (*stat_fn)(const struct proc_lockdep_stat *s, void *ctx);
};

/* See proc-common.h for the convention. */
int proc_stats_parse(FILE *in, const char *input, unsigned int flags,
		     const struct proc_stats_ops *ops, void *ctx,
		     struct proc_parse_stats *st);

/* True if label[0..len) is a label some kernel's lockdep_stats prints. */
bool proc_lockdep_stat_known(const char *label, size_t len);

#endif
