/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SQLite store: every collected boot with its files, parsed reports
 * and lockdep state, in one database file (schema in lockdep-db(5)).
 *
 * Writers open a boot with store_boot_begin(), add to it, and end it
 * with store_boot_commit() or store_boot_abort(); nothing of a boot is
 * visible, and nothing of it survives a crash, before the commit.
 * Readers use the store_report_* and store_boot_* readers below.
 *
 * Every function returning int gives 0 or -1 after printing one error
 * line that names the database file; the store never exits.
 */
#ifndef STORE_STORE_H
#define STORE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse/report.h"

/* The schema version this build writes (PRAGMA user_version). */
int store_schema_version(void);

enum store_open_flags {
	STORE_READ_ONLY	= 1 << 0,	/* never create, migrate or write */
};

struct store;

/*
 * Open (creating it unless read-only) the database @path: foreign keys
 * on, WAL journal, a busy timeout, and the schema migrated forward to
 * store_schema_version(). A database newer than this build is refused.
 */
struct store *store_open(const char *path, unsigned int flags);
void store_close(struct store *st);
const char *store_path(const struct store *st);

/*
 * Migrate an open database to exactly @version (for tests of the
 * migrations; store_open() migrates to the latest). Refuses to go back.
 */
int store_migrate_to(struct store *st, int version);
/* The database's PRAGMA user_version, or -1 after an error. */
int store_user_version(struct store *st);

/* What a boot is, as far as its source tells (NULL: unknown). */
struct store_boot {
	const char *label;
	const char *source;	/* socket, raw-dir, log, proc-dir, local */
	const char *source_path;
};

/*
 * Start one boot: a write transaction holding a new boots row, whose id
 * goes to *@boot_id. Only one boot is open per store at a time.
 */
int store_boot_begin(struct store *st, const struct store_boot *b,
		     int64_t *boot_id);
/* Set one text column of the open boot (kernel_release, build_id, ...). */
int store_boot_set(struct store *st, const char *column, const char *value);
/* Commit the open boot, with its completeness ("complete", "partial"). */
int store_boot_commit(struct store *st, const char *completeness);
/* Roll the open boot back: the database is as before store_boot_begin(). */
void store_boot_abort(struct store *st);

/* One collected file of the open boot, as it arrived. */
int store_add_file(struct store *st, const char *path, const char *status,
		   uint64_t bytes, const char *reason, const void *content,
		   size_t len);
/* One parsed report of the open boot; its id to *@report_id if not NULL. */
int store_add_report(struct store *st, const struct ldr_report *r,
		     int64_t *report_id);

/*
 * The lockdep state of the open boot, straight from the parsers' records
 * (parse/proc-*.h, parse/selftest.h). Classes must come before the
 * dependencies and chains that name them; store_resolve_deps() then
 * turns the dependencies added so far into rows naming both classes.
 */
struct proc_lockdep_class;
struct proc_lockdep_dep;
struct proc_lockdep_chain;
struct proc_lockdep_stat;
struct proc_lock_stat_row;
struct proc_lock_stat_point;
struct selftest_row;
struct selftest_summary;

int store_add_class(struct store *st, const struct proc_lockdep_class *c);
int store_add_dep(struct store *st, const struct proc_lockdep_class *from,
		  const struct proc_lockdep_dep *to);
/* Dependencies whose target class was never added are dropped, counted. */
int store_resolve_deps(struct store *st, unsigned long *unresolved);
int store_add_chain(struct store *st, const struct proc_lockdep_chain *c);
int store_add_stat(struct store *st, const struct proc_lockdep_stat *s);
int store_add_lock_stat(struct store *st, const struct proc_lock_stat_row *r);
int store_add_lock_stat_point(struct store *st,
			      const struct proc_lock_stat_point *p);
int store_add_selftest_row(struct store *st, const struct selftest_row *r);

/*
 * The open boot's dependency event stream (parse/trace-events.h): each
 * event in stream order, then the stream's counts once at the end.
 */
struct trace_event;
struct trace_events_stats;
int store_add_dependency_event(struct store *st, const struct trace_event *ev);
int store_add_event_stream(struct store *st,
			   const struct trace_events_stats *stats);
int store_add_selftest_summary(struct store *st,
			       const struct selftest_summary *s);

/*
 * The workload a boot ran (lockdep-collect --run). Numbers that are not
 * known: exit_code -1, signal 0, has_*_seq false.
 */
