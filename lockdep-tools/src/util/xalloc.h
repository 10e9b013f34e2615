/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Allocation helpers that never return NULL.
 *
 * The tools cannot do anything useful once malloc() fails, and checking
 * every small allocation in the parsers would triple their size, so an
 * allocation failure prints one line and exits with status 2 (fatal), as
 * git's xmalloc() does. This is the only place the library exits.
 */
#ifndef UTIL_XALLOC_H
#define UTIL_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/*
 * xrealloc() for an array of megabytes written whole (a million graph
 * edges): it asks the kernel for transparent huge pages over the block,
 * one page fault per 2 MiB instead of per 4 KiB. Free with free().
 */
void *xrealloc_big(void *ptr, size_t size);
/*
 * The same advice for a block of @size bytes at @ptr allocated otherwise
 * (malloc() where a failure is not fatal); nothing if it is small.
 */
void advise_huge_pages(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/*
 * Make room for at least nr elements in the array ptr of alloc
 * elements, growing it geometrically.
 */
#define ALLOC_GROW(ptr, nr, alloc)					\
	do {								\
		if ((nr) > (alloc)) {					\
			(alloc) = (alloc) ? (alloc) * 2 : 8;		\
			if ((alloc) < (nr))				\
				(alloc) = (nr);				\
			(ptr) = xrealloc((ptr), (alloc) * sizeof(*(ptr))); \
		}							\
	} while (0)

/* ALLOC_GROW() for arrays that may reach megabytes: xrealloc_big(). */
#define ALLOC_GROW_BIG(ptr, nr, alloc)					\
	do {								\
		if ((nr) > (alloc)) {					\
			(alloc) = (alloc) ? (alloc) * 2 : 8;		\
			if ((alloc) < (nr))				\
				(alloc) = (nr);				\
			(ptr) = xrealloc_big((ptr), (alloc) * sizeof(*(ptr))); \
		}							\
	} while (0)

#endif
