// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/module/NAME/sections/SECTION (module-section.h). The number is
 * read by proc_eat_hex(), the /proc parsers' own, after a "0x" this file
 * always has: strtoull() would accept signs, spaces, a missing "0x" and
 * silently clamp an overflow.
 */
#include "parse/module-section.h"
#include "parse/proc-line.h"

int module_section_addr(const char *buf, size_t len, unsigned long long *addr,
			const char **why)
{
	const char *p = buf, *end;

	if (len && buf[len - 1] == '\n')
		len--;
	/* before any pointer arithmetic: @buf may be NULL when @len is 0 */
	if (len < 3 || buf[0] != '0' || (buf[1] != 'x' && buf[1] != 'X')) {
		*why = "expected one hexadecimal address starting with 0x";
		return -1;
	}
	end = buf + len;
	if (!proc_eat_hex(&p, end, addr) || p != end) {
		*why = "expected one hexadecimal address of at most 16 digits and nothing else";
		return -1;
	}
	return 0;
}