enum store_workload_state {
	STORE_WORKLOAD_EXITED,
	STORE_WORKLOAD_RUNNING,		/* started; its end never arrived */
	STORE_WORKLOAD_NOT_STARTED,	/* error says why */
};

struct store_workload {
	const char *name;
	enum store_workload_state state;
	int exit_code, signal;
	long long duration_ms;
	bool has_start_seq, has_end_seq;
	long long start_seq, end_seq;
	const void *output;		/* the last output_len bytes */
	size_t output_len;
	long long output_bytes;		/* all it wrote */
	const char *error;
};

/* "exited", "running", "not started" */
const char *store_workload_state_name(enum store_workload_state st);
/* "exit status 0 after 1.2 s", "killed by signal 9 after ...", "running" */
void store_workload_status(const struct store_workload *w, char *buf,
			   size_t size);
/* The open boot's workload. */
int store_add_workload(struct store *st, const struct store_workload *w);

/* ---- readers ---- */

/*
 * Boot @boot_id's workload into *@w (release it): 1, 0 if the boot ran
 * none, -1 after an error.
 */
int store_workload_load(struct store *st, int64_t boot_id,
			struct store_workload *w);
void store_workload_release(struct store_workload *w);
/*
 * The workload of report @report_id's boot into *@w (release it), and
 * "before", "during" or "after" it into @phase ("" when the report
 * cannot be placed): 1, 0 if the boot ran none, -1 after an error.
 */
int store_report_workload(struct store *st, int64_t report_id,
			  struct store_workload *w, char *phase, size_t size);

/*
 * A C reproducer's run (table repro_runs): what ran and on what kernel.
 * The texts are bytes (a source, a fragment, the patches concatenated);
 * NULL fragment or patches: none.
 */
struct store_repro {
	const char *source_name;
	const void *source;
	size_t source_len;
	const char *fragment_name;
	const void *fragment;
	size_t fragment_len;
	const char *patch_names;	/* one per line, in order applied */
	const void *patches;
	size_t patches_len;
};
/*
 * The open boot's reproducer run, after its reports and workload: the
 * verdict is fixed here, from the first report that came while the
 * workload ran (report_workload_phase) and the workload's duration.
 */
int store_add_repro(struct store *st, const struct store_repro *r);

/* A stored run, as the readers see it. */
struct store_repro_row {
	int64_t boot_id;
	char *label;			/* the boot's, or NULL */
	char *source_name, *source_hash;
	char *fragment_name;		/* or NULL */
	char *patch_names;		/* or NULL */
	bool reproduced;
	int64_t report_id;		/* the first report during the run, or 0 */
	long long duration_ms;		/* -1: the run did not end */
};
void store_repro_row_release(struct store_repro_row *r);
/* Boot @boot_id's run into *@r (release it): 1, 0 if none, -1 after an error. */
int store_repro_load(struct store *st, int64_t boot_id, struct store_repro_row *r);
typedef int (*store_repro_fn)(const struct store_repro_row *r, void *data);
/*
 * Every run of the source whose hash is @hash, by boot id; a non-zero
 * return from @fn stops and is returned (-1 after an error).
 */
int store_repro_foreach(struct store *st, const char *hash, store_repro_fn fn,
			void *data);

struct store_boot_row {
	int64_t id;
	char *label, *collected_at, *source, *kernel_release, *completeness;
	long long reports;
};
void store_boot_row_release(struct store_boot_row *b);

typedef int (*store_boot_fn)(const struct store_boot_row *b, void *data);
/* Every boot, oldest first; a non-zero return from @fn stops and is returned. */
int store_boot_foreach(struct store *st, store_boot_fn fn, void *data);
/* The newest boot's id, 0 if there is none, -1 after an error. */
int64_t store_boot_latest(struct store *st);

/*
 * Call @fn with each report of boot @boot_id (every boot if 0), rebuilt
 * as a struct ldr_report the printers take (r->id is the database id),
 * in id order. @fn owns the report. Returns 0 or -1.
 */
int store_report_foreach(struct store *st, int64_t boot_id,
			 void (*fn)(struct ldr_report *r, void *data),
			 void *data);
/*
 * Report @id, rebuilt; NULL with *@found false if there is none, NULL
 * with *@found true after saying why it cannot be read (a damaged row).
 */
struct ldr_report *store_report_load(struct store *st, int64_t id,
				     bool *found);

#endif
