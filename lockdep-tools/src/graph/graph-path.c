// SPDX-License-Identifier: GPL-2.0
/*
 * Shortest dependency paths (graph-path.h). One breadth-first search
 * backwards from B's classes gives every class its distance to B; the
 * shortest paths from A are then exactly the chains of edges that each
 * go one step closer, so counting them (in order of distance) and
 * listing them needs no second search: O(V + E) time and memory
 * whatever the number of paths, which can be exponential.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph-path.h"
#include "util/error.h"
#include "util/json-writer.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define UNSEEN	UINT32_MAX
/* names compared for suggestions are cut here: a few edits matter, not
 * the tail of a hostile 16 KiB name */
#define NAME_CMP_MAX	128

/*
 * Distance of every node to the nearest of @to (UNSEEN: none), by
 * in-edges; *@order the nodes reached, nearest first (*@nr_order).
 */
static uint32_t *dist_to(const struct graph *g, const uint32_t *to, size_t nr,
			 uint32_t **order, size_t *nr_order)
{
	size_t n = g->nr_nodes ? g->nr_nodes : 1, head = 0, tail = 0, i;
	uint32_t *dist = xmalloc(n * sizeof(*dist));
	uint32_t *queue = xmalloc(n * sizeof(*queue));
	uint32_t u, w, k;

	for (i = 0; i < g->nr_nodes; i++)
		dist[i] = UNSEEN;
	for (i = 0; i < nr; i++)
		if (dist[to[i]] == UNSEEN) {
			dist[to[i]] = 0;
			queue[tail++] = to[i];
		}
	while (head < tail) {
		u = queue[head++];
		for (k = g->in[u]; k < g->in[u + 1]; k++) {
			w = g->edges[g->in_edge[k]].from;
			if (dist[w] != UNSEEN)
				continue;
			dist[w] = dist[u] + 1;
			queue[tail++] = w;
		}
	}
	*order = queue;
	*nr_order = tail;
	return dist;
}

/* The smallest distance of @from's nodes, 0 if none reaches */
static size_t nearest(const uint32_t *dist, const uint32_t *from, size_t nr)
{
	uint32_t best = UNSEEN;
	size_t i;

	for (i = 0; i < nr; i++)
		if (dist[from[i]] < best)
			best = dist[from[i]];
	return best == UNSEEN ? 0 : best;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static bool closer(const struct graph *g, const uint32_t *dist, uint32_t e,
		   uint32_t u)
{
	uint32_t v = g->edges[e].to;

	return dist[v] != UNSEEN && dist[v] + 1 == dist[u];
}

/* The shortest paths from node @s, in edge order, until @p has max */
static void list_from(const struct graph *g, const uint32_t *dist, uint32_t s,
		      struct graph_paths *p, uint32_t *cur, uint32_t *it)
{
	size_t depth = 0, len = p->len;
	uint32_t u;

	it[0] = g->out[s];
	while (p->nr < GRAPH_MAX_PATHS) {
		u = depth ? g->edges[cur[depth - 1]].to : s;
		while (it[depth] < g->out[u + 1] && !closer(g, dist, it[depth], u))
			it[depth]++;
		if (it[depth] == g->out[u + 1]) {
			if (!depth)
				break;
			it[--depth]++;
			continue;
		}
		cur[depth] = it[depth];
		if (depth + 1 < len) {
			depth++;
			it[depth] = g->out[g->edges[cur[depth - 1]].to];
			continue;
		}
		memcpy(p->edges + p->nr++ * len, cur, len * sizeof(*cur));
		it[depth]++;
	}
}

static void shortest(const struct graph *g, struct graph_paths *p)
{
	size_t n = g->nr_nodes ? g->nr_nodes : 1, nr_order, i, k;
	uint32_t *order, *dist = dist_to(g, p->to, p->nr_to, &order, &nr_order);
	uint64_t *ways = xcalloc(n, sizeof(*ways));
	uint32_t *cur, *it, u, e;

	p->len = nearest(dist, p->from, p->nr_from);
	/* the number of shortest paths from each node to B, nearest first */
	for (i = 0; i < nr_order; i++) {
		u = order[i];
		if (!dist[u])
			ways[u] = 1;
		for (e = g->out[u]; e < g->out[u + 1]; e++)
			if (closer(g, dist, e, u))
				ways[u] = add_sat(ways[u], ways[g->edges[e].to]);
	}
	if (p->len) {
		p->edges = xmalloc(GRAPH_MAX_PATHS * p->len * sizeof(*p->edges));
		cur = xmalloc(p->len * sizeof(*cur));
		it = xmalloc(p->len * sizeof(*it));
		for (k = 0; k < p->nr_from; k++)
			if (dist[p->from[k]] == p->len) {
				p->total = add_sat(p->total, ways[p->from[k]]);
				list_from(g, dist, p->from[k], p, cur, it);
			}
		free(cur);
		free(it);
	}
	free(ways);
	free(order);
	free(dist);
	/* the other way round, for an answer that is "no, but B before A" */
	dist = dist_to(g, p->from, p->nr_from, &order, &nr_order);
	p->reverse_len = nearest(dist, p->to, p->nr_to);
	free(order);
	free(dist);
}

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* Is @needle in @hay, case aside? */
static bool contains(const char *hay, const char *needle)
{
	size_t i, k, nl = strlen(needle);

	for (i = 0; hay[i]; i++) {
		for (k = 0; k < nl && hay[i + k] &&
		     lower(hay[i + k]) == lower(needle[k]); k++)
			;
		if (k == nl)
			return true;
	}
	return !nl;
}

/* Levenshtein distance, case aside, of the first NAME_CMP_MAX bytes */
static size_t edits(const char *a, const char *b)
{
	size_t la = strnlen(a, NAME_CMP_MAX), lb = strnlen(b, NAME_CMP_MAX);
	size_t row[NAME_CMP_MAX + 1], i, j, diag, up;

	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			up = row[j];
			row[j] = diag + (lower(a[i - 1]) != lower(b[j - 1]));
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
		}
	}
	return row[lb];
}

