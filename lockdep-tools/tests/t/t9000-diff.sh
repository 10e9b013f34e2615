#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-diff on real 6.1 collections

Boot A is the real 6.1 fixture (tests/fixtures/6.1: /proc files and the
console log of a guest boot), collected with lockdep-collect --db. Boot B
is the same data changed the way a patch changes it: a dependency gone,
a class and dependency added, a class that became hardirq-safe, a limit
nearly used up, a self-test cell failing, a new report (from the shared
corpus). The cross-boot cycle comes from two /proc/lockdep files that
each add one half of an AB-BA pair (the ab-order and ba-order scenarios)
to the real graph: each clean alone, a cycle together.'
. "$(dirname "$0")/lib.sh"

FIX=$TOP/lockdep-tools/tests/fixtures/6.1
MAN=$TOP/lockdep-tools/man/lockdep-diff.1
diff_() { "$BIN/lockdep-diff" "$@"; }
collect() { "$BIN/lockdep-collect" "$@" 2>/dev/null; }
# the proc dirs here have no lockdep_graph: a kernel without our series
# (exit 3), compared as /proc/lockdep shows it
collect_plain() {
	test_expect_code 3 "$BIN/lockdep-collect" "$@" 2>/dev/null
}
DB=$TRASH/db

# proc_dir DIR: the fixture's /proc files, copied into DIR
proc_dir() {
	mkdir -p "$1" &&
	cp "$FIX/lockdep" "$FIX/lockdep_stats" "$FIX/lockdep_chains" \
		"$FIX/lock_stat" "$1/"
}

# A: the fixture as it is. B: the fixture as a patch would change it.
setup_ab() {
	proc_dir "$TRASH/a" && proc_dir "$TRASH/b" &&
	awk '
		# static_call_mutex no longer takes text_mutex
		/: static_call_mutex$/ { in_scm = 1 }
		in_scm && /-> \[.*\] text_mutex$/ { in_scm = 0; next }
		/^$/ { in_scm = 0 }
		# (console_sem).lock is now taken in hardirq context
		/ \.\.\.\.: \(console_sem\)\.lock$/ { sub(/\.\.\.\.:/, "-...:") }
		# and so is console_lock, which takes hardirq-unsafe locks
		/ \+\.\+\.: console_lock$/ { sub(/\+\.\+\.:/, "-.+.:") }
		{ print }
		END {
			print "(____ptrval____) FD:    1 BD:    1 +.+.: diff_new_lock"
			print " -> [(____ptrval____)] text_mutex"
			print ""
			print "(____ptrval____) FD:    0 BD:    1 +.+.: esc\033[31mred"
			print ""
		}' "$FIX/lockdep" >"$TRASH/b/lockdep" &&
	sed -i "s/^ lock-classes: *405 \[max: 8192\]/ lock-classes:                         8000 [max: 8192]/" \
		"$TRASH/b/lockdep_stats" &&
	grep -q " 8000 \[max: 8192\]" "$TRASH/b/lockdep_stats" &&
	collect_plain --db "$DB" --proc-dir "$TRASH/a" --label a >/dev/null &&
	collect_plain --db "$DB" --proc-dir "$TRASH/b" --label b >/dev/null
}

# The two halves of an AB-BA pair, each in a copy of the real graph.
half() {
	proc_dir "$TRASH/$1" &&
	printf '(____ptrval____) FD:    1 BD:    1 +.+.: %s\n -> [(____ptrval____)] %s\n\n(____ptrval____) FD:    0 BD:    2 +.+.: %s\n\n' \
		"$2" "$3" "$3" >>"$TRASH/$1/lockdep"
}

test_expect_success 'man page: groff clean, SYNOPSIS has every --help option' '
	man_synopsis "$MAN" "$BIN/lockdep-diff"
'

test_expect_success 'usage errors exit 64' '
	for args in "" "--db x 1" "1 2" "--db x 1 2 3" "--bogus --db x 1 2" \
		"--db x --fail-on=nope 1 2" "--db x --fail-on=headroom=x 1 2" \
		"--db x --fail-on=headroom=101 1 2" "--db x --fail-on= 1 2" \
		"--db x --max-cycles=-1 1 2" "--db x --max-cycles=z 1 2"; do
		test_expect_code 64 diff_ $args >out 2>err && grep -q "^usage:" err ||
		{ echo "args: $args"; cat err; return 1; }
	done
'

test_expect_success 'two real collections that differ' '
	setup_ab &&
	test "$(sqlite3 "$DB" "SELECT count(*) FROM boots")" = 2
'

