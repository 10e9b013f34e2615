// SPDX-License-Identifier: GPL-2.0
/* The SQL helpers every store file shares (store-int.h). */
#include "store/store-int.h"
#include "util/error.h"
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
