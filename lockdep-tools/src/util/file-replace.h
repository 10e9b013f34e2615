/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A file written whole into a directory someone else may write to:
 * never through a link planted at its name, never into a file another
 * made, and never seen half written.
 */
#ifndef UTIL_FILE_REPLACE_H
#define UTIL_FILE_REPLACE_H

#include <stddef.h>

/*
 * Write the @len bytes at @data to @name in the directory @dirfd: to a
 * new temporary file there (O_CREAT | O_EXCL | O_NOFOLLOW, mode 0666
 * less the umask), renamed over @name when complete, so whatever was at
 * @name (a file, a symbolic link) is replaced, not written through; a
 * directory there is an error. Returns 0, or -1 with errno set and no
 * temporary file left.
 */
int file_replace_at(int dirfd, const char *name, const void *data, size_t len);

#endif
