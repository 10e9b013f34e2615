#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='dependency packs (lockdep-db(5) dependency_packs)

The real 6.1 fixture (its graph export: kinds, distances, trace ids) is
collected, merged and migrated; each boot must get its pack, and
lockdep-graph and lockdep-diff must print exactly what they print from
the rows alone. A change to a dependency or class row drops its boot
pack (the triggers, REPLACE included); a pack that outlived a change the
triggers did not see, or a damaged one, is named with its database and
boot, and the rows are read instead. A boot whose rows the format cannot
hold gets no pack.'
. "$(dirname "$0")/lib.sh"

FIX=$TOP/lockdep-tools/tests/fixtures/6.1
DB=$TRASH/db
collect() { "$BIN/lockdep-collect" "$@" >/dev/null 2>&1; test $? -le 1; }
q() { sqlite3 "$1" "$2"; }
packs() { q "$1" "SELECT count(*) FROM dependency_packs"; }
packed() { q "$1" "SELECT ifnull(group_concat(boot_id), '-') FROM dependency_packs"; }
# dot DB BOOT OUT: the DOT graph of BOOT to OUT (its stderr OUT.err):
# every edge with its kind, distance and site, which the summary of
# --json (counts, components, cycles) does not show
dot() {
	"$BIN/lockdep-graph" --db "$1" --boot "$2" --sites --max-nodes 0 \
		>"$3" 2>"$3.err" &&
	grep -q -- " -> " "$3"
}
# same_output DB CMD...: CMD's output with the packs of DB and from a
# copy of DB without them, the database name aside; and so the DOT graph
# of each boot of DB
same_output() {
	local db=$1 b
	shift
	"$@" --db "$db" >with.out 2>with.err &&
	cp "$db" rows.db &&
	q rows.db "DELETE FROM dependency_packs" &&
	[ "$(packs rows.db)" = 0 ] &&
	"$@" --db rows.db >rows.out 2>rows.err &&
	sed "s|rows\.db|$db|g" rows.out >rows.fixed &&
	test_cmp rows.fixed with.out &&
	! grep -q pack with.err &&
	for b in $(q "$db" "SELECT id FROM boots ORDER BY id")
	do
		dot "$db" "$b" with.dot && dot rows.db "$b" rows.dot &&
		test_cmp rows.dot with.dot &&
		! grep -q pack with.dot.err || return 1
	done
}
# repack DB: back to schema version 9, then a collect (boot 3) migrates
# DB, whose last migration packs every boot stored before
repack() {
	q "$1" "$UNDO_V12; $UNDO_V10; PRAGMA user_version = 9" &&
	collect --db "$1" --proc-dir "$FIX" --label repacked &&
	[ "$(q "$1" "PRAGMA user_version")" = 15 ]
}

collect --db "$DB" --proc-dir "$FIX" --label a
collect --db "$DB" --proc-dir "$FIX" --label b
q "$DB" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null

test_expect_success 'collect packs each boot: header, row count, flags' '
	[ "$(packs "$DB")" = 2 ] &&
	deps=$(q "$DB" "SELECT count(*) FROM dependencies WHERE boot_id = 1") &&
	[ "$deps" -gt 100 ] &&
	# "LDPK", version 1, nr, flags 7: trace ids, distances, kinds
	[ "$(q "$DB" "SELECT hex(substr(pack, 1, 8)), length(pack)
		FROM dependency_packs WHERE boot_id = 1")" = "4C44504B01000000|$((40 + 15 * deps))" ] &&
	[ "$(q "$DB" "SELECT hex(substr(pack, 13, 4)) FROM dependency_packs
		WHERE boot_id = 1")" = 07000000 ] &&
	# stamped with the schema cookie they were written under
	[ "$(q "$DB" "SELECT count(*) FROM dependency_packs WHERE schema_version
		= (SELECT schema_version FROM pragma_schema_version)")" = 2 ]
'

# the rows of boot 1 and boot 2 named by SQL
DEP1="(SELECT min(from_class) FROM dependencies WHERE boot_id = 1)"
CLASS1="(SELECT max(id) FROM classes WHERE boot_id = 1)"

