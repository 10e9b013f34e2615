/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The store's forward migrations (schema.c): store_migrations[i] is the
 * SQL that takes user_version i to i + 1.
 */
#ifndef STORE_SCHEMA_H
#define STORE_SCHEMA_H

extern const char *const store_migrations[];
extern const int store_nr_migrations;

/* PRAGMA application_id of our databases: "LDEP" */
#define STORE_APPLICATION_ID	0x4c444550
/*
 * The first schema version whose databases carry it; a database of ours
 * at a version below it has application_id 0.
 */
extern const int store_app_id_version;

#endif
