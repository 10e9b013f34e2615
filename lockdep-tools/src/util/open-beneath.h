/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A file named by untrusted text (a report's frame), opened only if it
 * is a regular file inside a given directory: no "..", absolute name or
 * symbolic link may lead out of it, and no /proc magic link is followed.
 */
#ifndef UTIL_OPEN_BENEATH_H
#define UTIL_OPEN_BENEATH_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Open @rel for reading beneath the directory @dirfd: with openat2()'s
 * RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS, or where the kernel has no
 * openat2() (ENOSYS) with open_beneath_checked(). Returns the descriptor,
 * or -1 with *@refused NULL when the file is missing or unreadable
 * (errno says why), or *@refused a phrase saying why it was refused
 * ("it leads outside the directory", "it is not a regular file").
 */
int open_beneath(int dirfd, const char *rel, const char **refused);

/*
 * The check without openat2(): open, then refuse unless the file's
 * resolved path (/proc/self/fd) is inside the directory's. Exposed for
 * its unit test.
 */
int open_beneath_checked(int dirfd, const char *rel, const char **refused);

/*
 * The strict walk, for trees the tools write themselves (a raw
 * directory): beneath the directory no name may be a symbolic link at
 * all, every component of a path is a real directory, and ".", ".." and
 * empty components are refused. On refusal, @len is the length of the
 * prefix of the path that names the refused component, @why a phrase
 * ("is a symbolic link", "is not a directory").
 */
struct beneath_refusal {
	size_t len;
	const char *why;
};

/*
 * Open the directory @rel beneath @dirfd (O_DIRECTORY, close-on-exec),
 * making each missing component (mode 0777, less the umask) if @create.
 * Returns the descriptor, or -1: with @r->why set when refused, else
 * with errno (ENOENT when a component is missing and not @create).
 */
int open_dir_strict(int dirfd, const char *rel, bool create,
		    struct beneath_refusal *r);

/*
 * Open the regular file @rel beneath @dirfd for reading, strictly as
 * above (a FIFO does not block: it is refused). Returns the descriptor,
 * or -1 with @r->why set when refused, else with errno.
 */
int open_file_strict(int dirfd, const char *rel, struct beneath_refusal *r);

/*
 * Create @name in the directory @dirfd as a new file for writing: a
 * stale file or a symbolic link of that name is removed first (never
 * followed), and the file is created with O_EXCL | O_NOFOLLOW, so one
 * made in between by someone else is an error (EEXIST), never written
 * to. Returns the descriptor or -1 with errno.
 */
int create_new_at(int dirfd, const char *name);

#endif
