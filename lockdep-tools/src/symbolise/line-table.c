// SPDX-License-Identifier: GPL-2.0
/*
 * A unit's line program run into its table of rows (line-table.h), step
 * for step as elfutils 0.188's read_srclines() runs it: the same limits,
 * the same truncations of a register to its C type, the same refusals.
 */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "symbolise/dwarf-read.h"
#include "symbolise/line-table.h"
#include "util/sort-runs.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct dir {
	const char *name;	/* NULL: DWARF 2 to 4 without DW_AT_comp_dir */
};

struct program {
	const struct dwarf_sections *s;
	struct dwarf_unit_sizes sz;	/* of the header's forms */
	unsigned int addr_size;		/* the unit's */
	const unsigned char *start, *end;	/* the unit in .debug_line */
	const unsigned char *std_len;	/* [op]: standard opcode op's arguments */
	/* [op]: std_len[op] is libdw's number for op (DW_LNS_copy..set_isa) */
	bool std_ok[DW_LNS_set_isa + 1];
	unsigned int opcode_base, line_range, min_len, max_ops;
	unsigned char default_is_stmt;
	signed char line_base;
	/* special opcode opcode_base + i: its line and operation advances */
	struct {
		int line;
		uint32_t ops;
	} special[256];
	struct dir *dirs;
	size_t nr_dirs;
	struct strbuf names;
	size_t *files;
	size_t nr_files, alloc_files;
	struct line_row *rows;
	size_t nr_rows, alloc_rows;
};

/* The arguments of each standard opcode, as libdw wants them. */
static const unsigned char std_args[DW_LNS_set_isa + 1] = {
	[DW_LNS_advance_pc] = 1, [DW_LNS_advance_line] = 1,
	[DW_LNS_set_file] = 1, [DW_LNS_set_column] = 1,
	[DW_LNS_fixed_advance_pc] = 1, [DW_LNS_set_isa] = 1,
};

/* standard_opcode_lengths[@op] as libdw reads it: the header's byte */
static bool std_len_is(const struct program *pr, unsigned int op,
		       unsigned int n)
{
	const unsigned char *p = pr->std_len + op;

	return p > pr->start && p < pr->end && *p == n;
}

/* A new file named @name, joined to directory @dir unless absolute. */
static void add_file(struct program *pr, const char *name, const struct dir *dir,
		     bool replace_first)
{
	size_t at = pr->names.len;

	if (name[0] != '/' && dir->name) {
		strbuf_addstr(&pr->names, dir->name);
		strbuf_addch(&pr->names, '/');
	}
	strbuf_add(&pr->names, name, strlen(name) + 1);
	if (replace_first) {
		pr->files[0] = at;
		return;
	}
	ALLOC_GROW(pr->files, pr->nr_files + 1, pr->alloc_files);
	pr->files[pr->nr_files++] = at;
}

/* The string of a DWARF 5 entry's path, or NULL (libdw: not a string). */
static const char *form_string(struct program *pr, struct dwarf_cursor *c,
			       uint64_t form)
{
	const unsigned char *sec = NULL, *at;
	size_t size = 0;
	uint64_t off;

	switch (form) {
	case DW_FORM_string:
		at = c->p;
		size = (size_t)(c->end - c->p);
		return memchr(at, '\0', size) ? (const char *)at : NULL;
	case DW_FORM_line_strp:
		sec = pr->s->line_str;
		size = pr->s->line_str_size;
		break;
	case DW_FORM_strp:
		sec = pr->s->str;
		size = pr->s->str_size;
		break;
	default:
		return NULL;
	}
	off = dwarf_get_u(&(struct dwarf_cursor){ c->p, c->end, c->swap,
						  false },
			  pr->sz.offset_size);
	if (!sec || off >= size || !memchr(sec + off, '\0', size - off))
		return NULL;
	return (const char *)sec + off;
}

/* The value of a DWARF 5 entry's directory index, or -1. */
static uint64_t form_udata(struct dwarf_cursor c, uint64_t form)
{
	uint64_t v;

	return dwarf_read_udata(&c, form, &v) ? v : (uint64_t)-1;
}

