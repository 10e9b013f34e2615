/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The database sink: parses what a source pushes and stores it as one
 * boot of a lockdep database (src/store/, lockdep-db(5)).
 *
 * Files go to the files table as they arrived, and complete ones to their
 * parser: /proc/lockdep, lockdep_stats, lockdep_chains and lock_stat to
 * the /proc parsers, /proc/version and /proc/cmdline to the boot row,
 * /proc/config.gz decompressed to boots.config, /sys/kernel/notes to the
 * build id, each /sys/module/NAME/sections/SECTION (one address) and
 * /sys/module/NAME/notes/.note.gnu.build-id to the symboliser, which then
 * knows where the module's code was and which .ko is of its build. Kernel log records (or lines of a plain log) go to the kernel
 * log parser; each report is symbolised if a vmlinux was given or found
 * by the kernel's build id (debug_dir), then stored; the self-test table is read from the same log at the end.
 *
 * Invariants:
 *  (1) The boot is one transaction (store.h): it is committed by
 *      finish() only when nothing failed; every failure (a malformed
 *      line of any input, a store error) makes the ops return -EINVAL or
 *      -EIO and finish() roll the boot back. The database then holds
 *      exactly what it held before.
 *  (2) Every input error names the input and its line (the parsers'
 *      "<input>:<line>:" messages).
 */
#ifndef LDT_COLLECT_DB_SINK_H
#define LDT_COLLECT_DB_SINK_H

#include <stdbool.h>
#include <stdint.h>

#include "collect/sink.h"

struct db_sink_opts {
	const char *db_path;
	const char *label;		/* or NULL */
	const char *source;		/* boots.source */
	const char *source_path;	/* boots.source_path, or NULL */
	const char *kmsg_input;		/* name of the kmsg stream in messages */
	/* and of the dependency events (NULL: the source has none) */
	const char *events_input;
	const char *vmlinux;		/* symbolise reports against it, or NULL */
	const char *modules_dir;	/* and modules from there, or NULL */
	/*
	 * With no vmlinux: the debug directory where the kernel's vmlinux is
	 * looked for by its build id (symbolise/debuginfo.h) once
	 * /sys/kernel/notes arrives, or NULL. Reports wait for that lookup,
	 * then are stored in order; the file used is said on stderr.
	 */
	const char *debug_dir;
	/* their symbol index cache: symbolise_cache_dir(cache_dir), or none */
	const char *cache_dir;
	bool no_cache;
	/*
	 * How complete the boot is: from the collect_summary passed to
	 * finish() (agent and raw directory), or as the source said with
	 * db_sink_set_partial().
	 */
	bool completeness_from_summary;
	/* the C reproducer the workload ran (--repro-source), or NULL */
	const struct store_repro *repro;
};

/* Opens the database and begins the boot; NULL after printing why. */
struct collect_sink *db_sink_new(const struct db_sink_opts *o);

/* The name the next file_begin()'s content is called in messages. */
void db_sink_name_next(struct collect_sink *s, const char *input);

/* One line of a kmsg file (kmsg.h), or of a plain kernel log. */
int db_sink_kmsg_line(struct collect_sink *s, const char *line, size_t len);
int db_sink_log_line(struct collect_sink *s, const char *line, size_t len);

/* For sources without a summary: the boot is partial, and why. */
void db_sink_set_partial(struct collect_sink *s, const char *why);
bool db_sink_partial(const struct collect_sink *s);
/* Why it is partial (boots.partial_reason), or NULL. */
const char *db_sink_partial_reason(const struct collect_sink *s);

/*
 * The guest's console log (console.h), after the agent: its lines
 * timed after the last kernel log record that arrived go to the kernel
 * log parser (a report printed on the way to a panic). 0 or -1.
 */
int db_sink_console(struct collect_sink *s, const char *path);

/* The source failed: finish() rolls the boot back. */
void db_sink_abort(struct collect_sink *s);

/* The boot's id (valid from db_sink_new() on; committed by finish()). */
int64_t db_sink_boot_id(const struct collect_sink *s);

/* Reports stored so far, and how many of them were truncated. */
void db_sink_counts(const struct collect_sink *s, unsigned long *reports,
		    unsigned long *truncated);

/* The boot is committed; true only after a successful finish(). */
bool db_sink_committed(const struct collect_sink *s);

/*
 * The tee sink: every call to @a, then to @b (both are freed with it).
 * Used to save raw and to the database from one run.
 */
struct collect_sink *tee_sink_new(struct collect_sink *a,
				  struct collect_sink *b);

#endif
