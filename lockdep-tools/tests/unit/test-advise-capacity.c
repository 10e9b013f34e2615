// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the capacity advice (src/advise/advise-capacity.c): the
 * CONFIG_LOCKDEP_*_BITS that keep a headroom, their Kconfig ranges, the
 * chain hlocks' 5 per chain, the hash's ratio, the memory cost from 6.1's
 * array sizes, and the consumer named instead.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "advise/capacity.h"

/* A boot of lockdep's default sizes (15, 16, 19, 14 bits) using @used. */
static void usage(struct cap_usage *u, const unsigned long long used[CAP_TABLE_NR])
{
	int t;

	memset(u, 0, sizeof(*u));
	u->max[CAP_CLASSES] = 8192;
	u->max[CAP_LIST_ENTRIES] = 1 << 15;
	u->max[CAP_CHAINS] = 1 << 16;
	u->max[CAP_CHAIN_HLOCKS] = 5 << 16;
	u->max[CAP_STACK_TRACE] = 1 << 19;
	u->max[CAP_STACK_HASH] = 1 << 14;
	for (t = 0; t < CAP_TABLE_NR; t++) {
		u->used[t] = used[t];
		u->has[t] = true;
	}
}

static void test_fits(void **state)
{
	/* the demo's workload boot */
	static const unsigned long long used[CAP_TABLE_NR] = {
		1203, 7448, 8443, 27798, 87348, 4469 };
	struct cap_option_advice o[CAP_OPT_NR];
	struct cap_usage u;
	struct advice a;

	(void)state;
	usage(&u, used);
	advise_capacity(&u, 50, o, &a);
	assert_int_equal(a.verdict, ADV_CAPACITY);
	assert_string_equal(a.rule, "capacity-fits");
	assert_true(a.sure);
	assert_int_equal(a.nr_changes, 0);
	assert_int_equal(o[CAP_OPT_BITS].current, 15);
	assert_int_equal(o[CAP_OPT_BITS].advised, 15);
	assert_int_equal(o[CAP_OPT_CHAINS_BITS].advised, 16);
	assert_int_equal(o[CAP_OPT_STACK_TRACE_BITS].advised, 19);
	assert_int_equal(o[CAP_OPT_STACK_TRACE_HASH_BITS].advised, 14);
	/* nm -S vmlinux: list_entries 0x1c0000 + its bitmap 0x1000 */
	assert_int_equal(o[CAP_OPT_BITS].bytes_current, 0x1c0000 + 0x1000);
	/* lock_chains 0x200000, bitmap 0x2000, chain_hlocks 0xa0000, hash 0x40000 */
	assert_int_equal(o[CAP_OPT_CHAINS_BITS].bytes_current,
			 0x200000 + 0x2000 + 0xa0000 + 0x40000);
	assert_int_equal(o[CAP_OPT_STACK_TRACE_BITS].bytes_current, 0x400000);
	assert_int_equal(o[CAP_OPT_STACK_TRACE_HASH_BITS].bytes_current, 0x20000);
	/* at 90 % free the list entries need 17 bits: 7448 / 0.1 > 65536 */
	advice_release(&a);
	advise_capacity(&u, 90, o, &a);
	assert_string_equal(a.rule, "capacity-bits");
	assert_int_equal(o[CAP_OPT_BITS].advised, 17);
	advice_release(&a);
}

static void test_raise(void **state)
{
	/* list entries 30000 of 32768; chain hlocks 200000 of 327680 */
	static const unsigned long long used[CAP_TABLE_NR] = {
		1000, 30000, 1000, 200000, 1000, 100 };
	struct cap_option_advice o[CAP_OPT_NR];
	struct cap_usage u;
	struct advice a;

	(void)state;
	usage(&u, used);
	advise_capacity(&u, 50, o, &a);
	assert_string_equal(a.rule, "capacity-bits");
	assert_int_equal(o[CAP_OPT_BITS].advised, 16);
	/* 200000 hlocks at half full need 5 << 17 = 655360 >= 400000 */
	assert_int_equal(o[CAP_OPT_CHAINS_BITS].advised, 17);
	/* never below the boot's own */
	assert_int_equal(o[CAP_OPT_STACK_TRACE_BITS].advised, 19);
	assert_int_equal(a.nr_changes, 2);
	assert_string_equal(a.changes[0].current, "CONFIG_LOCKDEP_BITS=15");
	assert_string_equal(a.changes[0].proposed, "CONFIG_LOCKDEP_BITS=16");
	assert_null(a.changes[0].file);
	assert_string_equal(a.changes[1].proposed, "CONFIG_LOCKDEP_CHAINS_BITS=17");
	advice_release(&a);
}

