/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rows of a boot's graph export that fill lockdep's tables, read
 * back for lockdep-report --capacity (report/capacity.h counts them).
 * Only the export's classes (graph_idx set) are read: they are the
 * classes the kernel held when it wrote the export, the ones its
 * lock_classes[] entries are.
 *
 * Each reader calls @fn once per row; the row's strings live until @fn
 * returns. A non-zero return from @fn stops and is returned; -1 after an
 * SQLite error, printed.
 */
#ifndef STORE_STORE_CAPACITY_H
#define STORE_STORE_CAPACITY_H

#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

/* 1 if boot @boot has a graph export (*@complete: it ended), 0 if not, -1. */
int store_capacity_export(struct store *st, int64_t boot, bool *complete);

struct store_cap_class {
	int64_t id;		/* classes.id */
	const char *name;	/* as printed: "name#version/subclass" */
	const char *key_symbol;	/* "sym+0xoff", or NULL */
	const char *site;	/* where it was first used ("USED" trace), or NULL */
	/* the export's dependencies it is in: one list entry on each
	 * side's list (those of /proc/lockdep alone are not counted) */
	unsigned long long deps;
};
/* The export's classes of @boot, in export order. */
int store_capacity_classes(struct store *st, int64_t boot,
			   int (*fn)(const struct store_cap_class *c,
				     void *data),
			   void *data);

struct store_cap_chain_class {
	unsigned long long chain;	/* graph_chains.idx */
	unsigned int depth, pos;
	int64_t class_id;
};
/* Every chain's classes, by chain then position (held first). */
int store_capacity_chains(struct store *st, int64_t boot,
			  int (*fn)(const struct store_cap_chain_class *c,
				    void *data),
			  void *data);

struct store_cap_trace {
	unsigned long long id;
	unsigned int nr;	/* return addresses */
	const char *site;	/* or NULL */
	/* the class whose acquisition it records (the smallest id of those
	 * whose dependency or usage bit refers to it); 0: none refers */
	int64_t class_id;
	unsigned int refs;	/* dependencies and usage bits referring to it */
};
int store_capacity_traces(struct store *st, int64_t boot,
			  int (*fn)(const struct store_cap_trace *t,
				    void *data),
			  void *data);

/*
 * The agent's lockdep_stats series (schema 17, lockdep-db(5)): each line
 * of the boot's first and last periodic sample, when it has two or more
 * (the last before its snapshot, when it has one: lockdep counted
 * nothing after it).
 */
struct store_cap_growth {
	const char *name;	/* the lockdep_stats label */
	unsigned long long first, last;	/* its value in each */
	long long first_ms, last_ms;	/* the samples' guest times */
	unsigned int samples;	/* periodic samples in the series */
};
int store_capacity_growth(struct store *st, int64_t boot,
			  int (*fn)(const struct store_cap_growth *g,
				    void *data),
			  void *data);

/* Each line of the boot's first snapshot (taken at a "too low" report). */
struct store_cap_snapshot {
	long long time_ms;	/* guest time it was read at */
	int64_t report_id;	/* the report that fired it; 0: none */
	const char *title;	/* ... its title, or NULL */
	const char *name;	/* a lockdep_stats line of it */
	unsigned long long value, max;
	bool has_max;
};
int store_capacity_snapshot(struct store *st, int64_t boot,
			    int (*fn)(const struct store_cap_snapshot *s,
				      void *data),
			    void *data);

/*
 * Every line of every sample of the boot's series, in the series' order
 * (lockdep-db(5), stats_samples): for the projection of a boot whose
 * lockdep turned itself off (report/capacity.h).
 */
struct store_cap_sample {
	long long idx;		/* the sample's place in the series */
	long long time_ms;	/* guest time it was read at */
	bool snapshot;		/* taken at a "too low" report */
	/* periodic: the last kernel log record read before it, if has_ */
	long long kmsg_seq;
	bool has_kmsg_seq;
	const char *name;	/* a lockdep_stats line of it */
	unsigned long long value;
};
int store_capacity_samples(struct store *st, int64_t boot,
			   int (*fn)(const struct store_cap_sample *s,
				     void *data),
			   void *data);

/* The value of CONFIG_@name in the boot's /proc/config.gz (1), 0 if not there, -1. */
int store_capacity_config(struct store *st, int64_t boot, const char *name,
			  long long *value);

#endif
