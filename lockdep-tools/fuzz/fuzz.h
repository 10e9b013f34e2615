/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared bits of the libFuzzer harnesses (make fuzz; make fuzz-check).
 * A harness aborts on a broken parser invariant, so libFuzzer reports it
 * like a crash.
 */
#ifndef FUZZ_FUZZ_H
#define FUZZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "invariant failed: %s\n", #cond); \
			abort();					\
		}							\
	} while (0)

/* The input as a stream; NULL for an empty input (fmemopen refuses it). */
static inline FILE *fuzz_open(const uint8_t *data, size_t size)
{
	return size ? fmemopen((void *)data, size, "r") : NULL;
}

/* A string of a record: NUL-terminated at its length, every byte readable. */
static inline unsigned int fuzz_touch(const char *s, size_t len)
{
	unsigned int sum = 0;
	size_t i;

	FUZZ_CHECK(s != NULL);
	for (i = 0; i < len; i++)
		sum += (unsigned char)s[i];
	FUZZ_CHECK(s[len] == '\0');
	return sum;
}

#endif
