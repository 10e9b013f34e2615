// SPDX-License-Identifier: GPL-2.0
/*
 * The index file (index.h): written atomically, read and checked before
 * use, and the lookups on a loaded one.
 *
 * A cache file is not trusted: it may be truncated (a full disk), of
 * another version or build, damaged, or written by anyone who can write
 * the cache directory. Every check of index.h (1) to (4) is made once,
 * when the file is loaded, so the lookups need none: a file failing one
 * is never used, and its binary is read from its DWARF as without a
 * cache (and the file rebuilt).
 *
 * The file is read into memory, not mapped: a mapping shows what a
 * writer does to the file in place afterwards (MAP_PRIVATE too, for the
 * pages not yet copied), so a file shrunk under a running symboliser
 * killed it with SIGBUS, and one rewritten in place would be read with
 * indexes that were never checked. The bytes checked are the bytes used.
 * It costs little: the CRC reads every byte anyway.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbolise/binary.h"
#include "symbolise/index.h"
#include "util/crc32.h"
#include "util/xalloc.h"

struct sym_index {
	void *map;		/* the file's bytes, read at open */
	size_t size;
	const struct sym_index_sym *syms;
	const uint32_t *by_name;
	const uint64_t *starts;
	const struct sym_index_val *vals;
	const struct sym_index_inl *inls;
	const char *strings;
	size_t nr[SYM_IX_NR];
	struct addr_search search;	/* over starts[] */
};

const size_t sym_index_elem_size[SYM_IX_NR] = {
	[SYM_IX_SYMS] = sizeof(struct sym_index_sym),
	[SYM_IX_BY_NAME] = sizeof(uint32_t),
	[SYM_IX_STARTS] = sizeof(uint64_t),
	[SYM_IX_VALS] = sizeof(struct sym_index_val),
	[SYM_IX_INLS] = sizeof(struct sym_index_inl),
	[SYM_IX_STRINGS] = 1,
};

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* crc32 of @size bytes at @p, its header's crc field taken as 0 */
static uint32_t file_crc(const unsigned char *p, size_t size)
{
	const size_t at = offsetof(struct sym_index_header, crc);
	static const unsigned char zero[4];
	uint32_t crc = crc32_fast(0, p, at);

	crc = crc32_fast(crc, zero, sizeof(zero));
	return crc32_fast(crc, p + at + 4, size - at - 4);
}

static bool write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		c += w;
		n -= (size_t)w;
	}
	return true;
}

bool sym_index_write(const struct sym_index_image *img, const char *dir)
{
	struct sym_index_header h = img->h;
	size_t off = align8(sizeof(h)), i;
	unsigned char *buf;
	char *path, *tmp;
	bool ok = false;
	int fd;

	memcpy(h.magic, SYM_INDEX_MAGIC, sizeof(h.magic));
	h.version = SYM_INDEX_VERSION;
	for (i = 0; i < SYM_IX_NR; i++) {
		h.table[i].off = off;
		off = align8(off + h.table[i].nr * sym_index_elem_size[i]);
	}
	h.size = off;
	h.crc = 0;
	buf = xcalloc(1, off);
	memcpy(buf, &h, sizeof(h));
	for (i = 0; i < SYM_IX_NR; i++)
		if (h.table[i].nr)
			memcpy(buf + h.table[i].off, img->table[i],
			       h.table[i].nr * sym_index_elem_size[i]);
	h.crc = file_crc(buf, off);
	memcpy(buf + offsetof(struct sym_index_header, crc), &h.crc,
	       sizeof(h.crc));

	path = sym_index_path(dir, h.build_id, ".idx");
	tmp = sym_index_path(dir, h.build_id, ".idx.tmpXXXXXX");
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd >= 0) {
		ok = write_all(fd, buf, off);
		ok = !close(fd) && ok && !rename(tmp, path);
		if (!ok)
			unlink(tmp);
	}
	free(buf);
	free(path);
	free(tmp);
	return ok;
}

/* (2): a string offset inside the strings, or SYM_IX_NONE when allowed */
static bool good_string(const struct sym_index *ix, uint32_t s, bool none)
{
	return s < ix->nr[SYM_IX_STRINGS] || (none && s == SYM_IX_NONE);
}

/* index.h (2) from the header @h: the writer's layout, no byte outside */
static bool check_layout(struct sym_index *ix, const struct sym_index_header *h)
{
	size_t i, end = align8(sizeof(*h));

	for (i = 0; i < SYM_IX_NR; i++) {
		uint64_t off = h->table[i].off, nr = h->table[i].nr;

		if (off != end || off > ix->size ||
		    nr > (ix->size - off) / sym_index_elem_size[i])
			return false;
		ix->nr[i] = nr;
		end = align8(off + nr * sym_index_elem_size[i]);
	}
	/* starts[] is searched by 32-bit indexes (addr-search.h) */
	return end == ix->size &&
	       ix->nr[SYM_IX_BY_NAME] == ix->nr[SYM_IX_SYMS] &&
	       ix->nr[SYM_IX_VALS] == ix->nr[SYM_IX_STARTS] &&
	       ix->nr[SYM_IX_STARTS] < UINT32_MAX &&
	       ix->nr[SYM_IX_STRINGS];
}

