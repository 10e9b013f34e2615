#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fleet benchmark: many boots as one graph. N synthetic boot databases
# (bench/fleet-gen.sql: 1,000 to 3,000 dependencies each over 4,000
# classes, 800 shared by every boot, most of the rest shared by the
# boots of one of ten workloads, a few timing-only ones, and every
# seventh boot one dependency that only the union closes into a cycle)
# are merged into one database, then the union's cycles are found, by
#   lockdep-merge --db FLEET N.db...           (ours: every table, ids
#       renumbered, one transaction per source)
#   sqlite3: ATTACH + INSERT ... SELECT of the boots, classes and
#       dependencies, one transaction per source  (the merge's peer)
#   lockdep-graph --boots all --cycles --json  (ours: the union)
#   sccmap -s on the union as dot               (the cycles' peer)
# for N = 10, 100 and 1,000 boots, to show how time and memory grow. The
# peers must agree: the same rows merged, the same number of cyclic
# components. Not a test: nothing here fails on speed. Work files in
# $BUILD/logs/bench-fleet/.
#
# Environment: BUILD (default build/), BIN (default $BUILD/bin), SIZES
# (boots, default "10 100 1000"), BENCH_SMALL=1 (make check: 5 and 10
# boots; the peers must still agree, else exit 2).
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
BIN=${BIN:-$BUILD/bin}
if [ "${BENCH_SMALL:-}" = 1 ]; then
	SIZES=${SIZES:-5 10}
fi
SIZES=${SIZES:-10 100 1000}
W=$BUILD/logs/bench-fleet

die() { echo "bench/fleet: $*" >&2; exit 2; }
for t in lockdep-collect lockdep-merge lockdep-graph; do
	[ -x "$BIN/$t" ] || die "no '$BIN/$t' (run 'make tools')"
done
command -v sqlite3 >/dev/null || die "no sqlite3 (apt-get install sqlite3)"
command -v sccmap >/dev/null || die "no sccmap (apt-get install graphviz)"
[ -x /usr/bin/time ] || die "no /usr/bin/time (apt-get install time)"
rm -rf "$W" && mkdir -p "$W/boots" "$W/empty"

max=0
for n in $SIZES; do [ "$n" -gt "$max" ] && max=$n; done

# an empty database of this build's schema, then one copy per boot
printf 'all lock classes:\n' >"$W/empty/lockdep"
"$BIN/lockdep-collect" --db "$W/template.db" --proc-dir "$W/empty" \
	>/dev/null 2>&1 || [ $? = 1 ] || die "unable to create a database"
sqlite3 "$W/template.db" "DELETE FROM boots; PRAGMA journal_mode = DELETE; VACUUM" >/dev/null
for ((i = 0; i < max; i++)); do
	cp "$W/template.db" "$W/boots/$i.db"
	sed "s/@BOOT@/$i/g" "$TOP/bench/fleet-gen.sql" | sqlite3 "$W/boots/$i.db" ||
		die "unable to generate boot $i"
done

# run NAME CMD...: wall, CPU (user + sys) seconds and peak RSS (KiB)
run() {
	local name=$1 t u s m
	shift
	/usr/bin/time -f "%e %U %S %M" -o "$W/.time" "$@" >"$W/$name.out" \
		2>"$W/$name.err" || [ $? = 1 ] ||
		{ cat "$W/$name.err" >&2; die "$name failed"; }
	read -r t u s m <"$W/.time"
	echo "$t $(echo "$u + $s" | bc -l) $m"
}

