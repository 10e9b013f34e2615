// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness of the /proc/lockdep parser (src/parse/proc-lockdep.h). */
#include "fuzz.h"
#include "parse/proc-lockdep.h"

static int on_class(const struct proc_lockdep_class *c, void *ctx)
{
	*(unsigned int *)ctx += fuzz_touch(c->name, c->name_len);
	FUZZ_CHECK(c->name_len > 0 && c->class_len <= c->name_len);
	if (c->usage)
		fuzz_touch(c->usage, c->usage_len);
	else
		FUZZ_CHECK(c->usage_len == 0 && c->usage_bits == 0);
	return 0;
}

static int on_dep(const struct proc_lockdep_class *from,
		  const struct proc_lockdep_dep *to, void *ctx)
{
	*(unsigned int *)ctx += fuzz_touch(from->name, from->name_len) +
				fuzz_touch(to->name, to->name_len);
	FUZZ_CHECK(to->line > from->line && to->class_len <= to->name_len);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct proc_lockdep_ops ops = { on_class, on_dep };
	struct proc_parse_stats st;
	FILE *f = fuzz_open(data, size);
	unsigned int sum = 0;

	if (!f)
		return 0;
	FUZZ_CHECK(proc_lockdep_parse(f, "fuzz", PROC_PARSE_QUIET |
				      (size & 1 ? PROC_PARSE_LEGACY_USAGE : 0),
				      &ops, &sum, &st) == 0);
	FUZZ_CHECK(st.records + st.bad <= st.lines * 2);
	fclose(f);
	return 0;
}
