#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-merge: which rows a source may add

A source adds the rows of its own boots and nothing else: a row whose
boot the source does not have (boot_id 0, a boot deleted without its
rows) would be renumbered onto a boot the database already holds, so it
is skipped and said. Uuids compare in one form (32 lowercase hex
digits: dashes, blanks and capitals dropped), and what is not a uuid
in that form is refused. A source path may start with "//". Standard
output failing after every boot was merged is partial (1), not fatal.'
. "$(dirname "$0")/lib.sh"

FIX=$TOP/lockdep-tools/tests/fixtures/6.1
merge() { "$BIN/lockdep-merge" "$@"; }
collect() { "$BIN/lockdep-collect" "$@" 2>/dev/null; }
count() { sqlite3 "$1" "SELECT count(*) FROM $2"; }

test_expect_success 'setup: a graph boot, and a log boot with reports' '
	collect --db "$TRASH/a.db" --proc-dir "$FIX" --label a >/dev/null &&
	cat "$FIX/console.log" "$CORPUS/002-circular.txt" >"$TRASH/r.log" &&
	collect --db "$TRASH/r.db" --log "$TRASH/r.log" --label r >/dev/null &&
	collect --db "$TRASH/r.db" --proc-dir "$FIX" --label g >/dev/null &&
	[ "$(count "$TRASH/r.db" reports)" -gt 0 ] &&
	[ "$(sqlite3 "$TRASH/r.db" "SELECT count(*) FROM reports WHERE boot_id = 2")" = 0 ]
'

test_expect_success 'a report of boot 0 is skipped, said (1): no boot held gains it' '
	merge -q --db d.db "$TRASH/a.db" &&
	cp "$TRASH/r.db" zero.db &&
	sqlite3 zero.db "UPDATE reports SET boot_id = 0" &&
	test_expect_code 1 merge --db d.db zero.db >out 2>err &&
	grep -q "zero.db.: .* rows* of reports belongs* to no boot of the source.*skipped" err &&
	echo "zero.db: 2 boots, 2 added" >expect && test_cmp expect out &&
	[ "$(count d.db reports)" = 0 ] && [ "$(count d.db report_locks)" = 0 ] &&
	[ -z "$(sqlite3 d.db "PRAGMA foreign_key_check")" ] &&
	# again: its boots are held now, its orphans still orphans
	test_expect_code 1 merge --db d.db zero.db >out 2>err &&
	grep -q "zero.db.: 1 row of reports belongs to no boot of the source.*skipped" err &&
	# the rows of the boots held are not orphans
	! grep -q "of classes" err &&
	echo "zero.db: 2 boots, 0 added" >expect && test_cmp expect out &&
	[ "$(count d.db reports)" = 0 ] && [ "$(count d.db boots)" = 3 ]
'

test_expect_success 'the rows of a boot deleted without them are skipped, said (1)' '
	merge -q --db e.db "$TRASH/a.db" &&
	cp "$TRASH/r.db" gone.db &&
	# the shell has foreign keys off: boot 1 goes, its rows stay
	sqlite3 gone.db "DELETE FROM boots WHERE id = 1" &&
	[ "$(sqlite3 gone.db "SELECT count(*) FROM reports WHERE boot_id = 1")" -gt 0 ] &&
	test_expect_code 1 merge --db e.db gone.db >out 2>err &&
	grep -q "gone.db.: .* of reports belong.* to no boot of the source.*skipped" err &&
	echo "gone.db: 1 boot, 1 added" >expect && test_cmp expect out &&
	# boot 1 is a.db'"'"'s: no report, its own classes and dependencies
	[ "$(count e.db reports)" = 0 ] &&
	for t in classes dependencies; do
		[ "$(sqlite3 e.db "SELECT count(*) FROM $t WHERE boot_id = 1")" = \
		  "$(count "$TRASH/a.db" $t)" ] || return 1
	done &&
	[ "$(sqlite3 e.db "SELECT count(*) FROM classes WHERE boot_id = 2")" = \
	  "$(sqlite3 gone.db "SELECT count(*) FROM classes WHERE boot_id = 2")" ] &&
	[ -z "$(sqlite3 e.db "PRAGMA foreign_key_check")" ]
'

test_expect_success 'a dependency naming a class of no boot is skipped, said (1)' '
	merge -q --db c.db "$TRASH/a.db" &&
	cp "$TRASH/a.db" dep.db &&
	sqlite3 dep.db "INSERT INTO dependencies (boot_id, from_class, to_class)
		VALUES (1, 0, (SELECT min(id) FROM classes));
		UPDATE boots SET uuid = lower(hex(randomblob(16)))" &&
	test_expect_code 1 merge --db c.db dep.db >out 2>err &&
	grep -q "dep.db.: 1 row of dependencies belongs to no boot of the source.*skipped" err &&
	[ "$(count c.db dependencies)" = $((2 * $(count "$TRASH/a.db" dependencies))) ] &&
	[ "$(sqlite3 c.db "SELECT count(*) FROM dependencies WHERE boot_id = 1")" = \
	  "$(count "$TRASH/a.db" dependencies)" ]
