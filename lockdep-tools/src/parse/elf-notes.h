/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parser of raw ELF notes, the format of /sys/kernel/notes (the running
 * kernel's .notes section): a sequence of Elf_Nhdr { namesz, descsz,
 * type } each followed by its name and descriptor, both padded to 4
 * bytes. Only what the tools need is extracted: the GNU build id.
 */
#ifndef PARSE_ELF_NOTES_H
#define PARSE_ELF_NOTES_H

#include <stddef.h>

/* Longest build id accepted, in bytes (SHA-1 is 20). */
#define ELF_NOTES_MAX_BUILD_ID	64

/*
 * The NT_GNU_BUILD_ID note of @buf in lower-case hex into @hex (at least
 * 2 * ELF_NOTES_MAX_BUILD_ID + 1 bytes). Returns 0, 1 when there is no
 * such note, or -1 when the notes are malformed (a size running past the
 * end); *@bad_off then says at which byte offset.
 */
int elf_notes_build_id(const void *buf, size_t len, char *hex,
		       size_t *bad_off);

#endif
