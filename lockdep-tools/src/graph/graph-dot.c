// SPDX-License-Identifier: GPL-2.0
/*
 * Graphviz dot of a lock graph view, with a key of what it uses.
 *
 * Class names come from the guest and are untrusted. They reach dot
 * only inside quoted strings written by graph_dot_quote(), after
 * graph_text_add() has turned every byte outside printable ASCII into the
 * four characters "\xNN". Invariants of what is written:
 *  (1) Node ids are "n<index>": no name is ever an id.
 *  (2) In a quoted string, '"' and '\' are always backslash-escaped (so
 *      no name ends the string or forms one of dot's escapes such as
 *      \N or \G), '&' is written "&amp;" (dot reads entities in labels,
 *      so a name holding "&lt;" must not turn into '<'), and the only
 *      control character is '\n', written as dot's line break "\n",
 *      which only this file puts in.
 *  (3) Labels are plain (never HTML-like "<...>") and shapes are never
 *      "record", so '<', '>', '{', '}' and '|' in names mean nothing.
 *  (4) dot rejects a quoted string of 16384 bytes or more, and names have
 *      no bound: a long string is written as pieces joined with dot's
 *      '+' ("..."+"..."), never split inside an escape. Labels are cut
 *      to LABEL_MAX characters and "..." (a box 16 KiB wide helps no
 *      one); tooltips keep the whole text.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph-view.h"
#include "parse/report.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Edge colours by boot index (Tableau 10, readable on white) */
static const char *const boot_colours[] = {
	"#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1",
	"#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#bab0ac",
};
#define NR_BOOT_COLOURS (sizeof(boot_colours) / sizeof(boot_colours[0]))

#define HARDIRQ_SAFE_FILL	"#f4a3a3"
#define SOFTIRQ_SAFE_FILL	"#fcd59b"
#define UNSAFE_BORDER		"#1f5fbf"

/* Invariant (4): output bytes of a piece (dot: < 16384), a label's length */
#define QUOTE_PIECE	8192
#define LABEL_MAX	60
#define TITLE_MAX	200

void graph_dot_quote(FILE *out, const char *s)
{
	size_t piece = 0;
	char one[2] = "";
	const char *esc;

	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '"':
			esc = "\\\"";
			break;
		case '\\':
			esc = "\\\\";
			break;
		case '&':
			esc = "&amp;";
			break;
		case '\n':
			esc = "\\n";
			break;
		default:
			one[0] = (char)c;
			/* graph_text_add() leaves no other control */
			esc = c < 0x20 || c == 0x7f ? "?" : one;
		}
		piece += strlen(esc);
		if (piece > QUOTE_PIECE) {
			fputs("\"+\"", out);
			piece = strlen(esc);
		}
		fputs(esc, out);
	}
	fputc('"', out);
}

static void attr(FILE *out, const char *name, const char *value)
{
	fprintf(out, " %s=", name);
	graph_dot_quote(out, value);
}

/* graph_text_add() of @s, cut to @max characters with "..." */
static void text_add_cut(struct strbuf *sb, const char *s, size_t max)
{
	struct strbuf cut = STRBUF_INIT;

	if (strlen(s) <= max) {
		graph_text_add(sb, s);
		return;
	}
	strbuf_add(&cut, s, max - 3);
	graph_text_add(sb, cut.buf);
	strbuf_addstr(sb, "...");
	strbuf_release(&cut);
}

static const char *node_fill(unsigned int bits)
{
	if (graph_irq_safe(bits, LDR_HARDIRQ))
		return HARDIRQ_SAFE_FILL;
	if (graph_irq_safe(bits, LDR_SOFTIRQ))
		return SOFTIRQ_SAFE_FILL;
	return "white";
}

static bool node_unsafe(unsigned int bits)
{
	return graph_irq_unsafe(bits, LDR_HARDIRQ) ||
	       graph_irq_unsafe(bits, LDR_SOFTIRQ);
}

