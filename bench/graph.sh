#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Lock graph benchmark: strongly connected components and shortest cycles
# on synthetic graphs of about 10k, 100k and 1M dependencies stored in
# the database, by
#   lockdep-graph --cycles --json --max-cycles 0   (ours: load the boot
#       from SQLite, Tarjan, a shortest cycle through each edge of every
#       cyclic component)
#   sccmap -s                                      (the peer: Graphviz's
#       own SCC tool, on the same graph written as plain dot)
# in the same run. Prints per size: edges, cyclic components (sccmap must
# find as many), cycles, our load and scc+cycles CPU times (the least of
# the runs; targets for 1M edges: load <= 0.3 s, scc+cycles < 1 s), our
# and the peer's wall time and peak RSS, the ratio, and microseconds per
# edge (flat = linear). Not a test: nothing here fails on speed.
#
# The graphs (bench/graph-gen.sql): V = E/4 classes; each class i has
# dependencies to classes a little after it (i+1 .. i+64: a DAG, like
# lockdep's per-boot graph), and one in a thousand points a little
# back (i-1 .. i-8), closing small cycles as the union of boots does.
#
# Environment: BUILD (default build/), BIN (default $BUILD/bin), SIZES
# (edges, default "10000 100000 1000000"), RUNS (best of, default 3),
# BENCH_SMALL=1 (make check: 10k edges, one run; sccmap must still agree,
# else exit 2).
# Work files in $BUILD/logs/bench-graph/.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
BIN=${BIN:-$BUILD/bin}
FIX=$TOP/lockdep-tools/tests/fixtures/6.1
if [ "${BENCH_SMALL:-}" = 1 ]; then
	SIZES=${SIZES:-10000} RUNS=${RUNS:-1}
fi
SIZES=${SIZES:-10000 100000 1000000}
RUNS=${RUNS:-3}
W=$BUILD/logs/bench-graph

die() { echo "bench/graph: $*" >&2; exit 2; }
[ -x "$BIN/lockdep-graph" ] || die "no '$BIN/lockdep-graph' (run 'make tools')"
command -v sqlite3 >/dev/null || die "no sqlite3 (apt-get install sqlite3)"
command -v sccmap >/dev/null || die "no sccmap (apt-get install graphviz)"
[ -x /usr/bin/time ] || die "no /usr/bin/time (apt-get install time)"
rm -rf "$W" && mkdir -p "$W"

# make_db E: a database whose boot 2 is a synthetic graph of about E
# edges, written with sqlite3 into a scratch database and merged into
# the measured one, so that it is stored as lockdep-merge stores a boot
# (with its dependency pack, lockdep-db(5))
make_db() {
	local e=$1 db=$W/g$1.db src=$W/g$1.src.db
	mkdir -p "$W/empty"
	printf 'all lock classes:\n' >"$W/empty/lockdep"
	"$BIN/lockdep-collect" --db "$src" --proc-dir "$W/empty" \
		>/dev/null 2>&1 || [ $? = 1 ] || die "unable to create '$src'"
	sed -e "s/@EDGES@/$e/g" "$TOP/bench/graph-gen.sql" | sqlite3 "$src"
	"$BIN/lockdep-merge" --db "$db" -q "$src" || die "unable to merge '$src'"
	sqlite3 "$db" "SELECT 'digraph G {' UNION ALL
		SELECT 'c' || from_class || ' -> c' || to_class || ';'
		FROM dependencies WHERE boot_id = 2 UNION ALL SELECT '}'" \
		>"$W/g$e.dot"
}

# run NAME CMD...: best-of-RUNS wall time and its peak RSS into $W/NAME.best
run() {
	local name=$1 b="" m="" t r
	shift
	: >"$W/$name.steps"
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -f "%e %M" -o "$W/.time" "$@" >"$W/$name.out" \
			2>"$W/$name.err" || [ $? = 1 ] ||
			{ cat "$W/$name.err" >&2; die "$name failed"; }
		cat "$W/$name.err" >>"$W/$name.steps"
		read -r t r <"$W/.time"
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then
			b=$t; m=$r
		fi
	done
	echo "$b $m" >"$W/$name.best"
}

# step NAME STEP: our least CPU time of STEP (-v) over the runs: on a
# shared machine the noise only ever adds, as for the best-of wall time
step() {
	awk -v s="$2" '$2 == s && (m == "" || $6 < m) { m = $6 } END { print m }' \
		"$W/$1.steps"
}

printf "%-8s %8s %6s %7s %8s %9s %9s %9s %9s %9s %6s %7s %7s\n" \
	edges classes comps cycles "load cpu" "scc+cy cpu" "ours(s)" "sccmap(s)" \
	"ours KiB" "peer KiB" ratio "us/edge" "peer us"
for e in $SIZES; do
	make_db "$e"
	edges=$(sqlite3 "$W/g$e.db" "SELECT count(*) FROM dependencies WHERE boot_id = 2")
	classes=$(sqlite3 "$W/g$e.db" "SELECT count(*) FROM classes WHERE boot_id = 2")
	run ours$e "$BIN/lockdep-graph" --db "$W/g$e.db" --boot 2 --cycles \
		--json --max-cycles 0 -v
	run peer$e sccmap -s "$W/g$e.dot"
	read -r to mo <"$W/ours$e.best"
	read -r tp mp <"$W/peer$e.best"
	comps=$(grep -o '"components":[0-9]*' "$W/ours$e.out" | cut -d: -f2)
	cycles=$(grep -o '"component":' "$W/ours$e.out" | wc -l)
	# the peer must agree on the number of non-trivial components
	pc=$(grep -o '[0-9]* strong components' "$W/peer$e.err" | cut -d' ' -f1)
	[ "$pc" = "$comps" ] || die "$e edges: sccmap finds '$pc' components, ours '$comps'"
	scc=$(step ours$e scc); cyc=$(step ours$e cycles); load=$(step ours$e load)
	printf "%-8d %8d %6d %7d %8.3f %9.3f %9.2f %9.2f %9d %9d %6.2f %7.3f %7.3f\n" \
		"$edges" "$classes" "$comps" "$cycles" "$load" \
		"$(echo "$scc + $cyc" | bc -l)" "$to" "$tp" "$mo" "$mp" \
		"$(echo "$to / $tp" | bc -l)" \
		"$(echo "$to * 1000000 / $edges" | bc -l)" \
		"$(echo "$tp * 1000000 / $edges" | bc -l)"
done