# the peer's merge: the three tables the graph needs, ids shifted
peer_sql() {
	local i
	for ((i = 0; i < $1; i++)); do
		cat <<-SQL
		ATTACH '$W/boots/$i.db' AS s;
		BEGIN IMMEDIATE;
		CREATE TEMP TABLE o AS SELECT
			(SELECT coalesce(max(id), 0) FROM main.boots) AS b,
			(SELECT coalesce(max(id), 0) FROM main.classes) AS c;
		INSERT INTO main.boots (id, label, collected_at, source, completeness, uuid)
		SELECT id + o.b, label, collected_at, source, completeness, uuid FROM s.boots, o
		WHERE uuid NOT IN (SELECT uuid FROM main.boots);
		INSERT INTO main.classes (id, boot_id, name, usage_bits, identity)
		SELECT id + o.c, boot_id + o.b, name, usage_bits, identity FROM s.classes, o;
		INSERT INTO main.dependencies (boot_id, from_class, to_class)
		SELECT boot_id + o.b, from_class + o.c, to_class + o.c FROM s.dependencies, o;
		DROP TABLE o;
		COMMIT;
		DETACH s;
		SQL
	done
}

printf "%-6s %8s %9s %9s %9s %9s %9s %9s %6s %6s %9s %9s %9s %9s\n" \
	boots "deps" "union" "merge s" "merge cpu" "merge KiB" "peer s" "peer KiB" \
	comps cycles "cycles s" "cyc cpu" "cyc KiB" "sccmap s"
for n in $SIZES; do
	f=$W/fleet$n.db p=$W/peer$n.db
	rm -f "$f"* "$p"*
	files=()
	for ((i = 0; i < n; i++)); do files+=("$W/boots/$i.db"); done
	read -r tm cm mm < <(run merge$n "$BIN/lockdep-merge" -q --db "$f" "${files[@]}")
	cp "$W/template.db" "$p"
	peer_sql "$n" >"$W/peer$n.sql"
	read -r tpm _ mpm < <(run peer-merge$n sqlite3 "$p" ".read $W/peer$n.sql")
	# the same rows on both sides
	for t in boots classes dependencies; do
		a=$(sqlite3 "$f" "SELECT count(*) FROM $t")
		b=$(sqlite3 "$p" "SELECT count(*) FROM $t")
		[ "$a" = "$b" ] || die "$n boots: $t: $a rows merged, the peer $b"
	done
	[ "$(sqlite3 "$f" "SELECT count(*) FROM boots")" = "$n" ] ||
		die "$n boots: the fleet holds $(sqlite3 "$f" "SELECT count(*) FROM boots")"
	deps=$(sqlite3 "$f" "SELECT count(*) FROM dependencies")
	read -r tc cc mc < <(run cycles$n "$BIN/lockdep-graph" --db "$f" --boots all \
		--cycles --json --max-cycles 0)
	comps=$(grep -o '"components":[0-9]*' "$W/cycles$n.out" | cut -d: -f2)
	cycles=$(grep -o '"component":' "$W/cycles$n.out" | wc -l)
	union=$(grep -o '"dependencies":[0-9]*' "$W/cycles$n.out" | head -1 | cut -d: -f2)
	# the peer: the union by class identity, as plain dot
	sqlite3 "$p" "SELECT 'digraph G {' UNION ALL
		SELECT * FROM (SELECT DISTINCT '\"' || f.identity || '\" -> \"' ||
			t.identity || '\";' FROM dependencies d
			JOIN classes f ON f.id = d.from_class
			JOIN classes t ON t.id = d.to_class)
		UNION ALL SELECT '}'" >"$W/union$n.dot"
	read -r ts _ _ < <(run sccmap$n sccmap -s "$W/union$n.dot")
	pc=$(grep -o '[0-9]* strong components' "$W/sccmap$n.err" | cut -d' ' -f1)
	pe=$(($(wc -l <"$W/union$n.dot") - 2))
	[ "$pc" = "$comps" ] || die "$n boots: sccmap finds '$pc' cyclic components, ours '$comps'"
	[ "$pe" = "$union" ] || die "$n boots: the union has $pe dependencies, ours $union"
	printf "%-6d %8d %9d %9.2f %9.2f %9d %9.2f %9d %6d %6d %9.2f %9.2f %9d %9.2f\n" \
		"$n" "$deps" "$union" "$tm" "$cm" "$mm" "$tpm" "$mpm" "$comps" \
		"$cycles" "$tc" "$cc" "$mc" "$ts"
done