'

test_expect_success 'a row naming a row of several keys the source lacks: not merged (2)' '
	merge -q --db k.db "$TRASH/a.db" &&
	cp "$TRASH/a.db" key.db &&
	# the shell has foreign keys off: a frame of a trace boot 1 lacks
	sqlite3 key.db "INSERT INTO trace_frames (boot_id, trace_id, idx, addr)
		VALUES (1, (SELECT max(id) + 1 FROM traces), 0, '\''0'\'');
		UPDATE boots SET uuid = lower(hex(randomblob(16)))" &&
	test_expect_code 2 merge --db k.db key.db >out 2>err &&
	grep -q "unable to merge .key.db.* 1 row of trace_frames names no row of traces" err &&
	[ "$(count k.db boots)" = 1 ] &&
	[ "$(count k.db trace_frames)" = "$(count "$TRASH/a.db" trace_frames)" ] &&
	[ -z "$(sqlite3 k.db "PRAGMA foreign_key_check")" ] &&
	# a boot of the source whose rows are all there still merges
	cp "$TRASH/a.db" ok.db &&
	sqlite3 ok.db "UPDATE boots SET uuid = lower(hex(randomblob(16)))" &&
	merge -q --db k.db ok.db &&
	[ "$(count k.db trace_frames)" = $((2 * $(count "$TRASH/a.db" trace_frames))) ] &&
	[ -z "$(sqlite3 k.db "PRAGMA foreign_key_check")" ]
'

test_expect_success 'a source path starting with // merges' '
	merge --db s.db "/$TRASH/a.db" >out &&
	echo "/$TRASH/a.db: 1 boot, 1 added" >expect && test_cmp expect out &&
	merge --db s.db "//$TRASH/a.db" >out &&
	echo "//$TRASH/a.db: 1 boot, 0 added" >expect && test_cmp expect out &&
	# read-only, as immutable: a source in a directory we may not write
	mkdir ro && cp "$TRASH/a.db" ro/ && chmod 0555 ro &&
	merge --db s2.db "/$TRASH/ro/a.db" >out &&
	echo "/$TRASH/ro/a.db: 1 boot, 1 added" >expect && test_cmp expect out
'

test_expect_success 'uuids with dashes, blanks or capitals are the same boot' '
	merge -q --db u.db "$TRASH/a.db" &&
	u=$(sqlite3 "$TRASH/a.db" "SELECT uuid FROM boots") &&
	dashed="${u:0:8}-${u:8:4}-${u:12:4}-${u:16:4}-${u:20}" &&
	for form in "$dashed" " $u " "$(echo "$dashed" | tr a-f A-F)"; do
		cp "$TRASH/a.db" v.db &&
		sqlite3 v.db "UPDATE boots SET uuid = '\''$form'\''" &&
		merge --db u.db v.db >out 2>err &&
		echo "v.db: 1 boot, 0 added" >expect && test_cmp expect out &&
		test_cmp /dev/null err || return 1
	done &&
	# a new boot in that form is stored in the one form
	new=$(sqlite3 :memory: "SELECT lower(hex(randomblob(16)))") &&
	cp "$TRASH/a.db" w.db &&
	sqlite3 w.db "UPDATE boots SET uuid = upper('\''${new:0:8}-${new:8:4}-${new:12:4}-${new:16:4}-${new:20}'\'')" &&
	merge --db u.db w.db >out &&
	echo "w.db: 1 boot, 1 added" >expect && test_cmp expect out &&
	[ "$(sqlite3 u.db "SELECT uuid FROM boots WHERE id = 2")" = "$new" ]
'

test_expect_success 'what is not 32 hex digits is no uuid: refused, named (1)' '
	for bad in "x$(printf %031d 0)" "$(printf %030d 0)" "12 34"; do
		cp "$TRASH/a.db" bad.db &&
		sqlite3 bad.db "UPDATE boots SET uuid = '\''$bad'\''" &&
		test_expect_code 1 merge --db b.db bad.db >out 2>err &&
		grep -q "bad.db.: boot 1 has no uuid of 32 hexadecimal digits.*refused" err ||
		return 1
	done &&
	[ "$(count b.db boots)" = 0 ]
'

test_expect_success 'standard output failing after the merge: partial (1), boots kept' '
	test_expect_code 1 merge --db o.db "$TRASH/a.db" >/dev/full 2>err &&
	grep -q "every source was merged" err &&
	[ "$(count o.db boots)" = 1 ] &&
	# with a source failing too, still partial; all failing, fatal
	echo junk >junk.db &&
	test_expect_code 1 merge --db o2.db "$TRASH/a.db" junk.db >/dev/full 2>err &&
	test_expect_code 2 merge --db o3.db junk.db >/dev/full 2>err
'

test_done
