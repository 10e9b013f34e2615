// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of gzip decompression (src/collect/gunzip.h), the
 * guest's /proc/config.gz. Invariants: the output is appended, and never
 * more than the limit, accepted or not; a refusal says why; the limit is
 * exact (data that decompresses to N bytes passes with a limit of N and
 * fails with N - 1); and what it accepts round-trips (zlib's own gzip of
 * the output decompresses to the same bytes).
 *
 * Whether all of the input was used (a second member, trailing bytes) is
 * not checked here: that is issue 32 item 8, fixed apart.
 */
#include <string.h>
#include <zlib.h>

#include "fuzz.h"
#include "collect/gunzip.h"

#define LIMIT	(256u << 10)

static void gzip(const char *buf, size_t len, struct strbuf *out)
{
	z_stream z = { 0 };

	/* 16 + MAX_WBITS: a gzip wrapper */
	FUZZ_CHECK(deflateInit2(&z, 1, Z_DEFLATED, 16 + MAX_WBITS, 8,
				Z_DEFAULT_STRATEGY) == Z_OK);
	strbuf_grow(out, deflateBound(&z, len));
	z.next_in = (unsigned char *)buf;
	z.avail_in = len;
	z.next_out = (unsigned char *)out->buf;
	z.avail_out = deflateBound(&z, len);
	FUZZ_CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END);
	out->len = z.total_out;
	deflateEnd(&z);
}

/* @out holds "x" and the @data's output: check the limit and round-trip. */
static void check_accepted(const uint8_t *data, size_t size,
			   const struct strbuf *out)
{
	struct strbuf again = STRBUF_INIT, gz = STRBUF_INIT;
	const char *why = NULL;
	size_t n = out->len - 1;

	FUZZ_CHECK(!gunzip(data, size, n, &again, &why));
	FUZZ_CHECK(again.len == n && !memcmp(again.buf, out->buf + 1, n));
	if (n) {
		strbuf_reset(&again);
		FUZZ_CHECK(gunzip(data, size, n - 1, &again, &why) == -1 &&
			   why && again.len < n);
	}
	gzip(out->buf + 1, n, &gz);
	strbuf_reset(&again);
	FUZZ_CHECK(!gunzip(gz.buf, gz.len, n, &again, &why));
	FUZZ_CHECK(again.len == n && !memcmp(again.buf, out->buf + 1, n));
	strbuf_release(&again);
	strbuf_release(&gz);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf out = STRBUF_INIT;
	const char *why = NULL;
	int ret;

	strbuf_addch(&out, 'x');
	ret = gunzip(data, size, LIMIT, &out, &why);
	FUZZ_CHECK(ret == 0 || ret == -1);
	FUZZ_CHECK(out.len >= 1 && out.buf[0] == 'x' && out.len - 1 <= LIMIT);
	FUZZ_CHECK(ret == 0 || why != NULL);
	if (!ret)
		check_accepted(data, size, &out);
	strbuf_release(&out);
	return 0;
}
