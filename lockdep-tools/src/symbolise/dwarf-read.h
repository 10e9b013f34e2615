/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading DWARF sections byte by byte, for dwarf-dies.c (a unit's DIEs)
 * and line-table.c (a unit's line program): internal to src/symbolise/.
 *
 * A cursor never reads past its end: a read that would is not made, the
 * cursor is marked bad, and every later read on it gives 0.
 */
#ifndef SYMBOLISE_DWARF_READ_H
#define SYMBOLISE_DWARF_READ_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The sections read here, as libdw holds them (decompressed) */
struct dwarf_sections {
	const unsigned char *info, *abbrev, *line, *line_str, *str;
	const unsigned char *ranges, *rnglists;
	size_t info_size, abbrev_size, line_size, line_str_size, str_size;
	size_t ranges_size, rnglists_size;
	bool swap;		/* the file's byte order is not the host's */
};

/* The sections of @dw; false (all NULL) without .debug_info and .debug_abbrev. */
bool dwarf_sections_find(Dwarf *dw, struct dwarf_sections *s);

/*
 * @str if it is a whole string of .debug_str, .debug_line_str or
 * .debug_info (DW_FORM_string), ended by a NUL inside that section; else
 * NULL. libdw's dwarf_formstring() checks only where a string starts: on
 * a section with no NUL at its end the string runs past it.
 */
const char *dwarf_string_inside(const struct dwarf_sections *s,
				const char *str);

struct dwarf_cursor {
	const unsigned char *p, *end;
	bool swap, bad;
};

static inline bool dwarf_need(struct dwarf_cursor *c, size_t n)
{
	if (c->bad || (size_t)(c->end - c->p) < n)
		c->bad = true;
	return !c->bad;
}

/* an unsigned value of @n bytes (n <= 8) in the file's byte order */
static inline uint64_t dwarf_get_u(struct dwarf_cursor *c, size_t n)
{
	uint64_t v = 0;

	if (!dwarf_need(c, n))
		return 0;
	if (!c->swap && n == 4) {	/* the host's order: as it lies */
		uint32_t x;

		memcpy(&x, c->p, 4);
		v = x;
	} else if (!c->swap && n == 8) {
		memcpy(&v, c->p, 8);
	} else {
		for (size_t i = 0; i < n; i++)
			if (c->swap)
				v = v << 8 | c->p[i];
			else
				v |= (uint64_t)c->p[i] << (8 * i);
	}
	c->p += n;
	return v;
}

/* A LEB128, sign-extended when @sign; bits beyond 64 are dropped. */
static inline uint64_t dwarf_get_leb(struct dwarf_cursor *c, bool sign)
{
	uint64_t v = 0;
	unsigned int shift = 0;

	while (dwarf_need(c, 1)) {
		unsigned char b = *c->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (sign && shift < 64 && (b & 0x40))
				v |= ~(uint64_t)0 << shift;
			return v;
		}
	}
	return 0;
}

static inline uint64_t dwarf_get_uleb(struct dwarf_cursor *c)
{
	return dwarf_get_leb(c, false);
}

static inline int64_t dwarf_get_sleb(struct dwarf_cursor *c)
{
	return (int64_t)dwarf_get_leb(c, true);
}

static inline void dwarf_skip(struct dwarf_cursor *c, uint64_t n)
{
	if (dwarf_need(c, n))
		c->p += n;
}

/* What the size of a form's value depends on: its unit's header. */
struct dwarf_unit_sizes {
	unsigned int version, offset_size, addr_size;
};

/* The bytes of a value of @form that do not depend on the value, else -1. */
long dwarf_fixed_len(const struct dwarf_unit_sizes *u, uint64_t form);

/*
 * The unsigned constant of a value of @form at @c, as libdw's
 * dwarf_formudata() reads it (the index forms are constants to it);
 * false when @c goes bad or @form is not one it reads. The value of
 * DW_FORM_implicit_const lies in the abbreviation, not at @c: the
 * caller's.
 */
bool dwarf_read_udata(struct dwarf_cursor *c, uint64_t form, uint64_t *v);

/* Skips a value of @form at @c; false (c bad) for an unknown form. */
bool dwarf_skip_value(const struct dwarf_unit_sizes *u,
		      struct dwarf_cursor *c, uint64_t form);

#endif
