// SPDX-License-Identifier: GPL-2.0
/*
 * A vmlinux by build id (debuginfo.h). libelf reads each candidate's
 * note sections; parse/elf-notes.c, which reads /sys/kernel/notes in
 * the same format, finds the build id in them.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse/elf-notes.h"
#include "symbolise/debuginfo.h"
#include "util/xalloc.h"

/* Whether @path is an ELF file with a note section carrying @hex. */
static bool has_build_id(const char *path, const char *hex)
{
	char got[2 * ELF_NOTES_MAX_BUILD_ID + 1];
	Elf_Scn *scn = NULL;
	bool found = false;
	GElf_Shdr sh;
	Elf_Data *data;
	size_t bad;
	Elf *elf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	while (elf && !found && (scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		found = data && data->d_buf &&
			!elf_notes_build_id(data->d_buf, data->d_size, got, &bad) &&
			!strcmp(got, hex);
	}
	elf_end(elf);
	close(fd);
	return found;
}

char *debuginfo_find_vmlinux(const char *root, const char *hex,
			     const char *release)
{
	size_t len = strlen(root) + strlen(hex) + 64 +
		     (release ? strlen(release) : 0);
	char *path = xmalloc(len);
	int i;

	if (strlen(hex) < 4 || strspn(hex, "0123456789abcdef") != strlen(hex)) {
		free(path);
		return NULL;
	}
	for (i = 0; i < 3; i++) {
		if (i == 0)
			snprintf(path, len, "%s/.build-id/%.2s/%s.debug", root,
				 hex, hex + 2);
		else if (!release || strchr(release, '/'))
			break;
		else if (i == 1)
			snprintf(path, len, "%s/boot/vmlinux-%s", root, release);
		else
			snprintf(path, len, "%s/lib/modules/%s/vmlinux", root,
				 release);
		if (has_build_id(path, hex))
			return path;
	}
	free(path);
	return NULL;
}