static void test_range_and_hash(void **state)
{
	/* stack traces beyond what 26 bits hold: the range's top */
	static const unsigned long long used[CAP_TABLE_NR] = {
		10, 10, 10, 10, 1ULL << 27, 10 };
	struct cap_option_advice o[CAP_OPT_NR];
	struct cap_usage u;
	struct advice a;

	(void)state;
	usage(&u, used);
	advise_capacity(&u, 50, o, &a);
	assert_int_equal(o[CAP_OPT_STACK_TRACE_BITS].advised, 26);
	/* the hash keeps 5 bits below the trace table */
	assert_int_equal(o[CAP_OPT_STACK_TRACE_HASH_BITS].advised, 21);
	advice_release(&a);
	/* a boot smaller than the range's bottom: 10 bits */
	usage(&u, used);
	u.max[CAP_LIST_ENTRIES] = 1 << 10;
	u.used[CAP_LIST_ENTRIES] = 1;
	advise_capacity(&u, 0, o, &a);
	assert_int_equal(o[CAP_OPT_BITS].advised, 10);
	advice_release(&a);
}

static void test_consumer_and_unknown(void **state)
{
	static const unsigned long long used[CAP_TABLE_NR] = {
		1000, 30000, 1000, 1000, 1000, 100 };
	struct cap_option_advice o[CAP_OPT_NR];
	struct cap_usage u;
	struct advice a;

	(void)state;
	usage(&u, used);
	u.dominant[CAP_LIST_ENTRIES] = "kn->active (387 classes)";
	u.dominant_pct[CAP_LIST_ENTRIES] = 40;
	advise_capacity(&u, 50, o, &a);
	assert_string_equal(a.rule, "capacity-consumer");
	assert_int_equal(a.nr_choices, 1);
	assert_non_null(strstr(a.choices[0], "kn->active (387 classes) takes 40 % of list entries"));
	advice_release(&a);
	/* no limit known for the hash: advised, no change, unsure */
	usage(&u, used);
	u.max[CAP_STACK_HASH] = 0;
	u.max[CAP_CLASSES] = 0;
	advise_capacity(&u, 50, o, &a);
	assert_int_equal(o[CAP_OPT_STACK_TRACE_HASH_BITS].current, 0);
	assert_int_equal(o[CAP_OPT_STACK_TRACE_HASH_BITS].bytes_current, -1);
	assert_int_equal(o[CAP_OPT_STACK_TRACE_HASH_BITS].advised, 14);
	assert_false(a.sure);
	assert_int_equal(a.nr_changes, 1);	/* CONFIG_LOCKDEP_BITS only */
	advice_release(&a);
}

static void test_lower_bound(void **state)
{
	/* a lowered LOCKDEP_BITS=10 boot that ran out: 1024 of 1024 */
	static const unsigned long long used[CAP_TABLE_NR] = {
		500, 1024, 1000, 3000, 20000, 1000 };
	struct cap_option_advice o[CAP_OPT_NR];
	struct cap_usage u;
	struct advice a;

	(void)state;
	usage(&u, used);
	u.max[CAP_LIST_ENTRIES] = 1024;
	advise_capacity(&u, 50, o, &a);
	assert_true(a.sure);
	assert_int_equal(o[CAP_OPT_BITS].advised, 11);
	advice_release(&a);
	u.lower_bound = true;
	advise_capacity(&u, 50, o, &a);
	assert_false(a.sure);
	assert_int_equal(o[CAP_OPT_BITS].advised, 11);
	assert_non_null(strstr(a.reasons[0], "lower bound"));
	advice_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fits),
		cmocka_unit_test(test_raise),
		cmocka_unit_test(test_range_and_hash),
		cmocka_unit_test(test_consumer_and_unknown),
		cmocka_unit_test(test_lower_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
