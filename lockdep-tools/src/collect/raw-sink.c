// SPDX-License-Identifier: GPL-2.0
/*
 * The raw directory sink: what the guest sent, byte for byte.
 *
 * Invariants:
 * (1) A file appears under its own name only once it is complete; while
 *     it arrives it is NAME.part, and if it was cut it is kept as
 *     NAME.incomplete. A stale copy from an earlier run never survives
 *     next to a different status.
 * (2) MANIFEST is removed when the sink opens and written (to a temporary
 *     name, then renamed) only at the end, so a MANIFEST always describes
 *     the files next to it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect/sink.h"

struct raw_sink {
	struct collect_sink base;
	char dir[PATH_MAX];
	FILE *file;
	char final[PATH_MAX];
	char part[PATH_MAX + 16];
	char cut[PATH_MAX + 16];
	FILE *kmsg;
	char kmsg_part[PATH_MAX + 16];
	FILE *events;
	char events_part[PATH_MAX + 16];
};

static struct raw_sink *to_raw(struct collect_sink *s)
{
	return (struct raw_sink *)s;
}

/* mkdir -p of @path's directory part (all of @path if @whole). */
static int raw_mkdirs(const char *path, bool whole)
{
	char buf[PATH_MAX];
	char *p;

	snprintf(buf, sizeof(buf), "%s%s", path, whole ? "/" : "");
	for (p = buf + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST) {
			int err = errno;

			fprintf(stderr,
				"lockdep-collect: error: unable to create directory '%s': %s\n",
				buf, strerror(err));
			return -err;
		}
		*p = '/';
	}
	return 0;
}

/* unlink() that only complains about real failures */
static int raw_unlink(const char *path)
{
	if (unlink(path) && errno != ENOENT) {
		int err = errno;

		fprintf(stderr, "lockdep-collect: error: unable to remove '%s': %s\n",
			path, strerror(err));
		return -err;
	}
	return 0;
}

static int raw_rename(const char *from, const char *to)
{
	if (rename(from, to)) {
		int err = errno;

		fprintf(stderr, "lockdep-collect: error: unable to rename '%s' to '%s': %s\n",
			from, to, strerror(err));
		return -err;
	}
	return 0;
}

/* fclose() that reports a write error of @path */
static int raw_close(FILE *fp, const char *path)
{
	int err = ferror(fp);

	errno = 0;	/* so a stale errno is not reported for ferror() */
	if (fclose(fp) || err) {
		err = errno ? errno : EIO;
		fprintf(stderr, "lockdep-collect: error: unable to write '%s': %s\n",
			path, strerror(err));
		return -err;
	}
	return 0;
}

static int raw_file_begin(struct collect_sink *s, const struct file_item *it)
{
	struct raw_sink *r = to_raw(s);

	if ((size_t)snprintf(r->final, sizeof(r->final), "%s/files%s",
			     r->dir, it->path) >= sizeof(r->final)) {
		fprintf(stderr, "lockdep-collect: error: path '%s/files%s' is too long\n",
			r->dir, it->path);
		return -ENAMETOOLONG;
	}
	snprintf(r->part, sizeof(r->part), "%s.part", r->final);
	snprintf(r->cut, sizeof(r->cut), "%s.incomplete", r->final);
	return 0;
}

/* Created on the first byte, so a missing file leaves no directories. */
static int raw_file_open(struct raw_sink *r)
{
	int ret;

	ret = raw_mkdirs(r->final, false);
	if (ret)
		return ret;
	r->file = fopen(r->part, "w");
	if (!r->file) {
		int err = errno;

		fprintf(stderr, "lockdep-collect: error: unable to create '%s': %s\n",
			r->part, strerror(err));
		return -err;
	}
	return 0;
}

static int raw_file_data(struct collect_sink *s, const void *buf, size_t len)
{
	struct raw_sink *r = to_raw(s);
	int ret;

	if (!r->file) {
		ret = raw_file_open(r);
		if (ret)
			return ret;
	}
	if (fwrite(buf, 1, len, r->file) != len) {
		int err = errno;

		fprintf(stderr, "lockdep-collect: error: unable to write '%s': %s\n",
			r->part, strerror(err));
		return -err;
	}
	return 0;
}

static int raw_file_end(struct collect_sink *s, const struct file_item *it)
{
	struct raw_sink *r = to_raw(s);
	int ret = 0;

	/* an empty file that is complete still exists */
	if (!r->file && it->status == ITEM_COMPLETE)
		ret = raw_file_open(r);
	if (r->file) {
		ret = raw_close(r->file, r->part);
		r->file = NULL;
	}
	if (ret)
		return ret;
	switch (it->status) {
	case ITEM_COMPLETE:
		ret = raw_unlink(r->cut);
		return ret ? ret : raw_rename(r->part, r->final);
	case ITEM_INCOMPLETE:
		ret = raw_unlink(r->final);
		return ret ? ret : raw_rename(r->part, r->cut);
	case ITEM_MISSING:
		break;
	}
	ret = raw_unlink(r->part);
	if (!ret)
		ret = raw_unlink(r->final);
	return ret ? ret : raw_unlink(r->cut);
}

