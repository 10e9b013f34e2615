/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing the graph export (parse/proc-graph.h) into the open boot of
 * a store: schema version 4 of lockdep-db(5).
 *
 * Invariants:
 *  (1) The records go in the export's order: store_export_begin() with
 *      the header, then classes (each followed by its usage records),
 *      dependencies, chains, traces, and store_export_end(). Everything
 *      lands in the boot's transaction (store.h): a failure anywhere
 *      rolls the whole boot back with the rest.
 *  (2) A class of the export is joined to the boot's /proc/lockdep class
 *      of the same printed name (name, "#version" when the version is
 *      above 1, "/subclass" unless 0: what /proc/lockdep prints), the
 *      first one not joined yet; that row is enriched. A class with no
 *      such row gets a row of its own. Classes must therefore be stored
 *      after /proc/lockdep.
 *  (3) A dependency updates the row /proc/lockdep gave for the same pair
 *      of classes (dep_bits, distance, trace_id), or adds one.
 *  (4) Only the graph export's own class indices are resolved here: a
 *      record naming an index no class record gave is an error.
 */
#ifndef STORE_STORE_EXPORT_H
#define STORE_STORE_EXPORT_H

#include <stdbool.h>

#include "parse/proc-graph.h"
#include "parse/report.h"
#include "store/store.h"

/* What the caller learnt about the export, beyond its header. */
struct store_export_info {
	/* the export's build id against /sys/kernel/notes: "equal", "different", "unknown" */
	const char *build_id_checked;
	/* link-time _stext of vmlinux (--vmlinux), if has_stext_link */
	unsigned long long stext_link;
	bool has_stext_link;
};

/* What the caller learnt about one class: its key in vmlinux. */
struct store_export_key {
	const char *symbol;	/* "ext4_fs_type+0x38", or NULL */
	unsigned long long link;	/* link-time key address, if has_link */
	bool has_link;
};

struct store_export;

/* Begin writing the export of the open boot; NULL after an error. */
struct store_export *store_export_begin(struct store *st,
					const struct proc_graph_header *h,
					const struct store_export_info *info);
int store_export_class(struct store_export *x,
		       const struct proc_graph_class *c,
		       const struct store_export_key *key);
int store_export_usage(struct store_export *x,
		       const struct proc_graph_usage *u);
/*
 * Returns 0, -1 after an error, or 1 when the export listed the same
 * dependency before (nothing changed: the caller names the line).
 */
int store_export_dep(struct store_export *x, const struct proc_graph_dep *d);
int store_export_chain(struct store_export *x,
		       const struct proc_graph_chain *c);
/*
 * A trace, its frames (t->nr of them, each with addr set and, when
 * symbolised, func/off/size/file/line; or NULL) and its site (the text
 * the tools print for "at:"; or NULL). Returns 0, -1 after an error, or
 * 1 when the export listed a trace of that id before (nothing added).
 */
int store_export_trace(struct store_export *x,
		       const struct proc_graph_trace *t,
		       const struct ldr_frame *frames, const char *site);
/* Record whether the export ended with its "end" record; frees @x. */
int store_export_end(struct store_export *x, bool complete);
/* Free @x without finishing (the boot is being rolled back). */
void store_export_free(struct store_export *x);

#endif
