// SPDX-License-Identifier: GPL-2.0
/*
 * A unit's scopes read from .debug_info by its abbreviations
 * (dwarf-dies.h).
 *
 * Invariants:
 *  (1) Every read is checked against the end of the unit (or of the
 *      abbreviation section): a cursor that would pass it is marked bad
 *      and reads nothing more.
 *  (2) A DIE's abbreviation is found by its code in a table of the
 *      unit's abbreviations (codes above ABBREV_CODE_MAX are refused:
 *      producers number them from 1).
 *  (3) A DW_AT_sibling is followed only forwards and inside the unit,
 *      as libdw's dwarf_siblingof() follows it.
 */
#include <dwarf.h>
#include <gelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "symbolise/dwarf-dies.h"
#include "util/xalloc.h"

#define ABBREV_CODE_MAX (1u << 20)

struct cursor {
	const unsigned char *p, *end;
	bool swap, bad;
};

static bool need(struct cursor *c, size_t n)
{
	if (c->bad || (size_t)(c->end - c->p) < n)
		c->bad = true;
	return !c->bad;
}

/* an unsigned value of @n bytes (n <= 8) in the file's byte order */
static uint64_t get_u(struct cursor *c, size_t n)
{
	uint64_t v = 0;

	if (!need(c, n))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (c->swap)
			v = v << 8 | c->p[i];
		else
			v |= (uint64_t)c->p[i] << (8 * i);
	c->p += n;
	return v;
}

