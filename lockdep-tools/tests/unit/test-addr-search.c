// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of symbolise/addr-search.c: addr_search_upto() counts the
 * addresses at or below any address exactly as a scan does, for arrays
 * dense and sparse, with outliers far below and above the rest (a range
 * at 0 under a kernel's), every address equal to one, next to one, or
 * outside them all; empty and one-element arrays.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "symbolise/addr-search.h"

static size_t scan(const uint64_t *v, size_t nr, uint64_t addr)
{
	size_t n = 0;

	while (n < nr && v[n] <= addr)
		n++;
	return n;
}

static void check_at(const struct addr_search *as, uint64_t addr)
{
	assert_int_equal(addr_search_upto(as, addr), scan(as->v, as->nr, addr));
}

/* Every element, its neighbours and the extremes. */
static void check_all(const uint64_t *v, size_t nr)
{
	struct addr_search as;

	addr_search_init(&as, v, nr);
	assert_true(as.nr_buckets <= (nr ? nr : 1));
	check_at(&as, 0);
	check_at(&as, UINT64_MAX);
	for (size_t i = 0; i < nr; i++) {
		check_at(&as, v[i]);
		check_at(&as, v[i] - 1);
		check_at(&as, v[i] + 1);
		if (i + 1 < nr)
			check_at(&as, v[i] + (v[i + 1] - v[i]) / 2);
	}
	addr_search_release(&as);
}

static void test_small(void **state)
{
	const uint64_t one[] = { 0x1000 }, two[] = { 0, UINT64_MAX - 1 };

	(void)state;
	check_all(NULL, 0);
	check_all(one, 1);
	check_all(two, 2);
}

/* Random gaps, a dense cluster, and outliers at both ends. */
static void test_clustered(void **state)
{
	size_t nr = 20000, i;
	uint64_t *v = malloc(nr * sizeof(*v)), a = 0xffffffff81000000ull;

	(void)state;
	assert_non_null(v);
	srand(7);
	v[0] = 0;
	v[1] = 0x40;
	for (i = 2; i < nr - 2; i++) {
		/* mostly a few bytes apart, sometimes a hole */
		a += rand() % 100 == 0 ? (uint64_t)(rand() % 100000) + 1 :
					 (uint64_t)(rand() % 40) + 1;
		v[i] = a;
	}
	v[nr - 2] = a + (1ull << 30);
	v[nr - 1] = UINT64_MAX - 5;
	check_all(v, nr);
	/* no outliers: all of it evenly */
	for (i = 0; i < nr; i++)
		v[i] = 0x1000 + 16 * i;
	check_all(v, nr);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small),
		cmocka_unit_test(test_clustered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
