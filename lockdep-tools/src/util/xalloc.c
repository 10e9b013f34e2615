// SPDX-License-Identifier: GPL-2.0
/* Allocation helpers: see xalloc.h for why they exit on failure. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/xalloc.h"

static void *check(void *p, size_t size)
{
	if (!p && size) {
		fprintf(stderr, "fatal: out of memory (%zu bytes)\n", size);
		exit(2);
	}
	return p;
}

void *xmalloc(size_t size)
{
	return check(malloc(size ? size : 1), size);
}

void *xcalloc(size_t nmemb, size_t size)
{
	return check(calloc(nmemb ? nmemb : 1, size ? size : 1), nmemb * size);
}

void *xrealloc(void *ptr, size_t size)
{
	return check(realloc(ptr, size ? size : 1), size);
}

void advise_huge_pages(void *ptr, size_t size)
{
#ifdef MADV_HUGEPAGE
	size_t huge = 2 << 20, page = 4096;
	uintptr_t start, end;

	if (ptr && size >= 2 * huge) {
		/*
		 * Whole pages around the block: a large block is a mapping
		 * of its own, and advising all of it keeps it one mapping,
		 * which the next realloc() can still grow with mremap().
		 */
		start = (uintptr_t)ptr & ~(uintptr_t)(page - 1);
		end = ((uintptr_t)ptr + size + page - 1) & ~(uintptr_t)(page - 1);
		madvise((void *)start, end - start, MADV_HUGEPAGE);
	}
#else
	(void)ptr;
	(void)size;
#endif
}

void *xrealloc_big(void *ptr, size_t size)
{
	ptr = xrealloc(ptr, size);
	advise_huge_pages(ptr, size);
	return ptr;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}
