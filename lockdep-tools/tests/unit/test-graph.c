// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the lock graph on hand-made graphs: building (room
 * reserved first or not) and merging across boots, strongly connected
 * components (including one path long enough to overflow a recursive
 * implementation's stack), shortest
 * cycles and their cross-boot flag, irq-safe -> irq-unsafe paths,
 * neighbourhoods, and dot quoting of hostile names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph-view.h"
#include "parse/report.h"
#include "util/strbuf.h"

#define HARD_SAFE	LDR_USAGE_IN(LDR_HARDIRQ)
#define HARD_UNSAFE	LDR_USAGE_ON(LDR_HARDIRQ)
#define SOFT_SAFE	LDR_USAGE_IN(LDR_SOFTIRQ)

/*
 * A graph of one boot from "a>b" pairs of single-letter classes, with
 * room for @hint nodes and edges reserved first.
 */
static struct graph *letters_reserved(const char *const *pairs, size_t nr,
				      uint64_t hint)
{
	struct graph *g = graph_new();
	char a[2] = "", b[2] = "";
	uint32_t from, to;
	size_t i;

	graph_add_boot(g, 1, NULL);
	graph_reserve(g, hint, hint);
	for (i = 0; i < nr; i++) {
		a[0] = pairs[i][0];
		b[0] = pairs[i][2];
		from = graph_add_node(g, NULL, a, 0, 0);
		to = graph_add_node(g, NULL, b, 0, 0);
		graph_add_edge(g, from, to, 0, -1, -1, NULL);
	}
	graph_finish(g);
	return g;
}

static struct graph *letters(const char *const *pairs, size_t nr)
{
	return letters_reserved(pairs, nr, 0);
}

static uint32_t node(const struct graph *g, const char *name)
{
	uint32_t n = graph_find_node(g, name);

	assert_int_not_equal(n, UINT32_MAX);
	return n;
}

static void test_merge_across_boots(void **state)
{
	struct graph *g = graph_new();
	uint32_t a, b, a2, e;

	(void)state;
	assert_int_equal(graph_add_boot(g, 7, "ab"), 0);
	assert_int_equal(graph_add_boot(g, 9, NULL), 1);
	a = graph_add_node(g, "key-a", "A#2", HARD_SAFE, 0);
	b = graph_add_node(g, NULL, "B", 0, 0);
	a2 = graph_add_node(g, "key-a", "A#5", HARD_UNSAFE, 1);
	assert_int_equal(a, a2);
	graph_add_edge(g, a, b, 0, GRAPH_DEP_EN, 2, NULL);
	graph_add_edge(g, b, a, 1, -1, -1, "site-ba");
	graph_add_edge(g, a, b, 1, GRAPH_DEP_SR, 1, "site-ab");
	graph_finish(g);
	assert_int_equal(g->nr_nodes, 2);
	assert_int_equal(g->nr_edges, 2);
	assert_string_equal(g->nodes[a].name, "A#2");
	assert_int_equal(g->nodes[a].usage_bits, HARD_SAFE | HARD_UNSAFE);
	assert_int_equal(g->nodes[a].nr_boots, 2);
	e = graph_find_edge(g, a, b);
	assert_int_not_equal(e, UINT32_MAX);
	assert_int_equal(g->edges[e].nr_boots, 2);
	assert_true(graph_edge_has_boot(g, &g->edges[e], 0));
	assert_true(graph_edge_has_boot(g, &g->edges[e], 1));
	assert_int_equal(g->edges[e].dep_bits, GRAPH_DEP_EN | GRAPH_DEP_SR);
	assert_int_equal(g->edges[e].distance, 1);
	assert_string_equal(graph_edge_site(g, &g->edges[e]), "site-ab");
	assert_int_equal(g->edges[e].site_boot, 1);
	assert_int_equal(graph_find_edge(g, b, b), UINT32_MAX);
	graph_free(g);
}

/*
 * A reservation is a hint: too small, the arrays grow as they would
 * have; absurd (a damaged pack header), it is capped; the graph is the
 * one built without it.
 */
static void test_reserve(void **state)
{
	static const char *const pairs[] = { "a>b", "b>c", "c>a", "a>c", "d>a" };
	const uint64_t hints[] = { 1, 5, UINT64_MAX };
	struct graph *want = letters(pairs, 5), *g;
	size_t h, i;

	(void)state;
	for (h = 0; h < sizeof(hints) / sizeof(hints[0]); h++) {
		g = letters_reserved(pairs, 5, hints[h]);
		assert_true(g->alloc_nodes <= GRAPH_RESERVE_MAX);
		assert_int_equal(g->nr_nodes, want->nr_nodes);
		assert_int_equal(g->nr_edges, want->nr_edges);
		for (i = 0; i < g->nr_nodes; i++)
			assert_string_equal(g->nodes[i].name, want->nodes[i].name);
		for (i = 0; i < g->nr_edges; i++) {
			assert_int_equal(g->edges[i].from, want->edges[i].from);
			assert_int_equal(g->edges[i].to, want->edges[i].to);
		}
		graph_free(g);
	}
	graph_free(want);
}

static void test_append_node(void **state)
{
	struct graph *g = graph_new();
	uint32_t a, a2;

	(void)state;
	graph_add_boot(g, 3, NULL);
	a = graph_append_node(g, "A", HARD_SAFE, 0);
	a2 = graph_append_node(g, "A", HARD_UNSAFE, 0);
	assert_int_not_equal(a, a2);	/* appended nodes never merge */
	graph_finish(g);
	assert_int_equal(g->nr_nodes, 2);
	assert_string_equal(graph_node_key(g, a2), "A");
	assert_int_equal(g->nodes[a].usage_bits, HARD_SAFE);
	assert_int_equal(g->nodes[a2].nr_boots, 1);
	graph_free(g);
}

struct row {
	int from, to, boot, dep_bits, distance;
	const char *site;
};

static struct graph *rows_graph(const struct row *r, const int *order,
				size_t nr)
{
	struct graph *g = graph_new();
	const char *const names[] = { "a", "b", "c", "d" };
	int i;

	for (i = 0; i < 3; i++)
		graph_add_boot(g, 10 + i, NULL);
	for (i = 0; i < 4; i++)
		graph_add_node(g, NULL, names[i], 0, 0);
	for (i = 0; i < (int)nr; i++)
		graph_add_edge(g, (uint32_t)r[order[i]].from,
			       (uint32_t)r[order[i]].to, r[order[i]].boot,
			       r[order[i]].dep_bits, r[order[i]].distance,
			       r[order[i]].site);
	return g;
}

/*
 * Rows as two sorted runs, boots 0 and 1 then boot 2 (a diff's A and B
 * in the store's key order), are merged without a sort: the same edges,
 * boot lists, bits, distances and sites as the same rows shuffled.
 */
static void test_merge_sorted_runs(void **state)
{
	static const struct row r[] = {
		{ 0, 1, 0, GRAPH_DEP_EN, 3, NULL },
		{ 0, 1, 1, -1, -1, NULL },
		{ 0, 2, 0, GRAPH_DEP_EN, 2, "s-ac0" },
		{ 1, 2, 1, -1, 5, NULL },
		/* the second run: boot 2 */
		{ 0, 1, 2, GRAPH_DEP_SR, 1, "s-ab2" },
		{ 0, 3, 2, -1, -1, NULL },
		{ 0, 3, 2, GRAPH_DEP_EN, 4, NULL },
		{ 1, 2, 2, GRAPH_DEP_SN, 7, "s-bc2" },
		{ 2, 0, 2, -1, -1, NULL },
		{ 3, 3, 2, -1, -1, NULL },
	};
	static const int sorted[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	static const int shuffled[] = { 9, 4, 2, 7, 0, 8, 5, 3, 1, 6 };
	struct graph *m = rows_graph(r, sorted, 10);
	struct graph *s = rows_graph(r, shuffled, 10);
	const struct graph_edge *x, *y;
	size_t i;
	uint32_t e;

	(void)state;
	assert_int_equal(m->breaks, 1);	/* the shape merge_runs() takes */
	assert_false(m->run2_mixed);
	assert_int_equal(m->run1_boot, 1);
	graph_finish(m);
	graph_finish(s);
	assert_int_equal(m->nr_edges, 6);
	assert_int_equal(s->nr_edges, m->nr_edges);
	for (i = 0; i < m->nr_edges; i++) {
		x = &m->edges[i];
		y = &s->edges[i];
		assert_int_equal(x->from, y->from);
		assert_int_equal(x->to, y->to);
		assert_int_equal(x->nr_boots, y->nr_boots);
		assert_memory_equal(graph_edge_boots(m, x), graph_edge_boots(s, y),
				    x->nr_boots * sizeof(uint32_t));
		assert_int_equal(x->dep_bits, y->dep_bits);
		assert_int_equal(x->distance, y->distance);
		assert_int_equal(x->site_boot, y->site_boot);
		assert_true(x->site == y->site ||
			    !strcmp(graph_edge_site(m, x), graph_edge_site(s, y)));
	}
	e = graph_find_edge(m, 0, 1);
	assert_int_equal(m->edges[e].nr_boots, 3);
	assert_int_equal(graph_edge_boots(m, &m->edges[e])[2], 2);
	assert_int_equal(m->edges[e].dep_bits, GRAPH_DEP_EN | GRAPH_DEP_SR);
	assert_int_equal(m->edges[e].distance, 1);
	assert_string_equal(graph_edge_site(m, &m->edges[e]), "s-ab2");
	e = graph_find_edge(m, 0, 3);
	assert_int_equal(m->edges[e].nr_boots, 1);
	assert_int_equal(m->edges[e].distance, 4);
	e = graph_find_edge(m, 1, 2);
	assert_string_equal(graph_edge_site(m, &m->edges[e]), "s-bc2");
	assert_int_equal(m->edges[e].site_boot, 2);
	assert_int_equal(m->edges[e].distance, 5);
	graph_free(m);
	graph_free(s);
}

static void test_scc_small(void **state)
{
	/* a<->b, c->d->e->c, e->f, f alone, g->g loop */
	static const char *const pairs[] = {
		"a>b", "b>a", "b>c", "c>d", "d>e", "e>c", "e>f", "g>g",
	};
	struct graph *g = letters(pairs, 8);
	struct graph_scc scc;

	(void)state;
	graph_scc(g, &scc);
	assert_int_equal(scc.comp[node(g, "a")], scc.comp[node(g, "b")]);
	assert_int_equal(scc.comp[node(g, "c")], scc.comp[node(g, "d")]);
	assert_int_equal(scc.comp[node(g, "c")], scc.comp[node(g, "e")]);
	assert_int_not_equal(scc.comp[node(g, "a")], scc.comp[node(g, "c")]);
	assert_int_not_equal(scc.comp[node(g, "e")], scc.comp[node(g, "f")]);
	assert_int_equal(scc.size[scc.comp[node(g, "c")]], 3);
	assert_int_equal(scc.size[scc.comp[node(g, "f")]], 1);
	assert_int_equal(scc.nr, 4);	/* {a,b} {c,d,e} {f} {g} */
	assert_int_equal(scc.nr_cyclic, 3);
	graph_scc_release(&scc);
	graph_free(g);
}

/* 300000 classes in one path closed by one edge: one component. */
static void test_scc_deep_path(void **state)
{
	struct graph *g = graph_new();
	struct graph_scc scc;
	struct graph_cycles cy;
	char name[16];
	uint32_t i, n = 300000;

	(void)state;
	graph_add_boot(g, 1, NULL);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "c%u", i);
		graph_add_node(g, NULL, name, 0, 0);
	}
	for (i = 0; i + 1 < n; i++)
		graph_add_edge(g, i, i + 1, 0, -1, -1, NULL);
	graph_add_edge(g, n - 1, 0, 0, -1, -1, NULL);
	graph_finish(g);
	graph_scc(g, &scc);
	assert_int_equal(scc.nr, 1);
	assert_int_equal(scc.size[0], n);
	graph_cycles(g, &scc, 0, &cy);
	assert_int_equal(cy.nr, 1);
	assert_int_equal(cy.v[0].nr, n);
	graph_cycles_release(&cy);
	graph_scc_release(&scc);
	graph_free(g);
}

