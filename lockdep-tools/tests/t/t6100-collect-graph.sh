#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-collect --db stores the graph export

A raw directory made here from the real 6.1 fixtures, with the graph
export of our kernel series (tests/fixtures/6.1/lockdep_graph, a
self-consistent cut of a real one: vm/regen-fixtures.sh), in debugfs
from the series v3 on, /proc/lockdep_graph in a raw directory of older
tools. Checks its classes, dependencies, traces and raw sites with
sqlite3, and cut, hidden and broken exports. Symbolised against the vmlinux of the same
build, which only a fresh boot has: vm/tests/t0400-graph-export.sh.'
. "$(dirname "$0")/lib.sh"

FIX=$TOP/lockdep-tools/tests/fixtures/6.1
GRAPH=$FIX/lockdep_graph
collect() { "$BIN/lockdep-collect" "$@"; }
q() { sqlite3 "$DB" "$1"; }
DB=$TRASH/db

# counts <kind>: what the export's counts record announces
counts() {
	awk -v k="$1" '$1 == "counts" {
		print (k == "classes" ? $2 : k == "deps" ? $3 : k == "chains" ? $4 : $5)
	}' "$GRAPH"
}

# make_raw DIR [GRAPH]: a raw directory with the /proc files, the notes
# of the export's build id, the export (as $RAW_GRAPH, lib.sh), and an
# empty kernel log
make_raw() {
	local d=$1 g=${2:-$GRAPH} f id
	mkdir -p "$d/files/proc" "$d/files/sys/kernel/debug/lockdep_scenarios" \
		"$d/files/sys/kernel/debug/lockdep" &&
	echo ab_ba >"$d/files/sys/kernel/debug/lockdep_scenarios/list" &&
	for f in lockdep lockdep_stats lockdep_chains lock_stat; do
		cp "$FIX/$f" "$d/files/proc/$f" || return 1
	done &&
	cp "$g" "$d/files${RAW_GRAPH:-$GRAPH_PATH}" &&
	head -n 1 "$FIX/console.log" | sed "s/^\[[^]]*\] //" >"$d/files/proc/version" &&
	echo "console=ttyS0 panic=-1" >"$d/files/proc/cmdline" &&
	printf "CONFIG_LOCKDEP=y\n" | gzip >"$d/files/proc/config.gz" &&
	id=$(awk '$1 == "build_id" { print $2 }' "$GRAPH") &&
	# one ELF note: namesz 4, descsz 20, type 3 (NT_GNU_BUILD_ID), "GNU\0"
	{ printf "\004\000\000\000\024\000\000\000\003\000\000\000GNU\000" &&
	  echo "$id" | xxd -r -p; } >"$d/files/sys/kernel/notes" &&
	echo "6,0,0,-;graph test" >"$d/kmsg" &&
	raw_manifest "$d" "kmsg complete 1 0 0 -"
}

test_expect_success 'raw directory with the export: stored, complete' '
	make_raw "$TRASH/raw" &&
	collect --db "$DB" --raw-dir "$TRASH/raw" --label plain >out 2>err &&
	test "$(q "SELECT count(*) FROM graph_exports WHERE complete = 1
		AND addresses = '\''raw'\'' AND build_id_checked = '\''equal'\''")" = 1 &&
	test "$(q "SELECT classes || \" \" || deps || \" \" || chains || \" \" || traces
		FROM graph_exports")" = "$(counts classes) $(counts deps) $(counts chains) $(counts traces)"
'

