/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The real files of the kernel build a unit test reads, when built:
 * those the environment names (LDT_VMLINUX, LDT_SCENARIO_KO: a named one
 * that cannot be read fails the test), else the build's own when there.
 */
#ifndef TESTS_UNIT_REAL_FILES_H
#define TESTS_UNIT_REAL_FILES_H

#include <unistd.h>

/* @var's file, else @fallback if readable, else NULL (the test skips). */
static const char *real_file(const char *var, const char *fallback)
{
	const char *path = getenv(var);

	if (path && *path) {
		if (access(path, R_OK))
			fail_msg("%s='%s' cannot be read", var, path);
		return path;
	}
	return access(fallback, R_OK) ? NULL : fallback;
}

#endif
