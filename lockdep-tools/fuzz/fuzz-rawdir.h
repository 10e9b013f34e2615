/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the raw directory harnesses (fuzz-source-rawdir.c, fuzz-manifest.c)
 * share: a private directory rebuilt for every input, and a sink that
 * checks what source_rawdir() pushes into it.
 *
 * source_rawdir() takes a database sink, and a database per input costs
 * tens of milliseconds (the schema, a transaction): too slow to fuzz. The
 * three calls the raw directory and /proc sources make to the database
 * sink beyond its ops are defined here instead (the linker then leaves
 * db-sink.o out of the harness: a new call into it would fail the link,
 * not be missed). Like the real one, the kmsg lines go to a kmsg parser.
 */
#ifndef FUZZ_RAWDIR_H
#define FUZZ_RAWDIR_H

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "collect/db-sink.h"
#include "collect/sink.h"
#include "collect/sources.h"
#include "parse/kmsg.h"
#include "proto/allowlist.h"

struct pushed {
	char *path;	/* the summary's files move as module files come */
	enum item_status status;
	uint64_t bytes;
};

struct check_sink {
	struct collect_sink sink;
	const struct file_item *in_file;
	uint64_t file_bytes, events, kmsg_records;
	struct kmsg_parser *kmsg;
	struct pushed *pushed;
	size_t npushed, alloc;
};

static void cs_kmsg_line(const char *line, size_t len, void *data)
{
	FUZZ_CHECK(!memchr(line, '\n', len) && data);
}

static int cs_file_begin(struct collect_sink *s, const struct file_item *it)
{
	struct check_sink *c = (struct check_sink *)s;

	FUZZ_CHECK(!c->in_file && it && it->path);
	c->in_file = it;
	c->file_bytes = 0;
	return 0;
}

static int cs_file_data(struct collect_sink *s, const void *buf, size_t len)
{
	struct check_sink *c = (struct check_sink *)s;

	FUZZ_CHECK(c->in_file && len && buf);
	c->file_bytes += len;
	return 0;
}

static int cs_file_end(struct collect_sink *s, const struct file_item *it)
{
	struct check_sink *c = (struct check_sink *)s;

	FUZZ_CHECK(c->in_file == it && it->bytes == c->file_bytes);
	FUZZ_CHECK(it->status != ITEM_MISSING || !it->bytes);
	FUZZ_CHECK(c->npushed < proto_allowlist_len + PROTO_MAX_MODULE_FILES);
	if (c->npushed == c->alloc) {
		c->alloc = c->alloc ? 2 * c->alloc : 16;
		c->pushed = realloc(c->pushed, c->alloc * sizeof(*c->pushed));
		FUZZ_CHECK(c->pushed);
	}
	c->pushed[c->npushed++] = (struct pushed){ strdup(it->path),
						   it->status, it->bytes };
	c->in_file = NULL;
	return 0;
}

static int cs_kmsg_record(struct collect_sink *s, const uint8_t *rec,
			  size_t len)
{
	(void)s;
	(void)rec;
	(void)len;
	FUZZ_CHECK(!"a raw directory's kmsg comes line by line");
	return 0;
}

static int cs_events_data(struct collect_sink *s, const void *buf,
			  size_t len)
{
	struct check_sink *c = (struct check_sink *)s;

	FUZZ_CHECK(!c->in_file && len && buf);
	c->events += len;
	return 0;
}

static const struct collect_sink_ops check_sink_ops = {
	.file_begin = cs_file_begin,
	.file_data = cs_file_data,
	.file_end = cs_file_end,
	.kmsg_record = cs_kmsg_record,
	.events_data = cs_events_data,
};

static void check_sink_init(struct check_sink *c)
{
	memset(c, 0, sizeof(*c));
	c->sink.ops = &check_sink_ops;
	c->kmsg = kmsg_parser_new("kmsg", cs_kmsg_line, c);
}

static void check_sink_release(struct check_sink *c)
{
	size_t i;

	FUZZ_CHECK(!c->in_file);
	for (i = 0; i < c->npushed; i++)
		free(c->pushed[i].path);
	kmsg_parser_free(c->kmsg);
	free(c->pushed);
}

