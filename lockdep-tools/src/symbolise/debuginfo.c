// SPDX-License-Identifier: GPL-2.0
/*
 * A vmlinux by build id (debuginfo.h): each candidate's build id is
 * read as the symbol cache reads a binary's (sym_file_identity()).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolise/debuginfo.h"
#include "symbolise/index.h"
#include "util/xalloc.h"

/* Whether @path is an ELF file whose GNU build id is @hex. */
static bool has_build_id(const char *path, const char *hex)
{
	struct sym_elf_identity ident;
	char *got;
	bool own_dwarf, same;

	if (!sym_file_identity(path, &got, &own_dwarf, &ident))
		return false;
	same = got && !strcmp(got, hex);
	free(got);
	return same;
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
