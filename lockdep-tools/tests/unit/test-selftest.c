// SPDX-License-Identifier: GPL-2.0
/*
 * Self-test table parser: the console log of our 6.1 guest, a 2.6-era
 * syslog capture with failures (tests/fixtures/old, see README.proc), the
 * "disabled" banner and a table cut before its summary.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/selftest.h"

#define FIX "tests/fixtures/"
#define KEEP 256

struct row_copy {
	char section[32];
	char name[48];
	size_t nr_cells;
	enum selftest_result res[8];
	char col[8][16];
	unsigned long line;
};

struct got {
	struct row_copy r[KEEP];
	size_t nr;
	size_t cells[4];	/* per enum selftest_result */
	struct selftest_summary sum;
	size_t nr_sum;
};

static int on_row(const struct selftest_row *r, void *ctx)
{
	struct got *g = ctx;
	struct row_copy *c = &g->r[g->nr < KEEP ? g->nr : KEEP - 1];
	size_t i;

	assert_int_equal(r->name[r->name_len], '\0');
	memset(c, 0, sizeof(*c));
	snprintf(c->section, sizeof(c->section), "%s", r->section);
	snprintf(c->name, sizeof(c->name), "%s", r->name);
	c->nr_cells = r->nr_cells;
	c->line = r->line;
	for (i = 0; i < r->nr_cells; i++) {
		assert_int_equal(r->cells[i].column, i);
		g->cells[r->cells[i].result]++;
		if (i < 8) {
			c->res[i] = r->cells[i].result;
			snprintf(c->col[i], 16, "%s", r->cells[i].column_name ?
				 r->cells[i].column_name : "-");
		}
	}
	g->nr++;
	return 0;
}

static int on_summary(const struct selftest_summary *s, void *ctx)
{
	struct got *g = ctx;

	g->sum = *s;
	g->nr_sum++;
	return 0;
}

static const struct selftest_ops ops = { on_row, on_summary };

static int parse(const char *path, struct got *g, struct proc_parse_stats *st)
{
	FILE *f = fopen(path, "r");
	int ret;

	assert_non_null(f);
	memset(g, 0, sizeof(*g));
	ret = selftest_parse(f, path, PROC_PARSE_QUIET, &ops, g, st);
	fclose(f);
	return ret;
}

static const struct row_copy *find(const struct got *g, const char *name)
{
	size_t i;

	for (i = 0; i < g->nr && i < KEEP; i++)
		if (!strcmp(g->r[i].name, name))
			return &g->r[i];
	fail_msg("no row '%s'", name);
	return NULL;
}

static void test_real_6_1(void **state)
{
	struct proc_parse_stats st;
	const struct row_copy *r;
	struct got g;

	(void)state;
	assert_int_equal(parse(FIX "6.1/console.log", &g, &st), 0);
	assert_int_equal(st.bad, 0);
	assert_int_equal(st.notes, PROC_NOTE_HEADER);
	assert_int_equal(g.nr_sum, 1);
	assert_int_equal(g.sum.outcome, SELFTEST_ALL_PASSED);
	/* every test case the summary counts is an "ok" cell */
	assert_int_equal(g.cells[SELFTEST_OK], g.sum.total);
	assert_int_equal(g.sum.total, 358);
	assert_int_equal(g.cells[SELFTEST_FAILED], 0);
	assert_int_equal(g.cells[SELFTEST_UNEXPECTED], 0);
	assert_int_equal(st.records, g.nr + 1);
	r = find(&g, "A-A deadlock");
	assert_string_equal(r->section, "Locking API testsuite");
	assert_int_equal(r->nr_cells, 7);
	assert_string_equal(r->col[0], "spin");
	assert_string_equal(r->col[6], "rtmutex");
	r = find(&g, "recursive read-lock");
	/* a blank as wide as two cells is two blank cells */
	assert_int_equal(r->nr_cells, 6);
	assert_int_equal(r->res[0], SELFTEST_NONE);
	assert_int_equal(r->res[1], SELFTEST_NONE);
	assert_int_equal(r->res[2], SELFTEST_OK);
	assert_string_equal(r->col[2], "rlock");
	assert_int_equal(r->res[3], SELFTEST_NONE);
	assert_int_equal(r->res[4], SELFTEST_NONE);
	assert_int_equal(r->res[5], SELFTEST_OK);
	assert_string_equal(r->col[5], "rsem");
	r = find(&g, "ww api failures");
	assert_string_equal(r->section, "Wound/wait tests");
	assert_string_equal(r->col[0], "-");
	r = find(&g, "hard-irqs-on + irq-safe-A/12");
	assert_int_equal(r->nr_cells, 3);
}

