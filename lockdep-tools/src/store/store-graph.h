/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Read-only queries of the store for the lock graph: the classes and the
 * dependencies of a set of boots, one SELECT per table (a graph of a
 * million edges is one pass over the dependencies table, not one query
 * per class). The records passed to the callbacks live until the
 * callback returns; copy what you keep.
 */
#ifndef STORE_STORE_GRAPH_H
#define STORE_STORE_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

struct store_graph_class {
	int64_t id, boot_id;
	const char *name;	/* as printed, with #version and /subclass */
	const char *key;	/* hashed key as printed, or NULL */
	const char *identity;	/* identity across boots, or NULL */
	unsigned int usage_bits;	/* LDR_USAGE_* of parse/report.h */
};

struct store_graph_dep {
	int64_t boot_id, from, to;	/* classes.id */
	int dep_bits;		/* -1 if unknown (NULL) */
	int distance;		/* -1 if unknown (NULL) */
	const char *trace;	/* its site (traces.site), or NULL */
};

/*
 * Call @fn for every class (or dependency) of the @nr boots in @boots.
 * A non-zero return of @fn stops the walk and is returned; else 0, or
 * -1 after an error was printed.
 */
int store_graph_classes(struct store *st, const int64_t *boots, size_t nr,
			int (*fn)(const struct store_graph_class *c, void *data),
			void *data);
/*
 * The classes and dependency rows that the @nr boots' dependency packs
 * say they hold, summed, from the packs' headers alone: a hint for
 * sizing a reader's arrays before the rows come. Only packs stamped
 * fresh (the ones store_graph_deps() reads without counting the rows)
 * count; a boot without one adds nothing. 0, or -1 after an error was
 * printed.
 */
int store_graph_sizes(struct store *st, const int64_t *boots, size_t nr,
		      uint64_t *classes, uint64_t *deps);
int store_graph_deps(struct store *st, const int64_t *boots, size_t nr,
		     int (*fn)(const struct store_graph_dep *d, void *data),
		     void *data);

/*
 * Call @fn with each of the @nr boots whose graph export is
 * missing (files.status; a kernel without our series does not offer
 * it): their graph is /proc/lockdep's alone, and with @no_lockdep,
 * /proc/lockdep is missing too (a kernel without lockdep): they have no
 * lock graph at all. A log has no files, and is not one of them.
 */
int store_graph_no_exports(struct store *st, const int64_t *boots, size_t nr,
			   int (*fn)(int64_t boot_id, bool no_lockdep,
				     void *data), void *data);

/*
 * The classes of the one boot @boot, as store_graph_classes() but with
 * only id, boot_id, name and usage_bits read (key and identity NULL):
 * for a graph of one boot, which merges no classes.
 */
int store_graph_boot_classes(struct store *st, int64_t boot,
			     int (*fn)(const struct store_graph_class *c,
				       void *data),
			     void *data);

/*
 * Call @fn with each (boot, identity) of the @nr boots that more than one
 * class of that boot has (the i_lock_key#2, #3 of two file systems).
 */
int store_graph_shared_identities(struct store *st, const int64_t *boots,
				  size_t nr,
				  int (*fn)(int64_t boot_id, const char *identity,
					    void *data),
				  void *data);

/*
 * The boot of report @report_id to *@boot_id and its label (NULL if none;
 * the caller frees) to *@label: 1, 0 if there is no such report, -1
 * after an error.
 */
int store_graph_report_boot(struct store *st, int64_t report_id,
			    int64_t *boot_id, char **label);

/*
 * Call @fn with each ordered pair of classes (classes.id) that lock
 * chains of the @nr boots hold in that order (/proc/lockdep_chains: the
 * earlier class held when the later one was taken) and the number of
 * chains that do.
 */
int store_graph_chain_pairs(struct store *st, const int64_t *boots, size_t nr,
			    int (*fn)(int64_t from, int64_t to, uint64_t chains,
				      void *data),
			    void *data);

/* ---- what the explorer (lockdep-graph -T html) shows beside the graph ---- */

struct store_graph_dep_info {
	int64_t boot_id;
	const char *from, *to;	/* the classes' names as printed */
	int64_t trace_id;	/* its stack (trace_frames), -1 if none */
	int64_t first_us;	/* when its first event came (the trace
				 * clock's boot time), -1 if unknown */
};

/*
 * Call @fn for every dependency of the @nr boots with its trace and the
 * time of its first event (as dependency_first_seen has it, for a boot
 * with an event stream; a database older than the stream has none).
 */
int store_graph_dep_infos(struct store *st, const int64_t *boots, size_t nr,
			  int (*fn)(const struct store_graph_dep_info *d,
				    void *data),
			  void *data);

struct store_graph_frame {
	int64_t boot_id, trace_id;
	const char *addr;
	const char *func, *file;	/* or NULL */
	int64_t off, size, line;	/* -1 if unknown */
};

/* Every frame of the boots' traces, by boot, trace and position. */
int store_graph_frames(struct store *st, const int64_t *boots, size_t nr,
		       int (*fn)(const struct store_graph_frame *f, void *data),
		       void *data);

struct store_graph_report_lock {
	int64_t report_id, boot_id;
	const char *type, *title;
	const char *name;	/* a lock of its chain, or NULL for none */
};

/*
 * Call @fn for each lock of the chain of every report of the boots (the
 * locks of report_locks but those only held), in the report's order; a
 * report with no such lock once, with name NULL.
 */
int store_graph_report_locks(struct store *st, const int64_t *boots,
			     size_t nr,
			     int (*fn)(const struct store_graph_report_lock *l,
				       void *data),
			     void *data);

#endif
