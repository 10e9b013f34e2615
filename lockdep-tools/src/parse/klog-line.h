/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel log lines: from the physical lines of a console capture, dmesg
 * output, syslog or journal file to the logical lines printk() wrote.
 *
 * Every physical line loses its prefixes, in any order and combination:
 *   <4>                                   /dev/kmsg style log level
 *   Jul 22 14:36:40 host kernel:          syslog / journalctl
 *   2020-12-16T13:30:45.1+01:00 host kernel:   ISO syslog
 *   [   52.511814]   [ 1.2 < 0.3>]        printk time (dmesg -d)
 *   [Wed Dec 16 13:30:45 2020]            dmesg -T
 *   [Dec16 13:30]  [  +0.000012]          dmesg -H
 *   [ T6505]  [  C1]                      PRINTK_CALLER tag (kept)
 *   kernel:                               forwarded syslog, no host
 *   00:                                   z/VM console CPU number
 *   login: [  16.3] ...                   console text glued before a
 *                                         time stamp (dropped)
 * and its trailing CR. rsyslog's "#012" (newline) and "#011" (tab)
 * escapes split or expand syslog lines again.
 *
 * Hard-wrapped lines are joined back (mail clients, dmesg continuation
 * lines). The rule, which needs one line of look-ahead:
 *  (1) in a prefixed log, a line without a prefix continues the line
 *      before it, unless that one closed a block ("</TASK>", a banner),
 *      this one opens a report (a banner, "WARNING: ", "BUG: ", "INFO: ",
 *      "[ "), or the line already took KLOG_MAX_JOINS continuations (a
 *      block of unprefixed user space output on a console is not glued
 *      into one line);
 *  (2) in an unprefixed log, a line that starts in column 0 with a
 *      symbol or '[' continues one that ended mid-sentence: after a
 *      lock's ", at:" or after a bare frame address ("[<c0123>]",
 *      "[func+1/2]") with its symbol missing; and (2b) a line that is
 *      only the tail of a syzbot frame ("fs/x.c:12 [inline]",
 *      "[inline]") continues a frame or "at:" site that lacks it (a
 *      mail client wrapped it at 80 columns);
 *  (3) in any log, a line starting "/0x" continues a frame cut after
 *      its offset ("try_to_wake_up+0xce" / "/0xd88"), without a space.
 * Joined pieces are separated by one space; a blank piece vanishes.
 */
#ifndef PARSE_KLOG_LINE_H
#define PARSE_KLOG_LINE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strbuf.h"

#define KLOG_CALLER_MAX 16
/* A logical line longer than this stops taking continuation lines. */
#define KLOG_LINE_MAX (1 << 20)
/* Rule (1) joins at most this many lines onto a prefixed one. */
#define KLOG_MAX_JOINS 4

struct klog_line {
	const char *text;	/* NUL-terminated; NUL bytes read became '?' */
	size_t len;
	unsigned long lineno;	/* physical line it started on, 1-based */
	const char *caller;	/* "T123", "C1", or "" */
	bool had_nul;		/* some '?' of text was a NUL byte */
};

typedef void (*klog_line_fn)(const struct klog_line *line, void *data);

/* What klog_strip_prefix() found at the start of a physical line. */
struct klog_prefix {
	bool any;		/* some prefix was stripped */
	bool syslog;		/* a "kernel:" syslog/journal prefix */
	bool cpu;		/* a z/VM "00: " CPU prefix */
	char caller[KLOG_CALLER_MAX];
};

/* Offset of the message after all prefixes of s[0..len). */
size_t klog_strip_prefix(const char *s, size_t len, struct klog_prefix *p);

struct klog_reader {
	klog_line_fn fn;
	void *data;
	struct strbuf pending;
	bool have_pending;
	struct klog_prefix pending_prefix;
	unsigned long pending_lineno;
	unsigned int pending_joins;
	bool pending_nul;	/* a NUL byte of it became '?' */
};

void klog_reader_init(struct klog_reader *rd, klog_line_fn fn, void *data);
/* One physical line, without its '\n'. */
void klog_reader_push(struct klog_reader *rd, const char *s, size_t len,
		      unsigned long lineno);
/* Emit the line still held for look-ahead (at end of input). */
void klog_reader_flush(struct klog_reader *rd);
void klog_reader_release(struct klog_reader *rd);

#endif
