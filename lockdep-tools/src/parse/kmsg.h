/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parser of the /dev/kmsg record format: the kmsg file of a raw
 * directory (lockdep-collect(1)) and the records of the agent's KMSG
 * stream, which are the same bytes.
 *
 *   <prio>,<seq>,<usec>,<flags>[,<field>=<value>...];<text>
 *    <KEY>=<value>                   (dictionary lines, after a record)
 *
 * prio is syslog facility * 8 + level, seq the record's sequence number,
 * usec the timestamp in microseconds, flags '-' (or 'c' for a fragment,
 * kernels before 4.9); the optional fields are the kernel's own, such as
 * "caller=T123" (CONFIG_PRINTK_CALLER; a caller id other than T<pid> or
 * C<cpu> is malformed). In text the kernel escaped every
 * byte below 0x20, above 0x7e and '\' as "\xNN" (so a multi-line message
 * is one record with \x0a in it).
 *
 * Each record becomes one kernel log line per line of its text, in the
 * dmesg form the kernel log parser reads (klog-line.h):
 *
 *   [   12.345678][    T123] text
 *
 * (the caller tag only when the record had one), so the reports of a
 * kmsg stream are found by the same parser as those of a console log.
 * Dictionary lines are checked and dropped.
 *
 * Invariants:
 *  (1) A malformed line is an error: error() says "<input>:<line>: ..."
 *      and the push returns -1; the caller decides whether to go on.
 *      Nothing is emitted for that line.
 *  (2) Sequence numbers only grow; one that does not is malformed (a gap
 *      is not: records get overwritten in the guest's buffer).
 *  (3) Line numbers count the physical lines of the kmsg file: a record
 *      pushed whole counts 1 + its dictionary lines.
 */
#ifndef PARSE_KMSG_H
#define PARSE_KMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One kernel log line (no '\n'; may hold any byte but '\n'). */
typedef void (*kmsg_line_fn)(const char *line, size_t len, void *data);

struct kmsg_parser;

struct kmsg_parser *kmsg_parser_new(const char *input, kmsg_line_fn fn,
				    void *data);
void kmsg_parser_free(struct kmsg_parser *p);

/* One physical line of a kmsg file, without its '\n'. */
int kmsg_parser_push_line(struct kmsg_parser *p, const char *s, size_t len);

/* One record as read from /dev/kmsg: a line and its dictionary lines. */
int kmsg_parser_push_record(struct kmsg_parser *p, const uint8_t *rec,
			    size_t len);

/* Records parsed so far, and the last physical line number. */
uint64_t kmsg_parser_records(const struct kmsg_parser *p);
unsigned long kmsg_parser_lineno(const struct kmsg_parser *p);
/* The timestamp (microseconds) of the last record, 0 before the first. */
unsigned long long kmsg_parser_last_usec(const struct kmsg_parser *p);
/* The sequence number of the last record (of the line being emitted). */
uint64_t kmsg_parser_last_seq(const struct kmsg_parser *p);

#endif
