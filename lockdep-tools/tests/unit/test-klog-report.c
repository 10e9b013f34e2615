// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the kernel log report parser on small synthetic logs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "parse/klog.h"

struct got {
	struct ldr_report *r[8];
	size_t n;
};

static void keep(struct ldr_report *r, void *data)
{
	struct got *g = data;

	assert_true(g->n < 8);
	g->r[g->n++] = r;
}

/* Parse a NUL-terminated log, lines split on '\n'. */
static void parse(struct got *g, const char *log)
{
	struct klog_parser *p;
	const char *nl;

	memset(g, 0, sizeof(*g));
	p = klog_parser_new("test.log", 1, keep, g);
	while (*log) {
		nl = strchr(log, '\n');
		if (!nl)
			nl = log + strlen(log);
		klog_parser_push(p, log, nl - log);
		log = *nl ? nl + 1 : nl;
	}
	klog_parser_finish(p);
	klog_parser_free(p);
}

static void release(struct got *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		report_free(g->r[i]);
}

#define RECURSIVE(tag, name)						\
	tag "============================================\n"		\
	tag "WARNING: possible recursive locking detected\n"		\
	tag "6.1.0 #1 Not tainted\n"					\
	tag "--------------------------------------------\n"		\
	tag "insmod/77 is trying to acquire lock:\n"			\
	tag "ffff888000000010 (" name "){+.+.}-{3:3}, at: mod_init+0x10/0x20 [m]\n" \
	tag "\n"							\
	tag "but task is already holding lock:\n"			\
	tag "ffff888000000010 (" name "){+.+.}-{3:3}, at: mod_init+0x8/0x20 [m]\n" \
	tag "\n"							\
	tag "stack backtrace:\n"					\
	tag "CPU: 2 PID: 77 Comm: insmod Not tainted 6.1.0 #1\n"	\
	tag "Call Trace:\n"						\
	tag " <TASK>\n"							\
	tag " dump_stack_lvl+0x5b/0x85\n"				\
	tag " __lock_acquire.cold+0x219/0x3bd\n"			\
	tag " lock_acquire+0x1e3/0x5e0\n"				\
	tag " ? mod_init+0x10/0x20 [m]\n"				\
	tag " mutex_lock_nested+0x1b/0x20\n"				\
	tag " mod_init+0x10/0x20 [m]\n"					\
	tag " do_one_initcall+0x5d/0x300\n"				\
	tag " </TASK>\n"

/*
 * The unlock order report of the series' 6.1 kernel (0006), as captured
 * from t0700's guest: the release path's frames are out of line
 * (check_release_order, lock_release_order) and are not the culprit.
 */
#define UNLOCK_ORDER_LOCKS						\
	"===================================\n"				\
	"WARNING: bad unlock order detected!\n"			\
	"6.1.192+ #4 Not tainted\n"					\
	"-----------------------------------\n"			\
	"lockdep-agent/64 is trying to release lock at:\n"		\
	"[<ffffffffa0000359>] scenario_unlock_order+0x28/0x38 [t]\n"	\
	"ffffffffa0002198 (&a_key){+.+.}-{2:2}, at: scenario_unlock_order+0x10/0x38 [t]\n" \
	"\n"								\
	"but this lock, taken after it, is still held:\n"		\
	"ffffffffa0002138 (&b_key){+.+.}-{2:2}, at: scenario_unlock_order+0x1c/0x38 [t]\n" \
	"\n"
#define UNLOCK_ORDER_TRACE						\
	"stack backtrace:\n"						\
	"CPU: 1 PID: 64 Comm: lockdep-agent Not tainted 6.1.192+ #4\n"	\
	"Call Trace:\n"							\
	" <TASK>\n"							\
	" dump_stack_lvl+0x51/0x66\n"					\
	" dump_stack+0x10/0x12\n"					\
	" check_release_order+0x187/0x19d\n"				\
	" lock_release_order+0x1c9/0x238\n"				\
	" ? scenario_unlock_order+0x28/0x38 [t]\n"			\
	" lock_release+0xb/0xd\n"					\
	" _raw_spin_unlock+0x15/0x27\n"				\
	" scenario_unlock_order+0x28/0x38 [t]\n"			\
	" trigger_write+0xd9/0x120 [t]\n"				\
	" </TASK>\n"