static void assert_cycle_closed(const struct graph *g,
				const struct graph_cycle *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		assert_int_equal(g->edges[c->edges[i]].to,
				 g->edges[c->edges[(i + 1) % c->nr]].from);
}

static void test_shortest_cycles(void **state)
{
	/*
	 * a->b->c->d->a (4) and b->a (2), c->b (2): the shortest cycle
	 * through a->b is a->b->a, not the 4-cycle; every edge of the
	 * component ends on some listed cycle.
	 */
	static const char *const pairs[] = {
		"a>b", "b>c", "c>d", "d>a", "b>a", "c>b", "d>x",
	};
	struct graph *g = letters(pairs, 7);
	struct graph_scc scc;
	struct graph_cycles cy;
	size_t i;

	(void)state;
	graph_scc(g, &scc);
	graph_cycles(g, &scc, 0, &cy);
	assert_int_equal(cy.uncovered, 0);
	assert_true(cy.nr >= 3);
	for (i = 0; i < cy.nr; i++)
		assert_cycle_closed(g, &cy.v[i]);
	/* the first edge a->b: its cycle is a->b->a */
	assert_int_equal(cy.v[0].edges[0],
			 graph_find_edge(g, node(g, "a"), node(g, "b")));
	assert_int_equal(cy.v[0].nr, 2);
	for (i = 0; i < g->nr_edges; i++)
		assert_int_equal(cy.on_cycle[i],
				 g->edges[i].to != node(g, "x"));
	assert_false(cy.v[0].cross_boot);	/* one boot */
	graph_cycles_release(&cy);

	/* a cap of one cycle per component leaves edges uncovered */
	graph_cycles(g, &scc, 1, &cy);
	assert_int_equal(cy.nr, 1);
	assert_true(cy.uncovered > 0);
	graph_cycles_release(&cy);
	graph_scc_release(&scc);
	graph_free(g);
}

