/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every parser of a lockdep /proc file (and of the boot self-test
 * table) shares: the calling convention, the counters it returns, and the
 * line reader behind it.
 *
 * The calling convention, the same for every format:
 *
 *   int <format>_parse(FILE *in, const char *input, unsigned int flags,
 *                      const struct <format>_ops *ops, void *ctx,
 *                      struct proc_parse_stats *st);
 *
 * Invariants:
 *  (1) One pass over the input, memory bounded by the longest line (and,
 *      for /proc/lockdep_chains, by the longest chain): a parser never
 *      holds more than one record.
 *  (2) Every record is handed to a callback of ops as soon as it is
 *      complete, in input order. Pointers in a record (strings, arrays)
 *      are valid only during the callback: copy what you keep.
 *  (3) Strings are bytes exactly as the kernel printed them (hostile
 *      names keep their quotes, control characters and length); each has
 *      a length, which is authoritative, and is also NUL-terminated at
 *      that length (a name with a NUL byte in it is cut by strlen()).
 *  (4) A malformed line is skipped and counted in st->bad; the first
 *      PROC_MAX_WARNINGS of each input are reported with warning() as
 *      "<input>:<line>: <what>", the rest are summed up in one line.
 *      Lines the format does not care about (banners, separators, blank
 *      lines) are not malformed.
 *  (5) A callback returning non-zero stops the parse; the parser returns
 *      that value. Otherwise the parser returns 0 when it read the input
 *      to its end (even with st->bad > 0: that is a partial result for
 *      the caller to report), or -1 after error() when reading failed.
 *  (6) A parser never exits and never crashes on any input; ops and
 *      each of its callbacks may be NULL (the records are then counted
 *      and dropped).
 */
#ifndef PARSE_PROC_COMMON_H
#define PARSE_PROC_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Warnings printed per input; the rest are only counted. */
#define PROC_MAX_WARNINGS	10

/* flags of every *_parse() */
enum proc_parse_flags {
	/* Print no warnings (st->bad still counts); for fuzzing and probes. */
	PROC_PARSE_QUIET	= 1 << 0,
	/*
	 * /proc/lockdep of a 2.6.18-2.6.29 kernel: a 4-character usage
	 * string is in the old order (see proc-lockdep.h). A 6.x file has
	 * 4 characters too, in the new order, and the two cannot be told
	 * apart from the file itself, so the caller who knows the kernel
	 * release says so.
	 */
	PROC_PARSE_LEGACY_USAGE	= 1 << 1,
	/*
	 * Lines may end in CRLF: a kernel log saved elsewhere (the self-test
	 * table). Never for /proc files, where a trailing CR is part of a
	 * class name and must be kept.
	 */
	PROC_PARSE_CRLF		= 1 << 2,
};

/* Notes a parser leaves about the input as a whole (st->notes). */
enum proc_parse_notes {
	/* The format's header line ("all lock classes:", ...) was seen. */
	PROC_NOTE_HEADER	= 1 << 0,
	/* The input ended inside a record (a cut read, a dying guest). */
	PROC_NOTE_TRUNCATED	= 1 << 1,
	/* lock_stat: "*WARNING* lock debugging disabled!! - ..." */
	PROC_NOTE_DEBUG_DISABLED = 1 << 2,
	/* lockdep_chains: "(buggered) all lock chains:" (no chain hlocks left) */
	PROC_NOTE_BUGGERED	= 1 << 3,
	/* self-test: "| Locking API testsuite disabled |" */
	PROC_NOTE_SELFTEST_DISABLED = 1 << 4,
};

struct proc_parse_stats {
	unsigned long lines;	/* physical lines read */
	unsigned long records;	/* records handed to callbacks */
	unsigned long bad;	/* malformed lines skipped */
	unsigned int notes;	/* enum proc_parse_notes */
	char version[16];	/* lock_stat: "0.4" from its header, or "" */
};

#endif
