// SPDX-License-Identifier: GPL-2.0
/*
 * Building the index (index.h) of a binary opened from its DWARF.
 *
 * The answers are not worked out anew: they are sym_binary_source()'s
 * own, asked at every address where an answer can change. Which unit
 * holds an address (libdwfl's aranges), which line row (libdw's line
 * table) and which scope (dwarf-lines.c's spans) each depend only on
 * where the address falls among the arange bounds, the line rows and
 * the span starts. Between two consecutive such points every answer is
 * the one at the first, so asking at each point and keeping the changes
 * gives the same answer as asking at any address.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>

#include "symbolise/binary.h"
#include "symbolise/index.h"
#include "util/hash.h"
#include "util/hindex.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct u64s {
	unsigned long long *v;
	size_t nr, alloc;
};

struct builder {
	struct sym_binary *b;
	struct u64s points;
	struct strbuf strings;
	uint32_t *str_off;	/* string id -> offset */
	size_t nr_str, alloc_str;
	struct hindex str_tab;
	struct sym_index_inl *inls;
	size_t nr_inls, alloc_inls;
	struct hindex inl_tab;	/* key: the four words */
	uint64_t *starts;
	struct sym_index_val *vals;
	size_t nr_ranges, alloc_starts, alloc_vals;
};

static void add_point(void *data, unsigned long long addr)
{
	struct u64s *p = data;

	ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	p->v[p->nr++] = addr;
}

static int cmp_u64(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return (x > y) - (x < y);
}

/* The offset of @s in the strings (SYM_IX_NONE for NULL). */
static uint32_t string_of(struct builder *bd, const char *s)
{
	struct hindex_probe p;
	uint64_t h;
	uint32_t id;

	if (!s)
		return SYM_IX_NONE;
	h = str_hash(s);
	for (id = hindex_first(&bd->str_tab, h, &p); id != HINDEX_NONE;
	     id = hindex_next(&bd->str_tab, &p))
		if (!strcmp(bd->strings.buf + bd->str_off[id], s))
			return bd->str_off[id];
	id = (uint32_t)bd->nr_str;
	ALLOC_GROW(bd->str_off, bd->nr_str + 1, bd->alloc_str);
	bd->str_off[bd->nr_str++] = (uint32_t)bd->strings.len;
	strbuf_add(&bd->strings, s, strlen(s) + 1);
	hindex_add(&bd->str_tab, h, id);
	return bd->str_off[id];
}

/* The link of @f's inline calls from @k outwards (SYM_IX_NONE: none). */
static uint32_t chain_of(struct builder *bd, const struct ldr_frame *f,
			 size_t k)
{
	struct sym_index_inl l;
	struct hindex_probe p;
	uint64_t h;
	uint32_t id;

	if (k == f->nr_inl)
		return SYM_IX_NONE;
	l.next = chain_of(bd, f, k + 1);	/* below ours: index.h (4) */
	l.func = string_of(bd, f->inl[k].func);
	l.file = string_of(bd, f->inl[k].file);
	l.line = f->inl[k].line;
	h = fnv1a(&l, sizeof(l));
	for (id = hindex_first(&bd->inl_tab, h, &p); id != HINDEX_NONE;
	     id = hindex_next(&bd->inl_tab, &p))
		if (!memcmp(&bd->inls[id], &l, sizeof(l)))
			return id;
	ALLOC_GROW(bd->inls, bd->nr_inls + 1, bd->alloc_inls);
	bd->inls[bd->nr_inls] = l;
	hindex_add(&bd->inl_tab, h, (uint32_t)bd->nr_inls);
	return (uint32_t)bd->nr_inls++;
}

/* The answer at @pc, as a lookup of pc would get it. */
static struct sym_index_val answer_at(struct builder *bd,
				      unsigned long long pc)
{
	struct sym_index_val v = { SYM_IX_NONE, 0, SYM_IX_NO_UNIT };
	struct ldr_frame f = { 0 };
	Dwarf_Addr bias;

	/* sym_binary_source() leaves the frame alone without a unit */
	if (!dwfl_module_addrdie(bd->b->mod, pc, &bias))
		return v;
	sym_binary_source(bd->b, pc, &f, false);
	v.file = string_of(bd, f.file);
	v.line = f.line;
	v.inl = chain_of(bd, &f, 0);
	frame_release(&f);
	return v;
}

/*
 * Every point where an answer may change: the aranges' starts and ends
 * (libdwfl takes an address up to one past the last end as in the last
 * unit), the module's bounds, and each unit's lines and spans.
 */
