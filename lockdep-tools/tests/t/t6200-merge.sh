#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-merge: many boot databases into one

Sources are real 6.1 collections (tests/fixtures/6.1: the /proc files
and graph export of a guest boot) and real reports (the shared corpus)
stored by lockdep-collect, each into its own database, as the boots of
a fleet are. Merged, every row
of every table must be there once, under new ids that still join; a
boot keeps its uuid; merging again adds nothing; a damaged source adds
nothing and leaves the database as it was; merges and collections into
one database at the same time all land.'
. "$(dirname "$0")/lib.sh"

FIX=$TOP/lockdep-tools/tests/fixtures/6.1
MAN=$TOP/lockdep-tools/man/lockdep-merge.1
merge() { "$BIN/lockdep-merge" "$@"; }
collect() { "$BIN/lockdep-collect" "$@" 2>/dev/null; }
TABLES="boots files reports report_locks report_frames classes dependencies
chains chain_classes stats lock_stat lock_stat_points selftest traces
trace_frames graph_chains graph_chain_classes class_usage graph_exports
selftest_summary dependency_packs"

# rows DB: "table count" for every table above
rows() {
	for t in $TABLES; do
		echo "$t $(sqlite3 "$1" "SELECT count(*) FROM $t")"
	done
}

# content DB BOOT: the boot's classes and dependencies by name, id-free
content() {
	sqlite3 "$1" "SELECT name, usage_bits, identity FROM classes
		WHERE boot_id = $2 ORDER BY name, usage_bits;
		SELECT f.name, t.name, d.dep_bits, d.distance, s.site
		FROM dependencies d JOIN classes f ON f.id = d.from_class
		JOIN classes t ON t.id = d.to_class
		LEFT JOIN traces s ON s.boot_id = d.boot_id AND s.id = d.trace_id
		WHERE d.boot_id = $2 ORDER BY 1, 2;
		SELECT count(*) FROM reports WHERE boot_id = $2;
		SELECT outcome, failures, total FROM selftest_summary
		WHERE boot_id = $2"
}

test_expect_success 'setup: three boots in two databases' '
	collect --db "$TRASH/a.db" --proc-dir "$FIX" --label a >/dev/null &&
	cat "$FIX/console.log" "$CORPUS/002-circular.txt" "$CORPUS/003-inconsistent.txt" >"$TRASH/b.log" &&
	collect --db "$TRASH/b.db" --log "$TRASH/b.log" --label b >/dev/null &&
	collect --db "$TRASH/b.db" --proc-dir "$FIX" --label c >/dev/null &&
	[ "$(sqlite3 "$TRASH/b.db" "SELECT count(*) FROM boots")" = 2 ] &&
	[ "$(sqlite3 "$TRASH/b.db" "SELECT boot_id FROM selftest_summary")" = 1 ] &&
	[ "$(sqlite3 "$TRASH/a.db" "SELECT count(*) FROM graph_chain_classes")" -gt 0 ] &&
	[ "$(sqlite3 "$TRASH/b.db" "SELECT count(*) FROM report_frames")" -gt 0 ]
'

test_expect_success 'a merge copies every row of every boot, ids renumbered' '
	collect --db f.db --proc-dir "$FIX" --label own >/dev/null &&
	rows f.db >own &&
	merge --db f.db "$TRASH/a.db" "$TRASH/b.db" >out &&
	printf "%s\n" "$TRASH/a.db: 1 boot, 1 added" "$TRASH/b.db: 2 boots, 2 added" >expect &&
	test_cmp expect out &&
	rows "$TRASH/a.db" >a && rows "$TRASH/b.db" >b && rows f.db >f &&
	paste -d" " own a b | awk "{ print \$1, \$2 + \$4 + \$6 }" >sum &&
	test_cmp sum f &&
	[ -z "$(sqlite3 f.db "PRAGMA foreign_key_check")" ] &&
	[ "$(sqlite3 f.db "PRAGMA integrity_check")" = ok ]
'

test_expect_success 'each boot is the same boot after the copy, uuid and all' '
	for l in a b c; do
		src=$TRASH/a.db; [ $l = a ] || src=$TRASH/b.db
		s=$(sqlite3 "$src" "SELECT id FROM boots WHERE label = '\''$l'\''") &&
		d=$(sqlite3 f.db "SELECT id FROM boots WHERE label = '\''$l'\''") &&
		[ "$(sqlite3 "$src" "SELECT uuid FROM boots WHERE id = $s")" = \
		  "$(sqlite3 f.db "SELECT uuid FROM boots WHERE id = $d")" ] &&
		content "$src" "$s" >src.$l && content f.db "$d" >dst.$l &&
		test_cmp src.$l dst.$l || return 1
	done &&
	# the reports, rebuilt from the copied rows, print the same
	s=$(sqlite3 "$TRASH/b.db" "SELECT id FROM boots WHERE label = '\''b'\''") &&
	d=$(sqlite3 f.db "SELECT id FROM boots WHERE label = '\''b'\''") &&
	# (but for the boot line at the head: its id is renumbered)
	"$BIN/lockdep-report" --db "$TRASH/b.db" --boot "$s" | sed 1d >rep.src &&
	"$BIN/lockdep-report" --db f.db --boot "$d" | sed 1d >rep.dst &&
	[ -s rep.src ] && test_cmp rep.src rep.dst
