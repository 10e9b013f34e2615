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

int cli_parse_uint(const char *arg, unsigned long long max,
		   unsigned long long *v)
{
	unsigned long long n;

	if (!*arg || strspn(arg, "0123456789") != strlen(arg))
		return -1;
	errno = 0;
	n = strtoull(arg, NULL, 10);
	if (errno || n > max)
		return -1;
	*v = n;
	return 0;
}
