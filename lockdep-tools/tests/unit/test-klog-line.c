// SPDX-License-Identifier: GPL-2.0
/* Unit tests of kernel log line handling: prefixes, CR, #012, wrapping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "parse/klog-line.h"

static const char *strip(const char *s, struct klog_prefix *p)
{
	return s + klog_strip_prefix(s, strlen(s), p);
}

static void test_prefixes(void **state)
{
	static const struct {
		const char *in, *out, *caller;
		bool syslog;
	} cases[] = {
		{ "[   52.511814] WARNING: x", "WARNING: x", "", false },
		{ "[   52.511814][ T6505] a", "a", "T6505", false },
		{ "[ 1078.043153][ T3316]  #0: x", " #0: x", "T3316", false },
		{ "[   52.515193][ T6505]", "", "T6505", false },
		{ "[    2.000000] [    C1] x", "x", "C1", false },
		{ "[T42] x", "x", "T42", false },
		{ "<4>[    1.5] x", "x", "", false },
		{ "[Wed Dec 16 13:30:45 2020] ====", "====", "", false },
		{ "[Dec16 13:30] x", "x", "", false },
		{ "[  +0.000012] x", "x", "", false },
		{ "[ 1.200000 <    0.000300>] x", "x", "", false },
		{ "Jul 22 14:36:40 fc23 kernel: x", "x", "", true },
		{ "Jul  2 14:36:40 fc23 kernel: [   1.0] x", "x", "", true },
		{ "Jul 22 14:36:40 fc23 kernel:", "", "", true },
		{ "2020-12-16T13:30:45.123+01:00 host kernel: x", "x", "", true },
		{ "[    1.000000] host kernel: x", "x", "", true },
		{ "syzkaller login: [   16.305150][ T3012] x", "x", "T3012",
		  false },
		{ "root@vm:~# [   16.3] x", "x", "", false },
		{ "kernel: x", "x", "", true },
		{ "kernel: #012but x", "#012but x", "", true },
		{ "00: [ INFO: x ]", "[ INFO: x ]", "", false },
		{ "00:  [<0000000000175b2a>] f+0x6a/0xa0",
		  " [<0000000000175b2a>] f+0x6a/0xa0", "", false },
		/* message text that merely looks like a prefix stays */
		{ "spin_lock include/linux/spinlock.h:350 [inline]",
		  "spin_lock include/linux/spinlock.h:350 [inline]", "", false },
		{ "kernelx: y", "kernelx: y", "", false },
		{ "[ INFO: possible recursive locking detected ]",
		  "[ INFO: possible recursive locking detected ]", "", false },
		{ "[<ffffffff81868175>] dump_stack+0x4c/0x65",
		  "[<ffffffff81868175>] dump_stack+0x4c/0x65", "", false },
		{ "<TASK>", "<TASK>", "", false },
		{ "[ 12", "[ 12", "", false },
		{ "Jul 22 14:36:40 fc23 sshd[1]: x",
		  "Jul 22 14:36:40 fc23 sshd[1]: x", "", false },
	};
	struct klog_prefix p;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_string_equal(strip(cases[i].in, &p), cases[i].out);
		assert_string_equal(p.caller, cases[i].caller);
		assert_int_equal(p.syslog, cases[i].syslog);
	}
}

struct collected {
	char *text[16];
	unsigned long lineno[16];
	char caller[16][KLOG_CALLER_MAX];
	size_t n;
};

static void collect(const struct klog_line *line, void *data)
{
	struct collected *c = data;

	assert_true(c->n < 16);
	assert_int_equal(strlen(line->text), line->len);
	c->text[c->n] = strdup(line->text);
	c->lineno[c->n] = line->lineno;
	strcpy(c->caller[c->n], line->caller);
	c->n++;
}

static void run(struct collected *c, const char *const *lines, size_t n)
{
	struct klog_reader rd;
	size_t i;

	memset(c, 0, sizeof(*c));
	klog_reader_init(&rd, collect, c);
	for (i = 0; i < n; i++)
		klog_reader_push(&rd, lines[i], strlen(lines[i]), i + 1);
	klog_reader_flush(&rd);
	klog_reader_release(&rd);
}

static void release(struct collected *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->text[i]);
}

static void test_crlf_and_syslog_escapes(void **state)
{
	static const char *const in[] = {
		"[    1.0] a\r",
		"Jul 22 14:36:40 h kernel: #012but task#011x:",
	};
	struct collected c;

	(void)state;
	run(&c, in, 2);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.text[0], "a");
	assert_string_equal(c.text[1], "");
	assert_string_equal(c.text[2], "but task\tx:");
	assert_int_equal(c.lineno[2], 2);
	release(&c);
}

static void test_prefixed_wrap(void **state)
{
	/* Gmail wrapped a prefixed log; dmesg -T indents continuations */
	static const char *const in[] = {
		"[   52.514442][ T6505] ffff888020d36378 (&ctx->cq_wait){....}-{2:2},",
		"at: __wake_up_common_lock+0xb8/0x140",
		"[Wed Dec 16 13:30:45 2020]",
		"\t\t\t   but task is already holding lock:",
		"",
		"[   28.585146]  [<ffffffffa028f71b>] f+0x16c/0x257",
		"[videodev]",
		"[   28.585146]  </TASK>",
		"not a continuation",
	};
	struct collected c;

	(void)state;
	run(&c, in, 9);
	assert_int_equal(c.n, 5);
	assert_string_equal(c.text[0], "ffff888020d36378 (&ctx->cq_wait){....}-{2:2}, at: __wake_up_common_lock+0xb8/0x140");
	assert_string_equal(c.caller[0], "T6505");
	assert_string_equal(c.text[1], "but task is already holding lock:");
	assert_string_equal(c.text[2], " [<ffffffffa028f71b>] f+0x16c/0x257 [videodev]");
	assert_string_equal(c.text[3], " </TASK>");
	assert_string_equal(c.text[4], "not a continuation");
	release(&c);
}

