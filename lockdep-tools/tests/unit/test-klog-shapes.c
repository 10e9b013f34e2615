// SPDX-License-Identifier: GPL-2.0
/* Unit tests of single-line shapes: frames, locks, usage, headers. */
#include <setjmp.h>
#include <stdarg.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "parse/klog-shapes.h"

static void test_frames(void **state)
{
	struct ldr_frame f;

	(void)state;
	assert_true(klog_parse_frame("  ? lock_release+0x7c0/0x7c0", &f));
	assert_string_equal(f.func, "lock_release");
	assert_true(f.unreliable && f.has_off && !f.has_addr);
	assert_int_equal(f.off, 0x7c0);
	frame_release(&f);

	assert_true(klog_parse_frame(" [<ffffffffa02919ba>] ? find_ref_lock+0x24/0x46 [videodev]", &f));
	assert_string_equal(f.func, "find_ref_lock");
	assert_string_equal(f.module, "videodev");
	assert_true(f.unreliable && f.has_addr);
	assert_true(f.addr == 0xffffffffa02919baULL);
	frame_release(&f);

	assert_true(klog_parse_frame("f+0x10/0x20 [ext4 0123456789abcdef]", &f));
	assert_string_equal(f.module, "ext4");
	assert_string_equal(f.build_id, "0123456789abcdef");
	frame_release(&f);

	assert_true(klog_parse_frame("  spin_lock include/linux/spinlock.h:350 [inline]", &f));
	assert_string_equal(f.func, "spin_lock");
	assert_string_equal(f.file, "include/linux/spinlock.h");
	assert_int_equal(f.line, 350);
	assert_true(f.inlined && !f.has_off);
	frame_release(&f);

	assert_true(klog_parse_frame(" show_stack+0x2c/0x3c arch/arm64/kernel/stacktrace.c:466 (C)", &f));
	assert_string_equal(f.file, "arch/arm64/kernel/stacktrace.c");
	frame_release(&f);

	assert_true(klog_parse_frame("([<0000000000100a06>] show_trace+0xee/0x144)", &f));
	assert_string_equal(f.func, "show_trace");
	frame_release(&f);

	assert_true(klog_parse_frame("[pg0+927817926/1051247616] cryptomgr_notify+0xc6/0x1e0 [cryptomgr]", &f));
	assert_string_equal(f.func, "cryptomgr_notify");
	assert_string_equal(f.module, "cryptomgr");
	frame_release(&f);

	/* found by fuzz-klog: a symbol with a broken offset is no frame */
	assert_false(klog_parse_frame("[c+1/6]e+", &f));
	assert_false(klog_parse_frame("func+0x1/", &f));

	assert_true(klog_parse_frame("[blocking_notifier_call_chain+14/45]", &f));
	assert_string_equal(f.func, "blocking_notifier_call_chain");
	assert_int_equal(f.off, 14);
	frame_release(&f);

	assert_true(klog_parse_frame("[<ffffffffa02ff000>] ? 0xffffffffa02fefff", &f));
	assert_null(f.func);
	assert_true(f.addr == 0xffffffffa02fefffULL && f.unreliable);
	frame_release(&f);

	assert_true(klog_parse_frame("...  [<ffffffff800614f8>] __lock_acquire+0x824/0x1a14", &f));
	frame_release(&f);

	/* hex as strtoull(): leading zeros do not overflow, a 17th digit does */
	assert_true(klog_parse_frame("0x0000ffffffffffffffff", &f));
	assert_true(f.addr == 0xffffffffffffffffULL);
	frame_release(&f);
	assert_true(klog_parse_frame("0x0FfFfFfF8123456A", &f));
	assert_true(f.addr == 0xfffffff8123456aULL);
	frame_release(&f);
	assert_true(klog_parse_frame("0x1ffffffffffffffff", &f));
	assert_true(f.addr == ULLONG_MAX);
	frame_release(&f);
	assert_true(klog_parse_frame("0x10000000000000000", &f));
	assert_true(f.addr == ULLONG_MAX);
	frame_release(&f);
	assert_true(klog_parse_frame("0x000", &f));
	assert_true(f.addr == 0 && f.has_addr);
	frame_release(&f);
	assert_true(klog_parse_frame("f+0x0/0x00000000000000010", &f));
	assert_true(f.off == 0 && f.size == 0x10);
	frame_release(&f);

	/* not frames */
	assert_false(klog_parse_frame("stack backtrace:", &f));
	assert_false(klog_parse_frame("RIP: 0033:0x7fe9e68ed719", &f));
	assert_false(klog_parse_frame("pc : __lock_acquire+0x7cc/0x30a4", &f));
	assert_false(klog_parse_frame("0000000000000001 ffff880071227c28", &f));
	assert_false(klog_parse_frame(" (&ifa->lock){-+..}, at: x", &f));
	assert_false(klog_parse_frame("lock(&fs->lock);", &f));
	assert_false(klog_parse_frame("f+0xzz/0x1", &f));
	assert_false(klog_parse_frame("", &f));
}

