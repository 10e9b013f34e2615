/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lockdep-collect's offline sources: each reads its input and pushes it
 * into a database sink (db-sink.h) as the agent source would, files
 * first, the kernel log last. Each returns 0, or -1 after printing an
 * error that names the input (and its line, for malformed input); the
 * sink's finish() then decides what is stored.
 */
#ifndef LDT_COLLECT_SOURCES_H
#define LDT_COLLECT_SOURCES_H

#include <stdbool.h>
#include <stdio.h>

#include "collect/sink.h"
#include "collect/summary.h"

/*
 * A raw directory written by lockdep-collect --raw-dir: MANIFEST says
 * what each file is (and fills @sum, triggers included: @sum must not
 * be initialised yet), files/<guest path> and kmsg hold the content.
 * *@trigger_names gets the trigger names @sum points to (NULL-terminated;
 * free each and the array after the sink's finish()).
 */
int source_rawdir(const char *dir, struct collect_summary *sum,
		  struct collect_sink *sink, char ***trigger_names);

/* A console log, dmesg output, syslog or journal; "-" is stdin. */
int source_log(const char *path, struct collect_sink *sink);

/*
 * A directory of saved /proc files: lockdep, lockdep_stats,
 * lockdep_chains, lock_stat (at least one of them; lock_stat absent
 * is not offered, like lockdep_graph below), and optionally
 * version, cmdline, config.gz (not recorded when absent) and
 * lockdep_graph, the graph export (the v2 series' /proc name, also that
 * of a saved copy of the debugfs file; when absent: not offered by the
 * kernel, see collect_summary_not_offered()); @sum must be initialised.
 */
int source_procdir(const char *dir, struct collect_summary *sum,
		   struct collect_sink *sink);

/*
 * This machine: /proc/lockdep* , /proc/version, /proc/cmdline,
 * /proc/config.gz, /sys/kernel/notes and the kernel log (/dev/kmsg),
 * read only. A kernel without lockdep gives a partial boot, not an error.
 */
int source_local(struct collect_summary *sum, struct collect_sink *sink);

/*
 * Open an input file for reading: its descriptor. Every input is
 * untrusted: a symbolic link could name any file of the user (cmdline ->
 * /etc/shadow) and a FIFO would block the run, so both are refused,
 * said, with *@refused set. Otherwise -1 with errno when it cannot be
 * opened.
 */
int source_open(const char *path, bool *refused);

/*
 * Push the file @disk_path as the collected item @it (its status, bytes
 * and err are set here): with status @as (and @err unless complete) if
 * it could be read whole, missing (with the errno) if it could not be
 * opened. Returns 0, 1 when it was missing, -1 when it was refused
 * (source_fopen()), on a read error or a sink failure.
 */
int source_push_file(struct collect_sink *sink, struct file_item *it,
		     const char *disk_path, enum item_status as, int err);

/*
 * The same for a file opened already, the descriptor @fd (closed here),
 * @disk_path naming it in messages. Returns 0, or -1 on a read error or
 * a sink failure.
 */
int source_push_fd(struct collect_sink *sink, struct file_item *it, int fd,
		   const char *disk_path, enum item_status as, int err);

#endif
