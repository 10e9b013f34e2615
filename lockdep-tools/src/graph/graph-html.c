// SPDX-License-Identifier: GPL-2.0
/*
 * lockdep-graph -T html: the explorer, one self-contained HTML page.
 *
 * The page is the explorer's markup, style and script (src/graph/html/,
 * built into this binary as C arrays) around the whole graph as JSON:
 * classes, dependencies with their site and first-seen time, the
 * cycles, the irq-safe -> irq-unsafe paths and the boots' reports with
 * the classes of their chains; and apart from it the stacks, the bulk
 * of the page, which the script parses only when a stack is asked for.
 * The script lays out only what the reader asks to see, so a graph of
 * thousands of edges opens at once.
 *
 * Everything in the JSON came from a guest: the writer makes it valid
 * UTF-8 (json-writer.h), and '<', '>' and '&' are written as \u escapes
 * so that no string can end the <script> element it sits in; the
 * script puts text into the page with textContent only.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph-view.h"
#include "parse/report.h"
#include "store/store-graph.h"
#include "util/json-writer.h"
#include "util/strbuf.h"
#include "util/strset.h"
#include "util/xalloc.h"

/* src/graph/html/explorer.*, made into C arrays by xxd -i (Makefile) */
extern const unsigned char explorer_html[], explorer_css[], explorer_js[];
extern const unsigned int explorer_html_len, explorer_css_len, explorer_js_len;

/* A stack of frames: numbers of strings in graph_html::frames. */
struct html_stack {
	int64_t boot_id, trace_id;
	uint32_t *frames;
	size_t nr, alloc;
};

/* What an edge has beside the graph: from the first boot that has it. */
struct html_edge {
	int64_t boot_id;	/* 0: nothing known */
	int64_t trace_id, first_us;
	int32_t stack;		/* into stacks[], or -1 */
};

struct html_report {
	int64_t id, boot_id;
	char *type, *title;
	uint32_t *nodes;	/* the classes of its chain found in the graph */
	size_t nr, alloc;
};

struct graph_html {
	const struct graph *g;
	uint32_t *by_name;	/* node indices sorted by name */
	struct html_edge *edges;
	struct html_stack *stacks;
	size_t nr_stacks;
	struct strset sites, frames;	/* each string once */
	struct html_report *reports;
	size_t nr_reports, alloc_reports;
	struct graph_scc scc;
	struct graph_cycles cycles;
	struct graph_irq_paths irq;
	struct strbuf sb;
};

static int by_name_cmp(const void *a, const void *b, void *graph)
{
	const struct graph *g = graph;

	return strcmp(g->nodes[*(const uint32_t *)a].name,
		      g->nodes[*(const uint32_t *)b].name);
}

/* The first node named @name, or UINT32_MAX. */
static uint32_t find_name(const struct graph_html *h, const char *name)
{
	size_t lo = 0, hi = h->g->nr_nodes, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(h->g->nodes[h->by_name[mid]].name, name);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < h->g->nr_nodes && !strcmp(h->g->nodes[h->by_name[lo]].name, name))
		return h->by_name[lo];
	return UINT32_MAX;
}

static int boot_index(const struct graph *g, int64_t id)
{
	size_t b;

	for (b = 0; b < g->nr_boots; b++)
		if (g->boots[b].id == id)
			return (int)b;
	return -1;
}

/*
 * The extras of a dependency row, kept for the graph's edge between the
 * same names if its boot saw that edge (in a union, a name may be
 * another class in another boot), and if no earlier boot gave them.
 */
static int add_dep_info(const struct store_graph_dep_info *d, void *data)
{
	struct graph_html *h = data;
	const struct graph *g = h->g;
	uint32_t from = find_name(h, d->from), to, e;
	int b = boot_index(g, d->boot_id);

	to = find_name(h, d->to);
	if (from == UINT32_MAX || to == UINT32_MAX || b < 0)
		return 0;
	e = graph_find_edge(g, from, to);
	if (e == UINT32_MAX || !graph_edge_has_boot(g, &g->edges[e], (uint32_t)b))
		return 0;
	if (h->edges[e].boot_id && boot_index(g, h->edges[e].boot_id) <= b)
		return 0;
	h->edges[e].boot_id = d->boot_id;
	h->edges[e].trace_id = d->trace_id;
	h->edges[e].first_us = d->first_us;
	return 0;
}

