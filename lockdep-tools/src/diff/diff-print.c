// SPDX-License-Identifier: GPL-2.0
/*
 * Printers of a diff (diff.h), as a pair: diff_print_plain() for people,
 * diff_print_json() for scripts, with the same content in the same order.
 *
 * A new cycle is told in lockdep's own words for a circular dependency
 * (print_circular_bug() and print_circular_lock_scenario() of
 * kernel/locking/lockdep.c): one edge A did not see is taken as the
 * dependency being added ("trying to acquire next while holding prev"),
 * and the rest of the cycle as the existing chain from next back to prev,
 * printed in reverse order, #0 last. Each edge says which boot saw it
 * and where the lock was taken, when the store has that trace.
 *
 * Class names come from the guest: text output escapes every byte that
 * is not printable ASCII (graph_text_add()), JSON output escapes through
 * the JSON writer.
 */
#include <string.h>

#include "diff/diff.h"
#include "parse/report.h"
#include "util/json-writer.h"
#include "util/strbuf.h"

static const char *const side_names[DIFF_SIDES] = { "A", "B" };

static void put_text(FILE *out, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	graph_text_add(&sb, s ? s : "");
	fputs(sb.buf, out);
	strbuf_release(&sb);
}

static const char *ident(const struct diff *d, uint32_t n)
{
	return d->nodes[n].identity;
}

/* "boot 3 (label)", with the database when the two boots differ in it. */
static void put_boot(const struct diff *d, int side, FILE *out)
{
	const struct diff_boot *b = &d->boot[side];

	fprintf(out, "boot %lld", (long long)b->id);
	if (b->label) {
		fputs(" (", out);
		put_text(out, b->label);
		fputc(')', out);
	}
	if (strcmp(d->boot[DIFF_A].db, d->boot[DIFF_B].db)) {
		fputs(" of '", out);
		put_text(out, b->db);
		fputc('\'', out);
	}
}

/* "boot 3 (ab)", "boot 3 (ab) and boot 4 (ba)" for an edge's boots. */
static void put_seen(const struct diff *d, uint32_t e, FILE *out)
{
	bool a = diff_edge_in(d, e, DIFF_A), b = diff_edge_in(d, e, DIFF_B);

	fputs("seen in ", out);
	if (a)
		put_boot(d, DIFF_A, out);
	if (a && b)
		fputs(" and ", out);
	if (b)
		put_boot(d, DIFF_B, out);
}

static const char *usage_str(unsigned int bits, char *buf)
{
	return graph_usage_str(bits, buf);
}

static const char *const state_names[] = {
	[LDR_HARDIRQ] = "hardirq", [LDR_SOFTIRQ] = "softirq",
};

/* ---- text ---- */

/* The baseline set: its boots, and how much of it is flaky. */
static void plain_baseline(const struct diff *d, FILE *out)
{
	size_t i;

	fprintf(out, "   the last of %zu baseline boots (", d->nr_base);
	for (i = 0; i < d->nr_base; i++)
		fprintf(out, "%s%lld", i ? ", " : "", (long long)d->base_ids[i]);
	fprintf(out, "); flaky, seen in only some of them: %zu classes, %zu dependencies\n",
		d->flaky_classes, d->flaky_deps);
}

/* " (flaky: 2 of 3 baseline boots)" after a finding that is noise */
static void plain_flaky(unsigned int in, size_t of, FILE *out)
{
	fprintf(out, " (flaky: %u of %zu baseline boots)", in, of);
}

/* "A has no graph export: ..." (graph.h) */
static void plain_no_export(const struct diff *d, int side, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;

	graph_missing_line(&sb, side_names[side], false,
			   d->boot[side].no_lockdep);
	fprintf(out, "%s\n", sb.buf);
	strbuf_release(&sb);
}

