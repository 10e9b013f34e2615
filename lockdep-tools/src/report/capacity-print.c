// SPDX-License-Identifier: GPL-2.0
/*
 * lockdep-report --capacity's output (report/capacity.h): text for a
 * terminal, one JSON object for scripts, the headroom line of make demo
 * and the Kconfig fragment of the advice (lockdep-report(1), CAPACITY).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/capacity-print.h"
#include "report/report-print.h"
#include "util/term-text.h"
#include "util/xalloc.h"

/* The least a shape must show to be named (fewer is not a pattern). */
static const unsigned long long shape_min[CAP_SHAPE_NR] = {
	[CAP_SHAPE_ONE_NAME] = 4,
	[CAP_SHAPE_SAME_NAME_CHAINS] = 1,
	[CAP_SHAPE_ORDERS] = 2,
	[CAP_SHAPE_TRACE_SITE] = 2,
};

/* The table each shape is ranked by. */
static const enum cap_table shape_table[CAP_SHAPE_NR] = {
	[CAP_SHAPE_ONE_NAME] = CAP_CLASSES,
	[CAP_SHAPE_SAME_NAME_CHAINS] = CAP_CHAINS,
	[CAP_SHAPE_ORDERS] = CAP_CHAINS,
	[CAP_SHAPE_TRACE_SITE] = CAP_STACK_TRACE,
};

/* to the nearest integer (no libm for one call) */
static long long round_ll(double x)
{
	return (long long)(x < 0 ? x - 0.5 : x + 0.5);
}

