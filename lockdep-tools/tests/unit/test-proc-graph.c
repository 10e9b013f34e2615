// SPDX-License-Identifier: GPL-2.0
/*
 * The graph export's parser: the real 6.1 export of our kernel series
 * (tests/fixtures/6.1/lockdep_graph, from vm/regen-fixtures.sh), a
 * hand-made export with every record kind and hostile names, cut
 * exports, rejected inputs and malformed lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/proc-graph.h"

#define FIX "tests/fixtures/"

struct got {
	unsigned int headers, classes, usages, deps, chains, traces;
	struct proc_graph_header hdr;
	char release[32], build_id[64], usage0[32], dep3[8];
	char name[3][64];
	size_t name_len[3];
	unsigned long long key[3], usage_mask[3];
	long version[3];
	unsigned int subclass[3];
	char wait[3][16];
	struct proc_graph_usage usage[4];
	struct proc_graph_dep dep[4];
	size_t chain_depth[4];
	unsigned int chain_class[4][4];
	unsigned int chain_irq[4];
	size_t trace_nr[4];
	unsigned long long trace_id[4], trace_addr0[4];
	unsigned int max_class;
	unsigned long long sum_trace_nr;
	int stop_at;	/* class_fn returns 7 at this class, if > 0 */
};

static int on_header(const struct proc_graph_header *h, void *ctx)
{
	struct got *g = ctx;

	g->headers++;
	g->hdr = *h;
	snprintf(g->release, sizeof(g->release), "%s", h->release);
	snprintf(g->build_id, sizeof(g->build_id), "%s", h->build_id);
	snprintf(g->usage0, sizeof(g->usage0), "%s", h->usage_bits[0]);
	if (h->nr_dep_bits > 3)
		snprintf(g->dep3, sizeof(g->dep3), "%s", h->dep_bits[3]);
	return 0;
}

static int on_class(const struct proc_graph_class *c, void *ctx)
{
	struct got *g = ctx;
	unsigned int i = g->classes++;

	assert_true(c->name_len > 0);
	assert_int_equal(c->name[c->name_len], '\0');
	if (c->idx > g->max_class)
		g->max_class = c->idx;
	if (i < 3) {
		memcpy(g->name[i], c->name, c->name_len < 63 ? c->name_len : 63);
		g->name_len[i] = c->name_len;
		g->key[i] = c->key;
		g->usage_mask[i] = c->usage_mask;
		g->version[i] = c->name_version;
		g->subclass[i] = c->subclass;
		snprintf(g->wait[i], 16, "%s:%s", c->wait_outer, c->wait_inner);
	}
	return g->stop_at && (int)g->classes == g->stop_at ? 7 : 0;
}

static int on_usage(const struct proc_graph_usage *u, void *ctx)
{
	struct got *g = ctx;

	if (g->usages < 4)
		g->usage[g->usages] = *u;
	g->usages++;
	return 0;
}

static int on_dep(const struct proc_graph_dep *d, void *ctx)
{
	struct got *g = ctx;

	if (g->deps < 4)
		g->dep[g->deps] = *d;
	g->deps++;
	return 0;
}

static int on_chain(const struct proc_graph_chain *c, void *ctx)
{
	struct got *g = ctx;
	size_t i;

	if (g->chains < 4) {
		g->chain_depth[g->chains] = c->depth;
		g->chain_irq[g->chains] = c->irq_context;
		for (i = 0; i < c->depth && i < 4; i++)
			g->chain_class[g->chains][i] = c->classes[i];
	}
	g->chains++;
	return 0;
}

static int on_trace(const struct proc_graph_trace *t, void *ctx)
{
	struct got *g = ctx;

	if (g->traces < 4) {
		g->trace_nr[g->traces] = t->nr;
		g->trace_id[g->traces] = t->id;
		g->trace_addr0[g->traces] = t->nr ? t->addrs[0] : 0;
	}
	g->traces++;
	g->sum_trace_nr += t->nr;
	return 0;
}

static const struct proc_graph_ops ops = {
	on_header, on_class, on_usage, on_dep, on_chain, on_trace,
};

static int parse_f(FILE *f, struct got *g, struct proc_parse_stats *st)
{
	int ret;

	assert_non_null(f);
	ret = proc_graph_parse(f, "x", PROC_PARSE_QUIET, &ops, g, st);
	fclose(f);
	return ret;
}

