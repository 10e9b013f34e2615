// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the advice rules (src/advise/) on reports built in
 * memory, as a parser and the symboliser leave them, and of the patch
 * against a source tree written to a temporary directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "advise/advise.h"
#include "report/report-print.h"
#include "util/xalloc.h"

static const char source[] =
	"#include <linux/spinlock.h>\n"			/* 1 */
	"\n"
	"static void link(struct port *a, struct port *b)\n"
	"{\n"
	"\tspin_lock(&a->lock);\n"			/* 5 */
	"\tspin_lock(&b->lock);\n"			/* 6 */
	"\tspin_unlock(&b->lock);\n"
	"\tspin_unlock(&a->lock);\n"			/* 8 */
	"}\n"
	"\n"						/* 10 */
	"static void hand_over(struct port *a, struct port *b)\n"
	"{\n"
	"\tunsigned long flags;\n"
	"\n"
	"\tspin_lock_irqsave(&a->lock, flags);\n"	/* 15 */
	"\tspin_lock(&b->lock);\n"
	"\tspin_unlock_irqrestore( &a->lock , flags);\n"	/* 17 */
	"\tspin_unlock(&b->lock);\n"
	"\tif (b->peer)\n"
	"\t\tspin_unlock(&b->peer->lock);\n"		/* 20 */
	"}\n";

/* A frame in link() at @line, spin_lock() inlined into it there. */
static void site(struct ldr_frames *fr, const char *file, unsigned int line)
{
	struct ldr_frame *f = frames_add(fr);

	f->func = xstrdup("link");
	f->has_off = true;
	f->off = 0x10;
	f->size = 0x40;
	f->file = xstrdup(file);
	f->line = line;
	f->inl = xcalloc(1, sizeof(*f->inl));
	f->nr_inl = 1;
	f->inl[0].func = xstrdup("spin_lock");
	f->inl[0].file = xstrdup("include/linux/spinlock.h");
	f->inl[0].line = 350;
}

static int lock(struct ldr_report *r, enum ldr_role role, const char *name,
		unsigned long long addr, bool has_addr)
{
	int i = report_add_lock(r, role);

	report_set(&r->locks[i].name, name);
	report_set(&r->locks[i].class_name, name);
	r->locks[i].addr = addr;
	r->locks[i].has_addr = has_addr;
	return i;
}

/* Recursive locking of @held_addr then @acq_addr, at lines 5 and @line. */
static struct ldr_report *recursion(unsigned long long held_addr,
				    unsigned long long acq_addr, bool addrs,
				    unsigned int line, const char *file)
{
	struct ldr_report *r = report_new(LDR_RECURSIVE_LOCKING, "test.log");
	int a = lock(r, LDR_ROLE_ACQUIRING, "&port->lock", acq_addr, addrs);
	int h = lock(r, LDR_ROLE_HOLDING, "&port->lock", held_addr, addrs);

	site(&r->locks[a].at, file, line);
	site(&r->locks[h].at, file, 5);
	return r;
}

static char tree[64];

static int setup(void **state)
{
	char path[128];
	FILE *f;

	(void)state;
	strcpy(tree, "/tmp/test-advise.XXXXXX");
	if (!mkdtemp(tree))
		return -1;
	snprintf(path, sizeof(path), "%s/drivers", tree);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/drivers/port.c", tree);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(source, f);
	fclose(f);
	return 0;
}

