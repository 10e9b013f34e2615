// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness of the /proc/lockdep_stats parser (src/parse/proc-stats.h). */
#include "fuzz.h"
#include "parse/proc-stats.h"

static int on_stat(const struct proc_lockdep_stat *s, void *ctx)
{
	*(unsigned int *)ctx += fuzz_touch(s->label, s->label_len);
	FUZZ_CHECK(s->label_len > 0);
	FUZZ_CHECK(s->has_max || s->max == 0);
	FUZZ_CHECK(s->known == proc_lockdep_stat_known(s->label, s->label_len));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct proc_stats_ops ops = { on_stat };
	struct proc_parse_stats st;
	FILE *f = fuzz_open(data, size);
	unsigned int sum = 0;

	if (!f)
		return 0;
	FUZZ_CHECK(proc_stats_parse(f, "fuzz", PROC_PARSE_QUIET, &ops, &sum,
				    &st) == 0);
	FUZZ_CHECK(st.records + st.bad <= st.lines);
	fclose(f);
	return 0;
}
