// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness of the graph export's parser (src/parse/proc-graph.h). */
#include <string.h>

#include "fuzz.h"
#include "parse/proc-graph.h"

struct seen {
	unsigned int sum;
	bool header;
	unsigned int nr_usage_bits, nr_dep_bits;
	long usage_class;	/* the class usage records may follow */
};

static int on_header(const struct proc_graph_header *h, void *ctx)
{
	struct seen *s = ctx;
	unsigned int i;

	FUZZ_CHECK(!s->header);
	FUZZ_CHECK(h->version == PROC_GRAPH_VERSION);
	FUZZ_CHECK(h->nr_usage_bits >= 1 &&
		   h->nr_usage_bits <= PROC_GRAPH_MAX_USAGE_BITS);
	FUZZ_CHECK(h->nr_dep_bits >= 1 &&
		   h->nr_dep_bits <= PROC_GRAPH_MAX_DEP_BITS);
	s->sum += fuzz_touch(h->release, strlen(h->release));
	s->sum += fuzz_touch(h->build_id, strlen(h->build_id));
	for (i = 0; i < h->nr_usage_bits; i++)
		s->sum += fuzz_touch(h->usage_bits[i], strlen(h->usage_bits[i]));
	for (i = 0; i < h->nr_dep_bits; i++)
		s->sum += fuzz_touch(h->dep_bits[i], strlen(h->dep_bits[i]));
	s->header = true;
	s->nr_usage_bits = h->nr_usage_bits;
	s->nr_dep_bits = h->nr_dep_bits;
	return 0;
}

static int on_class(const struct proc_graph_class *c, void *ctx)
{
	struct seen *s = ctx;

	FUZZ_CHECK(s->header);
	FUZZ_CHECK(c->idx < PROC_GRAPH_MAX_CLASSES);
	FUZZ_CHECK(c->name_len > 0);
	s->sum += fuzz_touch(c->name, c->name_len);
	s->sum += fuzz_touch(c->wait_inner, strlen(c->wait_inner));
	s->sum += fuzz_touch(c->wait_outer, strlen(c->wait_outer));
	s->usage_class = c->idx;
	return 0;
}

static int on_usage(const struct proc_graph_usage *u, void *ctx)
{
	struct seen *s = ctx;

	FUZZ_CHECK(s->header);
	FUZZ_CHECK((long)u->class_idx == s->usage_class);
	FUZZ_CHECK(u->bit < s->nr_usage_bits);
	return 0;
}

static int on_dep(const struct proc_graph_dep *d, void *ctx)
{
	struct seen *s = ctx;

	FUZZ_CHECK(s->header);
	FUZZ_CHECK(d->from < PROC_GRAPH_MAX_CLASSES &&
		   d->to < PROC_GRAPH_MAX_CLASSES);
	FUZZ_CHECK(!(d->dep_mask >> s->nr_dep_bits));
	s->usage_class = -1;
	return 0;
}

static int on_chain(const struct proc_graph_chain *c, void *ctx)
{
	struct seen *s = ctx;
	size_t i;

	FUZZ_CHECK(s->header);
	FUZZ_CHECK(c->irq_context <= 3);
	FUZZ_CHECK(c->depth == 0 || c->classes != NULL);
	for (i = 0; i < c->depth; i++)
		FUZZ_CHECK(c->classes[i] < PROC_GRAPH_MAX_CLASSES);
	s->usage_class = -1;
	return 0;
}

static int on_trace(const struct proc_graph_trace *t, void *ctx)
{
	struct seen *s = ctx;
	size_t i;

	FUZZ_CHECK(s->header);
	FUZZ_CHECK(t->nr == 0 || t->addrs != NULL);
	for (i = 0; i < t->nr; i++)
		s->sum += (unsigned int)t->addrs[i];
	s->usage_class = -1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct proc_graph_ops ops = {
		on_header, on_class, on_usage, on_dep, on_chain, on_trace,
	};
	struct proc_parse_stats st;
	struct seen s = { .usage_class = -1 };
	FILE *f = fuzz_open(data, size);
	int ret;

	if (!f)
		return 0;
	ret = proc_graph_parse(f, "fuzz", PROC_PARSE_QUIET, &ops, &s, &st);
	/* 0, or -1 for an input that is not an export at all */
	FUZZ_CHECK(ret == 0 || ret == -1);
	FUZZ_CHECK(ret == 0 || (!s.header && st.records == 0));
	FUZZ_CHECK(st.records + st.bad <= st.lines);
	FUZZ_CHECK(!s.header == !(st.notes & PROC_NOTE_HEADER));
	fclose(f);
	return 0;
}
