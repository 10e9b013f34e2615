// SPDX-License-Identifier: GPL-2.0
/* The command-line conventions every tool shares; see cli.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "util/error.h"

static const char *usage_text = "";

void cli_init(const char *argv0, const char *usage)
{
	error_set_prog(argv0);
	usage_text = usage;
}

static int stdout_failed(void)
{
	return fflush(stdout) || ferror(stdout);
}

int cli_help_done(void)
{
	return stdout_failed() ? EXIT_FATAL : EXIT_OK;
}

int cli_usage(void)
{
	fputs(usage_text, stderr);
	return EXIT_USAGE;
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
	return cli_usage();
}

int cli_exit(int ret)
{
	if (stdout_failed()) {
		error("unable to write output: %s", strerror(errno));
		return EXIT_FATAL;
	}
	return ret;
}

int parse_decimal(const char *s, size_t len, unsigned long long max,
		  unsigned long long *v)
{
	unsigned long long n = 0;
	size_t i;

	if (!len)
		return -1;
	for (i = 0; i < len; i++) {
		unsigned long long d = (unsigned long long)(s[i] - '0');

		if (s[i] < '0' || s[i] > '9' || d > max || n > (max - d) / 10)
			return -1;
		n = n * 10 + d;
	}
	*v = n;
	return 0;
}

int cli_parse_uint(const char *arg, unsigned long long max,
		   unsigned long long *v)
{
	return parse_decimal(arg, strlen(arg), max, v);
}
