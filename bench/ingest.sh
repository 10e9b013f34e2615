#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Ingest benchmark: the real 6.1 /proc files (lockdep, lockdep_chains,
# lock_stat, lockdep_stats of lockdep-tools/tests/fixtures/6.1) scaled
# 1x, 10x and 100x (the classes, chains and lock_stat blocks copied with
# a distinct name suffix per copy), ingested by
#   lockdep-collect --db --proc-dir   (ours: parse + store, one transaction)
#   sqlite3 .import                    (the peer: the same rows, already
#                                       split into CSV, into the same schema)
# in the same run. Prints rows, wall times, ours/peer ratio (target
# <= 1.5) and microseconds per row (flat = linear). Not a test: nothing
# here fails on speed. Work files in $BUILD/logs/bench-ingest/.
#
# Environment: BUILD (default build/), BIN (default $BUILD/bin), SCALES,
# RUNS (best of, default 3), BENCH_SMALL=1 (make check: scale 1x, one run;
# the rows are still checked, and a failure is still exit 2).
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
BIN=${BIN:-$BUILD/bin}
FIX=$TOP/lockdep-tools/tests/fixtures/6.1
if [ "${BENCH_SMALL:-}" = 1 ]; then
	SCALES=${SCALES:-1} RUNS=${RUNS:-1}
fi
SCALES=${SCALES:-1 10 100}
RUNS=${RUNS:-3}
W=$BUILD/logs/bench-ingest

die() { echo "bench/ingest: $*" >&2; exit 2; }
[ -x "$BIN/lockdep-collect" ] || die "no '$BIN/lockdep-collect' (run 'make tools')"
command -v sqlite3 >/dev/null || die "no sqlite3 (apt-get install sqlite3)"
rm -rf "$W" && mkdir -p "$W"

# scale N DIR: the fixtures with every class, chain and lock_stat block
# repeated N times, copy k's names suffixed ".k"
scale() {
	local n=$1 d=$2
	mkdir -p "$d"
	cp "$FIX/lockdep_stats" "$d/"
	awk -v n="$n" 'NR == 1 { print; next }
		{ body[++m] = $0 }
		END { for (k = 0; k < n; k++) for (i = 1; i <= m; i++) {
			l = body[i]; if (l != "") l = l "." k; print l } }' \
		"$FIX/lockdep" >"$d/lockdep"
	awk -v n="$n" 'NR == 1 { print; next }
		{ body[++m] = $0 }
		END { for (k = 0; k < n; k++) for (i = 1; i <= m; i++) {
			l = body[i]; if (l ~ /^\[/) l = l "." k; print l } }' \
		"$FIX/lockdep_chains" >"$d/lockdep_chains"
	# lock_stat: the header up to the column titles' dashes, then blocks
	awk -v n="$n" 'hdr < 2 { print; if ($0 ~ /^-----/) hdr++; next }
		{ body[++m] = $0 }
		END { for (k = 0; k < n; k++) for (i = 1; i <= m; i++) {
			l = body[i]
			if (l ~ /:/ && l !~ /^\.+$/) sub(/:/, "." k ":", l)
			print l } }' \
		"$FIX/lock_stat" >"$d/lock_stat"
}

now() { date +%s.%N; }

# best of RUNS wall times of "$@", in seconds
best() {
	local b="" t0 t1 t
	for _ in $(seq "$RUNS"); do
		"$@"
		t0=$(cat "$W/.t0"); t1=$(cat "$W/.t1")
		t=$(echo "$t1 - $t0" | bc -l)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then b=$t; fi
	done
	echo "$b"
}

ours() {
	rm -f "$W/ours.db"*
	now >"$W/.t0"
	# 3: the fixtures are /proc files without lockdep_graph, which a
	# kernel without our series does not offer; stored all the same
	"$BIN/lockdep-collect" --db "$W/ours.db" --proc-dir "$W/x$1" \
		>/dev/null 2>>"$W/collect.log" || [ $? = 3 ] ||
		die "lockdep-collect failed (see $W/collect.log)"
	now >"$W/.t1"
}

# The peer gets the rows ours stored, as CSV with a header, and the same
# empty schema. CSV has no NULL: .import loads each file into a staging
# table of text columns, and one INSERT ... SELECT per table turns the
# empty fields back into NULL (else the NULL graph_idx of every class
# would be '' and collide in the unique index on (boot_id, graph_idx)).
TABLES="boots files classes dependencies chains chain_classes stats lock_stat lock_stat_points"
export_rows() {
	local t cols sel
	sqlite3 "$W/ours.db" .schema >"$W/schema.sql"
	{
		echo ".mode csv"
		echo "BEGIN;"
		for t in $TABLES; do
			sqlite3 -csv -header "$W/ours.db" "SELECT * FROM $t" >"$W/$t.csv"
			# a header line or nothing: no rows to import
			[ "$(wc -l <"$W/$t.csv")" -gt 1 ] || continue
			cols=$(sqlite3 "$W/ours.db" "SELECT group_concat(name, ', ')
				FROM pragma_table_info('$t')")
			sel=$(sqlite3 "$W/ours.db" "SELECT group_concat('nullif(' ||
				name || ', '''')', ', ') FROM pragma_table_info('$t')")
			echo ".import '$W/$t.csv' stage_$t"
			echo "INSERT INTO $t ($cols) SELECT $sel FROM stage_$t;"
			echo "DROP TABLE stage_$t;"
		done
		echo "COMMIT;"
	} >"$W/import.sql"
}

peer() {
	rm -f "$W/peer.db"*
	sqlite3 "$W/peer.db" <"$W/schema.sql"
	sqlite3 "$W/peer.db" "PRAGMA journal_mode = WAL" >/dev/null
	now >"$W/.t0"
	sqlite3 "$W/peer.db" <"$W/import.sql"
	now >"$W/.t1"
}

printf "%-6s %10s %12s %12s %8s %12s %12s\n" scale rows "ours (s)" "import (s)" ratio "ours us/row" "peer us/row"
for n in $SCALES; do
	scale "$n" "$W/x$n"
	ours "$n"
	export_rows
	rows=0
	for t in $TABLES; do
		if [ -s "$W/$t.csv" ]; then
			rows=$((rows + $(wc -l <"$W/$t.csv") - 1))
		fi
	done
	to=$(best ours "$n")
	tp=$(best peer)
	# the same rows on both sides
	for t in $TABLES; do
		a=$(sqlite3 "$W/ours.db" "SELECT count(*) FROM $t")
		b=$(sqlite3 "$W/peer.db" "SELECT count(*) FROM $t")
		[ "$a" = "$b" ] || die "$t: $a rows stored, $b imported"
	done
	printf "%-6s %10d %12.3f %12.3f %8.2f %12.2f %12.2f\n" "${n}x" "$rows" \
		"$to" "$tp" "$(echo "$to / $tp" | bc -l)" \
		"$(echo "$to * 1000000 / $rows" | bc -l)" \
		"$(echo "$tp * 1000000 / $rows" | bc -l)"
done