static void plain_boots(const struct diff *d, FILE *out)
{
	const struct diff_boot *b;
	char status[64];
	int s;

	for (s = 0; s < DIFF_SIDES; s++) {
		b = &d->boot[s];
		fprintf(out, "%s: ", side_names[s]);
		put_boot(d, s, out);
		fputs(" in '", out);
		put_text(out, b->db);
		fputs("', kernel ", out);
		put_text(out, b->kernel_release ? b->kernel_release : "unknown");
		fprintf(out, ", %s, %zu classes, %zu dependencies\n",
			b->completeness, b->nr_classes, b->nr_deps);
		if (b->has_workload) {
			store_workload_status(&b->workload, status,
					      sizeof(status));
			fputs("   workload ", out);
			put_text(out, b->workload.name);
			fprintf(out, ": %s\n", status);
		}
		if (b->no_export)
			plain_no_export(d, s, out);
		if (s == DIFF_A && d->nr_base > 1)
			plain_baseline(d, out);
	}
}

static void plain_classes(const struct diff *d, FILE *out)
{
	const struct diff_node *n;
	size_t i;

	fprintf(out, "\nclasses: %zu added, %zu removed\n",
		d->classes_added, d->classes_removed);
	for (i = 0; i < d->g->nr_nodes; i++) {
		n = &d->nodes[d->order[i]];
		if (n->ambiguous || n->in[DIFF_A] == n->in[DIFF_B])
			continue;
		fputs(n->in[DIFF_B] ? "  + " : "  - ", out);
		put_text(out, n->identity);
		if (diff_node_flaky(d, d->order[i]))
			plain_flaky(n->nr_base, d->nr_base, out);
		fputc('\n', out);
	}
}

/* Invariant (2) of diff.h: what was not compared, and why. */
static void plain_ambiguous(const struct diff *d, FILE *out)
{
	const struct diff_ambiguous *a;
	size_t i;

	fprintf(out, "\nambiguous: %zu names held by several classes of a boot, with no key symbol to tell them apart: not matched across boots (%zu dependencies not compared)\n",
		d->nr_ambiguous, d->ambiguous_deps);
	for (i = 0; i < d->nr_ambiguous; i++) {
		a = &d->ambiguous[i];
		fputs("  ? ", out);
		put_text(out, a->identity);
		fprintf(out, " (%u -> %u classes)\n", a->count[DIFF_A],
			a->count[DIFF_B]);
	}
}

static void plain_deps(const struct diff *d, FILE *out)
{
	const struct graph_edge *e;
	char dep[16];
	size_t i;
	bool a, b;

	fprintf(out, "\ndependencies: %zu added, %zu removed\n",
		d->deps_added, d->deps_removed);
	if (d->distance1_only)
		fprintf(out, "  (distance 1 only, as /proc/lockdep shows them: %zu of A and %zu of B at distance > 1 left out)\n",
			d->boot[DIFF_A].left_out_deps,
			d->boot[DIFF_B].left_out_deps);
	for (i = 0; i < d->g->nr_edges; i++) {
		e = &d->g->edges[d->edge_order[i]];
		a = diff_edge_in(d, d->edge_order[i], DIFF_A);
		b = diff_edge_in(d, d->edge_order[i], DIFF_B);
		if (a == b || diff_edge_ambiguous(d, d->edge_order[i]))
			continue;
		fputs(b ? "  + " : "  - ", out);
		put_text(out, ident(d, e->from));
		if (e->dep_bits >= 0)
			fprintf(out, " -(%s)-> ", graph_dep_str(e->dep_bits, dep));
		else
			fputs(" -> ", out);
		put_text(out, ident(d, e->to));
		if (diff_edge_flaky(d, d->edge_order[i]))
			plain_flaky(e->nr_boots - b, d->nr_base, out);
		fputc('\n', out);
	}
}

/* "became hardirq-safe", "no longer softirq-unsafe", ... */
static void plain_became(unsigned int a, unsigned int b, FILE *out)
{
	int s;
	bool sa, sb, ua, ub;

	for (s = LDR_HARDIRQ; s <= LDR_SOFTIRQ; s++) {
		sa = graph_irq_safe(a, s);
		sb = graph_irq_safe(b, s);
		ua = graph_irq_unsafe(a, s);
		ub = graph_irq_unsafe(b, s);
		if (sa != sb)
			fprintf(out, "; %s %s-safe", sb ? "became" : "no longer",
				state_names[s]);
		if (ua != ub)
			fprintf(out, "; %s %s-unsafe", ub ? "became" : "no longer",
				state_names[s]);
	}
}