static void test_join_limits(void **state)
{
	/* user space output on a console with kernel time stamps */
	static const char *const in[] = {
		"[    1.0] kernel line",
		"u1", "u2", "u3", "u4", "u5",
		"[    2.0] next",
		"WARNING: possible recursive locking detected",
	};
	struct collected c;

	(void)state;
	run(&c, in, 8);
	assert_int_equal(c.n, 4);
	assert_string_equal(c.text[0], "kernel line u1 u2 u3 u4");
	assert_string_equal(c.text[1], "u5");
	assert_string_equal(c.text[2], "next");
	assert_string_equal(c.text[3], "WARNING: possible recursive locking detected");
	release(&c);
}

static void test_unprefixed_wrap(void **state)
{
	/* 2.6.18 mail: a lock's "at:" and bracket frames lost their tail */
	static const char *const in[] = {
		" ((crypto_chain).rwsem){----}, at:",
		"[blocking_notifier_call_chain+14/45]",
		"blocking_notifier_call_chain+0xe/0x2d",
		"... which became SOFTIRQ-irq-unsafe at:",
		"...  [<ffffffff800614f8>] __lock_acquire+0x824/0x1a14",
		"[<c0104edc>] show_trace_log_lvl+0x58/0x152",
		"DWARF2 unwinder stuck",
	};
	struct collected c;

	(void)state;
	run(&c, in, 7);
	assert_int_equal(c.n, 5);
	assert_string_equal(c.text[0], " ((crypto_chain).rwsem){----}, at: [blocking_notifier_call_chain+14/45] blocking_notifier_call_chain+0xe/0x2d");
	assert_string_equal(c.text[1], "... which became SOFTIRQ-irq-unsafe at:");
	assert_string_equal(c.text[3], "[<c0104edc>] show_trace_log_lvl+0x58/0x152");
	release(&c);
}

static void test_frame_tails(void **state)
{
	/* mail wrapping at 80 columns, and a z/VM console cut at its width */
	static const char *const in[] = {
		"ffff888107804d20 (&fs_info->delayed_iput_lock){+.?.}-{2:2}, at: spin_lock ",
		"include/linux/spinlock.h:350 [inline]",
		"  lock_acquire+0x1b1/0x520 ",
		"kernel/locking/lockdep.c:5726",
		"hardirqs last  enabled at (39): [<ffffffff81d5ebc4>] kmem_cache_free ",
		"mm/slab.c:3582 [inline]",
		"-----------------------------",
		"kernel/bpf/hashtab.c:665 suspicious rcu_dereference_check() usage!",
		"00:  [<000000000017c6d2>] try_to_wake_up+0x42",
		"00: /0x4d8",
	};
	struct collected c;

	(void)state;
	run(&c, in, 10);
	assert_int_equal(c.n, 6);
	assert_string_equal(c.text[0], "ffff888107804d20 (&fs_info->delayed_iput_lock){+.?.}-{2:2}, at: spin_lock include/linux/spinlock.h:350 [inline]");
	assert_string_equal(c.text[1], "  lock_acquire+0x1b1/0x520 kernel/locking/lockdep.c:5726");
	assert_string_equal(c.text[2], "hardirqs last  enabled at (39): [<ffffffff81d5ebc4>] kmem_cache_free mm/slab.c:3582 [inline]");
	assert_string_equal(c.text[4], "kernel/bpf/hashtab.c:665 suspicious rcu_dereference_check() usage!");
	assert_string_equal(c.text[5], " [<000000000017c6d2>] try_to_wake_up+0x42/0x4d8");
	release(&c);
}

static void test_nul_bytes(void **state)
{
	struct collected c;
	struct klog_reader rd;

	(void)state;
	memset(&c, 0, sizeof(c));
	klog_reader_init(&rd, collect, &c);
	klog_reader_push(&rd, "a\0b", 3, 1);
	/* a continuation line of a prefixed one: its NULs too */
	klog_reader_push(&rd, "[    1.0] c", 11, 2);
	klog_reader_push(&rd, "d\0e", 3, 3);
	klog_reader_flush(&rd);
	klog_reader_release(&rd);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.text[0], "a?b");
	assert_string_equal(c.text[1], "c d?e");
	release(&c);
}

static void test_tab_escapes(void **state)
{
	static const char *const in[] = {
		"Jul 22 14:36:40 h kernel: #011#011a#011#01",
		"Jul 22 14:36:40 h kernel: #011",
		"Jul 22 14:36:40 h kernel: x#01#011",
	};
	struct collected c;

	(void)state;
	run(&c, in, 3);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.text[0], "\t\ta\t#01");
	assert_string_equal(c.text[1], "\t");
	assert_string_equal(c.text[2], "x#01\t");
	release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prefixes),
		cmocka_unit_test(test_crlf_and_syslog_escapes),
		cmocka_unit_test(test_prefixed_wrap),
		cmocka_unit_test(test_join_limits),
		cmocka_unit_test(test_unprefixed_wrap),
		cmocka_unit_test(test_frame_tails),
		cmocka_unit_test(test_nul_bytes),
		cmocka_unit_test(test_tab_escapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
