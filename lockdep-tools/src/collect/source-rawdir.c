// SPDX-License-Identifier: GPL-2.0
/*
 * The raw directory source: what lockdep-collect --raw-dir saved, read
 * back through its MANIFEST (format in lockdep-collect(1)) so that the
 * boot stored is the one that was collected, statuses included.
 *
 * The MANIFEST is checked line by line; a line that is not one of its
 * forms, a file it calls complete that is not there, or a file that is
 * not on the allow-list is an error naming the MANIFEST and the line.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/db-sink.h"
#include "collect/sources.h"
#include "collect/transport.h"
#include "proto/allowlist.h"
#include "proto/message.h"
#include "util/cli.h"
#include "util/error.h"
#include "util/line-reader.h"
#include "util/open-beneath.h"
#include "util/xalloc.h"

struct manifest {
	const char *path;	/* of the MANIFEST, for messages */
	const char *dir;	/* the raw directory, for messages */
	int dirfd;		/* what every file is opened beneath */
	char **lines;
	size_t nr;
};

/*
 * A file of the raw directory, @rel beneath it: its descriptor, or -1
 * after saying why (@enoent: a hint; NULL: ENOENT is the caller's to say). The directory
 * is written by lockdep-collect alone: a symbolic link anywhere beneath
 * it, or anything but a regular file, was planted, and is refused
 * (open_file_strict()).
 */
static int rawdir_open_fd(const struct manifest *m, const char *rel,
			  const char *enoent)
{
	struct beneath_refusal r;
	int fd = open_file_strict(m->dirfd, rel, &r);

	if (fd < 0 && r.why) {
		error("'%s/%.*s' %s: refused", m->dir, (int)r.len, rel, r.why);
		errno = EPERM;
		return -1;
	}
	if (fd < 0 && errno == ENOENT && !enoent)
		return -1;	/* the caller says it */
	if (fd < 0)
		error("unable to open '%s/%s': %s%s", m->dir, rel,
		      strerror(errno), errno == ENOENT ? enoent : "");
	return fd;
}

/* The same as a stream, for the files read by line. */
static FILE *rawdir_open(const struct manifest *m, const char *rel,
			 const char *enoent)
{
	FILE *fp;
	int fd = rawdir_open_fd(m, rel, enoent);

	if (fd < 0)
		return NULL;
	fp = fdopen(fd, "rb");
	if (!fp) {
		error("unable to read '%s/%s': %s", m->dir, rel, strerror(errno));
		close(fd);
	}
	return fp;
}

static int read_lines(const char *path, struct manifest *m)
{
	FILE *fp = rawdir_open(m, "MANIFEST", " (not a raw directory, or its collection did not finish)");
	struct line_reader lr;
	size_t alloc = 0;
	int ret;

	if (!fp)
		return -1;
	line_reader_init(&lr, fp, path);
	while ((ret = line_reader_next(&lr)) > 0) {
		ALLOC_GROW(m->lines, m->nr + 1, alloc);
		m->lines[m->nr++] = xstrdup(lr.line);
	}
	line_reader_release(&lr);
	fclose(fp);
	return ret;
}

static void release_lines(struct manifest *m)
{
	size_t i;

	for (i = 0; i < m->nr; i++)
		free(m->lines[i]);
	free(m->lines);
}

static int bad_line(const struct manifest *m, size_t i, const char *what)
{
	return error("%s:%zu: %s", m->path, i + 1, what);
}

/* A MANIFEST number: decimal digits alone that fit 64 bits (util/cli.h). */
static int parse_u64(const char *s, size_t len, uint64_t *v)
{
	unsigned long long n;

	if (parse_decimal(s, len, UINT64_MAX, &n))
		return -1;
	*v = n;
	return 0;
}

static int parse_u64_str(const char *s, uint64_t *v)
{
	return parse_u64(s, strlen(s), v);
}

/*
 * "ENOENT", "unlisted", "errno-5" back to the err of a file_item in
 * *@err: 0, or -1 for an unknown reason (ITEM_UNLISTED is -1 too).
 */
static int reason_err(const char *name, int *err)
{
	const char *e;
	int i;

	if (!strcmp(name, "unlisted")) {
		*err = ITEM_UNLISTED;
		return 0;
	}
	if (!strncmp(name, "errno-", 6)) {
		uint64_t v;

		/* item_err_name()'s form of an errno without a name */
		if (parse_u64_str(name + 6, &v) || !v || v > INT_MAX)
			return -1;
		*err = (int)v;
		return 0;
	}
	for (i = 1; i < 4096; i++) {
		e = strerrorname_np(i);
		if (e && !strcmp(e, name)) {
			*err = i;
			return 0;
		}
	}
	return -1;
}

