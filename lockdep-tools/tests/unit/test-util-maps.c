// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the one hash table, util/hindex.h (every entry of a hash
 * found, whatever the collisions, through growth), of the loaders' two
 * maps over it: util/idmap.h (row id -> node, an
 * array for dense ids and a hash table for sparse ones: both must give
 * the same answers, UINT32_MAX for ids never added) and util/strset.h
 * (interned strings: one copy each, numbered in order, pointers stable
 * while the set grows); and the huge-page advice of xrealloc_big(),
 * which must leave a large block one mapping that realloc() can grow.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hindex.h"
#include "util/idmap.h"
#include "util/strset.h"
#include "util/xalloc.h"

/* ids base + k * step for k < n, value k; then every lookup */
static void check_ids(int64_t base, int64_t step, uint32_t n, bool dense)
{
	struct idmap m = IDMAP_INIT;
	uint32_t k;

	for (k = 0; k < n; k++)
		idmap_add(&m, base + (int64_t)k * step, k);
	idmap_build(&m);
	assert_int_equal(m.dense != NULL, dense);
	for (k = 0; k < n; k++) {
		assert_int_equal(idmap_get(&m, base + (int64_t)k * step), k);
		if (step > 1)
			assert_int_equal(idmap_get(&m, base + (int64_t)k * step + 1),
					 UINT32_MAX);
	}
	assert_int_equal(idmap_get(&m, base - 1), UINT32_MAX);
	assert_int_equal(idmap_get(&m, base + (int64_t)n * step), UINT32_MAX);
	assert_int_equal(idmap_get(&m, INT64_MIN), UINT32_MAX);
	assert_int_equal(idmap_get(&m, INT64_MAX), UINT32_MAX);
	idmap_release(&m);
}

/* Entries i of hash h(i): each found once, in the order added per hash. */
static void check_hindex(uint64_t (*h)(uint32_t), uint32_t n)
{
	struct hindex x = HINDEX_INIT;
	struct hindex_probe p;
	uint32_t i, id, found;

	for (i = 0; i < n; i++)
		hindex_add(&x, h(i), i);
	assert_int_equal(x.nr, n);
	assert_true(x.cap >= 2 * n);
	for (i = 0; i < n; i++) {
		found = 0;
		for (id = hindex_first(&x, h(i), &p); id != HINDEX_NONE;
		     id = hindex_next(&x, &p))
			found += id == i;
		assert_int_equal(found, 1);
	}
	hindex_clear(&x);
	assert_int_equal(hindex_first(&x, h(0), &p), HINDEX_NONE);
	hindex_release(&x);
	assert_int_equal(hindex_first(&x, h(0), &p), HINDEX_NONE);
}

static uint64_t same_hash(uint32_t i)
{
	(void)i;
	return 42;
}

/* high and low halves cancel in the 32 bits a slot keeps */
static uint64_t folded_hash(uint32_t i)
{
	return (uint64_t)(i % 7) << 32 | (i % 7);
}

static uint64_t spread_hash(uint32_t i)
{
	return (uint64_t)i * 0x9e3779b97f4a7c15ull;
}

static void test_hindex(void **state)
{
	(void)state;
	check_hindex(spread_hash, 100000);
	check_hindex(same_hash, 2000);
	check_hindex(folded_hash, 3000);
}

static void test_idmap_dense(void **state)
{
	(void)state;
	check_ids(1, 1, 100000, true);		/* a boot's classes */
	check_ids(500001, 3, 20000, true);	/* every third: still dense */
}

static void test_idmap_sparse(void **state)
{
	(void)state;
	check_ids(7, 1000003, 5000, false);	/* ids far apart: hashed */
	check_ids(-((int64_t)1 << 40), (int64_t)1 << 30, 3000, false);
}

static void test_idmap_empty_and_reset(void **state)
{
	struct idmap m = IDMAP_INIT;

	(void)state;
	idmap_build(&m);
	assert_int_equal(idmap_get(&m, 1), UINT32_MAX);
	idmap_add(&m, 10, 1);
	idmap_build(&m);
	assert_int_equal(idmap_get(&m, 10), 1);
	/* another round (lockdep-diff's second boot) forgets the first */
	idmap_reset(&m);
	idmap_add(&m, 20, 2);
	idmap_build(&m);
	assert_int_equal(idmap_get(&m, 10), UINT32_MAX);
	assert_int_equal(idmap_get(&m, 20), 2);
	/* an id added twice: the value added last, dense or hashed */
	idmap_reset(&m);
	idmap_add(&m, 30, 3);
	idmap_add(&m, 30, 4);
	idmap_add(&m, (int64_t)1 << 50, 5);
	idmap_add(&m, (int64_t)1 << 50, 6);
	idmap_build(&m);
	assert_null(m.dense);
	assert_int_equal(idmap_get(&m, 30), 4);
	assert_int_equal(idmap_get(&m, (int64_t)1 << 50), 6);
	idmap_release(&m);
}

static void test_strset(void **state)
{
	struct strset set = STRSET_INIT;
	const char *first;
	char buf[32];
	uint32_t i;

	(void)state;
	assert_int_equal(strset_find(&set, "a"), UINT32_MAX);
	assert_int_equal(strset_add(&set, "a"), 0);
	first = strset_str(&set, 0);
	assert_int_equal(strset_add(&set, ""), 1);
	assert_int_equal(strset_add(&set, "a"), 0);
	for (i = 0; i < 10000; i++) {
		snprintf(buf, sizeof(buf), "site %u", i);
		assert_int_equal(strset_add(&set, buf), i + 2);
	}
	/* the set grew many times: the first string did not move */
	assert_ptr_equal(strset_str(&set, 0), first);
	assert_string_equal(strset_str(&set, 1), "");
	assert_int_equal(strset_find(&set, "site 9999"), 10001);
	assert_string_equal(strset_str(&set, 10001), "site 9999");
	assert_int_equal(strset_find(&set, "site 10000"), UINT32_MAX);
	assert_int_equal(set.nr, 10002);
	strset_release(&set);
}

/* The end of the mapping of this process that holds @p (/proc/self/maps). */
static uintptr_t mapping_end(const void *p)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo, hi, end = 0;
	char line[512];

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 &&
		    lo <= (uintptr_t)p && (uintptr_t)p < hi)
			end = hi;
	fclose(f);
	return end;
}

static void test_xrealloc_big(void **state)
{
	size_t size = (size_t)8 << 20, i;
	unsigned char *p;

	(void)state;
	p = xrealloc_big(NULL, size);
	memset(p, 0xa5, size);
	/* advising only the inside of the block would split its mapping */
	assert_true(mapping_end(p) >= (uintptr_t)p + size);
	p = xrealloc_big(p, 4 * size);
	for (i = 0; i < size; i += 4096)
		assert_int_equal(p[i], 0xa5);
	assert_int_equal(p[size - 1], 0xa5);
	assert_true(mapping_end(p) >= (uintptr_t)p + 4 * size);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hindex),
		cmocka_unit_test(test_idmap_dense),
		cmocka_unit_test(test_idmap_sparse),
		cmocka_unit_test(test_idmap_empty_and_reset),
		cmocka_unit_test(test_strset),
		cmocka_unit_test(test_xrealloc_big),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
