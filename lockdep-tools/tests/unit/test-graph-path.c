// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of --path and --max-nodes on hand-made graphs: shortest
 * paths counted in full past 64 bits and listed up to the cap, from
 * every class a base name matches; the closest names to a misspelt
 * one; and the bound on a picture, which keeps the focus, draws the
 * best dependencies first and counts every class it leaves out.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph-path.h"

/* A graph of one boot from "from to" name pairs */
static struct graph *pairs(const char *const *p, size_t nr)
{
	struct graph *g = graph_new();
	char a[64], b[64];
	size_t i;

	graph_add_boot(g, 1, NULL);
	for (i = 0; i < nr; i++) {
		assert_int_equal(sscanf(p[i], "%63s %63s", a, b), 2);
		graph_add_edge(g, graph_add_node(g, NULL, a, 0, 0),
			       graph_add_node(g, NULL, b, 0, 0), 0, -1, -1,
			       NULL);
	}
	graph_finish(g);
	return g;
}

static const char *from_name(const struct graph *g, uint32_t e)
{
	return g->nodes[g->edges[e].from].name;
}

static void test_one_path(void **state)
{
	static const char *const p[] = { "a b", "b c", "c d", "a x", "x y" };
	struct graph *g = pairs(p, 5);
	struct graph_paths gp;

	(void)state;
	assert_int_equal(graph_find_paths(g, "a", "d", &gp, "boot 1"), 0);
	assert_int_equal(gp.len, 3);
	assert_int_equal(gp.nr, 1);
	assert_int_equal(gp.total, 1);
	assert_int_equal(gp.reverse_len, 0);
	assert_string_equal(from_name(g, gp.edges[0]), "a");
	assert_string_equal(from_name(g, gp.edges[2]), "c");
	graph_paths_release(&gp);
	/* no path, but the other way round */
	assert_int_equal(graph_find_paths(g, "d", "a", &gp, "boot 1"), 0);
	assert_int_equal(gp.len, 0);
	assert_int_equal(gp.nr, 0);
	assert_int_equal(gp.reverse_len, 3);
	graph_paths_release(&gp);
	/* nothing either way */
	assert_int_equal(graph_find_paths(g, "d", "y", &gp, "boot 1"), 0);
	assert_int_equal(gp.len + gp.reverse_len, 0);
	graph_paths_release(&gp);
	assert_int_equal(graph_find_paths(g, "a", "nosuch", &gp, "boot 1"), -1);
	graph_paths_release(&gp);
	assert_int_equal(graph_find_paths(g, "a", "a", &gp, "boot 1"), -1);
	graph_paths_release(&gp);
	graph_free(g);
}

/* 70 diamonds in a row: 2^70 shortest paths, more than 64 bits count */
static void test_many_paths_saturate(void **state)
{
	const char *p[4 * 70];
	char *buf[4 * 70];
	struct graph *g;
	struct graph_paths gp;
	size_t i, k;

	(void)state;
	for (i = 0; i < 4 * 70; i++)
		buf[i] = malloc(32);
	for (i = 0; i < 70; i++) {
		snprintf(buf[4 * i], 32, "a%zu b%zu", i, i);
		snprintf(buf[4 * i + 1], 32, "a%zu c%zu", i, i);
		snprintf(buf[4 * i + 2], 32, "b%zu a%zu", i, i + 1);
		snprintf(buf[4 * i + 3], 32, "c%zu a%zu", i, i + 1);
	}
	for (i = 0; i < 4 * 70; i++)
		p[i] = buf[i];
	g = pairs(p, 4 * 70);
	assert_int_equal(graph_find_paths(g, "a0", "a70", &gp, "boot 1"), 0);
	assert_int_equal(gp.len, 140);
	assert_int_equal(gp.total, UINT64_MAX);
	assert_int_equal(gp.nr, GRAPH_MAX_PATHS);
	/* each listed path is whole and they differ */
	for (i = 0; i < gp.nr; i++) {
		for (k = 1; k < gp.len; k++)
			assert_int_equal(g->edges[gp.edges[i * gp.len + k - 1]].to,
					 g->edges[gp.edges[i * gp.len + k]].from);
		if (i)
			assert_memory_not_equal(gp.edges + i * gp.len,
						gp.edges + (i - 1) * gp.len,
						gp.len * sizeof(*gp.edges));
	}
	graph_paths_release(&gp);
	/* 4 diamonds: exactly 16 */
	assert_int_equal(graph_find_paths(g, "a66", "a70", &gp, "boot 1"), 0);
	assert_int_equal(gp.total, 16);
	graph_paths_release(&gp);
	graph_free(g);
	for (i = 0; i < 4 * 70; i++)
		free(buf[i]);
}

