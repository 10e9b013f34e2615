// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness of the /proc/lockdep_chains parser (src/parse/proc-chains.h). */
#include <string.h>

#include "fuzz.h"
#include "parse/proc-chains.h"

static int on_chain(const struct proc_lockdep_chain *c, void *ctx)
{
	size_t i;

	FUZZ_CHECK(c->irq_context <= (PROC_CHAIN_HARDIRQ | PROC_CHAIN_SOFTIRQ));
	fuzz_touch(c->irq_text, strlen(c->irq_text));
	FUZZ_CHECK(c->nr_classes == 0 || c->classes != NULL);
	for (i = 0; i < c->nr_classes; i++) {
		*(unsigned int *)ctx += fuzz_touch(c->classes[i].name,
						   c->classes[i].name_len);
		FUZZ_CHECK(c->classes[i].line > c->line);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct proc_chains_ops ops = { on_chain };
	struct proc_parse_stats st;
	FILE *f = fuzz_open(data, size);
	unsigned int sum = 0;

	if (!f)
		return 0;
	FUZZ_CHECK(proc_chains_parse(f, "fuzz", PROC_PARSE_QUIET, &ops, &sum,
				     &st) == 0);
	FUZZ_CHECK(st.records + st.bad <= st.lines);
	fclose(f);
	return 0;
}