static uint64_t get_uleb(struct cursor *c)
{
	uint64_t v = 0;
	unsigned int shift = 0;

	while (!c->bad && need(c, 1)) {
		unsigned char b = *c->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	return 0;
}

static void skip(struct cursor *c, uint64_t n)
{
	if (need(c, n))
		c->p += n;
}

struct unit {
	const struct die_sections *sec;
	const unsigned char *start;	/* the unit header */
	unsigned int version, offset_size, addr_size;
};

/* The bytes of a value of @form that do not depend on it, else -1. */
static long fixed_len(const struct unit *u, uint64_t form)
{
	switch (form) {
	case DW_FORM_flag_present:
	case DW_FORM_implicit_const:
		return 0;
	case DW_FORM_data1:
	case DW_FORM_ref1:
	case DW_FORM_flag:
	case DW_FORM_strx1:
	case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2:
	case DW_FORM_ref2:
	case DW_FORM_strx2:
	case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3:
	case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4:
	case DW_FORM_ref4:
	case DW_FORM_strx4:
	case DW_FORM_addrx4:
	case DW_FORM_ref_sup4:
		return 4;
	case DW_FORM_data8:
	case DW_FORM_ref8:
	case DW_FORM_ref_sig8:
	case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_addr:
		return u->addr_size;
	case DW_FORM_ref_addr:
		return u->version == 2 ? u->addr_size : u->offset_size;
	case DW_FORM_strp:
	case DW_FORM_line_strp:
	case DW_FORM_sec_offset:
	case DW_FORM_strp_sup:
	case DW_FORM_GNU_ref_alt:
	case DW_FORM_GNU_strp_alt:
		return u->offset_size;
	default:
		return -1;
	}
}

/* Skips a value of @form at @c; false (c bad) for an unknown form. */
static bool skip_value(const struct unit *u, struct cursor *c, uint64_t form)
{
	long n = fixed_len(u, form);

	if (n >= 0) {
		skip(c, (uint64_t)n);
		return !c->bad;
	}
	switch (form) {
	case DW_FORM_udata:
	case DW_FORM_sdata:
	case DW_FORM_ref_udata:
	case DW_FORM_strx:
	case DW_FORM_addrx:
	case DW_FORM_loclistx:
	case DW_FORM_rnglistx:
	case DW_FORM_GNU_addr_index:
	case DW_FORM_GNU_str_index:
		get_uleb(c);
		break;
	case DW_FORM_string: {
		const unsigned char *nul = c->bad ? NULL :
			memchr(c->p, '\0', (size_t)(c->end - c->p));

		if (nul)
			c->p = nul + 1;
		else
			c->bad = true;
		break;
	}
	case DW_FORM_block1:
		skip(c, get_u(c, 1));
		break;
	case DW_FORM_block2:
		skip(c, get_u(c, 2));
		break;
	case DW_FORM_block4:
		skip(c, get_u(c, 4));
		break;
	case DW_FORM_block:
	case DW_FORM_exprloc:
		skip(c, get_uleb(c));
		break;
	case DW_FORM_indirect:
		form = get_uleb(c);
		/* an indirect form naming itself is no form */
		if (!c->bad && form != DW_FORM_indirect)
			return skip_value(u, c, form);
		c->bad = true;
		break;
	default:
		c->bad = true;
	}
	return !c->bad;
}

struct attr_spec {
	uint64_t name, form;
};

struct abbrev {
	uint64_t code, tag;
	bool children;
	size_t first, nr;	/* into walk.attrs */
	long size;		/* of all attributes, -1 if not fixed */
};

struct walk {
	struct unit u;
	const unsigned char *end;	/* of the unit */
	struct attr_spec *attrs;
	size_t nr_attrs, alloc_attrs;
	struct abbrev *abbrevs;
	size_t nr_abbrevs, alloc_abbrevs;
	uint32_t *by_code;	/* code -> abbrevs[] + 1, 0: none */
	size_t nr_codes;
	int *stack;		/* the scope of each open level */
	size_t depth, alloc_stack;
	struct die_range *ranges;
	size_t nr_ranges, alloc_ranges;
};

/* The unit's abbreviations at @off in .debug_abbrev; false if unreadable. */
static bool read_abbrevs(struct walk *w, uint64_t off)
{
	const struct die_sections *s = w->u.sec;
	struct cursor c = { s->abbrev, s->abbrev + s->abbrev_size, s->swap,
			    false };
	uint64_t max = 0;

	skip(&c, off);
	for (;;) {
		struct abbrev a = { .first = w->nr_attrs };
		long at = 0;

		a.code = get_uleb(&c);
		if (!a.code || c.bad)
			break;
		a.tag = get_uleb(&c);
		a.children = get_u(&c, 1) == DW_CHILDREN_yes;
		for (;;) {
			struct attr_spec sp;
			long n;

			sp.name = get_uleb(&c);
			sp.form = get_uleb(&c);
			if (c.bad || (!sp.name && !sp.form))
				break;
			if (sp.form == DW_FORM_implicit_const)
				get_uleb(&c);	/* its value, not needed */
			n = fixed_len(&w->u, sp.form);
			at = at >= 0 && n >= 0 ? at + n : -1;
			ALLOC_GROW(w->attrs, w->nr_attrs + 1, w->alloc_attrs);
			w->attrs[w->nr_attrs++] = sp;
		}
		if (c.bad || a.code > ABBREV_CODE_MAX)
			return false;
		a.nr = w->nr_attrs - a.first;
		a.size = at;
		ALLOC_GROW(w->abbrevs, w->nr_abbrevs + 1, w->alloc_abbrevs);
		w->abbrevs[w->nr_abbrevs++] = a;
		if (a.code > max)
			max = a.code;
	}
	if (c.bad)
		return false;
	w->nr_codes = max + 1;
	w->by_code = xcalloc(w->nr_codes, sizeof(*w->by_code));
	for (size_t i = w->nr_abbrevs; i-- > 0;)	/* a code twice: its first */
		w->by_code[w->abbrevs[i].code] = (uint32_t)i + 1;
	return true;
}

static const struct abbrev *abbrev_of(const struct walk *w, uint64_t code)
{
	if (code >= w->nr_codes || !w->by_code[code])
		return NULL;
	return &w->abbrevs[w->by_code[code] - 1];
}

/* Skips the attributes of a DIE of @a at @c. */
static bool skip_attrs(const struct walk *w, const struct abbrev *a,
		       struct cursor *c)
{
	if (a->size >= 0) {
		skip(c, (uint64_t)a->size);
		return !c->bad;
	}
	for (size_t i = 0; i < a->nr; i++)
		if (!skip_value(&w->u, c, w->attrs[a->first + i].form))
			return false;
	return true;
}

/* The attributes of a DIE that matter here. */
struct die_attrs {
	const unsigned char *low, *high;	/* their values, if any */
	uint64_t low_form, high_form;		/* 0: none */
	bool ranges;				/* has DW_AT_ranges */
	uint64_t sibling;			/* unit-relative, 0: none */
};

/* A reference of @form (unit-relative) at @c; false for another form. */
static bool get_ref(struct cursor *c, uint64_t form, uint64_t *ref)
{
	switch (form) {
	case DW_FORM_ref1:
		*ref = get_u(c, 1);
		return true;
	case DW_FORM_ref2:
		*ref = get_u(c, 2);
		return true;
	case DW_FORM_ref4:
		*ref = get_u(c, 4);
		return true;
	case DW_FORM_ref8:
		*ref = get_u(c, 8);
		return true;
	case DW_FORM_ref_udata:
		*ref = get_uleb(c);
		return true;
	default:
		return false;
	}
}

/*
 * Reads the attributes of a DIE of @a at @c into @d (of two of a name,
 * the first, as libdw's dwarf_attr() finds it).
 */
static bool read_attrs(const struct walk *w, const struct abbrev *a,
		       struct cursor *c, struct die_attrs *d)
{
	memset(d, 0, sizeof(*d));
	for (size_t i = 0; i < a->nr; i++) {
		const struct attr_spec *sp = &w->attrs[a->first + i];

		switch (sp->name) {
		case DW_AT_low_pc:
			if (!d->low_form) {
				d->low = c->p;
				d->low_form = sp->form;
			}
			break;
		case DW_AT_high_pc:
			if (!d->high_form) {
				d->high = c->p;
				d->high_form = sp->form;
			}
			break;
		case DW_AT_ranges:
			d->ranges = true;
			break;
		case DW_AT_sibling:
			if (!d->sibling && get_ref(c, sp->form, &d->sibling))
				continue;
			break;
		default:
			break;
		}
		if (!skip_value(&w->u, c, sp->form))
			return false;
	}
	return !c->bad;
}

/*
 * Past the children of the DIE at @die, whose attributes @c has just
 * read (@sibling: its DW_AT_sibling, 0 if none): to its sibling when it
 * is forwards and inside the unit (3), else by reading them.
 */
static bool skip_children(const struct walk *w, struct cursor *c,
			  const unsigned char *die, uint64_t sibling)
{
	size_t level = 1;

	for (;;) {
		const struct abbrev *a;
		struct die_attrs d;
		uint64_t code;

		if (sibling > (uint64_t)(die - w->u.start) &&
		    sibling < (uint64_t)(w->end - w->u.start)) {
			c->p = w->u.start + sibling;
			level--;
		}
		for (;;) {	/* the null entries ending levels */
			if (!level)
				return true;
			die = c->p;
			code = get_uleb(c);
			if (c->bad)
				return false;
			if (code)
				break;
			level--;
		}
		a = abbrev_of(w, code);
		if (!a || !read_attrs(w, a, c, &d))
			return false;
		sibling = d.sibling;
		if (a->children)
			level++;
		else
			sibling = 0;
	}
}

static void add_range(struct walk *w, uint64_t lo, uint64_t hi)
{
	ALLOC_GROW(w->ranges, w->nr_ranges + 1, w->alloc_ranges);
	w->ranges[w->nr_ranges++] = (struct die_range){ lo, hi };
}

/*
 * The code ranges of the scope at .debug_info offset @off into
 * w->ranges: read here in the common encoding, else by dwarf_ranges().
 */
static bool scope_ranges(struct walk *w, Dwarf *dw, const struct die_attrs *d,
			 Dwarf_Off off)
{
	const struct die_sections *s = w->u.sec;

	w->nr_ranges = 0;
	if (d->low_form == DW_FORM_addr &&
	    (d->high_form == DW_FORM_addr || d->high_form == DW_FORM_udata ||
	     d->high_form == DW_FORM_data1 || d->high_form == DW_FORM_data2 ||
	     d->high_form == DW_FORM_data4 || d->high_form == DW_FORM_data8)) {
		struct cursor v = { d->low, w->end, s->swap, false };
		uint64_t lo = get_u(&v, w->u.addr_size), hi;

		v.p = d->high;
		if (d->high_form == DW_FORM_addr)
			hi = get_u(&v, w->u.addr_size);
		else if (d->high_form == DW_FORM_udata)
			hi = lo + get_uleb(&v);
		else	/* a constant: an offset from low_pc */
			hi = lo + get_u(&v, (size_t)fixed_len(&w->u,
							      d->high_form));
		add_range(w, lo, hi);
		return !v.bad;
	}
	if (d->low_form || d->high_form || d->ranges) {
		Dwarf_Die die;
		Dwarf_Addr base, lo, hi;
		ptrdiff_t at = 0;

		if (!dwarf_offdie(dw, off, &die))
			return true;	/* libdw cannot read it: no code */
		while ((at = dwarf_ranges(&die, at, &base, &lo, &hi)) > 0)
			add_range(w, lo, hi);
	}
	return true;
}

/*
 * The unit header at @c (the unit's start); its abbreviations' offset
 * to *@abbrev_off, and c->end to the unit's end.
 */
static bool read_header(struct walk *w, struct cursor *c, uint64_t *abbrev_off)
{
	uint64_t len = get_u(c, 4), type = DW_UT_compile;

	w->u.offset_size = 4;
	if (len == 0xffffffff) {
		len = get_u(c, 8);
		w->u.offset_size = 8;
	} else if (len >= 0xfffffff0) {
		return false;
	}
	if (c->bad || len > (uint64_t)(c->end - c->p))
		return false;
	w->end = c->end = c->p + len;
	w->u.version = (unsigned int)get_u(c, 2);
	if (w->u.version >= 5) {
		type = get_u(c, 1);
		w->u.addr_size = (unsigned int)get_u(c, 1);
		*abbrev_off = get_u(c, w->u.offset_size);
	} else {
		*abbrev_off = get_u(c, w->u.offset_size);
		w->u.addr_size = (unsigned int)get_u(c, 1);
	}
	if (type == DW_UT_skeleton || type == DW_UT_split_compile)
		skip(c, 8);		/* the unit id */
	else if (type == DW_UT_type || type == DW_UT_split_type)
		skip(c, 8 + w->u.offset_size);	/* signature, type offset */
	return !c->bad && w->u.version >= 2 && w->u.version <= 5 &&
	       (w->u.addr_size == 4 || w->u.addr_size == 8);
}

static void push(struct walk *w, int scope)
{
	ALLOC_GROW(w->stack, w->depth + 1, w->alloc_stack);
	w->stack[w->depth++] = scope;
}

/* The DIEs below the unit's own, from @c on (1). */
static void walk_dies(struct walk *w, Dwarf *dw, struct cursor *c,
		      die_scope_fn *fn, void *data)
{
	const unsigned char *info = w->u.sec->info;

	while (w->depth) {
		const unsigned char *die = c->p;
		int parent = w->stack[w->depth - 1], id;
		const struct abbrev *a;
		struct die_attrs d;
		uint64_t code = get_uleb(c);

		if (c->bad)
			return;
		if (!code) {
			w->depth--;
			continue;
		}
		a = abbrev_of(w, code);
		if (!a)
			return;
		switch (a->tag) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
			if (!read_attrs(w, a, c, &d) ||
			    !scope_ranges(w, dw, &d, (Dwarf_Off)(die - info)))
				return;
			id = fn(data, (Dwarf_Off)(die - info),
				a->tag == DW_TAG_inlined_subroutine, parent,
				w->ranges, w->nr_ranges);
			if (a->children && id >= 0)
				push(w, id);
			else if (a->children &&
				 !skip_children(w, c, die, d.sibling))
				return;
			break;
		case DW_TAG_lexical_block:
			if (!skip_attrs(w, a, c))
				return;
			if (a->children)
				push(w, parent);
			break;
		default:
			if (!a->children) {
				if (!skip_attrs(w, a, c))
					return;
			} else if (!read_attrs(w, a, c, &d) ||
				   !skip_children(w, c, die, d.sibling)) {
				return;
			}
		}
	}
}

