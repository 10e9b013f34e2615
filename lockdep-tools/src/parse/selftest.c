// SPDX-License-Identifier: GPL-2.0
/*
 * Boot self-test table parser; the format and the invariants are in
 * selftest.h. Each physical line loses its log prefixes first
 * (klog_strip_prefix()); the table's lines are whole printk() records,
 * so no re-joining is needed.
 */
#include <stdlib.h>
#include <string.h>

#include "parse/klog-line.h"
#include "parse/proc-line.h"
#include "parse/selftest.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char main_section[] = "Locking API testsuite";
/* A cell is 6 characters and its '|'. */
#define CELL_WIDTH 7

struct selftest_state {
	struct proc_reader rd;
	const struct selftest_ops *ops;
	void *ctx;
	bool in_table;
	struct strbuf section;
	char **columns;
	size_t nr_columns, alloc_columns;
	struct selftest_cell *cells;
	size_t nr_cells, alloc_cells;
};

static const char *const result_names[] = {
	[SELFTEST_NONE] = "none",
	[SELFTEST_OK] = "ok",
	[SELFTEST_FAILED] = "failed",
	[SELFTEST_UNEXPECTED] = "FAILED",
};

const char *selftest_result_name(enum selftest_result r)
{
	if ((unsigned int)r >= sizeof(result_names) / sizeof(result_names[0]))
		return NULL;
	return result_names[r];
}

static void trim(const char **b, const char **e)
{
	while (*b < *e && (**b == ' ' || **b == '\t'))
		(*b)++;
	while (*e > *b && ((*e)[-1] == ' ' || (*e)[-1] == '\t'))
		(*e)--;
}

static void clear_columns(struct selftest_state *s)
{
	size_t i;

	for (i = 0; i < s->nr_columns; i++)
		free(s->columns[i]);
	s->nr_columns = 0;
}

static void set_section(struct selftest_state *s, const char *b, const char *e)
{
	trim(&b, &e);
	strbuf_reset(&s->section);
	strbuf_add(&s->section, b, e - b);
	clear_columns(s);
}

/* "     | spin |wlock |...|rtmutex": the words between the bars */
static void set_columns(struct selftest_state *s, const char *p,
			const char *end)
{
	const char *b, *e;

	clear_columns(s);
	while (p < end) {
		b = ++p;	/* past the '|' */
		p = memchr(b, '|', end - b);
		if (!p)
			p = end;
		e = p;
		trim(&b, &e);
		if (b == e)
			continue;
		ALLOC_GROW(s->columns, s->nr_columns + 1, s->alloc_columns);
		s->columns[s->nr_columns++] = xstrndup(b, e - b);
	}
}

static void add_cell(struct selftest_state *s, enum selftest_result r)
{
	struct selftest_cell *c;

	ALLOC_GROW(s->cells, s->nr_cells + 1, s->alloc_cells);
	c = &s->cells[s->nr_cells];
	c->result = r;
	c->column = (unsigned int)s->nr_cells;
	c->column_name = s->nr_cells < s->nr_columns ?
			 s->columns[s->nr_cells] : NULL;
	s->nr_cells++;
}

static bool word_is(const char *b, const char *e, const char *w)
{
	return (size_t)(e - b) == strlen(w) && !memcmp(b, w, e - b);
}

/* name: cells; colon and bar point into [line, end). */
static int do_row(struct selftest_state *s, const char *line, const char *colon,
		  const char *end)
{
	const char *nb = line, *ne = colon, *p = colon + 1, *bar, *b, *e;
	const char *last = NULL;
	struct selftest_row row;
	size_t w;

	for (bar = p; (bar = memchr(bar, '|', end - bar)); bar++)
		last = bar;
	s->nr_cells = 0;
	while (p <= last) {
		bar = memchr(p, '|', last + 1 - p);
		b = p;
		e = bar;
		w = e - b;
		trim(&b, &e);
		if (b == e) {
			for (w = (w + 1) / CELL_WIDTH, w = w ? w : 1; w; w--)
				add_cell(s, SELFTEST_NONE);
		} else if (word_is(b, e, "ok")) {
			add_cell(s, SELFTEST_OK);
		} else if (word_is(b, e, "failed")) {
			add_cell(s, SELFTEST_FAILED);
		} else if (word_is(b, e, "FAILED")) {
			add_cell(s, SELFTEST_UNEXPECTED);
		} else {
			proc_bad(&s->rd, "unknown self-test cell '%.*s'",
				 (int)(e - b), b);
			return 0;
		}
		p = bar + 1;
	}
	trim(&nb, &ne);
	if (nb == ne) {
		proc_bad(&s->rd, "self-test row without a name");
		return 0;
	}
	memset(&row, 0, sizeof(row));
	row.section = s->section.buf;
	((char *)ne)[0] = '\0';	/* the line is ours: end the name */
	row.name = nb;
	row.name_len = ne - nb;
	row.nr_cells = s->nr_cells;
	row.cells = s->cells;
	row.line = s->rd.lineno;
	s->rd.st->records++;
	return s->ops && s->ops->row_fn ? s->ops->row_fn(&row, s->ctx) : 0;
}