test_expect_success 'every export class has a row; most join /proc/lockdep' '
	test "$(q "SELECT count(*) FROM classes WHERE graph_idx IS NOT NULL")" = "$(counts classes)" &&
	joined=$(q "SELECT count(*) FROM classes WHERE graph_idx IS NOT NULL
		AND forward_deps IS NOT NULL") &&
	test $((joined * 10)) -ge $(($(counts classes) * 8)) &&
	# a joined row is the class /proc/lockdep printed with those suffixes
	test "$(q "SELECT count(*) FROM classes WHERE graph_idx IS NOT NULL
		AND forward_deps IS NOT NULL AND name <> identity
		AND name NOT LIKE '\''%#%'\'' AND subclass = 0")" = 0 &&
	# keys: real addresses, offsets from _stext
	test "$(q "SELECT count(*) FROM classes WHERE graph_idx IS NOT NULL
		AND (key_addr IS NULL OR key_offset IS NULL)")" = 0
'

test_expect_success 'dependencies: kinds, distances and traces of the export' '
	test "$(q "SELECT count(*) FROM dependencies WHERE dep_bits IS NOT NULL")" = "$(counts deps)" &&
	test "$(q "SELECT count(*) FROM dependencies WHERE dep_bits IS NOT NULL
		AND (dep_bits < 1 OR dep_bits > 15 OR distance < 1)")" = 0 &&
	test "$(q "SELECT count(*) FROM dependencies WHERE trace_id IS NOT NULL
		AND trace_id NOT IN (SELECT id FROM traces)")" = 0 &&
	test "$(q "SELECT count(*) FROM traces")" = "$(counts traces)" &&
	test "$(q "SELECT sum(nr) FROM traces")" = "$(q "SELECT count(*) FROM trace_frames")" &&
	test "$(q "SELECT count(*) FROM class_usage")" = "$(grep -c "^usage " "$GRAPH")" &&
	test "$(q "SELECT count(*) FROM graph_chain_classes")" = \
		"$(awk "\$1 == \"chain\" { n += \$4 } END { print n + 0 }" "$GRAPH")"
'

test_expect_success 'without vmlinux: sites are raw and say so' '
	test "$(q "SELECT count(*) FROM traces WHERE site NOT LIKE '\''0x%(trace %, not symbolised)'\''")" = 0 &&
	test "$(q "SELECT count(*) FROM classes WHERE identity LIKE '\''%@%'\''")" = 0 &&
	test "$(q "SELECT count(*) FROM dependency_sites WHERE site IS NOT NULL")" -gt 0
'

test_expect_success 'a cut export: stored as far as it goes, said so, partial (1)' '
	head -n $(($(wc -l <"$GRAPH") / 2)) "$GRAPH" >"$TRASH/cut" &&
	make_raw "$TRASH/raw-cut" "$TRASH/cut" &&
	test_expect_code 1 collect --db "$DB" --raw-dir "$TRASH/raw-cut" --label cut \
		>out 2>err &&
	grep -q "lockdep/graph.* has no end record" err &&
	grep -q "collection is partial: $GRAPH_PATH ends mid-record" err &&
	! grep -q "does not offer" err &&
	test "$(q "SELECT completeness FROM boots WHERE label = '\''cut'\''")" = partial &&
	b=$(q "SELECT id FROM boots WHERE label = '\''cut'\''") &&
	test "$(q "SELECT complete FROM graph_exports WHERE boot_id = $b")" = 0 &&
	test "$(q "SELECT count(*) FROM traces WHERE boot_id = $b")" = 0 &&
	test "$(q "SELECT count(*) FROM classes WHERE boot_id = $b
		AND graph_idx IS NOT NULL")" = "$(counts classes)"
'

test_expect_success 'a cut export in a proc directory: the boot is partial (1)' '
	mkdir -p "$TRASH/pd-cut" &&
	cp "$FIX/lockdep" "$FIX/lockdep_stats" "$FIX/lockdep_chains" \
		"$FIX/lock_stat" "$TRASH/pd-cut/" &&
	cp "$TRASH/cut" "$TRASH/pd-cut/lockdep_graph" &&
	test_expect_code 1 collect --db "$DB" --proc-dir "$TRASH/pd-cut" --label pdcut \
		>out 2>err &&
	test "$(q "SELECT completeness FROM boots WHERE label = '\''pdcut'\''")" = partial
'

