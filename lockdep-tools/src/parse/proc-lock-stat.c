// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/lock_stat parser; the format and the invariants are in
 * proc-lock-stat.h.
 *
 * Lines are told apart by shape, never by column position (the name is
 * right-aligned in 40 columns, but a long one pushes everything right):
 *   row      name[-W|-R]: then exactly one number per column
 *   point    name count [<addr>] symbol
 *   dashes   only '-' (header rule, or the start of a block of points)
 *   dots     only '.' (end of a class with points)
 * A row is recognised from the right: numbers contain no ':', so the
 * last ':' of the line ends the name, whatever the name holds.
 */
#include <string.h>

#include "parse/proc-line.h"
#include "parse/proc-lock-stat.h"
#include "util/strbuf.h"

enum column {
	COL_UNKNOWN,
	COL_CON_BOUNCES,
	COL_CONTENTIONS,
	COL_WAIT_MIN, COL_WAIT_MAX, COL_WAIT_TOTAL, COL_WAIT_AVG,
	COL_ACQ_BOUNCES,
	COL_ACQUISITIONS,
	COL_HOLD_MIN, COL_HOLD_MAX, COL_HOLD_TOTAL, COL_HOLD_AVG,
};

static const char *const column_names[] = {
	[COL_CON_BOUNCES] = "con-bounces",
	[COL_CONTENTIONS] = "contentions",
	[COL_WAIT_MIN] = "waittime-min",
	[COL_WAIT_MAX] = "waittime-max",
	[COL_WAIT_TOTAL] = "waittime-total",
	[COL_WAIT_AVG] = "waittime-avg",
	[COL_ACQ_BOUNCES] = "acq-bounces",
	[COL_ACQUISITIONS] = "acquisitions",
	[COL_HOLD_MIN] = "holdtime-min",
	[COL_HOLD_MAX] = "holdtime-max",
	[COL_HOLD_TOTAL] = "holdtime-total",
	[COL_HOLD_AVG] = "holdtime-avg",
};
#define NR_COLUMN_NAMES (sizeof(column_names) / sizeof(column_names[0]))
/* No version has printed more; a header with more is malformed. */
#define MAX_COLUMNS 32

struct lock_stat_state {
	struct proc_reader rd;
	const struct proc_lock_stat_ops *ops;
	void *ctx;
	enum column cols[MAX_COLUMNS];
	size_t nr_cols;
	bool in_class;		/* rows seen, the class not closed yet */
	unsigned long class_seq;	/* of the current class */
	unsigned long nr_classes;
	int blocks;		/* dashes lines seen in the current class */
	struct strbuf last_name;	/* the current class's row name */
};

static bool is_time(enum column c)
{
	return (c >= COL_WAIT_MIN && c <= COL_WAIT_AVG) ||
	       (c >= COL_HOLD_MIN && c <= COL_HOLD_AVG);
}

static void default_columns(struct lock_stat_state *s)
{
	size_t i;

	for (i = 1; i < NR_COLUMN_NAMES; i++)
		s->cols[i - 1] = (enum column)i;
	s->nr_cols = NR_COLUMN_NAMES - 1;
}

static bool only(const char *s, size_t len, char c)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] != c && s[i] != ' ')
			return false;
	return len && memchr(s, c, len);
}

/* "%40s %14s ..." after "class name" */
static void parse_header(struct lock_stat_state *s, const char *p,
			 const char *end)
{
	const char *w;
	size_t i, n = 0;

	for (;;) {
		proc_skip_blanks(&p, end);
		if (p >= end)
			break;
		w = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
		if (n == MAX_COLUMNS) {
			proc_bad(&s->rd, "too many columns in the header");
			return;
		}
		s->cols[n] = COL_UNKNOWN;
		for (i = 1; i < NR_COLUMN_NAMES; i++)
			if ((size_t)(p - w) == strlen(column_names[i]) &&
			    !memcmp(w, column_names[i], p - w))
				s->cols[n] = (enum column)i;
		n++;
	}
	if (!n) {
		proc_bad(&s->rd, "header without columns");
		return;
	}
	s->nr_cols = n;
}

/*
 * A number: digits, or a time "digits.dd" (microseconds) returned in
 * nanoseconds. A negative time (clock skew) reads as 0.
 */
