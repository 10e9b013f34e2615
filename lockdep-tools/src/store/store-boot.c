// SPDX-License-Identifier: GPL-2.0
/*
 * store-boot.h: the boots a command line names. Labels are not unique
 * (lockdep-collect --label takes any text, lockdep-merge keeps them), so
 * a label is looked up as a set and must have exactly one member.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store-boot.h"
#include "store/store-int.h"
#include "util/cli.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static void set_add(struct store_boot_set *set, int64_t id,
		    const unsigned char *label)
{
	size_t i;

	for (i = 0; i < set->nr; i++)
		if (set->ids[i] == id)
			return;		/* named twice */
	ALLOC_GROW(set->ids, set->nr + 1, set->alloc);
	set->labels = xrealloc(set->labels, set->alloc * sizeof(*set->labels));
	set->ids[set->nr] = id;
	set->labels[set->nr] = label ? xstrdup((const char *)label) : NULL;
	set->nr++;
}

void store_boot_set_release(struct store_boot_set *set)
{
	size_t i;

	for (i = 0; i < set->nr; i++)
		free(set->labels[i]);
	free(set->ids);
	free(set->labels);
	memset(set, 0, sizeof(*set));
}

/*
 * Every boot row of @sql (id, label), ?1 bound to @text if not NULL, else
 * to @id, into @set: the number of rows, or -1 after an error printed.
 */
static long add_rows(struct store *st, const char *sql, const char *text,
		     int64_t id, struct store_boot_set *set)
{
	sqlite3_stmt *s;
	long n = 0;
	int rc;

	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return store_fail(st, "unable to read");
	if (text)
		sqlite3_bind_text(s, 1, text, -1, SQLITE_STATIC);
	else
		sqlite3_bind_int64(s, 1, id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		set_add(set, sqlite3_column_int64(s, 0), sqlite3_column_text(s, 1));
		n++;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return store_fail(st, "unable to read");
	return n;
}

/* The boot @spec names, added to @set: 0, or -1 after an error. */
static int resolve_into(struct store *st, const char *spec,
			struct store_boot_set *set)
{
	struct store_boot_set same = { 0 };
	struct strbuf ids = STRBUF_INIT;
	unsigned long long v;
	/* an id is digits alone: "+1" or " 1" is a label */
	bool number = !cli_parse_uint(spec, INT64_MAX, &v) && v > 0;
	long n = 0;
	size_t i;

	if (number)
		n = add_rows(st, "SELECT id, label FROM boots WHERE id = ?1",
			     NULL, (int64_t)v, &same);
	if (!n)
		n = add_rows(st, "SELECT id, label FROM boots WHERE label = ?1"
			     " ORDER BY id", spec, 0, &same);
	if (n == 1)
		set_add(set, same.ids[0], (const unsigned char *)same.labels[0]);
	else if (!n && number)
		error("no boot %s in '%s'", spec, st->path);
	else if (!n)
		error("no boot '%s' in '%s'", spec, st->path);
	for (i = 0; n > 1 && i < same.nr; i++)
		strbuf_addf(&ids, "%s%lld",
			    !i ? "" : i + 1 == same.nr ? " and " : ", ",
			    (long long)same.ids[i]);
	if (n > 1)
		error("label '%s' names boots %s in '%s': name one by its id",
		      spec, ids.buf, st->path);
	strbuf_release(&ids);
	store_boot_set_release(&same);
	return n == 1 ? 0 : -1;
}

int store_boot_resolve(struct store *st, const char *spec, int64_t *id)
{
	struct store_boot_set one = { 0 };
	int ret = resolve_into(st, spec, &one);

	if (!ret)
		*id = one.ids[0];
	store_boot_set_release(&one);
	return ret;
}

int store_boot_select(struct store *st, const char *list, bool all_ok,
		      struct store_boot_set *set)
{
	char *copy, *tok, *save = NULL;
	int ret = 0;

	if (!list || (all_ok && !strcmp(list, "all"))) {
		/* the newest boot, or every boot oldest first: a fleet's union */
		if (add_rows(st, list ? "SELECT id, label FROM boots ORDER BY id" :
			     "SELECT id, label FROM boots ORDER BY id DESC LIMIT 1",
			     NULL, 0, set) < 0)
			return -1;
		if (!set->nr)
			return error("'%s' holds no boot", st->path);
		return 0;
	}
	copy = xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save))
		ret = resolve_into(st, tok, set);
	free(copy);
	if (!ret && !set->nr)
		ret = error("no boot named in '%s'", list);
	return ret;
}