static void write_node(FILE *out, const struct graph *g, uint32_t i,
		       uint8_t mark)
{
	const struct graph_node *n = &g->nodes[i];
	struct strbuf sb = STRBUF_INIT;
	char usage[8];

	text_add_cut(&sb, n->name, LABEL_MAX);
	strbuf_addf(&sb, "\n{%s}", graph_usage_str(n->usage_bits, usage));
	fprintf(out, "\tn%u [", i);
	attr(out, "label", sb.buf);
	strbuf_reset(&sb);
	graph_text_add(&sb, n->name);
	attr(out, "tooltip", sb.buf);
	attr(out, "fillcolor", node_fill(n->usage_bits));
	if (node_unsafe(n->usage_bits))
		fputs(" color=\"" UNSAFE_BORDER "\" penwidth=2", out);
	if (mark & GRAPH_FOCUS)
		fputs(" peripheries=2", out);
	fputs("];\n", out);
	strbuf_release(&sb);
}

/*
 * One colour per boot that saw the edge; past NR_BOOT_COLOURS boots
 * (a fleet) colours say nothing, so black if every boot saw the edge,
 * gray if only some did.
 */
static void edge_colours(struct strbuf *sb, const struct graph *g,
			 const struct graph_edge *e)
{
	const uint32_t *boots = graph_edge_boots(g, e);
	uint32_t b;

	if (g->nr_boots > NR_BOOT_COLOURS) {
		strbuf_addstr(sb, e->nr_boots == g->nr_boots ? "black" : "gray");
		return;
	}
	for (b = 0; b < e->nr_boots; b++)
		strbuf_addf(sb, "%s%s", b ? ":" : "",
			    boot_colours[boots[b] % NR_BOOT_COLOURS]);
	if (!e->nr_boots)
		strbuf_addstr(sb, "black");
}

static void site_line(struct strbuf *sb, const char *site, size_t max)
{
	struct strbuf line = STRBUF_INIT;
	size_t len = strcspn(site, "\n");

	strbuf_add(&line, site, len);
	text_add_cut(sb, line.buf, max);
	strbuf_release(&line);
}

static void write_edge(FILE *out, const struct graph *g,
		       const struct graph_view *v, uint32_t i)
{
	const struct graph_edge *e = &g->edges[i];
	const uint32_t *boots = graph_edge_boots(g, e);
	const char *site = graph_edge_site(g, e);
	struct strbuf sb = STRBUF_INIT;
	char kind[16], boot[128];
	uint32_t b;

	fprintf(out, "\tn%u -> n%u [", e->from, e->to);
	graph_dep_str(e->dep_bits, kind);
	if (*kind)
		strbuf_addf(&sb, "-(%s)->", kind);
	if (v->sites && site) {
		if (sb.len)
			strbuf_addch(&sb, '\n');
		site_line(&sb, site, LABEL_MAX);
	}
	if (sb.len)
		attr(out, "label", sb.buf);

	strbuf_reset(&sb);
	graph_text_add(&sb, g->nodes[e->from].name);
	strbuf_addstr(&sb, " --> ");
	graph_text_add(&sb, g->nodes[e->to].name);
	if (*kind)
		strbuf_addf(&sb, "\nkind: -(%s)->", kind);
	if (e->distance >= 0)
		strbuf_addf(&sb, "\ndistance: %d", e->distance);
	strbuf_addstr(&sb, "\nseen in: ");
	if (g->nr_boots > NR_BOOT_COLOURS)
		strbuf_addf(&sb, "%u of %zu boots; ", e->nr_boots, g->nr_boots);
	for (b = 0; b < e->nr_boots && b < NR_BOOT_COLOURS; b++)
		strbuf_addf(&sb, "%s%s", b ? ", " : "",
			    graph_boot_str(g, (int)boots[b], boot, sizeof(boot)));
	if (b < e->nr_boots)
		strbuf_addstr(&sb, ", ...");
	strbuf_addstr(&sb, "\nsite: ");
	if (site)
		site_line(&sb, site, SIZE_MAX);
	else
		strbuf_addstr(&sb, "unknown (no trace stored)");
	attr(out, "tooltip", sb.buf);
	attr(out, "labeltooltip", sb.buf);

	strbuf_reset(&sb);
	edge_colours(&sb, g, e);
	attr(out, "color", sb.buf);
	if (v->edge[i] & GRAPH_BOLD)
		fputs(" penwidth=3 style=bold", out);
	fputs("];\n", out);
	strbuf_release(&sb);
}