size_t graph_closest_classes(const struct graph *g, const char *name,
			     uint32_t *out, size_t k)
{
	size_t qlen = strlen(name), limit = qlen / 3 > 2 ? qlen / 3 : 2;
	size_t nr = 0, i, j, len, d;
	uint64_t *score = xmalloc((k ? k : 1) * sizeof(*score)), s;

	for (i = 0; i < g->nr_nodes && k; i++) {
		const char *c = g->nodes[i].name;

		len = strlen(c);
		/* a name holding it first, the nearest in length first;
		 * then those a few edits away, the fewest first */
		if (qlen && contains(c, name))
			s = len - qlen;
		else if ((d = edits(c, name)) <= limit)
			s = ((uint64_t)1 << 32) + d;
		else
			continue;
		if (nr == k && s >= score[k - 1])
			continue;
		for (j = nr < k ? nr : k - 1; j > 0 && score[j - 1] > s; j--) {
			score[j] = score[j - 1];
			out[j] = out[j - 1];
		}
		score[j] = s;
		out[j] = (uint32_t)i;
		if (nr < k)
			nr++;
	}
	free(score);
	return nr;
}

static void closest_error(const struct graph *g, const char *name,
			  const char *where)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t near[5];
	size_t nr = graph_closest_classes(g, name, near, 5), i;

	for (i = 0; i < nr; i++) {
		strbuf_addstr(&sb, i ? ", " : "; the closest: ");
		graph_text_add(&sb, g->nodes[near[i]].name);
	}
	error("no class '%s' in %s%s", name, where, sb.buf);
	strbuf_release(&sb);
}

int graph_find_paths(const struct graph *g, const char *a, const char *b,
		     struct graph_paths *p, const char *where)
{
	size_t i, k;

	memset(p, 0, sizeof(*p));
	p->nr_from = graph_match_class(g, a, &p->from);
	p->nr_to = graph_match_class(g, b, &p->to);
	if (!p->nr_from || !p->nr_to) {
		closest_error(g, p->nr_from ? b : a, where);
		return -1;
	}
	for (i = 0; i < p->nr_from; i++)
		for (k = 0; k < p->nr_to; k++)
			if (p->from[i] == p->to[k])
				return error("'%s' and '%s' name the same class", a, b);
	shortest(g, p);
	return 0;
}

/* Node @n as the store names it in a boot: how the loader merged it */
static struct store_class_ref class_ref(const struct graph *g, uint32_t n)
{
	const char *key = graph_node_key(g, n);

	if (g->unkeyed)
		return (struct store_class_ref){ STORE_REF_NAME, key };
	/* graph-load.c's keys: "i" identity, "c" the row of a class of its own */
	return (struct store_class_ref){
		key[0] == 'i' ? STORE_REF_IDENTITY : STORE_REF_ROW, key + 1 };
}

