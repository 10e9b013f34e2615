/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A unit's line table read straight from .debug_line, for dwarf-lines.c:
 * internal to src/symbolise/.
 *
 * The rows, their order and the file names are those of libdw's
 * dwarf_getsrclines(), dwarf_getsrc_die() and dwarf_filesrc() (elfutils
 * 0.188), which dwarf-lines.c answered with before: the answers stay
 * byte for byte the same. libdw keeps each row in a node of a list,
 * sorts pointers to them with qsort() and copies them into 40-byte
 * Dwarf_Line records: 29 % of a cold run's instructions, 15 % the sort.
 * Here a row is 24 bytes, appended to an array, and the array is sorted
 * by merging its runs: a line program's sequences are each in address
 * order already.
 *
 * Invariants:
 *  (1) rows[] is sorted by address; at one address an end of sequence
 *      comes before other rows, and rows of one kind keep the program's
 *      order. The last row is an end of sequence.
 *  (2) A table libdw would refuse (a bad header or opcode, a value its
 *      Dwarf_Line fields cannot hold) is read as empty: no rows, no
 *      files, as a failed dwarf_getsrclines() gave none.
 *  (3) files[i] is file number i's name, joined to its directory as
 *      libdw joins it; number 0 of a DWARF 2 to 4 table is "???".
 */
#ifndef SYMBOLISE_LINE_TABLE_H
#define SYMBOLISE_LINE_TABLE_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dwarf_sections;

struct line_row {
	uint64_t addr;
	/* 0 in the top bit for an end of sequence; the row's number below */
	uint32_t order;
	uint32_t file;
	int32_t line;
};

struct line_table {
	struct line_row *rows;
	size_t nr;
	char *names;		/* the file names, NUL-terminated */
	size_t *files;		/* file i's name at names + files[i] */
	size_t nr_files;
};

/*
 * The line table of the unit of @cudie (its DW_AT_stmt_list), file names
 * relative to @comp_dir joined to it; empty (2) when it has none.
 */
void line_table_read(const struct dwarf_sections *s, Dwarf_Die *cudie,
		     const char *comp_dir, struct line_table *t);
void line_table_release(struct line_table *t);

static inline bool line_row_ends(const struct line_row *r)
{
	return !(r->order >> 31);
}

/* dwarf_getsrc_die(): the row holding @addr, or NULL. */
const struct line_row *line_table_find(const struct line_table *t,
				       uint64_t addr);

/* dwarf_filesrc(): the name of file number @i, or NULL. */
static inline const char *line_table_file(const struct line_table *t,
					  uint64_t i)
{
	return i < t->nr_files ? t->names + t->files[i] : NULL;
}

#endif