test_expect_success 'a boot against itself: no change, exit 0 whatever --fail-on' '
	diff_ --db "$DB" --fail-on=new-report,new-cycle,new-dependency,headroom=1 \
		a 1 >out &&
	grep -q "^classes: 0 added, 0 removed$" out &&
	grep -q "^dependencies: 0 added, 0 removed$" out &&
	grep -q "^new cycles: 0$" out &&
	grep -q "^reports: 0 new, 0 gone$" out
'

test_expect_success 'classes, dependencies and usage that changed' '
	diff_ --db "$DB" a b >out &&
	grep -q "^classes: 2 added, 0 removed" out &&
	grep -q "^  + diff_new_lock$" out &&
	grep -q "^dependencies: 1 added, 1 removed$" out &&
	grep -q "^  + diff_new_lock -> text_mutex$" out &&
	grep -q "^  - static_call_mutex -> text_mutex$" out &&
	grep -q "^  ~ (console_sem).lock {....} -> {-...}: +IN-HARDIRQ-W; became hardirq-safe$" out
'

test_expect_success 'a hostile class name is escaped in text and in JSON' '
	diff_ --db "$DB" a b >out &&
	grep -q "^  + esc\\\\x1b\[31mred$" out &&
	! grep -q "$(printf "\033")" out &&
	diff_ --db "$DB" --json a b >out.json &&
	grep -q "\"identity\":\"esc\\\\u001b\[31mred\"" out.json
'

test_expect_success 'new irq-safe -> irq-unsafe path from the usage change' '
	diff_ --db "$DB" a b >out &&
	sed -n "/^new irq-safe/,/^new cycles/p" out >paths &&
	! grep -q "^new irq-safe -> irq-unsafe paths: 0$" paths &&
	grep -q "^  hardirq-safe -> hardirq-unsafe" paths &&
	grep -q "^    console_lock -> " paths
'

test_expect_success 'lockdep_stats: deltas and headroom; --fail-on headroom' '
	diff_ --db "$DB" a b >out &&
	grep -E "^  lock-classes +405 +8000 +\+7595 +8192 +2\.3%$" out &&
	test_expect_code 1 diff_ --db "$DB" --fail-on=headroom=5 a b >/dev/null 2>err &&
	grep -q "headroom=5" err &&
	diff_ --db "$DB" --fail-on=headroom=2 a b >/dev/null &&
	diff_ --db "$DB" --json a b >out.json &&
	grep -q "{\"name\":\"lock-classes\",\"a\":405,\"b\":8000,\"max\":8192,\"headroom_pct\":2}" out.json
'

test_expect_success '--fail-on new-dependency exits 1, and not the other way round' '
	test_expect_code 1 diff_ --db "$DB" --fail-on=new-dependency a b >/dev/null 2>err &&
	grep -q "new-dependency: 1 new dependencies" err &&
	test_expect_code 1 diff_ --db "$DB" --fail-on=new-dependency,new-report b a \
		>/dev/null 2>err &&
	diff_ --db "$DB" --fail-on=new-report,new-cycle a b >/dev/null
'

test_expect_success 'reports by dedup key and self-test cells, from real logs' '
	sed "0,/A-B-B-A deadlock:  ok  |/s//A-B-B-A deadlock:FAILED|/" \
		"$FIX/console.log" >b.log &&
	grep -q "A-B-B-A deadlock:FAILED|" b.log &&
	cat "$CORPUS/002-circular.txt" >>b.log &&
	collect --db "$DB" --log "$FIX/console.log" --label la >/dev/null &&
	collect --db "$DB" --log b.log --label lb >/dev/null &&
	diff_ --db "$DB" la lb >out &&
	grep -q "^self-test: 1 cells changed$" out &&
	grep -q "^  ~ Locking API testsuite / A-B-B-A deadlock / spin: ok -> FAILED$" out &&
	grep -q "^reports: 1 new, 0 gone$" out &&
	grep -q "^  + \[circular-dependency\] " out &&
	test_expect_code 1 diff_ --db "$DB" --fail-on=new-report la lb >/dev/null 2>&1 &&
	diff_ --db "$DB" --fail-on=new-report lb la >back &&
	grep -q "^reports: 0 new, 1 gone$" back &&
	grep -q "^  - \[circular-dependency\] " back
'

test_expect_success 'cross-boot cycle: each half clean, the union a cycle' '
	half ab order_a order_b && half ba order_b order_a &&
	collect_plain --db "$DB" --proc-dir "$TRASH/ab" --label ab >/dev/null &&
	collect_plain --db "$DB" --proc-dir "$TRASH/ba" --label ba >/dev/null &&
	diff_ --db "$DB" --fail-on=new-cycle a ab >/dev/null &&
	diff_ --db "$DB" --fail-on=new-cycle a ba >/dev/null &&
	test_expect_code 1 diff_ --db "$DB" --fail-on=new-cycle ab ba >out 2>err &&
	grep -q "new-cycle: 1 new cycles" err &&
	grep -q "^new cycles: 1$" out &&
	grep -q "^new cycle 1: possible circular locking dependency across boots" out &&
	grep -q "^  order_a --> order_b   seen in boot [0-9]* (ab)$" out &&
	grep -q "^  order_b --> order_a   seen in boot [0-9]* (ba)$" out