static bool eat_number(const char **p, const char *end, bool time,
		       unsigned long long *v)
{
	unsigned long long ip, frac = 0;
	const char *q = *p, *f;
	bool neg = false;
	int digits;

	if (time && q < end && *q == '-') {
		neg = true;
		q++;
	}
	if (!proc_eat_ulong(&q, end, &ip))
		return false;
	if (q < end && *q == '.') {
		if (!time)
			return false;
		f = ++q;
		while (q < end && *q >= '0' && *q <= '9' && q - f < 3)
			frac = frac * 10 + (unsigned int)(*q++ - '0');
		if (q == f || (q < end && *q >= '0' && *q <= '9'))
			return false;
		for (digits = q - f; digits < 3; digits++)
			frac *= 10;
	}
	if (time) {
		if (ip > (~0ULL - frac) / 1000)
			return false;
		ip = ip * 1000 + frac;
	}
	*v = neg ? 0 : ip;
	*p = q;
	return true;
}

static void set_column(struct proc_lock_stat_row *r, enum column c,
		       unsigned long long v)
{
	switch (c) {
	case COL_CON_BOUNCES: r->con_bounces = v; r->has_bounces = true; break;
	case COL_CONTENTIONS: r->contentions = v; break;
	case COL_WAIT_MIN: r->wait.min = v; break;
	case COL_WAIT_MAX: r->wait.max = v; break;
	case COL_WAIT_TOTAL: r->wait.total = v; break;
	case COL_WAIT_AVG: r->wait.avg = v; r->has_avg = true; break;
	case COL_ACQ_BOUNCES: r->acq_bounces = v; r->has_bounces = true; break;
	case COL_ACQUISITIONS: r->acquisitions = v; break;
	case COL_HOLD_MIN: r->hold.min = v; break;
	case COL_HOLD_MAX: r->hold.max = v; break;
	case COL_HOLD_TOTAL: r->hold.total = v; break;
	case COL_HOLD_AVG: r->hold.avg = v; r->has_avg = true; break;
	case COL_UNKNOWN: break;
	}
}

/* Returns 1 if the line is a row (r filled), 0 if not, -1 if a bad row. */
static int parse_row(struct lock_stat_state *s, char *line, size_t len,
		     struct proc_lock_stat_row *r)
{
	const char *end = line + len, *p, *name;
	char *colon = memrchr(line, ':', len);
	unsigned long long v;
	size_t i;

	if (!colon)
		return 0;
	memset(r, 0, sizeof(*r));
	p = colon + 1;
	for (i = 0; i < s->nr_cols; i++) {
		proc_skip_blanks(&p, end);
		if (!eat_number(&p, end, is_time(s->cols[i]), &v))
			return i ? -1 : 0;
		set_column(r, s->cols[i], v);
	}
	proc_skip_blanks(&p, end);
	if (p != end)
		return -1;
	name = line;
	proc_skip_blanks(&name, colon);
	if (colon - name > 2 && colon[-2] == '-' &&
	    (colon[-1] == 'W' || colon[-1] == 'R')) {
		r->rw = colon[-1];
		colon -= 2;
	}
	if (colon == name)
		return -1;
	*colon = '\0';
	r->name = name;
	r->name_len = colon - name;
	return 1;
}

/* "name count [<%p>] symbol"; false if the line is not one. */
static bool parse_point(char *line, size_t len, struct proc_lock_stat_point *pt)
{
	const char *end = line + len, *p = line, *q, *ip = NULL;
	char *name_end;

	memset(pt, 0, sizeof(*pt));
	/* the last " [<" that opens a well-formed "[<%p>]" */
	for (q = line; (q = memmem(q, end - q, " [<", 3)); q++) {
		const char *t = q + 3;
		unsigned long long a;
		bool has;

		if (proc_eat_ptr(&t, end, &a, &has) && proc_eat(&t, end, ">]") &&
		    (t == end || *t == ' ')) {
			ip = q;
			pt->addr = a;
			pt->has_addr = has;
			p = t;
		}
	}
	if (!ip)
		return false;
	proc_skip_blanks(&p, end);
	if (p < end) {
		pt->symbol = p;
		pt->symbol_len = end - p;
	}
	/* back over blanks, the count, blanks: the rest is the name */
	q = ip;
	while (q > line && q[-1] == ' ')
		q--;
	while (q > line && q[-1] >= '0' && q[-1] <= '9')
		q--;
	p = q;
	if (!proc_eat_ulong(&p, ip, &pt->count) || q == line || q[-1] != ' ')
		return false;
	while (q > line && q[-1] == ' ')
		q--;
	p = line;
	proc_skip_blanks(&p, q);
	if (p == q)
		return false;
	name_end = (char *)q;
	*name_end = '\0';
	pt->name = p;
	pt->name_len = q - p;
	return true;
}