#define UNLOCK_ORDER UNLOCK_ORDER_LOCKS UNLOCK_ORDER_TRACE

/*
 * The v3 series' report of the same: the annotation to use named in two
 * lines, and the locks held.
 */
#define UNLOCK_ORDER_V3							\
	UNLOCK_ORDER_LOCKS						\
	"If releasing out of order is intended, annotate the release\n" \
	"with lockdep_allow_unordered_unlock() on that lock.\n"	\
	"\n"								\
	"other info that might help us debug this:\n"			\
	"2 locks held by lockdep-agent/64:\n"				\
	" #0: ffffffffa0002198 (&a_key){+.+.}-{2:2}, at: scenario_unlock_order+0x10/0x38 [t]\n" \
	" #1: ffffffffa0002138 (&b_key){+.+.}-{2:2}, at: scenario_unlock_order+0x1c/0x38 [t]\n" \
	"\n"								\
	UNLOCK_ORDER_TRACE

/* The lock released and the one still held, in both shapes. */
static void test_unlock_order_roles(void **state)
{
	const char *logs[] = { UNLOCK_ORDER, UNLOCK_ORDER_V3 };
	const struct ldr_lock *l;
	struct got g;
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		parse(&g, logs[i]);
		assert_int_equal(g.n, 1);
		assert_string_equal(g.r[0]->title,
				    "bad unlock order in scenario_unlock_order");
		assert_true(g.r[0]->nr_locks >= 2);
		l = &g.r[0]->locks[0];
		assert_int_equal(l->role, LDR_ROLE_RELEASING);
		assert_string_equal(l->name, "&a_key");
		assert_true(l->has_addr);
		l = &g.r[0]->locks[1];
		assert_int_equal(l->role, LDR_ROLE_EXPECTED);
		assert_string_equal(l->name, "&b_key");
		/* the series' hint is no message of the report's own */
		assert_null(g.r[0]->message);
		release(&g);
	}
	parse(&g, UNLOCK_ORDER_V3);
	assert_int_equal(g.r[0]->nr_notes, 2);
	assert_string_equal(g.r[0]->notes[0],
			    "If releasing out of order is intended, annotate the release");
	release(&g);
}

static void test_unlock_order_title(void **state)
{
	struct got g;

	(void)state;
	parse(&g, UNLOCK_ORDER);
	assert_int_equal(g.n, 1);
	assert_string_equal(g.r[0]->title,
			    "bad unlock order in scenario_unlock_order");
	release(&g);
}

static void test_complete_report(void **state)
{
	struct got g;
	struct ldr_report *r;

	(void)state;
	parse(&g, "boot noise\n" RECURSIVE("[    5.000000] ", "test_mutex")
		  "[    5.100000] after\n");
	assert_int_equal(g.n, 1);
	r = g.r[0];
	assert_int_equal(r->type, LDR_RECURSIVE_LOCKING);
	assert_false(r->truncated);
	assert_string_equal(r->title, "possible deadlock in mod_init");
	assert_string_equal(r->release, "6.1.0");
	assert_string_equal(r->taint, "");
	assert_string_equal(r->task, "insmod");
	assert_int_equal(r->pid, 77);
	assert_int_equal(r->cpu, 2);
	assert_int_equal(r->nr_locks, 2);
	assert_int_equal(r->locks[0].role, LDR_ROLE_ACQUIRING);
	assert_int_equal(r->locks[1].role, LDR_ROLE_HOLDING);
	assert_string_equal(r->locks[0].at.v[0].module, "m");
	assert_int_equal(r->first_line, 2);
	assert_int_equal(r->last_line, 23);
	assert_true(r->backtrace >= 0);
	assert_int_equal(r->stacks[r->backtrace].frames.nr, 7);
	assert_true(r->stacks[r->backtrace].frames.v[3].unreliable);
	release(&g);
}

