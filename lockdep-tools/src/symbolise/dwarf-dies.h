/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A compilation unit's scopes read straight from .debug_info, for
 * dwarf-lines.c's per-unit map: internal to src/symbolise/.
 *
 * Walking a unit through libdw costs most of a cold run: dwarf_tag(),
 * dwarf_ranges(), dwarf_child() and dwarf_siblingof() each look the
 * DIE's abbreviation up again (a hash under a reader-writer lock) and
 * scan its attributes again, and a DIE without DW_AT_sibling is skipped
 * by reading its children. Here a unit's abbreviations are decoded once,
 * each with the size of its attributes when their forms fix it, and
 * each DIE is read once; one of no interest is skipped by its
 * DW_AT_sibling or its fixed size.
 *
 * Only the common encoding of a code range is read here: DW_AT_low_pc
 * as DW_FORM_addr with DW_AT_high_pc as an address or a constant. A DIE
 * with any other (DW_AT_ranges, the addrx forms) gets its ranges from
 * libdw's dwarf_ranges(), so range lists, base addresses and .debug_addr
 * keep libdw's reading.
 */
#ifndef SYMBOLISE_DWARF_DIES_H
#define SYMBOLISE_DWARF_DIES_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dwarf_sections;

struct die_range {
	unsigned long long lo, hi;	/* [lo, hi), possibly empty */
};

/* A DW_TAG_subprogram, or a DW_TAG_inlined_subroutine when inlined. */
struct die_scope {
	Dwarf_Off die;		/* its .debug_info offset */
	bool inlined;
	const struct die_range *r;	/* its code ranges, as dwarf_ranges() */
	size_t nr;
	/*
	 * DW_AT_call_file and DW_AT_call_line as dwarf_formudata() reads
	 * them; has_* false when missing or not a constant
	 */
	bool has_call_file, has_call_line;
	uint64_t call_file, call_line;
};

/*
 * Scope @s inside scope @parent (-1: the unit itself): returns its id,
 * or -1 when it is none (then nothing below it is walked).
 */
typedef int die_scope_fn(void *data, const struct die_scope *s, int parent);

/*
 * Calls @fn for each subprogram and inlined subroutine of the unit of
 * @cudie, parents before their children, looking through lexical blocks
 * and into nothing else. A unit that stops making sense (truncated, an
 * unknown form or abbreviation code, a sibling pointing backwards) ends
 * the walk where it does: the scopes met before stay.
 */
void die_walk_scopes(Dwarf *dw, const struct dwarf_sections *s,
		     Dwarf_Die *cudie, die_scope_fn *fn, void *data);

#endif
