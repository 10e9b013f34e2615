// SPDX-License-Identifier: GPL-2.0
/*
 * The cross-boot identity of a lock class (store/identity.h). Migration
 * 3 of schema.c computes the same string in SQL for the classes stored
 * before it; tests/unit/test-diff-identity.c holds the two to agreement.
 */
#include <stdio.h>
#include <string.h>

#include "store/identity.h"
#include "util/xalloc.h"

char *store_class_identity(const char *class_name, size_t class_len,
			   unsigned int subclass)
{
	char *s = xmalloc(class_len + 12);

	memcpy(s, class_name, class_len);
	if (subclass)
		snprintf(s + class_len, 12, "/%u", subclass);
	else
		s[class_len] = '\0';
	return s;
}
