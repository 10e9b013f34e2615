// SPDX-License-Identifier: GPL-2.0
/* The database readers' shared options (db-options.h). */
#include "builtin/db-options.h"

bool db_args_parse(struct db_args *a, int c, const char *arg)
{
	switch (c) {
	case DB_OPT_DB:
		a->db = arg;
		return true;
	case DB_OPT_BOOT:
		a->boot = arg;
		return true;
	case DB_OPT_BOOTS:
		a->boots = arg;
		return true;
	}
	return false;
}

bool out_args_parse(struct out_args *a, int c)
{
	switch (c) {
	case 'p':
		a->pretty = true;
		/* fall through */
	case 'j':
		a->json = true;
		return true;
	}
	return false;
}