static int parse_status(const char *s, enum item_status *st)
{
	if (!strcmp(s, "complete"))
		*st = ITEM_COMPLETE;
	else if (!strcmp(s, "incomplete"))
		*st = ITEM_INCOMPLETE;
	else if (!strcmp(s, "missing"))
		*st = ITEM_MISSING;
	else
		return -1;
	return 0;
}

/*
 * Split a copy of @line into at most @max space-separated fields; *@n is
 * their number, max + 1 if there are more. Returns the copy, which @f
 * points into (free it). A line is as long as the list of kmsg gaps
 * makes it: no fixed buffer.
 */
static char *split(const char *line, char **f, size_t max, size_t *n)
{
	char *copy = xstrdup(line), *save = NULL, *tok;

	*n = 0;
	for (tok = strtok_r(copy, " ", &save); tok && *n < max;
	     tok = strtok_r(NULL, " ", &save))
		f[(*n)++] = tok;
	if (tok)
		*n = max + 1;
	return copy;
}

/*
 * The line before @i that also describes the file @path (1-based), or 0:
 * a path listed twice must be named as such, not surface as the store's
 * "UNIQUE constraint failed".
 */
static size_t listed_before(const struct manifest *m, size_t i,
			    const char *path)
{
	size_t j, len = strlen(path);
	const char *p;

	for (j = 0; j < i; j++) {
		if (strncmp(m->lines[j], "file ", 5))
			continue;
		p = strchr(m->lines[j] + 5, ' ');	/* after STATUS */
		if (p && !strncmp(p + 1, path, len) &&
		    (p[1 + len] == ' ' || !p[1 + len]))
			return j + 1;
	}
	return 0;
}

static int file_fields(const struct manifest *m, size_t i,
		       struct collect_summary *sum, struct collect_sink *sink,
		       char **f, size_t n)
{
	char rel[8192], disk[8400];
	const char *other;
	enum item_status st;
	struct file_item *it = NULL;
	uint64_t bytes;
	size_t k;
	int fd, err = 0;

	if (n < 4 || n > 5 || parse_status(f[1], &st) ||
	    (st == ITEM_COMPLETE) != (n == 4))
		return bad_line(m, i, "expected 'file STATUS PATH BYTES [REASON]'");
	if (parse_u64_str(f[3], &bytes))
		return bad_line(m, i, "the byte count is not a number");
	k = listed_before(m, i, f[2]);
	if (k)
		return error("%s:%zu: '%s' is listed twice (first on line %zu)",
			     m->path, i + 1, f[2], k);
	for (k = 0; k < sum->nfiles; k++)
		if (!strcmp(sum->files[k].path, f[2]))
			it = &sum->files[k];
	/* a raw directory of older tools: the file by its old name */
	for (k = 0; !it && k < proto_allowlist_len; k++)
		if (proto_allowlist[k].fallback &&
		    !strcmp(proto_allowlist[k].fallback, f[2]))
			it = &sum->files[k];
	other = it && it < sum->files + proto_allowlist_len ?
		proto_allowlist[it - sum->files].fallback : NULL;
	if (other && !strcmp(other, f[2]))
		other = it->path;
	k = other ? listed_before(m, i, other) : 0;
	if (k)
		return error("%s:%zu: '%s' is listed twice, as '%s' on line %zu",
			     m->path, i + 1, f[2], other, k);
	if (!it && proto_module_file_path(f[2], strlen(f[2]))) {
		it = collect_summary_add_module_file(sum, f[2], strlen(f[2]),
						     &err);
		if (!it && err == -ENOMEM)
			return error("out of memory");
		if (!it)
			return bad_line(m, i, "more module files than an agent sends");
		err = 0;
	}
	if (!it)
		return bad_line(m, i, "the file is not on the agent's allow-list");
	if (st != ITEM_COMPLETE && reason_err(f[4], &err))
		return bad_line(m, i, "unknown reason");
	if (st == ITEM_MISSING) {
		it->status = ITEM_MISSING;
		it->err = err;
		it->bytes = 0;
		db_sink_name_next(sink, it->path);
		return sink->ops->file_begin(sink, it) ||
		       sink->ops->file_end(sink, it) ? -1 : 0;
	}
	snprintf(rel, sizeof(rel), "files%s%s", f[2],
		 st == ITEM_INCOMPLETE ? ".incomplete" : "");
	snprintf(disk, sizeof(disk), "%s/%s", m->dir, rel);
	fd = rawdir_open_fd(m, rel, NULL);
	if (fd < 0)
		return errno == ENOENT ?
		       bad_line(m, i, "the file it lists is not in the directory") : -1;
	if (source_push_fd(sink, it, fd, disk, st, err) < 0)
		return -1;
	if (it->bytes != bytes)
		return bad_line(m, i, "the file's size differs from the MANIFEST's");
	return 0;
}

