#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-graph: names longer than dot takes

dot rejects a quoted string of 16384 bytes or more ("longer than
16384?"). Class names, report titles and sites come from the guest and
have no such bound: labels in the picture are cut (with "..."), the full
text is in the tooltip, and whatever the length the dot that
lockdep-graph writes is dot that the real dot reads.'
. "$(dirname "$0")/lib.sh"

FIX=$TOP/lockdep-tools/tests/fixtures/6.1
DB=$TRASH/db
q() { sqlite3 "$DB" "$1"; }
LONG_A=$(printf "a%.0s" $(seq 20000))
LONG_B=$(printf "&\"%.0s" $(seq 12000))b	# escapes: longer still once quoted

mkdir -p "$TRASH/ab"
cp "$FIX"/lockdep "$FIX"/lockdep_stats "$FIX"/lockdep_chains "$TRASH/ab/"
"$BIN/lockdep-collect" --db "$DB" --proc-dir "$TRASH/ab" >/dev/null 2>&1
# two classes, too long for dot, on a cycle (inserted here: no parser's
# line limit stands between the name and the graph)
q "INSERT INTO classes (boot_id, name, usage_bits) VALUES (1, '$LONG_A', 0), (1, '${LONG_B//\'/\'\'}', 0)"
q "INSERT INTO dependencies (boot_id, from_class, to_class)
   SELECT 1, a.id, b.id FROM classes a, classes b
   WHERE a.name = '$LONG_A' AND b.name LIKE '&\"&\"%' UNION ALL
   SELECT 1, b.id, a.id FROM classes a, classes b
   WHERE a.name = '$LONG_A' AND b.name LIKE '&\"&\"%'"

test_expect_success 'the fixture: two names of 20000 and more bytes on a cycle' '
	test "$(q "SELECT count(*) FROM classes WHERE length(name) >= 20000")" = 2 &&
	"$BIN/lockdep-graph" --db "$DB" --cycles --list >out &&
	grep -q "^1 cycle" out
'

test_expect_success 'the cycle: dot reads it, labels cut, full names in the tooltips' '
	"$BIN/lockdep-graph" --db "$DB" --cycles >c.dot &&
	dot -Tsvg c.dot >c.svg 2>err && test_cmp /dev/null err &&
	python3 - c.svg "$LONG_A" "$LONG_B" <<-\EOF
	import sys, xml.dom.minidom as m
	d = m.parse(sys.argv[1])
	long_a, long_b = sys.argv[2], sys.argv[3]
	texts = [t.firstChild.data for t in d.getElementsByTagName("text") if t.firstChild]
	assert max(len(t) for t in texts) < 100, max(len(t) for t in texts)
	assert any(t.startswith("aaaa") and t.endswith("...") for t in texts), texts
	tips = [a.getAttribute("xlink:title") for a in d.getElementsByTagName("a")]
	assert long_a in tips, "no full name in a tooltip"
	assert long_b in tips, "no full escaped name in a tooltip"
	assert any(t.startswith(long_a + " --> " + long_b) for t in tips), "edge tooltip"
	EOF
'

test_expect_success 'the whole boot and a class neighbourhood: dot reads them' '
	"$BIN/lockdep-graph" --db "$DB" --boot 1 >all.dot &&
	dot -Tsvg all.dot >/dev/null 2>err && test_cmp /dev/null err &&
	"$BIN/lockdep-graph" --db "$DB" --class "$LONG_A" >cls.dot &&
	dot -Tsvg cls.dot >/dev/null 2>err && test_cmp /dev/null err &&
	"$BIN/lockdep-graph" --db "$DB" --class "$LONG_A" -T svg -o cls.svg &&
	grep -q "$LONG_A" cls.svg
'

test_expect_success 'lockdep-graph(1) says labels are cut' '
	grep -q "cut" "$TOP/lockdep-tools/man/lockdep-graph.1"
'

test_done