/*
 * A DWARF 5 entry format at @c: its forms to @forms (at most 255), the
 * position of DW_LNCT_path to *@path and of DW_LNCT_directory_index to
 * *@idx (-1: none). Returns the number of forms, -1 if unreadable.
 */
static int entry_format(struct dwarf_cursor *c, uint16_t *forms, int *path,
			int *idx)
{
	int n = (int)dwarf_get_u(c, 1);

	*path = *idx = -1;
	for (int i = 0; i < n; i++) {
		uint16_t desc = (uint16_t)dwarf_get_uleb(c);

		forms[i] = (uint16_t)dwarf_get_uleb(c);
		if (desc == DW_LNCT_path)
			*path = i;
		else if (desc == DW_LNCT_directory_index)
			*idx = i;
	}
	return c->bad ? -1 : n;
}

static bool read_dirs_v5(struct program *pr, struct dwarf_cursor *c)
{
	uint16_t forms[256];
	int path, idx, nforms = entry_format(c, forms, &path, &idx);
	uint64_t n;

	if (nforms < 0 || (nforms > 0 && path < 0))
		return false;
	n = dwarf_get_uleb(c);
	if (c->bad || (nforms == 0 && n) ||
	    (nforms && n > (uint64_t)(c->end - c->p) / (unsigned int)nforms))
		return false;
	pr->dirs = xcalloc(n ? n : 1, sizeof(*pr->dirs));
	pr->nr_dirs = n;
	for (size_t i = 0; i < n; i++) {
		for (int m = 0; m < nforms; m++) {
			if (m == path)
				pr->dirs[i].name = form_string(pr, c, forms[m]);
			if (!dwarf_skip_value(&pr->sz, c, forms[m]))
				return false;
		}
		if (!pr->dirs[i].name)
			return false;
	}
	return true;
}

static bool read_files_v5(struct program *pr, struct dwarf_cursor *c)
{
	uint16_t forms[256];
	int path, idx, nforms = entry_format(c, forms, &path, &idx);
	uint64_t n;

	if (nforms < 0 || (nforms > 0 && (path < 0 || idx < 0)))
		return false;
	n = dwarf_get_uleb(c);
	if (c->bad || (nforms == 0 && n) ||
	    (nforms && n > (uint64_t)(c->end - c->p) / (unsigned int)nforms))
		return false;
	for (size_t i = 0; i < n; i++) {
		const char *name = NULL;
		uint64_t dir = (uint64_t)-1;

		for (int m = 0; m < nforms; m++) {
			if (m == path)
				name = form_string(pr, c, forms[m]);
			else if (m == idx)
				dir = form_udata(*c, forms[m]);
			if (!dwarf_skip_value(&pr->sz, c, forms[m]))
				return false;
		}
		if (!name || dir >= pr->nr_dirs)
			return false;
		/* number 0 takes the place of libdw's "???" */
		add_file(pr, name, &pr->dirs[dir], i == 0);
	}
	return true;
}

/* A NUL-terminated string at @c, or NULL. */
static const char *get_string(struct dwarf_cursor *c)
{
	const char *s = (const char *)c->p;
	const unsigned char *nul = c->bad ? NULL :
		memchr(c->p, '\0', (size_t)(c->end - c->p));

	if (!nul) {
		c->bad = true;
		return NULL;
	}
	c->p = nul + 1;
	return s;
}

static bool read_dirs_v4(struct program *pr, struct dwarf_cursor *c,
			 const char *comp_dir)
{
	struct dwarf_cursor count = *c;
	size_t n = 1;		/* number 0: the unit's directory */

	while (dwarf_need(&count, 1) && *count.p)
		if (get_string(&count))
			n++;
	if (!dwarf_need(&count, 1))
		return false;
	pr->dirs = xcalloc(n, sizeof(*pr->dirs));
	pr->nr_dirs = n;
	pr->dirs[0].name = comp_dir;
	for (size_t i = 1; i < n; i++)
		pr->dirs[i].name = get_string(c);
	dwarf_skip(c, 1);
	return !c->bad;
}