# and no warning: the header names the boot's classes and rows as they are
test_expect_success 'graph and diff print the same from the pack as from the rows' '
	same_output "$DB" "$BIN/lockdep-graph" --boot 1 --json --sites &&
	same_output "$DB" "$BIN/lockdep-graph" --boot 1 --sites &&
	same_output "$DB" "$BIN/lockdep-graph" --boots all --sites &&
	same_output "$DB" "$BIN/lockdep-graph" --boots all --cycles --list &&
	same_output "$DB" "$BIN/lockdep-diff" --json 1 2
'

# a pack that disagrees with its rows in an edge's distance, trace id,
# kind or class, with a valid CRC and a header that matches its boot
# (the update trigger dropped, and then put back or not): it is named,
# and the rows are read
test_expect_success 'a valid pack whose edges differ from the rows is not read' '
	dot "$DB" 1 good.dot &&
	trigger=$(q "$DB" "SELECT sql FROM sqlite_schema WHERE name = '\''dependency_packs_dep_update'\''") &&
	for put_back in "" "$trigger"; do
	while IFS= read -r change
	do
		[ -n "$change" ] || continue
		cp "$DB" x.db &&
		q x.db "DROP TRIGGER dependency_packs_dep_update; $change; $put_back" &&
		[ "$(packed x.db)" = 1,2 ] &&
		dot x.db 1 x.dot &&
		grep -q "warning: .x.db.: the dependency pack of boot 1 is damaged (its rows are not its boot.s dependencies)" x.dot.err &&
		! test_cmp good.dot x.dot >/dev/null &&
		cp x.db rows.db && q rows.db "DELETE FROM dependency_packs" &&
		dot rows.db 1 rows.dot && test_cmp rows.dot x.dot ||
		{ echo "not seen: $change (put back: $put_back)"; cat x.dot.err; return 1; }
	done <<-EOF
	UPDATE dependencies SET distance = distance + 1 WHERE from_class = $DEP1
	UPDATE dependencies SET trace_id = (SELECT max(id) FROM traces WHERE boot_id = 1 AND site IS NOT NULL AND id NOT IN (SELECT ifnull(trace_id, -1) FROM dependencies WHERE from_class = $DEP1)) WHERE from_class = $DEP1
	UPDATE dependencies SET trace_id = NULL WHERE from_class = $DEP1
	UPDATE dependencies SET dep_bits = CASE dep_bits WHEN 8 THEN 4 ELSE 8 END WHERE from_class = $DEP1
	UPDATE dependencies SET to_class = (SELECT max(id) FROM classes WHERE boot_id = 1 AND id NOT IN (SELECT to_class FROM dependencies WHERE from_class = $DEP1)) WHERE from_class = $DEP1 AND to_class = (SELECT min(to_class) FROM dependencies WHERE from_class = $DEP1)
	EOF
	done
'

