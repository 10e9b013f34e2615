// SPDX-License-Identifier: GPL-2.0
/*
 * A boot whose lockdep ran out, projected to its whole workload
 * (report/capacity.h, struct cap_projection).
 */
#include <stdlib.h>
#include <string.h>

#include "report/capacity.h"
#include "store/store-capacity.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* One sample of the series: its time, its place in the log, the tables. */
struct sample {
	long long idx, time_ms, kmsg_seq;
	bool snapshot, has_kmsg_seq;
	unsigned long long value[CAP_TABLE_NR];
	bool has[CAP_TABLE_NR];
};

struct series {
	struct sample *s;
	size_t nr, alloc;
};

static int sample_line(const struct store_cap_sample *l, void *data)
{
	struct series *se = data;
	struct sample *s = se->nr ? &se->s[se->nr - 1] : NULL;
	int t = cap_table_by_stat(l->name);

	if (!s || s->idx != l->idx) {
		ALLOC_GROW(se->s, se->nr + 1, se->alloc);
		s = &se->s[se->nr++];
		memset(s, 0, sizeof(*s));
		s->idx = l->idx;
		s->time_ms = l->time_ms;
		s->snapshot = l->snapshot;
		s->kmsg_seq = l->kmsg_seq;
		s->has_kmsg_seq = l->has_kmsg_seq;
	}
	if (t >= 0 && !s->has[t]) {	/* printed twice: the first counts */
		s->value[t] = l->value;
		s->has[t] = true;
	}
	return 0;
}

/* The need of a table that grew @from -> @to over @done of @whole ms. */
static unsigned long long project(unsigned long long from,
				  unsigned long long to, long long done,
				  long long whole)
{
	unsigned long long grown = to > from ? to - from : 0;

	/* rounded up: a projection is a need */
	return from + (grown * (unsigned long long)whole +
		       (unsigned long long)done - 1) / (unsigned long long)done;
}

int capacity_project(struct store *st, int64_t boot,
		     struct cap_projection *p, char **why_not)
{
	struct store_workload w;
	struct series se = { 0 };
	const struct sample *start = NULL, *out = NULL;
	struct strbuf sb = STRBUF_INIT;
	long long start_seq, workload_ms;
	size_t i;
	int ret, t;

	memset(p, 0, sizeof(*p));
	*why_not = NULL;
	ret = store_workload_load(st, boot, &w);
	if (ret < 0)
		return -1;
	start_seq = w.start_seq;
	workload_ms = w.duration_ms;
	if (!ret || w.state != STORE_WORKLOAD_EXITED || !w.has_start_seq)
		strbuf_addstr(&sb, !ret ? "the boot ran no workload" :
			      w.state != STORE_WORKLOAD_EXITED ?
			      "its workload did not end" :
			      "its workload has no start in the kernel log");
	store_workload_release(&w);
	if (sb.len)
		goto none;
	if (store_capacity_samples(st, boot, sample_line, &se))
		return -1;
	for (i = 0; i < se.nr && !out; i++) {
		const struct sample *s = &se.s[i];

		if (s->snapshot)
			out = s;
		else if (!start && s->has_kmsg_seq &&
			 s->kmsg_seq >= start_seq)
			start = s;
	}
	if (!out) {
		strbuf_addstr(&sb, "the series has no snapshot of the moment lockdep turned off");
		goto none;
	}
	if (!start) {
		strbuf_addstr(&sb, "no sample of the series was taken in the workload before lockdep turned off (or none says where it was in the kernel log)");
		goto none;
	}
	p->boot = boot;
	p->start_ms = start->time_ms;
	p->out_ms = out->time_ms;
	p->workload_ms = workload_ms;
	p->start_idx = start->idx;
	if (p->out_ms <= p->start_ms) {
		strbuf_addstr(&sb, "the snapshot is not after the workload's first sample");
		goto none;
	}
	for (t = 0; t < CAP_TABLE_NR; t++) {
		if (!start->has[t] || !out->has[t])
			continue;
		p->has_table[t] = true;
		p->at_start[t] = start->value[t];
		p->at_out[t] = out->value[t];
		/* ran out after the workload's end: its counts are whole */
		p->need[t] = p->out_ms - p->start_ms >= p->workload_ms ?
			out->value[t] :
			project(start->value[t], out->value[t],
				p->out_ms - p->start_ms, p->workload_ms);
	}
	p->has = true;
	free(se.s);
	return 0;
none:
	free(se.s);
	*why_not = strbuf_detach(&sb, NULL);
	return 0;
}