static double share(unsigned long long part, unsigned long long whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* The groupings that rank table @t's consumers (sites: traces only). */
static bool by_applies(enum cap_by by, int t)
{
	/* a class is one entry of classes: its ranking says nothing */
	if (by == CAP_BY_CLASS)
		return t != CAP_CLASSES;
	return by != CAP_BY_SITE || t == CAP_STACK_TRACE;
}

/* The top of a shape, filtered by its minimum: indices into @out. */
static size_t shape_top(const struct capacity *cap, enum cap_shape s,
			uint32_t *out, size_t n)
{
	const struct cap_map *m = &cap->shapes[s];
	uint32_t *all = xmalloc((m->names.nr + 1) * sizeof(*all));
	size_t got, i, kept = 0;

	got = cap_map_top(m, shape_table[s], all, m->names.nr);
	for (i = 0; i < got && kept < n; i++)
		if (m->count[all[i]] >= shape_min[s])
			out[kept++] = all[i];
	free(all);
	return kept;
}

static void print_boots(FILE *out, const struct capacity *cap)
{
	size_t i;

	fputs(cap->nr_boots > 1 ? "boots" : "boot", out);
	for (i = 0; i < cap->nr_boots; i++)
		fprintf(out, "%s%" PRId64, i ? "," : " ", cap->boots[i]);
}

void report_print_headroom(FILE *out, const struct capacity *cap)
{
	int t = capacity_fullest(cap);
	uint32_t top;

	fputs("headroom: ", out);
	if (t < 0) {
		fputs("no table with a known limit\n", out);
		return;
	}
	fprintf(out, "fullest table %s %.1f %% (%llu of %llu)",
		cap_tables[t].text, share(cap->used[t], cap->max[t]),
		cap->used[t], cap->max[t]);
	if (cap->has_counted[t] &&
	    cap_map_top(&cap->by[CAP_BY_CLASS], t, &top, 1)) {
		fputs("; top consumer ", out);
		term_text_fputs(out, strset_str(&cap->by[CAP_BY_CLASS].names, top));
		fprintf(out, " %.1f %% of it",
			share(cap->by[CAP_BY_CLASS].rows[top][t],
			      cap->counted[t]));
	}
	fputc('\n', out);
}

static void print_tables(FILE *out, const struct capacity *cap)
{
	int t;

	fprintf(out, "%-24s %10s %10s %7s  %s\n", "table", "used", "max",
		"full", "counted from the export");
	for (t = 0; t < CAP_TABLE_NR; t++) {
		char used[24] = "-", max[24] = "-", full[16] = "-";

		if (cap->has_stat[t])
			snprintf(used, sizeof(used), "%llu", cap->used[t]);
		if (cap->max[t])
			snprintf(max, sizeof(max), "%llu", cap->max[t]);
		if (cap->has_stat[t] && cap->max[t])
			snprintf(full, sizeof(full), "%.1f%%",
				 share(cap->used[t], cap->max[t]));
		fprintf(out, "%-24s %10s %10s %7s  ", cap_tables[t].text, used,
			max, full);
		if (!cap->has_counted[t])
			fputs(t == CAP_STACK_HASH ?
			      "not counted (the kernel's hash of each trace)\n" :
			      "not counted (no export)\n", out);
		else if (!cap->has_stat[t])
			fprintf(out, "%llu\n", cap->counted[t]);
		else
			fprintf(out, "%llu%s\n", cap->counted[t],
				cap->counted[t] == cap->used[t] ? " (equal)" :
				" (differs)");
	}
	for (t = 0; t < CAP_TABLE_NR; t++) {
		double full = capacity_full_in_s(cap, t);

		if (!cap->has_growth[t])
			continue;
		fprintf(out, "growth: %s %+.0f a minute over %lld.%03lld s (%u samples)",
			cap_tables[t].text, cap->growth_per_min[t],
			cap->span_ms / 1000, cap->span_ms % 1000, cap->samples);
		if (full >= 0)
			fprintf(out, "; full in %.0f s at that rate", full);
		fputc('\n', out);
	}
}

static void print_consumers(FILE *out, const struct capacity *cap,
			    size_t top)
{
	uint32_t *idx = xmalloc(top * sizeof(*idx));
	size_t n, i;
	int t, by;

	for (t = 0; t < CAP_STACK_HASH; t++) {
		if (!cap->has_counted[t] || !cap->counted[t])
			continue;
		fprintf(out, "\n%s (%llu counted): top consumers\n",
			cap_tables[t].text, cap->counted[t]);
		for (by = 0; by < CAP_BY_NR; by++) {
			if (!by_applies(by, t))
				continue;
			n = cap_map_top(&cap->by[by], t, idx, top);
			for (i = 0; i < n; i++) {
				const struct cap_map *m = &cap->by[by];

				fprintf(out, "  %-10s %10llu %5.1f%%  ",
					i ? "" : cap_by_name(by),
					m->rows[idx[i]][t],
					share(m->rows[idx[i]][t], cap->counted[t]));
				term_text_fputs(out, strset_str(&m->names, idx[i]));
				fputc('\n', out);
			}
		}
	}
	free(idx);
}

/* "N classes (K keys)", "N chains in K orders", "N traces for K refs" */
static void shape_count(FILE *out, enum cap_shape s, const struct cap_map *m,
			uint32_t i)
{
	switch (s) {
	case CAP_SHAPE_ONE_NAME:
		fprintf(out, "%llu classes of %llu keys", m->count[i], m->extra[i]);
		break;
	case CAP_SHAPE_SAME_NAME_CHAINS:
		fprintf(out, "%llu chains", m->count[i]);
		break;
	case CAP_SHAPE_ORDERS:
		fprintf(out, "%llu chains in %llu orders", m->count[i], m->extra[i]);
		break;
	case CAP_SHAPE_TRACE_SITE:
		fprintf(out, "%llu traces for %llu dependencies and usage bits",
			m->count[i], m->extra[i]);
		break;
	case CAP_SHAPE_NR:
		break;
	}
}

static void print_shapes(FILE *out, const struct capacity *cap, size_t top)
{
	uint32_t *idx = xmalloc(top * sizeof(*idx));
	size_t n, i;
	int s, t;

	for (s = 0; s < CAP_SHAPE_NR; s++) {
		const struct cap_map *m = &cap->shapes[s];

		n = shape_top(cap, s, idx, top);
		if (!n)
			continue;
		fprintf(out, "\n%s:\n", cap_shape_text(s));
		for (i = 0; i < n; i++) {
			bool first = true;

			fputs("  ", out);
			term_text_fputs(out, strset_str(&m->names, idx[i]));
			fputs(": ", out);
			shape_count(out, s, m, idx[i]);
			for (t = 0; t < CAP_STACK_HASH; t++) {
				if (!m->rows[idx[i]][t] || !cap->counted[t])
					continue;
				fprintf(out, "%s%.1f %% of %s", first ? "; " : ", ",
					share(m->rows[idx[i]][t], cap->counted[t]),
					cap_tables[t].text);
				first = false;
			}
			fputc('\n', out);
		}
	}
	free(idx);
}

/* When a boot ran out: where, and its tables projected to the workload. */
static void print_projection(FILE *out, const struct capacity *cap)
{
	const struct cap_projection *p = &cap->proj;
	long long done = p->out_ms - p->start_ms;
	bool first = true;
	int t;

	if (!p->has)
		return;
	fprintf(out, "projection: boot %" PRId64 " ran out %lld.%03lld s after the workload's first sample (sample %lld at %lld.%03lld s), ",
		p->boot, done / 1000, done % 1000, p->start_idx,
		p->start_ms / 1000, p->start_ms % 1000);
	if (done >= p->workload_ms) {
		fprintf(out, "after the workload's %lld.%03lld s: its counts are whole\n",
			p->workload_ms / 1000, p->workload_ms % 1000);
		return;
	}
	fprintf(out, "%.0f %% of the workload's %lld.%03lld s; at the same rate over all of it:",
		share((unsigned long long)done, (unsigned long long)p->workload_ms),
		p->workload_ms / 1000, p->workload_ms % 1000);
	for (t = 0; t < CAP_STACK_HASH; t++) {
		if (!p->has_table[t])
			continue;
		fprintf(out, "%s %s %llu (%llu to %llu)", first ? "" : ",",
			cap_tables[t].text, p->need[t], p->at_start[t],
			p->at_out[t]);
		first = false;
	}
	fputc('\n', out);
}

void report_print_capacity(FILE *out, const struct capacity *cap, size_t top,
			   const struct advice *a)
{
	size_t i;

	fputs("capacity of ", out);
	print_boots(out, cap);
	fputs(cap->nr_boots > 1 ? " (each table at its fullest boot)\n" : "\n",
	      out);
	print_tables(out, cap);
	print_projection(out, cap);
	for (i = 0; i < cap->nr_other; i++) {
		fputs("other: ", out);
		term_text_fputs(out, cap->other[i].name);
		fprintf(out, " %llu", cap->other[i].value);
		if (cap->other[i].has_max)
			fprintf(out, " of %llu", cap->other[i].max);
		fputs(" (a lockdep_stats line of no table this tool knows)\n", out);
	}
	for (i = 0; i < cap->nr_notes; i++) {
		fputs("note: ", out);
		term_text_fputs(out, cap->notes[i]);
		fputc('\n', out);
	}
	print_consumers(out, cap, top);
	print_shapes(out, cap, top);
	fputc('\n', out);
	report_print_headroom(out, cap);
	report_print_advice(out, a);
}

static void json_rows(struct json_writer *w, const struct capacity *cap,
		      const unsigned long long rows[CAP_TABLE_NR])
{
	int t;

	jsonw_name(w, "takes");
	jsonw_start_array(w);
	for (t = 0; t < CAP_TABLE_NR; t++) {
		if (!rows[t])
			continue;
		jsonw_start_object(w);
		jsonw_string_field(w, "table", cap_tables[t].key);
		jsonw_uint_field(w, "rows", rows[t]);
		jsonw_uint_field(w, "of", cap->counted[t]);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
}

static void json_tables(struct json_writer *w, const struct capacity *cap,
			size_t top)
{
	uint32_t *idx = xmalloc(top * sizeof(*idx));
	size_t n, i;
	int t, by;

	jsonw_name(w, "tables");
	jsonw_start_array(w);
	for (t = 0; t < CAP_TABLE_NR; t++) {
		jsonw_start_object(w);
		jsonw_string_field(w, "table", cap_tables[t].key);
		jsonw_string_field(w, "limit", cap_tables[t].limit);
		jsonw_name(w, "used");
		if (cap->has_stat[t])
			jsonw_uint(w, cap->used[t]);
		else
			jsonw_null(w);
		jsonw_name(w, "max");
		if (cap->max[t])
			jsonw_uint(w, cap->max[t]);
		else
			jsonw_null(w);
		jsonw_name(w, "counted");
		if (cap->has_counted[t])
			jsonw_uint(w, cap->counted[t]);
		else
			jsonw_null(w);
		jsonw_name(w, "growth_per_min");
		if (cap->has_growth[t])
			jsonw_int(w, round_ll(cap->growth_per_min[t]));
		else
			jsonw_null(w);
		jsonw_name(w, "projected");
		if (cap->proj.has && cap->proj.has_table[t])
			jsonw_uint(w, cap->proj.need[t]);
		else
			jsonw_null(w);
		jsonw_name(w, "full_in_s");
		if (capacity_full_in_s(cap, t) >= 0)
			jsonw_int(w, round_ll(capacity_full_in_s(cap, t)));
		else
			jsonw_null(w);
		jsonw_name(w, "consumers");
		jsonw_start_object(w);
		for (by = 0; by < CAP_BY_NR && cap->has_counted[t]; by++) {
			const struct cap_map *m = &cap->by[by];

			if (!by_applies(by, t))
				continue;
			jsonw_name(w, cap_by_name(by));
			jsonw_start_array(w);
			n = cap_map_top(m, t, idx, top);
			for (i = 0; i < n; i++) {
				jsonw_start_object(w);
				jsonw_string_field(w, "name", strset_str(&m->names, idx[i]));
				jsonw_uint_field(w, "rows", m->rows[idx[i]][t]);
				jsonw_end_object(w);
			}
			jsonw_end_array(w);
		}
		jsonw_end_object(w);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	free(idx);
}

void report_json_capacity(struct json_writer *w, const struct capacity *cap,
			  size_t top, const struct advice *a,
			  const struct cap_option_advice opts[CAP_OPT_NR])
{
	uint32_t *idx = xmalloc(top * sizeof(*idx));
	size_t i, n;
	int s, t;

	jsonw_start_object(w);
	jsonw_name(w, "boots");
	jsonw_start_array(w);
	for (i = 0; i < cap->nr_boots; i++)
		jsonw_int(w, cap->boots[i]);
	jsonw_end_array(w);
	jsonw_bool_field(w, "from_snapshot", cap->from_snapshot);
	jsonw_name(w, "projection");
	if (cap->proj.has) {
		jsonw_start_object(w);
		jsonw_int_field(w, "boot", cap->proj.boot);
		jsonw_int_field(w, "start_sample", cap->proj.start_idx);
		jsonw_int_field(w, "start_ms", cap->proj.start_ms);
		jsonw_int_field(w, "out_ms", cap->proj.out_ms);
		jsonw_int_field(w, "workload_ms", cap->proj.workload_ms);
		jsonw_end_object(w);
	} else {
		jsonw_null(w);
	}
	json_tables(w, cap, top);
	jsonw_uint_field(w, "dependencies", cap->deps);
	t = capacity_fullest(cap);
	jsonw_string_field(w, "fullest", t >= 0 ? cap_tables[t].key : NULL);
	jsonw_name(w, "shapes");
	jsonw_start_array(w);
	for (s = 0; s < CAP_SHAPE_NR; s++) {
		const struct cap_map *m = &cap->shapes[s];

		n = shape_top(cap, s, idx, top);
		for (i = 0; i < n; i++) {
			jsonw_start_object(w);
			jsonw_string_field(w, "shape", cap_shape_key(s));
			jsonw_string_field(w, "subject", strset_str(&m->names, idx[i]));
			jsonw_uint_field(w, "count", m->count[idx[i]]);
			jsonw_uint_field(w, "distinct", m->extra[idx[i]]);
			json_rows(w, cap, m->rows[idx[i]]);
			jsonw_end_object(w);
		}
	}
	jsonw_end_array(w);
	jsonw_name(w, "other_stats");
	jsonw_start_array(w);
	for (i = 0; i < cap->nr_other; i++) {
		jsonw_start_object(w);
		jsonw_string_field(w, "name", cap->other[i].name);
		jsonw_uint_field(w, "value", cap->other[i].value);
		jsonw_name(w, "max");
		if (cap->other[i].has_max)
			jsonw_uint(w, cap->other[i].max);
		else
			jsonw_null(w);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	report_json_strings(w, "notes", cap->notes, cap->nr_notes);
	jsonw_name(w, "options");
	jsonw_start_array(w);
	for (i = 0; i < CAP_OPT_NR; i++) {
		jsonw_start_object(w);
		jsonw_string_field(w, "name", opts[i].name);
		jsonw_name(w, "current");
		if (opts[i].current)
			jsonw_uint(w, opts[i].current);
		else
			jsonw_null(w);
		jsonw_uint_field(w, "advised", opts[i].advised);
		jsonw_name(w, "bytes_current");
		if (opts[i].bytes_current >= 0)
			jsonw_int(w, opts[i].bytes_current);
		else
			jsonw_null(w);
		jsonw_int_field(w, "bytes_advised", opts[i].bytes_advised);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	report_json_advice(w, a);
	jsonw_end_object(w);
	free(idx);
}

void report_capacity_fragment(FILE *out, const struct capacity *cap,
			      unsigned int headroom,
			      const struct cap_option_advice opts[CAP_OPT_NR])
{
	size_t i;

	fprintf(out, "# lockdep-report --capacity --headroom=%u of ", headroom);
	print_boots(out, cap);
	fputc('\n', out);
	for (i = 0; i < CAP_OPT_NR; i++)
		fprintf(out, "%s=%u\n", opts[i].name, opts[i].advised);
}