int graph_path_details(struct store *st, const struct graph *g,
		       struct graph_paths *p)
{
	size_t i, nr = p->nr * p->len;
	const struct graph_edge *e;
	struct store_class_ref from, to;
	int b;

	p->detail = xcalloc(nr ? nr : 1, sizeof(*p->detail));
	p->detail_boot = xmalloc((nr ? nr : 1) * sizeof(*p->detail_boot));
	for (i = 0; i < nr; i++) {
		e = &g->edges[p->edges[i]];
		/* the boot whose trace the site is, else the first to see it */
		b = e->site_boot >= 0 ? e->site_boot :
		    e->nr_boots ? (int)graph_edge_boots(g, e)[0] : -1;
		p->detail_boot[i] = b;
		p->detail[i].first_us = -1;
		if (b < 0)
			continue;
		from = class_ref(g, e->from);
		to = class_ref(g, e->to);
		if (store_dep_detail(st, g->boots[b].id, &from, &to,
				     &p->detail[i]) < 0)
			return -1;
	}
	return 0;
}

void graph_paths_release(struct graph_paths *p)
{
	size_t i;

	for (i = 0; p->detail && i < p->nr * p->len; i++)
		store_dep_detail_release(&p->detail[i]);
	free(p->detail);
	free(p->detail_boot);
	free(p->from);
	free(p->to);
	free(p->edges);
	memset(p, 0, sizeof(*p));
}

void graph_select_paths(const struct graph *g, const struct graph_paths *p,
			struct graph_view *v)
{
	const struct graph_edge *e;
	size_t i;

	for (i = 0; i < p->nr * p->len; i++) {
		e = &g->edges[p->edges[i]];
		v->edge[p->edges[i]] |= GRAPH_SHOWN | GRAPH_BOLD;
		v->node[e->from] |= GRAPH_SHOWN;
		v->node[e->to] |= GRAPH_SHOWN;
	}
	/* the ends: where a path starts or ends, or every match of none */
	for (i = 0; i < p->nr_from; i++)
		if (!p->nr || (v->node[p->from[i]] & GRAPH_SHOWN))
			v->node[p->from[i]] |= GRAPH_SHOWN | GRAPH_FOCUS;
	for (i = 0; i < p->nr_to; i++)
		if (!p->nr || (v->node[p->to[i]] & GRAPH_SHOWN))
			v->node[p->to[i]] |= GRAPH_SHOWN | GRAPH_FOCUS;
}

static const char *name(struct strbuf *sb, const struct graph *g, uint32_t n)
{
	strbuf_reset(sb);
	graph_text_add(sb, g->nodes[n].name);
	return sb->buf;
}

static const char *deps(size_t n)
{
	return n == 1 ? "dependency" : "dependencies";
}

static void print_detail(FILE *out, const struct graph *g,
			 const struct graph_paths *p, size_t i)
{
	const struct store_dep_detail *d = &p->detail[i];
	struct strbuf sb = STRBUF_INIT;
	char boot[128];
	size_t f;

	if (d->first_us < 0 && !d->nr_frames)
		return;
	graph_boot_str(g, p->detail_boot[i], boot, sizeof(boot));
	/* the trace clock reads 0 until it runs (lockdep-db(5)) */
	if (d->first_us > 0)
		fprintf(out, "       first seen: %" PRId64 ".%06" PRId64
			" s into %s\n", d->first_us / 1000000,
			d->first_us % 1000000, boot);
	else if (!d->first_us)
		fprintf(out, "       first seen: early in %s, before the trace clock ran\n",
			boot);
	if (d->nr_frames)
		fprintf(out, "       stack (%s):\n", boot);
	for (f = 0; f < d->nr_frames; f++) {
		strbuf_reset(&sb);
		graph_text_add(&sb, d->frames[f]);
		fprintf(out, "         %s\n", sb.buf);
	}
	strbuf_release(&sb);
}

