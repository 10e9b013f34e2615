#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Diff benchmark: lockdep-diff of two boots whose synthetic lock graphs
# have 10k, 100k and 1M dependencies each, stored in one database. Boot A
# is a DAG of E edges over E/4 classes; boot B drops 1% of A's edges, adds
# 1% new ones and 10 reversed ones (each closing a cycle only the union
# has). The rows are written with sqlite3 into a database that
# lockdep-collect created (its schema, its identity column), which
# lockdep-merge then merges into the measured one.
#
# Measured per size, best of RUNS: wall time and peak RSS of
#   lockdep-diff --json A B         (ours: everything, cycles included)
#   sqlite3: the added and removed dependencies by identity, as SQL
#                                   (the peer: EXCEPT over the same rows)
# with the ratio ours/peer and microseconds per edge (flat = linear), both
# on CPU time.
# Not a test: nothing here fails on speed. Work files in
# $BUILD/logs/bench-diff/.
#
# Environment: BUILD (default build/), BIN (default $BUILD/bin), SIZES
# (default "10000 100000 1000000"), RUNS (default 3), BENCH_SMALL=1
# (make check: 10k edges, one run; the peer must still agree, else exit 2).
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
W=$BUILD/logs/bench-diff

die() { echo "bench/diff: $*" >&2; exit 2; }
[ -x "$BIN/lockdep-diff" ] || die "no '$BIN/lockdep-diff' (run 'make tools')"
command -v sqlite3 >/dev/null || die "no sqlite3 (apt-get install sqlite3)"
[ -x /usr/bin/time ] || die "no /usr/bin/time (apt-get install time)"
rm -rf "$W" && mkdir -p "$W"

# make_db E: $W/E.db with boots 1 (A) and 2 (B) as described above,
# written into a scratch database and merged into $W/E.db, so that they
# are stored as lockdep-merge stores boots (with their dependency packs)
make_db() {
	local e=$1 v=$(($1 / 4)) db=$W/$1.src.db
	mkdir -p "$W/empty"
	cp "$FIX/lockdep_stats" "$W/empty/"
	printf 'all lock classes:\n' >"$W/empty/lockdep"
	for l in a b; do
		"$BIN/lockdep-collect" --db "$db" --proc-dir "$W/empty" \
			--label "$l" >/dev/null 2>>"$W/collect.log" || [ $? = 1 ]
	done
	sqlite3 "$db" <<-EOF
	PRAGMA foreign_keys = OFF;
	BEGIN;
	WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $v)
	INSERT INTO classes (id, boot_id, name, usage_bits, identity)
	SELECT 1000 + (b - 1) * $v + i, b, 'c' || i, 5, 'c' || i
	FROM n, (SELECT 1 AS b UNION ALL SELECT 2);
	-- A: edge k goes from class f to a later class t (a DAG)
	CREATE TEMP TABLE ea AS
	WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < $e)
	SELECT DISTINCT i % ($v - 1) AS f,
		(i % ($v - 1)) + 1 + ((i * 7919) % (($v - 1) - (i % ($v - 1)))) AS t
	FROM k;
	INSERT INTO dependencies (boot_id, from_class, to_class)
	SELECT 1, 1000 + f, 1000 + t FROM ea;
	-- B: A without 1% of its edges, plus 1% new ones, plus 10 reversed
	INSERT INTO dependencies (boot_id, from_class, to_class)
	SELECT 2, 1000 + $v + f, 1000 + $v + t FROM ea WHERE (f * 31 + t) % 100 <> 0;
	INSERT OR IGNORE INTO dependencies (boot_id, from_class, to_class)
	SELECT 2, 1000 + $v + f, 1000 + $v + ((f * 104729 + 17) % $v)
	FROM ea WHERE (f * 31 + t) % 100 = 1 AND ((f * 104729 + 17) % $v) > f;
	INSERT OR IGNORE INTO dependencies (boot_id, from_class, to_class)
	SELECT 2, 1000 + $v + t, 1000 + $v + f FROM ea
	WHERE (f * 31 + t) % 100 = 0 LIMIT 10;
	COMMIT;
	EOF
	"$BIN/lockdep-merge" --db "$W/$e.db" -q "$db" || die "unable to merge '$db'"
}

# run LOG CMD...: best of RUNS wall seconds, the CPU seconds (user + sys)
# of that run, and the peak RSS (KiB) of CMD. On a loaded machine the
# CPU time is the steadier figure.
run() {
	local log=$1 best="" cpu="" rss=0 t u s m
	shift
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -f "%e %U %S %M" -o "$W/.time" "$@" >"$log" \
			2>>"$W/err.log" || [ $? = 1 ] || die "$* failed (see $W/err.log)"
		read -r t u s m <"$W/.time"
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then
			best=$t
			cpu=$(echo "$u + $s" | bc -l)
		fi
		[ "$m" -gt "$rss" ] && rss=$m
	done
	echo "$best $cpu $rss"
}

# the identity pairs of boot $1's dependencies, as SQL
pairs() {
	echo "SELECT f.identity, t.identity FROM dependencies d
  JOIN classes f ON f.id = d.from_class JOIN classes t ON t.id = d.to_class
  WHERE d.boot_id = $1"
}
PEER_SQL="SELECT count(*) FROM ($(pairs 2) EXCEPT $(pairs 1));
SELECT count(*) FROM ($(pairs 1) EXCEPT $(pairs 2));"

printf "%-8s %8s %9s %9s %9s %9s %9s %9s %6s %9s %6s\n" edges "new dep" \
	"ours (s)" "ours cpu" "ours KiB" "peer (s)" "peer cpu" "peer KiB" ratio \
	"us/edge" cycles
for e in $SIZES; do
	make_db "$e"
	db=$W/$e.db
	edges=$(sqlite3 "$db" "SELECT count(*) FROM dependencies WHERE boot_id = 1")
	read -r to co mo < <(run "$W/$e.json" "$BIN/lockdep-diff" --json --db "$db" 1 2)
	read -r tp cp mp < <(run "$W/$e.peer" sqlite3 "$db" "$PEER_SQL")
	# the same answer: ours (text) and the peer's counts
	ours=$("$BIN/lockdep-diff" --db "$db" 1 2 | sed -n 's/^dependencies: \([0-9]*\) added, \([0-9]*\) removed$/\1 \2/p')
	peer=$(tr '\n' ' ' <"$W/$e.peer" | sed 's/ $//')
	[ "$ours" = "$peer" ] || die "$e edges: ours '$ours' added/removed, peer '$peer'"
	added=${ours%% *}
	cycles=$({ grep -o '"cross_boot":true' "$W/$e.json" || true; } | wc -l)
	# ratio and us/edge on CPU time
	printf "%-8s %8s %9.2f %9.2f %9d %9.2f %9.2f %9d %6.2f %9.2f %6d\n" \
		"$edges" "$added" "$to" "$co" "$mo" "$tp" "$cp" "$mp" \
		"$(echo "$co / $cp" | bc -l)" \
		"$(echo "$co * 1000000 / $edges" | bc -l)" "$cycles"
done
