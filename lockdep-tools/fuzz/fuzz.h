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
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Straight to fd 2: a harness may have pointed stdio's stderr elsewhere. */
#define FUZZ_CHECK(cond)						\
	do {								\
		if (!(cond)) {						\
			dprintf(STDERR_FILENO, "invariant failed: %s (%s:%d)\n", \
				#cond, __FILE__, __LINE__);		\
			abort();					\
		}							\
	} while (0)

/*
 * The error() messages of a parser fed garbage, to /dev/null: one a run
 * would fill the log and slow the run down. libFuzzer and the
 * sanitizers write to fd 2, which stays.
 */
static inline void fuzz_quiet_errors(void)
{
	static FILE *null;

	if (!null)
		null = fopen("/dev/null", "w");
	if (null)
		stderr = null;
}

/*
 * Where a harness writes its files: /dev/shm, a tmpfs, when there is
 * one. A disk's file system may write back a file rewritten in place on
 * every input (ext4 does, after a truncate), and the run waits for it.
 */
static inline const char *fuzz_tmpdir(void)
{
	return access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm";
}

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
