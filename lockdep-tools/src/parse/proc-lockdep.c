// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/lockdep parser; the format and the invariants are in
 * proc-lockdep.h. A class line is read left to right: key, the optional
 * OPS:/FD:/BD: columns, the optional usage string, ": ", and the name,
 * which is everything after that (it may hold any byte, ": " included).
 */
#include <string.h>

#include "parse/klog-shapes.h"
#include "parse/proc-line.h"
#include "parse/proc-lockdep.h"
#include "util/strbuf.h"

struct lockdep_state {
	struct proc_reader rd;
	const struct proc_lockdep_ops *ops;
	void *ctx;
	struct proc_lockdep_class cur;	/* valid while have_cur */
	struct strbuf name, usage;	/* cur's strings */
	bool have_cur;
	bool open;	/* cur waits for its closing blank line */
	bool blank_ends;	/* this file ends classes with blank lines */
};

static bool usage_char(const char *p, const char *end)
{
	if (*p == '-' && p + 1 < end && p[1] == '{')
		return false;	/* the wait-type suffix */
	return *p == '.' || *p == '+' || *p == '-' || *p == '?';
}

/* "-{outer:inner}" */
static bool eat_wait(const char **p, const char *end, int *outer, int *inner)
{
	const char *q = *p;
	unsigned long long o, i;

	if (!proc_eat(&q, end, "-{") || !proc_eat_ulong(&q, end, &o) ||
	    !proc_eat(&q, end, ":") || !proc_eat_ulong(&q, end, &i) ||
	    !proc_eat(&q, end, "}") || o > 255 || i > 255)
		return false;
	*outer = (int)o;
	*inner = (int)i;
	*p = q;
	return true;
}

static const char *parse_class(struct lockdep_state *s, const char *p,
			       const char *end, struct proc_lockdep_class *c)
{
	const char *u;
	long v;

	memset(c, 0, sizeof(*c));
	c->wait_outer = c->wait_inner = -1;
	if (!proc_eat_ptr(&p, end, &c->key, &c->has_key))
		return "no class key";
	for (;;) {
		proc_skip_blanks(&p, end);
		if (p >= end)
			return "no ': ' before the class name";
		if (proc_eat(&p, end, "OPS:")) {
			proc_skip_blanks(&p, end);
			if (!proc_eat_long(&p, end, &v))
				return "bad OPS: count";
			c->ops = v;
			c->has_ops = true;
		} else if (proc_eat(&p, end, "FD:")) {
			proc_skip_blanks(&p, end);
			if (!proc_eat_long(&p, end, &v))
				return "bad FD: count";
			c->fd = v;
			c->has_deps = true;
		} else if (proc_eat(&p, end, "BD:")) {
			proc_skip_blanks(&p, end);
			if (!proc_eat_long(&p, end, &v))
				return "bad BD: count";
			c->bd = v;
			c->has_deps = true;
		} else if (*p == ':') {
			break;
		} else if (!c->usage && usage_char(p, end)) {
			u = p;
			while (p < end && usage_char(p, end))
				p++;
			c->usage = u;
			c->usage_len = p - u;
			if (p < end && *p == '-' &&
			    !eat_wait(&p, end, &c->wait_outer, &c->wait_inner))
				return "bad wait type";
		} else {
			return "unexpected text before the class name";
		}
	}
	if (!proc_eat(&p, end, ": ") || p >= end)
		return "no class name";
	c->name = p;
	c->name_len = end - p;
	if (c->usage)
		c->usage_bits = klog_decode_usage(c->usage, c->usage_len,
				(s->rd.flags & PROC_PARSE_LEGACY_USAGE));
	return NULL;
}

static int new_class(struct lockdep_state *s, const char *line, size_t len)
{
	struct proc_lockdep_class *c = &s->cur;
	const char *why;

	s->have_cur = s->open = false;
	why = parse_class(s, line, line + len, c);
	if (why) {
		proc_bad(&s->rd, "%s", why);
		return 0;
	}
	/* own the strings: dep_fn sees them after the line buffer moved on */
	strbuf_reset(&s->name);
	strbuf_add(&s->name, c->name, c->name_len);
	c->name = s->name.buf;
	if (c->usage) {
		strbuf_reset(&s->usage);
		strbuf_add(&s->usage, c->usage, c->usage_len);
		c->usage = s->usage.buf;
	}
	c->class_len = proc_split_name(c->name, c->name_len, &c->version,
				       &c->subclass);
	c->line = s->rd.lineno;
	s->have_cur = true;
	s->open = c->has_deps;
	s->rd.st->records++;
	return s->ops && s->ops->class_fn ? s->ops->class_fn(c, s->ctx) : 0;
}

static int new_dep(struct lockdep_state *s, const char *p, const char *end)
{
	struct proc_lockdep_dep d;

	memset(&d, 0, sizeof(d));
	if (!s->have_cur) {
		proc_bad(&s->rd, "dependency outside a class");
		return 0;
	}
	proc_skip_blanks(&p, end);
	if (!proc_eat(&p, end, "-> [") ||
	    !proc_eat_ptr(&p, end, &d.key, &d.has_key) ||
	    !proc_eat(&p, end, "] ") || p >= end) {
		proc_bad(&s->rd, "malformed dependency line");
		return 0;
	}
	d.name = p;
	d.name_len = end - p;
	d.class_len = proc_split_name(d.name, d.name_len, &d.version,
				      &d.subclass);
	d.line = s->rd.lineno;
	s->rd.st->records++;
	return s->ops && s->ops->dep_fn ?
		s->ops->dep_fn(&s->cur, &d, s->ctx) : 0;
}

int proc_lockdep_parse(FILE *in, const char *input, unsigned int flags,
		       const struct proc_lockdep_ops *ops, void *ctx,
		       struct proc_parse_stats *st)
{
	struct lockdep_state s;
	const char *line, *p;
	int ret = 0;

	memset(&s, 0, sizeof(s));
	s.ops = ops;
	s.ctx = ctx;
	strbuf_init(&s.name);
	strbuf_init(&s.usage);
	proc_reader_init(&s.rd, in, input, flags, st);
	while (!ret && proc_reader_next(&s.rd)) {
		line = s.rd.line;
		p = line;
		proc_skip_blanks(&p, line + s.rd.len);
		if (p == line + s.rd.len) {
			s.blank_ends |= s.open;
			s.have_cur = s.open = false;
		} else if (!strcmp(line, "all lock classes:")) {
			s.rd.st->notes |= PROC_NOTE_HEADER;
		} else if (p[0] == '-' && p[1] == '>') {
			ret = new_dep(&s, line, line + s.rd.len);
		} else if (p == line) {
			ret = new_class(&s, line, s.rd.len);
		} else {
			proc_bad(&s.rd, "unrecognised line");
		}
	}
	/* 2.6.17 printed FD:/BD: but no blank lines: not a cut file */
	if (!ret && s.open && s.blank_ends)
		s.rd.st->notes |= PROC_NOTE_TRUNCATED;
	if (proc_reader_finish(&s.rd) && !ret)
		ret = -1;
	strbuf_release(&s.name);
	strbuf_release(&s.usage);
	return ret;
}
