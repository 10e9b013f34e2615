// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel log source: a console capture, dmesg output, syslog or
 * journal, line by line into the kernel log parser.
 *
 * A log is text. Binary input is refused the way git and grep tell it:
 * a NUL byte in the first 8000 bytes (a serial console's stray NUL later
 * on is kept and shown as '?' by the parser).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/db-sink.h"
#include "collect/sources.h"
#include "util/error.h"

#define BINARY_PROBE	8000

int source_log(const char *path, struct collect_sink *sink)
{
	bool is_stdin = !strcmp(path, "-");
	FILE *in = is_stdin ? stdin : fopen(path, "r");
	unsigned long lineno = 0;
	size_t cap = 0, seen = 0;
	char *line = NULL;
	ssize_t n;
	int ret = 0;

	if (!in)
		return error("unable to open '%s': %s", path, strerror(errno));
	while ((n = getline(&line, &cap, in)) > 0) {
		lineno++;
		if (seen < BINARY_PROBE && memchr(line, '\0', n)) {
			ret = error("%s:%lu: binary data (a NUL byte), not a kernel log",
				    path, lineno);
			break;
		}
		seen += n;
		if (line[n - 1] == '\n')
			n--;
		if (db_sink_log_line(sink, line, n)) {
			ret = -1;
			break;
		}
	}
	if (!ret && ferror(in))
		ret = error("unable to read '%s': %s", path, strerror(errno));
	free(line);
	if (!is_stdin)
		fclose(in);
	return ret;
}
