// SPDX-License-Identifier: GPL-2.0
/*
 * A module file opened at the addresses the kernel loaded it at.
 *
 * The kernel lays a module out itself (sections grouped by kind, init
 * code apart) and tells where in /sys/module/NAME/sections/. This is
 * what elfutils' dwfl_linux_kernel_report_modules() does on a live
 * system, with the collected table instead of /sys: the .ko is reported
 * as a module spanning its loaded sections, handed to libdwfl by the
 * find_elf callback, and the section_address callback answers each
 * section's address from the table (or "not loaded"), so libdwfl's own
 * relocation places every symbol and DWARF address. Nothing here lays
 * sections out.
 *
 * Invariants:
 *  (1) b->loaded[] holds one range per SHF_ALLOC section of the file that
 *      the layout names and that has a size, sorted by address; a range
 *      never wraps, never starts at 0 and never overlaps another. A layout
 *      breaking this (kptr_restrict=2 shows every address as 0; a hostile
 *      guest sends anything) is refused: libdwfl would relocate symbols
 *      and lines on top of each other and answer wrong file:line.
 *  (2) The layout read by the callbacks is b's own copy, alive as long as
 *      b->dwfl.
 */
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolise/binary.h"
#include "util/xalloc.h"

const struct sym_section *sym_layout_find(const struct sym_layout *l,
					  const char *name)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->v[i].name, name))
			return &l->v[i];
	return NULL;
}

void sym_layout_release(struct sym_layout *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->v[i].name);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int loaded_find_elf(Dwfl_Module *mod, void **userdata,
			   const char *modname, Dwarf_Addr base,
			   char **file_name, Elf **elfp)
{
	const struct sym_binary *b = *userdata;
	const char *err;
	int fd = sym_open_regular(b->path, &err);

	(void)mod;
	(void)modname;
	(void)base;
	/* libdwfl opens (and decompresses) the file from fd; both its own */
	*elfp = NULL;
	if (fd >= 0)
		*file_name = strdup(b->path);
	return fd;
}

static int loaded_section_address(Dwfl_Module *mod, void **userdata,
				  const char *modname, Dwarf_Addr base,
				  const char *secname, GElf_Word shndx,
				  const GElf_Shdr *shdr, Dwarf_Addr *addr)
{
	const struct sym_binary *b = *userdata;
	const struct sym_section *s = sym_layout_find(&b->layout, secname);

	(void)mod;
	(void)modname;
	(void)base;
	(void)shndx;
	(void)shdr;
	/* -1: not loaded (.modinfo, __versions, ...), as libdwfl defines it */
	*addr = s ? s->addr : (Dwarf_Addr)-1;
	return DWARF_CB_OK;
}

static const Dwfl_Callbacks loaded_callbacks = {
	.find_elf = loaded_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = loaded_section_address,
};

static int cmp_range(const void *a, const void *b)
{
	const struct sym_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return (x->hi > y->hi) - (x->hi < y->hi);
}

/* The ranges of b's loaded sections (1), from the file's section headers. */
static bool loaded_ranges(struct sym_binary *b, const char **err)
{
	size_t shstrndx, alloc = 0;
	Elf_Scn *scn = NULL;
	GElf_Ehdr ehdr;
	bool ok = false;
	Elf *elf;
	int fd;

	fd = sym_open_regular(b->path, err);
	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	elf = dwelf_elf_begin(fd);
	if (!elf || !gelf_getehdr(elf, &ehdr) ||
	    elf_getshdrstrndx(elf, &shstrndx)) {
		*err = "not an ELF file";
		goto out;
	}
	if (ehdr.e_type != ET_REL) {
		*err = "not a relocatable module";
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		const struct sym_section *s;
		const char *name;
		GElf_Shdr shdr;

		if (!gelf_getshdr(scn, &shdr) || !(shdr.sh_flags & SHF_ALLOC) ||
		    !shdr.sh_size)
			continue;
		name = elf_strptr(elf, shstrndx, shdr.sh_name);
		s = name ? sym_layout_find(&b->layout, name) : NULL;
		if (!s)
			continue;
		if (s->addr + shdr.sh_size < s->addr) {
			*err = "a section's address wraps around";
			goto out;
		}
		ALLOC_GROW(b->loaded, b->nr_loaded + 1, alloc);
		b->loaded[b->nr_loaded].lo = s->addr;
		b->loaded[b->nr_loaded].hi = s->addr + shdr.sh_size;
		b->nr_loaded++;
	}
	if (!b->nr_loaded) {
		*err = "the layout names none of its sections";
		goto out;
	}
	qsort(b->loaded, b->nr_loaded, sizeof(*b->loaded), cmp_range);
	for (size_t i = 0; i < b->nr_loaded; i++)
		if (!b->loaded[i].lo ||
		    (i && b->loaded[i].lo < b->loaded[i - 1].hi)) {
			*err = SYM_LAYOUT_UNUSABLE;
			goto out;
		}
	ok = true;
out:
	elf_end(elf);
	close(fd);
	return ok;
}

struct sym_binary *sym_binary_open_loaded(const char *path, const char *name,
					  const struct sym_layout *layout,
					  const char **err)
{
	struct sym_binary *b = xcalloc(1, sizeof(*b));
	unsigned long long lo = ~0ULL, hi = 0;
	void **userdata;

	b->path = xstrdup(path);
	b->layout.v = xcalloc(layout->nr ? layout->nr : 1, sizeof(*b->layout.v));
	for (size_t i = 0; i < layout->nr; i++) {
		b->layout.v[i].name = xstrdup(layout->v[i].name);
		b->layout.v[i].addr = layout->v[i].addr;
	}
	b->layout.nr = b->layout.alloc = layout->nr;
	if (!loaded_ranges(b, err))
		goto fail;
	for (size_t i = 0; i < b->nr_loaded; i++) {
		if (b->loaded[i].lo < lo)
			lo = b->loaded[i].lo;
		if (b->loaded[i].hi > hi)
			hi = b->loaded[i].hi;
	}
	b->dwfl = dwfl_begin(&loaded_callbacks);
	if (!b->dwfl) {
		*err = dwfl_errmsg(-1);
		goto fail;
	}
	dwfl_report_begin(b->dwfl);
	b->mod = dwfl_report_module(b->dwfl, name, lo, hi);
	if (!b->mod || dwfl_report_end(b->dwfl, NULL, NULL)) {
		*err = dwfl_errmsg(-1);
		goto fail;
	}
	/* the callbacks find the file and the layout through userdata (2) */
	dwfl_module_info(b->mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	*userdata = b;
	if (sym_binary_load(b, err))
		return b;
fail:
	sym_binary_free(b);
	return NULL;
}

bool sym_binary_loaded_at(const struct sym_binary *b, unsigned long long addr)
{
	for (size_t i = 0; i < b->nr_loaded; i++)
		if (addr >= b->loaded[i].lo && addr < b->loaded[i].hi)
			return true;
	return false;
}
