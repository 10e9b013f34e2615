// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the kernel log report parser (src/parse/klog.h):
 * any input gives reports whose indexes are valid (report.h invariant 1)
 * and whose required strings are set (invariant 4), and advice on each
 * (src/advise/) with a verdict and a rule, an annotation only for two
 * instances or a release order, and no patch without a source tree
 * (with no_patch saying why, when there is a change or a choice).
 */
#include <string.h>

#include "fuzz.h"
#include "advise/advise.h"
#include "parse/klog.h"
#include "util/line-reader.h"

static void check_index(int i, size_t nr)
{
	FUZZ_CHECK(i == -1 || (i >= 0 && (size_t)i < nr));
}

static void check_advice(const struct ldr_report *r)
{
	struct advice a;

	advise_report(r, NULL, &a);
	FUZZ_CHECK(adv_verdict_key(a.verdict) && a.rule && !a.patch);
	FUZZ_CHECK(a.no_patch || (!a.nr_changes && !a.nr_choices));
	FUZZ_CHECK(a.verdict != ADV_ANNOTATE ||
		   !strcmp(a.rule, "recursive-two-instances") ||
		   !strcmp(a.rule, "recursive-same-site") ||
		   !strcmp(a.rule, "unlock-order"));
	advice_release(&a);
}

static void on_report(struct ldr_report *r, void *data)
{
	size_t i;

	(void)data;
	FUZZ_CHECK(ldr_type_name(r->type) != NULL);
	FUZZ_CHECK(r->title && r->dedup_key && r->input && r->header);
	check_index(r->backtrace, r->nr_stacks);
	for (i = 0; i < r->nr_chain; i++) {
		check_index(r->chain[i].lock, r->nr_locks);
		check_index(r->chain[i].stack, r->nr_stacks);
	}
	for (i = 0; i < r->nr_stacks; i++)
		check_index(r->stacks[i].lock, r->nr_locks);
	for (i = 0; i < r->nr_locks; i++) {
		FUZZ_CHECK(r->locks[i].name && r->locks[i].class_name);
		FUZZ_CHECK(ldr_role_name(r->locks[i].role) != NULL);
		FUZZ_CHECK(strlen(r->locks[i].class_name) <=
			   strlen(r->locks[i].name));
	}
	check_advice(r);
	report_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fuzz_open(data, size);
	unsigned int next_id = 1;

	if (!f)
		return 0;
	/* only a line over the bound may fail it */
	FUZZ_CHECK(klog_parse_stream(f, "fuzz", &next_id, on_report,
				     NULL) == 0 || size > LINE_READER_MAX);
	fclose(f);
	return 0;
}
