// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the /dev/kmsg record parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/kmsg.h"
#include "util/strbuf.h"

static void collect(const char *line, size_t len, void *data)
{
	struct strbuf *sb = data;

	strbuf_add(sb, line, len);
	strbuf_addch(sb, '\n');
}

static int push(struct kmsg_parser *p, const char *s)
{
	return kmsg_parser_push_line(p, s, strlen(s));
}

static void test_records(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct kmsg_parser *p = kmsg_parser_new("kmsg", collect, &out);

	(void)state;
	assert_int_equal(push(p, "6,1,12345678,-;hello"), 0);
	assert_int_equal(push(p, " SUBSYSTEM=virtio"), 0);
	assert_int_equal(push(p, " DEVICE=+virtio:virtio0"), 0);
	assert_int_equal(push(p, "4,5,0,-,caller=T77;a\\x0ab\\x5cc\\x09d"), 0);
	assert_int_equal(push(p, "4,6,1,c,caller=C1;lock(\\x22x\\x22)"), 0);
	assert_string_equal(out.buf,
		"[   12.345678] hello\n"
		"[    0.000000][    T77] a\n"
		"[    0.000000][    T77] b\\c\td\n"
		"[    0.000001][     C1] lock(\"x\")\n");
	assert_int_equal(kmsg_parser_records(p), 3);
	assert_int_equal(kmsg_parser_lineno(p), 5);
	kmsg_parser_free(p);
	strbuf_release(&out);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"", "garbage", "6,1,2;x", "6,x,2,-;x", "6,1,2,-x", "6,1,2,;x",
		"9999,1,2,-;x", "6,1,2,-,caller=\x01;x",
		"99999999999999999999999,1,2,-;x",
		/* a caller id is T<pid> or C<cpu>: "]" would end its tag */
		"6,1,2,-,caller=T1]x;x", "6,1,2,-,caller=X1;x",
		"6,1,2,-,caller=T;x", "6,1,2,-,caller=C1a;x",
	};
	struct strbuf out = STRBUF_INIT;
	struct kmsg_parser *p;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		p = kmsg_parser_new("kmsg", collect, &out);
		assert_int_equal(push(p, bad[i]), -1);
		kmsg_parser_free(p);
	}
	p = kmsg_parser_new("kmsg", collect, &out);
	assert_int_equal(push(p, " KEY=v"), -1);
	assert_int_equal(push(p, "6,3,0,-;x"), 0);
	assert_int_equal(push(p, " no equals sign"), -1);
	assert_int_equal(push(p, "6,3,0,-;same sequence number"), -1);
	assert_int_equal(push(p, "6,10,0,-;a gap is fine"), 0);
	kmsg_parser_free(p);
	assert_string_equal(out.buf, "[    0.000000] x\n[    0.000000] a gap is fine\n");
	strbuf_release(&out);
}

static void test_push_record(void **state)
{
	static const char rec[] = "6,7,5,-;text\n SUBSYSTEM=x\n";
	struct strbuf out = STRBUF_INIT;
	struct kmsg_parser *p = kmsg_parser_new("agent", collect, &out);

	(void)state;
	assert_int_equal(kmsg_parser_push_record(p, (const uint8_t *)rec,
						 strlen(rec)), 0);
	assert_int_equal(kmsg_parser_lineno(p), 2);
	assert_int_equal(kmsg_parser_push_record(p, (const uint8_t *)" K=v", 4),
			 -1);
	assert_string_equal(out.buf, "[    0.000005] text\n");
	kmsg_parser_free(p);
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_push_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
