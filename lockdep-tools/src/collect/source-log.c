// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel log source: a console capture, dmesg output, syslog or
 * journal, line by line into the kernel log parser.
 *
 * A log is text. Binary input is refused the way git and grep tell it:
 * a NUL byte in the first 8000 bytes (a serial console's stray NUL later
 * on is kept and shown as '?' by the parser). A binary tail (a NUL with
 * other control bytes on one line: a file glued on, a disk's garbage)
 * ends the log there: what came before is stored, partial, and the
 * message says binary data, not whatever parser the bytes would upset.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/db-sink.h"
#include "collect/sources.h"
#include "util/error.h"
#include "util/line-reader.h"

#define BINARY_PROBE	8000

/* A NUL and another control byte but tab, CR or ESC: not a console's. */
static bool binary_line(const char *s, size_t len)
{
	bool nul = false, ctrl = false;
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!c)
			nul = true;
		else if ((c < 0x20 && c != '\t' && c != '\r' && c != '\n' &&
			  c != 0x1b) || c == 0x7f)
			ctrl = true;
	}
	return nul && ctrl;
}

int source_log(const char *path, struct collect_sink *sink)
{
	bool is_stdin = !strcmp(path, "-");
	FILE *in = is_stdin ? stdin : fopen(path, "r");
	struct line_reader lr;
	char why[PATH_MAX + 96];
	size_t seen = 0;
	int ret;

	if (!in)
		return error("unable to open '%s': %s", path, strerror(errno));
	line_reader_init(&lr, in, path);
	while ((ret = line_reader_next(&lr)) > 0) {
		if (seen < BINARY_PROBE && memchr(lr.line, '\0', lr.len)) {
			ret = error("%s:%lu: binary data (a NUL byte), not a kernel log",
				    path, lr.lineno);
			break;
		}
		if (seen >= BINARY_PROBE && binary_line(lr.line, lr.len)) {
			snprintf(why, sizeof(why), "%s:%lu: binary data from here on (a NUL and control bytes), not read",
				 path, lr.lineno);
			warning("%s", why);
			db_sink_set_partial(sink, why);
			ret = 0;
			break;
		}
		seen += lr.len + 1;
		if (db_sink_log_line(sink, lr.line, lr.len)) {
			ret = -1;
			break;
		}
	}
	/* an empty boot must not pass for a clean one */
	if (!ret && !lr.lineno)
		ret = error("'%s' is empty: no kernel log to store", path);
	line_reader_release(&lr);
	if (!is_stdin)
		fclose(in);
	return ret;
}
