// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the /proc/lockdep_stats parser (src/parse/proc-stats.h),
 * as one file and as the agent's series of samples.
 */
#include "fuzz.h"
#include "parse/proc-stats.h"

struct seen {
	unsigned int sum;
	bool series;
	unsigned long samples, records, last_line;
};

static int on_stat(const struct proc_lockdep_stat *s, void *ctx)
{
	struct seen *v = ctx;

	v->sum += fuzz_touch(s->label, s->label_len);
	FUZZ_CHECK(s->label_len > 0);
	FUZZ_CHECK(s->has_max || s->max == 0);
	FUZZ_CHECK(s->known == proc_lockdep_stat_known(s->label, s->label_len));
	/* a series has no record before its first header */
	FUZZ_CHECK(!v->series || v->samples > 0);
	FUZZ_CHECK(s->line > v->last_line);
	v->last_line = s->line;
	v->records++;
	return 0;
}

static int on_sample(const struct proc_stats_sample *h, void *ctx)
{
	struct seen *v = ctx;

	/* headers only in a series, in line order, of the two kinds */
	FUZZ_CHECK(v->series);
	FUZZ_CHECK(h->kind == PROC_STATS_PERIODIC ||
		   h->kind == PROC_STATS_SNAPSHOT);
	FUZZ_CHECK(h->line > v->last_line);
	v->last_line = h->line;
	v->samples++;
	return 0;
}

static void parse(const uint8_t *data, size_t size, bool series)
{
	static const struct proc_stats_ops ops = { on_stat, on_sample };
	struct proc_parse_stats st;
	struct seen v = { .series = series };
	FILE *f = fuzz_open(data, size);

	if (!f)
		return;
	FUZZ_CHECK(proc_stats_parse(f, "fuzz", PROC_PARSE_QUIET |
				    (series ? PROC_PARSE_STATS_SERIES : 0),
				    &ops, &v, &st) == 0);
	FUZZ_CHECK(st.records == v.records);
	/* each line is a record, a header, malformed or blank: never two */
	FUZZ_CHECK(st.records + v.samples + st.bad <= st.lines);
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	parse(data, size, false);
	parse(data, size, true);
	return 0;
}
