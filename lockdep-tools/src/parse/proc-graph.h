/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parser of the graph export of our kernel series, debugfs'
 * lockdep/graph (/proc/lockdep_graph in its v2; the format is specified
 * in the section "Exporting the dependency graph" the series adds to
 * Documentation/locking/lockdep-design.rst, with no ABI promise: it
 * follows lockdep's internals, hence the version check). Version 1:
 *
 *   lockdep_graph 1
 *   release 6.1.0
 *   build_id 0123...                  (the vmlinux build id note, in hex at
 *                                     its length: 40 digits for SHA-1; "-": none)
 *   addresses raw                     (or "hidden": every address is 0)
 *   stext 0xffffffff81000000
 *   usage_bit 0 USED_IN_HARDIRQ       (one per bit, in bit order)
 *   dep_bit 0 SR                      (one per bit, in bit order)
 *   counts <classes> <deps> <chains> <traces>
 *   class <idx> <key> <name_version> <subclass> <usage_mask> <wait_inner> <wait_outer> <name>
 *   usage <idx> <bit> <trace id>      (after its class, one per usage bit)
 *   dep <from idx> <to idx> <dep mask> <distance> <trace id>
 *   chain <chain idx> <irq context> <depth> <class idx>...
 *   trace <id> <nr> <return address>...
 *   end
 *
 * A trace id is "-" when lockdep stored none. Names are the last field
 * and run to the end of the line; "\ooo" (three octal digits) is the
 * byte ooo, which is how the kernel writes spaces, backslashes and
 * non-printable bytes. The records are delivered decoded.
 *
 * Invariants (besides those of proc-common.h):
 *  (1) The first line must be "lockdep_graph 1": any other first line,
 *      or another version, rejects the input (the format's own rule): the
 *      parser returns -1 after error() (not printed with
 *      PROC_PARSE_QUIET) and delivers nothing. An empty input is not
 *      rejected: it is a truncated one (2).
 *  (2) header_fn is called once, at the "counts" line, when every header
 *      record was read in order; PROC_NOTE_HEADER is then set. A header
 *      record out of order, twice, or a body record before the header
 *      is complete, is malformed (skipped, counted in st->bad).
 *  (3) PROC_NOTE_TRUNCATED is set unless the input ends with the "end"
 *      record (a cut read, a dying guest). Anything after "end" is
 *      malformed, and so is an "end" whose counts disagree with the
 *      records read before it.
 *  (4) usage_fn is called only between the class_fn of its class and
 *      the next record that is not a usage record; a usage record whose
 *      idx is not that class's is malformed.
 *  (5) Class indices are < PROC_GRAPH_MAX_CLASSES; dep, chain and usage
 *      records naming a class index no class record gave before are
 *      malformed (a one-pass check: classes come first in the format).
 *      Trace ids are not checked (traces come last): callers resolve
 *      them.
 *  (6) name is never NULL, name_len > 0, and the name holds the decoded
 *      bytes (a "\000" makes a NUL inside it, so use name_len).
 *  (7) st->records counts class, usage, dep, chain and trace records.
 */
#ifndef PARSE_PROC_GRAPH_H
#define PARSE_PROC_GRAPH_H

#include "parse/proc-common.h"

/* The format versions this parser reads. */
#define PROC_GRAPH_VERSION	1
/* lock_classes[] indices are u16 in the kernel's copy of the graph. */
#define PROC_GRAPH_MAX_CLASSES	65536
/* usage_mask is an unsigned long; dep masks are a u8. */
#define PROC_GRAPH_MAX_USAGE_BITS	64
#define PROC_GRAPH_MAX_DEP_BITS		8

struct proc_graph_header {
	unsigned int version;
	const char *release;	/* "6.1.0", as uname -r */
	const char *build_id;	/* hex digits as printed, lower-case */
	bool addresses_hidden;	/* "addresses hidden": every address is 0 */
	unsigned long long stext;	/* runtime address of _stext */
	/* the bit names, in bit order: "USED_IN_HARDIRQ", ...; "SR", ... */
	unsigned int nr_usage_bits, nr_dep_bits;
	const char *usage_bits[PROC_GRAPH_MAX_USAGE_BITS];
	const char *dep_bits[PROC_GRAPH_MAX_DEP_BITS];
	/* what the counts record announces */
	unsigned long long nr_classes, nr_deps, nr_chains, nr_traces;
	unsigned long line;	/* of the counts record */
};

/* A trace id: has false for "-" (no trace stored). */
struct proc_graph_trace_ref {
	unsigned long long id;
	bool has;
};

struct proc_graph_class {
	unsigned int idx;
	unsigned long long key;	/* lock_class_key address (+ subclass) */
	long name_version;
	unsigned int subclass;
	unsigned long long usage_mask;	/* bits named by the header */
	const char *wait_inner, *wait_outer;	/* "inv", "free", "spin", ... */
	const char *name;	/* decoded, without #version or /subclass */
	size_t name_len;
	unsigned long line;
};

struct proc_graph_usage {
	unsigned int class_idx;
	unsigned int bit;	/* < PROC_GRAPH_MAX_USAGE_BITS */
	struct proc_graph_trace_ref trace;
	unsigned long line;
};

struct proc_graph_dep {
	unsigned int from, to;	/* class indices: from held, to taken */
	unsigned int dep_mask;	/* bits named by the header (SR, ER, SN, EN) */
	unsigned long distance;
	struct proc_graph_trace_ref trace;
	unsigned long line;
};

struct proc_graph_chain {
	unsigned long long idx;	/* in lock_chains[] */
	unsigned int irq_context;	/* 1 softirq, 2 hardirq */
	size_t depth;
	const unsigned int *classes;	/* depth indices, outermost first */
	unsigned long line;
};

struct proc_graph_trace {
	unsigned long long id;
	size_t nr;
	const unsigned long long *addrs;	/* nr return addresses, innermost first */
	unsigned long line;
};

struct proc_graph_ops {
	int (*header_fn)(const struct proc_graph_header *h, void *ctx);
	int (*class_fn)(const struct proc_graph_class *c, void *ctx);
	int (*usage_fn)(const struct proc_graph_usage *u, void *ctx);
	int (*dep_fn)(const struct proc_graph_dep *d, void *ctx);
	int (*chain_fn)(const struct proc_graph_chain *c, void *ctx);
	int (*trace_fn)(const struct proc_graph_trace *t, void *ctx);
};

/* See proc-common.h for the convention, and (1) above for -1. */
int proc_graph_parse(FILE *in, const char *input, unsigned int flags,
		     const struct proc_graph_ops *ops, void *ctx,
		     struct proc_parse_stats *st);

#endif
