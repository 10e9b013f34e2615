// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/lockdep_chains parser: the real 6.1 file (its first 400 chains),
 * the numeric and named irq contexts, the "(buggered)" header, a cut
 * file and malformed lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/proc-chains.h"

#define FIX "tests/fixtures/"

struct got {
	size_t nr, classes, max_depth;
	unsigned int irq[8];
	size_t depth[8];
	char first[8][64];
	char last[8][64];
	unsigned long line[8];
};

static int on_chain(const struct proc_lockdep_chain *c, void *ctx)
{
	struct got *g = ctx;
	size_t i;

	for (i = 0; i < c->nr_classes; i++) {
		assert_int_equal(c->classes[i].name[c->classes[i].name_len],
				 '\0');
		assert_true(c->classes[i].line > c->line);
		if (i)
			assert_true(c->classes[i].line > c->classes[i - 1].line);
	}
	if (g->nr < 8) {
		g->irq[g->nr] = c->irq_context;
		g->depth[g->nr] = c->nr_classes;
		g->line[g->nr] = c->line;
		if (c->nr_classes) {
			snprintf(g->first[g->nr], 64, "%s", c->classes[0].name);
			snprintf(g->last[g->nr], 64, "%s",
				 c->classes[c->nr_classes - 1].name);
		}
	}
	g->nr++;
	g->classes += c->nr_classes;
	if (c->nr_classes > g->max_depth)
		g->max_depth = c->nr_classes;
	return 0;
}

static const struct proc_chains_ops ops = { on_chain };

static int parse(FILE *f, struct got *g, struct proc_parse_stats *st)
{
	int ret;

	assert_non_null(f);
	memset(g, 0, sizeof(*g));
	ret = proc_chains_parse(f, "x", PROC_PARSE_QUIET, &ops, g, st);
	fclose(f);
	return ret;
}

static void test_real_6_1(void **state)
{
	struct proc_parse_stats st;
	struct got g;

	(void)state;
	assert_int_equal(parse(fopen(FIX "6.1/lockdep_chains", "r"), &g, &st),
			 0);
	assert_int_equal(st.bad, 0);
	assert_int_equal(st.notes, PROC_NOTE_HEADER);
	assert_int_equal(g.nr, 400);
	assert_int_equal(st.records, 400);
	/* lines: header + per chain (irq_context + classes + blank) */
	assert_int_equal(st.lines, 1 + 2 * 400 + g.classes);
	assert_int_equal(g.irq[0], 0);
	assert_int_equal(g.depth[0], 1);
	assert_string_equal(g.first[0], "(console_sem).lock");
	assert_int_equal(g.depth[2], 2);
	assert_string_equal(g.first[2], "cpu_hotplug_lock");
	assert_string_equal(g.last[2], "static_call_mutex");
	assert_true(g.max_depth <= 48);	/* MAX_LOCK_DEPTH */
}

static void test_old_and_buggered(void **state)
{
	struct proc_parse_stats st;
	struct got g;

	(void)state;
	assert_int_equal(parse(fopen(FIX "old/lockdep_chains-3.10", "r"), &g,
			       &st), 0);
	assert_int_equal(st.bad, 0);
	assert_int_equal(g.nr, 4);
	assert_int_equal(g.irq[1], PROC_CHAIN_HARDIRQ);
	assert_int_equal(g.irq[2], PROC_CHAIN_SOFTIRQ);
	assert_int_equal(g.irq[3], PROC_CHAIN_HARDIRQ | PROC_CHAIN_SOFTIRQ);
	assert_int_equal(g.depth[3], 2);
	assert_string_equal(g.last[3], "&irq_desc_lock_class");

	assert_int_equal(parse(fopen(FIX "old/lockdep_chains-buggered-5.10",
				     "r"), &g, &st), 0);
	assert_int_equal(st.bad, 0);
	assert_int_equal(st.notes, PROC_NOTE_HEADER | PROC_NOTE_BUGGERED |
				   PROC_NOTE_TRUNCATED);
	assert_int_equal(g.nr, 2);	/* the cut chain is delivered */
	assert_int_equal(g.irq[0], PROC_CHAIN_HARDIRQ | PROC_CHAIN_SOFTIRQ);
	assert_int_equal(g.irq[1], PROC_CHAIN_SOFTIRQ);
	assert_int_equal(g.depth[1], 2);
}

static void test_malformed(void **state)
{
	static const char in[] =
		"[00000001] outside\n"		/* 1 bad */
		"irq_context: nmi\n"		/* 2 bad */
		"[00000001] still outside\n"	/* 3 bad */
		"irq_context: 0\n"
		"[00000001] a\n"
		"[zz] b\n"			/* 6 bad */
		"[00000002]\n"			/* 7 bad */
		"[00000003] c\"\x07\n"
		"something else\n"		/* 9 bad */
		"irq_context: 4\n"		/* 10 bad, ends the chain */
		"\n"
		"irq_context: softirq\n"
		"\n";
	struct proc_parse_stats st;
	struct got g;

	(void)state;
	assert_int_equal(parse(fmemopen((void *)in, sizeof(in) - 1, "r"), &g,
			       &st), 0);
	assert_int_equal(st.bad, 7);
	assert_int_equal(g.nr, 2);
	assert_int_equal(g.depth[0], 2);
	assert_string_equal(g.last[0], "c\"\x07");
	assert_int_equal(g.depth[1], 0);
	assert_int_equal(g.irq[1], PROC_CHAIN_SOFTIRQ);
	assert_int_equal(st.notes, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_6_1),
		cmocka_unit_test(test_old_and_buggered),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
