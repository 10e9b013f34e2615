// SPDX-License-Identifier: GPL-2.0
/*
 * gzip decompression with zlib, for /proc/config.gz: the kernel config
 * is stored decompressed so that sqlite3 users can search it.
 */
#include <stdbool.h>
#include <zlib.h>

#include "collect/gunzip.h"

/* A gzip member's first two bytes (RFC 1952). */
static bool gzip_magic(const unsigned char *p, size_t len)
{
	return len >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

int gunzip(const void *buf, size_t len, size_t max, struct strbuf *out,
	   const char **why)
{
	unsigned char chunk[16384];
	z_stream z = { 0 };
	size_t got = 0;
	int rc;

	/* 16 + MAX_WBITS: a gzip header, not a zlib one */
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
		*why = "out of memory";
		return -1;
	}
	z.next_in = (unsigned char *)buf;
	z.avail_in = len;
	*why = NULL;
	for (;;) {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		rc = inflate(&z, Z_NO_FLUSH);
		if (rc != Z_OK && rc != Z_STREAM_END) {
			*why = rc == Z_MEM_ERROR ? "out of memory" :
			       "not valid gzip data";
			break;
		}
		got += sizeof(chunk) - z.avail_out;
		if (got > max) {
			*why = "decompresses to more than the limit";
			break;
		}
		strbuf_add(out, chunk, sizeof(chunk) - z.avail_out);
		if (rc == Z_OK && !z.avail_in && z.avail_out) {
			*why = "truncated gzip data";
			break;
		}
		if (rc != Z_STREAM_END)
			continue;
		if (!z.avail_in)
			break;
		/* as gzip(1): members one after another are one file */
		if (!gzip_magic(z.next_in, z.avail_in)) {
			*why = "trailing bytes after the gzip data";
			break;
		}
		inflateReset(&z);
	}
	inflateEnd(&z);
	return *why ? -1 : 0;
}
