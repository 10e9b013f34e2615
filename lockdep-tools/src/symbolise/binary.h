/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One kernel binary (vmlinux or a module) opened for symbolisation:
 * internal to src/symbolise/.
 *
 * elf-index.c opens it through libdwfl (dwfl_report_offline(): vmlinux
 * at its link-time addresses, a relocatable .ko laid out by libdwfl),
 * reads its build id and builds its symbol index; module-layout.c opens a
 * .ko at the addresses the kernel loaded its sections at instead;
 * dwarf-lines.c answers
 * file:line and inline chains from its DWARF, caching one map per
 * compilation unit. Addresses here are libdwfl's (the module's) addresses.
 */
#ifndef SYMBOLISE_BINARY_H
#define SYMBOLISE_BINARY_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stddef.h>

#include "parse/report.h"
#include "symbolise/addr-search.h"
#include "symbolise/dwarf-dies.h"
#include "symbolise/dwarf-read.h"
#include "util/hindex.h"
#include "util/xalloc.h"

struct sym_entry {
	const char *name;	/* owned by libelf */
	unsigned long long addr;
	unsigned long long size;	/* st_size */
	/* up to the next symbol (or section end): kallsyms' printed size */
	unsigned long long span;
};

struct cu_map;

/* Where the kernel loaded one section of a module. */
struct sym_section {
	char *name;
	unsigned long long addr;
};

/* A module's loaded sections (/sys/module/NAME/sections/), by name. */
struct sym_layout {
	struct sym_section *v;
	size_t nr, alloc;
};

/* An address range [lo, hi) a loaded section covers. */
struct sym_range {
	unsigned long long lo, hi;
};

struct sym_index;

struct sym_binary {
	char *path;
	/*
	 * Opened from its DWARF: dwfl, mod, dwarf. From a cached index
	 * (index.h): index, and dwfl/mod only once elf-data.c needs them
	 * (sym_binary_module()); dwarf stays NULL.
	 */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dwarf;		/* NULL if no DWARF (e.g. a stripped .ko) */
	struct dwarf_sections sec;	/* dwarf's, read by dwarf-dies.c, line-table.c */
	struct sym_index *index;
	/* opened from DWARF, a cache was asked for and it has none yet */
	bool index_wanted;
	Dwarf_Addr bias;
	char *build_id;		/* lower-case hex, or NULL */
	/* code symbols, sorted by address; by_name: the same, by name */
	struct sym_entry *syms;
	size_t nr_syms;
	struct sym_entry **by_name;
	/* syms[i].addr alone, and sym_binary_at()'s search over them */
	uint64_t *addrs;
	struct addr_search sym_search;
	/* CU DIE offset -> struct cu_map, as met; cu_index by offset */
	struct cu_slot {
		unsigned long long off;
		struct cu_map *map;
	} *cus;
	size_t nr_cus, alloc_cus;
	struct hindex cu_index;
	/*
	 * A module opened at its load addresses (module-layout.c): its
	 * layout (read by libdwfl's section_address callback) and the
	 * ranges its loaded sections cover; nr_loaded 0 otherwise.
	 */
	struct sym_layout layout;
	struct sym_range *loaded;
	size_t nr_loaded;
};

enum sym_find {
	SYM_FOUND,
	SYM_NONE,		/* no code symbol of that name */
	SYM_BAD_SIZE,		/* none of that name has a matching size */
	SYM_AMBIGUOUS,		/* several of that name and size */
};

/*
 * elf-index.c: @path opened for reading if it is a regular file, else -1
 * with *@err set to a static reason. Never blocks: a FIFO put where a
 * binary should be (NAME.ko, a build-id path) is refused, not waited on.
 */
int sym_open_regular(const char *path, const char **err);

/*
 * Opens path; returns NULL after setting *err to a static reason. With
 * @cache_dir (else NULL), from its index there when one is valid for the
 * file's build id; else from the DWARF, with index_wanted set when the
 * file can be indexed (index-cache.c builds it later).
 */
struct sym_binary *sym_binary_open(const char *path, const char *cache_dir,
				   const char **err);

/*
 * elf-index.c: a second handle on the file of @b, opened from its DWARF,
 * for another thread: libdw's and libdwfl's state is per handle and not
 * shared between threads. Lines only (no symbols); checked to be of
 * b's build and at b's bias. NULL if it cannot be opened so.
 */
struct sym_binary *sym_binary_open_twin(const struct sym_binary *b);

/*
 * elf-index.c: b's libdwfl module, opened now for an index-backed binary
 * (and checked to be of its build); NULL if it cannot be.
 */