'

test_expect_success 'cross-boot cycle in lockdep words, with each acquisition' '
	diff_ --db "$DB" ab ba >out &&
	sed -n "/^  trying to acquire lock:/,/DEADLOCK/p" out >words &&
	cat >expect <<-\EOF &&
	  trying to acquire lock:
	  (order_a){+.+.}
	  but task is already holding lock:
	  (order_b){+.+.}
	  which lock already depends on the new lock.

	  the existing dependency chain (in reverse order) is:

	  -> #1 (order_b){+.+.}:
	         taken while holding order_a, seen in boot 5 (ab)
	         at: unknown (no stack trace stored: no graph export in the boot)

	  -> #0 (order_a){+.+.}:
	         taken while holding order_b, seen in boot 6 (ba)
	         at: unknown (no stack trace stored: no graph export in the boot)

	  other info that might help us debug this:

	   Possible unsafe locking scenario:

	         CPU0                    CPU1
	         ----                    ----
	    lock(order_b);
	                                 lock(order_a);
	                                 lock(order_b);
	    lock(order_a);

	   *** DEADLOCK ***
	EOF
	test_cmp expect words
'

test_expect_success 'cross-boot cycle in JSON' '
	test_expect_code 1 diff_ --db "$DB" --json --fail-on=new-cycle ab ba >out.json &&
	grep -q "\"cycles\":{\"edges_not_listed\":0,\"new\":\[{\"cross_boot\":true,\"edges\":\[{\"from\":\"order_a\",\"to\":\"order_b\",\"seen_in\":\[\"A\"\],\"site\":null},{\"from\":\"order_b\",\"to\":\"order_a\",\"seen_in\":\[\"B\"\],\"site\":null}\]}\]}" out.json &&
	grep -q "\"failed\":\[\"new-cycle\"\]}" out.json
'

test_expect_success 'FILE:ID across two databases gives the same diff' '
	collect_plain --db other.db --proc-dir "$TRASH/ba" --label ba >/dev/null &&
	diff_ --db "$DB" ab ba | sed "/^[AB]: /d" >one &&
	diff_ "$DB:ab" other.db:1 | sed "/^[AB]: /d" | sed "s/ of .[^ ]*\.db.//; s/ of .[^ ]*\/db.//" >two &&
	sed -i "s/boot 1 (ba)/boot 6 (ba)/" two &&
	test_cmp one two &&
	diff_ "$DB:ab" other.db:ba >three && grep -q "^B: boot 1 (ba) of .other.db. in .other.db." three
'

test_expect_success 'a missing database, boot or label is an error (2)' '
	for args in "--db nope.db 1 2" "--db $DB 1 99" "--db $DB a no-such-label" \
		"$DB:1 $DB:99"; do
		test_expect_code 2 diff_ $args >out 2>err && test -s err ||
		{ echo "args: $args"; cat err; return 1; }
	done &&
	! diff_ --db "$DB" a no-such-label 2>err &&
	grep -q "no boot .no-such-label. in" err
'

# extra DIR LINE...: the fixture's /proc files in DIR with classes added:
# each LINE "A B" a class A with a dependency on class B (also added)
extra() {
	local d=$1 l
	shift
	proc_dir "$TRASH/$d" &&
	for l in "$@"; do
		set -- $l
		printf '(____ptrval____) FD:    1 BD:    1 +.+.: %s\n -> [(____ptrval____)] %s\n\n(____ptrval____) FD:    0 BD:    2 +.+.: %s\n\n' \
			"$1" "$2" "$2" >>"$TRASH/$d/lockdep"
	done
}