/* A base name is every class of it: the nearest one starts the path */
static void test_base_name_sources(void **state)
{
	static const char *const p[] = {
		"m#2 x", "x y", "y t", "m#3 t", "m/1 q",
	};
	struct graph *g = pairs(p, 5);
	struct graph_paths gp;

	(void)state;
	assert_int_equal(graph_find_paths(g, "m", "t", &gp, "boot 1"), 0);
	assert_int_equal(gp.nr_from, 3);
	assert_int_equal(gp.len, 1);
	assert_int_equal(gp.total, 1);
	assert_string_equal(from_name(g, gp.edges[0]), "m#3");
	graph_paths_release(&gp);
	graph_free(g);
}

static void test_closest(void **state)
{
	static const char *const p[] = {
		"console_lock &zone->lock", "zonelist_lock once_lock",
		"text_mutex fs_reclaim",
	};
	struct graph *g = pairs(p, 3);
	uint32_t out[5];
	size_t nr;

	(void)state;
	nr = graph_closest_classes(g, "consle_lock", out, 5);
	assert_int_equal(nr, 2);
	assert_string_equal(g->nodes[out[0]].name, "console_lock");
	assert_string_equal(g->nodes[out[1]].name, "once_lock");
	/* a part of the name first, the shortest such name first */
	nr = graph_closest_classes(g, "ZONE", out, 5);
	assert_int_equal(nr, 2);
	assert_string_equal(g->nodes[out[0]].name, "&zone->lock");
	assert_string_equal(g->nodes[out[1]].name, "zonelist_lock");
	nr = graph_closest_classes(g, "lock", out, 2);
	assert_int_equal(nr, 2);
	assert_int_equal(graph_closest_classes(g, "qqqqqqqq", out, 5), 0);
	graph_free(g);
}

/* a star: f -> l0 .. l29; the bound keeps f and the busiest leaves */
static void test_bound_star(void **state)
{
	const char *p[31];
	char buf[31][16];
	struct graph *g;
	struct graph_view v;
	uint32_t *uses, e;
	size_t i, folded = 0;

	(void)state;
	for (i = 0; i < 30; i++) {
		snprintf(buf[i], sizeof(buf[i]), "f l%zu", i);
		p[i] = buf[i];
	}
	snprintf(buf[30], sizeof(buf[30]), "x y");
	p[30] = buf[30];
	g = pairs(p, 31);
	uses = calloc(g->nr_edges, sizeof(*uses));
	/* l7 and l21 are the busiest */
	uses[graph_find_edge(g, graph_find_node(g, "f"),
			     graph_find_node(g, "l7"))] = 9;
	uses[graph_find_edge(g, graph_find_node(g, "f"),
			     graph_find_node(g, "l21"))] = 5;
	graph_view_init(&v, g);
	assert_int_equal(graph_select_radius(g, "f", 1, &v), 1);
	graph_view_bound(g, &v, 3, uses);
	assert_int_equal(v.selected, 31);
	assert_int_equal(v.drawn, 3);
	assert_true(v.node[graph_find_node(g, "f")] & GRAPH_SHOWN);
	assert_true(v.node[graph_find_node(g, "l7")] & GRAPH_SHOWN);
	assert_true(v.node[graph_find_node(g, "l21")] & GRAPH_SHOWN);
	assert_false(v.node[graph_find_node(g, "l8")] & GRAPH_SHOWN);
	for (e = 0; e < g->nr_edges; e++)
		if (v.edge[e] & GRAPH_SHOWN)
			assert_true((v.node[g->edges[e].from] & GRAPH_SHOWN) &&
				    (v.node[g->edges[e].to] & GRAPH_SHOWN));
	assert_int_equal(v.nr_folds, 1);
	assert_true(v.folds[0].under);
	assert_string_equal(g->nodes[v.folds[0].node].name, "f");
	assert_string_equal(v.folds[0].prefixes, "");
	for (i = 0; i < v.nr_folds; i++)
		folded += v.folds[i].count;
	assert_int_equal(folded + v.apart, 28);
	graph_view_release(&v);
	/* no bound: all stays */
	graph_view_init(&v, g);
	graph_select_all(g, &v);
	graph_view_bound(g, &v, 0, uses);
	assert_int_equal(v.drawn, 33);
	assert_int_equal(v.nr_folds, 0);
	graph_view_release(&v);
	/* no focus: grown from the busiest edge, x and y apart */
	graph_view_init(&v, g);
	graph_select_all(g, &v);
	graph_view_bound(g, &v, 2, uses);
	assert_true(v.node[graph_find_node(g, "f")] & GRAPH_SHOWN);
	assert_true(v.node[graph_find_node(g, "l7")] & GRAPH_SHOWN);
	assert_int_equal(v.apart, 2);
	graph_view_release(&v);
	free(uses);
	graph_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_path),
		cmocka_unit_test(test_many_paths_saturate),
		cmocka_unit_test(test_base_name_sources),
		cmocka_unit_test(test_closest),
		cmocka_unit_test(test_bound_star),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
