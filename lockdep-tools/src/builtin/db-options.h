/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options every reader of a database shares, declared once: the
 * database and the boot selection (lockdep-graph, lockdep-report,
 * lockdep-diff; a boot is an id or a label, store/store-boot.h), and the
 * output format (-j/--json, -p/--pretty, which implies --json).
 *
 *   static const struct option longopts[] = {
 *           DB_LONGOPTS, BOOT_LONGOPT, OUT_LONGOPTS, ...
 *   };
 *   getopt_long(argc, argv, OUT_SHORTOPTS "h", ...)
 *   default:
 *           if (db_args_parse(&db, c, optarg) || out_args_parse(&out, c))
 *                   break;
 *           return cli_usage();
 */
#ifndef BUILTIN_DB_OPTIONS_H
#define BUILTIN_DB_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>

enum {
	DB_OPT_DB = 0x1100,
	DB_OPT_BOOT,
	DB_OPT_BOOTS,
};

#define DB_LONGOPTS	{ "db", required_argument, NULL, DB_OPT_DB }
#define BOOT_LONGOPT	{ "boot", required_argument, NULL, DB_OPT_BOOT }
#define BOOTS_LONGOPT	{ "boots", required_argument, NULL, DB_OPT_BOOTS }
#define OUT_LONGOPTS						\
	{ "json", no_argument, NULL, 'j' },			\
	{ "pretty", no_argument, NULL, 'p' }
#define OUT_SHORTOPTS	"jp"

struct db_args {
	const char *db;
	const char *boot;	/* --boot ID|LABEL */
	const char *boots;	/* --boots A,B,... | all */
};

struct out_args {
	bool json, pretty;
};

/* Take option @c with @arg if it is one of them: true, else false. */
bool db_args_parse(struct db_args *a, int c, const char *arg);
bool out_args_parse(struct out_args *a, int c);

#endif
