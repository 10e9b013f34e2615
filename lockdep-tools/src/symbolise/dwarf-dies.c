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
#include "symbolise/dwarf-read.h"
#include "util/xalloc.h"

#define ABBREV_CODE_MAX (1u << 20)

struct unit {
	const struct dwarf_sections *sec;
	const unsigned char *start;	/* the unit header */
	struct dwarf_unit_sizes sz;
};

struct attr_spec {
	uint64_t name, form;
	int64_t implicit;	/* DW_FORM_implicit_const's value */
	long len;		/* of its value, -1 if not fixed */
};

struct abbrev {
	uint64_t code, tag;
	bool children;
	size_t first, nr;	/* into walk.attrs */
	long size;		/* of all attributes, -1 if not fixed */
	/*
	 * where its first DW_AT_sibling's value is, when that is a
	 * reference after attributes of fixed sizes; else -1
	 */
	long sibling_at;
	uint64_t sibling_form;
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
	uint64_t base;		/* the unit's base address, as libdw's */
};

/* The unit's abbreviations at @off in .debug_abbrev; false if unreadable. */
static bool read_abbrevs(struct walk *w, uint64_t off)
{
	const struct dwarf_sections *s = w->u.sec;
	struct dwarf_cursor c = { s->abbrev, s->abbrev + s->abbrev_size, s->swap,
			    false };
	uint64_t max = 0;

	dwarf_skip(&c, off);
	for (;;) {
		struct abbrev a = { .first = w->nr_attrs, .sibling_at = -1 };
		long at = 0;
		bool sibling = false;

		a.code = dwarf_get_uleb(&c);
		if (!a.code || c.bad)
			break;
		a.tag = dwarf_get_uleb(&c);
		a.children = dwarf_get_u(&c, 1) == DW_CHILDREN_yes;
		for (;;) {
			struct attr_spec sp = { 0 };
			long n;

			sp.name = dwarf_get_uleb(&c);
			sp.form = dwarf_get_uleb(&c);
			if (c.bad || (!sp.name && !sp.form))
				break;
			if (sp.form == DW_FORM_implicit_const)
				sp.implicit = dwarf_get_sleb(&c);
			n = sp.len = dwarf_fixed_len(&w->u.sz, sp.form);
			if (sp.name == DW_AT_sibling && !sibling) {
				sibling = true;
				if (at >= 0 && sp.form >= DW_FORM_ref1 &&
				    sp.form <= DW_FORM_ref_udata) {
					a.sibling_at = at;
					a.sibling_form = sp.form;
				}
			}
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

/* Skips the value of @sp at @c. */
static bool skip_attr(const struct walk *w, const struct attr_spec *sp,
		      struct dwarf_cursor *c)
{
	if (sp->len >= 0) {
		dwarf_skip(c, (uint64_t)sp->len);
		return !c->bad;
	}
	return dwarf_skip_value(&w->u.sz, c, sp->form);
}

/* Skips the attributes of a DIE of @a at @c. */
static bool skip_attrs(const struct walk *w, const struct abbrev *a,
		       struct dwarf_cursor *c)
{
	if (a->size >= 0) {
		dwarf_skip(c, (uint64_t)a->size);
		return !c->bad;
	}
	for (size_t i = 0; i < a->nr; i++)
		if (!skip_attr(w, &w->attrs[a->first + i], c))
			return false;
	return true;
}

/* The attributes of a DIE that matter here. */
struct die_attrs {
	const unsigned char *low, *high;	/* their values, if any */
	uint64_t low_form, high_form;		/* 0: none */
	const unsigned char *ranges;		/* DW_AT_ranges' value */
	uint64_t ranges_form;
	uint64_t sibling;			/* unit-relative, 0: none */
	/* DW_AT_call_file and DW_AT_call_line: their specs and values */
	const struct attr_spec *call_file, *call_line;
	const unsigned char *call_file_at, *call_line_at;
};

/* A reference of @form (unit-relative) at @c; false for another form. */
static bool get_ref(struct dwarf_cursor *c, uint64_t form, uint64_t *ref)
{
	switch (form) {
	case DW_FORM_ref1:
		*ref = dwarf_get_u(c, 1);
		return true;
	case DW_FORM_ref2:
		*ref = dwarf_get_u(c, 2);
		return true;
	case DW_FORM_ref4:
		*ref = dwarf_get_u(c, 4);
		return true;
	case DW_FORM_ref8:
		*ref = dwarf_get_u(c, 8);
		return true;
	case DW_FORM_ref_udata:
		*ref = dwarf_get_uleb(c);
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
		       struct dwarf_cursor *c, struct die_attrs *d)
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
			if (!d->ranges_form) {
				d->ranges = c->p;
				d->ranges_form = sp->form;
			}
			break;
		case DW_AT_call_file:
			if (!d->call_file) {
				d->call_file = sp;
				d->call_file_at = c->p;
			}
			break;
		case DW_AT_call_line:
			if (!d->call_line) {
				d->call_line = sp;
				d->call_line_at = c->p;
			}
			break;
		case DW_AT_sibling:
			if (!d->sibling && get_ref(c, sp->form, &d->sibling))
				continue;
			break;
		default:
			break;
		}
		if (!skip_attr(w, sp, c))
			return false;
	}
	return !c->bad;
}

/*
 * Skips the attributes of a DIE of @a at @c, its DW_AT_sibling to
 * *@sibling (0: none): read where it lies when the sizes before it are
 * fixed, else with the rest.
 */
static bool sibling_of(const struct walk *w, const struct abbrev *a,
		       struct dwarf_cursor *c, uint64_t *sibling)
{
	struct die_attrs d;

	if (a->size >= 0) {
		struct dwarf_cursor v = *c;

		*sibling = 0;
		if (a->sibling_at >= 0) {
			dwarf_skip(&v, (uint64_t)a->sibling_at);
			get_ref(&v, a->sibling_form, sibling);
			if (v.bad)
				*sibling = 0;
		}
		dwarf_skip(c, (uint64_t)a->size);
		return !c->bad;
	}
	if (!read_attrs(w, a, c, &d))
		return false;
	*sibling = d.sibling;
	return true;
}

/*
 * The constant of @sp at @at, as dwarf_formudata() reads a DW_AT_call_*
 * attribute; false when @sp is NULL or not of a constant form.
 */
static bool constant(const struct walk *w, const struct attr_spec *sp,
		     const unsigned char *at, uint64_t *v)
{
	struct dwarf_cursor c = { at, w->end, w->u.sec->swap, false };

	if (!sp)
		return false;
	if (sp->form == DW_FORM_implicit_const) {
		*v = (uint64_t)sp->implicit;
		return true;
	}
	return dwarf_read_udata(&c, sp->form, v);
}

/*
 * Past the children of the DIE at @die, whose attributes @c has just
 * read (@sibling: its DW_AT_sibling, 0 if none): to its sibling when it
 * is forwards and inside the unit (3), else by reading them.
 */
static bool skip_children(const struct walk *w, struct dwarf_cursor *c,
			  const unsigned char *die, uint64_t sibling)
{
	size_t level = 1;

	for (;;) {
		const struct abbrev *a;
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
			code = dwarf_get_uleb(c);
			if (c->bad)
				return false;
			if (code)
				break;
			level--;
		}
		a = abbrev_of(w, code);
		if (!a)
			return false;
		if (!a->children) {
			sibling = 0;
			if (!skip_attrs(w, a, c))
				return false;
			continue;
		}
		if (!sibling_of(w, a, c, &sibling))
			return false;
		level++;
	}
}

