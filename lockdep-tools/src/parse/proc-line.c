// SPDX-License-Identifier: GPL-2.0
/* Line reader and scanners of the /proc parsers; see proc-line.h. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "parse/proc-line.h"
#include "util/line-reader.h"
#include "util/error.h"
#include "util/strbuf.h"

void proc_reader_init(struct proc_reader *rd, FILE *in, const char *input,
		      unsigned int flags, struct proc_parse_stats *st)
{
	memset(rd, 0, sizeof(*rd));
	rd->in = in;
	rd->input = input;
	rd->flags = flags;
	rd->st = st ? st : &rd->own;
	memset(rd->st, 0, sizeof(*rd->st));
	line_reader_init(&rd->lr, in, input);
}

bool proc_reader_next(struct proc_reader *rd)
{
	int ret = line_reader_next(&rd->lr);
	size_t n = rd->lr.len;

	if (ret <= 0) {
		rd->failed = ret < 0;
		return false;
	}
	if (n && rd->lr.line[n - 1] == '\r' && (rd->flags & PROC_PARSE_CRLF))
		n--;
	rd->lr.line[n] = '\0';
	rd->line = rd->lr.line;
	rd->len = n;
	rd->lineno = rd->lr.lineno;
	rd->st->lines++;
	return true;
}

void proc_bad(struct proc_reader *rd, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (++rd->st->bad > PROC_MAX_WARNINGS ||
	    (rd->flags & PROC_PARSE_QUIET))
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	warning("%s:%lu: %s", rd->input, rd->lineno, sb.buf);
	strbuf_release(&sb);
}

int proc_reader_finish(struct proc_reader *rd)
{
	int ret = rd->failed ? -1 : 0;

	if (rd->st->bad > PROC_MAX_WARNINGS && !(rd->flags & PROC_PARSE_QUIET))
		warning("%s: %lu more malformed lines not shown", rd->input,
			rd->st->bad - PROC_MAX_WARNINGS);
	line_reader_release(&rd->lr);
	rd->line = NULL;
	return ret;
}

void proc_skip_blanks(const char **p, const char *end)
{
	while (*p < end && (**p == ' ' || **p == '\t'))
		(*p)++;
}

bool proc_is_blank(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return false;
	return true;
}

bool proc_eat(const char **p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(end - *p) < n || memcmp(*p, lit, n))
		return false;
	*p += n;
	return true;
}

bool proc_eat_ulong(const char **p, const char *end, unsigned long long *v)
{
	const char *q = *p;
	unsigned long long x = 0;
	unsigned int d;

	if (q >= end || *q < '0' || *q > '9')
		return false;
	while (q < end && *q >= '0' && *q <= '9') {
		d = *q++ - '0';
		if (x > (~0ULL - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*v = x;
	*p = q;
	return true;
}

bool proc_eat_long(const char **p, const char *end, long *v)
{
	const char *q = *p;
	unsigned long long x;
	bool neg = q < end && *q == '-';

	if (neg)
		q++;
	if (!proc_eat_ulong(&q, end, &x) || x > (unsigned long long)LONG_MAX)
		return false;
	*v = neg ? -(long)x : (long)x;
	*p = q;
	return true;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool proc_eat_hex(const char **p, const char *end, unsigned long long *v)
{
	const char *q = *p;
	unsigned long long x = 0;
	int n = 0, d;

	if (end - q > 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X') &&
	    hexval(q[2]) >= 0)
		q += 2;
	while (q < end && (d = hexval(*q)) >= 0) {
		if (++n > 16)
			return false;
		x = x << 4 | (unsigned int)d;
		q++;
	}
	if (!n)
		return false;
	*v = x;
	*p = q;
	return true;
}

bool proc_eat_ptr(const char **p, const char *end, unsigned long long *v,
		  bool *has)
{
	if (proc_eat(p, end, "(____ptrval____)") || proc_eat(p, end, "(null)") ||
	    proc_eat(p, end, "(ptrval)")) {
		*v = 0;
		*has = false;
		return true;
	}
	if (!proc_eat_hex(p, end, v))
		return false;
	*has = true;
	return true;
}

/* Strip a trailing "<sep>digits" from name[0..*n); returns the number. */
static unsigned int strip_suffix(const char *name, size_t *n, char sep)
{
	unsigned long long v = 0;
	size_t i = *n, k;

	while (i && name[i - 1] >= '0' && name[i - 1] <= '9')
		i--;
	/* a bare "#3" or "/1" is a name, not a suffix; so is a huge number */
	if (i == *n || i < 2 || name[i - 1] != sep || *n - i > 9)
		return 0;
	for (k = i; k < *n; k++)
		v = v * 10 + (unsigned int)(name[k] - '0');
	*n = i - 1;
	return (unsigned int)v;
}

size_t proc_split_name(const char *name, size_t len, unsigned int *version,
		       unsigned int *subclass)
{
	*subclass = strip_suffix(name, &len, '/');
	*version = strip_suffix(name, &len, '#');
	return len;
}