static void test_caller_deinterleave(void **state)
{
	static const char a[] = RECURSIVE("[ 1.0][ T100] ", "lock_a");
	static const char b[] = RECURSIVE("[ 1.0][ T200] ", "lock_b");
	char log[sizeof(a) + sizeof(b)], *p = log;
	const char *pa = a, *pb = b;
	struct got g;

	(void)state;
	/* alternate the lines of two reports printed at the same time */
	while (*pa || *pb) {
		const char *nl;

		if (*pa) {
			nl = strchr(pa, '\n') + 1;
			memcpy(p, pa, nl - pa);
			p += nl - pa;
			pa = nl;
		}
		if (*pb) {
			nl = strchr(pb, '\n') + 1;
			memcpy(p, pb, nl - pb);
			p += nl - pb;
			pb = nl;
		}
	}
	*p = '\0';
	parse(&g, log);
	assert_int_equal(g.n, 2);
	assert_string_equal(g.r[0]->locks[0].name, "lock_a");
	assert_string_equal(g.r[1]->locks[0].name, "lock_b");
	assert_int_equal(g.r[0]->nr_locks, 2);
	assert_int_equal(g.r[1]->nr_locks, 2);
	assert_false(g.r[0]->truncated || g.r[1]->truncated);
	assert_int_equal(g.r[0]->id, 1);
	assert_int_equal(g.r[1]->id, 2);
	release(&g);
}

static void test_truncated(void **state)
{
	static const char full[] = RECURSIVE("", "m");
	char cut[sizeof(full)];
	const char *line;
	struct got g;
	int n = 0;

	(void)state;
	/* cut at every line: never a crash, always exactly one report */
	for (line = full; *line; line = strchr(line, '\n') + 1) {
		memcpy(cut, full, line - full);
		cut[line - full] = '\0';
		parse(&g, cut);
		assert_int_equal(g.n, n ? 1 : 0);
		if (g.n)
			assert_true(g.r[0]->truncated);
		release(&g);
		if (strstr(line, "WARNING:") == line)
			n = 1;
	}
	parse(&g, full);
	assert_false(g.r[0]->truncated);
	release(&g);

	/* another oops in the middle cuts the report */
	parse(&g, "WARNING: possible recursive locking detected\n"
		  "a/1 is trying to acquire lock:\n"
		  "BUG: kernel NULL pointer dereference, address: 0\n"
		  "Call Trace:\n f+0x1/0x2\n");
	assert_int_equal(g.n, 1);
	assert_true(g.r[0]->truncated);
	release(&g);
}

#define CUT_BY_FAULT(pid)						\
	"WARNING: possible recursive locking detected\n"		\
	"a/1 is trying to acquire lock:\n"				\
	"general protection fault, probably for non-canonical address\n" \
	"KASAN: null-ptr-deref in range [0x28-0x2f]\n"			\
	"CPU: 0 PID: " pid " Comm: a Not tainted 6.1.0 #1\n"		\
	"RIP: 0010:__lock_acquire+0x17d4/0x5f30\n"			\
	"Call Trace:\n"							\
	" lock_acquire+0x1e3/0x520\n"					\
	" a_close+0x1c5/0x3b0\n"

/* A fault of the same task lends the report its trace; another's not. */
static void test_cut_by_fault(void **state)
{
	const struct ldr_report *r;
	struct got g;

	(void)state;
	parse(&g, CUT_BY_FAULT("1"));
	assert_int_equal(g.n, 1);
	r = g.r[0];
	assert_true(r->truncated);
	assert_null(r->message);
	assert_int_equal(r->nr_notes, 1);
	assert_true(r->backtrace >= 0);
	assert_int_equal(r->stacks[r->backtrace].frames.nr, 2);
	assert_string_equal(r->title, "possible deadlock in a_close");
	release(&g);

	parse(&g, CUT_BY_FAULT("2"));
	assert_int_equal(g.n, 1);
	assert_true(g.r[0]->truncated);
	assert_int_equal(g.r[0]->backtrace, -1);
	assert_string_equal(g.r[0]->title, "possible deadlock");
	release(&g);

	/* untagged, and no pid to compare: the report ends at the fault */
	parse(&g, "WARNING: possible recursive locking detected\n"
		  "general protection fault\n"
		  "CPU: 0 PID: 1 Comm: a Not tainted 6.1.0 #1\n"
		  "Call Trace:\n a_close+0x1c5/0x3b0\n");
	assert_int_equal(g.n, 1);
	assert_int_equal(g.r[0]->backtrace, -1);
	release(&g);
}

