// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness of the /proc/lock_stat parser (src/parse/proc-lock-stat.h). */
#include "fuzz.h"
#include "parse/proc-lock-stat.h"

struct seen {
	unsigned int sum;
	unsigned long seq;
	int rows;
};

static int on_row(const struct proc_lock_stat_row *r, void *ctx)
{
	struct seen *s = ctx;

	s->sum += fuzz_touch(r->name, r->name_len);
	FUZZ_CHECK(r->rw == 0 || r->rw == 'W' || r->rw == 'R');
	FUZZ_CHECK(!s->rows || r->class_seq == s->seq ||
		   r->class_seq == s->seq + 1);
	s->seq = r->class_seq;
	s->rows = 1;
	return 0;
}

static int on_point(const struct proc_lock_stat_point *p, void *ctx)
{
	struct seen *s = ctx;

	s->sum += fuzz_touch(p->name, p->name_len);
	if (p->symbol)
		fuzz_touch(p->symbol, p->symbol_len);
	FUZZ_CHECK(s->rows && p->class_seq == s->seq);
	FUZZ_CHECK(p->kind == PROC_POINT_CONTENTION ||
		   p->kind == PROC_POINT_CONTENDING);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct proc_lock_stat_ops ops = { on_row, on_point };
	struct proc_parse_stats st;
	FILE *f = fuzz_open(data, size);
	struct seen s = { 0 };

	if (!f)
		return 0;
	FUZZ_CHECK(proc_lock_stat_parse(f, "fuzz", PROC_PARSE_QUIET, &ops, &s,
					&st) == 0);
	FUZZ_CHECK(st.records + st.bad <= st.lines);
	fclose(f);
	return 0;
}
