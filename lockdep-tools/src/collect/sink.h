/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where collected data goes. A source (today the agent transport) pushes
 * files and kernel log records through these calls without knowing what
 * the sink does with them: the raw sink saves them as they came; a later
 * database sink parses them. Every call returns 0 or -errno, and a sink
 * prints its own error (naming the file it could not write) first.
 *
 * Call order: (file_begin file_data* file_end | kmsg_record | events_data)*
 * finish.
 */
#ifndef LDT_COLLECT_SINK_H
#define LDT_COLLECT_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "collect/summary.h"

struct collect_sink;

struct collect_sink_ops {
	int (*file_begin)(struct collect_sink *s, const struct file_item *it);
	int (*file_data)(struct collect_sink *s, const void *buf, size_t len);
	/* @it->status says whether to keep the file (and as what) */
	int (*file_end)(struct collect_sink *s, const struct file_item *it);
	/* one raw /dev/kmsg record, sequence number already checked */
	int (*kmsg_record)(struct collect_sink *s, const uint8_t *rec,
			   size_t len);
	/* lockdep dependency event lines, as trace_pipe printed them */
	int (*events_data)(struct collect_sink *s, const void *buf,
			   size_t len);
	int (*finish)(struct collect_sink *s, const struct collect_summary *sum);
	void (*free)(struct collect_sink *s);
};

struct collect_sink {
	const struct collect_sink_ops *ops;
};

/*
 * The raw directory sink: @dir/files/<guest path>, @dir/kmsg, @dir/events
 * (when the events were offered) and @dir/MANIFEST (format in
 * lockdep-collect(1)). NULL after printing why.
 */
struct collect_sink *raw_sink_new(const char *dir);

/* Write @sum as MANIFEST text to @fp. Returns 0 or -EIO. */
int manifest_write(FILE *fp, const struct collect_summary *sum);

#endif
