/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A file named by untrusted text (a report's frame), opened only if it
 * is a regular file inside a given directory: no "..", absolute name or
 * symbolic link may lead out of it, and no /proc magic link is followed.
 */
#ifndef UTIL_OPEN_BENEATH_H
#define UTIL_OPEN_BENEATH_H

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

#endif