static void test_old_syslog(void **state)
{
	struct proc_parse_stats st;
	const struct row_copy *r;
	struct got g;

	(void)state;
	assert_int_equal(parse(FIX "old/selftest-2.6.26-syslog.log", &g, &st),
			 0);
	assert_int_equal(st.bad, 1);	/* "  OK? " */
	assert_int_equal(g.nr, 5);
	r = find(&g, "double unlock");
	assert_int_equal(r->res[1], SELFTEST_UNEXPECTED);
	assert_string_equal(r->col[1], "wlock");
	r = find(&g, "initialize held");
	assert_int_equal(r->nr_cells, 6);
	assert_int_equal(r->res[5], SELFTEST_FAILED);
	assert_string_equal(r->col[5], "rsem");
	r = find(&g, "recursive read-lock");
	assert_int_equal(r->res[4], SELFTEST_NONE);
	assert_int_equal(r->res[5], SELFTEST_UNEXPECTED);
	assert_string_equal(r->col[5], "rsem");
	assert_int_equal(g.cells[SELFTEST_UNEXPECTED], 2);
	assert_int_equal(g.nr_sum, 1);
	assert_int_equal(g.sum.outcome, SELFTEST_UNEXPECTED_FAILURES);
	assert_int_equal(g.sum.failures, 2);
	assert_int_equal(g.sum.total, 218);
	assert_int_equal(st.notes, PROC_NOTE_HEADER);
}

static void test_disabled_and_cut(void **state)
{
	struct proc_parse_stats st;
	struct got g;

	(void)state;
	assert_int_equal(parse(FIX "old/selftest-disabled.log", &g, &st), 0);
	assert_int_equal(st.notes, PROC_NOTE_SELFTEST_DISABLED);
	assert_int_equal(g.nr + g.nr_sum, 0);

	assert_int_equal(parse(FIX "old/selftest-cut.log", &g, &st), 0);
	assert_int_equal(st.notes, PROC_NOTE_HEADER | PROC_NOTE_TRUNCATED);
	assert_int_equal(g.nr, 1);
	assert_int_equal(g.r[0].nr_cells, 2);
	assert_int_equal(g.nr_sum, 0);
}

/* A log cut inside the table, then random bytes with no NUL: not rows. */
static void test_cut_then_bytes(void **state)
{
	static const char in[] =
		"[    0.000000] | Locking API testsuite:\n"
		"[    0.000000]                                  | spin |wlock |\n"
		"[    0.000000]                      A-A deadlock:  ok  |  ok  |\n"
		"\x8e\xf1:\x03 zq\xa0|\xc4 Jd\x9b\n"
		"k\xd2\x7f ab: cd |\x01\xff|\n"
		"\t\xe2\x80\xae ok: x\xc3\xa9 |\n";
	struct proc_parse_stats st;
	struct got g;
	FILE *f = fmemopen((void *)in, sizeof(in) - 1, "r");

	(void)state;
	memset(&g, 0, sizeof(g));
	assert_int_equal(selftest_parse(f, "mem", PROC_PARSE_QUIET, &ops, &g,
					&st), 0);
	fclose(f);
	assert_int_equal(st.bad, 0);
	assert_int_equal(st.notes, PROC_NOTE_HEADER | PROC_NOTE_TRUNCATED);
	assert_int_equal(g.nr, 1);
	assert_string_equal(g.r[0].name, "A-A deadlock");
}

static void test_other_summaries(void **state)
{
	static const char in[] =
		" 12 out of 200 testcases failed, as expected. |\n"
		"All 200 testcases failed, as expected. |\n"
		"Good, all testcases passed! |\n";
	struct proc_parse_stats st;
	struct got g;
	FILE *f = fmemopen((void *)in, sizeof(in) - 1, "r");

	(void)state;
	memset(&g, 0, sizeof(g));
	assert_int_equal(selftest_parse(f, "mem", 0, &ops, &g, &st), 0);
	fclose(f);
	assert_int_equal(g.nr_sum, 2);
	assert_int_equal(g.sum.outcome, SELFTEST_ALL_FAILED_EXPECTED);
	assert_int_equal(g.sum.failures, 200);
	assert_string_equal(selftest_result_name(SELFTEST_UNEXPECTED), "FAILED");
	assert_null(selftest_result_name((enum selftest_result)9));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_6_1),
		cmocka_unit_test(test_old_syslog),
		cmocka_unit_test(test_disabled_and_cut),
		cmocka_unit_test(test_cut_then_bytes),
		cmocka_unit_test(test_other_summaries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
