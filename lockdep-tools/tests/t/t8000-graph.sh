#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-graph on real /proc/lockdep files and corpus reports

Boot "ab" is the real 6.1 fixture (tests/fixtures/6.1); boot "ba" is the
same file with one real dependency, static_call_mutex -> text_mutex,
turned around, as the ba-order half of an ABBA pair would leave it.
Each boot alone has no cycle (lockdep never adds one); their union has
exactly one, and lockdep-graph must name both edges, the boot that saw
each and their sites. Reports come from the shared corpus; hostile class
names go through the /proc/lockdep parser, or into the database by hand
where the parser cannot carry them (a newline).'
. "$(dirname "$0")/lib.sh"

FIX=$TOP/lockdep-tools/tests/fixtures/6.1
MAN=$TOP/lockdep-tools/man/lockdep-graph.1
DB=$TRASH/db
graph() { "$BIN/lockdep-graph" "$@"; }
collect() { "$BIN/lockdep-collect" "$@" >/dev/null; }
q() { sqlite3 "$DB" "$1"; }
# a proc dir of /proc/lockdep alone is a partial collection (exit 1)
partial_ok() { "$@" >/dev/null; test $? -le 1; }

# reverse_dep FROM TO: /proc/lockdep on stdin with FROM -> TO made TO -> FROM
reverse_dep() {
	awk -v from="$1" -v to="$2" '
		/^[^ ]/ { cls = $0; sub(/^.*: /, "", cls) }
		/^ -> / { n = $0; sub(/^ -> \[[^]]*\] /, "", n)
			  if (cls == from && n == to) next }
		{ print }
		/^[^ ]/ && cls == to { print " -> [(____ptrval____)] " from }'
}

valid_xml() {
	if command -v xmllint >/dev/null; then
		xmllint --noout "$1"
	else
		python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$1"
	fi
}

mkdir -p "$TRASH/ab" "$TRASH/ba"
cp "$FIX"/lockdep "$FIX"/lockdep_stats "$FIX"/lockdep_chains "$TRASH/ab/"
cp "$FIX"/lockdep_stats "$FIX"/lockdep_chains "$TRASH/ba/"
reverse_dep static_call_mutex text_mutex <"$FIX/lockdep" >"$TRASH/ba/lockdep"
collect --db "$DB" --proc-dir "$TRASH/ab" --label ab
collect --db "$DB" --proc-dir "$TRASH/ba" --label ba
for r in 002-circular 045-circular; do
	collect --db "$DB" --log "$CORPUS/$r.txt" --label "$r"
done

test_expect_success 'the reversed copy differs from the real file by one edge' '
	q "SELECT count(*) FROM dependencies WHERE boot_id = 1" >n1 &&
	q "SELECT count(*) FROM dependencies WHERE boot_id = 2" >n2 &&
	test_cmp n1 n2 &&
	q "SELECT f.name || \" > \" || t.name FROM dependencies d
	   JOIN classes f ON f.id = d.from_class JOIN classes t ON t.id = d.to_class
	   WHERE d.boot_id = 2 AND f.name = \"text_mutex\" AND t.name = \"static_call_mutex\"" >out &&
	echo "text_mutex > static_call_mutex" >expect &&
	test_cmp expect out
'

