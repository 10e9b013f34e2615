// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's console log; see console.h. The log is untrusted like all
 * guest output: any byte may come, and a line longer than every input's
 * bound (LINE_READER_MAX) is an error naming the log and the line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/console.h"
#include "parse/klog-line.h"
#include "util/error.h"
#include "util/line-reader.h"

static bool starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(s, prefix, n);
}

/* "[   12.345678]" at the start of @s to *@usec; false if there is none. */
static bool timestamp(const char *s, size_t len, unsigned long long *usec)
{
	unsigned long long sec = 0, frac = 0;
	size_t i = 1, digits = 0;

	if (!len || s[0] != '[')
		return false;
	while (i < len && s[i] == ' ')
		i++;
	for (; i < len && s[i] >= '0' && s[i] <= '9' && digits < 12; digits++)
		sec = sec * 10 + (s[i++] - '0');
	if (!digits || i >= len || s[i++] != '.')
		return false;
	for (digits = 0; i < len && s[i] >= '0' && s[i] <= '9'; digits++)
		frac = frac * 10 + (s[i++] - '0');
	if (digits != 6 || i >= len || s[i] != ']')
		return false;
	*usec = sec * 1000000 + frac;
	return true;
}

static void judge(struct console_verdict *v, const char *s, size_t len)
{
	struct klog_prefix p;
	size_t off = klog_strip_prefix(s, len, &p);
	const char *t = s + off;
	size_t n = len - off;

	if (starts(t, n, "Kernel panic - not syncing")) {
		if (v->end == CONSOLE_PANIC)
			return;		/* the first one says why */
		v->end = CONSOLE_PANIC;
		if (n >= sizeof(v->line))
			n = sizeof(v->line) - 1;
		memcpy(v->line, t, n);
		v->line[n] = '\0';
	} else if (v->end != CONSOLE_PANIC &&
		   (starts(t, n, "reboot: Power down") ||
		    starts(t, n, "reboot: Restarting system") ||
		    starts(t, n, "reboot: System halted"))) {
		v->end = CONSOLE_POWER_OFF;
	}
}

static int one_line(char *s, size_t len, unsigned long long *usec,
		    struct console_verdict *v, console_line_fn fn, void *data)
{
	while (len && s[len - 1] == '\r')
		len--;
	s[len] = '\0';
	timestamp(s, len, usec);
	judge(v, s, len);
	return fn ? fn(s, len, *usec, data) : 0;
}

int console_read(const char *path, struct console_verdict *v,
		 console_line_fn fn, void *data)
{
	FILE *in = fopen(path, "r");
	struct line_reader lr;
	unsigned long long usec = 0;
	int ret;

	memset(v, 0, sizeof(*v));
	if (!in)
		return error("unable to open the console log '%s': %s", path,
			     strerror(errno));
	line_reader_init(&lr, in, path);
	/* the callback's non-zero return stops the read and is returned */
	while ((ret = line_reader_next(&lr)) > 0) {
		ret = one_line(lr.line, lr.len, &usec, v, fn, data);
		if (ret)
			break;
	}
	line_reader_release(&lr);
	fclose(in);
	return ret;
}
