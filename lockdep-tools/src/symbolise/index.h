/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The symbol index of one kernel binary, cached on disk by build id:
 * internal to src/symbolise/.
 *
 * Reading DWARF is the fixed cost of symbolisation. The index holds what
 * the DWARF answers, worked out once for every address: the binary's
 * address space cut into ranges, each with the answer sym_binary_source()
 * gives for any address in it (file:line and inline chain, or "no unit
 * here"), and the code symbols of elf-index.c. A later run reads the file
 * and answers with two searches (addr-search.h: the symbol, the range),
 * without opening the DWARF.
 *
 * index-build.c builds it from a binary opened from its DWARF;
 * index-file.c writes (temp file + rename) and reads it (into memory: a
 * file changed in place under a run cannot change what was checked);
 * index-cache.c names the files and builds them in the background of
 * the first run.
 *
 * File format (native byte order; the version tells a foreign one), every
 * table 8-byte aligned:
 *   struct sym_index_header
 *   SYM_IX_SYMS     struct sym_index_sym[]   by (addr, name), as b->syms
 *   SYM_IX_BY_NAME  uint32_t[]               indices into syms, by name
 *   SYM_IX_STARTS   uint64_t[]               range starts, increasing
 *   SYM_IX_VALS     struct sym_index_val[]   the answer of each range
 *   SYM_IX_INLS     struct sym_index_inl[]   inline chain links
 *   SYM_IX_STRINGS  char[]                   NUL-terminated, last byte NUL
 *
 * Invariants, checked when a file is read (a file failing any is
 * refused and rebuilt, never used), the cheap ones first, so that a
 * file too large for its tables is refused before its CRC is computed:
 *  (1) magic, version, size (the file's), build id (the binary's) and
 *      the binary's identity (struct sym_elf_identity: the file the
 *      index claims to describe, not another build or a stripped copy
 *      with the same build id) match.
 *  (2) The tables lie in the file one after the other as the writer
 *      lays them out (each at the 8-byte boundary after the one before,
 *      the file ending with the last): no byte is outside a table.
 *      Fewer than 2^32 - 1 ranges (their search holds 32-bit indexes).
 *  (3) The CRC-32 of the whole file (crc field as 0) matches.
 *  (4) Every string offset is inside SYM_IX_STRINGS; every index is
 *      inside its table; an inline link's next is below its own index
 *      (chains end); starts[] increase.
 *
 * The CRC is no seal: anyone who may write the cache directory can
 * write an index that passes every check, with wrong answers. So the
 * directory is used only if it is its user's alone (owned by the user,
 * writable by no group or other: sym_cache_dir_refused()), and every
 * cache file is opened without following a symbolic link.
 */
#ifndef SYMBOLISE_INDEX_H
#define SYMBOLISE_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse/elf-notes.h"
#include "parse/report.h"

struct sym_binary;
struct sym_entry;
struct sym_lookup;

#define SYM_INDEX_MAGIC		"LDTSYMIX"
#define SYM_INDEX_VERSION	2u
#define SYM_IX_NONE		UINT32_MAX	/* no string, no link */
#define SYM_IX_NO_UNIT		(UINT32_MAX - 1)	/* val.inl: no unit */

enum sym_ix_table {
	SYM_IX_SYMS,
	SYM_IX_BY_NAME,
	SYM_IX_STARTS,
	SYM_IX_VALS,
	SYM_IX_INLS,
	SYM_IX_STRINGS,
	SYM_IX_NR
};

/*
 * Which file a binary is, cheaply: its size and the CRC-32 of its ELF
 * header and section headers (where every section lies, and how large
 * it is), which a rebuild, a strip or a change of the debug info moves.
 */
struct sym_elf_identity {
	uint64_t size;
	uint32_t crc;
	uint32_t pad;		/* 0 */
};

/* the size of one element of each table, as the file lays it out */
extern const size_t sym_index_elem_size[SYM_IX_NR];

