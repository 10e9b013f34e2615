// SPDX-License-Identifier: GPL-2.0
/*
 * Opening a kernel binary with libdwfl and indexing its code symbols.
 *
 * The kernel prints a frame as func+off/size, where size is what
 * kallsyms computes: the distance to the next symbol, padding included,
 * not the ELF st_size. So each symbol keeps both, and a printed size is
 * accepted when st_size <= size <= span (span: up to the next symbol of
 * the section, or the section's end).
 *
 * Invariants:
 *  (1) syms[] holds the STT_FUNC/STT_NOTYPE symbols of executable
 *      sections, sorted by (addr, name); by_name[] points at the same
 *      entries sorted by name.
 *  (2) span >= 1 for every entry (aliases at one address share the span
 *      to the next higher address).
 */
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbolise/binary.h"
#include "symbolise/index.h"
#include "util/xalloc.h"

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

struct raw_sym {
	struct sym_entry e;
	unsigned long long sec_end;
};

static int cmp_addr(const void *a, const void *b)
{
	const struct raw_sym *x = a, *y = b;

	if (x->e.addr != y->e.addr)
		return x->e.addr < y->e.addr ? -1 : 1;
	return strcmp(x->e.name, y->e.name);
}

static int cmp_name(const void *a, const void *b)
{
	const struct sym_entry *const *x = a, *const *y = b;
	int c = strcmp((*x)->name, (*y)->name);

	if (c)
		return c;
	return (*x)->addr < (*y)->addr ? -1 : (*x)->addr > (*y)->addr;
}

/* Where the section of a symbol ends, in libdwfl's addresses. */
static bool section_end(Elf *elf, GElf_Word shndx, const GElf_Sym *sym,
			GElf_Addr addr, unsigned long long *end)
{
	GElf_Shdr shdr_mem, *shdr;
	GElf_Ehdr ehdr_mem, *ehdr;
	unsigned long long start;

	shdr = gelf_getshdr(elf_getscn(elf, shndx), &shdr_mem);
	ehdr = gelf_getehdr(elf, &ehdr_mem);
	if (!shdr || !ehdr || !(shdr->sh_flags & SHF_EXECINSTR))
		return false;
	/* st_value is section-relative in ET_REL, absolute otherwise */
	start = addr - sym->st_value +
		(ehdr->e_type == ET_REL ? 0 : shdr->sh_addr);
	*end = start + shdr->sh_size;
	return true;
}

static void index_symbols(struct sym_binary *b)
{
	struct raw_sym *raw = NULL;
	size_t nr = 0, alloc = 0, i, j;
	int n = dwfl_module_getsymtab(b->mod);

	for (int k = 1; k < n; k++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf;
		Dwarf_Addr bias;
		unsigned long long end;
		const char *name = dwfl_module_getsym_info(b->mod, k, &sym,
							   &addr, &shndx,
							   &elf, &bias);
		int type = GELF_ST_TYPE(sym.st_info);

		if (!name || !*name || (type != STT_FUNC && type != STT_NOTYPE))
			continue;
		if (shndx == SHN_UNDEF || shndx >= SHN_LORESERVE)
			continue;
		if (!section_end(elf, shndx, &sym, addr, &end) || addr >= end)
			continue;
		/* a section the kernel did not load has no address */
		if (b->nr_loaded && !sym_binary_loaded_at(b, addr))
			continue;
		ALLOC_GROW(raw, nr + 1, alloc);
		raw[nr].e.name = name;
		raw[nr].e.addr = addr;
		raw[nr].e.size = sym.st_size;
		raw[nr].sec_end = end;
		nr++;
	}
	qsort(raw, nr, sizeof(*raw), cmp_addr);
	b->syms = xcalloc(nr ? nr : 1, sizeof(*b->syms));
	b->by_name = xcalloc(nr ? nr : 1, sizeof(*b->by_name));
	for (i = 0; i < nr; i = j) {
		unsigned long long next;

		for (j = i; j < nr && raw[j].e.addr == raw[i].e.addr; j++)
			;
		next = raw[i].sec_end;
		if (j < nr && raw[j].e.addr < next)
			next = raw[j].e.addr;
		for (size_t k = i; k < j; k++) {
			b->syms[k] = raw[k].e;
			b->syms[k].span = next - raw[k].e.addr;
		}
	}
	for (i = 0; i < nr; i++)
		b->by_name[i] = &b->syms[i];
	qsort(b->by_name, nr, sizeof(*b->by_name), cmp_name);
	b->nr_syms = nr;
	sym_binary_index_addrs(b);
	free(raw);
}

