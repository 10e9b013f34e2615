// SPDX-License-Identifier: GPL-2.0
/* Raw ELF notes (elf-notes.h): the kernel's GNU build id. */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "parse/elf-notes.h"

static size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

int elf_notes_build_id(const void *buf, size_t len, char *hex,
		       size_t *bad_off)
{
	const unsigned char *p = buf;
	size_t off = 0, name, desc, i;
	Elf32_Nhdr nh;		/* the same layout as Elf64_Nhdr */

	while (len - off >= sizeof(nh)) {
		memcpy(&nh, p + off, sizeof(nh));
		name = pad4(nh.n_namesz);
		desc = pad4(nh.n_descsz);
		if (nh.n_namesz > len || nh.n_descsz > len ||
		    name + desc > len - off - sizeof(nh)) {
			*bad_off = off;
			return -1;
		}
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(p + off + sizeof(nh), "GNU", 4) &&
		    nh.n_descsz > 0 && nh.n_descsz <= ELF_NOTES_MAX_BUILD_ID) {
			for (i = 0; i < nh.n_descsz; i++)
				sprintf(hex + 2 * i, "%02x",
					p[off + sizeof(nh) + name + i]);
			return 0;
		}
		off += sizeof(nh) + name + desc;
	}
	if (off != len) {
		*bad_off = off;
		return -1;
	}
	return 1;
}
