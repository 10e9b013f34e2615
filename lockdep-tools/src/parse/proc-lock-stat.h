/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parser of /proc/lock_stat (CONFIG_LOCK_STAT; kernel/locking/
 * lockdep_proc.c, seq_header() and seq_stats(); Documentation/locking/
 * lockstat.rst).
 *
 *   lock_stat version 0.4
 *   *WARNING* lock debugging disabled!! - possibly due to a lockdep warning
 *   ---------------------------------------------------------------- ...
 *                 class name    con-bounces    contentions   waittime-min ...
 *   ---------------------------------------------------------------- ...
 *
 *            &mm->mmap_lock-W:            10             12           0.35 ...
 *            &mm->mmap_lock-R:             2              3           0.20 ...
 *            --------------
 *            &mm->mmap_lock             12          [<000000003a4b2c1d>] do_user_addr_fault+0x1d0/0x6a0
 *            --------------
 *            &mm->mmap_lock              7          [<0000000012345678>] vm_mmap_pgoff+0x8c/0x160
 *
 *   ................................................................ ...
 *
 * The column header line names the columns; rows are read by those
 * names, so versions 0.2 (no bounces, no averages), 0.3 (no averages)
 * and 0.4 parse alike. Without a header line the 0.4 columns are
 * assumed. A column a version does not print reads as 0 (see the
 * has_* flags).
 *
 * Times are printed in microseconds with two decimals ("%lld.%02d"); they
 * are returned in nanoseconds (exact to the 10 ns printed).
 *
 * The first block of points after a class's rows is its contention
 * points (where a waiter was), the second its contending points (where
 * the holder was). The kernel prints the dashes line that starts a block
 * only when the block is not empty, so a class with contending points
 * and no contention points reads as contention points: the file does not
 * say otherwise.
 *
 * Invariants (besides those of proc-common.h):
 *  (1) name is the class name as printed, leading padding removed. The
 *      kernel cuts names to 37 bytes (fewer with #version/subclass, see
 *      seq_stats()), so it may not match /proc/lockdep's whole name.
 *  (2) class_seq numbers the classes from 0 in file order; the -W and -R
 *      rows of one class and its points share it.
 *  (3) Points follow the rows of their class; a point line with no class
 *      before it is malformed.
 *  (4) st->records counts rows and points; st->version is the header's.
 */
#ifndef PARSE_PROC_LOCK_STAT_H
#define PARSE_PROC_LOCK_STAT_H

#include "parse/proc-common.h"

/* Times in nanoseconds. */
struct proc_lock_time {
	unsigned long long min, max, total, avg;
};

struct proc_lock_stat_row {
	const char *name;
	size_t name_len;
	char rw;		/* 'W' for "-W:", 'R' for "-R:", 0 for ":" */
	unsigned long long con_bounces;	/* if has_bounces */
	unsigned long long contentions;
	struct proc_lock_time wait;	/* .avg if has_avg */
	unsigned long long acq_bounces;	/* if has_bounces */
	unsigned long long acquisitions;
	struct proc_lock_time hold;
	bool has_bounces;	/* version >= 0.3 */
	bool has_avg;		/* version >= 0.4 */
	unsigned long class_seq;
	unsigned long line;
};

enum proc_lock_point_kind {
	PROC_POINT_CONTENTION,	/* where a task waited for the lock */
	PROC_POINT_CONTENDING,	/* where the holder held it */
};

struct proc_lock_stat_point {
	enum proc_lock_point_kind kind;
	const char *name;	/* the class, as printed on the line */
	size_t name_len;
	unsigned long long count;
	unsigned long long addr;	/* "[<%p>]", if has_addr */
	bool has_addr;		/* false for "[<(____ptrval____)>]" */
	const char *symbol;	/* "do_user_addr_fault+0x1d0/0x6a0", or NULL */
	size_t symbol_len;
	unsigned long class_seq;
	unsigned long line;
};

struct proc_lock_stat_ops {
	int (*row_fn)(const struct proc_lock_stat_row *r, void *ctx);
	int (*point_fn)(const struct proc_lock_stat_point *p, void *ctx);
};

/* See proc-common.h for the convention. */
int proc_lock_stat_parse(FILE *in, const char *input, unsigned int flags,
			 const struct proc_lock_stat_ops *ops, void *ctx,
			 struct proc_parse_stats *st);

#endif
