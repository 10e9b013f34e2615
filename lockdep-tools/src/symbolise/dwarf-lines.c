// SPDX-License-Identifier: GPL-2.0
/*
 * Source lines and inline chains from DWARF, one map per compilation
 * unit.
 *
 * addr2line -i asks dwarf_getscopes() for every address, which walks the
 * unit's DIE tree from its root each time. Kernel units are large and a
 * stack holds many addresses of the same few units, so instead the first
 * address of a unit walks its tree once and builds a map: the unit's
 * address space cut into spans, each naming its innermost scope (a
 * subprogram or an inlined subroutine) whose parent links give the
 * chain. Later addresses of the unit are a binary search. The map also
 * holds the unit's line table (line-table.c), read with it.
 *
 * Invariants:
 *  (1) map->spans[] is sorted by strictly increasing start; span i
 *      covers [start[i], start[i + 1]); the last span has scope -1.
 *  (2) scopes[s].parent < s: parents are added before their children.
 *  (3) A piece of an inlined subroutine that sticks out of its parent's
 *      piece (malformed DWARF) is clipped to it, so spans never overlap.
 *
 * File names are made relative to the unit's DW_AT_comp_dir (the kernel
 * build directory), as the kernel's own tools print them.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>

#include "symbolise/binary.h"
#include "symbolise/index.h"
#include "symbolise/line-table.h"
#include "util/hash.h"
#include "util/sort-runs.h"
#include "util/xalloc.h"

struct cu_scope {
	Dwarf_Off die;
	int parent;
	bool inlined;
	bool has_call_file, has_call_line;
	uint64_t call_file, call_line;
	/* its name (dwarf_diename()), once asked for; looked_up: asked */
	const char *name;
	bool looked_up;
};

struct cu_piece {
	unsigned long long lo, hi;
	int scope;
};

struct cu_span {
	unsigned long long start;
	int scope;
};

struct cu_map {
	const char *comp_dir;	/* or NULL */
	struct line_table lines;
	/* each file's name relative(), made when first asked for */
	char **rel;
	struct cu_scope *scopes;
	size_t nr_scopes, alloc_scopes;
	struct cu_span *spans;
	size_t nr_spans, alloc_spans;
};

struct cu_build {
	struct cu_map *map;
	struct cu_piece *pieces;
	size_t nr_pieces, alloc_pieces;
};

/* die_scope_fn: @s a scope if it has code (its index), else -1 */
static int add_scope(void *data, const struct die_scope *s, int parent)
{
	struct cu_build *cb = data;
	struct cu_map *m = cb->map;
	int id = -1;

	for (size_t i = 0; i < s->nr; i++) {
		if (s->r[i].lo >= s->r[i].hi)
			continue;
		if (id < 0) {
			ALLOC_GROW(m->scopes, m->nr_scopes + 1, m->alloc_scopes);
			id = (int)m->nr_scopes++;
			m->scopes[id] = (struct cu_scope){
				.die = s->die,
				.parent = parent,
				.inlined = s->inlined,
				.has_call_file = s->has_call_file,
				.has_call_line = s->has_call_line,
				.call_file = s->call_file,
				.call_line = s->call_line,
			};
		}
		ALLOC_GROW(cb->pieces, cb->nr_pieces + 1, cb->alloc_pieces);
		cb->pieces[cb->nr_pieces++] =
			(struct cu_piece){ s->r[i].lo, s->r[i].hi, id };
	}
	return id;
}

static bool piece_before(const void *a, const void *b)
{
	const struct cu_piece *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo;
	if (x->hi != y->hi)
		return x->hi > y->hi;	/* outer first */
	return x->scope < y->scope;	/* parents first (2) */
}

static void emit(struct cu_map *m, unsigned long long start, int scope)
{
	if (m->nr_spans && m->spans[m->nr_spans - 1].scope == scope)
		return;
	ALLOC_GROW(m->spans, m->nr_spans + 1, m->alloc_spans);
	m->spans[m->nr_spans++] = (struct cu_span){ start, scope };
}