/* The tables of the loaded file; its strings end with a NUL (2). */
static bool find_tables(struct sym_index *ix)
{
	const struct sym_index_header *h = ix->map;

	ix->syms = (const void *)((char *)ix->map + h->table[SYM_IX_SYMS].off);
	ix->by_name = (const void *)((char *)ix->map +
				     h->table[SYM_IX_BY_NAME].off);
	ix->starts = (const void *)((char *)ix->map +
				    h->table[SYM_IX_STARTS].off);
	ix->vals = (const void *)((char *)ix->map + h->table[SYM_IX_VALS].off);
	ix->inls = (const void *)((char *)ix->map + h->table[SYM_IX_INLS].off);
	ix->strings = (const char *)ix->map + h->table[SYM_IX_STRINGS].off;
	return !ix->strings[ix->nr[SYM_IX_STRINGS] - 1];
}

static bool check_entries(const struct sym_index *ix)
{
	size_t i;

	for (i = 0; i < ix->nr[SYM_IX_SYMS]; i++)
		if (!good_string(ix, ix->syms[i].name, false) ||
		    ix->by_name[i] >= ix->nr[SYM_IX_SYMS])
			return false;
	for (i = 0; i < ix->nr[SYM_IX_INLS]; i++) {
		const struct sym_index_inl *l = &ix->inls[i];

		if (!good_string(ix, l->func, false) ||
		    !good_string(ix, l->file, true) ||
		    (l->next != SYM_IX_NONE && l->next >= i))
			return false;
	}
	for (i = 0; i < ix->nr[SYM_IX_STARTS]; i++) {
		const struct sym_index_val *v = &ix->vals[i];

		if ((i && ix->starts[i] <= ix->starts[i - 1]) ||
		    !good_string(ix, v->file, true) ||
		    (v->inl != SYM_IX_NONE && v->inl != SYM_IX_NO_UNIT &&
		     v->inl >= ix->nr[SYM_IX_INLS]))
			return false;
	}
	return true;
}

/* index.h (1) on the header @h of a file of @size bytes */
static bool check_header(const struct sym_index_header *h, size_t size,
			 const char *build_id,
			 const struct sym_elf_identity *elf)
{
	return !memcmp(h->magic, SYM_INDEX_MAGIC, 8) &&
	       h->version == SYM_INDEX_VERSION && h->size == size &&
	       memchr(h->build_id, '\0', sizeof(h->build_id)) &&
	       !strcasecmp(h->build_id, build_id) &&
	       h->elf.size == elf->size && h->elf.crc == elf->crc &&
	       !h->elf.pad;
}

static bool read_all(int fd, void *p, size_t n, off_t at)
{
	char *c = p;

	while (n) {
		ssize_t r = pread(fd, c, n, at);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		c += r;
		n -= (size_t)r;
		at += r;
	}
	return true;
}

/*
 * The file's bytes in memory once its header passed (1) and (2): a
 * header claiming a huge file is refused before anything is allocated
 * or read. False if the file is shorter than it said or changed meanwhile.
 */
static bool load(struct sym_index *ix, int fd, const char *build_id,
		 const struct sym_elf_identity *elf)
{
	struct sym_index_header h;

	if (ix->size < sizeof(h) || !read_all(fd, &h, sizeof(h), 0) ||
	    !check_header(&h, ix->size, build_id, elf) || !check_layout(ix, &h))
		return false;
	ix->map = malloc(ix->size);	/* no xmalloc: too large is refused */
	/* its lookups land all over it: 2 MiB pages spare the TLB */
	advise_huge_pages(ix->map, ix->size);
	return ix->map && read_all(fd, ix->map, ix->size, 0) &&
	       !memcmp(ix->map, &h, sizeof(h)) && find_tables(ix);
}

struct sym_index *sym_index_open(const char *dir, const char *build_id,
				 const struct sym_elf_identity *elf)
{
	char *path = sym_index_path(dir, build_id, ".idx");
	/*
	 * non-blocking: a FIFO put there must not hang the run; no link
	 * followed: the index is the directory's own file
	 */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	struct sym_index *ix;
	struct stat st;
	bool ok;

	free(path);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (unsigned long long)st.st_size > SIZE_MAX) {
		close(fd);
		return NULL;
	}
	ix = xcalloc(1, sizeof(*ix));
	ix->size = (size_t)st.st_size;
	ok = load(ix, fd, build_id, elf);
	close(fd);
	/* (3) and (4), on the bytes read */
	if (!ok || file_crc(ix->map, ix->size) !=
		   ((const struct sym_index_header *)ix->map)->crc ||
	    !check_entries(ix)) {
		sym_index_close(ix);
		return NULL;
	}
	addr_search_init(&ix->search, ix->starts, ix->nr[SYM_IX_STARTS]);
	return ix;
}