static void add_range(struct walk *w, uint64_t lo, uint64_t hi)
{
	ALLOC_GROW(w->ranges, w->nr_ranges + 1, w->alloc_ranges);
	w->ranges[w->nr_ranges++] = (struct die_range){ lo, hi };
}

/*
 * The range list at @off (DW_AT_ranges as a section offset) into
 * w->ranges, read as dwarf_ranges() reads it: .debug_ranges pairs in
 * DWARF 2 to 4, .debug_rnglists entries in DWARF 5. A list that stops
 * making sense ends there. False, with nothing read, for a list with
 * entries that index .debug_addr: libdw's to read.
 */
static bool read_ranges(struct walk *w, uint64_t off)
{
	const struct dwarf_sections *s = w->u.sec;
	bool v5 = w->u.sz.version >= 5;
	const unsigned char *sec = v5 ? s->rnglists : s->ranges;
	size_t size = v5 ? s->rnglists_size : s->ranges_size, n0 = w->nr_ranges;
	size_t width = w->u.sz.addr_size;
	uint64_t base = w->base, b, e;
	/* no section: a null cursor, no end computed from NULL (UB) */
	struct dwarf_cursor c = { sec, sec ? sec + size : NULL, s->swap,
				  !sec || off >= size };

	dwarf_skip(&c, off);
	while (dwarf_need(&c, v5 ? 1 : 2 * width)) {
		if (!v5) {
			uint64_t escape = width == 8 ? UINT64_MAX : UINT32_MAX;

			b = dwarf_get_u(&c, width);
			e = dwarf_get_u(&c, width);
			if (b == escape && e == escape)
				break;
			if (b == escape)
				base = e;
			else if (!b && !e)
				break;
			else
				add_range(w, b + base, e + base);
			continue;
		}
		switch (dwarf_get_u(&c, 1)) {
		case DW_RLE_offset_pair:
			dwarf_need(&c, 1);
			b = dwarf_get_uleb(&c);
			dwarf_need(&c, 1);
			e = dwarf_get_uleb(&c);
			if (!c.bad)
				add_range(w, b + base, e + base);
			break;
		case DW_RLE_base_address:
			base = dwarf_get_u(&c, width);
			break;
		case DW_RLE_start_end:
			dwarf_need(&c, 2 * width);
			b = dwarf_get_u(&c, width);
			e = dwarf_get_u(&c, width);
			if (!c.bad)
				add_range(w, b, e);
			break;
		case DW_RLE_start_length:
			b = dwarf_get_u(&c, width);
			dwarf_need(&c, 1);
			e = dwarf_get_uleb(&c);
			if (!c.bad)
				add_range(w, b, b + e);
			break;
		case DW_RLE_base_addressx:
		case DW_RLE_startx_endx:
		case DW_RLE_startx_length:
			w->nr_ranges = n0;
			return false;
		default:	/* DW_RLE_end_of_list, or no entry */
			return true;
		}
	}
	return true;
}