static void test_locks(void **state)
{
	struct ldr_lock l;
	const char *rest;

	(void)state;
	assert_true(klog_parse_lock(" #1: ffff000040c5fd40 ((work_completion)(&fqdir->destroy_work)){+.+.}-{0:0}, at: f+0x1/0x2",
				    &l, false, &rest));
	assert_string_equal(l.name, "(work_completion)(&fqdir->destroy_work)");
	assert_int_equal(l.index, 1);
	assert_true(l.has_addr && l.addr == 0xffff000040c5fd40ULL);
	assert_int_equal(l.wait_outer, 0);
	assert_string_equal(rest, ", at: f+0x1/0x2");
	lock_release(&l);

	assert_true(klog_parse_lock(" ((memory_chain).rwsem){.+.+.+}, at: x", &l, true, &rest));
	assert_string_equal(l.name, "(memory_chain).rwsem");
	assert_int_equal(l.wait_outer, -1);
	lock_release(&l);

	assert_true(klog_parse_lock("-> #1 (&type->i_mutex_dir_key#3/1){+.+.}-{3:3}:", &l, false, &rest));
	assert_string_equal(l.name, "&type->i_mutex_dir_key#3/1");
	assert_string_equal(l.class_name, "&type->i_mutex_dir_key");
	assert_int_equal(l.version, 3);
	assert_int_equal(l.subclass, 1);
	assert_string_equal(rest, ":");
	lock_release(&l);

	/* a name with ") {" inside still ends at the usage braces */
	assert_true(klog_parse_lock("(a) {b){....}", &l, false, &rest));
	assert_string_equal(l.name, "a) {b");
	lock_release(&l);

	assert_false(klog_parse_lock("lock(&fs->lock);", &l, false, &rest));
	assert_false(klog_parse_lock("(x){abc}", &l, false, &rest));
	assert_false(klog_parse_lock("(){....}", &l, false, &rest));
	assert_false(klog_parse_lock("(unterminated{....", &l, false, &rest));
}

static void test_usage(void **state)
{
	(void)state;
	/* 6.x: pairs per state, '-' in irq, '+' irq enabled, '?' both */
	assert_int_equal(klog_decode_usage("+.?.", 4, false),
			 LDR_USAGE_ON(LDR_HARDIRQ) | LDR_USAGE_IN(LDR_SOFTIRQ) |
			 LDR_USAGE_ON(LDR_SOFTIRQ));
	assert_int_equal(klog_decode_usage("-...", 4, false),
			 LDR_USAGE_IN(LDR_HARDIRQ));
	assert_int_equal(klog_decode_usage(".+.-", 4, false),
			 LDR_USAGE_ON_READ(LDR_HARDIRQ) |
			 LDR_USAGE_IN_READ(LDR_SOFTIRQ));
	/* 2.6.30-4.14: six characters with RECLAIM_FS */
	assert_int_equal(klog_decode_usage("+.-..-", 6, false),
			 LDR_USAGE_ON(LDR_HARDIRQ) | LDR_USAGE_IN(LDR_SOFTIRQ) |
			 LDR_USAGE_IN_READ(LDR_RECLAIM_FS));
	/* 2.6.18-2.6.29: H, S, H-R, S-R and '+' meant "in irq" */
	assert_int_equal(klog_decode_usage("-+..", 4, true),
			 LDR_USAGE_ON(LDR_HARDIRQ) | LDR_USAGE_IN(LDR_SOFTIRQ));
	assert_int_equal(klog_decode_usage("..?+", 4, true),
			 LDR_USAGE_IN_READ(LDR_HARDIRQ) |
			 LDR_USAGE_ON_READ(LDR_HARDIRQ) |
			 LDR_USAGE_IN_READ(LDR_SOFTIRQ));
	assert_int_equal(klog_decode_usage("....", 4, true), 0);
	assert_string_equal(ldr_usage_bit_name(2), "HARDIRQ-ON-W");
	assert_null(ldr_usage_bit_name(LDR_USAGE_BITS));
}

