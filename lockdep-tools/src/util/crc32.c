// SPDX-License-Identifier: GPL-2.0
/*
 * CRC-32 by folding with carry-less multiplication (Intel's white paper
 * "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ", for
 * the bit-reflected polynomial 0x04C11DB7): four 128-bit lanes folded
 * 64 bytes at a time, then into one, then reduced to 64 and to 32 bits
 * (Barrett). zlib does what is left over, and all of it on CPUs without
 * the instruction.
 */
#include <stdbool.h>
#include <zlib.h>

#include "util/crc32.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define CLMUL __attribute__((target("pclmul,sse4.1")))

/* x * x^(k) folded forward, added to the next 128 bits @next */
CLMUL static inline __m128i fold(__m128i x, __m128i k, __m128i next)
{
	return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00),
					   _mm_clmulepi64_si128(x, k, 0x11)),
			     next);
}

CLMUL static inline __m128i load(const unsigned char *p)
{
	return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/*
 * The reflected CRC register @crc (not inverted) over @len bytes at @p,
 * @len >= 64 and a multiple of 16.
 */
CLMUL static uint32_t crc32_clmul(uint32_t crc, const unsigned char *p,
				  size_t len)
{
	/* x^(4*128+32) mod P, x^(4*128-32); x^(128+32), x^(128-32) */
	const __m128i k12 = _mm_set_epi64x(0x1c6e41596, 0x154442bd4);
	const __m128i k34 = _mm_set_epi64x(0x0ccaa009e, 0x1751997d0);
	const __m128i k5 = _mm_set_epi64x(0, 0x163cd6124);
	/* P(x) and floor(x^64 / P(x)), bit-reflected */
	const __m128i poly = _mm_set_epi64x(0x1f7011641, 0x1db710641);
	const __m128i low32 = _mm_set_epi32(0, 0, 0, -1);
	__m128i x1 = load(p), x2 = load(p + 16), x3 = load(p + 32);
	__m128i x4 = load(p + 48), t;

	x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
	for (p += 64, len -= 64; len >= 64; p += 64, len -= 64) {
		x1 = fold(x1, k12, load(p));
		x2 = fold(x2, k12, load(p + 16));
		x3 = fold(x3, k12, load(p + 32));
		x4 = fold(x4, k12, load(p + 48));
	}
	x1 = fold(x1, k34, x2);
	x1 = fold(x1, k34, x3);
	x1 = fold(x1, k34, x4);
	for (; len >= 16; p += 16, len -= 16)
		x1 = fold(x1, k34, load(p));
	/* 128 bits to 64 */
	t = _mm_clmulepi64_si128(k34, x1, 0x01);
	x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), t);
	/* 64 to 32 */
	t = _mm_clmulepi64_si128(_mm_and_si128(x1, low32), k5, 0x00);
	x1 = _mm_xor_si128(_mm_srli_si128(x1, 4), t);
	/* Barrett reduction */
	t = _mm_clmulepi64_si128(_mm_and_si128(x1, low32), poly, 0x10);
	t = _mm_clmulepi64_si128(_mm_and_si128(t, low32), poly, 0x00);
	x1 = _mm_xor_si128(x1, t);
	return (uint32_t)_mm_extract_epi32(x1, 1);
}

static bool have_clmul(void)
{
	static int have = -1;

	if (have < 0)
		have = __builtin_cpu_supports("pclmul") &&
		       __builtin_cpu_supports("sse4.1");
	return have;
}
#endif

uint32_t crc32_fast(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

#if defined(__x86_64__)
	if (len >= 64 && have_clmul()) {
		size_t n = len & ~(size_t)15;

		/* zlib's value is the register's, inverted before and after */
		crc = ~crc32_clmul(~crc, p, n);
		p += n;
		len -= n;
	}
#endif
	return (uint32_t)crc32_z(crc, p, len);
}