static int file_line(const struct manifest *m, size_t i,
		     struct collect_summary *sum, struct collect_sink *sink)
{
	char *copy, *f[6];
	size_t n;
	int ret;

	copy = split(m->lines[i], f, 5, &n);
	ret = file_fields(m, i, sum, sink, f, n);
	free(copy);
	return ret;
}

/* "-", or FROM-TO[,FROM-TO]... with FROM <= TO */
static int parse_gaps(struct kmsg_item *k, const char *s)
{
	const char *dash, *end;
	uint64_t from, to;

	if (!strcmp(s, "-"))
		return 0;
	for (;;) {
		end = strchrnul(s, ',');
		dash = memchr(s, '-', (size_t)(end - s));
		if (!dash || parse_u64(s, (size_t)(dash - s), &from) ||
		    parse_u64(dash + 1, (size_t)(end - dash - 1), &to) ||
		    to < from)
			return -1;
		k->gaps = xrealloc(k->gaps, (k->ngaps + 1) * sizeof(*k->gaps));
		k->gaps[k->ngaps].from = from;
		k->gaps[k->ngaps++].to = to;
		if (!*end)
			return 0;
		s = end + 1;
	}
}

static int kmsg_meta(const struct manifest *m, size_t i,
		     struct collect_summary *sum)
{
	struct kmsg_item *k = &sum->kmsg;
	char *copy, *f[8];
	size_t n;
	int ret = 0;

	copy = split(m->lines[i], f, 7, &n);
	if (n < 6 || n > 7 || parse_status(f[1], &k->status) ||
	    (k->status == ITEM_COMPLETE) != (n == 6) ||
	    parse_u64_str(f[2], &k->records) || parse_gaps(k, f[5]))
		ret = bad_line(m, i, "expected 'kmsg STATUS RECORDS FIRST LAST GAPS [REASON]'");
	else if (k->records && (parse_u64_str(f[3], &k->first) ||
				parse_u64_str(f[4], &k->last)))
		ret = bad_line(m, i, "expected sequence numbers");
	else if (n == 7 && reason_err(f[6], &k->err))
		ret = bad_line(m, i, "unknown reason");
	free(copy);
	return ret;
}

static int trigger_line(const struct manifest *m, size_t i,
			struct trigger_item *t)
{
	char *copy, *f[5];
	size_t n;
	int ret = 0;

	copy = split(m->lines[i], f, 4, &n);
	if (n < 3 || strcmp(t->name, f[2]) ||
	    ((strcmp(f[1], "done") || n != 3) &&
	     (strcmp(f[1], "failed") || n != 4)))
		ret = bad_line(m, i, "expected 'trigger done|failed NAME [REASON]'");
	else if (strcmp(f[1], "done") && reason_err(f[3], &t->err))
		ret = bad_line(m, i, "unknown reason");
	else
		t->done = !strcmp(f[1], "done");
	free(copy);
	return ret;
}

/* "-" (unknown) or a number; -1 for anything else */
static int u64_field(const char *s, uint64_t *v, bool *known)
{
	*known = strcmp(s, "-");
	return *known ? parse_u64_str(s, v) : 0;
}

/*
 * workload.out: what the agent kept of the output, exactly as many bytes
 * as the MANIFEST's count allows.
 */
static int workload_output(const struct manifest *m, size_t i,
			   struct workload_item *w)
{
	size_t want = w->output_total < PROTO_WORKLOAD_OUTPUT ?
		      w->output_total : PROTO_WORKLOAD_OUTPUT;
	char path[8192];
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "%s/workload.out", m->dir);
	fp = rawdir_open(m, "workload.out", "");
	if (!fp)
		return -1;
	w->output = xmalloc(want + 1);
	n = fread(w->output, 1, want + 1, fp);
	if (ferror(fp)) {
		fclose(fp);
		return error("unable to read '%s': %s", path, strerror(errno));
	}
	fclose(fp);
	if (n != want)
		return error("%s: %zu bytes, but '%s' line %zu counts %zu",
			     path, n, m->path, i + 1, want);
	w->output_len = n;
	return 0;
}