void die_walk_scopes(Dwarf *dw, const struct die_sections *s,
		     Dwarf_Die *cudie, die_scope_fn *fn, void *data)
{
	Dwarf_Off die = dwarf_dieoffset(cudie);
	Dwarf_Off start = die - dwarf_cuoffset(cudie);
	struct walk w = { .u.sec = s };
	struct cursor c = { s->info, s->info + s->info_size, s->swap,
			    !s->info };
	const struct abbrev *a;
	uint64_t abbrev_off;

	skip(&c, start);
	w.u.start = c.p;
	if (!c.bad && read_header(&w, &c, &abbrev_off) &&
	    (Dwarf_Off)(c.p - s->info) == die &&
	    read_abbrevs(&w, abbrev_off)) {
		a = abbrev_of(&w, get_uleb(&c));
		if (a && skip_attrs(&w, a, &c) && a->children) {
			push(&w, -1);
			walk_dies(&w, dw, &c, fn, data);
		}
	}
	free(w.attrs);
	free(w.abbrevs);
	free(w.by_code);
	free(w.stack);
	free(w.ranges);
}

static bool is_section(const char *name, const char *want)
{
	/* ".zdebug_info": compressed the GNU way, inflated by libdw */
	return !strcmp(name, want) ||
	       (name[0] == '.' && name[1] == 'z' && !strcmp(name + 2, want + 1));
}

bool die_sections_find(Dwarf *dw, struct die_sections *s)
{
	Elf *elf = dwarf_getelf(dw);
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	size_t shstrndx;

	memset(s, 0, sizeof(*s));
	if (!elf || !gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstrndx))
		return false;
	s->swap = eh.e_ident[EI_DATA] !=
		  (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB :
							       ELFDATA2MSB);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *data;

		/* SHF_COMPRESSED: libdw inflated what it reads, not this */
		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
		    (sh.sh_flags & SHF_COMPRESSED))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		data = name ? elf_getdata(scn, NULL) : NULL;
		if (!data || !data->d_buf)
			continue;
		if (is_section(name, ".debug_info")) {
			s->info = data->d_buf;
			s->info_size = data->d_size;
		} else if (is_section(name, ".debug_abbrev")) {
			s->abbrev = data->d_buf;
			s->abbrev_size = data->d_size;
		}
	}
	if (!s->info || !s->abbrev)
		memset(s, 0, sizeof(*s));
	return s->info != NULL;
}