'

test_expect_success 'merging again adds nothing' '
	rows f.db >before &&
	merge --db f.db "$TRASH/b.db" "$TRASH/a.db" "$TRASH/a.db" >out &&
	printf "%s\n" "$TRASH/b.db: 2 boots, 0 added" "$TRASH/a.db: 1 boot, 0 added" \
		"$TRASH/a.db: 1 boot, 0 added" >expect &&
	test_cmp expect out &&
	rows f.db >after && test_cmp before after
'

test_expect_success 'a fleet database merges into another: only its new boots' '
	merge --db g.db "$TRASH/a.db" >/dev/null &&
	merge --db g.db f.db >out &&
	echo "f.db: 4 boots, 3 added" >expect && test_cmp expect out &&
	[ "$(sqlite3 g.db "SELECT count(DISTINCT uuid) FROM boots")" = 4 ] &&
	rows f.db >f && rows g.db >g && test_cmp f g
'

test_expect_success 'a damaged source adds nothing (2); the next one still merges (1)' '
	cp "$TRASH/b.db" bad.db &&
	size=$(stat -c %s bad.db) && [ "$size" -gt 65536 ] &&
	# garbage over pages in the middle; the header still opens
	head -c 16384 /dev/urandom |
		dd of=bad.db bs=4096 seek=$((size / 4096 / 2)) conv=notrunc 2>/dev/null &&
	merge --db h.db "$TRASH/a.db" >/dev/null && rows h.db >before &&
	sqlite3 h.db .dump >dump.before &&
	test_expect_code 2 merge --db h.db bad.db >out 2>err &&
	grep "bad.db" err &&
	rows h.db >after && test_cmp before after &&
	sqlite3 h.db .dump >dump.after && test_cmp dump.before dump.after &&
	test_expect_code 1 merge --db h.db bad.db "$TRASH/b.db" >out 2>err &&
	grep -x "$TRASH/b.db: 2 boots, 2 added" out &&
	[ "$(sqlite3 h.db "SELECT count(*) FROM boots")" = 3 ]
'

test_expect_success 'ids that cannot be renumbered without overflow: refused (2)' '
	cp "$TRASH/a.db" far.db &&
	# another boot (uuid) whose chain ids start at INT64_MIN
	sqlite3 far.db "INSERT INTO chains VALUES (-9223372036854775808, 1, 9999, 0);
		UPDATE boots SET uuid = lower(hex(randomblob(16)))" &&
	merge --db k.db "$TRASH/a.db" >/dev/null && sqlite3 k.db .dump >dump.before &&
	test_expect_code 2 merge --db k.db far.db >out 2>err &&
	grep -q "far.db.*chains.id values (from -9223372036854775808) do not fit" err &&
	sqlite3 k.db .dump >dump.after && test_cmp dump.before dump.after
'

test_expect_success 'not a database, a missing file: named, nothing stored (2)' '
	echo "not sqlite" >junk.db &&
	test_expect_code 2 merge --db j.db junk.db 2>err &&
	grep "junk.db" err &&
	test_expect_code 2 merge --db j.db nosuch.db 2>err &&
	grep "nosuch.db" err && [ ! -e nosuch.db ] &&
	[ "$(sqlite3 j.db "SELECT count(*) FROM boots")" = 0 ]
'