struct sym_index_header {
	char magic[8];
	uint32_t version;
	uint32_t crc;
	uint64_t size;
	char build_id[2 * ELF_NOTES_MAX_BUILD_ID + 8];
	struct sym_elf_identity elf;	/* of the binary indexed */
	struct {
		uint64_t off, nr;
	} table[SYM_IX_NR];
};

struct sym_index_sym {
	uint64_t addr, size, span;
	uint32_t name;
	uint32_t pad;
};

/* The answer of a range: sym_binary_source()'s frame file:line and chain. */
struct sym_index_val {
	uint32_t file;		/* string, or SYM_IX_NONE */
	uint32_t line;
	uint32_t inl;		/* innermost link, SYM_IX_NONE, SYM_IX_NO_UNIT */
};

/* One inlined call: ldr_inline, and the next outer one. */
struct sym_index_inl {
	uint32_t func;		/* string */
	uint32_t file;		/* string, or SYM_IX_NONE */
	uint32_t line;
	uint32_t next;		/* SYM_IX_NONE for the outermost */
};

struct sym_index;

/* index-file.c */

/*
 * The image of an index in memory, built by index-build.c: the header's
 * tables filled in, crc and size not yet.
 */
struct sym_index_image {
	struct sym_index_header h;
	void *table[SYM_IX_NR];
};

/*
 * Writes @img as @dir/@build_id.idx: a temporary file in @dir renamed
 * over it, so a reader sees the old file or the whole new one. False on
 * any error (nothing is left behind).
 */
bool sym_index_write(const struct sym_index_image *img, const char *dir);

/*
 * Reads @dir/@build_id.idx if it passes every check above against the
 * binary @elf; NULL if it is missing, stale or damaged (nothing said:
 * the caller rebuilds it).
 */
struct sym_index *sym_index_open(const char *dir, const char *build_id,
				 const struct sym_elf_identity *elf);
void sym_index_close(struct sym_index *ix);

/*
 * The index's code symbols as elf-index.c's arrays (names point into the
 * loaded file): b->syms, b->nr_syms, b->by_name.
 */
void sym_index_symbols(const struct sym_index *ix, struct sym_binary *b);

/* sym_binary_source() for an index-backed binary: the same answers. */
bool sym_index_source(const struct sym_index *ix, unsigned long long pc,
		      struct ldr_frame *f, bool borrow);

/*
 * sym_index_source() for each of @v's @nr lookups (all on this index's
 * binary); returns how many found a line.
 */
size_t sym_index_sources(const struct sym_index *ix, struct sym_lookup *v,
			 size_t nr);

/* index-build.c: the index of @b (opened from its DWARF) into @dir. */
bool sym_index_build(struct sym_binary *b, const char *dir);

/* index-cache.c */

/* @dir/@build_id@ext, allocated. */
char *sym_index_path(const char *dir, const char *build_id, const char *ext);

/*
 * The build id of the file @path, its identity (@elf) and whether the
 * file has DWARF of its own (a .debug_info section): only such files are
 * indexed, so the index of one build is never answered for a stripped
 * copy of it. False if the file cannot be read as ELF.
 */
bool sym_file_identity(const char *path, char **build_id, bool *own_dwarf,
		       struct sym_elf_identity *elf);

/*
 * Why the cache directory @dir may not be used (it is a symbolic link or
 * not a directory, is not the user's, or a group or others may write
 * it), allocated; NULL
 * if it may, or does not exist (yet).
 */
char *sym_cache_dir_refused(const char *dir);

/*
 * Creates @dir and its parents as needed, @dir itself only for its user
 * (0700). False, with errno set, if it cannot.
 */
bool sym_cache_dir_make(const char *dir);

/* A binary to index: its file and the build id it must have. */
struct sym_index_job {
	char *path;
	char *build_id;
};

/*
 * Builds the index of each job in a detached background process, which
 * holds @dir/BUILD_ID.lock (flock) while it works: a job whose lock is
 * held (another process is building it) is left to that process. Returns
 * at once. @dir exists and is not refused (sym_cache_dir_make(),
 * sym_cache_dir_refused()).
 */
void sym_index_build_background(const char *dir,
				const struct sym_index_job *jobs, size_t nr);

#endif