static bool collect_points(struct builder *bd)
{
	struct sym_binary *b = bd->b;
	Dwarf_Aranges *ar;
	Dwarf_Addr lo, hi;
	size_t nr, i, nr_units = 0;
	Dwarf_Off *units;

	if (dwarf_getaranges(b->dwarf, &ar, &nr))
		return false;
	dwfl_module_info(b->mod, NULL, &lo, &hi, NULL, NULL, NULL, NULL);
	add_point(&bd->points, lo);
	add_point(&bd->points, hi);
	units = xmalloc((nr ? nr : 1) * sizeof(*units));
	for (i = 0; i < nr; i++) {
		Dwarf_Addr addr;
		Dwarf_Word len;
		Dwarf_Off off;

		if (dwarf_getarangeinfo(dwarf_onearange(ar, i), &addr, &len,
					&off))
			continue;
		add_point(&bd->points, addr + b->bias);
		add_point(&bd->points, addr + len + b->bias);
		add_point(&bd->points, addr + len + b->bias + 1);
		units[nr_units++] = off;
	}
	qsort(units, nr_units, sizeof(*units), cmp_u64);
	for (i = 0; i < nr_units; i++) {
		Dwarf_Die cu;

		if ((i && units[i] == units[i - 1]) ||
		    !dwarf_offdie(b->dwarf, units[i], &cu))
			continue;
		sym_binary_unit_points(b, &cu, b->bias, add_point,
				       &bd->points);
	}
	free(units);
	return true;
}

static void add_range(struct builder *bd, unsigned long long start,
		      struct sym_index_val v)
{
	if (bd->nr_ranges &&
	    !memcmp(&bd->vals[bd->nr_ranges - 1], &v, sizeof(v)))
		return;
	ALLOC_GROW(bd->starts, bd->nr_ranges + 1, bd->alloc_starts);
	ALLOC_GROW(bd->vals, bd->nr_ranges + 1, bd->alloc_vals);
	bd->starts[bd->nr_ranges] = start;
	bd->vals[bd->nr_ranges++] = v;
}

static void build_symbols(struct builder *bd, struct sym_index_image *img)
{
	struct sym_binary *b = bd->b;
	struct sym_index_sym *syms = xcalloc(b->nr_syms + 1, sizeof(*syms));
	uint32_t *by_name = xcalloc(b->nr_syms + 1, sizeof(*by_name));

	for (size_t i = 0; i < b->nr_syms; i++) {
		syms[i].addr = b->syms[i].addr;
		syms[i].size = b->syms[i].size;
		syms[i].span = b->syms[i].span;
		syms[i].name = string_of(bd, b->syms[i].name);
		by_name[i] = (uint32_t)(b->by_name[i] - b->syms);
	}
	img->h.table[SYM_IX_SYMS].nr = b->nr_syms;
	img->table[SYM_IX_SYMS] = syms;
	img->h.table[SYM_IX_BY_NAME].nr = b->nr_syms;
	img->table[SYM_IX_BY_NAME] = by_name;
}

bool sym_index_build(struct sym_binary *b, const char *dir)
{
	struct builder bd = { .b = b, .strings = STRBUF_INIT };
	struct sym_index_image img = { 0 };
	char *id = NULL;
	bool ok = false, own_dwarf;
	size_t i;

	/* the identity of the file the DWARF was read from, as it is now */
	if (!b->dwarf || !b->build_id ||
	    strlen(b->build_id) >= sizeof(img.h.build_id) ||
	    !sym_file_identity(b->path, &id, &own_dwarf, &img.h.elf) ||
	    !id || strcmp(id, b->build_id) || !collect_points(&bd))
		goto out;
	qsort(bd.points.v, bd.points.nr, sizeof(*bd.points.v), cmp_u64);
	for (i = 0; i < bd.points.nr; i++)
		if (!i || bd.points.v[i] != bd.points.v[i - 1])
			add_range(&bd, bd.points.v[i],
				  answer_at(&bd, bd.points.v[i]));
	build_symbols(&bd, &img);
	strcpy(img.h.build_id, b->build_id);
	img.h.table[SYM_IX_STARTS].nr = bd.nr_ranges;
	img.table[SYM_IX_STARTS] = bd.starts;
	img.h.table[SYM_IX_VALS].nr = bd.nr_ranges;
	img.table[SYM_IX_VALS] = bd.vals;
	img.h.table[SYM_IX_INLS].nr = bd.nr_inls;
	img.table[SYM_IX_INLS] = bd.inls;
	string_of(&bd, "");	/* the strings are never empty: index.h */
	img.h.table[SYM_IX_STRINGS].nr = bd.strings.len;
	img.table[SYM_IX_STRINGS] = bd.strings.buf;
	ok = bd.strings.len < SYM_IX_NO_UNIT && bd.nr_inls < SYM_IX_NO_UNIT &&
	     sym_index_write(&img, dir);
	free(img.table[SYM_IX_SYMS]);
	free(img.table[SYM_IX_BY_NAME]);
out:
	free(id);
	free(bd.points.v);
	strbuf_release(&bd.strings);
	free(bd.str_off);
	hindex_release(&bd.str_tab);
	free(bd.inls);
	hindex_release(&bd.inl_tab);
	free(bd.starts);
	free(bd.vals);
	return ok;
}
