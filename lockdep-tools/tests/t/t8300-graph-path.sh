#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-graph --path A B: why A is taken before B

A database of the real 6.1 boot (tests/fixtures/6.1: /proc files, the
graph export with its traces, and the dependency event stream), built
with lockdep-collect as t6810 does. The answer must be a shortest path,
each edge with the site, stack and first-seen time the database holds
for it; no path is said plainly (and the other way round when there is
one); a misspelt name is an error naming the closest classes. Hand-made
graphs check the counting of many shortest paths and a path that only
the union of two boots has.'
. "$(dirname "$0")/lib.sh"

DB=$TRASH/db
graph() { "$BIN/lockdep-graph" "$@"; }
q() { sqlite3 "$DB" "$1"; }
partial_ok() { "$@" >/dev/null 2>&1; test $? -le 1; }

raw_from_fixtures "$TRASH/raw" "$FIX61" graph &&
n=$(wc -l <"$TRASH/raw/kmsg") &&
raw_manifest "$TRASH/raw" "kmsg complete $n 0 $((n - 1)) -" &&
cp "$FIX61/events" "$TRASH/raw/events" &&
echo "events $(wc -c <"$TRASH/raw/events")" >>"$TRASH/raw/MANIFEST" &&
"$BIN/lockdep-collect" --db "$DB" --raw-dir "$TRASH/raw" --label real >/dev/null 2>&1

# proc_dir DIR "A B" ...: a /proc/lockdep of these dependencies alone
proc_dir() {
	local d=$1 c
	shift
	mkdir -p "$d" &&
	{
		echo "all lock classes:"
		for c in $(printf "%s\n" "$@" | tr " " "\n" | sort -u); do
			echo "(____ptrval____) FD:    1 BD:    1 +.+.: $c"
			printf "%s\n" "$@" | awk -v c="$c" '$1 == c { print " -> [(____ptrval____)] " $2 }'
			echo
		done
	} >"$d/lockdep"
}

