// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of util/term-text.c: what a terminal could act on is
 * escaped (bidirectional controls too), well-formed UTF-8 is not, and
 * malformed UTF-8 (overlong, surrogates, cut, above U+10FFFF) is escaped
 * byte by byte; term_text_changes() agrees with the escaping.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "util/term-text.h"

static void check(const char *in, size_t len, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	term_text_add(&sb, in, len);
	assert_string_equal(sb.buf, want);
	/* term_text_changes() says whether the escaping changed anything */
	assert_int_equal(term_text_changes(in, len),
			 sb.len != len || memcmp(sb.buf, in, len) != 0);
	strbuf_release(&sb);
}

#define CHECK(in, want) check(in, sizeof(in) - 1, want)

static void test_ascii(void **state)
{
	(void)state;
	CHECK("lock_a\tb", "lock_a\tb");
	CHECK("\033[2J\a\r\n\177", "\\x1b[2J\\x07\\x0d\\x0a\\x7f");
	CHECK("a\0b", "a\\x00b");
}

static void test_utf8(void **state)
{
	(void)state;
	CHECK("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x94\x92", "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x94\x92");
	CHECK("\xc2\xa0", "\xc2\xa0");			/* U+00A0: printable */
	CHECK("\xc2\x9b" "31m", "\\xc2\\x9b31m");	/* U+009B CSI */
	CHECK("\xc2\x80", "\\xc2\\x80");
	CHECK("\x9b" "2J", "\\x9b2J");			/* lone 8-bit CSI */
	CHECK("\xc0\x9b", "\\xc0\\x9b");		/* overlong */
	CHECK("\xe0\x80\x9b", "\\xe0\\x80\\x9b");	/* overlong */
	CHECK("\xed\xa0\x80", "\\xed\\xa0\\x80");	/* surrogate */
	CHECK("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80");	/* > U+10FFFF */
	CHECK("\xe2\x86", "\\xe2\\x86");		/* cut short */
}

static void test_bidi(void **state)
{
	(void)state;
	CHECK("lock_\xe2\x80\xae" "dcba", "lock_\\xe2\\x80\\xaedcba");	/* U+202E RLO */
	CHECK("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad",
	      "\\xe2\\x80\\xaa\\xe2\\x80\\xab\\xe2\\x80\\xac\\xe2\\x80\\xad");
	CHECK("\xe2\x81\xa6\xe2\x81\xa9", "\\xe2\\x81\\xa6\\xe2\\x81\\xa9");	/* LRI, PDI */
	CHECK("\xe2\x80\x8e\xe2\x80\x8f", "\\xe2\\x80\\x8e\\xe2\\x80\\x8f");	/* LRM, RLM */
	CHECK("\xd8\x9c", "\\xd8\\x9c");				/* U+061C ALM */
	/* their neighbours are printable */
	CHECK("\xe2\x80\x8d\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa\xd8\x9b",
	      "\xe2\x80\x8d\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa\xd8\x9b");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ascii),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_bidi),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
