// SPDX-License-Identifier: GPL-2.0
/*
 * The cross-boot identity of a lock class (store/identity.h). Migration
 * 3 of schema.c computes the same string in SQL for the classes stored
 * before it; tests/unit/test-diff-identity.c holds the two to agreement.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/identity.h"
#include "util/strbuf.h"
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

char *store_class_identity_key(const char *class_name, size_t class_len,
			       unsigned int subclass, const char *key_symbol)
{
	struct strbuf sb = STRBUF_INIT;
	char *base = store_class_identity(class_name, class_len, subclass);

	strbuf_add(&sb, base, class_len + strlen(base + class_len));
	strbuf_addch(&sb, '@');
	strbuf_addstr(&sb, key_symbol);
	free(base);
	return strbuf_detach(&sb, NULL);
}