/* A -> B seen in boot 1 only, B -> A in boot 2 only: a cross-boot cycle */
static void test_cross_boot_cycle(void **state)
{
	struct graph *g = graph_new();
	struct graph_scc scc;
	struct graph_cycles cy;
	struct graph_view v;
	uint32_t a, b, c;

	(void)state;
	graph_add_boot(g, 1, "ab-order");
	graph_add_boot(g, 2, "ba-order");
	a = graph_add_node(g, NULL, "A", 0, 0);
	b = graph_add_node(g, NULL, "B", 0, 0);
	c = graph_add_node(g, NULL, "C", 0, 0);
	graph_add_node(g, NULL, "A", 0, 1);
	graph_add_node(g, NULL, "B", 0, 1);
	graph_add_edge(g, a, b, 0, -1, -1, "ab_run+0x10/0x40");
	graph_add_edge(g, b, a, 1, -1, -1, "ba_run+0x10/0x40");
	graph_add_edge(g, a, c, 0, -1, -1, NULL);
	graph_add_edge(g, a, c, 1, -1, -1, NULL);
	graph_finish(g);
	graph_scc(g, &scc);
	graph_cycles(g, &scc, 0, &cy);
	assert_int_equal(scc.nr_cyclic, 1);
	assert_int_equal(cy.nr, 1);
	assert_true(cy.v[0].cross_boot);
	assert_int_equal(cy.v[0].nr, 2);
	graph_view_init(&v, g);
	graph_select_cycles(g, &scc, &cy, &v);
	assert_int_equal(v.node[a] & GRAPH_SHOWN, GRAPH_SHOWN);
	assert_int_equal(v.node[c], 0);
	assert_int_equal(v.edge[graph_find_edge(g, b, a)],
			 GRAPH_SHOWN | GRAPH_BOLD);
	graph_view_release(&v);
	graph_cycles_release(&cy);
	graph_scc_release(&scc);
	graph_free(g);
}

