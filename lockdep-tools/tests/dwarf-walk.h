/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scopes of a unit as libdw's own calls find them, and a list to
 * keep a walk's scopes in: the oracle of src/symbolise/dwarf-dies.c for
 * tests/unit/test-dwarf.c and fuzz/fuzz-dwarf.c.
 */
#ifndef TESTS_DWARF_WALK_H
#define TESTS_DWARF_WALK_H

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>

#include "symbolise/dwarf-dies.h"
#include "util/xalloc.h"

struct scope {
	struct die_scope s;	/* s.r not kept */
	int parent;
	size_t first;		/* s.nr ranges, into scopes.ranges */
};

struct scopes {
	struct scope *v;
	size_t nr, alloc;
	struct die_range *ranges;
	size_t nr_ranges, alloc_ranges;
};

/* Keeps scope @sc inside scope @parent in @s; returns its id. */
static inline int scopes_add(struct scopes *s, const struct die_scope *sc,
			     int parent)
{
	ALLOC_GROW(s->v, s->nr + 1, s->alloc);
	s->v[s->nr] = (struct scope){ *sc, parent, s->nr_ranges };
	s->v[s->nr].s.r = NULL;
	for (size_t i = 0; i < sc->nr; i++) {
		ALLOC_GROW(s->ranges, s->nr_ranges + 1, s->alloc_ranges);
		s->ranges[s->nr_ranges++] = sc->r[i];
	}
	return (int)s->nr++;
}

static inline void scopes_release(struct scopes *s)
{
	free(s->v);
	free(s->ranges);
	memset(s, 0, sizeof(*s));
}

/* @die's @name as dwarf_formudata() reads it into *@v; false if it cannot */
static inline bool die_udata(Dwarf_Die *die, int name, uint64_t *v)
{
	Dwarf_Attribute attr;
	Dwarf_Word w;

	if (dwarf_formudata(dwarf_attr(die, name, &attr), &w))
		return false;
	*v = w;
	return true;
}

/*
 * The walk of die_walk_scopes() as libdw's calls make it, below @parent
 * (scope @scope) to @depth levels: dwarf_child(), dwarf_siblingof(),
 * dwarf_ranges(), dwarf_formudata(); @fn as die_walk_scopes() calls it.
 */
static inline void libdw_walk(Dwarf_Die *parent, int scope, int depth,
			      die_scope_fn *fn, void *data)
{
	struct die_range *r = NULL;
	size_t alloc = 0;
	Dwarf_Die child;

	if (!depth || dwarf_child(parent, &child))
		return;
	do {
		int tag = dwarf_tag(&child), id;
		struct die_scope sc = { 0 };
		Dwarf_Addr base, lo, hi;
		ptrdiff_t at = 0;

		switch (tag) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
			while ((at = dwarf_ranges(&child, at, &base, &lo, &hi)) > 0) {
				ALLOC_GROW(r, sc.nr + 1, alloc);
				r[sc.nr++] = (struct die_range){ lo, hi };
			}
			sc.die = dwarf_dieoffset(&child);
			sc.inlined = tag == DW_TAG_inlined_subroutine;
			sc.r = r;
			sc.has_call_file = die_udata(&child, DW_AT_call_file,
						     &sc.call_file);
			sc.has_call_line = die_udata(&child, DW_AT_call_line,
						     &sc.call_line);
			id = fn(data, &sc, scope);
			if (id >= 0 && dwarf_haschildren(&child))
				libdw_walk(&child, id, depth - 1, fn, data);
			break;
		case DW_TAG_lexical_block:
			libdw_walk(&child, scope, depth - 1, fn, data);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	free(r);
}

#endif
