// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the symbol index file (src/symbolise/index.h), as
 * a hostile cache directory would hold it: the header's magic, version,
 * size, build id, binary identity, table layout (the input's counts,
 * cut to what the input holds) and CRC are made right, so every input
 * reaches the structural checks of invariant (4); an index they let
 * through must answer any address without reading outside the file
 * (ASan) and with strings and chains that end, and a batch of lookups
 * (sym_index_sources()) as each alone.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "fuzz.h"
#include "symbolise/binary.h"
#include "symbolise/index.h"

static char dir[64];
static const struct sym_elf_identity elf = { .size = 1, .crc = 2 };

/* libFuzzer ends with exit(): no directory left behind per run */
static void remove_dir(void)
{
	char path[64];

	snprintf(path, sizeof(path), "%s/00.idx", dir);
	unlink(path);
	rmdir(dir);
}

static void write_index(const uint8_t *data, size_t size)
{
	struct sym_index_header h;
	unsigned char *buf = malloc(size);
	const size_t at = offsetof(struct sym_index_header, crc);
	char path[64];
	uLong crc;
	int fd;

	FUZZ_CHECK(buf != NULL);
	size_t off = (sizeof(h) + 7) & ~(size_t)7;

	memcpy(buf, data, size);
	memcpy(&h, buf, sizeof(h));
	memcpy(h.magic, SYM_INDEX_MAGIC, sizeof(h.magic));
	h.version = SYM_INDEX_VERSION;
	h.elf = elf;
	/* the writer's layout, each count cut to the bytes left */
	for (int i = 0; i < SYM_IX_NR; i++) {
		size_t left = off <= size ? size - off : 0;

		h.table[i].off = off;
		if (h.table[i].nr > left / sym_index_elem_size[i])
			h.table[i].nr = left / sym_index_elem_size[i];
		off = (off + h.table[i].nr * sym_index_elem_size[i] + 7) & ~(size_t)7;
	}
	if (off > size)
		off = size;	/* refused: the last table does not fit */
	size = off;
	h.size = size;
	memset(h.build_id, 0, sizeof(h.build_id));
	strcpy(h.build_id, "00");
	h.crc = 0;
	memcpy(buf, &h, sizeof(h));
	crc = crc32(0, buf, at + 4);
	h.crc = (uint32_t)crc32(crc, buf + at + 4, size - at - 4);
	memcpy(buf + at, &h.crc, sizeof(h.crc));
	snprintf(path, sizeof(path), "%s/00.idx", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	FUZZ_CHECK(fd >= 0);
	FUZZ_CHECK(write(fd, buf, size) == (ssize_t)size);
	close(fd);
	free(buf);
}

static bool same_string(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

/* The input's words as addresses, answered in one batch and one by one. */
static void check_batch(const struct sym_index *ix, const uint8_t *data,
			size_t size)
{
	size_t nr = size / 8, lines = 0, with_line;
	struct ldr_frame *one = calloc(nr + 1, sizeof(*one));
	struct ldr_frame *all = calloc(nr + 1, sizeof(*all));
	struct sym_lookup *v = calloc(nr + 1, sizeof(*v));

	FUZZ_CHECK(one && all && v);
	for (size_t i = 0; i < nr; i++) {
		memcpy(&v[i].pc, data + 8 * i, sizeof(v[i].pc));
		v[i].f = &all[i];
		lines += sym_index_source(ix, v[i].pc, &one[i], false);
	}
	with_line = sym_index_sources(ix, v, nr);
	FUZZ_CHECK(with_line == lines);
	for (size_t i = 0; i < nr; i++) {
		FUZZ_CHECK(same_string(one[i].file, all[i].file) &&
			   one[i].line == all[i].line &&
			   one[i].nr_inl == all[i].nr_inl);
		for (size_t k = 0; k < one[i].nr_inl; k++)
			FUZZ_CHECK(same_string(one[i].inl[k].func,
					       all[i].inl[k].func) &&
				   same_string(one[i].inl[k].file,
					       all[i].inl[k].file) &&
				   one[i].inl[k].line == all[i].inl[k].line);
		frame_release(&one[i]);
		frame_release(&all[i]);
	}
	free(one);
	free(all);
	free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool made;
	struct sym_binary b = { 0 };
	struct sym_index *ix;

	if (!made) {
		snprintf(dir, sizeof(dir), "%s/ldt-fuzz-index.XXXXXX",
			 fuzz_tmpdir());
		FUZZ_CHECK(mkdtemp(dir) != NULL);
		atexit(remove_dir);
		made = true;
	}
	if (size < sizeof(struct sym_index_header))
		return 0;
	write_index(data, size);
	ix = sym_index_open(dir, "00", &elf);
	if (!ix)
		return 0;
	sym_index_symbols(ix, &b);
	for (size_t i = 0; i < b.nr_syms; i++)
		fuzz_touch(b.syms[i].name, strlen(b.syms[i].name));
	/* every address a range starts at, and around */
	for (size_t i = 0; i + 8 <= size; i += 8) {
		struct ldr_frame f = { 0 };
		unsigned long long pc;

		memcpy(&pc, data + i, sizeof(pc));
		for (int d = -1; d <= 1; d++) {
			if (sym_index_source(ix, pc + d, &f, false)) {
				FUZZ_CHECK(f.file != NULL);
				fuzz_touch(f.file, strlen(f.file));
			}
			for (size_t k = 0; k < f.nr_inl; k++)
				fuzz_touch(f.inl[k].func,
					   strlen(f.inl[k].func));
		}
		frame_release(&f);
	}
	check_batch(ix, data, size);
	free(b.syms);
	free(b.by_name);
	free(b.addrs);
	addr_search_release(&b.sym_search);
	sym_index_close(ix);
	return 0;
}