static void test_irq_paths(void **state)
{
	struct graph *g = graph_new();
	struct graph_irq_paths p;
	uint32_t s, m, u, x, soft;

	(void)state;
	graph_add_boot(g, 1, NULL);
	s = graph_add_node(g, NULL, "safe", HARD_SAFE, 0);
	m = graph_add_node(g, NULL, "middle", 0, 0);
	u = graph_add_node(g, NULL, "unsafe", HARD_UNSAFE, 0);
	x = graph_add_node(g, NULL, "unreached-unsafe", HARD_UNSAFE, 0);
	soft = graph_add_node(g, NULL, "soft", SOFT_SAFE, 0);
	graph_add_edge(g, s, m, 0, -1, -1, NULL);
	graph_add_edge(g, m, u, 0, -1, -1, NULL);
	graph_add_edge(g, x, s, 0, -1, -1, NULL);
	/* softirq-safe -> hardirq-unsafe is no conflict */
	graph_add_edge(g, soft, u, 0, -1, -1, NULL);
	graph_finish(g);
	graph_irq_paths(g, &p);
	assert_int_equal(p.nr, 1);
	assert_int_equal(p.v[0].state, LDR_HARDIRQ);
	assert_int_equal(p.v[0].nr, 2);
	assert_int_equal(g->edges[p.v[0].edges[0]].from, s);
	assert_int_equal(g->edges[p.v[0].edges[1]].to, u);
	graph_irq_paths_release(&p);
	graph_free(g);
}

static void test_radius(void **state)
{
	static const char *const pairs[] = { "a>b", "b>c", "c>d", "e>b" };
	struct graph *g = letters(pairs, 4);
	struct graph_view v;

	(void)state;
	graph_view_init(&v, g);
	assert_int_equal(graph_select_radius(g, "b", 1, &v), 1);
	assert_true(v.node[node(g, "a")] & GRAPH_SHOWN);
	assert_true(v.node[node(g, "c")] & GRAPH_SHOWN);
	assert_true(v.node[node(g, "e")] & GRAPH_SHOWN);
	assert_false(v.node[node(g, "d")] & GRAPH_SHOWN);
	assert_true(v.node[node(g, "b")] & GRAPH_FOCUS);
	assert_true(v.edge[graph_find_edge(g, node(g, "a"), node(g, "b"))]);
	assert_false(v.edge[graph_find_edge(g, node(g, "c"), node(g, "d"))]);
	assert_int_equal(graph_select_radius(g, "nosuch", 1, &v), 0);
	graph_view_release(&v);
	graph_free(g);
}