static void plain_usage(const struct diff *d, FILE *out)
{
	const struct diff_node *n;
	char ua[8], ub[8];
	unsigned int bit, x;
	size_t i;

	fprintf(out, "\nusage: %zu classes changed\n", d->usage_changed);
	for (i = 0; i < d->g->nr_nodes; i++) {
		n = &d->nodes[d->order[i]];
		if (!n->in[DIFF_A] || !n->in[DIFF_B] ||
		    n->usage[DIFF_A] == n->usage[DIFF_B])
			continue;
		fputs("  ~ ", out);
		put_text(out, n->identity);
		fprintf(out, " {%s} -> {%s}:", usage_str(n->usage[DIFF_A], ua),
			usage_str(n->usage[DIFF_B], ub));
		x = n->usage[DIFF_A] ^ n->usage[DIFF_B];
		for (bit = 0; bit < LDR_USAGE_BITS; bit++)
			if (x & (1u << bit))
				fprintf(out, " %c%s",
					n->usage[DIFF_B] & (1u << bit) ? '+' : '-',
					ldr_usage_bit_name(bit));
		plain_became(n->usage[DIFF_A], n->usage[DIFF_B], out);
		fputc('\n', out);
	}
}

static void plain_irq_paths(const struct diff *d, FILE *out)
{
	const struct diff_irq_path *p;
	const struct graph_edge *e;
	size_t i, k;

	fprintf(out, "\nnew irq-safe -> irq-unsafe paths: %zu\n",
		d->nr_irq_paths);
	for (i = 0; i < d->nr_irq_paths; i++) {
		p = &d->irq_paths[i];
		fprintf(out, "  %s-safe -> %s-unsafe:\n", state_names[p->state],
			state_names[p->state]);
		for (k = 0; k < p->nr; k++) {
			e = &d->g->edges[p->edges[k]];
			fputs("    ", out);
			put_text(out, ident(d, e->from));
			fputs(" -> ", out);
			put_text(out, ident(d, e->to));
			fputs("   ", out);
			put_seen(d, p->edges[k], out);
			fputc('\n', out);
		}
	}
}

static void put_lock(const struct diff *d, uint32_t n, FILE *out)
{
	char u[8];

	fputc('(', out);
	put_text(out, ident(d, n));
	fprintf(out, "){%s}", usage_str(d->nodes[n].usage[DIFF_A] |
					 d->nodes[n].usage[DIFF_B], u));
}

/*
 * The cycle rotated so that its last edge is the first one A did not see
 * (the "new" dependency prev -> next); rot[] gets the edge indices.
 */
static void rotate_cycle(const struct diff *d, const struct graph_cycle *cy,
			 uint32_t *rot)
{
	size_t k, first = 0;

	for (k = 0; k < cy->nr; k++)
		if (!diff_edge_in(d, cy->edges[k], DIFF_A)) {
			first = k;
			break;
		}
	for (k = 0; k < cy->nr; k++)
		rot[k] = cy->edges[(first + 1 + k) % cy->nr];
}

