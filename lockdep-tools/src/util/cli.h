/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every tool's main() shares: the exit codes, --help on standard
 * output, and usage errors on standard error followed by the usage.
 *
 *   cli_init(argv[0], usage_line);
 *   ...
 *   case 'h':
 *           print_help();
 *           return cli_help_done();
 *   default:
 *           return cli_usage();
 *   ...
 *   if (!db)
 *           return cli_usage_error("--db is required");
 *   ...
 *   return cli_exit(ret);
 */
#ifndef UTIL_CLI_H
#define UTIL_CLI_H

#include <stddef.h>

/* The exit codes of every tool (1 may mean more than "partial"). */
enum cli_exit_code {
	EXIT_OK = 0,
	EXIT_PARTIAL = 1,
	EXIT_FATAL = 2,
	/* lockdep-collect: complete, but the kernel lacks an optional source */
	EXIT_NOT_OFFERED = 3,
	EXIT_USAGE = 64,
};

/* Set once by main(): the program name for error() and the usage text. */
void cli_init(const char *argv0, const char *usage);

/*
 * After the help was printed on standard output: EXIT_OK, or EXIT_FATAL
 * if it did not reach its reader (a full disk, a closed pipe).
 */
int cli_help_done(void);

/* The usage on standard error; returns EXIT_USAGE. */
int cli_usage(void);

/* error(fmt, ...), then the usage; returns EXIT_USAGE. */
__attribute__((format(printf, 1, 2)))
int cli_usage_error(const char *fmt, ...);

/*
 * A number of the command line (a count, a limit, an id): decimal
 * digits alone, no sign, space or base prefix, at most @max. strtoull()
 * alone takes " -1" (and wraps it), "+5" and " 5". Returns 0 and sets
 * *@v, or -1.
 */
int cli_parse_uint(const char *arg, unsigned long long max,
		   unsigned long long *v);

/*
 * The same rule for a number inside a line (a MANIFEST field, a range's
 * ends): the @len bytes at @s are decimal digits alone, at most @max.
 */
int parse_decimal(const char *s, size_t len, unsigned long long max,
		  unsigned long long *v);

/*
 * The tool's last word: @ret, unless standard output cannot be flushed
 * (ENOSPC, EIO: checked on the way out, as perf does), which is said
 * and is EXIT_FATAL.
 */
int cli_exit(int ret);

#endif
