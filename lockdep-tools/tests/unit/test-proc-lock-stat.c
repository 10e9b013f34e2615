// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/lock_stat parser: the real 6.1 file, versions 0.2 and 0.3
 * (tests/fixtures/old, see README.proc), the debugging-disabled warning,
 * contention and contending points, malformed lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/proc-lock-stat.h"

#define FIX "tests/fixtures/"
#define KEEP 16

struct got {
	size_t nr_rows, nr_points, nr_classes;
	struct proc_lock_stat_row row[KEEP];
	char row_name[KEEP][48];
	struct proc_lock_stat_point pt[KEEP];
	char pt_name[KEEP][48];
	char pt_sym[KEEP][64];
	unsigned long last_seq;
};

static int on_row(const struct proc_lock_stat_row *r, void *ctx)
{
	struct got *g = ctx;

	assert_int_equal(r->name[r->name_len], '\0');
	/* invariant (2): sequence numbers only grow, by at most one */
	if (g->nr_rows)
		assert_true(r->class_seq == g->last_seq ||
			    r->class_seq == g->last_seq + 1);
	if (!g->nr_rows || r->class_seq != g->last_seq)
		g->nr_classes++;
	g->last_seq = r->class_seq;
	if (g->nr_rows < KEEP) {
		g->row[g->nr_rows] = *r;
		snprintf(g->row_name[g->nr_rows], 48, "%s", r->name);
	}
	g->nr_rows++;
	return 0;
}

static int on_point(const struct proc_lock_stat_point *p, void *ctx)
{
	struct got *g = ctx;

	assert_int_equal(p->name[p->name_len], '\0');
	assert_int_equal(p->class_seq, g->last_seq);
	if (g->nr_points < KEEP) {
		g->pt[g->nr_points] = *p;
		snprintf(g->pt_name[g->nr_points], 48, "%s", p->name);
		snprintf(g->pt_sym[g->nr_points], 64, "%.*s",
			 (int)p->symbol_len, p->symbol ? p->symbol : "");
	}
	g->nr_points++;
	return 0;
}

static const struct proc_lock_stat_ops ops = { on_row, on_point };

static int parse(FILE *f, struct got *g, struct proc_parse_stats *st)
{
	int ret;

	assert_non_null(f);
	memset(g, 0, sizeof(*g));
	ret = proc_lock_stat_parse(f, "x", PROC_PARSE_QUIET, &ops, g, st);
	fclose(f);
	return ret;
}

static void test_real_6_1(void **state)
{
	const struct proc_lock_stat_row *r;
	struct proc_parse_stats st;
	struct got g;

	(void)state;
	assert_int_equal(parse(fopen(FIX "6.1/lock_stat", "r"), &g, &st), 0);
	assert_int_equal(st.bad, 0);
	assert_string_equal(st.version, "0.4");
	assert_int_equal(st.notes, PROC_NOTE_HEADER);
	assert_int_equal(g.nr_rows, 434);
	assert_int_equal(g.nr_points, 1);
	assert_int_equal(st.records, 435);
	r = &g.row[0];
	assert_string_equal(g.row_name[0], "rcu_state.exp_mutex");
	assert_int_equal(r->rw, 0);
	assert_true(r->has_bounces && r->has_avg);
	assert_int_equal(r->contentions, 1);
	assert_int_equal(r->wait.min, 4000250);	/* 4000.25 us */
	assert_int_equal(r->wait.avg, 4000250);
	assert_int_equal(r->acquisitions, 9);
	assert_int_equal(r->hold.max, 28001750);
	assert_int_equal(r->hold.total, 56002750);
	assert_int_equal(r->hold.avg, 6222530);
	assert_int_equal(g.pt[0].kind, PROC_POINT_CONTENTION);
	assert_string_equal(g.pt_name[0], "rcu_state.exp_mutex");
	assert_int_equal(g.pt[0].count, 1);
	assert_false(g.pt[0].has_addr);		/* (____ptrval____) */
	assert_string_equal(g.pt_sym[0],
			    "synchronize_rcu_expedited+0x2b0/0x3fe");
	assert_int_equal(g.pt[0].class_seq, 0);
	/* cpu_hotplug_lock-W and -R: one class */
	assert_string_equal(g.row_name[1], "cpu_hotplug_lock");
	assert_int_equal(g.row[1].rw, 'W');
	assert_int_equal(g.row[2].rw, 'R');
	assert_int_equal(g.row[1].class_seq, 1);
	assert_int_equal(g.row[2].class_seq, 1);
	assert_int_equal(g.row[3].class_seq, 2);
	assert_int_equal(g.nr_classes, g.last_seq + 1);
}

