// SPDX-License-Identifier: GPL-2.0
/* Bounded lines of a text input; see line-reader.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/line-reader.h"
#include "util/xalloc.h"

void line_reader_init(struct line_reader *lr, FILE *in, const char *input)
{
	memset(lr, 0, sizeof(*lr));
	lr->in = in;
	lr->input = input;
}

int line_reader_next(struct line_reader *lr)
{
	int c;

	lr->len = 0;
	errno = 0;
	while ((c = getc_unlocked(lr->in)) != EOF && c != '\n') {
		if (lr->len == LINE_READER_MAX)
			return error("%s:%lu: a line longer than %u bytes",
				     lr->input, lr->lineno + 1,
				     LINE_READER_MAX);
		ALLOC_GROW(lr->line, lr->len + 2, lr->alloc);
		lr->line[lr->len++] = c;
	}
	if (c == EOF && ferror(lr->in))
		return error("unable to read '%s': %s", lr->input,
			     strerror(errno ? errno : EIO));
	if (c == EOF && !lr->len)
		return 0;
	ALLOC_GROW(lr->line, lr->len + 1, lr->alloc);
	lr->line[lr->len] = '\0';
	lr->lineno++;
	return 1;
}

void line_reader_release(struct line_reader *lr)
{
	free(lr->line);
	lr->line = NULL;
	lr->len = lr->alloc = 0;
}