static int teardown(void **state)
{
	char path[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/drivers/port.c", tree);
	unlink(path);
	snprintf(path, sizeof(path), "%s/drivers", tree);
	rmdir(path);
	rmdir(tree);
	return 0;
}

static void test_same_instance(void **state)
{
	struct ldr_report *r = recursion(0xffff1000, 0xffff1000, true, 6,
					 "drivers/port.c");
	struct advice a;

	(void)state;
	advise_report(r, tree, &a);
	assert_int_equal(a.verdict, ADV_DEADLOCK);
	assert_string_equal(a.rule, "recursive-same-instance");
	assert_true(a.sure);
	assert_int_equal(a.nr_changes, 0);
	assert_null(a.patch);
	advice_release(&a);
	report_free(r);
}

static void test_two_instances_patch(void **state)
{
	static const char want[] =
		"diff --git a/drivers/port.c b/drivers/port.c\n"
		"--- a/drivers/port.c\n"
		"+++ b/drivers/port.c\n"
		"@@ -3,7 +3,7 @@\n"
		" static void link(struct port *a, struct port *b)\n"
		" {\n"
		" \tspin_lock(&a->lock);\n"
		"-\tspin_lock(&b->lock);\n"
		"+\tspin_lock_nested(&b->lock, SINGLE_DEPTH_NESTING);\n"
		" \tspin_unlock(&b->lock);\n"
		" \tspin_unlock(&a->lock);\n"
		" }\n";
	struct ldr_report *r = recursion(0xffff1000, 0xffff2000, true, 6,
					 "/build/elsewhere/drivers/port.c");
	struct advice a;

	(void)state;
	advise_report(r, tree, &a);
	assert_int_equal(a.verdict, ADV_ANNOTATE);
	assert_string_equal(a.rule, "recursive-two-instances");
	assert_int_equal(a.nr_changes, 1);
	assert_string_equal(a.changes[0].current, "spin_lock(&b->lock)");
	assert_string_equal(a.changes[0].proposed,
			    "spin_lock_nested(&b->lock, SINGLE_DEPTH_NESTING)");
	assert_non_null(a.patch);
	assert_string_equal(a.patch, want);
	advice_release(&a);
	report_free(r);
}

static void test_next_subclass(void **state)
{
	struct ldr_report *r = recursion(0xffff1000, 0xffff2000, true, 6,
					 "drivers/port.c");
	struct advice a;

	(void)state;
	r->locks[1].subclass = 1;	/* the held one is already one down */
	advise_report(r, tree, &a);
	assert_int_equal(a.nr_changes, 1);
	assert_string_equal(a.changes[0].proposed, "spin_lock_nested(&b->lock, 2)");
	advice_release(&a);
	report_free(r);
}

static void test_same_site(void **state)
{
	struct ldr_report *r = recursion(0xffff1000, 0xffff2000, true, 5,
					 "drivers/port.c");
	struct advice a;

	(void)state;
	advise_report(r, tree, &a);
	assert_int_equal(a.verdict, ADV_ANNOTATE);
	assert_string_equal(a.rule, "recursive-same-site");
	assert_true(a.nr_choices >= 2);
	assert_null(a.patch);
	assert_non_null(a.no_patch);
	advice_release(&a);
	report_free(r);
}

static void test_no_address(void **state)
{
	struct ldr_report *r = recursion(0, 0, false, 6, "drivers/port.c");
	struct advice a;

	(void)state;
	advise_report(r, tree, &a);
	assert_int_equal(a.verdict, ADV_UNSURE);
	assert_string_equal(a.rule, "recursive-no-address");
	assert_false(a.sure);
	assert_int_equal(a.nr_changes, 0);
	advice_release(&a);
	report_free(r);
}

/* {SOFTIRQ-ON-W} -> {IN-SOFTIRQ-W}: the registered (task) site gets _bh. */
static void test_inconsistent_registered_site(void **state)
{
	struct ldr_report *r = report_new(LDR_INCONSISTENT_LOCK_STATE, "test.log");
	int l = lock(r, LDR_ROLE_ACQUIRING, "&port->lock", 0xffff1000, true);
	int s = report_add_stack(r, "{SOFTIRQ-ON-W} state", l);
	struct advice a;

	(void)state;
	report_set(&r->message, "inconsistent {SOFTIRQ-ON-W} -> {IN-SOFTIRQ-W} usage.");
	site(&r->stacks[s].frames, "drivers/port.c", 5);
	advise_report(r, tree, &a);
	assert_int_equal(a.verdict, ADV_IRQ_CONTEXT);
	assert_int_equal(a.nr_changes, 2);
	assert_string_equal(a.changes[0].proposed, "spin_lock_bh(&a->lock)");
	assert_int_equal(a.changes[1].line, 8);
	assert_string_equal(a.changes[1].proposed, "spin_unlock_bh(&a->lock)");
	assert_non_null(a.patch);
	advice_release(&a);
	report_free(r);
}

/* Bad unlock order: &a->lock released at @line, &b->lock still held. */
static struct ldr_report *unlock_order(unsigned int line, const char *callee)
{
	struct ldr_report *r = report_new(LDR_BAD_UNLOCK_ORDER, "test.log");
	int l = lock(r, LDR_ROLE_RELEASING, "&a->lock", 0xffff1000, true);
	int s;

	lock(r, LDR_ROLE_EXPECTED, "&b->lock", 0xffff2000, true);
	s = report_add_stack(r, "stack backtrace", l);
	r->backtrace = s;
	site(&r->stacks[s].frames, "drivers/port.c", line);
	free(r->stacks[s].frames.v[0].inl[0].func);
	r->stacks[s].frames.v[0].inl[0].func = xstrdup(callee);
	return r;
}

/* The release out of order gets the annotation on a line before it. */
static void test_unlock_order_annotation(void **state)
{
	static const char want[] =
		"diff --git a/drivers/port.c b/drivers/port.c\n"
		"--- a/drivers/port.c\n"
		"+++ b/drivers/port.c\n"
		"@@ -14,7 +14,8 @@\n"
		" \n"
		" \tspin_lock_irqsave(&a->lock, flags);\n"
		" \tspin_lock(&b->lock);\n"
		"+\tlockdep_allow_unordered_unlock(&a->lock);\n"
		" \tspin_unlock_irqrestore( &a->lock , flags);\n"
		" \tspin_unlock(&b->lock);\n"
		" \tif (b->peer)\n"
		" \t\tspin_unlock(&b->peer->lock);\n";
	struct ldr_report *r = unlock_order(17, "spin_unlock_irqrestore");
	struct advice a;
	size_t i;
	bool swap = false;

	(void)state;
	advise_report(r, tree, &a);
	assert_int_equal(a.verdict, ADV_ANNOTATE);
	assert_string_equal(a.rule, "unlock-order");
	for (i = 0; i < a.nr_reasons; i++)
		swap |= strstr(a.reasons[i], "swap the two releases") != NULL;
	assert_true(swap);
	assert_int_equal(a.nr_changes, 1);
	assert_string_equal(a.changes[0].current,
			    "spin_unlock_irqrestore( &a->lock , flags)");
	assert_string_equal(a.changes[0].proposed,
			    "lockdep_allow_unordered_unlock(&a->lock); spin_unlock_irqrestore( &a->lock , flags)");
	assert_non_null(a.patch);
	assert_string_equal(a.patch, want);
	advice_release(&a);
	report_free(r);
}

/* The body of an if without braces: a line before it is no patch. */
static void test_unlock_order_if_body(void **state)
{
	struct ldr_report *r = unlock_order(20, "spin_unlock");
	struct advice a;

	(void)state;
	advise_report(r, tree, &a);
	assert_int_equal(a.nr_changes, 1);
	assert_null(a.changes[0].path);
	assert_non_null(strstr(a.changes[0].proposed,
			       "lockdep_allow_unordered_unlock()"));
	assert_null(a.patch);
	assert_non_null(a.no_patch);
	advice_release(&a);
	report_free(r);
}

/* Without the source the annotation is said in words, no call renamed. */
static void test_unlock_order_words(void **state)
{
	struct ldr_report *r = unlock_order(8, "spin_unlock");
	struct advice a;

	(void)state;
	advise_report(r, NULL, &a);
	assert_int_equal(a.nr_changes, 1);
	assert_string_equal(a.changes[0].current, "spin_unlock");
	assert_string_equal(a.changes[0].proposed,
			    "lockdep_allow_unordered_unlock() on the lock released, on a line of its own before spin_unlock()");
	assert_null(a.patch);
	advice_release(&a);
	report_free(r);
}

static void test_limits(void **state)
{
	struct ldr_report *r = report_new(LDR_LOCKDEP_LIMIT, "test.log");
	struct advice a;

	(void)state;
	report_set(&r->message, "BUG: MAX_LOCKDEP_ENTRIES too low!");
	advise_report(r, NULL, &a);
	assert_int_equal(a.verdict, ADV_LIMIT);
	assert_non_null(strstr(a.choices[0], "CONFIG_LOCKDEP_BITS"));
	advice_release(&a);
	report_set(&r->message, "BUG: MAX_LOCKDEP_KEYS too low!");
	advise_report(r, NULL, &a);
	assert_string_equal(a.rule, "limit-fixed");
	advice_release(&a);
	report_set(&r->message, "BUG: MAX_SOMETHING_NEW too low!");
	advise_report(r, NULL, &a);
	assert_int_equal(a.verdict, ADV_UNSURE);
	advice_release(&a);
	report_free(r);
}

/* The printed patch loses no byte of a last line without a newline. */
static void test_print_patch_last_line(void **state)
{
	struct advice a = { .verdict = ADV_DEADLOCK, .rule = "r" };
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	(void)state;
	a.patch = xstrdup("-old\n+new");
	report_print_advice(f, &a);
	fclose(f);
	assert_non_null(strstr(out, "  patch:\n-old\n+new\n"));
	free(a.patch);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_instance),
		cmocka_unit_test(test_two_instances_patch),
		cmocka_unit_test(test_next_subclass),
		cmocka_unit_test(test_same_site),
		cmocka_unit_test(test_no_address),
		cmocka_unit_test(test_inconsistent_registered_site),
		cmocka_unit_test(test_unlock_order_annotation),
		cmocka_unit_test(test_unlock_order_if_body),
		cmocka_unit_test(test_unlock_order_words),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_print_patch_last_line),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