test_expect_success 'merges and collections into one database at once all land' '
	for i in 1 2 3 4; do
		collect --db src$i.db --proc-dir "$FIX" --label s$i >/dev/null || return 1
	done &&
	pids= &&
	for i in 1 2 3 4; do
		merge -q --db fleet.db src$i.db 2>merge$i.err & pids="$pids $!"
		"$BIN/lockdep-collect" --db fleet.db --proc-dir "$FIX" --label live$i \
			>/dev/null 2>collect$i.err & pids="$pids $!"
	done &&
	for p in $pids; do wait $p || { cat ./*.err; return 1; }; done &&
	[ "$(sqlite3 fleet.db "SELECT count(*) FROM boots")" = 8 ] &&
	[ "$(sqlite3 fleet.db "SELECT count(DISTINCT uuid) FROM boots")" = 8 ] &&
	[ "$(sqlite3 fleet.db "SELECT count(*) FROM classes")" = \
	  "$((8 * $(sqlite3 src1.db "SELECT count(*) FROM classes")))" ] &&
	[ -z "$(sqlite3 fleet.db "PRAGMA foreign_key_check")" ] &&
	[ "$(sqlite3 fleet.db "PRAGMA integrity_check")" = ok ]
'

# hold_fresh DB TOOL ARGS...: a writer holds DB (new, rollback mode) while
# TOOL opens it: the writer has the lock before TOOL starts (its marker
# file), and lets it go once TOOL has the file open, so TOOL meets it
# when reading the schema and turning the file to WAL, where SQLite calls
# no busy handler. TOOL is a program, not a shell function: its own pid
# is the one that opens DB.
hold_fresh() {
	local db=$1 holder tool
	shift
	: >"$db" && rm -f hold.fifo held.mark && mkfifo hold.fifo || return 1
	sqlite3 -bail "$db" <hold.fifo >/dev/null &
	holder=$!
	exec 9>hold.fifo
	printf '%s\n' "BEGIN IMMEDIATE;" "CREATE TABLE held(a);" \
		".shell touch held.mark" >&9
	while [ ! -e held.mark ]; do
		kill -0 $holder 2>/dev/null || { exec 9>&-; return 1; }
		sleep 0.05
	done
	"$@" >/dev/null 2>hold.err &
	tool=$!
	while ! ls -l /proc/$tool/fd 2>/dev/null | grep -q "/$db\$"; do
		kill -0 $tool 2>/dev/null || break
		sleep 0.05
	done
	sleep 0.5
	echo "ROLLBACK;" >&9
	exec 9>&-
	wait $holder && wait $tool || { cat hold.err; return 1; }
}

test_expect_success 'a writer holding a new database: merge and collect wait for it' '
	hold_fresh held1.db "$BIN/lockdep-collect" --db held1.db --proc-dir "$FIX" &&
	[ "$(sqlite3 held1.db "PRAGMA journal_mode")" = wal ] &&
	hold_fresh held2.db "$BIN/lockdep-merge" --db held2.db src1.db &&
	[ "$(sqlite3 held2.db "SELECT count(*) FROM boots")" = 1 ]
'

test_expect_success 'a database merged into itself: said so at once (2)' '
	merge --db self.db "$TRASH/a.db" >/dev/null && rows self.db >before &&
	ln self.db self-link.db &&
	for src in self.db ./self.db self-link.db; do
		SECONDS=0 &&
		test_expect_code 2 merge --db self.db $src >out 2>err &&
		[ $SECONDS -lt 5 ] &&
		grep -q "unable to merge .$src. into .self.db.: it is that database itself" err ||
		{ cat err; return 1; }
	done &&
	rows self.db >after && test_cmp before after
'

test_expect_success 'a boot without a uuid is refused, named (1): never added twice' '
	cp "$TRASH/a.db" nouuid.db && sqlite3 nouuid.db "UPDATE boots SET uuid = NULL" &&
	for i in 1 2 3; do
		test_expect_code 1 merge --db n.db nouuid.db >out 2>err &&
		grep -q "nouuid.db.: boot 1 has no uuid.*refused" err || return 1
	done &&
	[ "$(sqlite3 n.db "SELECT count(*) FROM boots")" = 0 ]
'

test_expect_success 'uuids compare case-insensitively; a claimed uuid is refused, named (1)' '
	merge --db u.db "$TRASH/a.db" >/dev/null &&
	cp "$TRASH/a.db" upper.db && sqlite3 upper.db "UPDATE boots SET uuid = upper(uuid)" &&
	merge --db u.db upper.db >out 2>err && echo "upper.db: 1 boot, 0 added" >expect &&
	test_cmp expect out && test_cmp /dev/null err &&
	# a new boot whose uuid is written in capitals: stored as lowercase
	cp "$TRASH/a.db" fresh.db &&
	sqlite3 fresh.db "UPDATE boots SET uuid = upper(hex(randomblob(16)))" &&
	merge --db u.db fresh.db >/dev/null &&
	[ "$(sqlite3 u.db "SELECT uuid FROM boots WHERE id = 2")" = \
	  "$(sqlite3 fresh.db "SELECT lower(uuid) FROM boots")" ] &&
	cp "$TRASH/a.db" claim.db &&
	sqlite3 claim.db "UPDATE boots SET collected_at = '\''2020-01-01T00:00:00Z'\''" &&
	test_expect_code 1 merge --db u.db claim.db >out 2>err &&
	grep -q "claim.db.: boot 1 claims the uuid of boot 1 of .u.db., another boot: refused" err &&
	# two boots of one source with one uuid: the second is refused
	cp "$TRASH/b.db" twin.db &&
	sqlite3 twin.db "UPDATE boots SET uuid = upper((SELECT uuid FROM boots WHERE id = 1)) WHERE id = 2" &&
	test_expect_code 1 merge --db t.db twin.db >out 2>err &&
	grep -q "twin.db.: boot 2 claims the uuid of the source.s boot 1: refused" err &&
	[ "$(sqlite3 t.db "SELECT count(*) FROM boots")" = 1 ] &&
	[ "$(sqlite3 u.db "SELECT count(*) FROM boots")" = 2 ]
'

test_expect_success 'a file size limit fails the source, named, and the next merges (1)' '
	printf "no lockdep here\n" >tiny.log &&
	collect --db tiny.db --log tiny.log --label tiny >/dev/null &&
	(ulimit -f 600 && test_expect_code 1 merge --db lim.db "$TRASH/a.db" tiny.db >out 2>err) &&
	grep -q "unable to merge .$TRASH/a.db. into .lim.db." err &&
	echo "tiny.db: 1 boot, 1 added" >expect && test_cmp expect out &&
	[ "$(sqlite3 lim.db "PRAGMA integrity_check")" = ok ]
'

# as_user CMD...: CMD as a user that may not write what root made here
# (root writes anywhere: nobody, then), or as ourselves
as_user() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
	else
		"$@"
	fi
}

test_expect_success 'a source in a directory we may not write is merged, read-only' '
	mkdir ro rw && cp "$TRASH/a.db" ro/ && chmod 0555 ro && chmod 0777 rw &&
	chmod 0755 "$TRASH" &&
	as_user "$BIN/lockdep-merge" --db rw/m.db ro/a.db >out &&
	echo "ro/a.db: 1 boot, 1 added" >expect && test_cmp expect out &&
	ls ro >list && echo a.db >expect && test_cmp expect list &&
	as_user "$BIN/lockdep-merge" --db rw/m.db ro/a.db >out &&
	echo "ro/a.db: 1 boot, 0 added" >expect && test_cmp expect out
'

# half NAME A B: the fixture's /proc files in NAME/ with A -> B added
half() {
	mkdir -p "$1" &&
	cp "$FIX/lockdep" "$FIX/lockdep_stats" "$FIX/lockdep_chains" "$FIX/lock_stat" "$1/" &&
	printf '(____ptrval____) FD:    1 BD:    1 +.+.: %s\n -> [(____ptrval____)] %s\n\n(____ptrval____) FD:    0 BD:    2 +.+.: %s\n\n' \
		"$2" "$3" "$3" >>"$1/lockdep"
}

test_expect_success 'lockdep-graph --boots all: the fleet'"'"'s cross-boot cycle' '
	half ab order_a order_b && half ba order_b order_a &&
	# no lockdep_graph in them: a kernel without our series (3)
	test_expect_code 3 collect --db ab.db --proc-dir ab --label ab >/dev/null &&
	test_expect_code 3 collect --db ba.db --proc-dir ba --label ba >/dev/null &&
	for i in 1 2 3; do
		collect --db idle$i.db --proc-dir "$FIX" --label idle$i >/dev/null || return 1
	done &&
	merge -q --db fleet2.db idle1.db ab.db idle2.db ba.db idle3.db &&
	for db in ab.db ba.db; do
		"$BIN/lockdep-graph" --db $db --boots all --cycles --list >one &&
		grep -x "0 cycles" one || return 1
	done &&
	"$BIN/lockdep-graph" --db fleet2.db --boots all --cycles --list >out &&
	grep -q "^WARNING: possible circular locking dependency across boots" out &&
	grep -q "order_a" out && grep -q "order_b" out &&
	"$BIN/lockdep-graph" --db fleet2.db --boots all --cycles --json >out.json &&
	grep -q "\"boots\":\[{\"id\":1,\"label\":\"idle1\",\"graph_export\":true," out.json &&
	[ "$(grep -o "\"label\":\"idle[0-9]\"" out.json | wc -l)" = 3 ]
'

test_expect_success 'man page: groff clean, SYNOPSIS has every --help option' '
	man_synopsis "$MAN" "$BIN/lockdep-merge"
'

test_expect_success 'usage errors (64), --help' '
	test_expect_code 64 merge a.db 2>err && grep -- "--db is required" err &&
	test_expect_code 64 merge --db x.db 2>err && grep "no source" err &&
	merge --help >help && grep -- "--quiet" help
'

test_done
