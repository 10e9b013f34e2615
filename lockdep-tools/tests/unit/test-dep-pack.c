// SPDX-License-Identifier: GPL-2.0
/*
 * The dependency pack codec and its chunked reader (store/dep-pack.h),
 * driven through a read callback over memory as store-graph.c drives it
 * over incremental blob I/O.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/dep-pack.h"

static const struct dep_pack_row rows[] = {
	{ 0, 1, -1, -1, -1 },
	{ 0, 7, 5, 1, 42 },
	{ 3, 0, 254, 65534, 4294967294LL },
	{ 4294967295u, 2, 0, 0, 0 },
};

static const struct dep_pack boot = { .classes = 9, .lo = 100, .hi = 4294967395LL };

/* A blob in memory; reads at or past @fail_at fail. */
struct mem {
	const unsigned char *buf;
	size_t len, fail_at, reads;
};

static int mem_read(void *ctx, unsigned char *buf, size_t n, size_t off)
{
	struct mem *m = ctx;

	m->reads++;
	assert_true(off + n <= m->len);
	if (off + n > m->fail_at)
		return -1;
	memcpy(buf, m->buf + off, n);
	return 0;
}

static unsigned char chunk_buf[DEP_PACK_CHUNK];

static struct dep_pack_src src_of(struct mem *m, const void *buf, size_t len,
				  size_t chunk)
{
	m->buf = buf;
	m->len = len;
	m->fail_at = (size_t)-1;
	m->reads = 0;
	return (struct dep_pack_src){ .read = mem_read, .ctx = m, .len = len,
				      .chunk = chunk, .buf = chunk_buf };
}

struct got {
	struct dep_pack_row rows[8];
	size_t nr, stop_at;
};

static int collect(const struct dep_pack_row *r, void *data)
{
	struct got *g = data;

	if (g->nr == g->stop_at)
		return 7;
	assert_true(g->nr < 8);
	g->rows[g->nr++] = *r;
	return 0;
}

static void check_rows(const struct got *g, size_t nr)
{
	size_t i;

	assert_int_equal(g->nr, nr);
	for (i = 0; i < nr; i++) {
		assert_int_equal(g->rows[i].from, rows[i].from);
		assert_int_equal(g->rows[i].to, rows[i].to);
		assert_int_equal(g->rows[i].dep_bits, rows[i].dep_bits);
		assert_int_equal(g->rows[i].distance, rows[i].distance);
		assert_int_equal(g->rows[i].trace_id, rows[i].trace_id);
	}
}

/* Every chunk size from the smallest: the same rows, header and all. */
static void test_round_trip(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct dep_pack p;
	struct mem m;
	size_t chunk;

	(void)state;
	dep_pack_encode(&sb, &boot, rows, 4);
	assert_int_equal(sb.len, DEP_PACK_HEADER + 4 * 15);
	assert_int_equal(dep_pack_size(4, DEP_PACK_ALL), sb.len);
	for (chunk = DEP_PACK_HEADER; chunk <= DEP_PACK_CHUNK;
	     chunk = chunk < 200 ? chunk + 1 : DEP_PACK_CHUNK + (chunk == DEP_PACK_CHUNK)) {
		struct dep_pack_src src = src_of(&m, sb.buf, sb.len, chunk);
		struct got g = { .stop_at = 99 };

		assert_null(dep_pack_verify(&p, &src));
		assert_int_equal(p.nr, 4);
		assert_int_equal(p.flags, DEP_PACK_ALL);
		assert_int_equal(p.classes, 9);
		assert_int_equal(p.lo, 100);
		assert_int_equal(p.hi, 4294967395LL);
		assert_int_equal(dep_pack_each(&p, &src, collect, &g), 0);
		check_rows(&g, 4);
		assert_false(src.unreadable);
	}
	strbuf_release(&sb);
}