/* Cut the unit's address space into spans of innermost scopes (1). */
static void build_spans(struct cu_build *cb)
{
	struct cu_map *m = cb->map;
	struct cu_piece *stack = xmalloc((cb->nr_pieces + 1) * sizeof(*stack));
	unsigned long long cur = 0;
	size_t sp = 0;

	/* in DIE order, mostly in address order: few runs */
	sort_runs(cb->pieces, cb->nr_pieces, sizeof(*cb->pieces), piece_before);
	for (size_t i = 0; i < cb->nr_pieces; i++) {
		struct cu_piece p = cb->pieces[i];

		while (sp && stack[sp - 1].hi <= p.lo) {
			if (cur < stack[sp - 1].hi) {
				emit(m, cur, stack[sp - 1].scope);
				cur = stack[sp - 1].hi;
			}
			sp--;
		}
		if (cur < p.lo || !m->nr_spans)
			emit(m, cur, sp ? stack[sp - 1].scope : -1);
		if (sp && p.hi > stack[sp - 1].hi)
			p.hi = stack[sp - 1].hi;	/* (3) */
		cur = p.lo;
		stack[sp++] = p;
	}
	while (sp) {
		if (cur < stack[sp - 1].hi) {
			emit(m, cur, stack[sp - 1].scope);
			cur = stack[sp - 1].hi;
		}
		sp--;
	}
	emit(m, cur, -1);
	free(stack);
}

static struct cu_map *build_map(struct sym_binary *b, Dwarf_Die *cudie)
{
	struct cu_map *m = xcalloc(1, sizeof(*m));
	struct cu_build cb = { .map = m };
	Dwarf_Attribute attr;

	m->comp_dir = dwarf_string_inside(&b->sec,
		dwarf_formstring(dwarf_attr(cudie, DW_AT_comp_dir, &attr)));
	line_table_read(&b->sec, cudie, m->comp_dir, &m->lines);
	die_walk_scopes(b->dwarf, &b->sec, cudie, add_scope, &cb);
	build_spans(&cb);
	free(cb.pieces);
	return m;
}

static void free_map(struct cu_map *m)
{
	if (m->rel)
		for (size_t i = 0; i < m->lines.nr_files; i++)
			free(m->rel[i]);
	free(m->rel);
	line_table_release(&m->lines);
	free(m->scopes);
	free(m->spans);
	free(m);
}

static struct cu_map *cu_map_of(struct sym_binary *b, Dwarf_Die *cudie)
{
	unsigned long long off = dwarf_dieoffset(cudie);
	uint64_t h = u64_hash(off);
	struct hindex_probe p;
	uint32_t i;

	for (i = hindex_first(&b->cu_index, h, &p); i != HINDEX_NONE;
	     i = hindex_next(&b->cu_index, &p))
		if (b->cus[i].off == off)
			return b->cus[i].map;
	ALLOC_GROW(b->cus, b->nr_cus + 1, b->alloc_cus);
	b->cus[b->nr_cus].off = off;
	b->cus[b->nr_cus].map = build_map(b, cudie);
	hindex_add(&b->cu_index, h, (uint32_t)b->nr_cus);
	return b->cus[b->nr_cus++].map;
}

void sym_binary_free_cus(struct sym_binary *b)
{
	for (size_t i = 0; i < b->nr_cus; i++)
		free_map(b->cus[i].map);
	free(b->cus);
	b->cus = NULL;
	b->nr_cus = b->alloc_cus = 0;
	hindex_release(&b->cu_index);
}

void sym_binary_unit_points(struct sym_binary *b, Dwarf_Die *cudie,
			    unsigned long long bias,
			    void (*add)(void *data, unsigned long long addr),
			    void *data)
{
	struct cu_map *m = cu_map_of(b, cudie);

	for (size_t i = 0; i < m->nr_spans; i++)
		add(data, m->spans[i].start + bias);
	for (size_t i = 0; i < m->lines.nr; i++)
		add(data, m->lines.rows[i].addr + bias);
}

/*
 * path relative to the build directory, without a leading "./" or
 * doubled slashes (a line table directory "asm/" joined with "/x.h")
 */
