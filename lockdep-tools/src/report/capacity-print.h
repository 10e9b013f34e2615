/* SPDX-License-Identifier: GPL-2.0 */
/* lockdep-report --capacity's printers (report/capacity.h). */
#ifndef REPORT_CAPACITY_PRINT_H
#define REPORT_CAPACITY_PRINT_H

#include <stddef.h>
#include <stdio.h>

#include "advise/capacity.h"
#include "report/capacity.h"
#include "util/json-writer.h"

/* Tables, consumers (@top of each grouping), shapes, headroom, advice. */
void report_print_capacity(FILE *out, const struct capacity *cap, size_t top,
			   const struct advice *a);
/* "headroom: fullest table T P % (U of M); top consumer C P % of it" */
void report_print_headroom(FILE *out, const struct capacity *cap);
/* The same as one JSON object (lockdep-report(1), CAPACITY). */
void report_json_capacity(struct json_writer *w, const struct capacity *cap,
			  size_t top, const struct advice *a,
			  const struct cap_option_advice opts[CAP_OPT_NR]);
/* The advised options as a Kconfig fragment, every option a line. */
void report_capacity_fragment(FILE *out, const struct capacity *cap,
			      unsigned int headroom,
			      const struct cap_option_advice opts[CAP_OPT_NR]);

#endif
