// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/lockdep_stats parser: the real 6.1 file, the 6.12 series'
 * format, the 2.6.2x labels (tests/fixtures/old, see README.proc),
 * unknown labels, malformed lines, and the agent's series of samples.
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
	struct proc_stats_sample h[8];
	size_t nh;
	size_t first_of[8];	/* index in s of each sample's first line */
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

static int on_sample(const struct proc_stats_sample *h, void *ctx)
{
	struct got *g = ctx;

	assert_true(g->nh < 8);
	g->first_of[g->nh] = g->nr;
	g->h[g->nh++] = *h;
	return 0;
}

static const struct proc_stats_ops ops = { on_stat, on_sample };

static int parse_flags(FILE *f, const char *name, unsigned int flags,
		       struct got *g, struct proc_parse_stats *st)
{
	int ret;

	assert_non_null(f);
	memset(g, 0, sizeof(*g));
	ret = proc_stats_parse(f, name, PROC_PARSE_QUIET | flags, &ops, g,
			       st);
	fclose(f);
	return ret;
}

static int parse(FILE *f, const char *name, struct got *g,
		 struct proc_parse_stats *st)
{
	return parse_flags(f, name, 0, g, st);
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

/* The 6.12 series' format: every label known, our two counters too. */
static void test_6_12(void **state)
{
	struct proc_parse_stats st;
	struct got g;
	size_t i;

	(void)state;
	assert_int_equal(parse(fopen(FIX "stats-6.12/lockdep_stats", "r"), "x", &g,
			       &st), 0);
	assert_int_equal(st.bad, 0);
	assert_int_equal(g.nr, 37);
	for (i = 0; i < g.nr; i++)
		assert_true(g.s[i].known);
	assert_int_equal(get(&g, "reports printed")->value, 0);
	assert_int_equal(get(&g, "duplicate reports suppressed")->line, 34);
	assert_int_equal(get(&g, "stack-trace entries")->max, 524288);
	assert_int_equal(get(&g, "large chain blocks")->line, 38);
	assert_int_equal(g.nh, 0);
}

/*
 * The agent's series: each header before its lines, the kinds and their
 * numbers as printed (a gap or a number going back is the caller's to
 * tell), unknown lines kept; a header outside a series is malformed.
 */
static void test_series(void **state)
{
	static const char in[] =
		"@ 0 1500 periodic 2000\n"
		" lock-classes:          10 [max: 8192]\n"
		" a line of 7.0:          3\n"
		"\n"
		" zapped classes:         0\n"
		"@ 4 9500 periodic 2000 1417\n"	/* 1 to 3 lost */
		" lock-classes:           9 [max: 8192]\n"	/* went back */
		"  @  5  9510  snapshot  1432  \n"
		" direct dependencies:  4096 [max: 4096]\n";
	struct proc_parse_stats st;
	struct got g;

	(void)state;
	assert_int_equal(parse_flags(fmemopen((void *)in, sizeof(in) - 1,
					      "r"), "mem",
				     PROC_PARSE_STATS_SERIES, &g, &st), 0);
	assert_int_equal(st.bad, 0);
	assert_int_equal(g.nh, 3);
	assert_int_equal(g.nr, 5);
	assert_int_equal(st.records, 5);
	assert_int_equal(g.h[0].seq, 0);
	assert_int_equal(g.h[0].time_ms, 1500);
	assert_int_equal(g.h[0].kind, PROC_STATS_PERIODIC);
	assert_int_equal(g.h[0].arg, 2000);
	assert_int_equal(g.h[0].line, 1);
	assert_false(g.h[0].has_kmsg_seq);	/* an older agent's */
	assert_int_equal(g.first_of[1], 3);
	assert_int_equal(g.h[1].seq, 4);
	assert_true(g.h[1].has_kmsg_seq);	/* the log read up to 1417 */
	assert_int_equal(g.h[1].kmsg_seq, 1417);
	assert_false(g.h[2].has_kmsg_seq);
	assert_int_equal(g.h[2].kind, PROC_STATS_SNAPSHOT);
	assert_int_equal(g.h[2].arg, 1432);
	assert_int_equal(g.h[2].line, 8);
	assert_false(g.s[1].known);
	assert_string_equal(g.s[4].label, "direct dependencies");
	assert_int_equal(g.s[4].max, 4096);

	/* the same text as one lockdep_stats file: three bad lines */
	assert_int_equal(parse(fmemopen((void *)in, sizeof(in) - 1, "r"),
			       "mem", &g, &st), 0);
	assert_int_equal(st.bad, 3);
	assert_int_equal(g.nh, 0);
	assert_int_equal(g.nr, 5);
}

static void test_series_malformed(void **state)
{
	static const char in[] =
		" lock-classes:  1 [max: 8]\n"		/* 1 before a header */
		"@ 0 1500 periodical 2000\n"		/* 2 kind */
		"@ 0 1500 periodic\n"			/* 3 no interval */
		"@ 0 1500 periodic 2000 x\n"		/* 4 log record */
		"@ x 1500 periodic 2000\n"		/* 5 no number */
		"@ 0 periodic 2000\n"			/* 6 no time */
		"@ 99999999999999999999 0 periodic 1\n"	/* 7 too big */
		"@ 0 1500 periodic 2000 7 8\n"		/* 8 trailing */
		"@ 0 1500 snapshot 2000 7\n"		/* 9 snapshot: 4 */
		"@ 1 2 snapshot 3\n"
		" lock-classes:  2 [max: 8]\n";
	struct proc_parse_stats st;
	struct got g;

	(void)state;
	assert_int_equal(parse_flags(fmemopen((void *)in, sizeof(in) - 1,
					      "r"), "mem",
				     PROC_PARSE_STATS_SERIES, &g, &st), 0);
	assert_int_equal(st.bad, 9);
	assert_int_equal(g.nh, 1);
	assert_int_equal(g.h[0].seq, 1);
	assert_int_equal(g.nr, 1);
	assert_int_equal(g.s[0].value, 2);
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
		"large chain blocks", "reports printed",
		"duplicate reports suppressed",
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
		cmocka_unit_test(test_6_12),
		cmocka_unit_test(test_series),
		cmocka_unit_test(test_series_malformed),
		cmocka_unit_test(test_old_labels),
		cmocka_unit_test(test_unknown_and_malformed),
		cmocka_unit_test(test_known_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
