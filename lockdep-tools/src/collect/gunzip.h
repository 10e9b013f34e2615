/* SPDX-License-Identifier: GPL-2.0 */
/* gzip decompression (zlib) of a file that arrived whole in memory. */
#ifndef LDT_COLLECT_GUNZIP_H
#define LDT_COLLECT_GUNZIP_H

#include <stddef.h>

#include "util/strbuf.h"

/*
 * Append the decompressed @len bytes of gzip data @buf to @out, at most
 * @max bytes of it (the data is untrusted: a small bomb must not fill
 * memory). Every member is decompressed, as gzip(1) does; bytes after
 * the last that do not start another member are an error, not ignored.
 * Returns 0, or -1 with *@why set to a static reason.
 */
int gunzip(const void *buf, size_t len, size_t max, struct strbuf *out,
	   const char **why);

#endif