static void test_garbage(void **state)
{
	char buf[4096];
	unsigned int seed = 42, round, i;
	struct got g;

	(void)state;
	for (round = 0; round < 200; round++) {
		for (i = 0; i < sizeof(buf) - 1; i++) {
			seed = seed * 1103515245 + 12345;
			buf[i] = (char)(seed >> 16);
			if (!buf[i])
				buf[i] = '\n';
		}
		buf[sizeof(buf) - 1] = '\0';
		/* garbage inside a report must not crash it either */
		if (round & 1)
			memcpy(buf, "WARNING: inconsistent lock state\n", 33);
		parse(&g, buf);
		release(&g);
	}
}

static void test_dedup_key(void **state)
{
	struct got g1, g2, g3;

	(void)state;
	/* same bug, other boot: other addresses, stamps, #version */
	parse(&g1, RECURSIVE("[ 1.0] ", "sb_writers#3"));
	parse(&g2, RECURSIVE("[ 9.0] ", "sb_writers#7"));
	parse(&g3, RECURSIVE("[ 1.0] ", "sb_writers#3/1"));
	assert_string_equal(g1.r[0]->dedup_key, g2.r[0]->dedup_key);
	assert_string_not_equal(g1.r[0]->dedup_key, g3.r[0]->dedup_key);
	assert_int_equal(strlen(g1.r[0]->dedup_key), 16);
	release(&g1);
	release(&g2);
	release(&g3);
}

static void test_held_dump_and_limit(void **state)
{
	struct got g;

	(void)state;
	parse(&g, "Showing all locks held in the system:\n"
		  "1 lock held by khungtaskd/30:\n"
		  " #0: ffffffff82b1e3a0 (rcu_read_lock){....}-{1:2}, at: debug_show_all_locks+0x1d/0x1b0\n"
		  "2 locks held by kworker/0:1/9:\n"
		  "\n"
		  "=============================================\n"
		  "BUG: MAX_LOCKDEP_ENTRIES too low!\n"
		  "turning off the locking correctness validator.\n"
		  "CPU: 0 PID: 1 Comm: swapper/0 Tainted: G        W          6.1.0 #1\n"
		  "Call Trace:\n"
		  " dump_stack_lvl+0x5b/0x85\n"
		  " add_lock_to_list+0x1/0x2\n");
	assert_int_equal(g.n, 2);
	assert_int_equal(g.r[0]->type, LDR_HELD_LOCKS_DUMP);
	assert_false(g.r[0]->truncated);
	assert_int_equal(g.r[0]->nr_locks, 1);
	assert_string_equal(g.r[0]->locks[0].holder, "khungtaskd/30");
	assert_int_equal(g.r[1]->type, LDR_LOCKDEP_LIMIT);
	assert_string_equal(g.r[1]->title, "MAX_LOCKDEP_ENTRIES too low");
	assert_string_equal(g.r[1]->taint, "G        W");
	assert_string_equal(g.r[1]->release, "6.1.0");
	assert_string_equal(g.r[1]->task, "swapper/0");
	assert_false(g.r[1]->truncated);
	release(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_complete_report),
		cmocka_unit_test(test_unlock_order_title),
		cmocka_unit_test(test_unlock_order_roles),
		cmocka_unit_test(test_caller_deinterleave),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_cut_by_fault),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_dedup_key),
		cmocka_unit_test(test_held_dump_and_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