test_expect_success 'hidden addresses: no keys, no offsets, raw sites' '
	sed -e "s/^addresses raw$/addresses hidden/" -e "s/0x[0-9a-f]*/0x0/g" \
		"$GRAPH" >"$TRASH/hidden" &&
	make_raw "$TRASH/raw-hidden" "$TRASH/hidden" &&
	collect --db "$DB" --raw-dir "$TRASH/raw-hidden" --label hidden >out 2>err &&
	b=$(q "SELECT id FROM boots WHERE label = '\''hidden'\''") &&
	test "$(q "SELECT count(*) FROM graph_exports WHERE boot_id = $b
		AND stext IS NULL AND addresses = '\''hidden'\''")" = 1 &&
	test "$(q "SELECT count(*) FROM classes WHERE boot_id = $b
		AND (key_addr IS NOT NULL OR key_offset IS NOT NULL)")" = 0
'

test_expect_success 'a malformed export stores nothing, names the line (2)' '
	awk "/^dep / && !d { print \"dep 1 2 zz 1 -\"; d = 1; next } { print }" \
		"$GRAPH" >"$TRASH/bad" &&
	make_raw "$TRASH/raw-bad" "$TRASH/bad" &&
	snapshot &&
	test_expect_code 2 collect --db "$DB" --raw-dir "$TRASH/raw-bad" 2>err &&
	grep -q "lockdep/graph:[0-9]*: malformed dep record" err &&
	unchanged
'

test_expect_success 'not an export at all: refused, nothing stored (2)' '
	printf "all lock classes:\n" >"$TRASH/foreign" &&
	make_raw "$TRASH/raw-foreign" "$TRASH/foreign" &&
	test_expect_code 2 collect --db "$DB" --raw-dir "$TRASH/raw-foreign" 2>err &&
	grep -q ":1: not a lockdep_graph of version 1" err &&
	unchanged
'

test_expect_success 'a raw directory of older tools: the export by its /proc name' '
	RAW_GRAPH=/proc/lockdep_graph make_raw "$TRASH/raw-v2" &&
	grep -q "^file complete /proc/lockdep_graph " "$TRASH/raw-v2/MANIFEST" &&
	collect --db "$DB" --raw-dir "$TRASH/raw-v2" --label v2 >out 2>err &&
	b=$(q "SELECT id FROM boots WHERE label = '\''v2'\''") &&
	test "$(q "SELECT count(*) FROM classes WHERE boot_id = $b
		AND graph_idx IS NOT NULL")" = "$(counts classes)" &&
	test "$(q "SELECT path FROM files WHERE boot_id = $b AND path LIKE '\''%graph'\''")" = \
		"$GRAPH_PATH"
'

test_expect_success 'the export listed by both names: refused, nothing stored (2)' '
	make_raw "$TRASH/raw-both" &&
	mkdir -p "$TRASH/raw-both/files/proc" &&
	cp "$GRAPH" "$TRASH/raw-both/files/proc/lockdep_graph" &&
	sed -i "/^kmsg /i file complete /proc/lockdep_graph $(wc -c <"$GRAPH")" \
		"$TRASH/raw-both/MANIFEST" &&
	snapshot &&
	test_expect_code 2 collect --db "$DB" --raw-dir "$TRASH/raw-both" 2>err &&
	grep -q "MANIFEST:[0-9]*: ./proc/lockdep_graph. is listed twice, as .$GRAPH_PATH. on line [0-9]*" err &&
	unchanged
'

test_expect_success 'a proc directory with lockdep_graph stores it too' '
	mkdir -p "$TRASH/pd" &&
	cp "$FIX/lockdep" "$FIX/lockdep_stats" "$FIX/lockdep_chains" \
		"$FIX/lock_stat" "$GRAPH" "$TRASH/pd/" &&
	collect --db "$DB" --proc-dir "$TRASH/pd" --label pd >out 2>err &&
	b=$(q "SELECT id FROM boots WHERE label = '\''pd'\''") &&
	test "$(q "SELECT count(*) FROM traces WHERE boot_id = $b")" = "$(counts traces)"
'

test_done
