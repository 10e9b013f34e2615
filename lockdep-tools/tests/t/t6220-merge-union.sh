#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-merge keeps the union of its boots

A merge keeps each distinct class and dependency of its boots once (the
union tables of lockdep-db(5)) and each boot'"'"'s membership as a pack,
so that lockdep-graph --boots all reads the union (but for a bounded
picture, which ranks by the chains of each boot) in time proportional
to its distinct dependencies. The union is a cache: the graph read
through it must be the graph read from the boots'"'"' rows, byte for byte,
after every kind of change (a boot collected after the merge, a boot
deleted, a boot that makes a shared identity ambiguous), and a union
that is not of exactly the boots asked for is not read. The sources
are real 6.1 collections (tests/fixtures/6.1, whose classes share
identities within the boot), two of them with a dependency that only
their union closes into a cycle.'
. "$(dirname "$0")/lib.sh"

FIX=$TOP/lockdep-tools/tests/fixtures/6.1
merge() { "$BIN/lockdep-merge" "$@"; }
collect() { "$BIN/lockdep-collect" "$@" 2>/dev/null; }
graph() { "$BIN/lockdep-graph" "$@"; }

# half NAME A B [C]: the fixture's /proc files in NAME/ with A -> B added
# (and a class C of its own); A's usage is $USAGE (default +.+.)
half() {
	mkdir -p "$1" &&
	cp "$FIX/lockdep" "$FIX/lockdep_stats" "$FIX/lockdep_chains" "$FIX/lock_stat" "$1/" &&
	printf '(____ptrval____) FD:    1 BD:    1 %s: %s\n -> [(____ptrval____)] %s\n\n(____ptrval____) FD:    0 BD:    2 +.+.: %s\n\n' \
		"${USAGE:-+.+.}" "$2" "$3" "$3" >>"$1/lockdep" &&
	if [ -n "${4:-}" ]; then
		printf '(____ptrval____) FD:    0 BD:    0 ....: %s\n\n' "$4" >>"$1/lockdep"
	fi
}

# views DB OUT: the union's graph as the tools print it, every view (DB
# a name in the current directory: JSON names it)
views() {
	graph --db "$1" --boots all --max-nodes 0 >"$2.dot" &&
	graph --db "$1" --boots all --cycles --json --max-cycles 0 >"$2.cycles" &&
	graph --db "$1" --boots all --cycles --list >"$2.list" &&
	graph --db "$1" --boots all --irq --json >"$2.irq"
}

# copy DB TO: a copy of the file, schema cookie and all (.backup and
# VACUUM write a new cookie: a union stamped under the old one is stale)
copy() {
	sqlite3 "$1" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null &&
	cp "$1" "$2"
}

# same_as_rows DB: the graph read from the boots' rows (the union
# dropped in a copy) is the graph of DB, in every view
same_as_rows() {
	rm -rf rows && mkdir rows && copy "$1" "rows/$1" &&
	sqlite3 "rows/$1" "DELETE FROM union_state" &&
	views "$1" u && (cd rows && views "$1" ../r) &&
	for v in dot cycles list irq; do
		test_cmp r.$v u.$v || return 1
	done
}

# read_from_union DB: lockdep-graph reads DB's union (a name forged in
# the union's copy shows), or with "not", reads the rows
read_from_union() {
	rm -f forged.db* && copy "$1" forged.db &&
	sqlite3 forged.db "UPDATE union_classes SET name = 'forged_' || name" &&
	graph --db forged.db --boots all --max-nodes 0 >forged.dot &&
	if [ "${2:-}" = not ]; then
		! grep -q forged_ forged.dot
	else
		grep -q forged_ forged.dot
	fi
}

# covered DB: the boots the union holds, of how many
covered() {
	sqlite3 "$1" "SELECT (SELECT count(*) FROM union_packs) || '/' ||
		(SELECT count(*) FROM boots) || ' ' ||
		(SELECT count(*) FROM union_state WHERE kept)"
}

test_expect_success 'setup: five boots, two of them halves of a cycle' '
	# order_b used one way in one boot, another in the other
	half ab order_a order_b && USAGE=-.-. half ba order_b order_a &&
	test_expect_code 3 collect --db ab.db --proc-dir ab --label ab >/dev/null &&
	test_expect_code 3 collect --db ba.db --proc-dir ba --label ba >/dev/null &&
	for i in 1 2 3 4; do
		collect --db idle$i.db --proc-dir "$FIX" --label idle$i >/dev/null || return 1
	done &&
	[ "$(sqlite3 idle1.db "SELECT count(*) - count(DISTINCT identity) FROM classes")" -gt 0 ]
'

test_expect_success 'a merge keeps the union: --boots all reads it, the graph of the rows' '
	merge -q --db fleet.db idle1.db ab.db idle2.db &&
	merge -q --db fleet.db ba.db idle3.db &&
	echo "5/5 1" >expect && covered fleet.db >actual && test_cmp expect actual &&
	read_from_union fleet.db &&
	same_as_rows fleet.db &&
	grep -q "label=\"order_b.n{?.?.}\"" u.dot &&
	grep -q order_a u.list
