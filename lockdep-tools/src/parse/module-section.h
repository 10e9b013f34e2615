/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parser of /sys/module/NAME/sections/SECTION: the address the kernel
 * loaded one section of a module at, printed as "0x%px\n" (one
 * hexadecimal number, 16 digits on 64-bit kernels). The file comes from
 * the guest: anything but one such number is rejected.
 */
#ifndef PARSE_MODULE_SECTION_H
#define PARSE_MODULE_SECTION_H

#include <stddef.h>

/*
 * The address in @buf[0..@len): "0x", 1 to 16 hexadecimal digits and at
 * most one newline, nothing else. Returns 0, or -1 with *@why saying
 * what is wrong (a static string).
 */
int module_section_addr(const char *buf, size_t len, unsigned long long *addr,
			const char **why);

#endif