static int stack_cmp(const void *a, const void *b)
{
	const struct html_stack *x = a, *y = b;

	if (x->boot_id != y->boot_id)
		return x->boot_id < y->boot_id ? -1 : 1;
	return x->trace_id < y->trace_id ? -1 : x->trace_id > y->trace_id;
}

/* One stack per distinct (boot, trace) of an edge, sorted; edges point in. */
static void make_stacks(struct graph_html *h)
{
	struct html_stack key, *s;
	size_t e, i, n = 0;

	h->stacks = xcalloc(h->g->nr_edges ? h->g->nr_edges : 1,
			    sizeof(*h->stacks));
	for (e = 0; e < h->g->nr_edges; e++) {
		h->edges[e].stack = -1;
		if (h->edges[e].boot_id && h->edges[e].trace_id >= 0) {
			h->stacks[n].boot_id = h->edges[e].boot_id;
			h->stacks[n++].trace_id = h->edges[e].trace_id;
		}
	}
	qsort(h->stacks, n, sizeof(*h->stacks), stack_cmp);
	for (i = 0; i < n; i++)
		if (!h->nr_stacks || stack_cmp(&h->stacks[h->nr_stacks - 1],
					       &h->stacks[i]))
			h->stacks[h->nr_stacks++] = h->stacks[i];
	for (e = 0; e < h->g->nr_edges; e++) {
		if (!h->edges[e].boot_id || h->edges[e].trace_id < 0)
			continue;
		key.boot_id = h->edges[e].boot_id;
		key.trace_id = h->edges[e].trace_id;
		s = bsearch(&key, h->stacks, h->nr_stacks, sizeof(key), stack_cmp);
		h->edges[e].stack = s ? (int32_t)(s - h->stacks) : -1;
	}
}

/* A frame as the kernel prints one: func+0xoff/0xsize, else its address. */
static int add_frame(const struct store_graph_frame *f, void *data)
{
	struct graph_html *h = data;
	struct html_stack key = { .boot_id = f->boot_id,
				  .trace_id = f->trace_id }, *s;

	s = bsearch(&key, h->stacks, h->nr_stacks, sizeof(key), stack_cmp);
	if (!s)
		return 0;
	strbuf_reset(&h->sb);
	if (f->func) {
		strbuf_addstr(&h->sb, f->func);
		if (f->off >= 0)
			strbuf_addf(&h->sb, "+0x%" PRIx64, (uint64_t)f->off);
		if (f->off >= 0 && f->size >= 0)
			strbuf_addf(&h->sb, "/0x%" PRIx64, (uint64_t)f->size);
	} else {
		strbuf_addstr(&h->sb, f->addr);
	}
	if (f->file) {
		strbuf_addf(&h->sb, " %s", f->file);
		if (f->line >= 0)
			strbuf_addf(&h->sb, ":%" PRId64, f->line);
	}
	ALLOC_GROW(s->frames, s->nr + 1, s->alloc);
	s->frames[s->nr++] = strset_add(&h->frames, h->sb.buf);
	return 0;
}

/*
 * A lock of a report's chain to its node: by its name as printed, else
 * without the /subclass that the report adds and /proc/lockdep does not.
 */
static uint32_t report_node(struct graph_html *h, const char *name)
{
	uint32_t n = find_name(h, name);
	const char *slash = strrchr(name, '/');

	if (n != UINT32_MAX || !slash || slash == name ||
	    !slash[1] || strspn(slash + 1, "0123456789") != strlen(slash + 1))
		return n;
	strbuf_reset(&h->sb);
	strbuf_add(&h->sb, name, (size_t)(slash - name));
	return find_name(h, h->sb.buf);
}

