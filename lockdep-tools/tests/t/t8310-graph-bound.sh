#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-graph pictures that stay readable

--max-nodes bounds what one picture draws (default 15): on the real 6.1
boot (tests/fixtures/6.1) fs_reclaim has 64 neighbours; 15 classes are
drawn as a star around it (the dependencies between two neighbours
counted, not drawn) and every other class is counted in a fold box or
the title. What
is drawn first: dependencies on a cycle or an irq path, then those the
most lock chains use (hand-made /proc files). The key beside the graph
names only what the picture uses and stays small beside a two-class
cycle.'
. "$(dirname "$0")/lib.sh"

DB=$TRASH/db
graph() { "$BIN/lockdep-graph" "$@"; }
q() { sqlite3 "$DB" "$1"; }
partial_ok() { "$@" >/dev/null 2>&1; test $? -le 1; }
nodes() { grep -c "^	n[0-9]* \[" "$1"; }
"$BIN/lockdep-collect" --db "$DB" --proc-dir "$FIX61" --label real >/dev/null 2>&1

# the classes next to fs_reclaim, either way, and itself
around() {
	q "SELECT count(*) + 1 FROM (SELECT from_class AS c FROM dependencies d
	   JOIN classes t ON t.id = d.to_class WHERE t.name = '$1'
	   UNION SELECT to_class FROM dependencies d
	   JOIN classes f ON f.id = d.from_class WHERE f.name = '$1')"
}

test_expect_success 'a busy class: 15 drawn, every other one counted' '
	all=$(around fs_reclaim) && test "$all" -gt 40 &&
	graph --db "$DB" --class fs_reclaim >c.dot &&
	test "$(nodes c.dot)" = 15 &&
	grep -q "label=\"boot 1 (real): radius 1 around fs_reclaim (15 of $all classes drawn, --max-nodes=15" c.dot &&
	folded=$(grep -o "label=\"+[0-9]* more" c.dot | grep -o "[0-9]*" | paste -sd+ | bc) &&
	apart=$(grep -o "[0-9]* more not shown" c.dot | grep -o "^[0-9]*" || echo 0) &&
	test $((folded + apart)) = $((all - 15)) &&
	grep -q "label=\"+[0-9]* more over fs_reclaim, folded" c.dot &&
	# a star: every edge drawn touches the centre, the others counted
	focus=$(grep -o "^	n[0-9]* \[ label=\"fs_reclaim\\\\n" c.dot | grep -o "n[0-9]*") &&
	grep "^	n[0-9]* -> n[0-9]* \[" c.dot >edges &&
	test "$(grep -c . edges)" = 14 &&
	! grep -v "^	$focus -> \|-> $focus \[" edges &&
	grep -q "[0-9]* dependencies between neighbours not drawn)" c.dot &&
	graph --db "$DB" --class fs_reclaim --max-nodes 0 >all.dot &&
	test "$(nodes all.dot)" = "$all" &&
	! grep -q "folded" all.dot &&
	graph --db "$DB" --class fs_reclaim --max-nodes 5 -T svg -o c.svg &&
	python3 -c "import sys, xml.dom.minidom as m; m.parse(sys.argv[1])" c.svg
'

test_expect_success 'the whole boot and its irq paths are bounded too' '
	graph --db "$DB" >w.dot &&
	test "$(nodes w.dot)" = 15 &&
	grep -q "(15 of $(q "SELECT count(*) FROM classes") classes drawn" w.dot
'

