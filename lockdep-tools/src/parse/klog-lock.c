// SPDX-License-Identifier: GPL-2.0
/*
 * Lock lines: "(name){usage}-{outer:inner}" with their optional held
 * index and instance address, and the usage string decoder.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "parse/klog-shapes.h"
#include "parse/proc-line.h"
#include "util/xalloc.h"

static bool usage_char(int c)
{
	return c == '+' || c == '-' || c == '.' || c == '?';
}

/* Length of "{usage}" at p (p[0] == '{'), or 0. */
static size_t usage_len(const char *p)
{
	size_t n = 1;

	while (usage_char((unsigned char)p[n]) && n <= 12)
		n++;
	return p[n] == '}' && n > 1 ? n + 1 : 0;
}

static unsigned int char_bits(int c, unsigned int in, unsigned int on,
			      bool legacy)
{
	switch (c) {
	case '+':
		return legacy ? in : on;
	case '-':
		return legacy ? on : in;
	case '?':
		return in | on;
	default:
		return 0;
	}
}

unsigned int klog_decode_usage(const char *usage, size_t len, bool legacy)
{
	unsigned int bits = 0, st;

	if (legacy && len == 4) {
		for (st = 0; st < 2; st++) {
			bits |= char_bits(usage[st], LDR_USAGE_IN(st),
					  LDR_USAGE_ON(st), true);
			bits |= char_bits(usage[st + 2], LDR_USAGE_IN_READ(st),
					  LDR_USAGE_ON_READ(st), true);
		}
		return bits;
	}
	for (st = 0; st < LDR_STATE_NR && 2 * st + 1 < len; st++) {
		bits |= char_bits(usage[2 * st], LDR_USAGE_IN(st),
				  LDR_USAGE_ON(st), false);
		bits |= char_bits(usage[2 * st + 1], LDR_USAGE_IN_READ(st),
				  LDR_USAGE_ON_READ(st), false);
	}
	return bits;
}

/* The /proc rule (proc_split_name()): the class identity follows it. */
void klog_split_lock_name(const char *name, char **class_name,
			  unsigned int *version, unsigned int *subclass)
{
	*class_name = xstrndup(name, proc_split_name(name, strlen(name),
						     version, subclass));
}

bool klog_parse_lock(const char *s, struct ldr_lock *l, bool legacy,
		     const char **rest)
{
	const char *p = s, *name, *close, *q;
	size_t ulen;
	char *end;

	memset(l, 0, sizeof(*l));
	l->wait_outer = l->wait_inner = -1;
	l->index = -1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (p[0] == '-' && p[1] == '>' && p[2] == ' ') {
		p += 3;
		while (*p == ' ')
			p++;
	}
	if (*p == '#' && isdigit((unsigned char)p[1])) {
		l->index = (int)strtol(p + 1, &end, 10);
		p = end;
		if (*p == ':')
			p++;
		while (*p == ' ')
			p++;
	}
	if (isxdigit((unsigned char)*p)) {
		q = p;
		while (isxdigit((unsigned char)*q))
			q++;
		if (q - p >= 8 && *q == ' ') {
			l->addr = strtoull(p, NULL, 16);
			l->has_addr = true;
			p = q + 1;
			while (*p == ' ')
				p++;
		}
	}
	if (*p != '(')
		return false;
	name = p + 1;
	/* the name ends at the first ')' followed by a valid "{usage}" */
	for (close = strchr(name, ')'); close; close = strchr(close + 1, ')'))
		if (close[1] == '{' && (ulen = usage_len(close + 1)))
			break;
	if (!close || close == name)
		return false;
	l->name = xstrndup(name, close - name);
	klog_split_lock_name(l->name, &l->class_name, &l->version,
			     &l->subclass);
	l->usage = xstrndup(close + 2, ulen - 2);
	l->usage_bits = klog_decode_usage(l->usage, ulen - 2, legacy);
	p = close + 1 + ulen;
	if (p[0] == '-' && p[1] == '{' && isdigit((unsigned char)p[2])) {
		long outer = strtol(p + 2, &end, 10), inner;

		if (*end == ':' && isdigit((unsigned char)end[1])) {
			inner = strtol(end + 1, &end, 10);
			if (*end == '}') {
				l->wait_outer = (int)outer;
				l->wait_inner = (int)inner;
				p = end + 1;
			}
		}
	}
	*rest = p;
	return true;
}
