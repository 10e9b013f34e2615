// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/lockdep_chains parser; the format and the invariants are in
 * proc-chains.h. The classes of the chain being read are kept with
 * their names in one buffer, as offsets (the buffer moves when it
 * grows), and turned into pointers when the chain is delivered.
 */
#include <stdlib.h>
#include <string.h>

#include "parse/proc-chains.h"
#include "parse/proc-line.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct chains_state {
	struct proc_reader rd;
	const struct proc_chains_ops *ops;
	void *ctx;
	bool open;			/* a chain is being read */
	struct proc_lockdep_chain chain;
	struct strbuf irq_text;
	struct strbuf names;		/* class names, NUL-separated */
	struct proc_chain_class *classes;
	size_t *name_off;
	size_t nr, alloc, alloc_off;
};

static const char *const irq_names[] = {
	"0", "hardirq", "softirq", "hardirq|softirq",
};

static int end_chain(struct chains_state *s)
{
	size_t i;

	if (!s->open)
		return 0;
	s->open = false;
	for (i = 0; i < s->nr; i++)
		s->classes[i].name = s->names.buf + s->name_off[i];
	s->chain.classes = s->classes;
	s->chain.nr_classes = s->nr;
	s->chain.irq_text = s->irq_text.buf;
	s->rd.st->records++;
	return s->ops && s->ops->chain_fn ?
		s->ops->chain_fn(&s->chain, s->ctx) : 0;
}

static bool parse_irq(const char *p, const char *end, unsigned int *irq)
{
	unsigned long long v;
	const char *q = p;
	size_t i;

	if (proc_eat_ulong(&q, end, &v) && q == end && v <= 3) {
		*irq = (unsigned int)v;
		return true;
	}
	for (i = 1; i < sizeof(irq_names) / sizeof(irq_names[0]); i++)
		if ((size_t)(end - p) == strlen(irq_names[i]) &&
		    !memcmp(p, irq_names[i], end - p)) {
			*irq = (unsigned int)i;
			return true;
		}
	return false;
}

static int new_chain(struct chains_state *s, const char *p, const char *end)
{
	unsigned int irq;
	int ret = end_chain(s);

	if (ret)
		return ret;
	proc_skip_blanks(&p, end);
	if (!parse_irq(p, end, &irq)) {
		proc_bad(&s->rd, "unknown irq_context");
		return 0;
	}
	memset(&s->chain, 0, sizeof(s->chain));
	s->chain.irq_context = irq;
	s->chain.line = s->rd.lineno;
	strbuf_reset(&s->irq_text);
	strbuf_add(&s->irq_text, p, end - p);
	strbuf_reset(&s->names);
	s->nr = 0;
	s->open = true;
	return 0;
}

static void add_class(struct chains_state *s, const char *p, const char *end)
{
	struct proc_chain_class c;

	memset(&c, 0, sizeof(c));
	if (!s->open) {
		proc_bad(&s->rd, "class outside a chain");
		return;
	}
	if (!proc_eat(&p, end, "[") || !proc_eat_ptr(&p, end, &c.key, &c.has_key) ||
	    !proc_eat(&p, end, "] ") || p >= end) {
		proc_bad(&s->rd, "malformed chain class line");
		return;
	}
	c.name_len = end - p;
	c.line = s->rd.lineno;
	ALLOC_GROW(s->classes, s->nr + 1, s->alloc);
	ALLOC_GROW(s->name_off, s->nr + 1, s->alloc_off);
	s->name_off[s->nr] = s->names.len;
	strbuf_add(&s->names, p, end - p);
	strbuf_addch(&s->names, '\0');
	s->classes[s->nr++] = c;
}

int proc_chains_parse(FILE *in, const char *input, unsigned int flags,
		      const struct proc_chains_ops *ops, void *ctx,
		      struct proc_parse_stats *st)
{
	struct chains_state s;
	const char *line, *end, *p;
	int ret = 0;

	memset(&s, 0, sizeof(s));
	s.ops = ops;
	s.ctx = ctx;
	strbuf_init(&s.irq_text);
	strbuf_init(&s.names);
	proc_reader_init(&s.rd, in, input, flags, st);
	while (!ret && proc_reader_next(&s.rd)) {
		line = p = s.rd.line;
		end = line + s.rd.len;
		if (proc_is_blank(line, s.rd.len)) {
			ret = end_chain(&s);
		} else if (proc_eat(&p, end, "irq_context:")) {
			ret = new_chain(&s, p, end);
		} else if (line[0] == '[') {
			add_class(&s, line, end);
		} else if (!strcmp(line, "all lock chains:")) {
			s.rd.st->notes |= PROC_NOTE_HEADER;
		} else if (!strcmp(line, "(buggered) all lock chains:")) {
			s.rd.st->notes |= PROC_NOTE_HEADER | PROC_NOTE_BUGGERED;
		} else {
			proc_bad(&s.rd, "unrecognised line");
		}
	}
	if (!ret && s.open) {
		s.rd.st->notes |= PROC_NOTE_TRUNCATED;
		ret = end_chain(&s);
	}
	if (proc_reader_finish(&s.rd) && !ret)
		ret = -1;
	strbuf_release(&s.irq_text);
	strbuf_release(&s.names);
	free(s.classes);
	free(s.name_off);
	return ret;
}
