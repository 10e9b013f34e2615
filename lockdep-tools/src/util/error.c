// SPDX-License-Identifier: GPL-2.0
/* One-line diagnostics on stderr; see error.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"

static const char *prog = "lockdep-tools";

void error_set_prog(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	prog = slash ? slash + 1 : argv0;
}

const char *error_prog(void)
{
	return prog;
}

static void report(const char *kind, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s: ", prog, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int verror(const char *fmt, va_list ap)
{
	report("error", fmt, ap);
	return -1;
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("warning", fmt, ap);
	va_end(ap);
}