/* a file entry's name, directory, time and length; DW_LNE_define_file's too */
static bool file_entry(struct program *pr, struct dwarf_cursor *c,
		       uint64_t dir_mask)
{
	const char *name = get_string(c);
	uint64_t dir;

	if (!dwarf_need(c, 1))
		return false;
	dir = dwarf_get_uleb(c) & dir_mask;
	if (c->bad || dir >= pr->nr_dirs)
		return false;
	add_file(pr, name, &pr->dirs[dir], false);
	dwarf_need(c, 1);
	dwarf_get_uleb(c);	/* modification time */
	dwarf_need(c, 1);
	dwarf_get_uleb(c);	/* length */
	return !c->bad;
}

static bool read_files_v4(struct program *pr, struct dwarf_cursor *c)
{
	if (!dwarf_need(c, 1))
		return false;
	while (dwarf_need(c, 1) && *c->p)
		if (!file_entry(pr, c, UINT64_MAX))
			return false;
	dwarf_skip(c, 1);
	return !c->bad;
}

/* The program's header up to its first opcode, into @pr and @c. */
static bool read_header(struct program *pr, struct dwarf_cursor *c,
			const char *comp_dir)
{
	uint64_t len = dwarf_get_u(c, 4), header_len;
	const unsigned char *header;

	pr->sz.offset_size = 4;
	if (len == 0xffffffff) {
		len = dwarf_get_u(c, 8);
		pr->sz.offset_size = 8;
	}
	if (c->bad || len > (uint64_t)(c->end - c->p))
		return false;
	pr->end = c->end = c->p + len;
	pr->sz.version = (unsigned int)dwarf_get_u(c, 2);
	if (c->bad || pr->sz.version < 2 || pr->sz.version > 5)
		return false;
	pr->sz.addr_size = pr->addr_size;
	if (pr->sz.version >= 5 &&
	    (dwarf_get_u(c, 1) != pr->addr_size || dwarf_get_u(c, 1) != 0))
		return false;
	header_len = dwarf_get_u(c, pr->sz.offset_size);
	header = c->p;
	pr->min_len = (unsigned int)dwarf_get_u(c, 1);
	pr->max_ops = pr->sz.version >= 4 ? (unsigned int)dwarf_get_u(c, 1) : 1;
	pr->default_is_stmt = (unsigned char)dwarf_get_u(c, 1);
	pr->line_base = (signed char)dwarf_get_u(c, 1);
	pr->line_range = (unsigned int)dwarf_get_u(c, 1);
	pr->opcode_base = (unsigned int)dwarf_get_u(c, 1);
	if (c->bad || !pr->max_ops || !pr->opcode_base)
		return false;
	for (unsigned int i = 0; pr->line_range && i < 256 - pr->opcode_base; i++) {
		pr->special[i].line = pr->line_base + (int)(i % pr->line_range);
		pr->special[i].ops = i / pr->line_range;
	}
	pr->std_len = c->p - 1;
	for (unsigned int op = 1; op <= DW_LNS_set_isa; op++)
		pr->std_ok[op] = std_len_is(pr, op, std_args[op]);
	dwarf_skip(c, pr->opcode_base - 1);
	pr->files = xmalloc(sizeof(*pr->files));
	pr->alloc_files = pr->nr_files = 1;
	pr->files[0] = 0;
	strbuf_add(&pr->names, "???", 4);
	if (pr->sz.version >= 5 ? !read_dirs_v5(pr, c) || !read_files_v5(pr, c) :
	    !read_dirs_v4(pr, c, comp_dir) || !read_files_v4(pr, c))
		return false;
	/* NVIDIA's CUBIN: a .debug_str offset ends the header */
	if (c->p + 4 == header + header_len)
		dwarf_skip(c, 4);
	return !c->bad && c->p == header + header_len;
}

/* The registers of the line state machine, as libdw types them. */
struct regs {
	uint64_t addr;
	uint32_t op_index, file, column, isa, discriminator;
	int64_t line;
	unsigned char is_stmt;
};

static void reset(struct regs *r, const struct program *pr)
{
	*r = (struct regs){ .file = 1, .line = 1,
			    .is_stmt = pr->default_is_stmt };
}

