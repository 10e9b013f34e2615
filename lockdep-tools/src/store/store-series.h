/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lockdep_stats series of a boot (schema version 15, lockdep-db(5):
 * stats_samples, stats_sample_values): the agent's samples as the
 * series parser hands them over (parse/proc-stats.h), and the link of a
 * snapshot to the "too low" report that fired it.
 */
#ifndef STORE_STORE_SERIES_H
#define STORE_STORE_SERIES_H

#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

struct proc_stats_sample;
struct proc_lockdep_stat;

/*
 * One sample of the open boot, the @sample_idx'th of its series file:
 * its header, then each of its lines.
 */
int store_add_stats_sample(struct store *st, unsigned int sample_idx,
			   const struct proc_stats_sample *h);
int store_add_stats_sample_value(struct store *st, unsigned int sample_idx,
				 unsigned int idx,
				 const struct proc_lockdep_stat *s);

/*
 * After the reports and files of the open boot: each snapshot names the
 * report parsed from the kmsg record that fired it, and @graph_path
 * (a row of files, or NULL) as its copy of the graph export. To
 * *@unlinked the number of snapshots that found no report, to
 * *@unsnapped the "too low" reports no snapshot names.
 */
int store_link_stats_snapshots(struct store *st, const char *graph_path,
			       unsigned long *unlinked,
			       unsigned long *unsnapped);

/* A snapshot of a boot as lockdep-report shows it. */
struct store_stats_snapshot {
	long long idx, seq, time_ms, kmsg_seq;
	long long report_id;		/* 0: no report names it */
	char *graph_path;		/* NULL: no copy of the export */
	/* the tables at their max in it: "direct dependencies", ... */
	char *full;			/* NULL: none was */
};

/*
 * The snapshot linked to report @report_id to *@s: 1 (release it with
 * store_stats_snapshot_release()), 0 when none is, or -1 after an
 * error.
 */
int store_report_snapshot(struct store *st, int64_t report_id,
			  struct store_stats_snapshot *s);
void store_stats_snapshot_release(struct store_stats_snapshot *s);

#endif
