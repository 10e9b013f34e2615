// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the cross-boot class identity (store/identity.h): the C
 * rule the store applies to new classes, and migration 3's SQL that
 * fills it in for classes stored before, must give the same string for
 * every name, including the odd ones a hostile guest could print.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/proc-line.h"
#include "store/identity.h"
#include "store/schema.h"
#include "store/store.h"

static char dir[] = "/tmp/test-diff-identity.XXXXXX";
static char path[80];

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/test-diff-identity.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/db", dir);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

/* name as printed -> identity */
static const char *const cases[][2] = {
	{ "console_lock",			"console_lock" },
	{ "&sb->s_type->i_lock_key#3",		"&sb->s_type->i_lock_key" },
	{ "&sb->s_type->i_mutex_key#3/1",	"&sb->s_type->i_mutex_key/1" },
	{ "&dentry->d_lock/1",			"&dentry->d_lock/1" },
	{ "ptlock_ptr(page)#2",			"ptlock_ptr(page)" },
	{ "rcu_node_0",				"rcu_node_0" },
	{ "&x->y#10/3",				"&x->y/3" },
	{ "a/0",				"a" },
	{ "a/007",				"a/7" },
	{ "#3",					"#3" },
	{ "/1",					"/1" },
	{ "a#",					"a#" },
	{ "a/",					"a/" },
	{ "a#2#3",				"a#2" },
	{ "a//1",				"a//1" },
	{ "a#b/1",				"a#b/1" },
	{ "x#1234567890",			"x#1234567890" },
	{ "x/1234567890",			"x/1234567890" },
	{ "x/123456789",			"x/123456789" },
	{ "9",					"9" },
	{ "(wq_completion)events",		"(wq_completion)events" },
};
#define NR_CASES (sizeof(cases) / sizeof(cases[0]))

static char *identity_of(const char *name)
{
	unsigned int version, subclass;
	size_t len = proc_split_name(name, strlen(name), &version, &subclass);

	return store_class_identity(name, len, subclass);
}

static void test_rule(void **state)
{
	size_t i;
	char *id;

	(void)state;
	for (i = 0; i < NR_CASES; i++) {
		id = identity_of(cases[i][0]);
		assert_string_equal(id, cases[i][1]);
		free(id);
	}
}

static void exec_raw(sqlite3 *db, const char *sql)
{
	char *err = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
		fail_msg("%s: %s", sql, err);
}

/* A version-2 database with every case as a class; opening migrates it. */
static void test_migration_agrees(void **state)
{
	sqlite3_stmt *s;
	struct store *st;
	sqlite3 *db;
	size_t i;
	char *id;

	(void)state;
	assert_true(store_nr_migrations >= 3);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	exec_raw(db, store_migrations[0]);
	exec_raw(db, store_migrations[1]);
	exec_raw(db, "PRAGMA user_version = 2;"
		 "INSERT INTO boots (label, collected_at, source)"
		 " VALUES ('old', '2024-01-01T00:00:00Z', 'proc-dir')");
	assert_int_equal(sqlite3_prepare_v2(db,
		"INSERT INTO classes (boot_id, name) VALUES (1, ?)", -1, &s,
		NULL), SQLITE_OK);
	for (i = 0; i < NR_CASES; i++) {
		sqlite3_reset(s);
		sqlite3_bind_text(s, 1, cases[i][0], -1, SQLITE_STATIC);
		assert_int_equal(sqlite3_step(s), SQLITE_DONE);
	}
	sqlite3_finalize(s);
	sqlite3_close(db);

	st = store_open(path, 0);
	assert_non_null(st);
	store_close(st);

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
		"SELECT name, identity FROM classes ORDER BY id", -1, &s,
		NULL), SQLITE_OK);
	for (i = 0; i < NR_CASES; i++) {
		assert_int_equal(sqlite3_step(s), SQLITE_ROW);
		id = identity_of((const char *)sqlite3_column_text(s, 0));
		assert_string_equal((const char *)sqlite3_column_text(s, 1), id);
		free(id);
	}
	assert_int_equal(sqlite3_step(s), SQLITE_DONE);
	sqlite3_finalize(s);
	/* the collision view counts the classes sharing one identity */
	assert_int_equal(sqlite3_prepare_v2(db,
		"SELECT classes FROM class_identities WHERE identity = 'a'",
		-1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(s, 0), 1);
	sqlite3_finalize(s);
	sqlite3_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule),
		cmocka_unit_test_setup_teardown(test_migration_agrees, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