static int add_report_lock(const struct store_graph_report_lock *l, void *data)
{
	struct graph_html *h = data;
	struct html_report *r;
	uint32_t n;
	size_t i;

	r = h->nr_reports ? &h->reports[h->nr_reports - 1] : NULL;
	if (!r || r->id != l->report_id) {
		ALLOC_GROW(h->reports, h->nr_reports + 1, h->alloc_reports);
		r = &h->reports[h->nr_reports++];
		memset(r, 0, sizeof(*r));
		r->id = l->report_id;
		r->boot_id = l->boot_id;
		r->type = xstrdup(l->type ? l->type : "");
		r->title = xstrdup(l->title ? l->title : "");
	}
	n = l->name ? report_node(h, l->name) : UINT32_MAX;
	if (n == UINT32_MAX)
		return 0;
	for (i = 0; i < r->nr; i++)
		if (r->nodes[i] == n)
			return 0;
	ALLOC_GROW(r->nodes, r->nr + 1, r->alloc);
	r->nodes[r->nr++] = n;
	return 0;
}

struct graph_html *graph_html_load(struct store *st, const struct graph *g,
				   size_t max_cycles)
{
	struct graph_html *h = xcalloc(1, sizeof(*h));
	int64_t *ids = xmalloc((g->nr_boots ? g->nr_boots : 1) * sizeof(*ids));
	size_t i;
	int ret;

	h->g = g;
	strbuf_init(&h->sb);
	h->by_name = xmalloc((g->nr_nodes ? g->nr_nodes : 1) * sizeof(*h->by_name));
	for (i = 0; i < g->nr_nodes; i++)
		h->by_name[i] = (uint32_t)i;
	qsort_r(h->by_name, g->nr_nodes, sizeof(*h->by_name), by_name_cmp,
		(void *)g);
	h->edges = xcalloc(g->nr_edges ? g->nr_edges : 1, sizeof(*h->edges));
	for (i = 0; i < g->nr_boots; i++)
		ids[i] = g->boots[i].id;
	ret = store_graph_dep_infos(st, ids, g->nr_boots, add_dep_info, h);
	if (!ret) {
		make_stacks(h);
		ret = store_graph_frames(st, ids, g->nr_boots, add_frame, h);
	}
	if (!ret)
		ret = store_graph_report_locks(st, ids, g->nr_boots,
					       add_report_lock, h);
	free(ids);
	if (ret) {
		graph_html_free(h);
		return NULL;
	}
	graph_scc(g, &h->scc);
	graph_cycles(g, &h->scc, max_cycles, &h->cycles);
	graph_irq_paths(g, &h->irq);
	return h;
}

void graph_html_free(struct graph_html *h)
{
	size_t i;

	if (!h)
		return;
	for (i = 0; i < h->nr_stacks; i++)
		free(h->stacks[i].frames);
	for (i = 0; i < h->nr_reports; i++) {
		free(h->reports[i].type);
		free(h->reports[i].title);
		free(h->reports[i].nodes);
	}
	free(h->reports);
	free(h->stacks);
	free(h->edges);
	free(h->by_name);
	strset_release(&h->sites);
	strset_release(&h->frames);
	strbuf_release(&h->sb);
	graph_scc_release(&h->scc);
	graph_cycles_release(&h->cycles);
	graph_irq_paths_release(&h->irq);
	free(h);
}

/* ---- the JSON ---- */

static unsigned int irq_flags(unsigned int bits)
{
	return graph_irq_safe(bits, LDR_HARDIRQ) |
	       graph_irq_unsafe(bits, LDR_HARDIRQ) << 1 |
	       graph_irq_safe(bits, LDR_SOFTIRQ) << 2 |
	       graph_irq_unsafe(bits, LDR_SOFTIRQ) << 3;
}

