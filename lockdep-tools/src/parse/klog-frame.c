// SPDX-License-Identifier: GPL-2.0
/* Stack frame lines of every kernel era; formats in klog-shapes.h. */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "parse/klog-shapes.h"
#include "util/xalloc.h"

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static bool sym_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '$';
}

/*
 * strtoull(@p, &end, 16) for @p at a hex digit, returning end: the same
 * value (a "0x" prefix skipped, ULLONG_MAX on overflow) without its
 * locale machinery, which was a tenth of a warm lockdep-symbolise run.
 */
static const unsigned char hex_digit[256] = {	/* value + 1; 0: none */
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static int hex_value(char c)
{
	return hex_digit[(unsigned char)c] - 1;
}

/*
 * A table per digit, and overflow told by the count of digits after the
 * leading zeros (more than 16), not tested per digit: a bare address is
 * 16 digits, and these were the most instructions of a warm
 * lockdep-symbolise run after the index's CRC.
 */
static const char *hex_digits(const char *p, unsigned long long *v)
{
	unsigned long long n = 0;
	const char *start;
	int d;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && hex_value(p[2]) >= 0)
		p += 2;
	while (*p == '0')
		p++;
	for (start = p; (d = hex_value(*p)) >= 0; p++)
		n = n << 4 | (unsigned int)d;
	*v = p - start > 16 ? ULLONG_MAX : n;
	return p;
}

/* "0x1f" -> value; returns the end or NULL. */
static const char *hex_number(const char *p, unsigned long long *v)
{
	if (p[0] != '0' || p[1] != 'x' || !isxdigit((unsigned char)p[2]))
		return NULL;
	return hex_digits(p + 2, v);
}

/* "+0x1e/0x2d" after a symbol */
static const char *offset_size(const char *p, struct ldr_frame *f)
{
	if (*p != '+' || !(p = hex_number(p + 1, &f->off)) || *p != '/' ||
	    !(p = hex_number(p + 1, &f->size)))
		return NULL;
	f->has_off = true;
	return p;
}

/* "[<ffffffff81868175>]" */
static const char *bracket_address(const char *p, struct ldr_frame *f)
{
	const char *end;

	if (p[0] != '[' || p[1] != '<' || !isxdigit((unsigned char)p[2]))
		return NULL;
	end = hex_digits(p + 2, &f->addr);
	if (end[0] != '>' || end[1] != ']')
		return NULL;
	f->has_addr = true;
	return end + 2;
}

/* "[func+14/45]": the decimal form of 2.6.18 i386 */
static const char *bracket_decimal(const char *p, char **func,
				   unsigned long long *off,
				   unsigned long long *size)
{
	const char *q = p + 1, *name;
	char *end;

	if (*p != '[' || !sym_char((unsigned char)*q))
		return NULL;
	name = q;
	while (sym_char((unsigned char)*q))
		q++;
	if (*q != '+' || !isdigit((unsigned char)q[1]))
		return NULL;
	*off = strtoull(q + 1, &end, 10);
	if (*end != '/' || !isdigit((unsigned char)end[1]))
		return NULL;
	*size = strtoull(end + 1, &end, 10);
	if (*end != ']')
		return NULL;
	*func = xstrndup(name, q - name);
	return end + 1;
}

static bool unreliable_mark(const char **p)
{
	if ((*p)[0] == '?' && (*p)[1] == ' ') {
		*p = skip_blanks(*p + 2);
		return true;
	}
	return false;
}

/* "fs/btrfs/inode.c:3523" */
static bool source_token(const char *tok, size_t n, struct ldr_frame *f)
{
	size_t colon = n;

	while (colon && tok[colon - 1] != ':')
		colon--;
	if (!colon || colon == n || colon < 3 || !memchr(tok, '.', colon))
		return false;
	for (size_t i = colon; i < n; i++)
		if (!isdigit((unsigned char)tok[i]))
			return false;
	f->file = xstrndup(tok, colon - 1);
	f->line = (unsigned int)strtoul(tok + colon, NULL, 10);
	return true;
}

/* "[mod]" or "[mod buildid]" */
static bool module_token(const char *p, size_t n, struct ldr_frame *f)
{
	const char *sp;

	if (n < 3 || p[0] != '[' || p[n - 1] != ']')
		return false;
	p++, n -= 2;
	for (size_t i = 0; i < n; i++)
		if (!sym_char((unsigned char)p[i]) && p[i] != ' ' &&
		    p[i] != '-')
			return false;
	sp = memchr(p, ' ', n);
	if (sp) {
		f->module = xstrndup(p, sp - p);
		f->build_id = xstrndup(sp + 1, n - (sp + 1 - p));
	} else {
		f->module = xstrndup(p, n);
	}
	return true;
}

