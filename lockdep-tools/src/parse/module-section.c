// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/module/NAME/sections/SECTION (module-section.h). Parsed by hand
 * rather than with strtoull(), which would accept signs, spaces, a
 * missing "0x" and silently clamp an overflow.
 */
#include "parse/module-section.h"

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int module_section_addr(const char *buf, size_t len, unsigned long long *addr,
			const char **why)
{
	unsigned long long v = 0;
	size_t i, digits = 0;
	int d;

	if (len && buf[len - 1] == '\n')
		len--;
	if (len < 2 || buf[0] != '0' || (buf[1] != 'x' && buf[1] != 'X')) {
		*why = "expected one hexadecimal address starting with 0x";
		return -1;
	}
	for (i = 2; i < len; i++) {
		d = hex_digit(buf[i]);
		if (d < 0) {
			*why = "expected one hexadecimal address and nothing else";
			return -1;
		}
		if (++digits > 16) {
			*why = "the address has more than 16 hexadecimal digits";
			return -1;
		}
		v = v << 4 | (unsigned long long)d;
	}
	if (!digits) {
		*why = "expected hexadecimal digits after 0x";
		return -1;
	}
	*addr = v;
	return 0;
}