static void plain_cycle(const struct diff *d, const struct graph_cycle *cy,
			size_t idx, FILE *out)
{
	const struct graph_edge *e, *close;
	uint32_t rot[cy->nr], prev, next, parent;
	size_t k;

	rotate_cycle(d, cy, rot);
	close = &d->g->edges[rot[cy->nr - 1]];
	prev = close->from;
	next = close->to;
	/* the class before prev on the chain (lockdep's first_parent) */
	parent = cy->nr > 1 ? d->g->edges[rot[cy->nr - 2]].from : next;

	fprintf(out, "\nnew cycle %zu: possible circular locking dependency%s\n",
		idx + 1, cy->cross_boot ? " across boots (no single boot saw all of it)" :
		" (boot B alone)");
	for (k = 0; k < cy->nr; k++) {
		e = &d->g->edges[rot[k]];
		fputs("  ", out);
		put_text(out, ident(d, e->from));
		fputs(" --> ", out);
		put_text(out, ident(d, e->to));
		fputs("   ", out);
		put_seen(d, rot[k], out);
		fputc('\n', out);
	}
	fputs("\n  trying to acquire lock:\n  ", out);
	put_lock(d, next, out);
	fputs("\n  but task is already holding lock:\n  ", out);
	put_lock(d, prev, out);
	fputs("\n  which lock already depends on the new lock.\n\n", out);
	fputs("  the existing dependency chain (in reverse order) is:\n", out);
	/* #n-1 is prev, reached by the last path edge; #0 is next, closing */
	for (k = cy->nr; k-- > 0;) {
		e = &d->g->edges[rot[(k + cy->nr - 1) % cy->nr]];
		fprintf(out, "\n  -> #%zu ", k);
		put_lock(d, e->to, out);
		fputs(":\n         taken while holding ", out);
		put_text(out, ident(d, e->from));
		fputs(", ", out);
		put_seen(d, rot[(k + cy->nr - 1) % cy->nr], out);
		fputs("\n         at: ", out);
		if (e->site)
			put_text(out, graph_edge_site(d->g, e));
		else
			fputs("unknown (no stack trace stored: no graph export in the boot)", out);
		fputc('\n', out);
	}
	fputs("\n  other info that might help us debug this:\n\n", out);
	if (parent != next) {
		fputs("  Chain exists of:\n    ", out);
		put_text(out, ident(d, next));
		fputs(" --> ", out);
		put_text(out, ident(d, parent));
		fputs(" --> ", out);
		put_text(out, ident(d, prev));
		fputs("\n\n", out);
	}
	fputs("   Possible unsafe locking scenario:\n\n", out);
	fputs("         CPU0                    CPU1\n", out);
	fputs("         ----                    ----\n", out);
	fputs("    lock(", out);
	put_text(out, ident(d, prev));
	fputs(");\n                                 lock(", out);
	put_text(out, ident(d, parent));
	fputs(");\n                                 lock(", out);
	put_text(out, ident(d, prev));
	fputs(");\n    lock(", out);
	put_text(out, ident(d, next));
	fputs(");\n\n   *** DEADLOCK ***\n", out);
}

static void plain_cycles(const struct diff *d, FILE *out)
{
	size_t i;

	fprintf(out, "\nnew cycles: %zu", d->nr_new_cycles);
	if (d->cycles.uncovered)
		fprintf(out, " (and %zu edges on cycles not listed: limit reached)",
			d->cycles.uncovered);
	fputc('\n', out);
	for (i = 0; i < d->nr_new_cycles; i++)
		plain_cycle(d, d->new_cycles[i], i, out);
}

static void plain_stats(const struct diff *d, FILE *out)
{
	const struct diff_stat *s;
	size_t i;

	fprintf(out, "\nlockdep_stats:%*s%12s %12s %10s %10s %9s\n", 25, "",
		"A", "B", "delta", "max", "headroom");
	for (i = 0; i < d->nr_stats; i++) {
		s = &d->stats[i];
		if (!s->has_max && s->has[DIFF_A] && s->has[DIFF_B] &&
		    s->value[DIFF_A] == s->value[DIFF_B])
			continue;
		fputs("  ", out);
		put_text(out, s->name);
		fprintf(out, "%*s", (int)(37 - strlen(s->name) > 0 &&
					  strlen(s->name) < 37 ?
					  37 - strlen(s->name) : 1), "");
		if (s->has[DIFF_A])
			fprintf(out, "%12llu ", s->value[DIFF_A]);
		else
			fprintf(out, "%12s ", "-");
		if (s->has[DIFF_B])
			fprintf(out, "%12llu ", s->value[DIFF_B]);
		else
			fprintf(out, "%12s ", "-");
		if (s->has[DIFF_A] && s->has[DIFF_B])
			fprintf(out, "%+10lld ", (long long)(s->value[DIFF_B] -
							     s->value[DIFF_A]));
		else
			fprintf(out, "%10s ", "-");
		if (s->has_max)
			fprintf(out, "%10llu %8.1f%%\n", s->max,
				diff_stat_headroom(s));
		else
			fprintf(out, "%10s %9s\n", "-", "-");
	}
}