void sym_index_close(struct sym_index *ix)
{
	if (!ix)
		return;
	free(ix->map);
	addr_search_release(&ix->search);
	free(ix);
}

void sym_index_symbols(const struct sym_index *ix, struct sym_binary *b)
{
	size_t nr = ix->nr[SYM_IX_SYMS];

	b->syms = xcalloc(nr ? nr : 1, sizeof(*b->syms));
	b->by_name = xcalloc(nr ? nr : 1, sizeof(*b->by_name));
	for (size_t i = 0; i < nr; i++) {
		b->syms[i].name = ix->strings + ix->syms[i].name;
		b->syms[i].addr = ix->syms[i].addr;
		b->syms[i].size = ix->syms[i].size;
		b->syms[i].span = ix->syms[i].span;
	}
	for (size_t i = 0; i < nr; i++)
		b->by_name[i] = &b->syms[ix->by_name[i]];
	b->nr_syms = nr;
	sym_binary_index_addrs(b);
}

static const char *string_or_null(const struct sym_index *ix, uint32_t s)
{
	return s == SYM_IX_NONE ? NULL : ix->strings + s;
}

/* The range holding @pc: 1 + its index, 0 if below the first. */
static size_t range_of(const struct sym_index *ix, unsigned long long pc)
{
	return addr_search_upto(&ix->search, pc);
}

/* The answer of range @r (range_of()), NULL if it has no unit. */
static const struct sym_index_val *range_val(const struct sym_index *ix,
					     size_t r)
{
	if (!r || ix->vals[r - 1].inl == SYM_IX_NO_UNIT)
		return NULL;
	return &ix->vals[r - 1];
}

/* The answer of range @r (range_of()) into @f, as sym_index_source(). */
static bool answer(const struct sym_index *ix, size_t r, struct ldr_frame *f,
		   bool borrow)
{
	const struct sym_index_val *v = range_val(ix, r);
	size_t alloc = 0;

	if (!v)
		return false;	/* as without a unit: f untouched */
	sym_frame_clear_source(f, borrow);
	for (uint32_t k = v->inl; k != SYM_IX_NONE; k = ix->inls[k].next) {
		ALLOC_GROW(f->inl, f->nr_inl + 1, alloc);
		f->inl[f->nr_inl].func = sym_answer_string(borrow,
			ix->strings + ix->inls[k].func);
		f->inl[f->nr_inl].file = sym_answer_string(borrow,
			string_or_null(ix, ix->inls[k].file));
		f->inl[f->nr_inl].line = ix->inls[k].line;
		f->nr_inl++;
	}
	f->file = sym_answer_string(borrow, string_or_null(ix, v->file));
	f->line = v->line;
	return f->file != NULL;
}

bool sym_index_source(const struct sym_index *ix, unsigned long long pc,
		      struct ldr_frame *f, bool borrow)
{
	return answer(ix, range_of(ix, pc), f, borrow);
}

/* The string at @s, soon to be read; SYM_IX_NONE: none. */
static void prefetch_string(const struct sym_index *ix, uint32_t s)
{
	if (s != SYM_IX_NONE)
		__builtin_prefetch(ix->strings + s);
}

/*
 * A lookup reads a range's start, its answer, its inline links and
 * their strings, each depending on the one before: one cache miss
 * after another. So a batch is answered in passes over a chunk of
 * lookups, each pass asking the CPU for the lines the next one reads
 * (the misses of a whole chunk overlap), the last pass building the
 * answers from lines in the cache.
 */
#define CHUNK 256

size_t sym_index_sources(const struct sym_index *ix, struct sym_lookup *v,
			 size_t nr)
{
	size_t r[CHUNK], with_line = 0;

	for (size_t at = 0; at < nr; at += CHUNK) {
		size_t n = nr - at < CHUNK ? nr - at : CHUNK, i;

		for (i = 0; i < n; i++)
			__builtin_prefetch(addr_search_bucket(&ix->search,
							      v[at + i].pc));
		for (i = 0; i < n; i++)
			__builtin_prefetch(&ix->starts[*addr_search_bucket(
				&ix->search, v[at + i].pc)]);
		for (i = 0; i < n; i++) {
			r[i] = range_of(ix, v[at + i].pc);
			if (r[i])
				__builtin_prefetch(&ix->vals[r[i] - 1]);
		}
		for (i = 0; i < n; i++) {
			const struct sym_index_val *val = range_val(ix, r[i]);

			if (!val)
				continue;
			prefetch_string(ix, val->file);
			if (val->inl != SYM_IX_NONE)
				__builtin_prefetch(&ix->inls[val->inl]);
		}
		for (i = 0; i < n; i++) {
			const struct sym_index_val *val = range_val(ix, r[i]);

			if (!val || val->inl == SYM_IX_NONE)
				continue;
			prefetch_string(ix, ix->inls[val->inl].func);
			prefetch_string(ix, ix->inls[val->inl].file);
		}
		for (i = 0; i < n; i++)
			with_line += answer(ix, r[i], v[at + i].f,
					    v[at + i].borrow);
	}
	return with_line;
}