/* Only the columns some row has: 8 bytes a row for /proc/lockdep alone. */
static void test_flags(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct got g = { .stop_at = 99 };
	struct dep_pack p;
	struct mem m;
	struct dep_pack_src src;

	(void)state;
	dep_pack_encode(&sb, &boot, rows, 1);
	src = src_of(&m, sb.buf, sb.len, DEP_PACK_CHUNK);
	assert_null(dep_pack_verify(&p, &src));
	assert_int_equal(p.flags, 0);
	assert_int_equal(sb.len, DEP_PACK_HEADER + 8);
	assert_int_equal(dep_pack_each(&p, &src, collect, &g), 0);
	check_rows(&g, 1);
	strbuf_reset(&sb);
	dep_pack_encode(&sb, &boot, NULL, 0);
	src = src_of(&m, sb.buf, sb.len, DEP_PACK_CHUNK);
	assert_null(dep_pack_verify(&p, &src));
	assert_int_equal(p.nr, 0);
	strbuf_release(&sb);
}

/* Every flipped bit and every shorter or longer blob is refused. */
static void test_damage(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned char buf[128];
	struct dep_pack p;
	struct dep_pack_src src;
	struct mem m;
	size_t i, len;
	int bit;

	(void)state;
	dep_pack_encode(&sb, &boot, rows, 4);
	len = sb.len;
	for (i = 0; i < len; i++)
		for (bit = 0; bit < 8; bit++) {
			memcpy(buf, sb.buf, len);
			buf[i] ^= 1 << bit;
			src = src_of(&m, buf, len, DEP_PACK_HEADER + i % 17);
			assert_non_null(dep_pack_verify(&p, &src));
		}
	memcpy(buf, sb.buf, len);
	for (i = 0; i < len; i++) {
		src = src_of(&m, buf, i, DEP_PACK_CHUNK);
		assert_non_null(dep_pack_verify(&p, &src));
	}
	buf[len] = 0;
	src = src_of(&m, buf, len + 1, DEP_PACK_CHUNK);
	assert_non_null(dep_pack_verify(&p, &src));
	strbuf_release(&sb);
}

/* A read that fails is named and stops the reader; so does @fn. */
static void test_unreadable(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct dep_pack p;
	struct dep_pack_src src;
	struct mem m;
	size_t at;

	(void)state;
	dep_pack_encode(&sb, &boot, rows, 4);
	for (at = 0; at < sb.len; at++) {
		src = src_of(&m, sb.buf, sb.len, DEP_PACK_HEADER);
		m.fail_at = at;
		assert_string_equal(dep_pack_verify(&p, &src), "unreadable");
		assert_true(src.unreadable);
	}
	for (at = DEP_PACK_HEADER; at < sb.len; at++) {
		struct got g = { .stop_at = 99 };

		src = src_of(&m, sb.buf, sb.len, DEP_PACK_HEADER);
		assert_null(dep_pack_verify(&p, &src));
		m.fail_at = at;
		assert_int_equal(dep_pack_each(&p, &src, collect, &g), -1);
		assert_true(src.unreadable);
		assert_true(g.nr < 4);
	}
	{
		struct got g = { .stop_at = 2 };

		src = src_of(&m, sb.buf, sb.len, DEP_PACK_HEADER);
		assert_null(dep_pack_verify(&p, &src));
		assert_int_equal(dep_pack_each(&p, &src, collect, &g), 7);
		check_rows(&g, 2);
		assert_false(src.unreadable);
	}
	strbuf_release(&sb);
}

/*
 * fuzz-dep-pack's seed (the fixtures are every harness's seeds) is a
 * valid pack with every optional field, and encodes back to itself.
 */
static void test_fuzz_seed(void **state)
{
	static unsigned char buf[1024];
	struct strbuf sb = STRBUF_INIT;
	struct got g = { .stop_at = 99 };
	struct dep_pack p;
	struct dep_pack_src src;
	struct mem m;
	FILE *f = fopen("tests/fixtures/dep-pack/all-fields.pack", "rb");
	size_t len;

	(void)state;
	assert_non_null(f);
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	src = src_of(&m, buf, len, DEP_PACK_HEADER);
	assert_null(dep_pack_verify(&p, &src));
	assert_int_equal(p.flags, DEP_PACK_ALL);
	assert_int_equal(dep_pack_each(&p, &src, collect, &g), 0);
	assert_int_equal(g.nr, p.nr);
	dep_pack_encode(&sb, &p, g.rows, g.nr);
	assert_int_equal(sb.len, len);
	assert_memory_equal(sb.buf, buf, len);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_damage),
		cmocka_unit_test(test_unreadable),
		cmocka_unit_test(test_fuzz_seed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
