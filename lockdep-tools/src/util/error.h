/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Diagnostics on stderr, one line each, prefixed with the program name:
 *
 *   lockdep-report: error: unable to open 'x.log': No such file or directory
 *   lockdep-report: warning: x.log:120: report 3 is truncated
 *
 * Messages follow the project rule: lower case, what failed first, the
 * subject quoted. error() returns -1 so callers can "return error(...)".
 */
#ifndef UTIL_ERROR_H
#define UTIL_ERROR_H

#include <stdarg.h>

/* Set once by main(); defaults to "lockdep-tools". */
void error_set_prog(const char *argv0);
const char *error_prog(void);

__attribute__((format(printf, 1, 2)))
int error(const char *fmt, ...);
__attribute__((format(printf, 1, 0)))
int verror(const char *fmt, va_list ap);
__attribute__((format(printf, 1, 2)))
void warning(const char *fmt, ...);

#endif