test_expect_success 'drawn first: a cycle, an irq path, then the most chains' '
	mkdir r &&
	cat >r/lockdep <<-\EOF &&
	all lock classes:
	(____ptrval____) FD:    1 BD:    1 +.+.: x
	 -> [(____ptrval____)] a
	 -> [(____ptrval____)] b
	 -> [(____ptrval____)] c
	 -> [(____ptrval____)] d

	(____ptrval____) FD:    1 BD:    1 ....: a
	 -> [(____ptrval____)] x

	(____ptrval____) FD:    1 BD:    1 -...: h
	 -> [(____ptrval____)] x

	(____ptrval____) FD:    1 BD:    1 ....: b

	(____ptrval____) FD:    1 BD:    1 ....: c

	(____ptrval____) FD:    1 BD:    1 ....: d

	EOF
	for chain in "x b" "x b" "h x b" "x c"; do
		echo "irq_context: 0"
		for c in $chain; do echo "[(____ptrval____)] $c"; done
		echo
	done | sed "1i all lock chains:" >r/lockdep_chains &&
	partial_ok "$BIN/lockdep-collect" --db r.db --proc-dir r &&
	graph --db r.db --class x --max-nodes 4 >r.dot &&
	for c in x a h b; do
		grep -q "label=\"$c\\\\n" r.dot || { echo "$c not drawn"; return 1; }
	done &&
	! grep -q "label=\"[cd]\\\\n" r.dot &&
	grep -q "label=\"+2 more under x, folded\"" r.dot &&
	graph --db r.db --class x --max-nodes 5 >r5.dot &&
	grep -q "label=\"c\\\\n" r5.dot && ! grep -q "label=\"d\\\\n" r5.dot
'

# key_share SVG: the key's box area over the picture's
key_share() {
	python3 - "$1" <<-\EOF
	import sys, xml.dom.minidom as m
	d = m.parse(sys.argv[1])
	svg = d.getElementsByTagName("svg")[0]
	area = float(svg.getAttribute("width")[:-2]) * float(svg.getAttribute("height")[:-2])
	for g in d.getElementsByTagName("g"):
	    t = g.getElementsByTagName("title")
	    if g.getAttribute("class") == "cluster" and t[0].firstChild.data == "cluster_legend":
	        poly = g.getElementsByTagName("polygon")[0].getAttribute("points")
	        pts = [tuple(map(float, p.split(","))) for p in poly.split()]
	        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
	        print("%.2f" % ((max(xs) - min(xs)) * (max(ys) - min(ys)) / area))
	EOF
}

test_expect_success 'the key: only what is used, small beside a two-class cycle' '
	mkdir u1 u2 &&
	printf "all lock classes:\n(____ptrval____) FD:    1 BD:    1 +.+.: p\n -> [(____ptrval____)] q\n\n(____ptrval____) FD:    1 BD:    1 +.+.: q\n\n" >u1/lockdep &&
	printf "all lock classes:\n(____ptrval____) FD:    1 BD:    1 +.+.: q\n -> [(____ptrval____)] p\n\n(____ptrval____) FD:    1 BD:    1 +.+.: p\n\n" >u2/lockdep &&
	partial_ok "$BIN/lockdep-collect" --db u.db --proc-dir u1 --label one &&
	partial_ok "$BIN/lockdep-collect" --db u.db --proc-dir u2 --label two &&
	partial_ok "$BIN/lockdep-collect" --db u.db --proc-dir u1 --label three &&
	graph --db u.db --boots one,two,three --cycles -T svg -o cy.svg &&
	share=$(key_share cy.svg) && echo "key share $share" &&
	test "$(echo "$share < 0.35" | bc)" = 1 &&
	grep -q ">irq&#45;unsafe<" cy.svg &&
	! grep -q "hardirq-safe\|softirq-safe\|folded" cy.svg &&
	grep -q ">bold: on a cycle / irq path<" cy.svg &&
	grep -q ">boot 1 (one)<" cy.svg && grep -q ">boot 2 (two)<" cy.svg &&
	grep -q ">boot 3 (three)<" cy.svg &&
	graph --db u.db --boots one,two,three --class p --radius 1 >p.dot &&
	grep -q "legend_b0" p.dot &&
	graph --db u.db --boots two,three --class q --max-nodes 1 >q.dot &&
	! grep -q "legend_b\|bold:" q.dot
'

test_expect_success 'usage: --max-nodes takes a number' '
	{ graph --db "$DB" --max-nodes x 2>err; test $? = 64; } &&
	grep -q "invalid --max-nodes" err
'

test_done
