#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='the rooms of lockdep-tools/src keep to their rules

SQLite is spoken only in src/store/ (ARCHITECTURE.md, GUIDE: "SQLite only
in store/"): no other file includes sqlite3.h or the store'"'"'s insides, or
calls sqlite3_*. The tools'"'"' mains are a layer of their own, src/builtin/,
over the library folders, whose #includes form no cycle.'
. "$(dirname "$0")/lib.sh"

SRC=$TOP/lockdep-tools/src

test_expect_success 'SQLite only in src/store/' '
	(cd "$SRC" && grep -rlE "sqlite3_[a-z_]+ *\(|#include [<\"](sqlite3\.h|store/store-int\.h)" \
		--include="*.c" --include="*.h" . | grep -v "^\./store/" | sort) >outside &&
	test_cmp /dev/null outside
'

# folder_edges: "FROM TO" for each #include "TO/..." in a file of
# src/FROM/ (FROM != TO)
folder_edges() {
	local f from to
	(cd "$SRC" && for f in */*.[ch]; do
		from=${f%%/*}
		grep -o '^#include "[a-z0-9_-]*/' "$f" | sed 's/^#include "//; s|/$||' |
		while read -r to; do
			[ "$to" = "$from" ] || echo "$from $to"
		done
	done) | sort -u
}

test_expect_success 'the folders'"'"' #includes have no cycle' '
	folder_edges >edges &&
	test -s edges &&
	tsort edges >order 2>err &&
	test_cmp /dev/null err
'

test_expect_success 'the mains live in src/builtin/, and nothing below includes it' '
	(cd "$SRC" && ls */lockdep-*.c) >mains &&
	! grep -v "^builtin/" mains &&
	! grep " builtin$" edges
'

test_done