Dwfl_Module *sym_binary_module(struct sym_binary *b);
void sym_binary_free(struct sym_binary *b);

/*
 * elf-index.c: once b->dwfl holds b->mod, read its symbol table, build id
 * and DWARF and index its code symbols. False after setting *err.
 */
bool sym_binary_load(struct sym_binary *b, const char **err);

/*
 * module-layout.c: opens the module file @path (ET_REL) as module @name
 * loaded at @layout: libdwfl relocates its symbols and DWARF with each
 * section at the address @layout gives, and treats a section @layout
 * does not name as not loaded. NULL after setting *err; *err is
 * SYM_LAYOUT_UNUSABLE when a loaded section is at 0 or two overlap.
 */
#define SYM_LAYOUT_UNUSABLE \
	"section addresses hidden (kptr_restrict?) or overlapping"

struct sym_binary *sym_binary_open_loaded(const char *path, const char *name,
					  const struct sym_layout *layout,
					  const char **err);

/* module-layout.c: true when one of b's loaded sections holds @addr. */
bool sym_binary_loaded_at(const struct sym_binary *b, unsigned long long addr);

/* module-layout.c: the section of @l named @name, or NULL. */
const struct sym_section *sym_layout_find(const struct sym_layout *l,
					  const char *name);
void sym_layout_release(struct sym_layout *l);

/*
 * The address of func+off/size: the symbol named func whose st_size and
 * span allow the printed size (size 0: not printed, not checked).
 */
enum sym_find sym_binary_find(const struct sym_binary *b, const char *func,
			      unsigned long long off, unsigned long long size,
			      unsigned long long *addr);

/* elf-index.c: b->addrs from b->syms, once syms[] is complete. */
void sym_binary_index_addrs(struct sym_binary *b);

/* The code symbol containing addr, or NULL. */
const struct sym_entry *sym_binary_at(const struct sym_binary *b,
				      unsigned long long addr);

/*
 * sym_binary_at() will be asked for each of @addr[0..nr) (nr at most
 * SYM_PREFETCH_MAX): the lines it reads (the symbol and its name) are
 * fetched into the CPU cache now, all at once, instead of one miss
 * after another then.
 */
#define SYM_PREFETCH_MAX 256
void sym_binary_prefetch(const struct sym_binary *b, const uint64_t *addr,
			 size_t nr);

/* elf-data.c: the address of symbol @name, of any type; false if none. */
bool sym_binary_lookup(struct sym_binary *b, const char *name,
		       unsigned long long *addr);
/*
 * elf-data.c: the sized symbol (a data object, or code) holding @addr,
 * with @addr's offset in it to *@off; NULL if none holds it.
 */
const char *sym_binary_object_at(struct sym_binary *b,
				 unsigned long long addr,
				 unsigned long long *off);

/* True when the binary has DWARF. */
bool sym_binary_has_dwarf(const struct sym_binary *b);

/*
 * Source of pc (already adjusted for return addresses) into f: file,
 * line and the inline chain (replacing what f had). Returns true when a
 * line was found.
 */
bool sym_binary_source(struct sym_binary *b, unsigned long long pc,
		       struct ldr_frame *f, bool borrow);

/* An address to look up in a binary, and the frame its answer goes to. */
struct sym_lookup {
	struct sym_binary *bin;
	unsigned long long pc;
	struct ldr_frame *f;
	bool borrow;		/* SYMBOLISE_BORROW */
};

/*
 * dwarf-lines.c: sym_binary_source() for each of @v's @nr lookups, each
 * in its own binary (runs of one index-backed binary answered together:
 * sym_index_sources()); returns how many found a line.
 */
size_t sym_binary_sources(struct sym_lookup *v, size_t nr);

/*
 * dwarf-lines.c, for index-build.c: every address (in b's addresses, DWARF
 * address + @bias) where the answer of sym_binary_source() may change
 * inside the unit of @cudie: its span starts and line table rows.
 */
void sym_binary_unit_points(struct sym_binary *b, Dwarf_Die *cudie,
			    unsigned long long bias,
			    void (*add)(void *data, unsigned long long addr),
			    void *data);

/*
 * dwarf-lines.c: frees f's file, line and inline chain (unless they are
 * borrowed), and marks whether the answer put in their place borrows
 * its strings (@borrow).
 */
void sym_frame_clear_source(struct ldr_frame *f, bool borrow);

/* @s as an answer's string: itself when borrowing, else a copy. */
static inline char *sym_answer_string(bool borrow, const char *s)
{
	return borrow || !s ? (char *)s : xstrdup(s);
}

/* Frees the per-CU caches (dwarf-lines.c). */
void sym_binary_free_cus(struct sym_binary *b);

#endif