/*
 * A row; false where libdw's Dwarf_Line cannot hold a register (2). The
 * discriminator is not kept but, as libdw's, held in 24 bits, and reset.
 */
static inline bool add_row(struct program *pr, struct regs *r, bool end)
{
	if (r->line != (int32_t)r->line || r->column > 0xffff ||
	    r->is_stmt > 1 || r->isa > 0xff || r->discriminator > 0xffffff ||
	    pr->nr_rows >= 1u << 31)
		return false;
	r->discriminator = 0;
	ALLOC_GROW(pr->rows, pr->nr_rows + 1, pr->alloc_rows);
	pr->rows[pr->nr_rows] = (struct line_row){
		.addr = r->addr,
		.order = (end ? 0 : 1u << 31) | (uint32_t)pr->nr_rows,
		.file = r->file,
		.line = (int32_t)r->line,
	};
	pr->nr_rows++;
	return true;
}

static void advance(struct regs *r, const struct program *pr, uint32_t ops)
{
	uint32_t at = r->op_index + ops;

	if (pr->max_ops == 1) {		/* every target but VLIW ones */
		r->addr += (uint32_t)(pr->min_len * at);
		return;
	}
	r->addr += (uint32_t)(pr->min_len * (at / pr->max_ops));
	r->op_index = at % pr->max_ops;
}

/* An extended opcode (after its 0) at @c. */
static bool extended(struct program *pr, struct dwarf_cursor *c,
		     struct regs *r)
{
	unsigned int len, op;

	if (!dwarf_need(c, 2))
		return false;
	len = *c->p++;
	if (!dwarf_need(c, len))
		return false;
	op = *c->p++;
	switch (op) {
	case DW_LNE_end_sequence:
		if (!add_row(pr, r, true))
			return false;
		reset(r, pr);
		return true;
	case DW_LNE_set_address:
		r->op_index = 0;
		r->addr = dwarf_get_u(c, pr->addr_size);
		return !c->bad;
	case DW_LNE_define_file:
		return file_entry(pr, c, UINT32_MAX);
	case DW_LNE_set_discriminator:
		if (!std_len_is(pr, op, 1) || !dwarf_need(c, 1))
			return false;
		r->discriminator = (uint32_t)dwarf_get_uleb(c);
		return !c->bad;
	case DW_LNE_NVIDIA_inlined_call:
		dwarf_need(c, 1);
		dwarf_get_uleb(c);
		/* and a function name */
		/* fall through */
	case DW_LNE_NVIDIA_set_function_name:
		dwarf_need(c, 1);
		dwarf_get_uleb(c);
		return !c->bad;
	default:	/* unknown: skipped (len 0 steps back a byte, as libdw) */
		if ((size_t)(c->end - (c->p - 1)) < len)
			return false;
		c->p += (ptrdiff_t)len - 1;
		return true;
	}
}

/* A standard opcode @op (below opcode_base) at @c. */
static bool standard(struct program *pr, struct dwarf_cursor *c,
		     struct regs *r, unsigned int op)
{
	if (op > DW_LNS_set_isa) {	/* unknown: its arguments skipped */
		for (unsigned int n = pr->std_len[op]; n; n--) {
			if (!dwarf_need(c, 1))
				return false;
			dwarf_get_uleb(c);
		}
		return !c->bad;
	}
	if (!pr->std_ok[op] || (std_args[op] && !dwarf_need(c, 1)))
		return false;
	switch (op) {
	case DW_LNS_copy:
		return add_row(pr, r, false);
	case DW_LNS_advance_pc:
		advance(r, pr, (uint32_t)dwarf_get_uleb(c));
		break;
	case DW_LNS_advance_line:
		r->line += (int32_t)dwarf_get_sleb(c);
		break;
	case DW_LNS_set_file:
		r->file = (uint32_t)dwarf_get_uleb(c);
		break;
	case DW_LNS_set_column:
		r->column = (uint32_t)dwarf_get_uleb(c);
		break;
	case DW_LNS_negate_stmt:
		r->is_stmt = (unsigned char)(1 - r->is_stmt);
		break;
	case DW_LNS_const_add_pc:
		if (!pr->line_range)
			return false;
		advance(r, pr, (255 - pr->opcode_base) / pr->line_range);
		break;
	case DW_LNS_fixed_advance_pc:
		r->addr += dwarf_get_u(c, 2);
		r->op_index = 0;
		break;
	case DW_LNS_set_isa:
		r->isa = (uint32_t)dwarf_get_uleb(c);
		break;
	default:	/* basic_block, prologue_end, epilogue_begin */
		break;
	}
	return !c->bad;
}

