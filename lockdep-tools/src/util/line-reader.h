/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lines of a text input, bounded. getline() grows its buffer until
 * malloc() fails and then reports ENOMEM as the end of the input: a
 * line with no end (/dev/zero, a binary file) dropped everything after
 * it in silence. Every tool reads its text inputs through this reader
 * instead, and a line longer than LINE_READER_MAX is an error naming
 * the input and the line.
 *
 *   struct line_reader lr;
 *
 *   line_reader_init(&lr, fp, "console.log");
 *   while ((ret = line_reader_next(&lr)) > 0)
 *           use(lr.line, lr.len);
 *   line_reader_release(&lr);
 *   if (ret < 0) ... the error was printed
 *
 * Invariants: after line_reader_next() returned 1, line[0..len) is one
 * line without its '\n' (NUL bytes included), line[len] is NUL, and
 * lineno is its 1-based number; both stay valid until the next call.
 */
#ifndef UTIL_LINE_READER_H
#define UTIL_LINE_READER_H

#include <stddef.h>
#include <stdio.h>

/* Far above any line the kernel prints (a kmsg record is < 8 KiB). */
#define LINE_READER_MAX	(1u << 20)

struct line_reader {
	FILE *in;
	const char *input;	/* its name in messages */
	char *line;
	size_t len, alloc;
	unsigned long lineno;
};

void line_reader_init(struct line_reader *lr, FILE *in, const char *input);

/*
 * 1: the next line is in lr->line; 0: the end of the input; -1 after
 * printing "INPUT:LINE: a line longer than ... bytes" or "unable to read
 * 'INPUT': ...".
 */
int line_reader_next(struct line_reader *lr);

void line_reader_release(struct line_reader *lr);

#endif
