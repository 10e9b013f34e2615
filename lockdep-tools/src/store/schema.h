/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The store's forward migrations (schema.c): store_migrations[i] is the
 * SQL that takes user_version i to i + 1.
 */
#ifndef STORE_SCHEMA_H
#define STORE_SCHEMA_H

extern const char *const store_migrations[];
extern const int store_nr_migrations;

#endif