test_expect_success 'the real boot: a shortest path, each edge with its stack' '
	test "$(q "SELECT count(*) FROM traces")" -gt 100 &&
	graph --db "$DB" --path "(wq_completion)events" "&lruvec->lru_lock" >out &&
	head -n 1 out >first &&
	echo "boot 1 (real): ((wq_completion)events) is taken before (&lruvec->lru_lock) through 7 dependencies; 1 shortest path" >expect &&
	test_cmp expect first &&
	test "$(grep -c "^-> (" out)" = 7 &&
	grep -q "^-> (cpu_hotplug_lock){++++} SN (static_call_mutex){....}:$" out &&
	grep -q "^       at: 0xffffffff813a35b3 0xffffffff813a38cf 0xffffffff81d34a5a (trace 53, not symbolised)$" out &&
	sed -n "/SN (static_call_mutex)/,/^->/p" out | grep "^         0x" | sed "s/^ *0x//" >stack &&
	q "SELECT addr FROM trace_frames WHERE trace_id = 53 ORDER BY idx" >expect &&
	test_cmp expect stack &&
	grep -A 1 "^Chain exists of:" out | tail -n 1 >chain &&
	echo "  (wq_completion)events --> (shepherd).work --> cpu_hotplug_lock --> static_call_mutex --> text_mutex --> ptlock_ptr(page)#2 --> lock#3 --> &lruvec->lru_lock" >expect &&
	test_cmp expect chain
'

test_expect_success 'first-seen time from the event stream' '
	graph --db "$DB" --path console_lock syslog_lock >out &&
	us=$(q "SELECT first_us FROM dependency_first_seen s
		JOIN classes f ON f.id = s.from_class JOIN classes t ON t.id = s.to_class
		WHERE f.name = \"console_lock\" AND t.name = \"syslog_lock\"") &&
	test -n "$us" &&
	if [ "$us" = 0 ]; then
		grep -q "^       first seen: early in boot 1 (real), before the trace clock ran$" out
	else
		grep -q "^       first seen: $((us / 1000000))\.$(printf %06d $((us % 1000000))) s into boot 1 (real)$" out
	fi
'

test_expect_success '--json: the path, its edges, stacks and times as the database has them' '
	graph --db "$DB" --path cpu_hotplug_lock text_mutex --json >out.json &&
	q "SELECT addr FROM trace_frames WHERE trace_id = 53 ORDER BY idx" >stack53 &&
	python3 - out.json stack53 <<-\EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	stack = ["0x" + l.strip() for l in open(sys.argv[2])]
	assert d["from"] == "cpu_hotplug_lock" and d["length"] == 2, d
	assert d["shortest_paths"] == 1 and d["reverse_length"] is None, d
	p = d["paths"][0]
	assert p["classes"] == ["cpu_hotplug_lock", "static_call_mutex", "text_mutex"], p
	e = p["edges"]
	assert [(x["from"], x["to"]) for x in e] == list(zip(p["classes"], p["classes"][1:]))
	assert e[0]["kind"] == "SN" and e[0]["boots"] == [1] and e[0]["stack_boot"] == 1
	assert e[0]["stack"] == stack, e[0]["stack"]
	assert e[0]["site"].endswith("(trace 53, not symbolised)")
	EOF
'

test_expect_success 'no path: said plainly, with the other way round' '
	graph --db "$DB" --path syslog_lock console_lock >out &&
	cat >expect <<-\EOF &&
	no path from (syslog_lock) to (console_lock) in boot 1 (real): no task was seen holding (syslog_lock) when it took (console_lock), directly or through other locks
	the other way round, (console_lock) is taken before (syslog_lock) through 1 dependency (--path '\''console_lock'\'' '\''syslog_lock'\'')
	EOF
	test_cmp expect out &&
	graph --db "$DB" --path syslog_lock console_lock --json >out.json &&
	grep -q "\"length\":null,\"shortest_paths\":0,\"reverse_length\":1,\"paths\":\[\]" out.json
'

test_expect_success 'a misspelt name: exit 2, the closest classes named' '
	test_expect_code() { "$@"; test $? = $want; } &&
	want=2 test_expect_code graph --db "$DB" --path consle_lock syslog_lock 2>err &&
	echo "lockdep-graph: error: no class '\''consle_lock'\'' in boot 1 (real); the closest: console_lock, once_lock" >expect &&
	test_cmp expect err &&
	want=2 test_expect_code graph --db "$DB" --path console_lock zone 2>err &&
	grep -q "no class .zone. in boot 1 (real); the closest: &zone->lock, " err &&
	want=2 test_expect_code graph --db "$DB" --path console_lock console_lock 2>err &&
	grep -q "name the same class" err &&
	want=64 test_expect_code graph --db "$DB" --path console_lock 2>err &&
	want=64 test_expect_code graph --db "$DB" --path console_lock --json &&
	want=64 test_expect_code graph --db "$DB" --path a b --class c
'

test_expect_success '-T svg: the path drawn bold, edges labelled with their sites' '
	graph --db "$DB" --path cpu_hotplug_lock text_mutex -T svg -o p.svg &&
	python3 - p.svg <<-\EOF
	import sys, xml.dom.minidom as m
	d = m.parse(sys.argv[1])
	edges = [g for g in d.getElementsByTagName("g") if g.getAttribute("class") == "edge"]
	bold = [g for g in edges if any(p.getAttribute("stroke-width") == "3" for p in g.getElementsByTagName("path"))]
	assert len(bold) == 2, len(bold)
	texts = [t.firstChild.data for t in d.getElementsByTagName("text") if t.firstChild]
	assert any("0xffffffff813a35b3" in t for t in texts), texts
	assert "shortest path from cpu_hotplug_lock to text_mutex, 2 dependencies" in " ".join(texts)
	assert "bold: on a shortest path" in texts, texts
	EOF
'

test_expect_success 'many shortest paths: all counted, the first 8 listed' '
	# a ladder of 4 diamonds: 2^4 = 16 shortest paths from a0 to a4
	deps=() && for i in 0 1 2 3; do
		deps+=("a$i b$i" "a$i c$i" "b$i a$((i + 1))" "c$i a$((i + 1))")
	done &&
	proc_dir ladder "${deps[@]}" &&
	partial_ok "$BIN/lockdep-collect" --db ladder.db --proc-dir ladder &&
	graph --db ladder.db --path a0 a4 >out &&
	grep -q "^boot 1: (a0) is taken before (a4) through 8 dependencies; 16 shortest paths, the first 8 listed$" out &&
	test "$(grep -c "^path [0-9]*:$" out)" = 8 &&
	test "$(grep "^  a0 --> " out | sort -u | wc -l)" = 8
'

test_expect_success 'the union of two boots: a path neither boot has' '
	proc_dir u1 "x y" && proc_dir u2 "y z" &&
	partial_ok "$BIN/lockdep-collect" --db u.db --proc-dir u1 --label one &&
	partial_ok "$BIN/lockdep-collect" --db u.db --proc-dir u2 --label two &&
	{ graph --db u.db --boot one --path x z 2>err; test $? = 2; } &&
	grep -q "no class .z. in boot 1 (one); the closest: " err &&
	graph --db u.db --boots one,two --path x z >out &&
	grep -q "^union of boot 1 (one) and boot 2 (two): (x) is taken before (z) through 2 dependencies; 1 shortest path$" out &&
	grep -A 1 "^-> (x)" out | grep -q "seen in boot 1 (one)$" &&
	grep -A 1 "^-> (y)" out | grep -q "seen in boot 2 (two)$"
'

test_done