static void plain_grew(const struct diff *d, FILE *out)
{
	size_t i;

	if (!d->nr_grew)
		return;
	fputs("\nconsumers that grew (lockdep-report --capacity's rows):\n", out);
	for (i = 0; i < d->nr_grew; i++) {
		const struct diff_grew *g = &d->grew[i];

		fprintf(out, "  %-20s %-10s %10llu -> %-10llu %+10lld  ",
			diff_grew_table(g), diff_grew_by(g), g->a, g->b,
			(long long)(g->b - g->a));
		put_text(out, g->name);
		fputc('\n', out);
	}
}

static void plain_selftest(const struct diff *d, FILE *out)
{
	const struct diff_selftest *c;
	size_t i;

	fprintf(out, "\nself-test: %zu cells changed\n", d->selftest_changed);
	for (i = 0; i < d->nr_selftest; i++) {
		c = &d->selftest[i];
		if (c->result[DIFF_A] && c->result[DIFF_B] &&
		    !strcmp(c->result[DIFF_A], c->result[DIFF_B]))
			continue;
		fputs("  ~ ", out);
		put_text(out, c->section);
		fputs(" / ", out);
		put_text(out, c->test);
		fputs(" / ", out);
		put_text(out, c->variant);
		fprintf(out, ": %s -> %s\n", c->result[DIFF_A] ?: "-",
			c->result[DIFF_B] ?: "-");
	}
}

static void plain_reports(const struct diff *d, FILE *out)
{
	const struct diff_report *r;
	size_t i;

	fprintf(out, "\nreports: %zu new, %zu gone\n", d->reports_new,
		d->reports_gone);
	for (i = 0; i < d->nr_reports; i++) {
		r = &d->reports[i];
		if (!r->count[DIFF_A] == !r->count[DIFF_B])
			continue;
		fputs(r->count[DIFF_B] ? "  + [" : "  - [", out);
		put_text(out, r->type);
		fputs("] ", out);
		put_text(out, r->title);
		fprintf(out, " (x%u)\n", r->count[DIFF_A] + r->count[DIFF_B]);
	}
}

void diff_print_plain(const struct diff *d, FILE *out)
{
	plain_boots(d, out);
	plain_classes(d, out);
	plain_ambiguous(d, out);
	plain_deps(d, out);
	plain_usage(d, out);
	plain_irq_paths(d, out);
	plain_cycles(d, out);
	plain_stats(d, out);
	plain_grew(d, out);
	plain_selftest(d, out);
	plain_reports(d, out);
}

/* ---- JSON ---- */

static void json_boot(const struct diff *d, int side, struct json_writer *w)
{
	const struct diff_boot *b = &d->boot[side];
	char status[64];
	size_t i;

	jsonw_start_object(w);
	jsonw_string_field(w, "db", b->db);
	jsonw_int_field(w, "id", b->id);
	jsonw_string_field(w, "label", b->label);
	jsonw_string_field(w, "kernel_release", b->kernel_release);
	jsonw_string_field(w, "build_id", b->build_id);
	jsonw_string_field(w, "completeness", b->completeness);
	jsonw_uint_field(w, "classes", b->nr_classes);
	jsonw_uint_field(w, "dependencies", b->nr_deps);
	jsonw_name(w, "workload");
	if (b->has_workload) {
		jsonw_start_object(w);
		jsonw_string_field(w, "name", b->workload.name);
		jsonw_string_field(w, "state",
				   store_workload_state_name(b->workload.state));
		store_workload_status(&b->workload, status, sizeof(status));
		jsonw_string_field(w, "status", status);
		jsonw_end_object(w);
	} else {
		jsonw_null(w);
	}
	jsonw_bool_field(w, "graph_export", !b->no_export);
	jsonw_bool_field(w, "lockdep", !b->no_lockdep);
	jsonw_name(w, "missing");
	jsonw_start_array(w);
	for (i = 0; b->no_export && i < GRAPH_NR_MISSING; i++)
		jsonw_string(w, graph_missing_json[i]);
	jsonw_end_array(w);
	jsonw_uint_field(w, "left_out_dependencies", b->left_out_deps);
	jsonw_end_object(w);
}