static char *relative(const struct cu_map *m, const char *path)
{
	size_t n = m->comp_dir ? strlen(m->comp_dir) : 0;
	char *rel, *w;

	if (n && !strncmp(path, m->comp_dir, n) && path[n] == '/')
		path += n + 1;
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	rel = w = xstrdup(path);
	for (const char *r = rel; *r; r++)
		if (r[0] != '/' || r[1] != '/')
			*w++ = *r;
	*w = '\0';
	return rel;
}

/* File number @i of the unit, relative(); NULL if none. */
static const char *unit_file(struct cu_map *m, uint64_t i)
{
	if (i >= m->lines.nr_files)
		return NULL;
	if (!m->rel)
		m->rel = xcalloc(m->lines.nr_files, sizeof(*m->rel));
	if (!m->rel[i])
		m->rel[i] = relative(m, line_table_file(&m->lines, i));
	return m->rel[i];
}

static int innermost_scope(const struct cu_map *m, unsigned long long pc)
{
	size_t lo = 0, hi = m->nr_spans;

	while (lo < hi) {	/* first span starting above pc */
		size_t mid = lo + (hi - lo) / 2;

		if (m->spans[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? m->spans[lo - 1].scope : -1;
}

/* The name of scope @sc, looked up once (NULL: none). */
static const char *scope_name(struct sym_binary *b, struct cu_scope *sc)
{
	Dwarf_Die die;

	if (!sc->looked_up && dwarf_offdie(b->dwarf, sc->die, &die))
		sc->name = dwarf_diename(&die);
	sc->looked_up = true;
	return sc->name;
}

void sym_frame_clear_source(struct ldr_frame *f, bool borrow)
{
	for (size_t i = 0; i < f->nr_inl && !f->source_borrowed; i++) {
		free(f->inl[i].func);
		free(f->inl[i].file);
	}
	free(f->inl);
	if (!f->source_borrowed)
		free(f->file);
	f->inl = NULL;
	f->nr_inl = 0;
	f->file = NULL;
	f->line = 0;
	f->source_borrowed = borrow;
}

bool sym_binary_source(struct sym_binary *b, unsigned long long pc,
		       struct ldr_frame *f, bool borrow)
{
	Dwarf_Addr bias;
	Dwarf_Die *cudie;
	const struct line_row *line;
	struct cu_map *m;
	const char *file = NULL;
	unsigned int lineno = 0;
	size_t alloc = 0;
	int s;

	if (b->index)
		return sym_index_source(b->index, pc, f, borrow);
	if (!b->dwarf)
		return false;
	cudie = dwfl_module_addrdie(b->mod, pc, &bias);
	if (!cudie)
		return false;
	m = cu_map_of(b, cudie);
	pc -= bias;
	line = line_table_find(&m->lines, pc);
	if (line) {
		file = unit_file(m, line->file);
		lineno = (unsigned int)line->line;
	}
	sym_frame_clear_source(f, borrow);
	for (s = innermost_scope(m, pc); s >= 0 && m->scopes[s].inlined;
	     s = m->scopes[s].parent) {
		struct cu_scope *sc = &m->scopes[s];
		const char *name = scope_name(b, sc);

		ALLOC_GROW(f->inl, f->nr_inl + 1, alloc);
		f->inl[f->nr_inl].func = sym_answer_string(borrow,
							   name ? name : "??");
		f->inl[f->nr_inl].file = sym_answer_string(borrow, file);
		f->inl[f->nr_inl].line = lineno;
		f->nr_inl++;
		/* the call site, where a name was found */
		file = name && sc->has_call_file ?
			unit_file(m, sc->call_file) : NULL;
		lineno = name && sc->has_call_line ?
			(unsigned int)sc->call_line : 0;
	}
	f->file = sym_answer_string(borrow, file);
	f->line = lineno;
	return file != NULL;
}

size_t sym_binary_sources(struct sym_lookup *v, size_t nr)
{
	size_t with_line = 0, i = 0, j;

	while (i < nr) {
		struct sym_binary *b = v[i].bin;

		if (!b->index) {
			with_line += sym_binary_source(b, v[i].pc, v[i].f,
						       v[i].borrow);
			i++;
			continue;
		}
		for (j = i + 1; j < nr && v[j].bin == b; j++)
			;
		with_line += sym_index_sources(b->index, v + i, j - i);
		i = j;
	}
	return with_line;
}
