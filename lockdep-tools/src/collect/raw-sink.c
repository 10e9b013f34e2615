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
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect/sink.h"
#include "util/open-beneath.h"

/*
 * (3) Every file is created new beneath the directory (create_new_at():
 *     O_EXCL | O_NOFOLLOW, a planted name removed first) and every
 *     directory beneath it is walked without following a link
 *     (open_dir_strict()): whoever else can write into the directory
 *     cannot make the guest's bytes land outside it.
 */
struct raw_sink {
	struct collect_sink base;
	char dir[PATH_MAX];
	int dirfd;
	FILE *file;
	char rel[PATH_MAX];	/* files/<guest path>, beneath dir */
	size_t base_at;		/* where its last component starts */
	int file_dirfd;		/* its directory's, once opened; else -1 */
	FILE *kmsg;
	FILE *events;
};

static struct raw_sink *to_raw(struct collect_sink *s)
{
	return (struct raw_sink *)s;
}

/* mkdir -p of the raw directory itself (the user's path, links and all) */
static int raw_mkdirs(const char *path)
{
	char buf[PATH_MAX];
	char *p;

	snprintf(buf, sizeof(buf), "%s/", path);
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

/* unlinkat() that only complains about real failures */
static int raw_unlink(const struct raw_sink *r, int dfd, const char *dirrel,
		      const char *name)
{
	if (unlinkat(dfd, name, 0) && errno != ENOENT) {
		int err = errno;

		fprintf(stderr, "lockdep-collect: error: unable to remove '%s/%s%s': %s\n",
			r->dir, dirrel, name, strerror(err));
		return -err;
	}
	return 0;
}

static int raw_rename(const struct raw_sink *r, int dfd, const char *dirrel,
		      const char *from, const char *to)
{
	if (renameat(dfd, from, dfd, to)) {
		int err = errno;

		fprintf(stderr, "lockdep-collect: error: unable to rename '%s/%s%s' to '%s': %s\n",
			r->dir, dirrel, from, to, strerror(err));
		return -err;
	}
	return 0;
}

/* A new file @name in @dfd (@dirrel: its directory, for messages). */
static FILE *raw_create(const struct raw_sink *r, int dfd, const char *dirrel,
			const char *name, int *ret)
{
	int fd = create_new_at(dfd, name);
	FILE *fp = fd < 0 ? NULL : fdopen(fd, "wb");

	if (!fp) {
		*ret = -errno;
		fprintf(stderr, "lockdep-collect: error: unable to create '%s/%s%s': %s\n",
			r->dir, dirrel, name, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return fp;
}

/* fclose() that reports a write error of @dirrel@name */
static int raw_close(const struct raw_sink *r, FILE *fp, const char *dirrel,
		     const char *name)
{
	int err = ferror(fp);

	errno = 0;	/* so a stale errno is not reported for ferror() */
	if (fclose(fp) || err) {
		err = errno ? errno : EIO;
		fprintf(stderr, "lockdep-collect: error: unable to write '%s/%s%s': %s\n",
			r->dir, dirrel, name, strerror(err));
		return -err;
	}
	return 0;
}

/* The current file's NAME with @suffix (".part", ".incomplete", ""). */
static const char *raw_name(const struct raw_sink *r, const char *suffix,
			    char *buf, size_t size)
{
	snprintf(buf, size, "%s%s", r->rel + r->base_at, suffix);
	return buf;
}

/* "files/proc/" of the current file, for messages */
static const char *raw_file_dir(const struct raw_sink *r, char *buf,
				size_t size)
{
	snprintf(buf, size, "%.*s", (int)r->base_at, r->rel);
	return buf;
}

static int raw_file_begin(struct collect_sink *s, const struct file_item *it)
{
	struct raw_sink *r = to_raw(s);
	const char *slash;

	if ((size_t)snprintf(r->rel, sizeof(r->rel), "files%s", it->path) >=
	    sizeof(r->rel) - 16 || strlen(r->dir) + strlen(r->rel) >= PATH_MAX) {
		fprintf(stderr, "lockdep-collect: error: path '%s/files%s' is too long\n",
			r->dir, it->path);
		return -ENAMETOOLONG;
	}
	slash = strrchr(r->rel, '/');
	r->base_at = (size_t)(slash - r->rel) + 1;
	r->file_dirfd = -1;
	return 0;
}

/*
 * The current file's directory, made (@create) or only opened; 1 when
 * it is not there and not to be made.
 */
static int raw_file_dir_open(struct raw_sink *r, bool create)
{
	struct beneath_refusal ref;
	char dir[PATH_MAX];

	if (r->file_dirfd >= 0)
		return 0;
	snprintf(dir, sizeof(dir), "%.*s", (int)r->base_at - 1, r->rel);
	r->file_dirfd = open_dir_strict(r->dirfd, dir, create, &ref);
	if (r->file_dirfd >= 0)
		return 0;
	if (ref.why) {
		fprintf(stderr, "lockdep-collect: error: '%s/%.*s' %s: refused\n",
			r->dir, (int)ref.len, dir, ref.why);
		return -EPERM;
	}
	if (errno == ENOENT && !create)
		return 1;
	fprintf(stderr, "lockdep-collect: error: unable to create directory '%s/%s': %s\n",
		r->dir, dir, strerror(errno));
	return -errno;
}

/* Created on the first byte, so a missing file leaves no directories. */
static int raw_file_open(struct raw_sink *r)
{
	char name[NAME_MAX + 16], dir[PATH_MAX];
	int ret = raw_file_dir_open(r, true);

	if (ret)
		return ret;
	r->file = raw_create(r, r->file_dirfd, raw_file_dir(r, dir, sizeof(dir)),
			     raw_name(r, ".part", name, sizeof(name)), &ret);
	return r->file ? 0 : ret;
}

static int raw_file_data(struct collect_sink *s, const void *buf, size_t len)
{
	struct raw_sink *r = to_raw(s);
	char name[NAME_MAX + 16], dir[PATH_MAX];
	int ret;

	if (!r->file) {
		ret = raw_file_open(r);
		if (ret)
			return ret;
	}
	if (fwrite(buf, 1, len, r->file) != len) {
		int err = errno;

		fprintf(stderr, "lockdep-collect: error: unable to write '%s/%s%s': %s\n",
			r->dir, raw_file_dir(r, dir, sizeof(dir)),
			raw_name(r, ".part", name, sizeof(name)), strerror(err));
		return -err;
	}
	return 0;
}

static int raw_file_settle(struct raw_sink *r, const struct file_item *it)
{
	char part[NAME_MAX + 16], cut[NAME_MAX + 16], final[NAME_MAX + 16];
	char dir[PATH_MAX];
	int dfd, ret = 0;

	/* an empty file that is complete still exists */
	if (!r->file && it->status == ITEM_COMPLETE)
		ret = raw_file_open(r);
	raw_file_dir(r, dir, sizeof(dir));
	raw_name(r, ".part", part, sizeof(part));
	raw_name(r, ".incomplete", cut, sizeof(cut));
	raw_name(r, "", final, sizeof(final));
	if (r->file) {
		ret = raw_close(r, r->file, dir, part);
		r->file = NULL;
	}
	if (ret)
		return ret;
	/* a missing file never made its directory: nothing stale there */
	ret = raw_file_dir_open(r, false);
	if (ret)
		return ret > 0 ? 0 : ret;
	dfd = r->file_dirfd;
	switch (it->status) {
	case ITEM_COMPLETE:
		ret = raw_unlink(r, dfd, dir, cut);
		return ret ? ret : raw_rename(r, dfd, dir, part, final);
	case ITEM_INCOMPLETE:
		ret = raw_unlink(r, dfd, dir, final);
		return ret ? ret : raw_rename(r, dfd, dir, part, cut);
	case ITEM_MISSING:
		break;
	}
	ret = raw_unlink(r, dfd, dir, part);
	if (!ret)
		ret = raw_unlink(r, dfd, dir, final);
	return ret ? ret : raw_unlink(r, dfd, dir, cut);
}

static int raw_file_end(struct collect_sink *s, const struct file_item *it)
{
	struct raw_sink *r = to_raw(s);
	int ret = raw_file_settle(r, it);

	if (r->file_dirfd >= 0)
		close(r->file_dirfd);
	r->file_dirfd = -1;
	return ret;
}

static int raw_kmsg_record(struct collect_sink *s, const uint8_t *rec,
			   size_t len)
{
	struct raw_sink *r = to_raw(s);

	/* records end in '\n' (one per line); keep that true for any input */
	if (fwrite(rec, 1, len, r->kmsg) != len ||
	    ((!len || rec[len - 1] != '\n') && fputc('\n', r->kmsg) == EOF)) {
		int err = errno;

		fprintf(stderr, "lockdep-collect: error: unable to write '%s/kmsg.part': %s\n",
			r->dir, strerror(err));
		return -err;
	}
	return 0;
}

static int raw_events_data(struct collect_sink *s, const void *buf, size_t len)
{
	struct raw_sink *r = to_raw(s);

	if (fwrite(buf, 1, len, r->events) != len) {
		int err = errno;

		fprintf(stderr, "lockdep-collect: error: unable to write '%s/events.part': %s\n",
			r->dir, strerror(err));
		return -err;
	}
	return 0;
}

/* @data as the new file @name: written to NAME.tmp, then renamed. */
static int raw_write_whole(struct raw_sink *r, const char *name,
			   const char *tmp, const void *data, size_t len,
			   const struct collect_summary *sum)
{
	FILE *fp;
	int ret;

	fp = raw_create(r, r->dirfd, "", tmp, &ret);
	if (!fp)
		return ret;
	if (sum)
		manifest_write(fp, sum);
	else
		fwrite(data, 1, len, fp);
	ret = raw_close(r, fp, "", tmp);
	return ret ? ret : raw_rename(r, r->dirfd, "", tmp, name);
}

static int raw_finish(struct collect_sink *s, const struct collect_summary *sum)
{
	struct raw_sink *r = to_raw(s);
	const struct workload_item *w = &sum->workload;
	int ret;

	ret = raw_close(r, r->kmsg, "", "kmsg.part");
	r->kmsg = NULL;
	if (ret)
		return ret;
	if (sum->kmsg.status == ITEM_MISSING)
		ret = raw_unlink(r, r->dirfd, "", "kmsg.part") ?:
		      raw_unlink(r, r->dirfd, "", "kmsg");
	else
		ret = raw_rename(r, r->dirfd, "", "kmsg.part", "kmsg");
	if (ret)
		return ret;

	ret = raw_close(r, r->events, "", "events.part");
	r->events = NULL;
	if (ret)
		return ret;
	if (sum->events.offered)
		ret = raw_rename(r, r->dirfd, "", "events.part", "events");
	else
		ret = raw_unlink(r, r->dirfd, "", "events.part") ?:
		      raw_unlink(r, r->dirfd, "", "events");
	if (ret)
		return ret;

	/*
	 * workload.out: the output the agent kept, there when it ended or
	 * when a workload that did not end was asked for its output so far.
	 */
	ret = w->output ? raw_write_whole(r, "workload.out", "workload.out.tmp",
					  w->output, w->output_len, NULL) :
			  raw_unlink(r, r->dirfd, "", "workload.out");
	return ret ? ret : raw_write_whole(r, "MANIFEST", "MANIFEST.tmp",
					   NULL, 0, sum);
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
	if (r->file_dirfd >= 0)
		close(r->file_dirfd);
	if (r->dirfd >= 0)
		close(r->dirfd);
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
	struct raw_sink *r;
	int ret;

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
	r->file_dirfd = -1;
	r->dirfd = -1;
	strcpy(r->dir, dir);
	if (raw_mkdirs(dir))
		goto fail;
	r->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->dirfd < 0) {
		fprintf(stderr, "lockdep-collect: error: unable to open '%s': %s\n",
			dir, strerror(errno));
		goto fail;
	}
	if (raw_unlink(r, r->dirfd, "", "MANIFEST"))
		goto fail;
	r->kmsg = raw_create(r, r->dirfd, "", "kmsg.part", &ret);
	if (!r->kmsg)
		goto fail;
	r->events = raw_create(r, r->dirfd, "", "events.part", &ret);
	if (!r->events)
		goto fail;
	return &r->base;
fail:
	if (r->kmsg)
		fclose(r->kmsg);
	if (r->dirfd >= 0)
		close(r->dirfd);
	free(r);
	return NULL;
}