static void json_nodes(struct json_writer *w, const struct graph *g)
{
	char usage[8];
	size_t n;

	jsonw_name(w, "nodes");
	jsonw_start_array(w);
	for (n = 0; n < g->nr_nodes; n++) {
		jsonw_start_array(w);
		jsonw_string(w, g->nodes[n].name);
		jsonw_string(w, graph_usage_str(g->nodes[n].usage_bits, usage));
		jsonw_uint(w, irq_flags(g->nodes[n].usage_bits));
		jsonw_end_array(w);
	}
	jsonw_end_array(w);
}

/* [from, to, site, dep bits, distance, [boots], first_us, stack, boot] */
static void json_edges(struct json_writer *w, struct graph_html *h)
{
	const struct graph *g = h->g;
	const struct graph_edge *e;
	const struct html_edge *x;
	const uint32_t *boots;
	const char *site;
	char deps[16];
	size_t i, b;

	jsonw_name(w, "edges");
	jsonw_start_array(w);
	for (i = 0; i < g->nr_edges; i++) {
		e = &g->edges[i];
		x = &h->edges[i];
		site = graph_edge_site(g, e);
		jsonw_start_array(w);
		jsonw_uint(w, e->from);
		jsonw_uint(w, e->to);
		jsonw_int(w, site ? (long long)strset_add(&h->sites, site) : -1);
		jsonw_string(w, graph_dep_str(e->dep_bits, deps));
		jsonw_int(w, e->distance);
		jsonw_start_array(w);
		boots = graph_edge_boots(g, e);
		for (b = 0; b < e->nr_boots; b++)
			jsonw_uint(w, boots[b]);
		jsonw_end_array(w);
		jsonw_int(w, x->boot_id ? x->first_us : -1);
		jsonw_int(w, x->boot_id ? x->stack : -1);
		jsonw_int(w, x->boot_id ? boot_index(g, x->boot_id) : -1);
		jsonw_end_array(w);
	}
	jsonw_end_array(w);
}

static void json_edge_list(struct json_writer *w, const uint32_t *edges,
			   size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		jsonw_uint(w, edges[i]);
}

/* cycles: [cross_boot, e...]; irq: ["hardirq" | "softirq", e...] */
static void json_paths(struct json_writer *w, const struct graph_html *h)
{
	size_t i;

	jsonw_name(w, "cycles");
	jsonw_start_array(w);
	for (i = 0; i < h->cycles.nr; i++) {
		jsonw_start_array(w);
		jsonw_uint(w, h->cycles.v[i].cross_boot);
		json_edge_list(w, h->cycles.v[i].edges, h->cycles.v[i].nr);
		jsonw_end_array(w);
	}
	jsonw_end_array(w);
	jsonw_name(w, "irq");
	jsonw_start_array(w);
	for (i = 0; i < h->irq.nr; i++) {
		jsonw_start_array(w);
		jsonw_string(w, h->irq.v[i].state == LDR_HARDIRQ ? "hardirq" :
			     "softirq");
		json_edge_list(w, h->irq.v[i].edges, h->irq.v[i].nr);
		jsonw_end_array(w);
	}
	jsonw_end_array(w);
}

static void json_strings(struct json_writer *w, const char *name,
			 const struct strset *set)
{
	size_t i;

	jsonw_name(w, name);
	jsonw_start_array(w);
	for (i = 0; i < set->nr; i++)
		jsonw_string(w, strset_str(set, (uint32_t)i));
	jsonw_end_array(w);
}

/* reports: [id, boot, type, title, [nodes]]; sites: [string] */
static void json_rest(struct json_writer *w, const struct graph_html *h)
{
	const struct html_report *r;
	size_t i;

	jsonw_name(w, "reports");
	jsonw_start_array(w);
	for (i = 0; i < h->nr_reports; i++) {
		r = &h->reports[i];
		jsonw_start_array(w);
		jsonw_int(w, r->id);
		jsonw_int(w, boot_index(h->g, r->boot_id));
		jsonw_string(w, r->type);
		jsonw_string(w, r->title);
		jsonw_start_array(w);
		json_edge_list(w, r->nodes, r->nr);
		jsonw_end_array(w);
		jsonw_end_array(w);
	}
	jsonw_end_array(w);
	json_strings(w, "sites", &h->sites);
}