/* The database sink's calls beyond its ops (db-sink.h), on a check_sink. */
void db_sink_name_next(struct collect_sink *s, const char *input)
{
	FUZZ_CHECK(s->ops == &check_sink_ops && input && *input);
}

int db_sink_kmsg_line(struct collect_sink *s, const char *line, size_t len)
{
	struct check_sink *c = (struct check_sink *)s;

	FUZZ_CHECK(s->ops == &check_sink_ops && !c->in_file);
	if (kmsg_parser_push_line(c->kmsg, line, len))
		return -EINVAL;
	if (len && line[0] != ' ')
		c->kmsg_records++;
	return 0;
}

void db_sink_set_partial(struct collect_sink *s, const char *why)
{
	(void)s;
	(void)why;
	FUZZ_CHECK(!"only the /proc directory source says partial");
}

/* ---- the private directory, emptied before each input ---- */

static char fuzz_dir[64];

/*
 * With a reset that keeps directories (fuzz_dir_reset()), the files are
 * kept too, each with a descriptor open for writing: a file put again by
 * the next input is written through it (one or two system calls, where a
 * new file cost four and a new inode), and the read first
 * removes those it did not put again (fuzz_dir_prune()). The descriptors
 * are kept at KEPT_FD and above, out of the reader's way. Nothing is
 * allocated: an input that ends with more mallocs than frees makes
 * libFuzzer run it again under a leak check, each time it is new.
 */
#define MAX_PUT		64	/* files an input may put */
#define KEPT_FD		256
static struct fuzz_file {
	char path[512];
	int fd;			/* open for writing; -1 if not kept */
	size_t len;		/* its size */
	bool put;		/* by this input */
} fuzz_files[2 * MAX_PUT];
static size_t fuzz_nfiles, fuzz_nput;
static bool fuzz_keep;

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (ftw->level)
		FUZZ_CHECK(!remove(path));
	return 0;
}