void sym_binary_index_addrs(struct sym_binary *b)
{
	b->addrs = xmalloc((b->nr_syms ? b->nr_syms : 1) * sizeof(*b->addrs));
	for (size_t i = 0; i < b->nr_syms; i++)
		b->addrs[i] = b->syms[i].addr;
	addr_search_init(&b->sym_search, b->addrs, b->nr_syms);
}

static char *hex_build_id(Dwfl_Module *mod)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int len = dwfl_module_build_id(mod, &bits, &vaddr);
	char *hex;

	if (len <= 0)
		return NULL;
	hex = xmalloc(2 * len + 1);
	for (int i = 0; i < len; i++)
		sprintf(hex + 2 * i, "%02x", bits[i]);
	return hex;
}

int sym_open_regular(const char *path, const char **err)
{
	/* O_NONBLOCK: a FIFO opens at once, to be refused below */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0) {
		*err = strerror(errno);
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		*err = "not a regular file";
		return -1;
	}
	return fd;
}

/* b->path's libdwfl module, at its link-time (vmlinux) or offline addresses */
static bool report_offline(struct sym_binary *b, const char **err)
{
	int fd = sym_open_regular(b->path, err);

	if (fd < 0)
		return false;
	b->dwfl = dwfl_begin(&offline_callbacks);
	if (!b->dwfl) {
		close(fd);
		*err = dwfl_errmsg(-1);
		return false;
	}
	dwfl_report_begin(b->dwfl);
	/* the file checked above, not one put at its path since */
	b->mod = dwfl_report_offline(b->dwfl, b->path, b->path, fd);
	if (!b->mod)
		close(fd);	/* consumed only on success */
	if (!b->mod || dwfl_report_end(b->dwfl, NULL, NULL)) {
		*err = dwfl_errmsg(-1);
		return false;
	}
	return true;
}

struct sym_binary *sym_binary_open(const char *path, const char *cache_dir,
				   const char **err)
{
	struct sym_binary *b = xcalloc(1, sizeof(*b));
	bool indexable = false, own_dwarf = false;
	struct sym_elf_identity elf;
	char *id = NULL;

	b->path = xstrdup(path);
	if (cache_dir && sym_file_identity(path, &id, &own_dwarf, &elf))
		indexable = id && own_dwarf;
	if (indexable) {
		b->index = sym_index_open(cache_dir, id, &elf);
		if (b->index) {
			b->build_id = id;
			sym_index_symbols(b->index, b);
			return b;
		}
	}
	if (!report_offline(b, err) || !sym_binary_load(b, err)) {
		free(id);
		sym_binary_free(b);
		return NULL;
	}
	b->index_wanted = indexable && b->dwarf && b->build_id &&
			  !strcmp(b->build_id, id);
	free(id);
	return b;
}

struct sym_binary *sym_binary_open_twin(const struct sym_binary *b)
{
	struct sym_binary *t = xcalloc(1, sizeof(*t));
	const char *err;

	t->path = xstrdup(b->path);
	if (b->build_id && report_offline(t, &err)) {
		t->build_id = hex_build_id(t->mod);
		t->dwarf = dwfl_module_getdwarf(t->mod, &t->bias);
		if (t->dwarf)
			dwarf_sections_find(t->dwarf, &t->sec);
		if (t->build_id && !strcmp(t->build_id, b->build_id) &&
		    t->dwarf && t->bias == b->bias)
			return t;
	}
	sym_binary_free(t);
	return NULL;
}

