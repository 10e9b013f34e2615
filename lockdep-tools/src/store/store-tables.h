/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The small tables of a boot, read back for lockdep-diff: the boot's own
 * row, /proc/lockdep_stats, the self-test cells and the reports by dedup
 * key. Each reader calls @fn once per row, in the order the kernel
 * printed them (reports: first seen first); the row's strings live until
 * @fn returns. A non-zero return from @fn stops and is returned; -1 after
 * an SQLite error, printed.
 */
#ifndef STORE_STORE_TABLES_H
#define STORE_STORE_TABLES_H

#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

/* What a boot was (copies; NULL: not known). */
struct store_boot_info {
	char *label, *kernel_release, *build_id, *completeness;
};

/* Boot @boot into *@b (release it): 1, 0 if there is no such boot, -1. */
int store_boot_info(struct store *st, int64_t boot, struct store_boot_info *b);
void store_boot_info_release(struct store_boot_info *b);

struct store_stat_row {
	const char *name;
	unsigned long long value, max;
	bool has_max;
};
int store_stat_foreach(struct store *st, int64_t boot,
		       int (*fn)(const struct store_stat_row *r, void *data),
		       void *data);

struct store_selftest_row {
	const char *section, *test, *variant;	/* "" if NULL */
	const char *result;			/* may be NULL */
};
int store_selftest_foreach(struct store *st, int64_t boot,
			   int (*fn)(const struct store_selftest_row *r,
				     void *data),
			   void *data);

/* The reports of one dedup key: its first report's type and title. */
struct store_report_key_row {
	const char *dedup_key;		/* "" if NULL */
	const char *type, *title;	/* may be NULL */
	unsigned int count;
};
int store_report_key_foreach(struct store *st, int64_t boot,
			     int (*fn)(const struct store_report_key_row *r,
				       void *data),
			     void *data);

#endif