/* Tokens after the symbol: module, source, [inline], (C). */
static void trailer(const char *p, struct ldr_frame *f, bool paren)
{
	for (;;) {
		const char *tok = skip_blanks(p);
		size_t n;

		if (*tok == '[') {
			const char *close = strchr(tok, ']');

			if (!close)
				return;
			n = close + 1 - tok;
		} else {
			n = strcspn(tok, " \t");
		}
		if (!n)
			return;
		if (n == 8 && !memcmp(tok, "[inline]", 8))
			f->inlined = true;
		else if (paren && n == 1 && *tok == ')')
			return;
		else if (*tok == '(' && tok[n - 1] == ')' && n <= 4)
			; /* arm64 "(C)"/"(P)" stack markers */
		else if (!f->module && !f->file && module_token(tok, n, f))
			;
		else if (!f->file && source_token(tok, n, f))
			;
		else
			return;
		p = tok + n;
	}
}

bool klog_parse_frame(const char *s, struct ldr_frame *f)
{
	const char *p = skip_blanks(s), *name, *q;
	char *dec_func = NULL;
	unsigned long long dec_off = 0, dec_size = 0;
	bool paren = false;

	memset(f, 0, sizeof(*f));
	if (*p == '(') {
		paren = true;
		p++;
	}
	if (!strncmp(p, "...", 3))
		p = skip_blanks(p + 3);
	f->unreliable = unreliable_mark(&p);
	if ((q = bracket_address(p, f)) != NULL) {
		p = skip_blanks(q);
		f->unreliable |= unreliable_mark(&p);
	} else if ((q = bracket_decimal(p, &dec_func, &dec_off,
					&dec_size)) != NULL) {
		p = skip_blanks(q);
		f->unreliable |= unreliable_mark(&p);
	}
	if ((q = hex_number(p, &f->addr)) != NULL &&
	    (!*q || *q == ' ' || *q == ')')) {
		/* a bare address: "0xffffffff" */
		f->has_addr = true;
		free(dec_func);
		trailer(q, f, paren);
		return true;
	}
	name = p;
	if (!isalpha((unsigned char)*p) && *p != '_' && *p != '.' && *p != '$')
		goto bracket_only;
	while (sym_char((unsigned char)*p))
		p++;
	f->func = xstrndup(name, p - name);
	if (*p == '+') {
		/* keep p on failure: bracket_only below still reads it */
		if (!(q = offset_size(p, f)))
			goto fail;
		free(dec_func);
		trailer(q, f, paren);
		return true;
	}
	if (*p != ' ' && *p != '\t')
		goto fail;
	/* no offset: only an inlined or source-annotated frame qualifies */
	trailer(p, f, paren);
	if (f->file || f->inlined) {
		free(dec_func);
		return true;
	}
fail:
	frame_release(f);
bracket_only:
	/* "[func+14/45]" or "[<addr>]" alone: its symbol was wrapped away */
	if ((dec_func || f->has_addr) && !*skip_blanks(p)) {
		unsigned long long addr = f->addr;
		bool has_addr = f->has_addr, unreliable = f->unreliable;

		memset(f, 0, sizeof(*f));
		f->addr = addr;
		f->has_addr = has_addr;
		f->unreliable = unreliable;
		if (dec_func) {
			f->func = dec_func;
			f->off = dec_off;
			f->size = dec_size;
			f->has_off = true;
		}
		return true;
	}
	free(dec_func);
	memset(f, 0, sizeof(*f));
	return false;
}

/* "(name)" or "(name+0x1c/0xd4)" of an ARM32 frame line; end or NULL. */
static const char *arm_paren(const char *p, struct ldr_frame *f)
{
	const char *name = p + 1, *q;

	if (*p != '(' || !sym_char((unsigned char)*name))
		return NULL;
	q = name;
	while (sym_char((unsigned char)*q))
		q++;
	f->func = xstrndup(name, q - name);
	if (*q == '+' && !(q = offset_size(q, f)))
		return NULL;
	return *q == ')' ? q + 1 : NULL;
}

bool klog_parse_arm_frame(const char *s, struct ldr_frame *callee,
			  struct ldr_frame *caller)
{
	const char *p = skip_blanks(s);

	memset(callee, 0, sizeof(*callee));
	memset(caller, 0, sizeof(*caller));
	if (!(p = bracket_address(p, callee)) || *p++ != ' ' ||
	    !(p = arm_paren(p, callee)) || strncmp(p, " from ", 6) ||
	    !(p = bracket_address(p + 6, caller)) || *p++ != ' ' ||
	    !(p = arm_paren(p, caller)) || *skip_blanks(p)) {
		frame_release(callee);
		frame_release(caller);
		memset(callee, 0, sizeof(*callee));
		memset(caller, 0, sizeof(*caller));
		return false;
	}
	return true;
}

bool klog_addr2line_line(const char *s)
{
	const char *p = skip_blanks(s), *q;
	struct ldr_frame tmp = { 0 };
	bool ok;

	if (!strncmp(p, "(inlined by) ", 13))
		p += 13;
	q = p;
	while (sym_char((unsigned char)*q))
		q++;
	if (q == p || strncmp(q, " at ", 4))
		return false;
	p = q + 4;
	q = p + strcspn(p, " ");
	ok = source_token(p, q - p, &tmp);
	free(tmp.file);
	if (!ok)
		return false;
	p = skip_blanks(q);
	if (!strncmp(p, "(discriminator ", 15)) {
		p += 15;
		while (isdigit((unsigned char)*p))
			p++;
		if (*p++ != ')')
			return false;
	}
	return !*skip_blanks(p);
}