/* "baseline": every boot of side A and the flaky counts */
static void json_baseline(const struct diff *d, struct json_writer *w)
{
	size_t i;

	jsonw_name(w, "baseline");
	jsonw_start_object(w);
	jsonw_name(w, "boots");
	jsonw_start_array(w);
	for (i = 0; i < d->nr_base; i++)
		jsonw_int(w, d->base_ids[i]);
	jsonw_end_array(w);
	jsonw_uint_field(w, "flaky_classes", d->flaky_classes);
	jsonw_uint_field(w, "flaky_dependencies", d->flaky_deps);
	jsonw_end_object(w);
}

static void json_seen(const struct diff *d, uint32_t e, struct json_writer *w)
{
	int s;

	jsonw_name(w, "seen_in");
	jsonw_start_array(w);
	for (s = 0; s < DIFF_SIDES; s++)
		if (diff_edge_in(d, e, s))
			jsonw_string(w, side_names[s]);
	jsonw_end_array(w);
}

static void json_edge(const struct diff *d, uint32_t ei, struct json_writer *w)
{
	const struct graph_edge *e = &d->g->edges[ei];
	char dep[16];

	jsonw_start_object(w);
	jsonw_string_field(w, "from", ident(d, e->from));
	jsonw_string_field(w, "to", ident(d, e->to));
	if (e->dep_bits >= 0)
		jsonw_string_field(w, "kind", graph_dep_str(e->dep_bits, dep));
	json_seen(d, ei, w);
	jsonw_string_field(w, "site", graph_edge_site(d->g, e));
	if (d->nr_base > 1) {
		jsonw_name(w, "flaky");
		jsonw_bool(w, diff_edge_flaky(d, ei));
	}
	jsonw_end_object(w);
}

