// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness of the boot self-test table parser (src/parse/selftest.h). */
#include <string.h>

#include "fuzz.h"
#include "parse/selftest.h"

static int on_row(const struct selftest_row *r, void *ctx)
{
	size_t i;

	*(unsigned int *)ctx += fuzz_touch(r->name, r->name_len);
	fuzz_touch(r->section, strlen(r->section));
	for (i = 0; i < r->nr_cells; i++) {
		FUZZ_CHECK(r->cells[i].column == i);
		FUZZ_CHECK(selftest_result_name(r->cells[i].result) != NULL);
		if (r->cells[i].column_name)
			fuzz_touch(r->cells[i].column_name,
				   strlen(r->cells[i].column_name));
	}
	return 0;
}

static int on_summary(const struct selftest_summary *s, void *ctx)
{
	(void)ctx;
	FUZZ_CHECK(s->outcome <= SELFTEST_UNEXPECTED_FAILURES);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct selftest_ops ops = { on_row, on_summary };
	struct proc_parse_stats st;
	FILE *f = fuzz_open(data, size);
	unsigned int sum = 0;

	if (!f)
		return 0;
	FUZZ_CHECK(selftest_parse(f, "fuzz", PROC_PARSE_QUIET, &ops, &sum,
				  &st) == 0);
	FUZZ_CHECK(st.records + st.bad <= st.lines);
	fclose(f);
	return 0;
}
