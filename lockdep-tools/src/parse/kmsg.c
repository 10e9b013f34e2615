// SPDX-License-Identifier: GPL-2.0
/*
 * The /dev/kmsg record parser (format and invariants in kmsg.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/kmsg.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define KMSG_CALLER_MAX	16

struct kmsg_parser {
	char *input;
	kmsg_line_fn fn;
	void *data;
	unsigned long lineno;
	uint64_t records;
	uint64_t last_seq;
	unsigned long long last_usec;
	bool in_record;		/* dictionary lines may follow */
	struct strbuf text;	/* unescaped text of the record */
	struct strbuf line;	/* one output line */
};

struct kmsg_parser *kmsg_parser_new(const char *input, kmsg_line_fn fn,
				    void *data)
{
	struct kmsg_parser *p = xcalloc(1, sizeof(*p));

	p->input = xstrdup(input);
	p->fn = fn;
	p->data = data;
	strbuf_init(&p->text);
	strbuf_init(&p->line);
	return p;
}

void kmsg_parser_free(struct kmsg_parser *p)
{
	if (!p)
		return;
	strbuf_release(&p->text);
	strbuf_release(&p->line);
	free(p->input);
	free(p);
}

uint64_t kmsg_parser_records(const struct kmsg_parser *p)
{
	return p->records;
}

unsigned long long kmsg_parser_last_usec(const struct kmsg_parser *p)
{
	return p->last_usec;
}

uint64_t kmsg_parser_last_seq(const struct kmsg_parser *p)
{
	return p->last_seq;
}

unsigned long kmsg_parser_lineno(const struct kmsg_parser *p)
{
	return p->lineno;
}

static int malformed(struct kmsg_parser *p, const char *what)
{
	p->in_record = false;
	return error("%s:%lu: malformed kmsg record: %s", p->input,
		     p->lineno, what);
}

/* A decimal number at s[*i]; 0, or -1 if none or too big. */
static int number(const char *s, size_t len, size_t *i,
		  unsigned long long *v)
{
	size_t start = *i;

	*v = 0;
	while (*i < len && isdigit((unsigned char)s[*i])) {
		if (*v > (~0ull - 9) / 10)
			return -1;
		*v = *v * 10 + (s[(*i)++] - '0');
	}
	return *i > start ? 0 : -1;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Undo the kernel's "\xNN" escaping of s[0..len) into p->text. */
static void unescape(struct kmsg_parser *p, const char *s, size_t len)
{
	size_t i;
	int hi, lo;

	strbuf_reset(&p->text);
	for (i = 0; i < len; i++) {
		if (s[i] == '\\' && i + 3 < len && s[i + 1] == 'x' &&
		    (hi = hexval((unsigned char)s[i + 2])) >= 0 &&
		    (lo = hexval((unsigned char)s[i + 3])) >= 0) {
			strbuf_addch(&p->text, hi << 4 | lo);
			i += 3;
			continue;
		}
		strbuf_addch(&p->text, s[i]);
	}
}

/* One output line per line of p->text, each with the record's prefix. */
static void emit(struct kmsg_parser *p, unsigned long long usec,
		 const char *caller)
{
	const char *t = p->text.buf, *end = t + p->text.len, *nl;

	do {
		nl = memchr(t, '\n', end - t);
		if (!nl)
			nl = end;
		strbuf_reset(&p->line);
		strbuf_addf(&p->line, "[%5llu.%06llu]", usec / 1000000,
			    usec % 1000000);
		if (*caller)
			strbuf_addf(&p->line, "[%7s]", caller);
		strbuf_addch(&p->line, ' ');
		strbuf_add(&p->line, t, nl - t);
		p->fn(p->line.buf, p->line.len, p->data);
		t = nl + 1;
	} while (nl < end);
}

/*
 * The kernel's caller ids are "T<pid>" and "C<cpu>"; anything else (a
 * ']' in it) would change where the "[ T1]" tag of the line ends.
 */
static bool caller_valid(const char *id)
{
	size_t i;

	if ((id[0] != 'T' && id[0] != 'C') || !id[1])
		return false;
	for (i = 1; id[i]; i++)
		if (!isdigit((unsigned char)id[i]))
			return false;
	return true;
}

/* The optional ",name=value" fields before ';': keep caller=. */
static int fields(struct kmsg_parser *p, const char *s, size_t len,
		  size_t *i, char *caller)
{
	size_t start, n;

	while (*i < len && s[*i] == ',') {
		start = ++*i;
		while (*i < len && s[*i] != ',' && s[*i] != ';')
			if (!isgraph((unsigned char)s[(*i)++]))
				return malformed(p, "bad character in a field");
		n = *i - start;
		if (n > 7 && !memcmp(s + start, "caller=", 7)) {
			if (n - 7 >= KMSG_CALLER_MAX)
				return malformed(p, "caller id too long");
			memcpy(caller, s + start + 7, n - 7);
			caller[n - 7] = '\0';
			if (!caller_valid(caller))
				return malformed(p, "caller id is not T<pid> or C<cpu>");
		}
	}
	return 0;
}

static int record(struct kmsg_parser *p, const char *s, size_t len)
{
	unsigned long long prio, seq, usec;
	char caller[KMSG_CALLER_MAX] = "";
	size_t i = 0;

	if (number(s, len, &i, &prio) || i >= len || s[i++] != ',')
		return malformed(p, "expected '<prio>,<seq>,<usec>,<flags>;<text>'");
	if (number(s, len, &i, &seq) || i >= len || s[i++] != ',')
		return malformed(p, "expected a sequence number after the priority");
	if (number(s, len, &i, &usec) || i >= len || s[i++] != ',')
		return malformed(p, "expected a timestamp after the sequence number");
	if (i >= len || !(s[i] == '-' || islower((unsigned char)s[i]) ||
			  s[i] == '+'))
		return malformed(p, "expected flags after the timestamp");
	while (i < len && (s[i] == '-' || islower((unsigned char)s[i]) ||
			   s[i] == '+'))
		i++;
	if (fields(p, s, len, &i, caller))
		return -1;
	if (i >= len || s[i++] != ';')
		return malformed(p, "expected ';' before the text");
	if (prio > 1023)
		return malformed(p, "priority out of range");
	if (p->records && seq <= p->last_seq) {
		p->in_record = false;
		return error("%s:%lu: malformed kmsg record: sequence number %llu after %llu",
			     p->input, p->lineno, seq,
			     (unsigned long long)p->last_seq);
	}
	p->last_seq = seq;
	p->last_usec = usec;
	p->records++;
	p->in_record = true;
	unescape(p, s + i, len - i);
	emit(p, usec, caller);
	return 0;
}

int kmsg_parser_push_line(struct kmsg_parser *p, const char *s, size_t len)
{
	p->lineno++;
	if (len && s[0] == ' ') {
		if (!p->in_record)
			return malformed(p, "dictionary line without a record");
		if (!memchr(s, '=', len))
			return malformed(p, "dictionary line without '='");
		return 0;
	}
	return record(p, s, len);
}

int kmsg_parser_push_record(struct kmsg_parser *p, const uint8_t *rec,
			    size_t len)
{
	const char *s = (const char *)rec, *end = s + len, *nl;

	if (len && s[len - 1] == '\n')
		end--;
	do {
		nl = memchr(s, '\n', end - s);
		if (!nl)
			nl = end;
		/* a record's first line must be a record, not a dictionary */
		if (s == (const char *)rec)
			p->in_record = false;
		if (kmsg_parser_push_line(p, s, nl - s))
			return -1;
		s = nl + 1;
	} while (nl < end);
	return 0;
}
