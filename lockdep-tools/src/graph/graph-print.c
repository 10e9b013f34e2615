// SPDX-License-Identifier: GPL-2.0
/*
 * Cycles and irq paths as text, in the words lockdep uses for the same
 * findings within one boot (print_circular_bug(),
 * print_circular_lock_scenario(), print_bad_irq_dependency()), and as
 * JSON for scripts (lockdep-graph(1) documents the members).
 *
 * A cycle e0, e1, .. is told as lockdep would tell it had e0 been the
 * dependency being added last: its from class X held, its to class Y
 * being acquired, and the existing chain Y --> .. --> P --> X.
 */
#include <stdio.h>
#include <string.h>

#include "graph/graph-view.h"
#include "parse/report.h"
#include "util/json-writer.h"
#include "util/strbuf.h"
#include "util/term-text.h"

static const char *name(struct strbuf *sb, const struct graph *g, uint32_t n)
{
	strbuf_reset(sb);
	graph_text_add(sb, g->nodes[n].name);
	return sb->buf;
}

static void print_boots(FILE *out, const struct graph *g,
			const struct graph_edge *e)
{
	const uint32_t *boots = graph_edge_boots(g, e);
	char buf[128];
	uint32_t b;

	/* a label is untrusted text */
	for (b = 0; b < e->nr_boots; b++) {
		fputs(b ? ", " : "", out);
		term_text_fputs(out, graph_boot_str(g, (int)boots[b], buf,
						     sizeof(buf)));
	}
	if (!e->nr_boots)
		fputs("no boot", out);
}

static void print_site(FILE *out, const struct graph *g,
		       const struct graph_edge *e)
{
	const char *site = graph_edge_site(g, e);
	struct strbuf sb = STRBUF_INIT;
	struct strbuf line = STRBUF_INIT;

	if (!site) {
		fputs("unknown (no trace stored for this dependency)", out);
		return;
	}
	strbuf_add(&line, site, strcspn(site, "\n"));
	graph_text_add(&sb, line.buf);
	fputs(sb.buf, out);
	strbuf_release(&sb);
	strbuf_release(&line);
}

void graph_print_dep(FILE *out, const struct graph *g, uint32_t i)
{
	const struct graph_edge *e = &g->edges[i];
	struct strbuf sb = STRBUF_INIT;
	char kind[16], usage[8];

	fprintf(out, "-> (%s){%s}", name(&sb, g, e->from),
		graph_usage_str(g->nodes[e->from].usage_bits, usage));
	graph_dep_str(e->dep_bits, kind);
	fprintf(out, " %s ", *kind ? kind : "-->");
	fprintf(out, "(%s){%s}:\n", name(&sb, g, e->to),
		graph_usage_str(g->nodes[e->to].usage_bits, usage));
	fputs("       seen in ", out);
	print_boots(out, g, e);
	fputs("\n       at: ", out);
	print_site(out, g, e);
	fputc('\n', out);
	strbuf_release(&sb);
}

static void print_cycle(FILE *out, const struct graph *g,
			const struct graph_cycle *cy, size_t nr)
{
	const struct graph_edge *first = &g->edges[cy->edges[0]];
	const struct graph_edge *last = &g->edges[cy->edges[cy->nr - 1]];
	struct strbuf sb = STRBUF_INIT;
	uint32_t x = first->from, y = first->to, p = last->from;
	size_t i;

	fputs("======================================================\n", out);
	fprintf(out, "WARNING: possible circular locking dependency %s\n",
		cy->cross_boot ? "across boots" : "detected");
	fputs("------------------------------------------------------\n", out);
	fprintf(out, "cycle %zu: %zu classes, component %u%s\n\n", nr, cy->nr,
		cy->comp, cy->cross_boot ?
		", no single boot saw every dependency" : "");
	fprintf(out, "a task acquiring lock:\n (%s)\n", name(&sb, g, y));
	fprintf(out, "while already holding lock:\n (%s)\n", name(&sb, g, x));
	fputs("adds the dependency\n", out);
	graph_print_dep(out, g, cy->edges[0]);
	fputs("\nwhich lock already depends on the new lock.\n\n"
	      "the existing dependency chain is:\n\n", out);
	for (i = 1; i < cy->nr; i++)
		graph_print_dep(out, g, cy->edges[i]);
	fputs("\nother info that might help us debug this:\n\n", out);
	if (p != y) {
		fprintf(out, "Chain exists of:\n  %s", name(&sb, g, y));
		fprintf(out, " --> %s", name(&sb, g, p));
		fprintf(out, " --> %s\n\n", name(&sb, g, x));
	}
	fputs(" Possible unsafe locking scenario:\n\n"
	      "       CPU0                    CPU1\n"
	      "       ----                    ----\n", out);
	fprintf(out, "  lock(%s);\n", name(&sb, g, x));
	fprintf(out, "                               lock(%s);\n",
		name(&sb, g, p));
	fprintf(out, "                               lock(%s);\n",
		name(&sb, g, x));
	fprintf(out, "  lock(%s);\n", name(&sb, g, y));
	fputs("\n *** DEADLOCK ***\n\n", out);
	strbuf_release(&sb);
}