# forge_pack DB HEX: boot 1's pack with the rows HEX appended (its row
# count and CRC made right) in DB, the schema and its cookie untouched
forge_pack() {
	python3 - "$1" "$2" <<-\EOF
	import sqlite3, sys, zlib
	db = sqlite3.connect(sys.argv[1])
	p = bytearray(db.execute("SELECT pack FROM dependency_packs WHERE boot_id = 1").fetchone()[0])
	add = bytes.fromhex(sys.argv[2])
	p += add
	p[8:12] = ((len(p) - 40) // 15).to_bytes(4, "little")
	p[36:40] = zlib.crc32(bytes(p[40:]), zlib.crc32(bytes(p[:36]))).to_bytes(4, "little")
	db.execute("UPDATE dependency_packs SET pack = ? WHERE boot_id = 1", (bytes(p),))
	db.commit()
	EOF
}

test_expect_success 'a pack written anew with an added row, CRC right: no false cycle' '
	cp "$DB" f.db &&
	# the first row turned round: a cycle of two classes, in the pack only
	row=$(q f.db "SELECT hex(substr(pack, 41, 15)) FROM dependency_packs WHERE boot_id = 1") &&
	rev=$(echo "$row" | cut -c9-16)$(echo "$row" | cut -c1-8)$(echo "$row" | cut -c17-30) &&
	forge_pack f.db "$rev" &&
	[ "$(q f.db "SELECT schema_version = (SELECT schema_version FROM pragma_schema_version) FROM dependency_packs WHERE boot_id = 1")" = 1 ] &&
	"$BIN/lockdep-graph" --db f.db --boot 1 --cycles --list >f.out 2>f.err &&
	grep -q "warning: .f.db.: the dependency pack of boot 1 is damaged (its rows are not its boot.s dependencies)" f.err &&
	grep -x "0 cycles" f.out &&
	"$BIN/lockdep-diff" --db f.db --fail-on=new-cycle 2 1 >/dev/null 2>d.err &&
	grep -q "damaged" d.err &&
	# the same count: the last row of the pack replaced by the turned one
	cp "$DB" g.db &&
	q g.db "UPDATE dependency_packs SET pack = substr(pack, 1, length(pack) - 15) WHERE boot_id = 1" &&
	forge_pack g.db "$rev" &&
	"$BIN/lockdep-graph" --db g.db --boot 1 --cycles --list >g.out 2>g.err &&
	grep -q "damaged (its rows are not its boot.s dependencies)" g.err &&
	grep -x "0 cycles" g.out
'

test_expect_success 'a changed dependency or class row drops its boot pack, REPLACE too' '
	while IFS="|" read -r want change
	do
		[ -n "$change" ] || continue
		cp "$DB" t.db &&
		q t.db "$change" &&
		[ "$(packed t.db)" = "$want" ] ||
		{ echo "packs $(packed t.db), not $want, after: $change"; return 1; }
	done <<-EOF
	2|PRAGMA foreign_keys = ON; UPDATE dependencies SET distance = 3 WHERE from_class = $DEP1
	2|PRAGMA foreign_keys = ON; DELETE FROM dependencies WHERE from_class = $DEP1
	2|INSERT INTO dependencies (boot_id, from_class, to_class) SELECT 1, max(id), min(id) FROM classes WHERE boot_id = 1
	2|INSERT INTO classes (boot_id, name) VALUES (1, '\''new'\'')
	2|UPDATE classes SET id = (SELECT max(id) + 1 FROM classes) WHERE id = $CLASS1
	2|PRAGMA foreign_keys = ON; DELETE FROM classes WHERE id = $CLASS1
	1,2|UPDATE classes SET name = '\''renamed'\'', usage = NULL WHERE id = $CLASS1
	-|INSERT OR REPLACE INTO dependencies (boot_id, from_class, to_class, distance) SELECT 2, from_class, to_class, 1 FROM dependencies WHERE from_class = $DEP1 LIMIT 1
	-|REPLACE INTO classes (id, boot_id, name) VALUES ($CLASS1, 2, '\''taken'\'')
	2|REPLACE INTO classes (id, boot_id, name) VALUES ($CLASS1, 1, '\''again'\'')
	-|UPDATE OR REPLACE classes SET id = $CLASS1 WHERE id = (SELECT max(id) FROM classes WHERE boot_id = 2)
	-|UPDATE OR REPLACE dependencies SET from_class = (SELECT from_class FROM dependencies WHERE from_class = $DEP1 LIMIT 1), to_class = (SELECT to_class FROM dependencies WHERE from_class = $DEP1 LIMIT 1) WHERE boot_id = 2 AND from_class = (SELECT min(from_class) FROM dependencies WHERE boot_id = 2)
	EOF
'

# each change also with its trigger put back after it: the schema is as
# it was, but not its cookie, so the pack is checked against the rows
test_expect_success 'a pack that outlived a change the triggers missed is not read' '
	"$BIN/lockdep-graph" --db "$DB" --boot 1 --json --sites >good.out &&
	dot "$DB" 1 good.dot &&
	for put_back in no yes
	do
	for change in \
		"DROP TRIGGER dependency_packs_dep_delete; DELETE FROM dependencies WHERE from_class = $DEP1" \
		"DROP TRIGGER dependency_packs_dep_insert; INSERT INTO dependencies (boot_id, from_class, to_class) SELECT 1, max(id), min(id) FROM classes WHERE boot_id = 1 AND id NOT IN (SELECT to_class FROM dependencies WHERE from_class = (SELECT max(id) FROM classes WHERE boot_id = 1))" \
		"DROP TRIGGER dependency_packs_class_insert; INSERT INTO classes (boot_id, name) VALUES (1, '\''new'\'')" \
		"DROP TRIGGER dependency_packs_class_update; UPDATE classes SET boot_id = 2, graph_idx = NULL WHERE id = $CLASS1"
	do
		cp "$DB" s.db &&
		q s.db "$change" &&
		trigger=${change%%;*} && trigger=${trigger#DROP TRIGGER } &&
		{ [ $put_back = no ] ||
		  q s.db "$(q "$DB" "SELECT sql FROM sqlite_schema
				     WHERE name = '\''$trigger'\''")"; } &&
		[ "$(packed s.db)" != 2 ] &&
		"$BIN/lockdep-graph" --db s.db --boot 1 --json --sites >s.out 2>s.err &&
		grep -q "^lockdep-graph: warning: .s.db.: the dependency pack of boot 1 is damaged (it does not match" s.err &&
		dot s.db 1 s.dot &&
		grep -q "^lockdep-graph: warning: .s.db.: the dependency pack of boot 1 is damaged (it does not match" s.dot.err &&
		! test_cmp good.dot s.dot >/dev/null &&
		q s.db "DELETE FROM dependency_packs" &&
		"$BIN/lockdep-graph" --db s.db --boot 1 --json --sites >rows.out 2>rows.err &&
		test_cmp rows.out s.out &&
		dot s.db 1 rows.dot && ! grep -q pack rows.dot.err &&
		test_cmp rows.dot s.dot ||
		{ echo "read after: $change (put back: $put_back)"; cat s.err; return 1; }
	done
	done
'

test_expect_success 'a damaged pack or one that is no blob is named, and the rows are read' '
	"$BIN/lockdep-graph" --db "$DB" --boot 1 --json >good.out &&
	dot "$DB" 1 good.dot &&
	for damage in \
		"substr(pack, 1, 100) || x'\''ff'\'' || substr(pack, 102)" \
		"substr(pack, 1, length(pack) - 1)" \
		"substr(pack, 1, 4) || x'\''02000000'\'' || substr(pack, 9)" \
		"substr(pack, 1, 8) || x'\''ffffffff'\'' || substr(pack, 13)" \
		"substr(pack, 1, 12) || x'\''ff000000'\'' || substr(pack, 17)" \
		"substr(pack, 1, 20) || x'\''0100000000000000'\'' || substr(pack, 29)" \
		"x'\''4c44'\''" "x'\'''\''" 12345 1.5 "'\''LDPK'\''" "hex(pack)"
	do
		cp "$DB" d.db &&
		q d.db "UPDATE dependency_packs SET pack = $damage WHERE boot_id = 1" &&
		"$BIN/lockdep-graph" --db d.db --boot 1 --json >d.out 2>d.err &&
		grep -q "^lockdep-graph: warning: .d.db.: the dependency pack of boot 1 is damaged" d.err &&
		sed "s|d\.db|$DB|" d.out | test_cmp good.out - &&
		dot d.db 1 d.dot && grep -q "damaged" d.dot.err &&
		test_cmp good.dot d.dot &&
		"$BIN/lockdep-diff" --db d.db --json 1 2 >/dev/null 2>d.err &&
		grep -q "damaged" d.err ||
		{ echo "damage: $damage"; cat d.err; return 1; }
	done
'

test_expect_success 'a boot the format cannot hold gets no pack and reads its rows' '
	while IFS= read -r change
	do
		[ -n "$change" ] || continue
		cp "$DB" big.db &&
		q big.db "$change" &&
		repack big.db &&
		[ "$(packed big.db)" = 2,3 ] &&
		same_output big.db "$BIN/lockdep-graph" --boot 1 --json --sites &&
		same_output big.db "$BIN/lockdep-graph" --boot 1 --sites ||
		{ echo "packed after: $change"; return 1; }
	done <<-EOF
	UPDATE dependencies SET distance = 70000 WHERE from_class = $DEP1
	UPDATE dependencies SET trace_id = -5 WHERE from_class = $DEP1
	UPDATE dependencies SET dep_bits = 1.5 WHERE from_class = $DEP1
	UPDATE dependencies SET distance = '\''far'\'' WHERE from_class = $DEP1
	UPDATE dependencies SET trace = '\''a site'\'' WHERE from_class = $DEP1
	INSERT INTO dependencies (boot_id, from_class, to_class) SELECT 1, max(id), min(id) FROM classes WHERE boot_id = 2
	EOF
'

test_expect_success 'a pack of more than 64 KiB, every optional field: the same as the rows' '
	cp "$DB" large.db &&
	q large.db "
		WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 149)
		INSERT INTO classes (boot_id, name) SELECT 1, '\''syn'\'' || i FROM n;
		WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 149),
		c AS (SELECT id, row_number() OVER (ORDER BY id) - 1 k FROM classes
			WHERE boot_id = 1 AND name LIKE '\''syn%'\''),
		t AS (SELECT id, row_number() OVER (ORDER BY id) - 1 k FROM traces
			WHERE boot_id = 1)
		INSERT INTO dependencies (boot_id, from_class, to_class, dep_bits,
			distance, trace_id)
		SELECT 1, f.id, g.id, nullif((f.k + g.k) % 5, 4),
			nullif(1 + (f.k * g.k) % 7, 7),
			(SELECT id FROM t WHERE t.k = (f.k + 3 * g.k) % (SELECT count(*) + 1 FROM t))
		FROM c f, c g WHERE f.k < g.k AND (f.k + g.k) % 3 <> 0" &&
	"$BIN/lockdep-merge" -q --db large-m.db large.db &&
	[ "$(packed large-m.db)" = 1,2 ] &&
	[ "$(q large-m.db "SELECT length(pack) > 65536 AND hex(substr(pack, 13, 4)) = '\''07000000'\''
		FROM dependency_packs WHERE boot_id = 1")" = 1 ] &&
	[ "$(q large-m.db "SELECT count(*) FROM dependencies WHERE boot_id = 1 AND trace_id IS NULL")" -gt 0 ] &&
	[ "$(q large-m.db "SELECT count(*) FROM dependencies WHERE boot_id = 1 AND distance IS NULL")" -gt 0 ] &&
	[ "$(q large-m.db "SELECT count(*) FROM dependencies WHERE boot_id = 1 AND dep_bits IS NULL")" -gt 0 ] &&
	same_output large-m.db "$BIN/lockdep-graph" --boot 1 --json --sites &&
	same_output large-m.db "$BIN/lockdep-graph" --boot 1 --sites &&
	same_output large-m.db "$BIN/lockdep-graph" --boots all --cycles --list &&
	same_output large-m.db "$BIN/lockdep-diff" --json 1 2
