#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='readers read a database of an old schema

tests/fixtures/db-schema4 is a database of schema version 4 made by the
tools of that time (commit 65f8b6f): a circular report from a log and a
cut of the 6.1 /proc files. lockdep-report, lockdep-graph and lockdep-diff
read it through a copy migrated in memory, and see what they see in a
database of today made from the same inputs; the file stays as it was.'
. "$(dirname "$0")/lib.sh"

OLD=$TOP/lockdep-tools/tests/fixtures/db-schema4

test_expect_success 'setup: the old database, and one of today from the same inputs' '
	sqlite3 old.db <"$OLD/lockdep.sql" &&
	test "$(sqlite3 old.db "PRAGMA user_version")" = 4 &&
	cp old.db old.orig &&
	"$BIN/lockdep-collect" --db new.db --log "$CORPUS/002-circular.txt" \
		--label circ >/dev/null 2>&1 &&
	test_expect_code 1 "$BIN/lockdep-collect" --db new.db \
		--proc-dir "$OLD/proc" --label idle >/dev/null 2>&1
'

test_expect_success 'lockdep-report: the same reports, a warning naming the copy' '
	"$BIN/lockdep-report" --db old.db --all >old.txt 2>err &&
	grep -q "old.db. has schema version 4: reading a copy migrated" err &&
	"$BIN/lockdep-report" --db new.db --all >new.txt &&
	# the log was read from wherever the corpus was when the fixture was
	# made: its directory is not the report
	sed "s|^\(  input: *\).*/|\1|" old.txt >old.cmp &&
	sed "s|^\(  input: *\).*/|\1|" new.txt >new.cmp &&
	grep -q "^  input: *002-circular.txt:1-161$" old.cmp &&
	test_cmp new.cmp old.cmp &&
	grep -q "possible circular locking dependency" old.txt
'

# graph_of DB: the classes and dependencies of boot idle, as drawn
graph_of() {
	"$BIN/lockdep-graph" --db "$1" --boot idle --max-nodes 0 2>/dev/null |
		grep -o "^	n[0-9]* \[ label=\"[^\"]*\"\|tooltip=\"[^\\]* --> [^\\]*" |
		sort -u
}

# the schema 4 boot cannot say whether it had the graph export (schema 9
# records that), so boot metadata may differ: the graph may not
test_expect_success 'lockdep-graph: the same classes and dependencies' '
	graph_of old.db >old.dot && graph_of new.db >new.dot &&
	test "$(grep -c -- "-->" old.dot)" = 8 &&
	test_cmp new.dot old.dot
'

test_expect_success 'lockdep-diff: two boots of the old database' '
	"$BIN/lockdep-diff" old.db:circ old.db:idle >old.diff 2>err &&
	"$BIN/lockdep-diff" new.db:circ new.db:idle >new.diff &&
	grep "^  [+-] " old.diff >a && grep "^  [+-] " new.diff >b &&
	test "$(grep -c -- " -> " a)" = 8 &&
	test_cmp b a
'

test_expect_success 'the file is never written: still version 4, byte for byte' '
	cmp old.db old.orig &&
	test "$(sqlite3 old.db "PRAGMA user_version")" = 4
'

test_done
