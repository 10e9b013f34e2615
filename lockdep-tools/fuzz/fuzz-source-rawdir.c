// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the raw directory source (src/collect/sources.h,
 * source_rawdir()): the input is a whole raw directory, written into a
 * private one before each run:
 *
 *   MANIFEST text
 *   @@ kmsg                       (then each file: "@@ PATH", a line of
 *   its content                    its own, and its content up to the
 *   @@ files/proc/version          next line that starts with "@@ ", or
 *   ...                            the end)
 *
 * Invariants of a directory read: every file pushed to the sink ends
 * with the status and size the summary gives it, once, and one the
 * summary has arrived or not is pushed; a file's bytes are the size of
 * its file on disk; the kernel log records pushed are those the summary
 * counts (none when missing); the events bytes are those of the events
 * line; the file sizes and the record count the input MANIFEST writes
 * plainly are those read. And the MANIFEST round-trips: what manifest_write() makes of the
 * summary read is read back to the same summary (the same text again).
 *
 * Not checked here: number syntax (issue 32 item 9) and directories that
 * are symbolic links (item 2, none are made here), fixed apart.
 */
#include <stdbool.h>

#include "fuzz-rawdir.h"

/* The next "@@ " at a line's start in [s, end), or end. */
static const char *next_part(const char *s, const char *end)
{
	const char *p = memmem(s, end - s, "\n@@ ", 4);

	return p ? p + 1 : end;
}

/* Write the input's directory; false if it names no MANIFEST. */
static bool build_dir(const char *s, size_t size)
{
	const char *end = s + size, *next, *body, *nl;
	char name[256];
	size_t n;

	next = next_part(s, end);
	if (!fuzz_dir_put("MANIFEST", s, next - s))
		return false;
	while (next < end) {
		s = next + 3;
		nl = memchr(s, '\n', end - s);
		body = nl ? nl + 1 : end;
		n = (nl ? nl : end) - s;
		next = next_part(body, end);
		if (n < sizeof(name)) {
			memcpy(name, s, n);
			name[n] = '\0';
			fuzz_dir_put(name, body, next - body);
		}
	}
	return true;
}

/* The file @it stands for in fuzz_dir, and its size. */
static uint64_t disk_size(const struct file_item *it)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/files%s%s", fuzz_dir, it->path,
		 it->status == ITEM_INCOMPLETE ? ".incomplete" : "");
	FUZZ_CHECK(!stat(path, &st) && S_ISREG(st.st_mode));
	return st.st_size;
}

static const struct file_item *find(const struct collect_summary *sum,
				    const char *path)
{
	size_t i;

	for (i = 0; i < sum->nfiles; i++)
		if (!strcmp(sum->files[i].path, path))
			return &sum->files[i];
	return NULL;
}

static void check_read(const struct rawdir_read *r)
{
	const struct collect_summary *sum = &r->sum;
	const struct check_sink *c = &r->c;
	const struct file_item *it;
	size_t i, j, seen;

	for (i = 0; i < c->npushed; i++) {
		const struct pushed *p = &c->pushed[i];

		it = find(sum, p->path);
		FUZZ_CHECK(it && p->status == it->status &&
			   p->bytes == it->bytes);
		if (p->status != ITEM_MISSING)
			FUZZ_CHECK(disk_size(it) == p->bytes);
		for (j = 0; j < i; j++)
			FUZZ_CHECK(strcmp(c->pushed[j].path, p->path));
	}
	/* a file that arrived, even in part, was pushed */
	for (i = 0; i < sum->nfiles; i++) {
		for (seen = 0, j = 0; j < c->npushed; j++)
			seen += !strcmp(c->pushed[j].path, sum->files[i].path);
		FUZZ_CHECK(seen || sum->files[i].status == ITEM_MISSING);
	}
	FUZZ_CHECK(c->events == (sum->events.offered ? sum->events.bytes : 0));
	FUZZ_CHECK(c->kmsg_records == (sum->kmsg.status == ITEM_MISSING ? 0 :
				       sum->kmsg.records));
}

/* A field of plain decimal digits, as manifest_write() prints numbers. */
static bool plain_number(const char *s, size_t n, uint64_t *v)
{
	size_t i;

	if (!n || n > 19 || (s[0] == '0' && n > 1))
		return false;
	for (*v = 0, i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return true;
}

/* Field @k (0-based, split at single spaces) of the line at @s. */
static bool field(const char *s, const char *end, int k, const char **f,
		  size_t *n)
{
	const char *nl = memchr(s, '\n', end - s), *sp;

	end = nl ? nl : end;
	for (; k; k--) {
		sp = memchr(s, ' ', end - s);
		if (!sp)
			return false;
		s = sp + 1;
	}
	sp = memchr(s, ' ', end - s);
	*f = s;
	*n = (sp ? sp : end) - s;
	return true;
}

/*
 * The numbers of the input MANIFEST that are written plainly are those
 * read: each file's size, the kernel log's record count.
 */
static void check_numbers(const char *m, size_t len,
			  const struct rawdir_read *r)
{
	const char *end = m + len, *nl, *f, *p;
	const struct file_item *it;
	size_t n, pn;
	uint64_t v;
	char path[256];

	for (; m < end; m = nl + 1) {
		nl = memchr(m, '\n', end - m);
		if (!nl)
			nl = end;
		if (nl - m > 5 && !memcmp(m, "file ", 5) &&
		    field(m, end, 2, &p, &pn) && pn < sizeof(path) &&
		    field(m, end, 3, &f, &n) && plain_number(f, n, &v)) {
			memcpy(path, p, pn);
			path[pn] = '\0';
			it = find(&r->sum, path);
			if (it && it->status != ITEM_MISSING)
				FUZZ_CHECK(it->bytes == v);
		}
		if (nl - m > 5 && !memcmp(m, "kmsg ", 5) &&
		    field(m, end, 2, &f, &n) && plain_number(f, n, &v))
			FUZZ_CHECK(r->sum.kmsg.records == v);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rawdir_read r, again;

	fuzz_quiet_errors();
	fuzz_dir_reset(false);
	if (!build_dir((const char *)data, size))
		return 0;
	fuzz_read_rawdir(&r);
	if (!r.ret) {
		check_read(&r);
		check_numbers((const char *)data,
			      next_part((const char *)data,
					(const char *)data + size) -
			      (const char *)data, &r);
		/* the MANIFEST written from what was read, read back */
		FUZZ_CHECK(fuzz_dir_put("MANIFEST", r.text, r.len));
		fuzz_read_rawdir(&again);
		FUZZ_CHECK(!again.ret);
		check_read(&again);
		FUZZ_CHECK(again.len == r.len &&
			   !memcmp(again.text, r.text, r.len));
		rawdir_read_release(&again);
	}
	rawdir_read_release(&r);
	return 0;
}
