/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One kernel binary (vmlinux or a module) opened for symbolisation:
 * internal to src/symbolise/.
 *
 * elf-index.c opens it through libdwfl (dwfl_report_offline(): vmlinux
 * at its link-time addresses, a relocatable .ko laid out by libdwfl),
 * reads its build id and builds its symbol index; dwarf-lines.c answers
 * file:line and inline chains from its DWARF, caching one map per
 * compilation unit. Addresses here are libdwfl's (the module's) addresses.
 */
#ifndef SYMBOLISE_BINARY_H
#define SYMBOLISE_BINARY_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stddef.h>

#include "parse/report.h"

struct sym_entry {
	const char *name;	/* owned by libelf */
	unsigned long long addr;
	unsigned long long size;	/* st_size */
	/* up to the next symbol (or section end): kallsyms' printed size */
	unsigned long long span;
};

struct cu_map;

struct sym_binary {
	char *path;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dwarf;		/* NULL if no DWARF (e.g. a stripped .ko) */
	Dwarf_Addr bias;
	char *build_id;		/* lower-case hex, or NULL */
	/* code symbols, sorted by address; by_name: the same, by name */
	struct sym_entry *syms;
	size_t nr_syms;
	struct sym_entry **by_name;
	/* CU DIE offset -> struct cu_map (open addressing) */
	struct cu_slot {
		unsigned long long off;
		struct cu_map *map;
	} *cus;
	size_t nr_cus, alloc_cus;
};

enum sym_find {
	SYM_FOUND,
	SYM_NONE,		/* no code symbol of that name */
	SYM_BAD_SIZE,		/* none of that name has a matching size */
	SYM_AMBIGUOUS,		/* several of that name and size */
};

/* Opens path; returns NULL after setting *err to a static reason. */
struct sym_binary *sym_binary_open(const char *path, const char **err);
void sym_binary_free(struct sym_binary *b);

/*
 * The address of func+off/size: the symbol named func whose st_size and
 * span allow the printed size (size 0: not printed, not checked).
 */
enum sym_find sym_binary_find(const struct sym_binary *b, const char *func,
			      unsigned long long off, unsigned long long size,
			      unsigned long long *addr);

/* The code symbol containing addr, or NULL. */
const struct sym_entry *sym_binary_at(const struct sym_binary *b,
				      unsigned long long addr);

/* elf-data.c: the address of symbol @name, of any type; false if none. */
bool sym_binary_lookup(const struct sym_binary *b, const char *name,
		       unsigned long long *addr);
/*
 * elf-data.c: the sized symbol (a data object, or code) holding @addr,
 * with @addr's offset in it to *@off; NULL if none holds it.
 */
const char *sym_binary_object_at(const struct sym_binary *b,
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
		       struct ldr_frame *f);

/* Frees the per-CU caches (dwarf-lines.c). */
void sym_binary_free_cus(struct sym_binary *b);

#endif