static void test_radius_base_name(void **state)
{
	struct graph *g = graph_new();
	struct graph_view v;

	(void)state;
	graph_add_boot(g, 1, NULL);
	graph_add_node(g, NULL, "&sb->s_type->i_lock_key#3", 0, 0);
	graph_add_node(g, NULL, "&sb->s_type->i_lock_key#12/1", 0, 0);
	graph_add_node(g, NULL, "&sb->s_type->i_lock_key_other", 0, 0);
	graph_finish(g);
	graph_view_init(&v, g);
	assert_int_equal(graph_select_radius(g, "&sb->s_type->i_lock_key", 1, &v), 2);
	assert_int_equal(v.node[2], 0);
	graph_view_release(&v);
	graph_free(g);
}

static char *quote(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	graph_dot_quote(f, s);
	fclose(f);
	return buf;
}

static char *added(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	graph_text_add(&sb, s);
	return strbuf_detach(&sb, NULL);
}

static void test_dot_quote_hostile(void **state)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "plain", "\"plain\"" },
		{ "a\"b", "\"a\\\"b\"" },
		{ "back\\slash\\", "\"back\\\\slash\\\\\"" },
		{ "\\N\\G\\L", "\"\\\\N\\\\G\\\\L\"" },
		{ "&lt;b&gt;", "\"&amp;lt;b&amp;gt;\"" },
		{ "<b>{x|y}</b>", "\"<b>{x|y}</b>\"" },
		{ "\"]; evil [label=\"", "\"\\\"]; evil [label=\\\"\"" },
	};
	size_t i;
	char *q, *t;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		q = quote(cases[i].in);
		assert_string_equal(q, cases[i].out);
		free(q);
	}
	/* control and non-ASCII bytes never reach dot as themselves */
	t = added("new\nline\ttab\x7f\xc3\xa9");
	assert_string_equal(t, "new\\x0aline\\x09tab\\x7f\\xc3\\xa9");
	q = quote(t);
	assert_string_equal(q, "\"new\\\\x0aline\\\\x09tab\\\\x7f\\\\xc3\\\\xa9\"");
	free(q);
	free(t);
}

static void test_usage_and_kinds(void **state)
{
	char buf[16];

	(void)state;
	assert_string_equal(graph_usage_str(0, buf), "....");
	assert_string_equal(graph_usage_str(LDR_USAGE_ON(0) | LDR_USAGE_ON(1),
					    buf), "+.+.");
	assert_string_equal(graph_usage_str(LDR_USAGE_IN(0) |
					    LDR_USAGE_ON_READ(1) |
					    LDR_USAGE_IN_READ(1), buf), "-..?");
	assert_string_equal(graph_usage_str(LDR_USAGE_ON(2), buf), "....+.");
	assert_string_equal(graph_dep_str(-1, buf), "");
	assert_string_equal(graph_dep_str(GRAPH_DEP_EN, buf), "EN");
	assert_string_equal(graph_dep_str(GRAPH_DEP_SR | GRAPH_DEP_EN, buf),
			    "EN,SR");
	assert_true(graph_irq_safe(LDR_USAGE_IN_READ(LDR_SOFTIRQ), LDR_SOFTIRQ));
	assert_false(graph_irq_safe(LDR_USAGE_IN(LDR_SOFTIRQ), LDR_HARDIRQ));
	assert_true(graph_irq_unsafe(LDR_USAGE_ON_READ(LDR_HARDIRQ),
				     LDR_HARDIRQ));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_across_boots),
		cmocka_unit_test(test_reserve),
		cmocka_unit_test(test_append_node),
		cmocka_unit_test(test_merge_sorted_runs),
		cmocka_unit_test(test_scc_small),
		cmocka_unit_test(test_scc_deep_path),
		cmocka_unit_test(test_shortest_cycles),
		cmocka_unit_test(test_cross_boot_cycle),
		cmocka_unit_test(test_irq_paths),
		cmocka_unit_test(test_radius),
		cmocka_unit_test(test_radius_base_name),
		cmocka_unit_test(test_dot_quote_hostile),
		cmocka_unit_test(test_usage_and_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
