#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='the rooms of lockdep-tools/src keep to their rules

SQLite is spoken only in src/store/ (ARCHITECTURE.md, GUIDE: "SQLite only
in store/"): no other file includes sqlite3.h or the store'"'"'s insides, or
calls sqlite3_*.'
. "$(dirname "$0")/lib.sh"

SRC=$TOP/lockdep-tools/src

test_expect_success 'SQLite only in src/store/' '
	(cd "$SRC" && grep -rlE "sqlite3_[a-z_]+ *\(|#include [<\"](sqlite3\.h|store/store-int\.h)" \
		--include="*.c" --include="*.h" . | grep -v "^\./store/" | sort) >outside &&
	test_cmp /dev/null outside
'

test_done
