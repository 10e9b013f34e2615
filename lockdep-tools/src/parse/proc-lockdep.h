/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parser of /proc/lockdep: every lock class and its direct forward
 * dependencies (kernel/locking/lockdep_proc.c, l_show()).
 *
 *   all lock classes:
 *   00000000b8b1a0d1 OPS:      12 FD:    3 BD:    1 +.+.: &type->s_umount_key#25
 *    -> [0000000097c2d6aa] &sb->s_type->i_lock_key#3
 *    -> [00000000dc4a8e4f] sb_lock
 *   <blank>
 *
 * The forms it reads:
 *  - 6.1: "%p" key (hashed since 4.15: 16 hex digits, the upper half
 *    zero on 64-bit), " OPS:%8ld" only with CONFIG_DEBUG_LOCKDEP,
 *    " FD:%5ld BD:%5ld <usage>" only with CONFIG_PROVE_LOCKING, ": ",
 *    the name with "#version" and "/subclass" suffixes, then the
 *    " -> [%p] name" lines of the dependencies at distance 1 and a blank
 *    line. Without PROVE_LOCKING a class is one line, no blank line.
 *  - 2.6.17 to 4.14: the same fields with raw pointers (8 or 16 hex
 *    digits), the OPS column, usage strings of 4 characters (2.6.18 to
 *    2.6.29, old order) or 6 characters (2.6.30 to 4.14, RECLAIM_FS);
 *    before 2.6.28 the "->" lines list every forward dependency, not
 *    only those at distance 1.
 *  - a "-{outer:inner}" wait-type suffix after the usage string, as
 *    reports print it, is accepted if a kernel ever prints it here.
 *  - "(____ptrval____)" in place of a key (early-boot %p) gives a record
 *    with has_key false.
 *
 * Usage strings are decoded like the kernel log parser does
 * (klog_decode_usage() in klog-shapes.h): 4 or 6 characters, pairs of
 * (write, read) per state, '-' used in the irq context, '+' taken with
 * it enabled, '?' both; with PROC_PARSE_LEGACY_USAGE a 4-character string
 * is read in the 2.6.18-2.6.29 order (hardirq, softirq, hardirq-read,
 * softirq-read; '+' used in, '-' enabled).
 *
 * Invariants (besides those of proc-common.h):
 *  (1) dep_fn is called only between the class_fn of its class and the
 *      next class_fn; its from argument is that class, unchanged.
 *  (2) name is never NULL and name_len > 0; class_len <= name_len is
 *      the length of the name without the "#version"/"/subclass"
 *      suffixes (version and subclass are 0 when not printed).
 *  (3) usage is NULL (usage_len 0, usage_bits 0) when not printed.
 *  (4) st->records counts classes and dependencies.
 *  (5) PROC_NOTE_TRUNCATED is set when the last class misses the blank
 *      line that ended the classes before it (a file cut in its last
 *      class; a cut in a file of one class is not seen).
 */
#ifndef PARSE_PROC_LOCKDEP_H
#define PARSE_PROC_LOCKDEP_H

#include "parse/proc-common.h"

struct proc_lockdep_class {
	unsigned long long key;	/* lock_class_key address, as printed */
	bool has_key;		/* false for "(____ptrval____)" */
	bool has_ops;		/* OPS: printed (CONFIG_DEBUG_LOCKDEP) */
	bool has_deps;		/* FD:/BD: printed (CONFIG_PROVE_LOCKING) */
	long ops;		/* OPS:, if has_ops */
	long fd, bd;		/* forward / backward dependency counts */
	const char *usage;	/* "+.+." without blanks, or NULL */
	size_t usage_len;
	unsigned int usage_bits;	/* LDR_USAGE_* of parse/report.h */
	int wait_outer, wait_inner;	/* -{outer:inner}, -1 if not printed */
	const char *name;	/* as printed: class[#version][/subclass] */
	size_t name_len;
	size_t class_len;	/* name_len without the suffixes */
	unsigned int version;	/* #N, 0 if none */
	unsigned int subclass;	/* /N, 0 if none */
	unsigned long line;	/* input line, 1-based */
};

/* One " -> [key] name" line: a direct dependency from -> to. */
struct proc_lockdep_dep {
	unsigned long long key;
	bool has_key;
	const char *name;	/* as printed, with suffixes */
	size_t name_len;
	size_t class_len;
	unsigned int version, subclass;
	unsigned long line;
};

struct proc_lockdep_ops {
	int (*class_fn)(const struct proc_lockdep_class *c, void *ctx);
	int (*dep_fn)(const struct proc_lockdep_class *from,
		      const struct proc_lockdep_dep *to, void *ctx);
};

/* See proc-common.h for the convention; flags: enum proc_parse_flags. */
int proc_lockdep_parse(FILE *in, const char *input, unsigned int flags,
		       const struct proc_lockdep_ops *ops, void *ctx,
		       struct proc_parse_stats *st);

#endif