test_expect_success 'a set of baseline boots: flaky findings marked, only the new one gates' '
	# three idle boots of one kernel differ by timing: a workqueue and
	# a timer dependency seen in one of them each
	extra idle1 "wq_flush_a timer_base_a" && extra idle2 "wq_flush_b timer_base_b" &&
	extra idle3 &&
	extra new "wq_flush_a timer_base_a" "new_lock_a new_lock_b" &&
	for b in idle1 idle2 idle3 new; do
		collect_plain --db base.db --proc-dir "$TRASH/$b" --label $b >/dev/null || return 1
	done &&
	# against the one idle boot without them: both count as new
	test_expect_code 1 diff_ --db base.db --fail-on=new-dependency idle3 new >one 2>err && grep -q "^dependencies: 2 added, 0 removed$" one &&
	# against all three: the flaky one is not new, the new one still is
	test_expect_code 1 diff_ --db base.db --fail-on=new-dependency idle1,idle2,idle3 new >out 2>err && grep -q "1 new dependencies" err &&
	grep -q "^dependencies: 1 added, 1 removed$" out &&
	grep -qx "  + new_lock_a -> new_lock_b" out &&
	grep -qx "  - wq_flush_b -> timer_base_b (flaky: 1 of 3 baseline boots)" out &&
	grep -qx "  - wq_flush_b (flaky: 1 of 3 baseline boots)" out &&
	! grep "^  + wq_flush_a" out &&
	grep -q "^   the last of 3 baseline boots (1, 2, 3); flaky, seen in only some of them: 4 classes, 2 dependencies$" out &&
	# a gate that only the flaky findings would trip passes
	diff_ --db base.db --fail-on=new-dependency idle1,idle2,idle3 idle1 >/dev/null &&
	diff_ --db base.db --json idle1,idle2,idle3 new >out.json &&
	grep -q "\"baseline\":{\"boots\":\[1,2,3\],\"flaky_classes\":4,\"flaky_dependencies\":2}" out.json &&
	grep -q "{\"from\":\"wq_flush_b\",\"to\":\"timer_base_b\",\"seen_in\":\[\"A\"\],\"site\":null,\"flaky\":true}" out.json &&
	grep -q "{\"from\":\"new_lock_a\",\"to\":\"new_lock_b\",\"seen_in\":\[\"B\"\],\"site\":null,\"flaky\":false}" out.json
'

test_expect_success 'classes that differ only after a NUL byte stay two classes' '
	proc_dir n1 && proc_dir n2 &&
	printf "(____ptrval____) FD:    0 BD:    1 +.+.: nul\\000AAA\n\n" >>n1/lockdep &&
	printf "(____ptrval____) FD:    0 BD:    1 +.+.: nul\\000BBB\n\n" >>n2/lockdep &&
	collect_plain --db nul.db --proc-dir n1 --label n1 >/dev/null &&
	collect_plain --db nul.db --proc-dir n2 --label n2 >/dev/null &&
	diff_ --db nul.db n1 n2 >out &&
	grep -q "^classes: 1 added, 1 removed" out &&
	grep -qF "nul\\0AAA" out && grep -qF "nul\\0BBB" out
'

test_expect_success '--fail-on and --max-cycles: every number parsed strictly' '
	for arg in headroom=nan headroom=NaN headroom=nan\(1\) headroom=inf \
		headroom=infinity headroom=-0 headroom=-1 headroom=+5 \
		"headroom= 5" headroom=5x headroom=0x10 headroom=1e1 headroom=5. \
		headroom=.5 headroom=5% headroom=100.01 headroom= \
		headroom=1,headroom=2 new-report,,new-cycle new-report, ,new-cycle \
		headroom=1.000000000000000000000000000000x; do
		test_expect_code 64 diff_ --db "$DB" "--fail-on=$arg" a b >out 2>err &&
		grep -q "^usage:" err &&
		test_cmp /dev/null out || { echo "--fail-on=$arg"; cat err; exit 1; }
	done &&
	for arg in " 5" +5 -1 " -1" 5x 0x10 18446744073709551616 ""; do
		test_expect_code 64 diff_ --db "$DB" "--max-cycles=$arg" a b \
			>out 2>err &&
		grep -q "invalid --max-cycles" err || { echo "--max-cycles=$arg"; cat err; exit 1; }
	done &&
	test_expect_code 1 diff_ --db "$DB" --fail-on=headroom=2.5 a b >/dev/null 2>err &&
	grep -q "headroom=2.5:" err &&
	diff_ --db "$DB" --fail-on=headroom=2.25,headroom=2.25 --max-cycles=0 a b >/dev/null &&
	diff_ --db "$DB" --fail-on=headroom=2.0000000000000000000000000000000001 a b >/dev/null &&
	diff_ --db "$DB" --fail-on=headroom=0 a b >/dev/null &&
	test_expect_code 1 diff_ --db "$DB" --fail-on=headroom=100 a b >/dev/null
'

test_expect_success 'a boot id is digits: "+1", " 1" and a huge number are labels' '
	cp "$DB" lbl.db &&
	sqlite3 lbl.db "UPDATE boots SET label = '\''+1'\'' WHERE id = 2" &&
	diff_ --db lbl.db a +1 >out &&
	grep -q "^B: boot 2 (+1) in " out &&
	sqlite3 lbl.db "UPDATE boots SET label = '\'' 1'\'' WHERE id = 2" &&
	diff_ --db lbl.db a " 1" >out &&
	grep -q "^B: boot 2 ( 1) in " out &&
	test_expect_code 2 diff_ --db lbl.db a 99999999999999999999 >out 2>err &&
	grep -q "no boot .99999999999999999999. in" err
'

test_done
