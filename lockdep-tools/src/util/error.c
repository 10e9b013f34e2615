// SPDX-License-Identifier: GPL-2.0
/* One-line diagnostics on stderr; see error.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/strbuf.h"
#include "util/term-text.h"

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

/*
 * Messages quote names and lines from outside (the guest, the command
 * line): escaped as a whole, so none can drive the terminal, and each
 * stays one line.
 */
static void report(const char *kind, const char *fmt, va_list ap)
{
	struct strbuf msg = STRBUF_INIT, out = STRBUF_INIT;

	strbuf_vaddf(&msg, fmt, ap);
	strbuf_addf(&out, "%s: %s: ", prog, kind);
	term_text_add(&out, msg.buf, msg.len);
	strbuf_addch(&out, '\n');
	fwrite(out.buf, 1, out.len, stderr);
	strbuf_release(&msg);
	strbuf_release(&out);
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
