// SPDX-License-Identifier: GPL-2.0
/*
 * The MANIFEST of a raw directory: one line per item, fields separated by
 * single spaces (no field can hold a space: paths come from the
 * allow-list, scenario names from [a-z0-9_-], the identity is printed
 * last). lockdep-collect(1) documents the format.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "collect/sink.h"
#include "proto/allowlist.h"

#define MANIFEST_FORMAT	1

static void manifest_kmsg(FILE *fp, const struct kmsg_item *k)
{
	char buf[32];
	size_t i;

	fprintf(fp, "kmsg %s %" PRIu64, item_status_name(k->status),
		k->records);
	if (k->records)
		fprintf(fp, " %" PRIu64 " %" PRIu64, k->first, k->last);
	else
		fputs(" - -", fp);
	if (!k->ngaps)
		fputs(" -", fp);
	for (i = 0; i < k->ngaps; i++)
		fprintf(fp, "%c%" PRIu64 "-%" PRIu64, i ? ',' : ' ',
			k->gaps[i].from, k->gaps[i].to);
	if (k->status != ITEM_COMPLETE)
		fprintf(fp, " %s", item_err_name(k->err, buf, sizeof(buf)));
	fputc('\n', fp);
}

static void manifest_u64(FILE *fp, uint64_t v, bool known)
{
	if (known)
		fprintf(fp, " %" PRIu64, v);
	else
		fputs(" -", fp);
}

/* workload STATE NAME START END WAIT DURATION OUTPUT [REASON] */
static void manifest_workload(FILE *fp, const struct workload_item *w)
{
	static const char *const state[] = {
		[WORKLOAD_NOT_STARTED] = "not-started",
		[WORKLOAD_RUNNING] = "running",
		[WORKLOAD_EXITED] = "exited",
	};
	bool exited = w->state == WORKLOAD_EXITED;
	char buf[32];

	if (w->state == WORKLOAD_NONE)
		return;
	fprintf(fp, "workload %s %s", state[w->state], w->name);
	manifest_u64(fp, w->start_seq, w->start_seq != WORKLOAD_SEQ_UNKNOWN);
	manifest_u64(fp, w->end_seq, exited && w->end_seq != WORKLOAD_SEQ_UNKNOWN);
	manifest_u64(fp, (uint32_t)w->wait_status, exited);
	manifest_u64(fp, w->duration_ms, exited);
	/* a workload that did not end: its output so far, if asked */
	manifest_u64(fp, w->output_total, exited || w->output);
	if (w->state == WORKLOAD_NOT_STARTED)
		fprintf(fp, " %s", item_err_name(w->err, buf, sizeof(buf)));
	fputc('\n', fp);
}

int manifest_write(FILE *fp, const struct collect_summary *sum)
{
	const struct file_item *f;
	char buf[32];
	size_t i;

	fprintf(fp, "# lockdep-collect MANIFEST %d\n", MANIFEST_FORMAT);
	if (sum->identity[0])
		fprintf(fp, "agent %s\n", sum->identity);
	for (i = 0; i < sum->nfiles; i++) {
		f = &sum->files[i];
		/*
		 * The agent's own files, never asked for (a raw directory of
		 * tools before the sampler): nothing to say of them.
		 */
		if (i < proto_allowlist_len && proto_allowlist[i].by_agent &&
		    f->status == ITEM_MISSING && f->err == ENOTCONN)
			continue;
		fprintf(fp, "file %s %s %" PRIu64, item_status_name(f->status),
			f->path, f->bytes);
		if (f->status != ITEM_COMPLETE)
			fprintf(fp, " %s",
				item_err_name(f->err, buf, sizeof(buf)));
		fputc('\n', fp);
	}
	manifest_kmsg(fp, &sum->kmsg);
	if (sum->events.offered)
		fprintf(fp, "events %" PRIu64 "\n", sum->events.bytes);
	for (i = 0; i < sum->ntriggers; i++) {
		fprintf(fp, "trigger %s %s", sum->triggers[i].done ?
			"done" : "failed", sum->triggers[i].name);
		if (!sum->triggers[i].done)
			fprintf(fp, " %s", item_err_name(sum->triggers[i].err,
							 buf, sizeof(buf)));
		fputc('\n', fp);
	}
	manifest_workload(fp, &sum->workload);
	return ferror(fp) ? -EIO : 0;
}