/* What the shown part uses, for a key of just that */
struct used {
	bool hard, soft, unsafe, bold;
	uint8_t *boots;		/* per boot: an edge shown is of it */
};

static void find_used(const struct graph *g, const struct graph_view *v,
		      struct used *u)
{
	const struct graph_edge *e;
	const uint32_t *boots;
	unsigned int bits;
	size_t i, b;

	memset(u, 0, sizeof(*u));
	u->boots = xcalloc(g->nr_boots ? g->nr_boots : 1, 1);
	for (i = 0; i < g->nr_nodes; i++) {
		if (!(v->node[i] & GRAPH_SHOWN))
			continue;
		bits = g->nodes[i].usage_bits;
		u->hard |= graph_irq_safe(bits, LDR_HARDIRQ);
		u->soft |= !graph_irq_safe(bits, LDR_HARDIRQ) &&
			   graph_irq_safe(bits, LDR_SOFTIRQ);
		u->unsafe |= node_unsafe(bits);
	}
	for (i = 0; i < g->nr_edges; i++) {
		if (!(v->edge[i] & GRAPH_SHOWN))
			continue;
		e = &g->edges[i];
		u->bold |= !!(v->edge[i] & GRAPH_BOLD);
		boots = graph_edge_boots(g, e);
		for (b = 0; b < e->nr_boots; b++)
			u->boots[boots[b]] = 1;
	}
}

static void key_node(FILE *out, const char *id, const char *label,
		     const char *attrs)
{
	fprintf(out, "\t\t%s [", id);
	attr(out, "label", label);
	fprintf(out, " %s];\n", attrs);
}

/*
 * A small key beside the graph, of only what the picture uses: one
 * column of small boxes (a rank of its own: a column, as the graph runs
 * left to right), so that a picture of two classes is not mostly key.
 */
static void write_legend(FILE *out, const struct graph *g,
			 const struct graph_view *v)
{
	struct strbuf sb = STRBUF_INIT, id = STRBUF_INIT;
	struct used u;
	char boot[128];
	size_t b;

	find_used(g, v, &u);
	fputs("\tsubgraph cluster_legend {\n"
	      "\t\tlabel=\"key\"; fontsize=9; color=gray; margin=4;\n"
	      "\t\tnode [fontsize=8 height=0.2 margin=\"0.04,0.02\"];\n"
	      "\t\trank=same;\n", out);
	if (u.hard)
		key_node(out, "legend_hard", "hardirq-safe",
			 "fillcolor=\"" HARDIRQ_SAFE_FILL "\"");
	if (u.soft)
		key_node(out, "legend_soft", "softirq-safe",
			 "fillcolor=\"" SOFTIRQ_SAFE_FILL "\"");
	if (u.unsafe)
		key_node(out, "legend_unsafe", "irq-unsafe",
			 "color=\"" UNSAFE_BORDER "\" penwidth=2");
	if (v->nr_folds)
		key_node(out, "legend_fold", "classes folded",
			 "style=\"dashed,rounded\" color=gray");
	if (g->nr_boots > 1 && g->nr_boots <= NR_BOOT_COLOURS)
		for (b = 0; b < g->nr_boots; b++) {
			if (!u.boots[b])
				continue;
			strbuf_reset(&sb);
			strbuf_reset(&id);
			graph_text_add(&sb, graph_boot_str(g, (int)b, boot,
							   sizeof(boot)));
			strbuf_addf(&id, "legend_b%zu", b);
			key_node(out, id.buf, sb.buf, "shape=plaintext style=\"\"");
			fputs("\t\t", out);
			fprintf(out, "%s [fontcolor=\"%s\"];\n", id.buf,
				boot_colours[b % NR_BOOT_COLOURS]);
		}
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "A -> B: B taken while A held\n{usage}: as in /proc/lockdep");
	if (u.bold)
		strbuf_addf(&sb, "\nbold: %s",
			    v->bold_key ? v->bold_key : "on a cycle / irq path");
	if (g->nr_boots > NR_BOOT_COLOURS)
		strbuf_addstr(&sb, "\nblack: every boot saw it, gray: some");
	key_node(out, "legend_note", sb.buf, "shape=plaintext style=\"\"");
	fputs("\t}\n", out);
	free(u.boots);
	strbuf_release(&sb);
	strbuf_release(&id);
}