static int parse_s(const char *text, struct got *g,
		   struct proc_parse_stats *st)
{
	return parse_f(fmemopen((void *)text, strlen(text), "r"), g, st);
}

#define HEADER								\
	"lockdep_graph 1\n"						\
	"release 6.1.0-lockdep\n"					\
	"build_id 0123456789abcdef0123456789abcdef01234567\n"		\
	"addresses raw\n"						\
	"stext 0xffffffff9a000000\n"					\
	"usage_bit 0 USED_IN_HARDIRQ\n"					\
	"usage_bit 1 USED_IN_HARDIRQ_READ\n"				\
	"usage_bit 2 ENABLED_HARDIRQ\n"					\
	"dep_bit 0 SR\n"						\
	"dep_bit 1 ER\n"						\
	"dep_bit 2 SN\n"						\
	"dep_bit 3 EN\n"

/* every record kind; names with an escaped space, backslash and byte */
static const char whole[] =
	HEADER
	"counts 3 2 2 2\n"
	"class 5 0xffffffff9b001230 1 0 0x5 spin sleep &rq->__lock\n"
	"usage 5 0 16\n"
	"usage 5 2 -\n"
	"class 9 0xffffffff9b004560 3 1 0x0 sleep sleep a\\040b\\134c\\001\n"
	"class 12 0xffff888003a1b2c0 1 0 0x4 free inv x\n"
	"usage 12 2 0\n"
	"dep 5 9 0x8 1 0\n"
	"dep 9 12 0x1 2 -\n"
	"chain 0 0 2 5 9\n"
	"chain 7 2 1 12\n"
	"trace 0 2 0xffffffff9a123456 0xffffffff9a000010\n"
	"trace 16 0\n"
	"end\n";

static void test_whole(void **state)
{
	struct proc_parse_stats st;
	struct got g = { 0 };

	(void)state;
	assert_int_equal(parse_s(whole, &g, &st), 0);
	assert_int_equal(st.bad, 0);
	assert_int_equal(st.notes, PROC_NOTE_HEADER);
	assert_int_equal(st.records, 3 + 3 + 2 + 2 + 2);
	assert_int_equal(g.headers, 1);
	assert_string_equal(g.release, "6.1.0-lockdep");
	assert_string_equal(g.build_id,
			    "0123456789abcdef0123456789abcdef01234567");
	assert_false(g.hdr.addresses_hidden);
	assert_true(g.hdr.stext == 0xffffffff9a000000ull);
	assert_int_equal(g.hdr.nr_usage_bits, 3);
	assert_int_equal(g.hdr.nr_dep_bits, 4);
	assert_string_equal(g.usage0, "USED_IN_HARDIRQ");
	assert_string_equal(g.dep3, "EN");
	assert_int_equal(g.hdr.nr_classes, 3);
	assert_int_equal(g.hdr.nr_traces, 2);

	assert_int_equal(g.classes, 3);
	assert_string_equal(g.name[0], "&rq->__lock");
	assert_true(g.key[0] == 0xffffffff9b001230ull);
	assert_int_equal(g.usage_mask[0], 5);
	assert_string_equal(g.wait[0], "sleep:spin");
	/* decoded: "a b\c" and a 0x01 byte */
	assert_int_equal(g.name_len[1], 6);
	assert_memory_equal(g.name[1], "a b\\c\001", 6);
	assert_int_equal(g.version[1], 3);
	assert_int_equal(g.subclass[1], 1);

	assert_int_equal(g.usages, 3);
	assert_int_equal(g.usage[0].class_idx, 5);
	assert_true(g.usage[0].trace.has);
	assert_int_equal(g.usage[0].trace.id, 16);
	assert_int_equal(g.usage[1].bit, 2);
	assert_false(g.usage[1].trace.has);

	assert_int_equal(g.deps, 2);
	assert_int_equal(g.dep[0].from, 5);
	assert_int_equal(g.dep[0].to, 9);
	assert_int_equal(g.dep[0].dep_mask, 8);
	assert_int_equal(g.dep[0].distance, 1);
	assert_true(g.dep[0].trace.has);
	assert_false(g.dep[1].trace.has);

	assert_int_equal(g.chains, 2);
	assert_int_equal(g.chain_depth[0], 2);
	assert_int_equal(g.chain_class[0][1], 9);
	assert_int_equal(g.chain_irq[1], 2);

	assert_int_equal(g.traces, 2);
	assert_int_equal(g.trace_nr[0], 2);
	assert_true(g.trace_addr0[0] == 0xffffffff9a123456ull);
	assert_int_equal(g.trace_id[1], 16);
	assert_int_equal(g.trace_nr[1], 0);
}