'

test_expect_success 'a merge writes the packs of the boots it adds' '
	cp "$DB" src.db &&
	q src.db "DELETE FROM dependency_packs WHERE boot_id = 2" &&
	collect --db m.db --proc-dir "$FIX" --label own &&
	"$BIN/lockdep-merge" -q --db m.db src.db &&
	[ "$(packed m.db)" = "1,2,3" ] &&
	# the same rows as class id offsets; the header names the new ids
	[ "$(q m.db "SELECT hex(substr(pack, 41)) FROM dependency_packs WHERE boot_id = 2")" = \
	  "$(q src.db "SELECT hex(substr(pack, 41)) FROM dependency_packs WHERE boot_id = 1")" ] &&
	[ "$(q m.db "SELECT hex(pack) FROM dependency_packs WHERE boot_id = 2")" != \
	  "$(q src.db "SELECT hex(pack) FROM dependency_packs WHERE boot_id = 1")" ] &&
	same_output m.db "$BIN/lockdep-graph" --boots all --cycles --list &&
	same_output m.db "$BIN/lockdep-diff" --json 1 3
'

test_expect_success 'the last migration packs the boots stored before it, anew' '
	cp "$DB" old.db &&
	repack old.db &&
	[ "$(packed old.db)" = "1,2,3" ] &&
	# version 10: packs without a stamp, written anew by the migrations
	cp "$DB" v10.db &&
	q v10.db "$UNDO_V12; ALTER TABLE dependency_packs DROP COLUMN schema_version;
		  PRAGMA user_version = 10" &&
	collect --db v10.db --proc-dir "$FIX" --label v11 &&
	[ "$(packed v10.db)" = "1,2,3" ] &&
	[ "$(q v10.db "SELECT count(*) FROM dependency_packs WHERE schema_version
		= (SELECT schema_version FROM pragma_schema_version)")" = 3 ] &&
	[ "$(q old.db "SELECT hex(pack) FROM dependency_packs WHERE boot_id = 1")" = \
	  "$(q "$DB" "SELECT hex(pack) FROM dependency_packs WHERE boot_id = 1")" ] &&
	[ "$(q old.db "SELECT hex(pack) FROM dependency_packs WHERE boot_id = 1")" != \
	  "$(q "$DB" "SELECT hex(pack) FROM dependency_packs WHERE boot_id = 2")" ]
'

test_done
