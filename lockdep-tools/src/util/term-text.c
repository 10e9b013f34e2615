// SPDX-License-Identifier: GPL-2.0
/* Untrusted text for a terminal; see term-text.h. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "util/term-text.h"

/*
 * The length of the well-formed UTF-8 sequence of two to four bytes at
 * @p (@n bytes left), or 0: the table of Unicode 15, section 3.9, with
 * no overlong forms, no surrogates, nothing above U+10FFFF.
 */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return len;
}

static bool c1_control(const unsigned char *p, size_t len)
{
	return len == 2 && p[0] == 0xc2 && p[1] <= 0x9f;
}

/*
 * Unicode's Bidi_Control characters: U+061C, U+200E, U+200F,
 * U+202A..U+202E and U+2066..U+2069. A right-to-left override in a lock
 * name shows the text around it in another order than it has.
 */
static bool bidi_control(const unsigned char *p, size_t len)
{
	if (len == 2)
		return p[0] == 0xd8 && p[1] == 0x9c;
	if (len != 3 || p[0] != 0xe2)
		return false;
	if (p[1] == 0x80)
		return p[2] == 0x8e || p[2] == 0x8f ||
		       (p[2] >= 0xaa && p[2] <= 0xae);
	return p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9;
}

/*
 * Whether the 8 bytes at @p are all printable ASCII (0x20 to 0x7e): a
 * byte below 0x20 borrows into its high bit when 0x20 is taken, 0x7f
 * carries into it when 1 is added, and 0x80 and above have it. A borrow
 * or carry reaching the next byte comes from a byte that fails anyway.
 */
static bool printable8(const unsigned char *p)
{
	const uint64_t ones = 0x0101010101010101ull;
	uint64_t x;

	memcpy(&x, p, 8);
	return !(((x - 0x20 * ones) | (x + ones) | x) & (0x80 * ones));
}

/*
 * The run of bytes at @p (@len left) a terminal may get as they are;
 * *@esc then says how many bytes after it to escape (0 at the end).
 */
static size_t safe_run(const unsigned char *p, size_t len, size_t *esc)
{
	size_t i = 0, n;

	while (i < len) {
		/* the common case first: printable ASCII, 8 bytes a test */
		while (i + 8 <= len && printable8(p + i))
			i += 8;
		while (i < len && p[i] >= 0x20 && p[i] < 0x7f)
			i++;
		if (i == len)
			break;
		if (p[i] < 0x80) {
			if ((p[i] < 0x20 && p[i] != '\t') || p[i] == 0x7f)
				break;
			i++;
			continue;
		}
		n = utf8_len(p + i, len - i);
		if (!n || c1_control(p + i, n) || bidi_control(p + i, n)) {
			*esc = n ? n : 1;
			return i;
		}
		i += n;
	}
	*esc = i < len ? 1 : 0;
	return i;
}

void term_text_add(struct strbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t run, esc, i;

	while (len) {
		run = safe_run(p, len, &esc);
		strbuf_add(sb, p, run);
		for (i = 0; i < esc; i++)
			strbuf_addf(sb, "\\x%02x", p[run + i]);
		p += run + esc;
		len -= run + esc;
	}
}

bool term_text_changes(const char *s, size_t len)
{
	size_t esc;

	return safe_run((const unsigned char *)s, len, &esc) != len;
}

/* Runs, not bytes, and no buffer: symbolise prints many frames. */
void term_text_fputs(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = s ? strlen(s) : 0, run, esc, i;

	while (len) {
		run = safe_run(p, len, &esc);
		fwrite(p, 1, run, out);
		for (i = 0; i < esc; i++)
			fprintf(out, "\\x%02x", p[run + i]);
		p += run + esc;
		len -= run + esc;
	}
}
