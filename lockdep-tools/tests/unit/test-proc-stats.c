// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/lockdep_stats parser: the real 6.1 file, the 2.6.2x labels
 * (tests/fixtures/old, see README.proc), unknown labels, malformed lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/proc-stats.h"

#define FIX "tests/fixtures/"
#define MAX_STATS 128

struct stat_copy {
	char label[64];
	unsigned long long value, max;
	bool has_max, known;
	unsigned long line;
};

struct got {
	struct stat_copy s[MAX_STATS];
	size_t nr;
};

static int on_stat(const struct proc_lockdep_stat *s, void *ctx)
{
	struct got *g = ctx;
	struct stat_copy *c = &g->s[g->nr++];

	assert_true(g->nr <= MAX_STATS);
	assert_true(s->label_len > 0 && s->label_len < sizeof(c->label));
	assert_int_equal(s->label[s->label_len], '\0');
	memcpy(c->label, s->label, s->label_len + 1);
	c->value = s->value;
	c->max = s->max;
	c->has_max = s->has_max;
	c->known = s->known;
	c->line = s->line;
	return 0;
}

static const struct proc_stats_ops ops = { on_stat };

static int parse(FILE *f, const char *name, struct got *g,
		 struct proc_parse_stats *st)
{
	int ret;

	assert_non_null(f);
	memset(g, 0, sizeof(*g));
	ret = proc_stats_parse(f, name, PROC_PARSE_QUIET, &ops, g, st);
	fclose(f);
	return ret;
}

static const struct stat_copy *get(const struct got *g, const char *label)
{
	size_t i;

	for (i = 0; i < g->nr; i++)
		if (!strcmp(g->s[i].label, label))
			return &g->s[i];
	fail_msg("no stat '%s'", label);
	return NULL;
}

static void test_real_6_1(void **state)
{
	struct proc_parse_stats st;
	const struct stat_copy *s;
	struct got g;
	size_t i;

	(void)state;
	assert_int_equal(parse(fopen(FIX "6.1/lockdep_stats", "r"), "x", &g,
			       &st), 0);
	assert_int_equal(st.bad, 0);
	assert_int_equal(g.nr, 35);
	assert_int_equal(st.records, 35);
	assert_int_equal(st.lines, 36);	/* one blank line */
	for (i = 0; i < g.nr; i++)
		assert_true(g.s[i].known);
	s = get(&g, "lock-classes");
	assert_int_equal(s->value, 405);
	assert_true(s->has_max);
	assert_int_equal(s->max, 8192);
	assert_int_equal(s->line, 1);
	s = get(&g, "dependency chain hlocks used");
	assert_int_equal(s->max, 327680);
	s = get(&g, "debug_locks");
	assert_int_equal(s->value, 1);
	assert_false(s->has_max);
	s = get(&g, "large chain blocks");
	assert_int_equal(s->line, 36);
}

static void test_old_labels(void **state)
{
	struct proc_parse_stats st;
	struct got g;
	size_t i;

	(void)state;
	assert_int_equal(parse(fopen(FIX "old/lockdep_stats-2.6.24", "r"),
			       "x", &g, &st), 0);
	assert_int_equal(st.bad, 0);
	assert_int_equal(g.nr, 43);
	for (i = 0; i < g.nr; i++)
		assert_true(g.s[i].known);
	assert_int_equal(get(&g, "max recursion depth")->value, 10);
	assert_int_equal(get(&g, "find-mask backwards recursions")->value,
			 116090);
	assert_int_equal(get(&g, "combined max dependencies")->value,
			 102634290);
}

static void test_unknown_and_malformed(void **state)
{
	static const char in[] =
		" a counter of 7.0:                  42\n"	/* unknown, kept */
		" ratio: a:b:              7 [max: 9]\n"	/* label "ratio: a:b" */
		" nothing here\n"				/* 3 bad */
		" lock-classes:          12 [max: ]\n"		/* 4 bad */
		" lock-classes:          99999999999999999999999\n" /* 5 bad */
		" lock-classes:          12 trailing\n"		/* 6 bad */
		"    :     12\n"				/* 7 bad */
		"\n"
		" no_space_after_colon:%11u\n"			/* 9 bad */
		" glued:12\n";
	struct proc_parse_stats st;
	struct got g;

	(void)state;
	assert_int_equal(parse(fmemopen((void *)in, sizeof(in) - 1, "r"),
			       "mem", &g, &st), 0);
	assert_int_equal(g.nr, 3);
	assert_string_equal(g.s[0].label, "a counter of 7.0");
	assert_false(g.s[0].known);
	assert_int_equal(g.s[0].value, 42);
	assert_string_equal(g.s[1].label, "ratio: a:b");
	assert_int_equal(g.s[1].max, 9);
	assert_string_equal(g.s[2].label, "glued");
	assert_int_equal(st.bad, 6);
}

static void test_known_table(void **state)
{
	static const char *const labels[] = {
		"lock-classes", "direct dependencies", "indirect dependencies",
		"all direct dependencies", "dependency chains",
		"dependency chain hlocks", "dependency chain hlocks used",
		"dependency chain hlocks lost", "in-hardirq chains",
		"in-softirq chains", "in-process chains", "stack-trace entries",
		"number of stack traces", "number of stack hash chains",
		"combined max dependencies", "hardirq-safe locks",
		"hardirq-unsafe locks", "softirq-safe locks",
		"softirq-unsafe locks", "irq-safe locks", "irq-unsafe locks",
		"hardirq-read-safe locks", "hardirq-read-unsafe locks",
		"softirq-read-safe locks", "softirq-read-unsafe locks",
		"irq-read-safe locks", "irq-read-unsafe locks",
		"uncategorized locks", "unused locks", "max locking depth",
		"max recursion depth", "max bfs queue depth",
		"max lock class index", "chain lookup misses",
		"chain lookup hits", "cyclic checks", "cyclic-check recursions",
		"redundant checks", "redundant links",
		"find-mask forwards checks", "find-mask forwards recursions",
		"find-mask backwards checks", "find-mask backwards recursions",
		"hardirq on events", "hardirq off events",
		"redundant hardirq ons", "redundant hardirq offs",
		"softirq on events", "softirq off events",
		"redundant softirq ons", "redundant softirq offs",
		"debug_locks", "zapped classes", "zapped lock chains",
		"large chain blocks",
		/* our series' (kernel-patches/0003, 0004) */
		"reports printed", "duplicate reports suppressed",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		assert_true(proc_lockdep_stat_known(labels[i],
						    strlen(labels[i])));
	assert_false(proc_lockdep_stat_known("lock-classe", 11));
	assert_false(proc_lockdep_stat_known("lock-classes ", 13));
	assert_false(proc_lockdep_stat_known("", 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_6_1),
		cmocka_unit_test(test_old_labels),
		cmocka_unit_test(test_unknown_and_malformed),
		cmocka_unit_test(test_known_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