/* Each fold: a dashed box hanging off its drawn class */
static void write_folds(FILE *out, const struct graph *g,
			const struct graph_view *v)
{
	const struct graph_fold *f;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < v->nr_folds; i++) {
		f = &v->folds[i];
		strbuf_reset(&sb);
		strbuf_addf(&sb, "+%u more %s ", f->count,
			    f->under ? "under" : "over");
		text_add_cut(&sb, g->nodes[f->node].name, LABEL_MAX / 2);
		strbuf_addstr(&sb, ", folded");
		if (*f->prefixes) {
			strbuf_addch(&sb, '\n');
			graph_text_add(&sb, f->prefixes);
		}
		fprintf(out, "\tfold%zu [style=\"dashed,rounded\" color=gray fontsize=9", i);
		attr(out, "label", sb.buf);
		fputs("];\n", out);
		if (f->under)
			fprintf(out, "\tn%u -> fold%zu", f->node, i);
		else
			fprintf(out, "\tfold%zu -> n%u", i, f->node);
		fputs(" [style=dashed color=gray];\n", out);
	}
	strbuf_release(&sb);
}

int graph_write_dot(FILE *out, const struct graph *g,
		    const struct graph_view *v)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	fputs("digraph lockdep {\n"
	      "\trankdir=LR;\n"
	      "\tnode [shape=box style=\"rounded,filled\" fillcolor=white"
	      " fontname=\"monospace\" fontsize=11];\n"
	      "\tedge [fontsize=9];\n", out);
	if (v->title) {
		text_add_cut(&sb, v->title, TITLE_MAX);
		fputs("\tlabelloc=t;", out);
		attr(out, "label", sb.buf);
		fputs(";\n", out);
	}
	for (i = 0; i < g->nr_nodes; i++)
		if (v->node[i] & GRAPH_SHOWN)
			write_node(out, g, (uint32_t)i, v->node[i]);
	for (i = 0; i < g->nr_edges; i++)
		if (v->edge[i] & GRAPH_SHOWN)
			write_edge(out, g, v, (uint32_t)i);
	if (v->note) {
		const char *p = v->note, *nl;

		/* each line made printable; the line breaks are the note's own */
		strbuf_reset(&sb);
		for (; (nl = strchr(p, '\n')); p = nl + 1) {
			char *line = xstrndup(p, (size_t)(nl - p));

			graph_text_add(&sb, line);
			strbuf_addch(&sb, '\n');
			free(line);
		}
		graph_text_add(&sb, p);
		fputs("\tadvice_note [shape=note style=\"\" fontsize=10", out);
		attr(out, "label", sb.buf);
		fputs("];\n", out);
	}
	write_folds(out, g, v);
	write_legend(out, g, v);
	fputs("}\n", out);
	strbuf_release(&sb);
	return ferror(out) ? -1 : 0;
}