static void json_classes(const struct diff *d, struct json_writer *w)
{
	const struct diff_node *n;
	size_t i;
	int l;

	jsonw_name(w, "classes");
	jsonw_start_object(w);
	for (l = 0; l < 2; l++) {
		jsonw_name(w, l ? "removed" : "added");
		jsonw_start_array(w);
		for (i = 0; i < d->g->nr_nodes; i++) {
			n = &d->nodes[d->order[i]];
			if (n->ambiguous || n->in[DIFF_A] == n->in[DIFF_B] ||
			    n->in[l ? DIFF_B : DIFF_A])
				continue;
			jsonw_start_object(w);
			jsonw_string_field(w, "identity", n->identity);
			if (d->nr_base > 1)
				jsonw_uint_field(w, "baseline_boots", n->nr_base);
			jsonw_end_object(w);
		}
		jsonw_end_array(w);
	}
	jsonw_name(w, "ambiguous");
	jsonw_start_array(w);
	for (i = 0; i < d->nr_ambiguous; i++) {
		jsonw_start_object(w);
		jsonw_string_field(w, "identity", d->ambiguous[i].identity);
		jsonw_uint_field(w, "count_a", d->ambiguous[i].count[DIFF_A]);
		jsonw_uint_field(w, "count_b", d->ambiguous[i].count[DIFF_B]);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_end_object(w);
}

static void json_deps(const struct diff *d, struct json_writer *w)
{
	uint32_t e;
	size_t i;
	int l;

	jsonw_name(w, "dependencies");
	jsonw_start_object(w);
	/* a side without the graph export: see left_out_dependencies */
	jsonw_bool_field(w, "distance_1_only", d->distance1_only);
	jsonw_uint_field(w, "ambiguous", d->ambiguous_deps);
	for (l = 0; l < 2; l++) {
		jsonw_name(w, l ? "removed" : "added");
		jsonw_start_array(w);
		for (i = 0; i < d->g->nr_edges; i++) {
			e = d->edge_order[i];
			if (diff_edge_in(d, e, DIFF_A) == diff_edge_in(d, e, DIFF_B) ||
			    diff_edge_in(d, e, l ? DIFF_B : DIFF_A) ||
			    diff_edge_ambiguous(d, e))
				continue;
			json_edge(d, e, w);
		}
		jsonw_end_array(w);
	}
	jsonw_end_object(w);
}

static void json_bits(unsigned int bits, struct json_writer *w)
{
	unsigned int bit;

	jsonw_start_array(w);
	for (bit = 0; bit < LDR_USAGE_BITS; bit++)
		if (bits & (1u << bit))
			jsonw_string(w, ldr_usage_bit_name(bit));
	jsonw_end_array(w);
}

static void json_usage(const struct diff *d, struct json_writer *w)
{
	const struct diff_node *n;
	char u[8];
	size_t i;

	jsonw_name(w, "usage");
	jsonw_start_array(w);
	for (i = 0; i < d->g->nr_nodes; i++) {
		n = &d->nodes[d->order[i]];
		if (!n->in[DIFF_A] || !n->in[DIFF_B] ||
		    n->usage[DIFF_A] == n->usage[DIFF_B])
			continue;
		jsonw_start_object(w);
		jsonw_string_field(w, "identity", n->identity);
		jsonw_string_field(w, "a", usage_str(n->usage[DIFF_A], u));
		jsonw_string_field(w, "b", usage_str(n->usage[DIFF_B], u));
		jsonw_name(w, "gained");
		json_bits(n->usage[DIFF_B] & ~n->usage[DIFF_A], w);
		jsonw_name(w, "lost");
		json_bits(n->usage[DIFF_A] & ~n->usage[DIFF_B], w);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
}

static void json_irq_paths(const struct diff *d, struct json_writer *w)
{
	const struct diff_irq_path *p;
	size_t i, k;

	jsonw_name(w, "irq_paths");
	jsonw_start_array(w);
	for (i = 0; i < d->nr_irq_paths; i++) {
		p = &d->irq_paths[i];
		jsonw_start_object(w);
		jsonw_string_field(w, "state", state_names[p->state]);
		jsonw_name(w, "edges");
		jsonw_start_array(w);
		for (k = 0; k < p->nr; k++)
			json_edge(d, p->edges[k], w);
		jsonw_end_array(w);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
}

static void json_cycles(const struct diff *d, struct json_writer *w)
{
	const struct graph_cycle *c;
	size_t i, k;

	jsonw_name(w, "cycles");
	jsonw_start_object(w);
	jsonw_uint_field(w, "edges_not_listed", d->cycles.uncovered);
	jsonw_name(w, "new");
	jsonw_start_array(w);
	for (i = 0; i < d->nr_new_cycles; i++) {
		c = d->new_cycles[i];
		uint32_t rot[c->nr];

		rotate_cycle(d, c, rot);
		jsonw_start_object(w);
		jsonw_bool_field(w, "cross_boot", c->cross_boot);
		jsonw_name(w, "edges");
		jsonw_start_array(w);
		for (k = 0; k < c->nr; k++)
			json_edge(d, rot[k], w);
		jsonw_end_array(w);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_end_object(w);
}

static void json_stats(const struct diff *d, struct json_writer *w)
{
	const struct diff_stat *s;
	size_t i;
	int side;

	jsonw_name(w, "stats");
	jsonw_start_array(w);
	for (i = 0; i < d->nr_stats; i++) {
		s = &d->stats[i];
		jsonw_start_object(w);
		jsonw_string_field(w, "name", s->name);
		for (side = 0; side < DIFF_SIDES; side++) {
			jsonw_name(w, side ? "b" : "a");
			if (s->has[side])
				jsonw_uint(w, s->value[side]);
			else
				jsonw_null(w);
		}
		if (s->has_max) {
			jsonw_uint_field(w, "max", s->max);
			/* whole percent, rounded down */
			jsonw_uint_field(w, "headroom_pct",
					 (unsigned long long)diff_stat_headroom(s));
		}
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
}

static void json_grew(const struct diff *d, struct json_writer *w)
{
	size_t i;

	jsonw_name(w, "consumers_grew");
	jsonw_start_array(w);
	for (i = 0; i < d->nr_grew; i++) {
		jsonw_start_object(w);
		jsonw_string_field(w, "table", diff_grew_table(&d->grew[i]));
		jsonw_string_field(w, "by", diff_grew_by(&d->grew[i]));
		jsonw_string_field(w, "name", d->grew[i].name);
		jsonw_uint_field(w, "a", d->grew[i].a);
		jsonw_uint_field(w, "b", d->grew[i].b);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
}

static void json_selftest(const struct diff *d, struct json_writer *w)
{
	const struct diff_selftest *c;
	size_t i;

	jsonw_name(w, "selftest");
	jsonw_start_array(w);
	for (i = 0; i < d->nr_selftest; i++) {
		c = &d->selftest[i];
		if (c->result[DIFF_A] && c->result[DIFF_B] &&
		    !strcmp(c->result[DIFF_A], c->result[DIFF_B]))
			continue;
		jsonw_start_object(w);
		jsonw_string_field(w, "section", c->section);
		jsonw_string_field(w, "test", c->test);
		jsonw_string_field(w, "variant", c->variant);
		jsonw_string_field(w, "a", c->result[DIFF_A]);
		jsonw_string_field(w, "b", c->result[DIFF_B]);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
}

static void json_reports(const struct diff *d, struct json_writer *w)
{
	const struct diff_report *r;
	size_t i;
	int l;

	jsonw_name(w, "reports");
	jsonw_start_object(w);
	for (l = 0; l < 2; l++) {
		jsonw_name(w, l ? "gone" : "new");
		jsonw_start_array(w);
		for (i = 0; i < d->nr_reports; i++) {
			r = &d->reports[i];
			if (!r->count[DIFF_A] == !r->count[DIFF_B] ||
			    !r->count[l ? DIFF_A : DIFF_B])
				continue;
			jsonw_start_object(w);
			jsonw_string_field(w, "dedup_key", r->dedup_key);
			jsonw_string_field(w, "type", r->type);
			jsonw_string_field(w, "title", r->title);
			jsonw_uint_field(w, "count", r->count[l ? DIFF_A : DIFF_B]);
			jsonw_end_object(w);
		}
		jsonw_end_array(w);
	}
	jsonw_end_object(w);
}

static const char *const fail_names[] = {
	"new-report", "new-cycle", "new-dependency", "headroom",
};

void diff_print_json(const struct diff *d, const struct diff_fail_on *f,
		     FILE *out, bool pretty)
{
	struct json_writer *w = jsonw_new(out, pretty);
	unsigned int failed = diff_failed(d, f), bit;

	jsonw_start_object(w);
	jsonw_name(w, "a");
	json_boot(d, DIFF_A, w);
	jsonw_name(w, "b");
	json_boot(d, DIFF_B, w);
	json_baseline(d, w);
	json_classes(d, w);
	json_deps(d, w);
	json_usage(d, w);
	json_irq_paths(d, w);
	json_cycles(d, w);
	json_stats(d, w);
	json_grew(d, w);
	json_selftest(d, w);
	json_reports(d, w);
	jsonw_name(w, "failed");
	jsonw_start_array(w);
	for (bit = 0; bit < 4; bit++)
		if (failed & (1u << bit))
			jsonw_string(w, fail_names[bit]);
	jsonw_end_array(w);
	jsonw_end_object(w);
	jsonw_destroy(&w);
}

unsigned int diff_failed(const struct diff *d, const struct diff_fail_on *f)
{
	unsigned int met = 0;
	size_t i;

	if (d->reports_new)
		met |= DIFF_FAIL_NEW_REPORT;
	if (d->nr_new_cycles)
		met |= DIFF_FAIL_NEW_CYCLE;
	if (d->deps_added)
		met |= DIFF_FAIL_NEW_DEP;
	for (i = 0; i < d->nr_stats; i++)
		if (d->stats[i].has_max && d->stats[i].has[DIFF_B] &&
		    diff_stat_headroom(&d->stats[i]) < f->headroom_pct)
			met |= DIFF_FAIL_HEADROOM;
	return met & f->conditions;
}
