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
 *
 * The agent's series file (PROC_PARSE_STATS_SERIES: /run/lockdep/stats,
 * lockdep-agent(8)) is lockdep_stats read many times, each copy after a
 * header line of its own:
 *
 *    @ 3 12480 periodic 2000 1417 sample 3, read 12480 ms after boot,
 *                                 one of those taken every 2000 ms,
 *                                 after the agent had read the kernel
 *                                 log up to record 1417 (optional)
 *    @ 4 13007 snapshot 1432      sample 4, read at once after the
 *                                 kernel log record 1432 ("too low")
 *
 *  (4) In a series, each header goes to sample_fn before its records;
 *      a record before the first header, or a header with a kind other
 *      than periodic or snapshot, numbers that do not fit 64 bits or
 *      words missing or left over (a periodic header's fifth, the log
 *      record, is optional: older agents do not write it), is a
 *      malformed line. The numbers are
 *      as printed: a sample number that skips or goes back, a time that
 *      goes back, are the caller's to say (nothing about the series
 *      makes a line malformed but the line itself).
 *  (5) Outside a series, a '@' line is malformed as any other line that
 *      is not "label: number".
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

enum proc_stats_sample_kind {
	PROC_STATS_PERIODIC,	/* arg: the agent's interval in ms */
	PROC_STATS_SNAPSHOT,	/* arg: the kmsg sequence number that fired it */
};

struct proc_stats_sample {
	unsigned long long seq;		/* the agent's sample number */
	unsigned long long time_ms;	/* guest monotonic time of the read */
	enum proc_stats_sample_kind kind;
	unsigned long long arg;
	/* periodic: the last kernel log record read before it, if has_ */
	unsigned long long kmsg_seq;
	bool has_kmsg_seq;
	unsigned long line;
};

/* Or'ed into proc_stats_parse()'s flags: the input is a series. */
#define PROC_PARSE_STATS_SERIES	(1u << 8)

struct proc_stats_ops {
	int (*stat_fn)(const struct proc_lockdep_stat *s, void *ctx);
	int (*sample_fn)(const struct proc_stats_sample *h, void *ctx);
};

/* See proc-common.h for the convention. */
int proc_stats_parse(FILE *in, const char *input, unsigned int flags,
		     const struct proc_stats_ops *ops, void *ctx,
		     struct proc_parse_stats *st);

/* True if label[0..len) is a label some kernel's lockdep_stats prints. */
bool proc_lockdep_stat_known(const char *label, size_t len);

#endif