/* The second script: { stacks: [[frame]...], frames: [string] } */
static void json_stacks(FILE *out, struct graph_html *h,
			const struct graph_view *v)
{
	struct json_writer *w = jsonw_new(out, false);
	size_t i;

	(void)v;
	jsonw_start_object(w);
	jsonw_name(w, "stacks");
	jsonw_start_array(w);
	for (i = 0; i < h->nr_stacks; i++) {
		jsonw_start_array(w);
		json_edge_list(w, h->stacks[i].frames, h->stacks[i].nr);
		jsonw_end_array(w);
	}
	jsonw_end_array(w);
	json_strings(w, "frames", &h->frames);
	jsonw_end_object(w);
	jsonw_destroy(&w);
}

static void json_page_data(FILE *out, struct graph_html *h,
			   const struct graph_view *v)
{
	const struct graph *g = h->g;
	struct json_writer *w = jsonw_new(out, false);
	long long focus = -1;
	size_t i;

	for (i = 0; i < g->nr_nodes && focus < 0; i++)
		if (v->node[i] & GRAPH_FOCUS)
			focus = (long long)i;
	jsonw_start_object(w);
	jsonw_string_field(w, "title", v->title);
	jsonw_string_field(w, "note", v->note);
	jsonw_int_field(w, "focus", focus);
	jsonw_name(w, "boots");
	jsonw_start_array(w);
	for (i = 0; i < g->nr_boots; i++) {
		jsonw_start_object(w);
		jsonw_int_field(w, "id", g->boots[i].id);
		jsonw_string_field(w, "label", g->boots[i].label);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	json_nodes(w, g);
	json_edges(w, h);
	json_paths(w, h);
	json_rest(w, h);
	jsonw_end_object(w);
	jsonw_destroy(&w);
}

/*
 * @json into the page: the characters that HTML gives a meaning inside
 * a <script> element occur only in JSON strings, where \u escapes them.
 */
static void put_script_safe(FILE *out, const char *json, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		switch (json[i]) {
		case '<':
			fputs("\\u003c", out);
			break;
		case '>':
			fputs("\\u003e", out);
			break;
		case '&':
			fputs("\\u0026", out);
			break;
		default:
			putc(json[i], out);
		}
	}
}

/* <script type="application/json" id="@id"> with what @fn writes. */
static int json_script(FILE *out, const char *id, struct graph_html *h,
		       const struct graph_view *v,
		       void (*fn)(FILE *, struct graph_html *,
				  const struct graph_view *))
{
	char *json = NULL;
	size_t len = 0;
	FILE *mem;

	mem = open_memstream(&json, &len);
	if (!mem)
		return -1;
	fn(mem, h, v);
	if (fclose(mem)) {
		free(json);
		return -1;
	}
	if (len && json[len - 1] == '\n')
		len--;	/* </script> on the JSON's line */
	fprintf(out, "<script type=\"application/json\" id=\"%s\">", id);
	put_script_safe(out, json, len);
	fputs("</script>\n", out);
	free(json);
	return 0;
}

int graph_html_write(FILE *out, struct graph_html *h,
		     const struct graph_view *v)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n"
	      "<meta name=\"generator\" content=\"lockdep-graph\">\n"
	      "<title>lockdep explorer</title>\n<style>\n", out);
	fwrite(explorer_css, 1, explorer_css_len, out);
	fputs("</style>\n</head>\n<body>\n", out);
	fwrite(explorer_html, 1, explorer_html_len, out);
	if (json_script(out, "graph-data", h, v, json_page_data) ||
	    json_script(out, "graph-stacks", h, v, json_stacks))
		return -1;
	fputs("<script>\n", out);
	fwrite(explorer_js, 1, explorer_js_len, out);
	fputs("</script>\n</body>\n</html>\n", out);
	return ferror(out) ? -1 : 0;
}
