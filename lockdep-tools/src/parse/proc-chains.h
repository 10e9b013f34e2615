/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parser of /proc/lockdep_chains (kernel/locking/lockdep_proc.c,
 * lc_show()): every cached lock chain, the classes held in the order they
 * were taken.
 *
 *   all lock chains:
 *   irq_context: 0
 *   [00000000e4e1b6a8] &rq->__lock
 *   [000000004dcd6a4e] &p->pi_lock
 *   <blank>
 *
 * irq_context is "0", "hardirq", "softirq" or "hardirq|softirq"; 2.6.x
 * kernels printed the number (0..3), which is accepted too. The header
 * is "(buggered) all lock chains:" when the kernel ran out of chain
 * hlocks (PROC_NOTE_BUGGERED). A chain ends at a blank line, at the next
 * "irq_context:" line or at the end of input (then PROC_NOTE_TRUNCATED,
 * and the chain is still delivered).
 *
 * Invariants (besides those of proc-common.h):
 *  (1) classes[0..nr_classes) are in the order printed (outermost lock
 *      first); nr_classes may be 0 (the kernel skips classes freed
 *      since, whose key is NULL).
 *  (2) A malformed class line is skipped (st->bad); the chain keeps the
 *      others. A class line outside a chain is malformed.
 *  (3) st->records counts chains.
 */
#ifndef PARSE_PROC_CHAINS_H
#define PARSE_PROC_CHAINS_H

#include "parse/proc-common.h"

/* irq_context bits, the kernel's LOCK_CHAIN_*_CONTEXT */
enum proc_chain_irq {
	PROC_CHAIN_HARDIRQ	= 1 << 0,
	PROC_CHAIN_SOFTIRQ	= 1 << 1,
};

struct proc_chain_class {
	unsigned long long key;
	bool has_key;		/* false for "(____ptrval____)" */
	const char *name;	/* as printed, with #version/subclass */
	size_t name_len;
	unsigned long line;
};

struct proc_lockdep_chain {
	unsigned int irq_context;	/* enum proc_chain_irq bits */
	const char *irq_text;		/* as printed: "hardirq|softirq" */
	size_t nr_classes;
	const struct proc_chain_class *classes;
	unsigned long line;		/* of the "irq_context:" line */
};

struct proc_chains_ops {
	int (*chain_fn)(const struct proc_lockdep_chain *c, void *ctx);
};

/* See proc-common.h for the convention. */
int proc_chains_parse(FILE *in, const char *input, unsigned int flags,
		      const struct proc_chains_ops *ops, void *ctx,
		      struct proc_parse_stats *st);

#endif