static bool run(struct program *pr, struct dwarf_cursor *c)
{
	struct regs r;

	reset(&r, pr);
	while (c->p < c->end) {
		unsigned int op = *c->p++;

		if (op >= pr->opcode_base) {	/* special */
			if (!pr->line_range)
				return false;
			op -= pr->opcode_base;
			r.line += pr->special[op].line;
			advance(&r, pr, pr->special[op].ops);
			if (!add_row(pr, &r, false))
				return false;
		} else if (!op ? !extended(pr, c, &r) :
			   !standard(pr, c, &r, op)) {
			return false;
		}
	}
	return true;
}

/* (1): by address, an end of sequence first, then in program order */
static bool before(const void *x, const void *y)
{
	const struct line_row *a = x, *b = y;

	return a->addr < b->addr || (a->addr == b->addr && a->order < b->order);
}

void line_table_read(const struct dwarf_sections *s, Dwarf_Die *cudie,
		     const char *comp_dir, struct line_table *t)
{
	struct program pr = { .s = s, .names = STRBUF_INIT };
	Dwarf_Attribute attr;
	Dwarf_Word off;
	Dwarf_Die cu;
	uint8_t addr_size, offset_size;
	struct dwarf_cursor c;
	bool ok;

	memset(t, 0, sizeof(*t));
	if (!s->line ||
	    dwarf_formudata(dwarf_attr(cudie, DW_AT_stmt_list, &attr), &off) ||
	    off >= s->line_size ||
	    !dwarf_diecu(cudie, &cu, &addr_size, &offset_size))
		return;
	pr.addr_size = addr_size;
	c = (struct dwarf_cursor){ s->line + off, s->line + s->line_size,
				   s->swap, false };
	pr.start = c.p;
	ok = read_header(&pr, &c, comp_dir);
	/*
	 * room for a row per 3 bytes of program, grown when short, the rest
	 * given back after: 6.1's vmlinux has one per 4.06 (1.48 at most,
	 * 12 units of 1346 over one per 3)
	 */
	pr.alloc_rows = (size_t)(c.end - c.p) / 3 + 16;
	pr.rows = xmalloc(pr.alloc_rows * sizeof(*pr.rows));
	ok = ok && run(&pr, &c);
	if (ok && pr.nr_rows) {
		/* a sequence's rows come in order: few runs */
		sort_runs(pr.rows, pr.nr_rows, sizeof(*pr.rows), before);
		/* as libdw: the last row ends a sequence */
		pr.rows[pr.nr_rows - 1].order &= ~(1u << 31);
	}
	free(pr.dirs);
	if (!ok) {
		free(pr.rows);
		free(pr.files);
		strbuf_release(&pr.names);
		return;
	}
	t->rows = xrealloc(pr.rows, (pr.nr_rows ? pr.nr_rows : 1) *
				    sizeof(*pr.rows));
	t->nr = pr.nr_rows;
	t->files = pr.files;
	t->nr_files = pr.nr_files;
	t->names = strbuf_detach(&pr.names, NULL);
}

void line_table_release(struct line_table *t)
{
	free(t->rows);
	free(t->files);
	free(t->names);
	memset(t, 0, sizeof(*t));
}

const struct line_row *line_table_find(const struct line_table *t,
				       uint64_t addr)
{
	size_t lo = 0, hi;

	if (!t->nr)
		return NULL;
	hi = t->nr - 1;
	while (lo < hi) {	/* the last row at or below addr */
		size_t mid = hi - (hi - lo) / 2;

		if (addr < t->rows[mid].addr)
			hi = mid - 1;
		else
			lo = mid;
	}
	if (line_row_ends(&t->rows[lo]) || t->rows[lo].addr > addr)
		return NULL;
	return &t->rows[lo];
}
