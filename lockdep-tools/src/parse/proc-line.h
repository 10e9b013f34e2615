/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The line reader and the small scanners the /proc parsers share
 * (internal to src/parse/proc-*.c and selftest.c).
 *
 * Invariants:
 *  (1) After proc_reader_next() returns true, line[0..len) is one
 *      physical line (at most LINE_READER_MAX bytes, line-reader.h)
 *      without its '\n' (nor a trailing '\r' with PROC_PARSE_CRLF),
 *      NUL-terminated
 *      at len, and lineno is its 1-based number; both stay valid until
 *      the next call.
 *  (2) proc_bad() counts every malformed line in st->bad and warns only
 *      for the first PROC_MAX_WARNINGS (none with PROC_PARSE_QUIET);
 *      proc_reader_finish() says how many were not shown and reports a
 *      read error.
 */
#ifndef PARSE_PROC_LINE_H
#define PARSE_PROC_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "parse/proc-common.h"
#include "util/line-reader.h"

struct proc_reader {
	FILE *in;
	const char *input;
	unsigned int flags;
	struct proc_parse_stats *st;
	struct proc_parse_stats own;	/* when the caller passed no stats */
	struct line_reader lr;
	bool failed;		/* a line too long, or a read error */
	char *line;		/* lr's line (without '\r' for PROC_PARSE_CRLF) */
	size_t len;
	unsigned long lineno;
};

void proc_reader_init(struct proc_reader *rd, FILE *in, const char *input,
		      unsigned int flags, struct proc_parse_stats *st);
bool proc_reader_next(struct proc_reader *rd);
__attribute__((format(printf, 2, 3)))
void proc_bad(struct proc_reader *rd, const char *fmt, ...);
/*
 * Returns 0, or -1 if a line was too long or reading failed (said when it
 * happened). Frees the line.
 */
int proc_reader_finish(struct proc_reader *rd);

/* ---- scanners over [*p, end): advance *p only on success ---- */

void proc_skip_blanks(const char **p, const char *end);
bool proc_is_blank(const char *s, size_t len);
/* Exact prefix match. */
bool proc_eat(const char **p, const char *end, const char *lit);
/* Decimal, no sign; false on no digit or overflow. */
bool proc_eat_ulong(const char **p, const char *end, unsigned long long *v);
/* Decimal with optional leading '-'; false on overflow. */
bool proc_eat_long(const char **p, const char *end, long *v);
/* 1..16 hex digits, optional "0x". */
bool proc_eat_hex(const char **p, const char *end, unsigned long long *v);
/*
 * A printed %p: hex digits, or "(____ptrval____)" / "(null)" giving
 * *has false. Stops at the first character that is not part of it.
 */
bool proc_eat_ptr(const char **p, const char *end, unsigned long long *v,
		  bool *has);

/*
 * Split name[0..len) = class[#version][/subclass]: returns the class
 * length and fills version and subclass (0 when absent). The one lock-name
 * splitter, for logs as for /proc (the class identity follows it,
 * store/identity.h): a suffix is 1 to 9 digits with something before its
 * separator; a longer run of digits is part of the name.
 */
size_t proc_split_name(const char *name, size_t len, unsigned int *version,
		       unsigned int *subclass);

#endif