static int do_row(struct lock_stat_state *s, struct proc_lock_stat_row *r)
{
	/* -W then -R of one class share the name; anything else is new */
	if (!s->in_class || s->blocks || r->rw != 'R' ||
	    s->last_name.len != r->name_len ||
	    memcmp(s->last_name.buf, r->name, r->name_len))
		s->class_seq = s->nr_classes++;
	s->in_class = true;
	s->blocks = 0;
	strbuf_reset(&s->last_name);
	strbuf_add(&s->last_name, r->name, r->name_len);
	r->class_seq = s->class_seq;
	r->line = s->rd.lineno;
	s->rd.st->records++;
	return s->ops && s->ops->row_fn ? s->ops->row_fn(r, s->ctx) : 0;
}

static int do_point(struct lock_stat_state *s, struct proc_lock_stat_point *pt)
{
	if (!s->in_class || !s->blocks) {
		proc_bad(&s->rd, "contention point outside a class");
		return 0;
	}
	pt->kind = s->blocks == 1 ? PROC_POINT_CONTENTION :
				    PROC_POINT_CONTENDING;
	pt->class_seq = s->class_seq;
	pt->line = s->rd.lineno;
	s->rd.st->records++;
	return s->ops && s->ops->point_fn ? s->ops->point_fn(pt, s->ctx) : 0;
}

static int do_line(struct lock_stat_state *s)
{
	char *line = s->rd.line;
	const char *p = line, *end = line + s->rd.len;
	struct proc_lock_stat_point pt;
	struct proc_lock_stat_row r;
	int kind;

	proc_skip_blanks(&p, end);
	if (p == end)
		return 0;
	if (proc_eat(&p, end, "lock_stat version ")) {
		snprintf(s->rd.st->version, sizeof(s->rd.st->version), "%.*s",
			 (int)(end - p), p);
		s->rd.st->notes |= PROC_NOTE_HEADER;
		s->in_class = false;
		return 0;
	}
	if (proc_eat(&p, end, "*WARNING* lock debugging disabled")) {
		s->rd.st->notes |= PROC_NOTE_DEBUG_DISABLED;
		return 0;
	}
	if (proc_eat(&p, end, "class name")) {
		parse_header(s, p, end);
		s->in_class = false;
		return 0;
	}
	if (only(line, s->rd.len, '-')) {
		if (s->in_class)
			s->blocks++;
		return 0;
	}
	if (only(line, s->rd.len, '.')) {
		s->in_class = false;
		return 0;
	}
	kind = parse_row(s, line, s->rd.len, &r);
	if (kind > 0)
		return do_row(s, &r);
	if (kind == 0 && parse_point(line, s->rd.len, &pt))
		return do_point(s, &pt);
	if (kind < 0)
		proc_bad(&s->rd, "malformed row: expected %zu numbers",
			 s->nr_cols);
	else
		proc_bad(&s->rd, "unrecognised line");
	return 0;
}

int proc_lock_stat_parse(FILE *in, const char *input, unsigned int flags,
			 const struct proc_lock_stat_ops *ops, void *ctx,
			 struct proc_parse_stats *st)
{
	struct lock_stat_state s;
	int ret = 0;

	memset(&s, 0, sizeof(s));
	s.ops = ops;
	s.ctx = ctx;
	strbuf_init(&s.last_name);
	default_columns(&s);
	proc_reader_init(&s.rd, in, input, flags, st);
	while (!ret && proc_reader_next(&s.rd))
		ret = do_line(&s);
	if (proc_reader_finish(&s.rd) && !ret)
		ret = -1;
	strbuf_release(&s.last_name);
	return ret;
}