void graph_print_paths(FILE *out, const struct graph *g,
		       const struct graph_paths *p, const char *a,
		       const char *b, const char *where)
{
	struct strbuf sa = STRBUF_INIT, sb = STRBUF_INIT;
	const uint32_t *path;
	size_t k, i;

	graph_text_add(&sa, a);
	graph_text_add(&sb, b);
	if (!p->len) {
		fprintf(out, "no path from (%s) to (%s) in %s: no task was seen "
			"holding (%s) when it took (%s), directly or through "
			"other locks\n", sa.buf, sb.buf, where, sa.buf, sb.buf);
		if (p->reverse_len)
			fprintf(out, "the other way round, (%s) is taken before "
				"(%s) through %zu %s (--path '%s' '%s')\n",
				sb.buf, sa.buf, p->reverse_len,
				deps(p->reverse_len), sb.buf, sa.buf);
		goto out;
	}
	fprintf(out, "%s: (%s) is taken before (%s) through %zu %s; "
		"%" PRIu64 "%s shortest path%s", where, sa.buf, sb.buf,
		p->len, deps(p->len), p->total,
		p->total == UINT64_MAX ? " or more" : "",
		p->total == 1 ? "" : "s");
	if (p->nr < p->total)
		fprintf(out, ", the first %zu listed", p->nr);
	fputc('\n', out);
	for (k = 0; k < p->nr; k++) {
		path = p->edges + k * p->len;
		fprintf(out, "\npath %zu:\n", k + 1);
		for (i = 0; i < p->len; i++) {
			graph_print_dep(out, g, path[i]);
			print_detail(out, g, p, k * p->len + i);
		}
		fprintf(out, "\nChain exists of:\n  %s",
			name(&sa, g, g->edges[path[0]].from));
		for (i = 0; i < p->len; i++)
			fprintf(out, " --> %s", name(&sa, g, g->edges[path[i]].to));
		fputc('\n', out);
	}
out:
	strbuf_release(&sa);
	strbuf_release(&sb);
}

static void json_names(struct json_writer *w, const char *field,
		       const struct graph *g, const uint32_t *n, size_t nr)
{
	size_t i;

	jsonw_name(w, field);
	jsonw_start_array(w);
	for (i = 0; i < nr; i++)
		jsonw_string(w, g->nodes[n[i]].name);
	jsonw_end_array(w);
}

static void json_len(struct json_writer *w, const char *field, size_t len)
{
	jsonw_name(w, field);
	if (len)
		jsonw_uint(w, len);
	else
		jsonw_null(w);
}

static void json_edge(struct json_writer *w, const struct graph *g,
		      const struct graph_paths *p, size_t i)
{
	const struct store_dep_detail *d = &p->detail[i];
	size_t f;

	jsonw_start_object(w);
	graph_json_edge_fields(w, g, p->edges[i]);
	jsonw_name(w, "first_seen_us");
	if (d->first_us >= 0)
		jsonw_int(w, d->first_us);
	else
		jsonw_null(w);
	jsonw_name(w, "stack_boot");
	if (d->nr_frames)
		jsonw_int(w, g->boots[p->detail_boot[i]].id);
	else
		jsonw_null(w);
	jsonw_name(w, "stack");
	jsonw_start_array(w);
	for (f = 0; f < d->nr_frames; f++)
		jsonw_string(w, d->frames[f]);
	jsonw_end_array(w);
	jsonw_end_object(w);
}

void graph_json_paths(struct json_writer *w, const struct graph *g,
		      const struct graph_paths *p, const char *a,
		      const char *b)
{
	const uint32_t *path;
	size_t k, i;

	jsonw_string_field(w, "from", a);
	jsonw_string_field(w, "to", b);
	json_names(w, "from_classes", g, p->from, p->nr_from);
	json_names(w, "to_classes", g, p->to, p->nr_to);
	json_len(w, "length", p->len);
	jsonw_uint_field(w, "shortest_paths", p->total);
	json_len(w, "reverse_length", p->reverse_len);
	jsonw_name(w, "paths");
	jsonw_start_array(w);
	for (k = 0; k < p->nr; k++) {
		path = p->edges + k * p->len;
		jsonw_start_object(w);
		jsonw_name(w, "classes");
		jsonw_start_array(w);
		jsonw_string(w, g->nodes[g->edges[path[0]].from].name);
		for (i = 0; i < p->len; i++)
			jsonw_string(w, g->nodes[g->edges[path[i]].to].name);
		jsonw_end_array(w);
		jsonw_name(w, "edges");
		jsonw_start_array(w);
		for (i = 0; i < p->len; i++)
			json_edge(w, g, p, k * p->len + i);
		jsonw_end_array(w);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
}