void graph_print_cycles(FILE *out, const struct graph *g,
			const struct graph_cycles *cy)
{
	size_t i;

	for (i = 0; i < cy->nr; i++)
		print_cycle(out, g, &cy->v[i], i + 1);
	fprintf(out, "%zu cycle%s", cy->nr, cy->nr == 1 ? "" : "s");
	if (cy->uncovered)
		fprintf(out, "; %zu dependencies of cyclic components on no listed cycle (--max-cycles)",
			cy->uncovered);
	fputc('\n', out);
}

static const char *state_name(int state)
{
	return state == LDR_HARDIRQ ? "HARDIRQ" : "SOFTIRQ";
}

void graph_print_irq_paths(FILE *out, const struct graph *g,
			   const struct graph_irq_paths *p)
{
	struct strbuf sb = STRBUF_INIT;
	const struct graph_irq_path *ip;
	size_t i, k;

	for (i = 0; i < p->nr; i++) {
		ip = &p->v[i];
		fprintf(out, "%s-safe -> %s-unsafe lock order:\n",
			state_name(ip->state), state_name(ip->state));
		fprintf(out, "  %s-irq-safe lock: %s\n", state_name(ip->state),
			name(&sb, g, g->edges[ip->edges[0]].from));
		fprintf(out, "  %s-irq-unsafe lock: %s\n",
			state_name(ip->state),
			name(&sb, g, g->edges[ip->edges[ip->nr - 1]].to));
		fputs("  the dependencies between them:\n", out);
		for (k = 0; k < ip->nr; k++)
			graph_print_dep(out, g, ip->edges[k]);
		fputc('\n', out);
	}
	fprintf(out, "%zu irq-safe -> irq-unsafe path%s\n", p->nr,
		p->nr == 1 ? "" : "s");
	strbuf_release(&sb);
}

static void json_boots(struct json_writer *w, const struct graph *g,
		       const struct graph_edge *e)
{
	const uint32_t *boots = graph_edge_boots(g, e);
	uint32_t b;

	jsonw_start_array(w);
	for (b = 0; b < e->nr_boots; b++)
		jsonw_int(w, g->boots[boots[b]].id);
	jsonw_end_array(w);
}

void graph_json_edge_fields(struct json_writer *w, const struct graph *g,
			    uint32_t i)
{
	const struct graph_edge *e = &g->edges[i];
	char kind[16];

	jsonw_string_field(w, "from", g->nodes[e->from].name);
	jsonw_string_field(w, "to", g->nodes[e->to].name);
	jsonw_name(w, "kind");
	if (e->dep_bits >= 0)
		jsonw_string(w, graph_dep_str(e->dep_bits, kind));
	else
		jsonw_null(w);
	jsonw_name(w, "boots");
	json_boots(w, g, e);
	jsonw_name(w, "site");
	if (e->site)
		jsonw_string(w, graph_edge_site(g, e));
	else
		jsonw_null(w);
	jsonw_name(w, "site_boot");
	if (e->site_boot >= 0)
		jsonw_int(w, g->boots[e->site_boot].id);
	else
		jsonw_null(w);
}

static void json_edge(struct json_writer *w, const struct graph *g,
		      uint32_t i)
{
	jsonw_start_object(w);
	graph_json_edge_fields(w, g, i);
	jsonw_end_object(w);
}

static void json_path(struct json_writer *w, const struct graph *g,
		      const uint32_t *edges, size_t nr)
{
	size_t k;

	jsonw_name(w, "classes");
	jsonw_start_array(w);
	for (k = 0; k < nr; k++)
		jsonw_string(w, g->nodes[g->edges[edges[k]].from].name);
	jsonw_end_array(w);
	jsonw_name(w, "edges");
	jsonw_start_array(w);
	for (k = 0; k < nr; k++)
		json_edge(w, g, edges[k]);
	jsonw_end_array(w);
}

void graph_json_cycles(struct json_writer *w, const struct graph *g,
		       const struct graph_scc *scc,
		       const struct graph_cycles *cy)
{
	size_t i;

	jsonw_uint_field(w, "components", scc->nr_cyclic);
	jsonw_uint_field(w, "uncovered_dependencies", cy->uncovered);
	jsonw_name(w, "cycles");
	jsonw_start_array(w);
	for (i = 0; i < cy->nr; i++) {
		jsonw_start_object(w);
		jsonw_uint_field(w, "component", cy->v[i].comp);
		jsonw_bool_field(w, "cross_boot", cy->v[i].cross_boot);
		json_path(w, g, cy->v[i].edges, cy->v[i].nr);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
}

void graph_json_irq_paths(struct json_writer *w, const struct graph *g,
			  const struct graph_irq_paths *p)
{
	const struct graph_irq_path *ip;
	size_t i;

	jsonw_name(w, "irq_paths");
	jsonw_start_array(w);
	for (i = 0; i < p->nr; i++) {
		ip = &p->v[i];
		jsonw_start_object(w);
		jsonw_string_field(w, "state", ip->state == LDR_HARDIRQ ?
				   "hardirq" : "softirq");
		jsonw_string_field(w, "safe",
				   g->nodes[g->edges[ip->edges[0]].from].name);
		jsonw_string_field(w, "unsafe",
				   g->nodes[g->edges[ip->edges[ip->nr - 1]].to].name);
		json_path(w, g, ip->edges, ip->nr);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
}