static int workload_line(const struct manifest *m, size_t i,
			 struct workload_item *w)
{
	static const char usage[] =
		"expected 'workload exited|running|not-started NAME START END WAIT DURATION OUTPUT [REASON]'";
	uint64_t v[5] = { 0 };
	bool known[5], exited;
	char *copy, *f[10];
	size_t n, k;
	int ret = -1;

	copy = split(m->lines[i], f, 9, &n);
	if (n < 8 || n > 9 || !workload_name_valid(f[2], strlen(f[2])))
		goto bad;
	if (!strcmp(f[1], "exited"))
		w->state = WORKLOAD_EXITED;
	else if (!strcmp(f[1], "running"))
		w->state = WORKLOAD_RUNNING;
	else if (!strcmp(f[1], "not-started"))
		w->state = WORKLOAD_NOT_STARTED;
	else
		goto bad;
	exited = w->state == WORKLOAD_EXITED;
	/* wait and duration only when it ended; output also while running */
	for (k = 0; k < 5; k++)
		if (u64_field(f[3 + k], &v[k], &known[k]) ||
		    (k >= 2 && known[k] != exited &&
		     !(k == 4 && w->state == WORKLOAD_RUNNING)))
			goto bad;
	/* the database counts the duration and output in 63 bits */
	if ((n == 9) != (w->state == WORKLOAD_NOT_STARTED) ||
	    (n == 9 && reason_err(f[8], &w->err)) ||
	    v[2] > UINT32_MAX || v[3] > INT64_MAX || v[4] > INT64_MAX)
		goto bad;
	snprintf(w->name, sizeof(w->name), "%s", f[2]);
	w->start_seq = known[0] ? v[0] : WORKLOAD_SEQ_UNKNOWN;
	w->end_seq = known[1] ? v[1] : WORKLOAD_SEQ_UNKNOWN;
	w->wait_status = (int)(uint32_t)v[2];
	w->duration_ms = v[3];
	w->output_total = v[4];
	ret = known[4] ? workload_output(m, i, w) : 0;
	free(copy);
	return ret;
bad:
	free(copy);
	return bad_line(m, i, usage);
}

/*
 * The kmsg file: one record per line, its dictionary lines after it
 * (each starting with a space). Its records must be as many as the
 * MANIFEST counts: an emptied or cut kmsg is not a complete log.
 */
static int read_kmsg(const char *path, const struct manifest *m,
		     uint64_t want, struct collect_sink *sink)
{
	FILE *fp = rawdir_open(m, "kmsg", "");
	struct line_reader lr;
	uint64_t records = 0;
	int ret;

	if (!fp)
		return -1;
	line_reader_init(&lr, fp, path);
	while ((ret = line_reader_next(&lr)) > 0) {
		if (lr.len && lr.line[0] != ' ')
			records++;
		if (db_sink_kmsg_line(sink, lr.line, lr.len)) {
			ret = -1;
			break;
		}
	}
	if (!ret && records != want)
		ret = error("%s: %" PRIu64 " records, but '%s' counts %" PRIu64,
			    path, records, m->path, want);
	line_reader_release(&lr);
	fclose(fp);
	return ret;
}

/* "events BYTES": the agent offered the dependency events. */
static int events_meta(const struct manifest *m, size_t i,
		       struct collect_summary *sum)
{
	bool known;

	if (u64_field(m->lines[i] + 7, &sum->events.bytes, &known) || !known ||
	    sum->events.bytes > EVENTS_MAX)
		return bad_line(m, i, "expected 'events BYTES' with BYTES at most 1 GiB");
	sum->events.offered = true;
	return 0;
}

/* The events file, to the sink as it is: exactly the MANIFEST's bytes. */
static int read_events(const char *path, const struct manifest *m,
		       uint64_t want, struct collect_sink *sink)
{
	FILE *fp = rawdir_open(m, "events", "");
	uint64_t total = 0;
	char buf[65536];
	size_t n;
	int ret = 0;

	if (!fp)
		return -1;
	while (!ret && total <= want && (n = fread(buf, 1, sizeof(buf), fp))) {
		total += n;
		if (total <= want && sink->ops->events_data(sink, buf, n))
			ret = -1;
	}
	if (!ret && ferror(fp))
		ret = error("unable to read '%s': %s", path, strerror(errno));
	if (!ret && total != want)
		ret = error("%s: %s bytes, but '%s' counts %" PRIu64, path,
			    total > want ? "more" : "fewer", m->path, want);
	fclose(fp);
	return ret;
}