static int raw_kmsg_record(struct collect_sink *s, const uint8_t *rec,
			   size_t len)
{
	struct raw_sink *r = to_raw(s);

	/* records end in '\n' (one per line); keep that true for any input */
	if (fwrite(rec, 1, len, r->kmsg) != len ||
	    ((!len || rec[len - 1] != '\n') && fputc('\n', r->kmsg) == EOF)) {
		int err = errno;

		fprintf(stderr, "lockdep-collect: error: unable to write '%s': %s\n",
			r->kmsg_part, strerror(err));
		return -err;
	}
	return 0;
}

static int raw_events_data(struct collect_sink *s, const void *buf, size_t len)
{
	struct raw_sink *r = to_raw(s);

	if (fwrite(buf, 1, len, r->events) != len) {
		int err = errno;

		fprintf(stderr, "lockdep-collect: error: unable to write '%s': %s\n",
			r->events_part, strerror(err));
		return -err;
	}
	return 0;
}

/*
 * workload.out: the output the agent kept, there when it ended or when
 * a workload that did not end was asked for its output so far.
 */
static int raw_workload_output(struct raw_sink *r,
			       const struct workload_item *w)
{
	char path[PATH_MAX + 32], tmp[PATH_MAX + 32];
	FILE *fp;
	int ret;

	snprintf(path, sizeof(path), "%s/workload.out", r->dir);
	if (!w->output)
		return raw_unlink(path);
	snprintf(tmp, sizeof(tmp), "%s/workload.out.tmp", r->dir);
	fp = fopen(tmp, "w");
	if (!fp) {
		int err = errno;

		fprintf(stderr, "lockdep-collect: error: unable to create '%s': %s\n",
			tmp, strerror(err));
		return -err;
	}
	fwrite(w->output, 1, w->output_len, fp);
	ret = raw_close(fp, tmp);
	return ret ? ret : raw_rename(tmp, path);
}

static int raw_finish(struct collect_sink *s, const struct collect_summary *sum)
{
	struct raw_sink *r = to_raw(s);
	char path[PATH_MAX + 16], tmp[PATH_MAX + 16];
	FILE *fp;
	int ret;

	snprintf(path, sizeof(path), "%s/kmsg", r->dir);
	ret = raw_close(r->kmsg, r->kmsg_part);
	r->kmsg = NULL;
	if (ret)
		return ret;
	if (sum->kmsg.status == ITEM_MISSING)
		ret = raw_unlink(r->kmsg_part) ?: raw_unlink(path);
	else
		ret = raw_rename(r->kmsg_part, path);
	if (ret)
		return ret;

	snprintf(path, sizeof(path), "%s/events", r->dir);
	ret = raw_close(r->events, r->events_part);
	r->events = NULL;
	if (ret)
		return ret;
	if (sum->events.offered)
		ret = raw_rename(r->events_part, path);
	else
		ret = raw_unlink(r->events_part) ?: raw_unlink(path);
	if (ret)
		return ret;

	ret = raw_workload_output(r, &sum->workload);
	if (ret)
		return ret;

	snprintf(path, sizeof(path), "%s/MANIFEST", r->dir);
	snprintf(tmp, sizeof(tmp), "%s/MANIFEST.tmp", r->dir);
	fp = fopen(tmp, "w");
	if (!fp) {
		int err = errno;

		fprintf(stderr, "lockdep-collect: error: unable to create '%s': %s\n",
			tmp, strerror(err));
		return -err;
	}
	manifest_write(fp, sum);
	ret = raw_close(fp, tmp);
	return ret ? ret : raw_rename(tmp, path);
}

static void raw_free(struct collect_sink *s)
{
	struct raw_sink *r = to_raw(s);

	if (r->file)
		fclose(r->file);
	if (r->kmsg)
		fclose(r->kmsg);
	if (r->events)
		fclose(r->events);
	free(r);
}

static const struct collect_sink_ops raw_sink_ops = {
	.file_begin	= raw_file_begin,
	.file_data	= raw_file_data,
	.file_end	= raw_file_end,
	.kmsg_record	= raw_kmsg_record,
	.events_data	= raw_events_data,
	.finish		= raw_finish,
	.free		= raw_free,
};

struct collect_sink *raw_sink_new(const char *dir)
{
	char manifest[PATH_MAX + 16];
	struct raw_sink *r;

	if (strlen(dir) >= PATH_MAX - 64) {
		fprintf(stderr, "lockdep-collect: error: raw directory '%s' is too long\n",
			dir);
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		fputs("lockdep-collect: error: out of memory\n", stderr);
		return NULL;
	}
	r->base.ops = &raw_sink_ops;
	strcpy(r->dir, dir);
	snprintf(manifest, sizeof(manifest), "%s/MANIFEST", dir);
	snprintf(r->kmsg_part, sizeof(r->kmsg_part), "%s/kmsg.part", dir);
	snprintf(r->events_part, sizeof(r->events_part), "%s/events.part", dir);
	if (raw_mkdirs(dir, true) || raw_unlink(manifest))
		goto fail;
	r->kmsg = fopen(r->kmsg_part, "w");
	if (!r->kmsg) {
		fprintf(stderr, "lockdep-collect: error: unable to create '%s': %s\n",
			r->kmsg_part, strerror(errno));
		goto fail;
	}
	r->events = fopen(r->events_part, "w");
	if (!r->events) {
		fprintf(stderr, "lockdep-collect: error: unable to create '%s': %s\n",
			r->events_part, strerror(errno));
		goto fail;
	}
	return &r->base;
fail:
	if (r->kmsg)
		fclose(r->kmsg);
	free(r);
	return NULL;
}
