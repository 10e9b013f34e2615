/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel log parser: finds and parses every lockdep report in a console
 * capture, dmesg output, syslog or journal (klog-line.h for the line
 * formats). One pass, one line of look-ahead, memory bounded by the
 * reports still open.
 *
 * Reports are handed to the callback as soon as they end, in the order
 * they end, numbered from first_id. The callback owns the report and
 * must report_free() it.
 */
#ifndef PARSE_KLOG_H
#define PARSE_KLOG_H

#include <stddef.h>
#include <stdio.h>

#include "parse/report.h"

typedef void (*klog_report_fn)(struct ldr_report *r, void *data);

struct klog_parser;

struct klog_parser *klog_parser_new(const char *input, unsigned int first_id,
				    klog_report_fn fn, void *data);
/* One physical line without its '\n'; line numbers count from 1. */
void klog_parser_push(struct klog_parser *p, const char *s, size_t len);
/* End of input: every report still open is ended (and marked truncated). */
void klog_parser_finish(struct klog_parser *p);
/* The id the next report would get. */
unsigned int klog_parser_next_id(const struct klog_parser *p);
void klog_parser_free(struct klog_parser *p);

/*
 * Parse a whole stream (line-reader.h: lines are bounded). Returns 0, or
 * -1 after printing why when a line was too long or reading failed (the
 * reports parsed up to there have been delivered).
 */
int klog_parse_stream(FILE *in, const char *input, unsigned int *next_id,
		      klog_report_fn fn, void *data);

#endif
