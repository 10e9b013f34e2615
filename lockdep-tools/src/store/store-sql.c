// SPDX-License-Identifier: GPL-2.0
/* The SQL helpers every store file shares (store-int.h). */
#include <string.h>

#include "store/store-int.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

int store_prepare(struct store *st, const char *sql, sqlite3_stmt **s)
{
	if (sqlite3_prepare_v2(st->db, sql, -1, s, NULL) != SQLITE_OK)
		return store_fail(st, "unable to read");
	return 0;
}

int store_finish(struct store *st, sqlite3_stmt *s, int rc, int ret)
{
	sqlite3_finalize(s);
	if (!ret && rc != SQLITE_DONE)
		return store_fail(st, "unable to read");
	return ret;
}

int store_each_row(struct store *st, const char *sql, int64_t boot,
		   int (*row)(sqlite3_stmt *s, void *data), void *data)
{
	sqlite3_stmt *s;
	int rc, ret = 0;

	if (store_prepare(st, sql, &s))
		return -1;
	sqlite3_bind_int64(s, 1, boot);
	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW)
		ret = row(s, data);
	return store_finish(st, s, rc, ret);
}

const char *store_col_text(sqlite3_stmt *s, int i)
{
	return (const char *)sqlite3_column_text(s, i);
}

char *store_col_strdup(sqlite3_stmt *s, int i)
{
	const char *t = store_col_text(s, i);

	return t ? xstrdup(t) : NULL;
}

int store_exec(struct store *st, const char *sql, const char *what)
{
	char *msg = NULL;

	if (sqlite3_exec(st->db, sql, NULL, NULL, what ? &msg : NULL) ==
	    SQLITE_OK)
		return 0;
	if (what)
		error("unable to %s '%s': %s", what, st->path,
		      msg ? msg : sqlite3_errmsg(st->db));
	sqlite3_free(msg);
	return -1;
}

/* A stored NUL written "\0" (store-int.h says why). */
const char *store_col_name(sqlite3_stmt *s, int i, struct strbuf *sb)
{
	const char *t = store_col_text(s, i);
	int k, n = sqlite3_column_bytes(s, i);

	if (!t || !memchr(t, '\0', n))
		return t;
	strbuf_reset(sb);
	for (k = 0; k < n; k++) {
		if (t[k])
			strbuf_addch(sb, t[k]);
		else
			strbuf_addstr(sb, "\\0");
	}
	return sb->buf;
}
