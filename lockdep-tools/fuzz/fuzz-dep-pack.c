// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the dependency pack reader (src/store/dep-pack.h):
 * dep_pack_verify() and dep_pack_each(), the chunked reader store-graph.c
 * runs over incremental blob I/O, here over the input through the same
 * read callback interface, in chunks of 40 to 136 bytes (picked by the
 * input's length) so that rows and the CRC cross chunk boundaries. The
 * seed tests/fixtures/dep-pack/all-fields.pack is a valid pack.
 */
#include <string.h>

#include "fuzz.h"
#include "store/dep-pack.h"
#include "util/xalloc.h"

struct input {
	const uint8_t *data;
	size_t size;
};

static int input_read(void *ctx, unsigned char *buf, size_t n, size_t off)
{
	const struct input *in = ctx;

	FUZZ_CHECK(off <= in->size && n <= in->size - off);
	memcpy(buf, in->data + off, n);
	return 0;
}

struct rows {
	struct dep_pack_row *rows;
	size_t nr, max;
};

static int add_row(const struct dep_pack_row *r, void *data)
{
	struct rows *rs = data;

	FUZZ_CHECK(rs->nr < rs->max);
	FUZZ_CHECK(r->dep_bits >= -1 && r->dep_bits < 255 &&
		   r->distance >= -1 && r->distance < 65535 &&
		   r->trace_id >= -1 && r->trace_id < 4294967295LL);
	rs->rows[rs->nr++] = *r;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	size_t chunk = DEP_PACK_HEADER + size % 97;
	struct dep_pack_src src = { .read = input_read, .ctx = &in,
				    .len = size, .chunk = chunk };
	struct strbuf again = STRBUF_INIT;
	struct rows rs = { 0 };
	struct dep_pack p;

	src.buf = xmalloc(chunk);
	if (dep_pack_verify(&p, &src))
		goto out;
	FUZZ_CHECK(size == dep_pack_size(p.nr, p.flags));
	rs.max = p.nr;
	rs.rows = xmalloc((p.nr ? p.nr : 1) * sizeof(*rs.rows));
	FUZZ_CHECK(!dep_pack_each(&p, &src, add_row, &rs) && !src.unreadable);
	FUZZ_CHECK(rs.nr == p.nr);
	/* what decodes encodes back to the same bytes, flags permitting */
	dep_pack_encode(&again, &p, rs.rows, rs.nr);
	if (again.len == size && !memcmp(again.buf + 12, data + 12, 4))
		FUZZ_CHECK(!memcmp(again.buf, data, size));
	strbuf_release(&again);
	free(rs.rows);
out:
	free(src.buf);
	return 0;
}
