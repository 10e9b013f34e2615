// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of util/crc32.c: crc32_fast() gives zlib's crc32() for
 * every length around the folding's steps (0 to 300 bytes, at every
 * alignment of a few), a megabyte, any starting value, and in pieces.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <zlib.h>

#include "util/crc32.h"

static unsigned char *random_bytes(size_t n)
{
	unsigned char *p = malloc(n ? n : 1);

	assert_non_null(p);
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)rand();
	return p;
}

static void test_lengths(void **state)
{
	unsigned char *buf = random_bytes(400);

	(void)state;
	for (size_t off = 0; off < 9; off++)
		for (size_t n = 0; off + n <= 300 + off && n <= 300; n++) {
			uint32_t seed = n % 3 ? (uint32_t)rand() : 0;

			assert_int_equal(crc32_fast(seed, buf + off, n),
					 (uint32_t)crc32(seed, buf + off,
							 (uInt)n));
		}
	free(buf);
}

static void test_large_and_pieces(void **state)
{
	size_t n = (1 << 20) + 13;
	unsigned char *buf = random_bytes(n);
	uint32_t whole = (uint32_t)crc32(0, buf, (uInt)n), c = 0;

	(void)state;
	assert_int_equal(crc32_fast(0, buf, n), whole);
	/* in uneven pieces, each continuing the last */
	for (size_t at = 0, k = 1; at < n; k = k * 7 % 1000 + 1) {
		size_t len = at + k < n ? k : n - at;

		c = crc32_fast(c, buf + at, len);
		at += len;
	}
	assert_int_equal(c, whole);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_large_and_pieces),
	};

	srand(36);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