static void test_arm_frames(void **state)
{
	struct ldr_frame a, b;

	(void)state;
	assert_true(klog_parse_arm_frame("[<80de0078>] (dump_backtrace) from [<80de0354>] (show_stack+0x28/0x2c)", &a, &b));
	assert_string_equal(a.func, "dump_backtrace");
	assert_false(a.has_off);
	assert_int_equal(a.addr, 0x80de0078);
	assert_string_equal(b.func, "show_stack");
	assert_int_equal(b.off, 0x28);
	assert_int_equal(b.size, 0x2c);
	frame_release(&a);
	frame_release(&b);
	/* before 4.x: offsets on both sides */
	assert_true(klog_parse_arm_frame("[<c0013f30>] (unwind_backtrace+0x0/0xf8) from [<c0011394>] (show_stack+0x10/0x14)", &a, &b));
	assert_string_equal(a.func, "unwind_backtrace");
	assert_string_equal(b.func, "show_stack");
	frame_release(&a);
	frame_release(&b);
	assert_false(klog_parse_arm_frame("[<c0013f30>] (unwind_backtrace) from", &a, &b));
	assert_false(klog_parse_arm_frame(" r7:81f0e4b8 r6:00000080", &a, &b));
	assert_true(klog_addr2line_line("try_to_wake_up at kernel/sched/core.c:1957 (discriminator 4)"));
	assert_true(klog_addr2line_line("(inlined by) spin_lock at include/linux/spinlock.h:350"));
	assert_false(klog_addr2line_line("hardirqs last  enabled at (39): [<ffffffff81d5ebc4>] f+0x1/0x2"));
	assert_false(klog_addr2line_line("IN-HARDIRQ-W at:"));
}

static void test_headers(void **state)
{
	static const struct {
		const char *line;
		enum ldr_type type;
		bool old;
		const char *detail;
	} cases[] = {
		{ "WARNING: possible circular locking dependency detected", LDR_CIRCULAR_DEPENDENCY, false, NULL },
		{ "[ INFO: possible circular locking dependency detected ]", LDR_CIRCULAR_DEPENDENCY, true, NULL },
		{ "[ INFO: SOFTIRQ-safe -> SOFTIRQ-unsafe lock order detected ]", LDR_IRQ_SAFE_UNSAFE_ORDER, true, "SOFTIRQ" },
		{ "WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected", LDR_IRQ_SAFE_UNSAFE_ORDER, false, "HARDIRQ" },
		{ "[ BUG: syz-executor/31761 still has locks held! ]", LDR_LOCKS_HELD_AT_EXIT, true, "syz-executor/31761" },
		{ "[ BUG: lock held at task exit time! ]", LDR_LOCKS_HELD_AT_EXIT, true, NULL },
		{ "BUG: MAX_LOCKDEP_CHAIN_HLOCKS too low!", LDR_LOCKDEP_LIMIT, false, "MAX_LOCKDEP_CHAIN_HLOCKS" },
		{ "[ BUG: Invalid wait context ]", LDR_INVALID_WAIT_CONTEXT, true, NULL },
		{ "INFO: trying to register non-static key.", LDR_NON_STATIC_KEY, false, NULL },
		{ "WARNING: chain_key collision", LDR_CHAIN_KEY_COLLISION, false, NULL },
		{ "[ BUG: bad unlock ordering detected! ]", LDR_BAD_UNLOCK_ORDER, true, NULL },
		{ "WARNING: bad contention detected!", LDR_BAD_CONTENTION, false, NULL },
		{ "[ INFO: suspicious rcu_dereference_check() usage. ]", LDR_SUSPICIOUS_RCU_USAGE, true, NULL },
		{ "Showing all locks held in the system:", LDR_HELD_LOCKS_DUMP, false, NULL },
		{ "DEBUG_LOCKS_WARN_ON(1)", LDR_OTHER_LOCKDEP, false, NULL },
		{ "WARNING: CPU: 1 PID: 9230 at kernel/locking/lockdep.c:232 hlock_class+0x10c/0x130", LDR_OTHER_LOCKDEP, false, NULL },
		{ "WARNING: at kernel/lockdep.c:2323 trace_hardirqs_on_caller+0x77/0x180()", LDR_OTHER_LOCKDEP, false, NULL },
	};
	static const char *const not_headers[] = {
		"WARNING: CPU: 0 PID: 1 at kernel/x.c:1 f+0x1/0x2",
		"WARNING: CPU: 0 PID: 1 at drivers/kernel/lockdep.cx:1 f",
		"BUG: KASAN: use-after-free in f",
		"BUG: MAX_ is fine",
		"possible circular locking dependency detected",
		"INFO: lockdep is turned off.",
		"",
	};
	struct klog_header h;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_true(klog_parse_header(cases[i].line, &h));
		assert_int_equal(h.type, cases[i].type);
		assert_int_equal(h.old_format, cases[i].old);
		if (cases[i].detail)
			assert_string_equal(h.detail, cases[i].detail);
		else
			assert_null(h.detail);
		free(h.detail);
	}
	for (i = 0; i < sizeof(not_headers) / sizeof(not_headers[0]); i++)
		assert_false(klog_parse_header(not_headers[i], &h));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frames),
		cmocka_unit_test(test_locks),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_arm_frames),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
