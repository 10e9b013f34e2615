#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-db(5) GRAPH QUERIES: the path and neighbourhood SQL

The two queries are taken from the rendered man page itself and run
with sqlite3 as the page says, on a database of the real 6.1 boot
(tests/fixtures/6.1 with its graph export and lock chains). The path
must be as short as lockdep-graph --path finds, and the very path when
there is only one; the neighbourhood must list every dependency of the
class once, with the number of chains that hold it in that order.'
. "$(dirname "$0")/lib.sh"

DB=$TRASH/db
MAN=$TOP/lockdep-tools/man/lockdep-db.5
"$BIN/lockdep-collect" --db "$DB" --proc-dir "$FIX61" --label real >/dev/null 2>&1

# man_query N: the Nth SQL block of GRAPH QUERIES (from "WITH" to ";")
man_query() {
	groff -man -Tascii -P-cbou -rLL=200n "$MAN" 2>/dev/null |
	sed -n "/^GRAPH QUERIES/,/^EXAMPLES/p" |
	awk -v n="$1" '/^ *WITH / { k++ } k == n { sub(/^       /, ""); print } k == n && /;$/ { exit }'
}

# run_query N PARAM=VALUE...: query N bound as sqlite3 binds it
run_query() {
	local n=$1 p
	shift
	{
		for p in "$@"; do
			echo ".param set :${p%%=*} '${p#*=}'"
		done
		man_query "$n"
	} | sqlite3 "$DB"
}

test_expect_success 'the man page holds both queries' '
	man_query 1 >path.sql && man_query 2 >nb.sql &&
	head -n 1 path.sql | grep -q "^WITH RECURSIVE" &&
	tail -n 1 path.sql | grep -q "^SELECT chain FROM back WHERE depth = 0;$" &&
	grep -q "dependency_sites" nb.sql
'

test_expect_success 'the path: the one lockdep-graph --path finds' '
	run_query 1 boot=1 "from=(wq_completion)events" "to=&lruvec->lru_lock" >sql &&
	"$BIN/lockdep-graph" --db "$DB" --path "(wq_completion)events" "&lruvec->lru_lock" |
		grep -A 1 "^Chain exists of:" | tail -n 1 | sed "s/^  //" >tool &&
	test_cmp tool sql &&
	run_query 1 boot=1 from=syslog_lock to=console_lock >none &&
	test_cmp /dev/null none
'

test_expect_success 'the path: as short as --path, for pairs of the real boot' '
	sqlite3 "$DB" "SELECT f.name, t.name FROM classes f, classes t
		WHERE f.id % 37 = 3 AND t.id % 11 = 5 AND f.id != t.id
		ORDER BY f.id, t.id LIMIT 40" >pairs &&
	found=0 &&
	while IFS="|" read -r a b; do
		len=$("$BIN/lockdep-graph" --db "$DB" --path "$a" "$b" --json |
			python3 -c "import json, sys; print(json.load(sys.stdin)[\"length\"] or 0)") &&
		chain=$(run_query 1 boot=1 "from=$a" "to=$b") &&
		if [ "$len" = 0 ]; then
			test -z "$chain" || { echo "$a -> $b: $chain"; return 1; }
		else
			found=$((found + 1)) &&
			test "$(echo "$chain" | grep -o " --> " | wc -l)" = "$len" ||
			{ echo "$a -> $b: $len, $chain"; return 1; }
		fi
	done <pairs &&
	echo "$found paths" && test "$found" -gt 3
'

test_expect_success 'the neighbourhood: each dependency once, chains counted' '
	run_query 2 boot=1 class=console_lock >nb &&
	test "$(wc -l <nb)" = "$(sqlite3 "$DB" "SELECT count(*) FROM dependencies d
		JOIN classes c ON c.id IN (d.from_class, d.to_class)
		WHERE c.name = '\''console_lock'\''")" &&
	grep -q "^under|console_owner|[1-9][0-9]*|" nb &&
	python3 - "$DB" nb <<-\EOF
	import sqlite3, sys
	db = sqlite3.connect(sys.argv[1])
	chains = {}
	for (cid,) in db.execute("SELECT DISTINCT chain_id FROM chain_classes"):
	    names = [n for (n,) in db.execute(
	        "SELECT c.name FROM chain_classes x JOIN classes c ON c.id = x.class_id"
	        " WHERE x.chain_id = ? ORDER BY x.idx", (cid,))]
	    for i, a in enumerate(names):
	        for b in names[i + 1:]:
	            chains[a, b] = chains.get((a, b), 0) + 1
	rows = [l.rstrip("\n").split("|") for l in open(sys.argv[2])]
	for side, cls, n, site in rows:
	    pair = ("console_lock", cls) if side == "under" else (cls, "console_lock")
	    assert int(n) == chains.get(pair, 0), (side, cls, n, chains.get(pair))
	counts = [int(r[2]) for r in rows]
	assert counts == sorted(counts, reverse=True), counts
	EOF
'

test_done