test_expect_success 'whole boot: one node per class, one edge per dependency' '
	graph --db "$DB" --boot ab --max-nodes 0 >ab.dot &&
	test "$(grep -c "^	n[0-9]* \[" ab.dot)" = "$(q "SELECT count(*) FROM classes WHERE boot_id = 1")" &&
	test "$(grep -c "^	n[0-9]* -> n" ab.dot)" = "$(q "SELECT count(*) FROM dependencies WHERE boot_id = 1")" &&
	dot -Tsvg ab.dot >ab.svg && valid_xml ab.svg
'

test_expect_success '-T svg -o FILE: valid XML naming the classes' '
	graph --db "$DB" --boot 1 --max-nodes 0 -T svg -o ab.svg &&
	valid_xml ab.svg &&
	grep -q "cpu_hotplug_lock" ab.svg &&
	grep -q "legend" ab.svg
'

test_expect_success '-T png and -T pdf through dot' '
	graph --db "$DB" --boot ab --class text_mutex -T png -o g.png &&
	head -c 8 g.png | od -An -c | grep -q "P   N   G" &&
	graph --db "$DB" --boot ab --class text_mutex -T pdf >g.pdf &&
	head -c 5 g.pdf | grep -q "%PDF-"
'

# the line of a boot without the graph export (a kernel without our
# series: these proc dirs have /proc/lockdep alone)
no_export() {
	echo "boot $1 has no graph export: dependencies from /proc/lockdep alone, without sites, trace ids, dependency kinds, dependencies at distance > 1 or usage traces"
}

test_expect_success 'each boot alone has no cycle' '
	for b in "1 (ab)" "2 (ba)"; do
		graph --db "$DB" --boot ${b%% *} --cycles --list >out &&
		{ no_export "$b" && echo "0 cycles"; } >expect &&
		test_cmp expect out || return 1
	done &&
	graph --db "$DB" --boot ba --cycles --json >out.json &&
	grep -q "\"cycles\":\[\]" out.json
'

test_expect_success 'their union has the ABBA cycle, in lockdep words' '
	graph --db "$DB" --boots ab,ba --cycles --list >out &&
	grep -q "^WARNING: possible circular locking dependency across boots" out &&
	grep -q "^-> (static_call_mutex){....} --> (text_mutex){+.+.}:" out &&
	grep -q "^-> (text_mutex){+.+.} --> (static_call_mutex){....}:" out &&
	grep -q "seen in boot 1 (ab)$" out &&
	grep -q "seen in boot 2 (ba)$" out &&
	test "$(grep -c "at: unknown (no trace stored" out)" = 2 &&
	grep -q "^ \*\*\* DEADLOCK \*\*\*" out &&
	tail -n 1 out >last && echo "1 cycle" >expect && test_cmp expect last
'

test_expect_success '--json: both edges, the boot of each, cross_boot' '
	graph --db "$DB" --boots 1,2 --cycles --pretty >out.json &&
	python3 - out.json <<-\EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	assert [b["label"] for b in d["boots"]] == ["ab", "ba"], d["boots"]
	assert d["components"] == 1 and len(d["cycles"]) == 1, d
	c = d["cycles"][0]
	assert c["cross_boot"] is True
	edges = {(e["from"], e["to"]): e["boots"] for e in c["edges"]}
	assert edges == {("static_call_mutex", "text_mutex"): [1],
			 ("text_mutex", "static_call_mutex"): [2]}, edges
	assert all(e["site"] is None and e["kind"] is None for e in c["edges"])
	EOF
'

test_expect_success '--cycles dot: the two edges bold, in each boot colour' '
	graph --db "$DB" --boots ab,ba --cycles >c.dot &&
	test "$(grep -c -- "-> n.*penwidth=3" c.dot)" = 2 &&
	grep -- "-> n" c.dot | grep -q "color=\"#4e79a7\"" &&
	grep -- "-> n" c.dot | grep -q "color=\"#e15759\"" &&
	grep -q "legend_b1 .*boot 2 (ba)" c.dot &&
	dot -Tsvg c.dot >c.svg && valid_xml c.svg
'

test_expect_success '--class --radius: a neighbourhood, edges shared by both boots in both colours' '
	graph --db "$DB" --boots ab,ba --class cpu_hotplug_lock --radius 1 >r.dot &&
	grep -q "label=\"cpu_hotplug_lock" r.dot &&
	grep -q "peripheries=2" r.dot &&
	grep -q "color=\"#4e79a7:#e15759\"" r.dot &&
	! grep -q "label=\"text_mutex" r.dot &&
	graph --db "$DB" --boots ab,ba --class cpu_hotplug_lock --radius 2 >r2.dot &&
	grep -q "label=\"text_mutex" r2.dot
'

test_expect_success '--report: the chain of a circular report, each link with its site' '
	id=$(q "SELECT r.id FROM reports r JOIN boots b ON b.id = r.boot_id WHERE b.label = \"002-circular\"") &&
	graph --db "$DB" --report $id >rep.dot &&
	grep -- "-> n" rep.dot >edges &&
	test "$(wc -l <edges)" = 2 &&
	grep -q "label=\"__crypto_lookup_template+0x14/0xa8\"" edges &&
	grep -q "label=\"blocking_notifier_call_chain+0xe/0x2d\"" edges &&
	grep -q "seen in: boot 3 (002-circular)" edges &&
	id=$(q "SELECT r.id FROM reports r JOIN boots b ON b.id = r.boot_id WHERE b.label = \"045-circular\"") &&
	graph --db "$DB" --report $id -T svg -o rep.svg && valid_xml rep.svg
'

test_expect_success '--irq on a real boot: no irq-safe -> irq-unsafe path' '
	graph --db "$DB" --boot ab --irq --list >out &&
	{ no_export "1 (ab)" && echo "0 irq-safe -> irq-unsafe paths"; } >expect &&
	test_cmp expect out
'

test_expect_success 'hostile class names cannot break dot' '
	mkdir hostile &&
	cat >hostile/lockdep <<-\EOF &&
	all lock classes:
	(____ptrval____) FD:    1 BD:    1 +.+.: a"]; n0 -> n1 [label="pwned
	 -> [(____ptrval____)] back\slash\N\G{x|y}<b>&lt;</b>

	(____ptrval____) FD:    1 BD:    1 -.-.: back\slash\N\G{x|y}<b>&lt;</b>
	 -> [(____ptrval____)] a"]; n0 -> n1 [label="pwned

	EOF
	partial_ok "$BIN/lockdep-collect" --db h.db --proc-dir hostile --label "x\"y" &&
	sqlite3 h.db "INSERT INTO classes (boot_id, name, usage_bits) VALUES (1, \"new\" || char(10) || \"line}\" || char(9) || \"\\\", 0)" &&
	sqlite3 h.db "INSERT INTO dependencies (boot_id, from_class, to_class) SELECT 1, max(id), min(id) FROM classes" &&
	"$BIN/lockdep-graph" --db h.db >h.dot &&
	test "$(grep -c "^	n[0-9]* -> n[0-9]* \[" h.dot)" = 3 &&
	dot -Tsvg h.dot >h.svg 2>dot.err && test ! -s dot.err &&
	valid_xml h.svg &&
	python3 - h.svg <<-\EOF
	import sys, xml.dom.minidom as m
	d = m.parse(sys.argv[1])
	texts = [t.firstChild.data for t in d.getElementsByTagName("text") if t.firstChild]
	assert "a\"]; n0 -> n1 [label=\"pwned" in texts, texts
	assert "back\\slash\\N\\G{x|y}<b>&lt;</b>" in texts, texts
	assert "new\\x0aline}\\x09\\" in texts, texts
	nodes = [g for g in d.getElementsByTagName("g") if g.getAttribute("class") == "node"]
	assert len([n for n in nodes if n.getElementsByTagName("title")[0].firstChild.data.startswith("n")]) == 3
	EOF
'

test_expect_success 'an output that cannot be written: exit 2, said' '
	test_expect_code 2 graph --db "$DB" --max-nodes 0 >/dev/full 2>err &&
	grep -q "unable to write" err
'

test_expect_success 'errors: unknown boot, class or report; usage' '
	test_expect_code 2 graph --db "$DB" --boot nosuch &&
	test_expect_code 2 graph --db "$DB" --class nosuch_class &&
	test_expect_code 2 graph --db "$DB" --report 999 &&
	test_expect_code 2 graph --db "$TRASH/none.db" &&
	test_expect_code 64 graph --db "$DB" --radius 2 &&
	test_expect_code 64 graph --db "$DB" --boot 1 --boots 1,2 &&
	test_expect_code 64 graph --db "$DB" -T gif &&
	test_expect_code 64 graph --db "$DB" --irq --cycles &&
	test_expect_code 64 graph --db "$DB" --class x --list &&
	test_expect_code 64 graph &&
	test_expect_code 2 graph --db "$DB" --boot nosuch 2>err &&
	grep -q "no boot .nosuch. in" err
'

test_expect_success '--max-cycles: the cap is reported, exit 1' '
	graph --db "$DB" --boots ab,ba --cycles --max-cycles 1 --list >out &&
	mkdir cap && printf "all lock classes:\n" >cap/lockdep &&
	for c in a b c; do
		printf "(____ptrval____) FD:    1 BD:    1 ....: %s\n" $c
		for t in a b c; do
			[ $c = $t ] || printf " -> [(____ptrval____)] %s\n" $t
		done
		echo
	done >>cap/lockdep &&
	partial_ok "$BIN/lockdep-collect" --db cap.db --proc-dir cap &&
	graph --db cap.db --cycles --list >out &&
	tail -n 1 out | grep -q "^3 cycles$" &&
	{ graph --db cap.db --cycles --list --max-cycles 1 >out 2>err; test $? = 1; } &&
	grep -q "4 dependencies of cyclic components" err
'

test_expect_success 'help and the man page agree' '
	graph --help >help &&
	for o in $(grep -o -- "--[a-z-]*" help | sort -u); do
		grep -q -- "$(echo $o | sed "s/-/\\\\\\\\-/g")" "$MAN" ||
			{ echo "$o not in man page"; return 1; }
	done &&
	groff -ww -z -man "$MAN" 2>err && test ! -s err
'

test_expect_success 'numbers are digits: a sign, a space or hex is refused, "+1" is a label' '
	for opt in --max-nodes=+5 "--max-nodes= 5" --max-nodes=0x5 "--max-cycles= 1" \
		--max-cycles=+1 "--max-cycles= -1" --report=+1 "--report= 1" \
		--max-nodes=99999999999999999999; do
		test_expect_code 64 graph --db "$DB" "$opt" >out 2>err &&
		grep -q "^usage:" err || { echo "$opt"; cat err; exit 1; }
	done &&
	for opt in --radius=+1 "--radius= 1"; do
		test_expect_code 64 graph --db "$DB" --class text_mutex "$opt" >out 2>err ||
		{ echo "$opt"; cat err; exit 1; }
	done &&
	cp "$DB" lbl.db &&
	sqlite3 lbl.db "UPDATE boots SET label = '\''+1'\'' WHERE id = 2" &&
	graph --db lbl.db --boot +1 --cycles --list >out 2>err &&
	grep -q "^boot 2 (+1) " out &&
	sqlite3 lbl.db "UPDATE boots SET label = '\'' 1'\'' WHERE id = 2" &&
	graph --db lbl.db --boot " 1" --cycles --list >out 2>err &&
	grep -q "^boot 2 ( 1) " out
'

test_done