static bool parse_summary(const char *t, struct selftest_summary *sum)
{
	unsigned int a, b;
	int n = -1;

	memset(sum, 0, sizeof(*sum));
	if (sscanf(t, "Good, all %u testcases passed! |%n", &a, &n) == 1 &&
	    n > 0) {
		sum->outcome = SELFTEST_ALL_PASSED;
		sum->total = a;
	} else if (sscanf(t, "%u out of %u testcases failed, as expected. |%n",
			  &a, &b, &n) == 2 && n > 0) {
		sum->outcome = SELFTEST_EXPECTED_FAILURES;
		sum->failures = a;
		sum->total = b;
	} else if (sscanf(t, "All %u testcases failed, as expected. |%n",
			  &a, &n) == 1 && n > 0) {
		sum->outcome = SELFTEST_ALL_FAILED_EXPECTED;
		sum->failures = sum->total = a;
	} else if (sscanf(t, "BUG: %u unexpected failures (out of %u) - "
			  "debugging disabled! |%n", &a, &b, &n) == 2 && n > 0) {
		sum->outcome = SELFTEST_UNEXPECTED_FAILURES;
		sum->failures = a;
		sum->total = b;
	} else {
		return false;
	}
	return true;
}

/* The kernel prints its rows in printable ASCII (and tabs). */
static bool printable(const char *p, const char *end)
{
	for (; p < end; p++)
		if ((*p < ' ' && *p != '\t') || (unsigned char)*p >= 0x7f)
			return false;
	return true;
}

static int do_line(struct selftest_state *s, char *text, size_t len)
{
	const char *end = text + len, *p = text, *bar, *colon;
	struct selftest_summary sum;

	proc_skip_blanks(&p, end);
	if (strstr(p, "| Locking API testsuite disabled |")) {
		s->rd.st->notes |= PROC_NOTE_SELFTEST_DISABLED;
		return 0;
	}
	if (proc_eat(&p, end, "| Locking API testsuite:")) {
		s->in_table = true;
		s->rd.st->notes |= PROC_NOTE_HEADER;
		set_section(s, main_section,
			    main_section + sizeof(main_section) - 1);
		return 0;
	}
	if (parse_summary(p, &sum)) {
		s->in_table = false;
		sum.line = s->rd.lineno;
		s->rd.st->records++;
		return s->ops && s->ops->summary_fn ?
			s->ops->summary_fn(&sum, s->ctx) : 0;
	}
	bar = memchr(p, '|', end - p);
	if (!bar)
		return 0;	/* separators, other kernel output */
	if (bar == p) {
		/*
		 * "| Wound/wait tests |" is a banner (two bars around one
		 * title); "| spin |wlock |...|rtmutex" and "|block | try
		 * |context|" are column headers.
		 */
		const char *e = end;

		trim(&p, &e);
		if (e - p > 2 && e[-1] == '|' && !memchr(p + 1, '|', e - p - 2)) {
			if (s->in_table)
				set_section(s, p + 1, e - 1);
			return 0;
		}
		if (!s->in_table && memmem(p, e - p, "| spin |", 8))
			s->in_table = true;
		if (s->in_table)
			set_columns(s, p, e);
		return 0;
	}
	/* not a row: bytes glued on a log cut inside the table are not one */
	if (!s->in_table || !printable(p, end))
		return 0;
	colon = memrchr(p, ':', bar - p);
	if (!colon)
		return 0;
	return do_row(s, text, colon, end);
}

int selftest_parse(FILE *in, const char *input, unsigned int flags,
		   const struct selftest_ops *ops, void *ctx,
		   struct proc_parse_stats *st)
{
	struct selftest_state s;
	struct klog_prefix pfx;
	size_t off;
	int ret = 0;

	memset(&s, 0, sizeof(s));
	s.ops = ops;
	s.ctx = ctx;
	strbuf_init(&s.section);
	/* the table is read from a kernel log, which may have CRLF ends */
	proc_reader_init(&s.rd, in, input, flags | PROC_PARSE_CRLF, st);
	while (!ret && proc_reader_next(&s.rd)) {
		off = klog_strip_prefix(s.rd.line, s.rd.len, &pfx);
		ret = do_line(&s, s.rd.line + off, s.rd.len - off);
	}
	if (!ret && s.in_table)
		s.rd.st->notes |= PROC_NOTE_TRUNCATED;
	if (proc_reader_finish(&s.rd) && !ret)
		ret = -1;
	clear_columns(&s);
	free(s.columns);
	free(s.cells);
	strbuf_release(&s.section);
	return ret;
}