static void test_truncated(void **state)
{
	size_t cut[] = { 20, 200, sizeof(whole) - 6, sizeof(whole) - 3 };
	struct proc_parse_stats st;
	struct got g;
	char *text;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
		memset(&g, 0, sizeof(g));
		text = strndup(whole, cut[i]);
		assert_int_equal(parse_s(text, &g, &st), 0);
		assert_true(st.notes & PROC_NOTE_TRUNCATED);
		free(text);
	}
	/* cut inside the header: no header_fn */
	assert_int_equal(g.headers, 1);
	memset(&g, 0, sizeof(g));
	assert_int_equal(parse_s("lockdep_graph 1\nrelease 6.1\n", &g, &st), 0);
	assert_int_equal(g.headers, 0);
	assert_int_equal(st.notes, PROC_NOTE_TRUNCATED);
	/* an empty file is a cut one, not a foreign one */
	assert_int_equal(parse_f(fopen("/dev/null", "r"), &g, &st), 0);
	assert_int_equal(st.notes, PROC_NOTE_TRUNCATED);
	assert_int_equal(st.lines, 0);
}

static void test_rejected(void **state)
{
	static const char *const bad[] = {
		"lockdep_graph 2\nrelease x\n",
		"lockdep_graph\n",
		"lockdep_graph 1 extra\n",
		"all lock classes:\n",
		"\n" HEADER "counts 0 0 0 0\nend\n",
		"\x7f" "ELF\x02\x01\x01\n",
		"release 6.1\nlockdep_graph 1\n",
	};
	struct proc_parse_stats st;
	struct got g;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&g, 0, sizeof(g));
		assert_int_equal(parse_s(bad[i], &g, &st), -1);
		assert_int_equal(g.headers + g.classes, 0);
		assert_int_equal(st.notes, 0);
	}
}

/* One body line after a good header and class 1: is it malformed? */
static unsigned long bad_lines(const char *body)
{
	struct proc_parse_stats st;
	struct got g = { 0 };
	char text[2048];

	snprintf(text, sizeof(text), "%scounts 1 0 0 0\n"
		 "class 1 0x10 1 0 0x0 spin spin a\n%s", HEADER, body);
	assert_int_equal(parse_s(text, &g, &st), 0);
	return st.bad;
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"class 1 0x10 1 0 0x0 spin spin dup\n",
		"class 2 0x10 1 0 0x0 spin warm b\n",
		"class 2 0x10 1 0 0x0 spin spin\n",
		"class 2 0x10 1 0 0x0 spin spin \n",
		"class 2 0x10 1 0 0x0 spin spin bad\\9escape\n",
		"class 2 0x10 1 0 0x0 spin spin cut\\04\n",
		"class 2 10 1 0 0x0 spin spin nohex\n",
		"class 70000 0x10 1 0 0x0 spin spin big\n",
		"class 2 0x10 1 99999999999 0x0 spin spin sub\n",
		"class 2  0x10 1 0 0x0 spin spin twospaces\n",
		"usage 2 0 1\n",
		"usage 1 9 1\n",
		"usage 1 0\n",
		"dep 1 2 0x1 1 -\n",
		"dep 1 1 0x10 1 -\n",
		"dep 1 1 0x1 1\n",
		"dep 1 1 0x1 1 - more\n",
		"chain 0 0 2 1\n",
		"chain 0 0 1 1 1\n",
		"chain 0 0 1 3\n",
		"chain 0 4 1 1\n",
		"chain 0 0 99999999999999 1\n",
		"trace 0 2 0x1\n",
		"trace 0 1 0x1 0x2\n",
		"trace 0 1 1\n",
		"trace 0 1 0x11111111111111111\n",
		"counts 1 0 0 0\n",
		"release again\n",
		"frobnicate 1\n",
		" leading space\n",
		"end now\n",
		"end\nclass 3 0x10 1 0 0x0 spin spin late\n",
	};
	size_t i;

	(void)state;
	assert_int_equal(bad_lines("usage 1 0 1\ndep 1 1 0x1 1 -\n"), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (bad_lines(bad[i]) != 1)
			fail_msg("not one malformed line: %s", bad[i]);
	/* blank lines are no records, and not malformed */
	assert_int_equal(bad_lines("\n\nend\n"), 0);
}