static int rm_any(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* At the end of a run: no directory left behind. */
static void fuzz_dir_remove(void)
{
	nftw(fuzz_dir, rm_any, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * fuzz_dir for a new input: all of it removed, or with @keep_dirs its
 * directories and files kept (for inputs whose paths cannot collide
 * with one: a reset costs nothing, not a walk).
 */
static void fuzz_dir_reset(bool keep_dirs)
{
	size_t i;
	int fd;

	if (!fuzz_dir[0]) {
		snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/ldt-fuzz.XXXXXX",
			 fuzz_tmpdir());
		FUZZ_CHECK(mkdtemp(fuzz_dir));
		atexit(fuzz_dir_remove);
	}
	fuzz_keep = keep_dirs;
	for (i = 0; i < fuzz_nfiles; i++)
		fuzz_files[i].put = false;
	fuzz_nput = 0;
	if (!keep_dirs) {
		for (i = 0; i < fuzz_nfiles; i++)
			if (fuzz_files[i].fd >= 0)
				close(fuzz_files[i].fd);
		fuzz_nfiles = 0;
		FUZZ_CHECK(!nftw(fuzz_dir, rm_one, 16, FTW_DEPTH | FTW_PHYS));
	}
	/* the lowest free descriptor: one a read left open would show */
	fd = open("/dev/null", O_RDONLY);
	FUZZ_CHECK(fd >= 0 && fd < 32);
	close(fd);
}

/* Make the directories of @path, beneath fuzz_dir. */
static bool make_dirs(char *path)
{
	size_t i;

	for (i = strlen(fuzz_dir) + 1; path[i]; i++) {
		if (path[i] != '/')
			continue;
		path[i] = '\0';
		if (mkdir(path, 0700) && errno != EEXIST) {
			path[i] = '/';
			return false;
		}
		path[i] = '/';
	}
	return true;
}

static struct fuzz_file *fuzz_file_find(const char *path)
{
	size_t i;

	for (i = 0; i < fuzz_nfiles; i++)
		if (!strcmp(fuzz_files[i].path, path))
			return &fuzz_files[i];
	return NULL;
}

/* A new file @path := @data; with fuzz_keep its descriptor kept in @f. */
static bool fuzz_file_create(char *path, const void *data, size_t len,
			     struct fuzz_file *f)
{
	const int flags = O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW;
	int fd = open(path, flags, 0600);

	if (fd < 0 && errno == ENOENT && make_dirs(path))
		fd = open(path, flags, 0600);
	if (fd < 0)
		return false;	/* a directory by that name, say */
	FUZZ_CHECK(!len || write(fd, data, len) == (ssize_t)len);
	f->fd = -1;
	if (fuzz_keep) {
		f->fd = fcntl(fd, F_DUPFD_CLOEXEC, KEPT_FD);
		FUZZ_CHECK(f->fd >= KEPT_FD);
	}
	close(fd);
	return true;
}

/* @rel (a relative path of [A-Za-z0-9._/-], no ".." part) := @data. */
static bool fuzz_dir_put(const char *rel, const void *data, size_t len)
{
	struct fuzz_file *f;
	char path[512];
	size_t i, n = strlen(rel);

	if (!n || n > 200 || rel[0] == '/' || rel[n - 1] == '/' ||
	    strstr(rel, "//") || !strncmp(rel, "../", 3) ||
	    strstr(rel, "/../") || (n >= 3 && !strcmp(rel + n - 3, "/..")) ||
	    !strcmp(rel, "..") || fuzz_nput == MAX_PUT)
		return false;
	for (i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789._/-", rel[i]))
			return false;
	snprintf(path, sizeof(path), "%s/%s", fuzz_dir, rel);
	f = fuzz_file_find(path);
	if (f && f->fd >= 0) {
		/* no truncation to 0 first: that freed the page to refill */
		FUZZ_CHECK(!len || pwrite(f->fd, data, len, 0) == (ssize_t)len);
		if (f->len != len)
			FUZZ_CHECK(!ftruncate(f->fd, (off_t)len));
	} else {
		if (!fuzz_file_create(path, data, len,
				      f ? f : &fuzz_files[fuzz_nfiles]))
			return false;
		if (!f) {
			f = &fuzz_files[fuzz_nfiles++];
			strcpy(f->path, path);
		}
	}
	if (!f->put)
		fuzz_nput++;
	f->put = true;
	f->len = len;
	return true;
}

/* The files kept from the last input and not put by this one, removed. */
static void fuzz_dir_prune(void)
{
	size_t i, n = 0;

	for (i = 0; i < fuzz_nfiles; i++) {
		if (fuzz_files[i].put) {
			fuzz_files[n++] = fuzz_files[i];
			continue;
		}
		close(fuzz_files[i].fd);
		FUZZ_CHECK(!unlink(fuzz_files[i].path));
	}
	fuzz_nfiles = n;
}

/* One read of fuzz_dir as a raw directory. */
struct rawdir_read {
	int ret;
	struct collect_summary sum;
	struct check_sink c;
	char **names;		/* the trigger names sum points to */
	char *text;		/* manifest_write() of sum, when read */
	size_t len;
};

static void fuzz_read_rawdir(struct rawdir_read *r)
{
	FILE *mem;

	fuzz_dir_prune();
	memset(r, 0, sizeof(*r));
	check_sink_init(&r->c);
	r->ret = source_rawdir(fuzz_dir, &r->sum, &r->c.sink, &r->names);
	FUZZ_CHECK(r->ret == 0 || r->ret == -1);
	FUZZ_CHECK(!r->c.in_file);
	if (r->ret)
		return;
	mem = open_memstream(&r->text, &r->len);
	FUZZ_CHECK(mem && !manifest_write(mem, &r->sum));
	fclose(mem);
}

static void rawdir_read_release(struct rawdir_read *r)
{
	size_t i;

	collect_summary_release(&r->sum);
	for (i = 0; r->names && r->names[i]; i++)
		free(r->names[i]);
	free(r->names);
	free(r->text);
	check_sink_release(&r->c);
}

#endif
