// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the DWARF readers of src/symbolise/: a unit's
 * scopes by its abbreviations (dwarf-dies.c, with its range lists) and
 * its line program (line-table.c), as a vmlinux or a .ko from anyone's
 * tree or a debug package would feed them.
 *
 * The input is the DWARF sections of a small ELF, which the harness
 * lays out around them so that the readers are reached by their real
 * entry points (libdw finds the units and their first DIEs):
 *   byte 0          bit 0: a big-endian file (the readers' byte swap)
 *   bytes 1 to 14   the sizes of the sections below, 16-bit little
 *                   endian, each cut to the bytes left
 *   then            .debug_info, .debug_abbrev, .debug_line,
 *                   .debug_line_str, .debug_str, .debug_ranges,
 *                   .debug_rnglists, one after the other
 * In the ELF each section is followed by bytes poisoned for ASan, so a
 * read past a section's end fails even where another section follows.
 *
 * Invariants, for each unit libdw finds:
 *  - the scopes come in the order of their DIEs, each inside the unit,
 *    each a parent's child after it (dwarf-dies.h), each a DIE that
 *    libdw reads there with the tag the walk said;
 *  - the walk's scopes are those of libdw's own walk (dwarf_child(),
 *    dwarf_siblingof(), dwarf_ranges(), dwarf_formudata()) until the
 *    two meet different DIEs or nest them differently (a DW_AT_sibling
 *    not matching the tree parts them, see check_scopes());
 *  - the line table is dwarf_getsrclines()' and dwarf_getsrcfiles()'
 *    row for row and file for file, or empty when libdw refuses it
 *    (line-table.h (2));
 *  - both comparisons with libdw only where libdw reads the bytes as
 *    the readers promise to: no LEB128 over 10 bytes or cut by the end
 *    of a line program, string sections ending in a NUL (a name running
 *    off one is refused here, read by libdw), no abbreviation code
 *    libdw cannot find; ranges only where dwarf_ranges() succeeds and
 *    takes none from an abstract origin (see libdw_ranges_apart());
 *  - its rows sorted as line-table.h (1) promises, the last ending a
 *    sequence, line_table_find() finding each row's address;
 *  - a second walk and a second read give the same answers.
 */
#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <sanitizer/asan_interface.h>
#include <string.h>

#include "fuzz.h"
#include "../tests/dwarf-walk.h"
#include "symbolise/dwarf-dies.h"
#include "symbolise/dwarf-read.h"
#include "symbolise/line-table.h"
#include "util/xalloc.h"

#define NR_SECTIONS 7
#define HEADER (1 + 2 * NR_SECTIONS)
/* poisoned bytes after each section: ASan sees a read past its end */
#define GAP 64
#define MAX_UNITS 64
#define MAX_SCOPES 4096

static const char *const names[NR_SECTIONS] = {
	".debug_info", ".debug_abbrev", ".debug_line", ".debug_line_str",
	".debug_str", ".debug_ranges", ".debug_rnglists",
};

/* ---- the ELF around the sections ---- */

struct image {
	unsigned char *p;
	size_t len;
	bool big;
};

static void put(struct image *im, size_t at, size_t n, uint64_t v)
{
	for (size_t i = 0; i < n; i++)
		im->p[at + (im->big ? n - 1 - i : i)] = (unsigned char)(v >> (8 * i));
}

/*
 * An ELF64 ET_EXEC of the input's sections: its header, the sections'
 * bytes each followed by GAP poisoned bytes, .shstrtab, the section
 * headers. Returns its size.
 */
static size_t build_elf(struct image *im, const uint8_t *data, size_t size)
{
	const uint8_t *sec[NR_SECTIONS];
	size_t len[NR_SECTIONS], at = sizeof(Elf64_Ehdr), shstr, shoff;
	size_t name_at[NR_SECTIONS], nr = 0, strsz = 1;
	const uint8_t *p = data + HEADER;
	size_t left = size - HEADER;

	for (int i = 0; i < NR_SECTIONS; i++) {
		len[i] = data[1 + 2 * i] | (size_t)data[2 + 2 * i] << 8;
		if (len[i] > left)
			len[i] = left;
		sec[i] = p;
		p += len[i];
		left -= len[i];
		name_at[i] = strsz;
		strsz += strlen(names[i]) + 1;
	}
	strsz += sizeof(".shstrtab");
	shstr = at + (size - HEADER - left) + NR_SECTIONS * GAP;
	shoff = (shstr + strsz + 7) & ~(size_t)7;
	im->len = shoff + (NR_SECTIONS + 2) * sizeof(Elf64_Shdr);
	im->p = xcalloc(1, im->len);
	im->big = data[0] & 1;

	memcpy(im->p, ELFMAG, SELFMAG);
	im->p[EI_CLASS] = ELFCLASS64;
	im->p[EI_DATA] = im->big ? ELFDATA2MSB : ELFDATA2LSB;
	im->p[EI_VERSION] = EV_CURRENT;
	put(im, offsetof(Elf64_Ehdr, e_type), 2, ET_EXEC);
	put(im, offsetof(Elf64_Ehdr, e_machine), 2, im->big ? EM_PPC64 : EM_X86_64);
	put(im, offsetof(Elf64_Ehdr, e_version), 4, EV_CURRENT);
	put(im, offsetof(Elf64_Ehdr, e_shoff), 8, shoff);
	put(im, offsetof(Elf64_Ehdr, e_ehsize), 2, sizeof(Elf64_Ehdr));
	put(im, offsetof(Elf64_Ehdr, e_shentsize), 2, sizeof(Elf64_Shdr));

	/* section 0 is the null one; .shstrtab last */
	for (int i = 0; i < NR_SECTIONS; i++) {
		size_t sh = shoff + (1 + nr) * sizeof(Elf64_Shdr);

		memcpy(im->p + at, sec[i], len[i]);
		memcpy(im->p + shstr + name_at[i], names[i], strlen(names[i]));
		if (len[i]) {
			put(im, sh + offsetof(Elf64_Shdr, sh_name), 4, name_at[i]);
			put(im, sh + offsetof(Elf64_Shdr, sh_type), 4, SHT_PROGBITS);
			put(im, sh + offsetof(Elf64_Shdr, sh_offset), 8, at);
			put(im, sh + offsetof(Elf64_Shdr, sh_size), 8, len[i]);
			put(im, sh + offsetof(Elf64_Shdr, sh_addralign), 8, 1);
			nr++;
		}
		at += len[i];
		ASAN_POISON_MEMORY_REGION(im->p + at, GAP);
		at += GAP;
	}
	memcpy(im->p + shstr + strsz - sizeof(".shstrtab"), ".shstrtab",
	       sizeof(".shstrtab"));
	{
		size_t sh = shoff + (1 + nr) * sizeof(Elf64_Shdr);

		put(im, sh + offsetof(Elf64_Shdr, sh_name), 4,
		    strsz - sizeof(".shstrtab"));
		put(im, sh + offsetof(Elf64_Shdr, sh_type), 4, SHT_STRTAB);
		put(im, sh + offsetof(Elf64_Shdr, sh_offset), 8, shstr);
		put(im, sh + offsetof(Elf64_Shdr, sh_size), 8, strsz);
		put(im, sh + offsetof(Elf64_Shdr, sh_addralign), 8, 1);
	}
	put(im, offsetof(Elf64_Ehdr, e_shnum), 2, nr + 2);
	put(im, offsetof(Elf64_Ehdr, e_shstrndx), 2, nr + 1);
	return im->len;
}

/* ---- where libdw reads otherwise ---- */

/*
 * Bytes that may hold a LEB128 of more than 10 bytes, 64 bits' worth: a
 * run of 10 bytes with the top bit set. libdw reads 10 of such a LEB
 * and the rest as what follows it, we read it whole (dwarf-read.h).
 */
static bool long_leb(const unsigned char *p, size_t size)
{
	size_t run = 0;

	for (size_t i = 0; i < size && run < 10; i++)
		run = p[i] & 0x80 ? run + 1 : 0;
	return run >= 10;
}

/* A string section as producers write it: empty or ending in a NUL. */
static bool terminated(const unsigned char *p, size_t size)
{
	return !p || !size || !p[size - 1];
}

/* ---- the scopes of a unit, both ways ---- */

/* the scopes of a walk, cut at MAX_SCOPES */
struct walk {
	struct scopes s;
	bool full;		/* MAX_SCOPES met: the walk was cut */
};

/* die_scope_fn: every scope, as dwarf-lines.c takes those with code */
static int record(void *data, const struct die_scope *sc, int parent)
{
	struct walk *w = data;

	FUZZ_CHECK(parent >= -1 && parent < (int)w->s.nr);
	if (w->s.nr >= MAX_SCOPES) {
		w->full = true;
		return -1;
	}
	return scopes_add(&w->s, sc, parent);
}

/* Scope @i of @x and @k of @y alike; their ranges too when @ranges. */
static bool same_scope(const struct scopes *x, size_t i,
		       const struct scopes *y, size_t k, bool ranges)
{
	const struct scope *a = &x->v[i], *b = &y->v[k];

	return a->s.die == b->s.die && a->s.inlined == b->s.inlined &&
	       a->parent == b->parent &&
	       (!ranges || (a->s.nr == b->s.nr &&
			    (!a->s.nr || !memcmp(&x->ranges[a->first],
						 &y->ranges[b->first],
						 a->s.nr * sizeof(*x->ranges))))) &&
	       a->s.has_call_file == b->s.has_call_file &&
	       a->s.has_call_line == b->s.has_call_line &&
	       (!a->s.has_call_file || a->s.call_file == b->s.call_file) &&
	       (!a->s.has_call_line || a->s.call_line == b->s.call_line);
}

/*
 * Whether libdw's ranges of the DIE at @off are no answer to compare
 * with: dwarf_ranges() failed on them (its list stops at a fault where
 * dwarf-dies.c's may stop elsewhere, or not at all), or it takes
 * DW_AT_low_pc or DW_AT_high_pc from the DIE a DW_AT_abstract_origin or
 * DW_AT_specification names, where dwarf-dies.c reads the DIE's own (no
 * producer puts code ranges on an abstract DIE).
 */
static bool libdw_ranges_apart(Dwarf *dw, Dwarf_Off off)
{
	static const int pc[] = { DW_AT_low_pc, DW_AT_high_pc };
	Dwarf_Addr base, lo, hi;
	Dwarf_Attribute a;
	ptrdiff_t at = 0;
	Dwarf_Die die;

	if (!dwarf_offdie(dw, off, &die))
		return true;
	while ((at = dwarf_ranges(&die, at, &base, &lo, &hi)) > 0)
		;
	if (at < 0)
		return true;
	for (size_t i = 0; i < sizeof(pc) / sizeof(pc[0]); i++)
		if (!dwarf_attr(&die, pc[i], &a) &&
		    dwarf_attr_integrate(&die, pc[i], &a))
			return true;
	return false;
}

static void check_scopes(Dwarf *dw, const struct dwarf_sections *sec,
			 Dwarf_Die *cu, Dwarf_Off unit, Dwarf_Off next)
{
	struct walk ow = { 0 }, aw = { 0 }, tw = { 0 };
	struct scopes *ours = &ow.s, *again = &aw.s, *theirs = &tw.s;
	bool as_libdw = !long_leb(sec->info, sec->info_size) &&
			!long_leb(sec->abbrev, sec->abbrev_size) &&
			!long_leb(sec->rnglists, sec->rnglists_size);
	int tag;

	die_walk_scopes(dw, sec, cu, record, &ow);
	for (size_t i = 0; i < ours->nr; i++) {
		const struct scope *sc = &ours->v[i];
		Dwarf_Die die;

		FUZZ_CHECK(sc->s.die > dwarf_dieoffset(cu) && sc->s.die < next &&
			   sc->s.die < sec->info_size && sc->s.die > unit);
		FUZZ_CHECK(!i || sc->s.die > ours->v[i - 1].s.die);
		FUZZ_CHECK(sc->parent < 0 ||
			   ours->v[sc->parent].s.die < sc->s.die);
		if (!as_libdw)
			continue;
		FUZZ_CHECK(dwarf_offdie(dw, sc->s.die, &die) != NULL);
		tag = dwarf_tag(&die);
		/*
		 * libdw finds no abbreviation where a code comes twice
		 * before it (ours takes the first): nothing to compare
		 */
		if (tag == 0 || tag == -1) {
			as_libdw = false;
			continue;
		}
		FUZZ_CHECK(tag == (sc->s.inlined ? DW_TAG_inlined_subroutine :
					      DW_TAG_subprogram));
	}
	die_walk_scopes(dw, sec, cu, record, &aw);
	FUZZ_CHECK(again->nr == ours->nr && aw.full == ow.full);
	for (size_t i = 0; i < ours->nr; i++)
		FUZZ_CHECK(same_scope(ours, i, again, i, true));

	/*
	 * The walks part where a DW_AT_sibling disagrees with the tree:
	 * libdw's ends a level at one pointing out of the unit, and after
	 * a scope's children goes on at its sibling; ours reads on through
	 * the DIEs. Up to where they meet different DIEs or nest them
	 * differently, they read the same scopes.
	 */
	if (as_libdw) {
		libdw_walk(cu, -1, 64, record, &tw);
		for (size_t i = 0; i < ours->nr && i < theirs->nr &&
		     ours->v[i].s.die == theirs->v[i].s.die &&
		     ours->v[i].parent == theirs->v[i].parent; i++)
			FUZZ_CHECK(same_scope(ours, i, theirs, i,
					      !libdw_ranges_apart(dw,
								  ours->v[i].s.die)));
	}
	scopes_release(ours);
	scopes_release(again);
	scopes_release(theirs);
}

/* ---- the line table of a unit, both ways ---- */

static bool same_table(const struct line_table *a, const struct line_table *b)
{
	if (a->nr != b->nr || a->nr_files != b->nr_files)
		return false;
	for (size_t i = 0; i < a->nr; i++)	/* field by field: padding */
		if (a->rows[i].addr != b->rows[i].addr ||
		    a->rows[i].order != b->rows[i].order ||
		    a->rows[i].file != b->rows[i].file ||
		    a->rows[i].line != b->rows[i].line)
			return false;
	for (size_t i = 0; i < a->nr_files; i++)
		if (strcmp(line_table_file(a, i), line_table_file(b, i)))
			return false;
	return true;
}

static void check_rows(const struct line_table *t)
{
	size_t k;

	for (size_t i = 0; i < t->nr; i++) {
		const struct line_row *r = &t->rows[i], *f;

		if (i) {
			const struct line_row *q = r - 1;

			FUZZ_CHECK(q->addr <= r->addr);
			/* at one address, an end of sequence first */
			FUZZ_CHECK(q->addr < r->addr || line_row_ends(r) <=
				   line_row_ends(q) || i == t->nr - 1);
		}
		/* the last row at its address, unless that ends a sequence */
		for (k = i; k + 1 < t->nr && t->rows[k + 1].addr == r->addr;)
			k++;
		f = line_table_find(t, r->addr);
		FUZZ_CHECK(f == (line_row_ends(&t->rows[k]) ? NULL : &t->rows[k]));
	}
	FUZZ_CHECK(!t->nr || line_row_ends(&t->rows[t->nr - 1]));
	for (size_t i = 0; i < t->nr_files; i++)
		fuzz_touch(line_table_file(t, i), strlen(line_table_file(t, i)));
	FUZZ_CHECK(line_table_file(t, t->nr_files) == NULL);
}

static bool same_string(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

/*
 * Whether the line program of @cu ends inside a LEB128: libdw takes the
 * bytes up to the unit's end as its value, line-table.c refuses it.
 */
static bool program_ends_in_leb(const struct dwarf_sections *sec,
				Dwarf_Die *cu)
{
	Dwarf_Attribute attr;
	Dwarf_Word off;
	struct dwarf_cursor c;
	uint64_t len;

	if (!sec->line ||
	    dwarf_formudata(dwarf_attr(cu, DW_AT_stmt_list, &attr), &off) ||
	    off >= sec->line_size)
		return false;
	c = (struct dwarf_cursor){ sec->line + off, sec->line + sec->line_size,
				   sec->swap, false };
	len = dwarf_get_u(&c, 4);
	if (len == 0xffffffff)
		len = dwarf_get_u(&c, 8);
	return !c.bad && len && len <= (size_t)(c.end - c.p) &&
	       c.p[len - 1] & 0x80;
}

static void check_lines(const struct dwarf_sections *sec, Dwarf_Die *cu)
{
	Dwarf_Attribute attr;
	/* as dwarf-lines.c takes it */
	const char *comp_dir = dwarf_string_inside(sec,
		dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr)));
	struct line_table t, again;
	Dwarf_Lines *lines;
	Dwarf_Files *files;
	size_t nr, nfiles;

	line_table_read(sec, cu, comp_dir, &t);
	check_rows(&t);
	line_table_read(sec, cu, comp_dir, &again);
	FUZZ_CHECK(same_table(&t, &again));
	line_table_release(&again);

	/*
	 * A name running off the end of an unterminated string section
	 * refuses the table here; libdw 0.188 reads such a table.
	 */
	if (!terminated(sec->line_str, sec->line_str_size) ||
	    !terminated(sec->str, sec->str_size) ||
	    long_leb(sec->line, sec->line_size) ||
	    program_ends_in_leb(sec, cu)) {
		line_table_release(&t);
		return;
	}
	if (dwarf_getsrclines(cu, &lines, &nr)) {
		FUZZ_CHECK(t.nr == 0 && t.nr_files == 0);
		line_table_release(&t);
		return;
	}
	FUZZ_CHECK(t.nr == nr);
	for (size_t i = 0; i < nr; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr addr;
		bool end;
		int lno;

		FUZZ_CHECK(!dwarf_lineaddr(l, &addr) && !dwarf_lineno(l, &lno) &&
			   !dwarf_lineendsequence(l, &end));
		FUZZ_CHECK(t.rows[i].addr == addr && t.rows[i].line == lno &&
			   line_row_ends(&t.rows[i]) == end);
		FUZZ_CHECK(same_string(line_table_file(&t, t.rows[i].file),
				       dwarf_linesrc(l, NULL, NULL)));
	}
	FUZZ_CHECK(!dwarf_getsrcfiles(cu, &files, &nfiles));
	FUZZ_CHECK(t.nr_files == nfiles);
	for (size_t i = 0; i < nfiles; i++)
		FUZZ_CHECK(same_string(line_table_file(&t, i),
				       dwarf_filesrc(files, i, NULL, NULL)));
	line_table_release(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dwarf_sections sec;
	struct image im;
	Dwarf_Off off = 0, next;
	size_t hsize;
	Elf *elf;
	Dwarf *dw;

	if (size < HEADER)
		return 0;
	elf_version(EV_CURRENT);
	build_elf(&im, data, size);
	elf = elf_memory((char *)im.p, im.len);
	FUZZ_CHECK(elf != NULL);
	dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	if (dw && dwarf_sections_find(dw, &sec)) {
		FUZZ_CHECK(sec.info >= im.p && sec.info + sec.info_size <= im.p + im.len);
		FUZZ_CHECK(sec.swap == (im.big != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)));
		for (int n = 0; n < MAX_UNITS &&
		     !dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL); n++) {
			Dwarf_Die cu;

			FUZZ_CHECK(next > off);
			if (dwarf_offdie(dw, off + hsize, &cu)) {
				check_scopes(dw, &sec, &cu, off, next);
				check_lines(&sec, &cu);
			}
			off = next;
		}
	}
	dwarf_end(dw);
	elf_end(elf);
	ASAN_UNPOISON_MEMORY_REGION(im.p, im.len);
	free(im.p);
	return 0;
}
