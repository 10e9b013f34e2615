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
#       renumbered, one transaction per source, the union of the boots
#       kept in it: lockdep-db(5))
#   sqlite3: ATTACH + INSERT ... SELECT of the boots, classes and
#       dependencies, one transaction per source  (the merge's peer)
#   lockdep-graph --boots all --cycles --json  (ours: the union, read
#       from what the merge kept)
#   sccmap -s on the union as dot               (the cycles' peer)
# for N = 10, 100 and 1,000 boots, to show how time and memory grow.
# Then the incremental case a fleet runs every day: INC new boots merged
# into the history of the largest N, next to the same INC boots merged
# into an empty database (the floor: a merge should cost what it adds,
# not what is there) and the peer doing both. The peers must agree: the
# same rows merged, the same number of cyclic components. Not a test:
# nothing here fails on speed. CPU is user + sys seconds; on a shared
# machine compare those, wall times wait for the others. Work files in
# $BUILD/logs/bench-fleet/.
#
# Environment: BUILD (default build/), BIN (default $BUILD/bin), SIZES
# (boots, default "10 100 1000"), INC (new boots, default 10),
# BENCH_SMALL=1 (make check: 5 and 10 boots, 2 new; the peers must
# still agree, else exit 2).
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
BIN=${BIN:-$BUILD/bin}
if [ "${BENCH_SMALL:-}" = 1 ]; then
	SIZES=${SIZES:-5 10}
	INC=${INC:-2}
fi
SIZES=${SIZES:-10 100 1000}
INC=${INC:-10}
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
for ((i = 0; i < max + INC; i++)); do
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

# the peer's merge of boots FROM to TO - 1: the three tables the graph
# needs, ids shifted
peer_sql() {
	local i
	for ((i = $1; i < $2; i++)); do
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

# same N DB PEER: the rows the graph needs are the same on both sides
same() {
	local t a b
	for t in boots classes dependencies; do
		a=$(sqlite3 "$2" "SELECT count(*) FROM $t")
		b=$(sqlite3 "$3" "SELECT count(*) FROM $t")
		[ "$a" = "$b" ] || die "$1 boots: $t: $a rows merged, the peer $b"
	done
}

# files FROM TO: the boot databases FROM to TO - 1
files() {
	local i
	for ((i = $1; i < $2; i++)); do echo "$W/boots/$i.db"; done
}

printf "%-6s %8s %9s %9s %9s %9s %9s %9s %9s %6s %6s %6s %9s %9s %9s %9s\n" \
	boots "deps" "union" "merge s" "merge cpu" "merge KiB" "peer s" "peer cpu" \
	"peer KiB" "cpu/pr" comps cycles "cycles s" "cyc cpu" "cyc KiB" "sccmap s"
for n in $SIZES; do
	f=$W/fleet$n.db p=$W/peer$n.db
	rm -f "$f"* "$p"*
	mapfile -t files < <(files 0 "$n")
	read -r tm cm mm < <(run merge$n "$BIN/lockdep-merge" -q --db "$f" "${files[@]}")
	cp "$W/template.db" "$p"
	peer_sql 0 "$n" >"$W/peer$n.sql"
	read -r tpm cpm mpm < <(run peer-merge$n sqlite3 "$p" ".read $W/peer$n.sql")
	same "$n" "$f" "$p"
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
	printf "%-6d %8d %9d %9.2f %9.2f %9d %9.2f %9.2f %9d %6.2f %6d %6d %9.2f %9.2f %9d %9.2f\n" \
		"$n" "$deps" "$union" "$tm" "$cm" "$mm" "$tpm" "$cpm" "$mpm" \
		"$(echo "$cm / ($cpm + 0.005)" | bc -l)" "$comps" "$cycles" "$tc" \
		"$cc" "$mc" "$ts"
done

# the incremental case: INC new boots into the largest history, and into
# an empty database, ours and the peer's
mapfile -t files < <(files "$max" $((max + INC)))
cp "$W/fleet$max.db" "$W/inc.db"
read -r ti ci _ < <(run inc "$BIN/lockdep-merge" -q --db "$W/inc.db" "${files[@]}")
read -r te ce _ < <(run inc-empty "$BIN/lockdep-merge" -q --db "$W/inc-empty.db" "${files[@]}")
peer_sql "$max" $((max + INC)) >"$W/peer-inc.sql"
cp "$W/peer$max.db" "$W/peer-inc.db"
cp "$W/template.db" "$W/peer-inc-empty.db"
read -r tpi cpi _ < <(run peer-inc sqlite3 "$W/peer-inc.db" ".read $W/peer-inc.sql")
read -r _ cpe _ < <(run peer-inc-empty sqlite3 "$W/peer-inc-empty.db" ".read $W/peer-inc.sql")
same "$max + $INC" "$W/inc.db" "$W/peer-inc.db"
same "$INC" "$W/inc-empty.db" "$W/peer-inc-empty.db"
[ "$(sqlite3 "$W/inc.db" "SELECT count(*) FROM boots")" = $((max + INC)) ] ||
	die "$max + $INC boots: the history holds $(sqlite3 "$W/inc.db" "SELECT count(*) FROM boots")"
echo
printf "%-7s %5s %9s %9s %9s %9s %9s %9s %9s %9s %9s\n" history new "inc s" \
	"inc cpu" "empty s" "empty cpu" "inc/empty" "peer s" "peer cpu" \
	"pr empty" "cpu/pr"
printf "%-7d %5d %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f\n" \
	"$max" "$INC" "$ti" "$ci" "$te" "$ce" "$(echo "$ci / ($ce + 0.005)" | bc -l)" \
	"$tpi" "$cpi" "$cpe" "$(echo "$ci / ($cpi + 0.005)" | bc -l)"
