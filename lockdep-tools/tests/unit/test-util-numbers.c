// SPDX-License-Identifier: GPL-2.0
/*
 * The one number rule (util/cli.h): decimal digits alone, at most a
 * bound, for a whole argument and for a field inside a line.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/cli.h"

static void test_whole_arguments(void **state)
{
	unsigned long long v = 7;

	(void)state;
	assert_int_equal(cli_parse_uint("0", 10, &v), 0);
	assert_true(v == 0);
	assert_int_equal(cli_parse_uint("18446744073709551615", ULLONG_MAX, &v), 0);
	assert_true(v == ULLONG_MAX);
	assert_int_equal(cli_parse_uint("18446744073709551616", ULLONG_MAX, &v), -1);
	assert_int_equal(cli_parse_uint("10", 10, &v), 0);
	assert_true(v == 10);
	v = 7;
	for (const char *const *s = (const char *const[]){ "", "+1", " 1", "1 ",
		"-1", "0x1", "1e3", "12x", "11", NULL }; *s; s++)
		assert_int_equal(cli_parse_uint(*s, 10, &v), -1);
	assert_true(v == 7);	/* untouched when refused */
}

static void test_bound_below_a_digit(void **state)
{
	unsigned long long v;

	(void)state;
	assert_int_equal(cli_parse_uint("5", 5, &v), 0);
	assert_int_equal(cli_parse_uint("6", 5, &v), -1);
	assert_int_equal(cli_parse_uint("9", 5, &v), -1);
	assert_int_equal(cli_parse_uint("0", 0, &v), 0);
	assert_int_equal(cli_parse_uint("1", 0, &v), -1);
}

static void test_field_inside_a_line(void **state)
{
	const char *line = "123-456 rest";
	unsigned long long v;

	(void)state;
	assert_int_equal(parse_decimal(line, 3, ULLONG_MAX, &v), 0);
	assert_true(v == 123);
	assert_int_equal(parse_decimal(line + 4, 3, ULLONG_MAX, &v), 0);
	assert_true(v == 456);
	assert_int_equal(parse_decimal(line, 4, ULLONG_MAX, &v), -1);
	assert_int_equal(parse_decimal(line, 0, ULLONG_MAX, &v), -1);
	assert_int_equal(parse_decimal("4294967296", 10, UINT32_MAX, &v), -1);
	assert_int_equal(parse_decimal("4294967295", 10, UINT32_MAX, &v), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_arguments),
		cmocka_unit_test(test_bound_below_a_digit),
		cmocka_unit_test(test_field_inside_a_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