Dwfl_Module *sym_binary_module(struct sym_binary *b)
{
	const char *err;
	char *id;

	if (b->mod || !b->index || b->dwfl)
		return b->mod;
	/* the file may have been replaced since its index was read */
	if (report_offline(b, &err)) {
		id = hex_build_id(b->mod);
		if (id && !strcmp(id, b->build_id) &&
		    dwfl_module_getsymtab(b->mod) > 0) {
			free(id);
			return b->mod;
		}
		free(id);
	}
	b->mod = NULL;	/* b->dwfl stays: not tried again */
	return NULL;
}

bool sym_binary_load(struct sym_binary *b, const char **err)
{
	if (dwfl_module_getsymtab(b->mod) <= 0) {
		*err = "no symbol table";
		return false;
	}
	b->build_id = hex_build_id(b->mod);
	/* NULL without DWARF: symbols still work, file:line does not */
	b->dwarf = dwfl_module_getdwarf(b->mod, &b->bias);
	if (b->dwarf)
		dwarf_sections_find(b->dwarf, &b->sec);
	index_symbols(b);
	return true;
}

void sym_binary_free(struct sym_binary *b)
{
	if (!b)
		return;
	sym_binary_free_cus(b);
	sym_index_close(b->index);
	if (b->dwfl)
		dwfl_end(b->dwfl);
	free(b->syms);
	free(b->by_name);
	free(b->addrs);
	addr_search_release(&b->sym_search);
	free(b->build_id);
	free(b->path);
	sym_layout_release(&b->layout);
	free(b->loaded);
	free(b);
}

bool sym_binary_has_dwarf(const struct sym_binary *b)
{
	return b->dwarf || b->index;
}

static bool size_fits(const struct sym_entry *e, unsigned long long off,
		      unsigned long long size)
{
	if (!size)	/* not printed: only the offset can be checked */
		return off < e->span;
	return off < size && size >= e->size && size <= e->span;
}

enum sym_find sym_binary_find(const struct sym_binary *b, const char *func,
			      unsigned long long off, unsigned long long size,
			      unsigned long long *addr)
{
	size_t lo = 0, hi = b->nr_syms;
	const struct sym_entry *found = NULL;
	bool named = false;

	while (lo < hi) {	/* first entry named func */
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(b->by_name[mid]->name, func) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < b->nr_syms && !strcmp(b->by_name[lo]->name, func); lo++) {
		const struct sym_entry *e = b->by_name[lo];

		named = true;
		if (!size_fits(e, off, size))
			continue;
		if (found && found->addr != e->addr)
			return SYM_AMBIGUOUS;
		found = e;
	}
	if (!found)
		return named ? SYM_BAD_SIZE : SYM_NONE;
	*addr = found->addr + off;
	return SYM_FOUND;
}

/*
 * In passes over all of @addr, each fetching what the next one reads:
 * the bucket, the addresses in it, the symbol, its name.
 */
void sym_binary_prefetch(const struct sym_binary *b, const uint64_t *addr,
			 size_t nr)
{
	const struct addr_search *as = &b->sym_search;
	size_t k[SYM_PREFETCH_MAX], i;

	for (i = 0; i < nr; i++)
		__builtin_prefetch(addr_search_bucket(as, addr[i]));
	for (i = 0; i < nr; i++)
		__builtin_prefetch(&as->v[*addr_search_bucket(as, addr[i])]);
	for (i = 0; i < nr; i++) {
		k[i] = addr_search_upto(as, addr[i]);
		if (k[i])
			__builtin_prefetch(&b->syms[k[i] - 1]);
	}
	for (i = 0; i < nr; i++)
		if (k[i])
			__builtin_prefetch(b->syms[k[i] - 1].name);
}

const struct sym_entry *sym_binary_at(const struct sym_binary *b,
				      unsigned long long addr)
{
	size_t lo = addr_search_upto(&b->sym_search, addr);
	const struct sym_entry *best = NULL;

	if (!lo || addr - b->syms[lo - 1].addr >= b->syms[lo - 1].span)
		return NULL;
	/*
	 * among aliases, prefer one that is sized (a function); whether
	 * there are any, b->addrs tells without reading another entry
	 */
	for (size_t i = lo; i-- > 0 && b->addrs[i] == b->addrs[lo - 1];)
		if (!best || (!best->size && b->syms[i].size))
			best = &b->syms[i];
	return best;
}