static void test_version_0_2(void **state)
{
	struct proc_parse_stats st;
	struct got g;

	(void)state;
	assert_int_equal(parse(fopen(FIX "old/lock_stat-0.2", "r"), &g, &st),
			 0);
	assert_int_equal(st.bad, 0);
	assert_string_equal(st.version, "0.2");
	assert_int_equal(g.nr_rows, 4);
	assert_int_equal(g.nr_classes, 3);
	assert_false(g.row[0].has_bounces);
	assert_false(g.row[0].has_avg);
	assert_int_equal(g.row[0].contentions, 14);
	assert_int_equal(g.row[0].wait.min, 8110);
	assert_int_equal(g.row[0].acquisitions, 172133);
	assert_int_equal(g.row[0].hold.total, 41118596440ULL);
	assert_int_equal(g.nr_points, 1);
	assert_true(g.pt[0].has_addr);
	assert_int_equal(g.pt[0].addr, 0xffffffff8103e0d2ULL);
	assert_string_equal(g.row_name[3], "rtc_lock#2");
}

static void test_version_0_3_points(void **state)
{
	struct proc_parse_stats st;
	struct got g;

	(void)state;
	assert_int_equal(parse(fopen(FIX "old/lock_stat-0.3", "r"), &g, &st),
			 0);
	assert_int_equal(st.bad, 0);
	assert_int_equal(st.notes, PROC_NOTE_HEADER | PROC_NOTE_DEBUG_DISABLED);
	assert_int_equal(g.nr_rows, 3);
	assert_int_equal(g.nr_classes, 2);
	assert_true(g.row[0].has_bounces);
	assert_false(g.row[0].has_avg);
	assert_int_equal(g.row[0].con_bounces, 46);
	assert_int_equal(g.row[1].acq_bounces, 13826);
	assert_int_equal(g.nr_points, 4);
	assert_int_equal(g.pt[0].kind, PROC_POINT_CONTENTION);
	assert_int_equal(g.pt[1].kind, PROC_POINT_CONTENTION);
	assert_int_equal(g.pt[2].kind, PROC_POINT_CONTENDING);
	assert_int_equal(g.pt[3].kind, PROC_POINT_CONTENDING);
	assert_string_equal(g.pt_sym[3], "xfs_ilock+0x51/0x90 [xfs]");
	assert_int_equal(g.pt[2].count, 144);
	assert_string_equal(g.row_name[2], "dcache_lock");
	assert_int_equal(g.row[2].class_seq, 1);
}

static void test_malformed(void **state)
{
	static const char in[] =
		"          a:   1   2   3\n"			/* 1 bad: too few */
		"          b:   1   2   0.5   1   1   1   0   4   1   1   1   1 x\n" /* 2 bad */
		"          c-W:   1   2   0.5   1   1   1   0   4   1   1   1   1\n"
		"    ---\n"
		"          c    3    [<ffffffff81000000>] f+0x1/0x2\n"
		"          c    3    [<zz>] f+0x1/0x2\n"	/* 6 bad */
		"          c    x    [<ffffffff81000000>] f\n"	/* 7 bad */
		"     hostile \"name\" \x01: 1 2 0.5 1 1 1 0 4 1 1 1 1\n"
		"   -----\n"
		"   -----\n"
		"          c    3    [<ffffffff81000000>]\n"	/* 3rd block: contending */
		"          d:   1   2   0.5.5   1   1   1   0   4   1   1   1   1\n" /* 12 bad */
		"   q    1    [<ffffffff81000000>] f\n"		/* a point of "hostile" */
		"          e:   1   2   -0.05   1   1   1   0   4   1   1   1   1\n";
	struct proc_parse_stats st;
	struct got g;

	(void)state;
	assert_int_equal(parse(fmemopen((void *)in, sizeof(in) - 1, "r"), &g,
			       &st), 0);
	assert_int_equal(g.nr_rows, 3);
	assert_string_equal(g.row_name[1], "hostile \"name\" \x01");
	assert_int_equal(g.row[2].wait.min, 0);	/* negative: clamped */
	assert_int_equal(g.nr_points, 3);
	assert_int_equal(g.pt[1].class_seq, 1);
	assert_int_equal(g.pt[1].kind, PROC_POINT_CONTENDING);
	assert_null(g.pt[1].symbol);
	assert_int_equal(st.bad, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_6_1),
		cmocka_unit_test(test_version_0_2),
		cmocka_unit_test(test_version_0_3_points),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