/* First pass: the header, and the trigger names for the summary. */
static int manifest_triggers(const struct manifest *m, const char ***names,
			     size_t *nr)
{
	size_t i;

	if (!m->nr || strcmp(m->lines[0], "# lockdep-collect MANIFEST 1"))
		return error("%s:1: not a MANIFEST of format 1", m->path);
	*names = xcalloc(m->nr, sizeof(**names));
	*nr = 0;
	for (i = 1; i < m->nr; i++) {
		char *copy, *f[5];
		size_t n;

		if (strncmp(m->lines[i], "trigger ", 8))
			continue;
		copy = split(m->lines[i], f, 4, &n);
		/* what --trigger takes, no more: the name is printed and stored */
		if (n >= 3 && !proto_scenario_valid(f[2], strlen(f[2]))) {
			free(copy);
			return bad_line(m, i, "a scenario name must be 1-64 characters of [a-z0-9_-]");
		}
		if (n >= 3)
			(*names)[(*nr)++] = xstrdup(f[2]);
		free(copy);
		if (n < 3)
			return bad_line(m, i, "expected 'trigger done|failed NAME [REASON]'");
	}
	return 0;
}

static int rawdir_items(const struct manifest *m,
			struct collect_summary *sum, struct collect_sink *sink)
{
	char kmsg[8192];
	size_t i, trig = 0;
	bool have_kmsg = false, have_workload = false, have_events = false;

	for (i = 1; i < m->nr; i++) {
		const char *l = m->lines[i];

		if (!strncmp(l, "agent ", 6)) {
			snprintf(sum->identity, sizeof(sum->identity), "%s", l + 6);
		} else if (!strncmp(l, "file ", 5)) {
			if (file_line(m, i, sum, sink))
				return -1;
		} else if (!strncmp(l, "kmsg ", 5) && !have_kmsg) {
			have_kmsg = true;
			if (kmsg_meta(m, i, sum))
				return -1;
		} else if (!strncmp(l, "events ", 7) && !have_events) {
			have_events = true;
			if (events_meta(m, i, sum))
				return -1;
		} else if (!strncmp(l, "trigger ", 8)) {
			if (trigger_line(m, i, &sum->triggers[trig++]))
				return -1;
		} else if (!strncmp(l, "workload ", 9) && !have_workload) {
			have_workload = true;
			if (workload_line(m, i, &sum->workload))
				return -1;
		} else {
			return bad_line(m, i, "unknown line");
		}
	}
	if (!have_kmsg)
		return error("%s: no 'kmsg' line", m->path);
	if (have_events) {
		snprintf(kmsg, sizeof(kmsg), "%s/events", m->dir);
		if (read_events(kmsg, m, sum->events.bytes, sink))
			return -1;
	}
	if (sum->kmsg.status == ITEM_MISSING)
		return 0;
	snprintf(kmsg, sizeof(kmsg), "%s/kmsg", m->dir);
	return read_kmsg(kmsg, m, sum->kmsg.records, sink);
}

int source_rawdir(const char *dir, struct collect_summary *sum,
		  struct collect_sink *sink, char ***trigger_names)
{
	struct manifest m = { 0 };
	const char **names = NULL;
	char path[4096];
	size_t nr = 0;
	int ret;

	if ((size_t)snprintf(path, sizeof(path), "%s/MANIFEST", dir) >=
	    sizeof(path))
		return error("raw directory '%s' is too long", dir);
	m.path = path;
	m.dir = dir;
	m.dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (m.dirfd < 0)
		return error("unable to open '%s': %s%s", dir, strerror(errno),
			     errno == ENOENT ? " (not a raw directory, or its collection did not finish)" : "");
	ret = read_lines(path, &m);
	if (!ret)
		ret = manifest_triggers(&m, &names, &nr);
	if (!ret && collect_summary_init(sum, names, nr))
		ret = error("out of memory");
	if (!ret)
		ret = rawdir_items(&m, sum, sink);
	*trigger_names = (char **)names;
	release_lines(&m);
	close(m.dirfd);
	return ret;
}
