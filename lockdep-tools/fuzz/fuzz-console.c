// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the guest's console log reader
 * (src/collect/console.h), the input as the log file (a memfd).
 * Invariants: the lines given are the input's, in order, split at '\n'
 * (a line over LINE_READER_MAX is an error; libFuzzer's inputs are
 * shorter), without '\r' at the end, each
 * NUL-terminated at its length; the timestamp changes only on a line that
 * starts with one, to the one it shows; a panic verdict quotes the start
 * of a line that said "Kernel panic - not syncing" (NUL-terminated in its
 * buffer), a power-off verdict comes from a line that said "reboot: ";
 * a non-zero return of the callback stops the read and is returned.
 */
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>

#include "fuzz.h"
#include "collect/console.h"
#include "util/line-reader.h"

struct walk {
	const uint8_t *data;
	size_t size, off;	/* where the next line starts */
	unsigned long long usec;
	unsigned long lines, stop_at;
	bool panic, reboot;	/* some line said so */
	const char *panic_line;	/* the verdict's line, to be found */
	bool panic_line_seen;
};

static int on_line(const char *line, size_t len, unsigned long long usec,
		   void *data)
{
	struct walk *w = data;
	size_t n = 0, rest = w->size - w->off;
	const uint8_t *s = w->data + w->off;
	char ts[48];

	/* the next piece of the input, as console.h splits it */
	while (n < rest && n < LINE_READER_MAX && s[n] != '\n')
		n++;
	w->off += n + (n < rest && s[n] == '\n');
	while (n && s[n - 1] == '\r')
		n--;
	FUZZ_CHECK(len == n && !memcmp(line, s, n) && line[len] == '\0');
	if (usec != w->usec) {
		snprintf(ts, sizeof(ts), "%llu.%06llu]", usec / 1000000,
			 usec % 1000000);
		FUZZ_CHECK(len && line[0] == '[' && memmem(line, len, ts,
							   strlen(ts)));
	}
	w->usec = usec;
	w->panic |= !!memmem(line, len, "Kernel panic - not syncing", 26);
	w->reboot |= !!memmem(line, len, "reboot: ", 8);
	return ++w->lines == w->stop_at ? 42 : 0;
}

/* The panic verdict's line is the start of a line's text. */
static int find_panic(const char *line, size_t len, unsigned long long usec,
		      void *data)
{
	struct walk *w = data;

	(void)usec;
	if (memmem(line, len, w->panic_line, strlen(w->panic_line)))
		w->panic_line_seen = true;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	struct console_verdict v, again;
	struct walk w = { data, size, 0, 0, 0, 0, false, false, NULL, false };
	int ret;

	if (fd < 0) {
		fuzz_quiet_errors();
		fd = memfd_create("console.log", 0);
		FUZZ_CHECK(fd >= 0);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	FUZZ_CHECK(!ftruncate(fd, 0) &&
		   pwrite(fd, data, size, 0) == (ssize_t)size);
	/* every line, or stop at one picked by the input's size */
	w.stop_at = size % 3 ? 0 : size % 11 + 1;
	ret = console_read(path, &v, on_line, &w);
	if (w.stop_at && w.lines == w.stop_at) {
		FUZZ_CHECK(ret == 42);
	} else {
		FUZZ_CHECK(ret == 0 && w.off == size);
	}
	FUZZ_CHECK(v.end == CONSOLE_NO_END || v.end == CONSOLE_POWER_OFF ||
		   v.end == CONSOLE_PANIC);
	FUZZ_CHECK(memchr(v.line, '\0', sizeof(v.line)));
	FUZZ_CHECK(v.end == CONSOLE_PANIC || !v.line[0]);
	if (v.end == CONSOLE_PANIC) {
		FUZZ_CHECK(w.panic && !strncmp(v.line, "Kernel panic - not syncing", 26));
		/* the verdict stands without a callback, and its line is one read */
		w.panic_line = v.line;
		FUZZ_CHECK(!console_read(path, &again, find_panic, &w));
		FUZZ_CHECK(again.end == CONSOLE_PANIC && w.panic_line_seen &&
			   !strcmp(again.line, v.line));
	}
	if (v.end == CONSOLE_POWER_OFF)
		FUZZ_CHECK(w.reboot);
	return 0;
}
