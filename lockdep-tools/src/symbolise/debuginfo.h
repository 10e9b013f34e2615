/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vmlinux of a running kernel found by its build id, where the
 * distributions' debug packages (Debian's linux-image-*-dbg) and
 * debuginfod caches put it under a debug directory ROOT (default
 * /usr/lib/debug), in this order:
 *   ROOT/.build-id/xx/yyyy.debug           (xx: the id's first byte)
 *   ROOT/boot/vmlinux-RELEASE
 *   ROOT/lib/modules/RELEASE/vmlinux
 * A candidate is taken only if its own NT_GNU_BUILD_ID note is the
 * build id asked for: a vmlinux of another build would name frames
 * wrongly, which is worse than not naming them.
 */
#ifndef SYMBOLISE_DEBUGINFO_H
#define SYMBOLISE_DEBUGINFO_H

/*
 * The path of the vmlinux under @root whose build id is @hex (lower-case
 * hex), @release (the kernel release, or NULL) naming the by-release
 * places; malloc'd, or NULL when none is there.
 */
char *debuginfo_find_vmlinux(const char *root, const char *hex,
			     const char *release);

#endif