/*
 * The code ranges of the scope at .debug_info offset @off into
 * w->ranges: read here in the common encoding, else by dwarf_ranges().
 */
static bool scope_ranges(struct walk *w, Dwarf *dw, const struct die_attrs *d,
			 Dwarf_Off off)
{
	const struct dwarf_sections *s = w->u.sec;

	w->nr_ranges = 0;
	if (d->low_form == DW_FORM_addr &&
	    (d->high_form == DW_FORM_addr || d->high_form == DW_FORM_udata ||
	     d->high_form == DW_FORM_data1 || d->high_form == DW_FORM_data2 ||
	     d->high_form == DW_FORM_data4 || d->high_form == DW_FORM_data8)) {
		struct dwarf_cursor v = { d->low, w->end, s->swap, false };
		uint64_t lo = dwarf_get_u(&v, w->u.sz.addr_size), hi;

		v.p = d->high;
		if (d->high_form == DW_FORM_addr)
			hi = dwarf_get_u(&v, w->u.sz.addr_size);
		else if (d->high_form == DW_FORM_udata)
			hi = lo + dwarf_get_uleb(&v);
		else	/* a constant: an offset from low_pc */
			hi = lo + dwarf_get_u(&v, (size_t)dwarf_fixed_len(&w->u.sz,
							      d->high_form));
		add_range(w, lo, hi);
		return !v.bad;
	}
	/* libdw reads a list when high_pc fails: it does without one */
	if (!d->high_form && (d->ranges_form == DW_FORM_sec_offset ||
			      (w->u.sz.version < 4 &&
			       (d->ranges_form == DW_FORM_data4 ||
				d->ranges_form == DW_FORM_data8)))) {
		struct dwarf_cursor v = { d->ranges, w->end, s->swap, false };
		uint64_t at = dwarf_get_u(&v, d->ranges_form == DW_FORM_data4 ? 4 :
					  d->ranges_form == DW_FORM_data8 ? 8 :
					  w->u.sz.offset_size);

		if (v.bad || read_ranges(w, at))
			return !v.bad;
	}
	if (d->low_form || d->high_form || d->ranges_form) {
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
static bool read_header(struct walk *w, struct dwarf_cursor *c, uint64_t *abbrev_off)
{
	uint64_t len = dwarf_get_u(c, 4), type = DW_UT_compile;

	w->u.sz.offset_size = 4;
	if (len == 0xffffffff) {
		len = dwarf_get_u(c, 8);
		w->u.sz.offset_size = 8;
	} else if (len >= 0xfffffff0) {
		return false;
	}
	if (c->bad || len > (uint64_t)(c->end - c->p))
		return false;
	w->end = c->end = c->p + len;
	w->u.sz.version = (unsigned int)dwarf_get_u(c, 2);
	if (w->u.sz.version >= 5) {
		type = dwarf_get_u(c, 1);
		w->u.sz.addr_size = (unsigned int)dwarf_get_u(c, 1);
		*abbrev_off = dwarf_get_u(c, w->u.sz.offset_size);
	} else {
		*abbrev_off = dwarf_get_u(c, w->u.sz.offset_size);
		w->u.sz.addr_size = (unsigned int)dwarf_get_u(c, 1);
	}
	if (type == DW_UT_skeleton || type == DW_UT_split_compile)
		dwarf_skip(c, 8);		/* the unit id */
	else if (type == DW_UT_type || type == DW_UT_split_type)
		dwarf_skip(c, 8 + w->u.sz.offset_size);	/* signature, type offset */
	return !c->bad && w->u.sz.version >= 2 && w->u.sz.version <= 5 &&
	       (w->u.sz.addr_size == 4 || w->u.sz.addr_size == 8);
}

static void push(struct walk *w, int scope)
{
	ALLOC_GROW(w->stack, w->depth + 1, w->alloc_stack);
	w->stack[w->depth++] = scope;
}

/* The DIEs below the unit's own, from @c on (1). */
static void walk_dies(struct walk *w, Dwarf *dw, struct dwarf_cursor *c,
		      die_scope_fn *fn, void *data)
{
	const unsigned char *info = w->u.sec->info;

	while (w->depth) {
		const unsigned char *die = c->p;
		int parent = w->stack[w->depth - 1], id;
		const struct abbrev *a;
		struct die_attrs d;
		struct die_scope s;
		uint64_t sibling, code = dwarf_get_uleb(c);

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
			s = (struct die_scope){
				.die = (Dwarf_Off)(die - info),
				.inlined = a->tag == DW_TAG_inlined_subroutine,
				.r = w->ranges,
				.nr = w->nr_ranges,
			};
			s.has_call_file = constant(w, d.call_file,
						   d.call_file_at,
						   &s.call_file);
			s.has_call_line = constant(w, d.call_line,
						   d.call_line_at,
						   &s.call_line);
			id = fn(data, &s, parent);
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
			} else if (!sibling_of(w, a, c, &sibling) ||
				   !skip_children(w, c, die, sibling)) {
				return;
			}
		}
	}
}

void die_walk_scopes(Dwarf *dw, const struct dwarf_sections *s,
		     Dwarf_Die *cudie, die_scope_fn *fn, void *data)
{
	Dwarf_Off die = dwarf_dieoffset(cudie);
	Dwarf_Off start = die - dwarf_cuoffset(cudie);
	struct walk w = { .u.sec = s };
	struct dwarf_cursor c = { s->info, s->info + s->info_size, s->swap,
			    !s->info };
	const struct abbrev *a;
	uint64_t abbrev_off;
	Dwarf_Attribute attr;
	Dwarf_Addr base;

	/* the unit's base address as libdw takes it for its range lists */
	if (dwarf_lowpc(cudie, &base) &&
	    dwarf_formaddr(dwarf_attr(cudie, DW_AT_entry_pc, &attr), &base))
		base = 0;
	w.base = base;
	dwarf_skip(&c, start);
	w.u.start = c.p;
	if (!c.bad && read_header(&w, &c, &abbrev_off) &&
	    (Dwarf_Off)(c.p - s->info) == die &&
	    read_abbrevs(&w, abbrev_off)) {
		a = abbrev_of(&w, dwarf_get_uleb(&c));
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