'

test_expect_success 'the union holds each class and dependency once, each boot a pack' '
	grep -q "\"dependencies\":$(sqlite3 fleet.db "SELECT count(*) FROM union_deps")," u.cycles &&
	[ "$(sqlite3 fleet.db "SELECT count(*) FROM union_deps")" -lt \
	  "$(sqlite3 fleet.db "SELECT count(*) FROM dependencies")" ] &&
	[ "$(sqlite3 fleet.db "SELECT count(*) FROM union_classes")" -lt \
	  "$(sqlite3 fleet.db "SELECT 2 * count(*) FROM classes WHERE boot_id = 1")" ]
'

test_expect_success 'a boot collected after the merge: its rows are read, the next merge adds it' '
	collect --db fleet.db --proc-dir "$FIX" --label late >/dev/null &&
	echo "5/6 1" >expect && covered fleet.db >actual && test_cmp expect actual &&
	read_from_union fleet.db not && same_as_rows fleet.db &&
	merge -q --db fleet.db idle4.db &&
	echo "7/7 1" >expect && covered fleet.db >actual && test_cmp expect actual &&
	read_from_union fleet.db && same_as_rows fleet.db
'

test_expect_success 'a boot deleted drops the union; the next merge builds it anew' '
	sqlite3 fleet.db "PRAGMA foreign_keys = ON; DELETE FROM boots WHERE label = '"'"'ab'"'"'" &&
	echo "6/6 0" >expect && covered fleet.db >actual && test_cmp expect actual &&
	read_from_union fleet.db not && same_as_rows fleet.db &&
	! grep -q order_a u.list &&
	merge -q --db fleet.db ab.db &&
	echo "7/7 1" >expect && covered fleet.db >actual && test_cmp expect actual &&
	read_from_union fleet.db && same_as_rows fleet.db &&
	grep -q order_a u.list
'

test_expect_success 'a class row of a boot in the union changed by hand drops the union' '
	sqlite3 fleet.db "UPDATE classes SET usage_bits = 1 WHERE id = (SELECT max(id) FROM classes)" &&
	echo "0" >expect && sqlite3 fleet.db "SELECT count(*) FROM union_state" >actual &&
	test_cmp expect actual && same_as_rows fleet.db
'

test_expect_success 'a boot that makes a shared identity ambiguous: the union as the rows say' '
	half one order_c order_d lone_key && half two order_c order_d lone_key#2 &&
	printf "(____ptrval____) FD:    0 BD:    0 ....: lone_key\n\n" >>two/lockdep &&
	test_expect_code 3 collect --db one.db --proc-dir one --label one >/dev/null &&
	test_expect_code 3 collect --db two.db --proc-dir two --label two >/dev/null &&
	merge -q --db amb.db one.db idle1.db &&
	echo "2/2 1" >expect && covered amb.db >actual && test_cmp expect actual &&
	merge -q --db amb.db two.db &&
	echo "3/3 1" >expect && covered amb.db >actual && test_cmp expect actual &&
	[ "$(sqlite3 amb.db "SELECT count(*) FROM union_classes WHERE class_id IN
		(SELECT id FROM classes WHERE identity = '"'"'lone_key'"'"')")" = 3 ] &&
	read_from_union amb.db && same_as_rows amb.db
'

# version 14: this schema without the union (UNDO_V15 of lib.sh)
test_expect_success 'a database of schema 14 migrates: its next merge builds the union' '
	rm -f v14.db* && copy fleet.db v14.db &&
	sqlite3 v14.db "$UNDO_V15; PRAGMA user_version = 14" &&
	[ "$(sqlite3 v14.db "SELECT count(*) FROM sqlite_schema WHERE name LIKE '"'"'union%'"'"'")" = 0 ] &&
	graph --db v14.db --boots all --cycles --list >v14.list 2>err &&
	grep -q "reading a copy migrated to" err &&
	merge -q --db v14.db idle1.db &&
	[ "$(sqlite3 v14.db "PRAGMA user_version")" -gt 14 ] &&
	echo "7/7 1" >expect && covered v14.db >actual && test_cmp expect actual &&
	read_from_union v14.db && same_as_rows v14.db &&
	test_cmp v14.list u.list
'

test_expect_success 'a forged pack is refused, named, and the rows are read' '
	rm -f bad.db* && copy fleet.db bad.db &&
	merge -q --db bad.db idle1.db &&
	sqlite3 bad.db "UPDATE union_packs SET pack = x'"'"'ffffffffff'"'"'
		WHERE boot_id = (SELECT min(boot_id) FROM union_packs)" &&
	graph --db bad.db --boots all --cycles --list >bad.list 2>err &&
	grep "union pack of boot [0-9]* is damaged" err &&
	graph --db fleet.db --boots all --cycles --list >good.list &&
	test_cmp good.list bad.list
'

test_done