static void test_header_order(void **state)
{
	struct proc_parse_stats st;
	struct got g = { 0 };

	(void)state;
	/* build_id before release: both out of order, then nothing fits */
	assert_int_equal(parse_s("lockdep_graph 1\nbuild_id 00\n"
				 "release 6.1\naddresses raw\n"
				 "class 1 0x10 1 0 0x0 spin spin a\nend\n",
				 &g, &st), 0);
	assert_int_equal(g.headers, 0);
	assert_int_equal(g.classes, 0);
	assert_int_equal(st.bad, 4);
	/* usage bits out of order, dep bits before usage bits */
	memset(&g, 0, sizeof(g));
	assert_int_equal(parse_s("lockdep_graph 1\nrelease r\nbuild_id b\n"
				 "addresses hidden\nstext 0x0\n"
				 "dep_bit 0 SR\nusage_bit 1 X\nusage_bit 0 A\n"
				 "dep_bit 0 SR\ncounts 0 0 0 0\nend\n",
				 &g, &st), 0);
	assert_int_equal(st.bad, 2);
	assert_int_equal(g.headers, 1);
	assert_true(g.hdr.addresses_hidden);
	assert_int_equal(st.notes, PROC_NOTE_HEADER);
	/* counts that disagree with the file */
	memset(&g, 0, sizeof(g));
	assert_int_equal(parse_s(HEADER "counts 2 0 0 0\n"
				 "class 1 0x10 1 0 0x0 spin spin a\nend\n",
				 &g, &st), 0);
	assert_int_equal(st.bad, 1);
}

static void test_callback_stops(void **state)
{
	struct proc_parse_stats st;
	struct got g = { 0 };

	(void)state;
	g.stop_at = 2;
	assert_int_equal(parse_s(whole, &g, &st), 7);
	assert_int_equal(g.classes, 2);
	assert_int_equal(g.deps, 0);
	/* no ops at all: records are counted and dropped */
	assert_int_equal(proc_graph_parse(fmemopen((void *)whole,
						   strlen(whole), "r"),
					  "x", 0, NULL, NULL, &st), 0);
	assert_int_equal(st.records, 12);
}

static void test_real_6_1(void **state)
{
	struct proc_parse_stats st;
	struct got g = { 0 };

	(void)state;
	assert_int_equal(parse_f(fopen(FIX "6.1/lockdep_graph", "r"), &g,
				 &st), 0);
	assert_int_equal(st.bad, 0);
	assert_int_equal(st.notes, PROC_NOTE_HEADER);
	assert_int_equal(g.headers, 1);
	assert_int_equal(g.hdr.version, 1);
	assert_false(g.hdr.addresses_hidden);
	assert_int_equal(strlen(g.build_id), 40);
	assert_int_equal(g.hdr.nr_usage_bits, 10);
	assert_string_equal(g.usage0, "USED_IN_HARDIRQ");
	assert_string_equal(g.dep3, "EN");
	/* the counts record tells what the file holds */
	assert_int_equal(g.classes, g.hdr.nr_classes);
	assert_int_equal(g.deps, g.hdr.nr_deps);
	assert_int_equal(g.chains, g.hdr.nr_chains);
	assert_int_equal(g.traces, g.hdr.nr_traces);
	/* vm/regen-fixtures.sh keeps the first 200 classes of a real one */
	assert_int_equal(g.classes, 200);
	assert_true(g.deps > 100);
	assert_true(g.chains > 100);
	assert_true(g.traces > 100);
	assert_true(g.usages >= g.classes);	/* every class was USED */
	assert_true(g.max_class < PROC_GRAPH_MAX_CLASSES);
	/* kernel addresses: the upper half of 64-bit space */
	assert_true(g.hdr.stext >= 0xffffffff80000000ull);
	assert_true(g.key[0] >= 0xffff800000000000ull);
	assert_true(g.trace_addr0[0] >= 0xffffffff80000000ull);
	assert_int_equal(st.lines, 1 + 4 + 10 + 4 + 1 + g.classes + g.usages +
				   g.deps + g.chains + g.traces + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_rejected),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_header_order),
		cmocka_unit_test(test_callback_stops),
		cmocka_unit_test(test_real_6_1),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
