/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's console log (QEMU's ttyS0 file), read after a collection
 * from the agent: the one witness of how the guest ended (the agent is
 * gone with it), and of what the kernel printed after the last record
 * the agent sent (a lockdep report on the way to a panic).
 */
#ifndef LDT_COLLECT_CONSOLE_H
#define LDT_COLLECT_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>

enum console_end {
	CONSOLE_NO_END,		/* neither of the two below */
	CONSOLE_POWER_OFF,	/* "reboot: Power down", "... Restarting system" */
	CONSOLE_PANIC,		/* "Kernel panic - not syncing: ..." */
};

struct console_verdict {
	enum console_end end;
	char line[256];		/* the panic's message, without prefixes */
};

/*
 * One console line (no '\n' or '\r') and the printk timestamp it or the
 * last line before it had, in microseconds (0 before the first).
 */
typedef int (*console_line_fn)(const char *line, size_t len,
			       unsigned long long usec, void *data);

/*
 * Read the console log @path: how the guest ended to @v, and each line
 * to @fn unless it is NULL (a non-zero return stops the read and is
 * returned). Returns 0, or -1 after an error naming the file.
 */
int console_read(const char *path, struct console_verdict *v,
		 console_line_fn fn, void *data);

#endif
