#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The lockdep scenario module (CONFIG_TEST_LOCKDEP_SCENARIOS), booted in
# QEMU and driven through the agent (lockdep-collect --trigger). Lockdep
# turns itself off after its first report, so each reporting scenario gets
# a fresh boot of its own and must print its report's banner, and only
# that one (but abba-deadlock, a real deadlock: t0710-report-console.sh);
# the clean scenarios share one boot and print nothing; ba-order
# is clean alone and ab-order after it closes an AB-BA cycle. With
# lockdep.report_all=1, if the kernel has it, every scenario runs in one
# more boot, through the kernel tree's kselftest
# (tools/testing/selftests/lockdep/scenarios.sh, which initramfs.sh packs
# and the boot runs as its workload): its KTAP must say ok for each, and
# each must give its one report on the console. Without report_all the
# kselftest skips what follows the first report, and says so (a boot of
# its own). unlock-order runs three
# times in its boot: its "bad unlock order" report is printed once, the
# repeats are counted as suppressed, and lockdep stays on.
#
# Boots land in $BUILD/vm/t0300-*/ (console.log, raw/MANIFEST).
# LOCKDEP_SCENARIOS="NAME ..." limits the single-scenario boots to NAMEs
# (default: every reporting scenario).

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"
. "$(dirname "$0")/scenario-lib.sh"

VMDIR=${BUILD:-$TOP/build}/vm

# Every scenario and the report it must produce, as the list file says.
cat >"$TRASH/expected-list" <<'EOF'
aa recursive-locking
aa-nested none
abba circular-dependency
abbcca circular-dependency
abcdbcda circular-dependency
abba-deadlock circular-dependency
hardirq-safe-unsafe irq-safe-unsafe-order
hardirq-safe-unsafe-irq none
softirq-safe-unsafe irq-safe-unsafe-order
softirq-safe-unsafe-bh none
irq-inversion irq-lock-inversion
irq-inversion-irq none
inconsistent-softirq inconsistent-lock-state
inconsistent-softirq-bh none
rwlock-read-recursion-softirq none
rwlock-read-recursion recursive-locking
rwsem-read-recursion recursive-locking
bad-unlock bad-unlock-balance
held-lock-freed held-lock-freed
user-return lock-held-returning-to-user
held-at-exit locks-held-at-exit
i-mutex recursive-locking
i-mutex-nested none
mm-ptl recursive-locking
mm-ptl-nested none
unlock-order bad-unlock-order
unlock-order-non-nested none
rcu-deref suspicious-rcu-usage
ab-order none
ba-order none
irq-then-abba-1 irq-safe-unsafe-order
irq-then-abba-2 none
bench none
bench-unordered none
EOF
# Series v4 (6.1 and 6.12) adds unordered-then-cycle-1 and -2 after
# unlock-order-non-nested, recursion-then-cycle-1 and -2 and
# user-return-then-cycle-1 and -2 (all t0340) after irq-then-abba-2, and
# trace-table-full (t0330), which turns the validator
# off for the rest of the boot, so it runs in no boot of this test.
awk '{ print }
	$1 == "unlock-order-non-nested" {
		print "unordered-then-cycle-1 none"
		print "unordered-then-cycle-2 none"
	}
	$1 == "irq-then-abba-2" {
		print "recursion-then-cycle-1 recursive-locking"
		print "recursion-then-cycle-2 none"
		print "user-return-then-cycle-1 lock-held-returning-to-user"
		print "user-return-then-cycle-2 none"
	}
	END { print "trace-table-full trace-table-full" }' \
	"$TRASH/expected-list" >"$TRASH/expected-list.v4" &&
mv "$TRASH/expected-list.v4" "$TRASH/expected-list"

# The banner lockdep prints for each report type (an extended regex).
banner() {
	case $1 in
	circular-dependency) echo 'WARNING: possible circular locking dependency detected' ;;
	recursive-locking) echo 'WARNING: possible recursive locking detected' ;;
	inconsistent-lock-state) echo 'WARNING: inconsistent lock state' ;;
	irq-safe-unsafe-order) echo 'WARNING: (HARDIRQ|SOFTIRQ)-safe -> (HARDIRQ|SOFTIRQ)-unsafe lock order detected' ;;
	irq-lock-inversion) echo 'WARNING: possible irq lock inversion dependency detected' ;;
	bad-unlock-balance) echo 'WARNING: bad unlock balance detected!' ;;
	held-lock-freed) echo 'WARNING: held lock freed!' ;;
	lock-held-returning-to-user) echo 'WARNING: lock held when returning to user space!' ;;
	locks-held-at-exit) echo 'WARNING: .*/[0-9]+ still has locks held!' ;;
	suspicious-rcu-usage) echo 'WARNING: suspicious RCU usage' ;;
	bad-unlock-order) echo 'WARNING: bad unlock order detected!' ;;
	esac
}
# Any report or warning, lockdep's or another's.
ANY_REPORT='(WARNING|BUG): '

# How many times a scenario runs in its own boot.
runs_of() {
	case $1 in
	unlock-order) echo 3 ;;
	*) echo 1 ;;
	esac
}

report_of() {
	awk -v n="$1" '$1 == n { print $2 }' "$TRASH/expected-list"
}

# recursion-then-cycle-1's and user-return-then-cycle-1's reports are
# checked by t0340's boot and by the report_all boot below: no boot of
# their own.
if [ -z "${LOCKDEP_SCENARIOS:-}" ]; then
	LOCKDEP_SCENARIOS=$(awk '$2 != "none" && $1 != "abba-deadlock" &&
		$1 != "trace-table-full" && $1 != "recursion-then-cycle-1" &&
		$1 != "user-return-then-cycle-1" { print $1 }' \
		"$TRASH/expected-list")
fi

# boot NAME [-a "KERNEL ARGS" --] SCENARIO...: one guest boot that
# triggers each SCENARIO in turn; fails if the collection was partial (a
# trigger failed).
boot() {
	local name=$1 append="" s args=()
	shift
	if [ "$1" = -a ]; then
		append=$2
		shift 3
	fi
	for s; do
		args+=(--trigger "$s")
	done
	"$TOP/vm/boot.sh" -n "t0300-$name" -t 400 -a "$append" -- "${args[@]}"
}


clean="rwlock-read-recursion-softirq aa-nested i-mutex-nested mm-ptl-nested"
clean="$clean hardirq-safe-unsafe-irq softirq-safe-unsafe-bh irq-inversion-irq"
clean="$clean inconsistent-softirq-bh unlock-order-non-nested ab-order bench"
clean="$clean bench-unordered"
clean="$clean irq-then-abba-2"
grep -q '^recursion-then-cycle-2 ' "$TRASH/expected-list" &&
	clean="$clean recursion-then-cycle-2 user-return-then-cycle-2 unordered-then-cycle-2"
dir=$VMDIR/t0300-clean
# The unknown name comes last: its failure makes the collection partial.
test_expect_success 'clean scenarios: boot' "
	! boot clean $clean no-such-scenario &&
	test -s $dir/raw/MANIFEST
"

test_expect_success 'list names every scenario with its report' "
	test_cmp '$TRASH/expected-list' \
		$dir/raw/files/sys/kernel/debug/lockdep_scenarios/list
"

test_expect_success 'clean scenarios run and print no report' "
	for s in $clean; do
		grep -qx \"trigger done \$s\" $dir/raw/MANIFEST &&
		grep -q \"test_lockdep_scenarios: done \$s\" $dir/console.log ||
		exit 1
	done &&
	sed -n '/test_lockdep_scenarios: run /,\$p' $dir/console.log >after &&
	! grep -E '$ANY_REPORT' after
"

test_expect_success 'an unknown scenario name is refused with EINVAL' "
	grep -x 'trigger failed no-such-scenario EINVAL' $dir/raw/MANIFEST
"

test_expect_success 'bench prints its cost per lock/unlock pair' "
	grep -E 'test_lockdep_scenarios: bench: [0-9]+ spin_lock/spin_unlock pairs in [0-9]+ ns: [0-9]+\.[0-9]{3} ns/iteration' \
		$dir/console.log
"

test_expect_success 'bench-unordered prints its cost per iteration' "
	grep -E 'test_lockdep_scenarios: bench-unordered: [0-9]+ nested pairs released outer first in [0-9]+ ns: [0-9]+\.[0-9]{3} ns/iteration' \
		$dir/console.log
"

dir=$VMDIR/t0300-abba-halves
test_expect_success 'ba-order then ab-order: boot' 'boot abba-halves ba-order ab-order'
test_expect_success 'ba-order alone is clean, ab-order after it closes a cycle' "
	segment ba-order $dir/console.log >ba &&
	grep -q 'test_lockdep_scenarios: done ba-order' ba &&
	! grep -E '$ANY_REPORT' ba &&
	segment ab-order $dir/console.log >ab &&
	grep -E '$(banner circular-dependency)' ab &&
	test \$(grep -cE '$ANY_REPORT' ab) = 1 &&
	grep -q 'order_a' ab && grep -q 'order_b' ab
"

# The kselftest without lockdep.report_all: the first report turns
# lockdep off and the scenarios after it are skipped, said so; a run
# that can only skip exits with 4 (kselftest's skip), one with an
# unknown name fails.
cat >"$TRASH/kselftest-default.sh" <<'EOF'
#!/bin/sh
for names in "aa abba aa-nested" abba-deadlock no-such-scenario; do
	/kselftest/lockdep/scenarios.sh $names
	echo "exit $?"
done
EOF
cat >"$TRASH/kselftest-default.want" <<'EOF'
TAP version 13
1..3
# lockdep.report_all is off: lockdep stops at the first report, the scenarios after it are skipped
ok 1 aa
ok 2 abba # SKIP lockdep is off
ok 3 aa-nested # SKIP lockdep is off
# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:2 error:0
exit 0
TAP version 13
1..1
# lockdep.report_all is off: lockdep stops at the first report, the scenarios after it are skipped
ok 1 abba-deadlock # SKIP deadlocks the machine
# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:1 error:0
exit 4
TAP version 13
1..1
# lockdep.report_all is off: lockdep stops at the first report, the scenarios after it are skipped
not ok 1 no-such-scenario # not on /sys/kernel/debug/lockdep_scenarios/list
# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0
exit 1
EOF
# 6.12's kselftest prints with ktap_helpers.sh, whose results take no
# reason: it is a "# NAME: why" line before the result.
if [ "${KERNEL_SOURCE:-linux-source-6.1}" = linux-source-6.12 ]; then
	sed -E 's/^((not )?ok [0-9]+ ([a-z-]+)) # (SKIP )?(.*)$/# \3: \5\n\1 # \4/; s/ # $//; s/ $//' \
		"$TRASH/kselftest-default.want" >"$TRASH/kselftest-default.want.612" &&
	mv "$TRASH/kselftest-default.want.612" "$TRASH/kselftest-default.want"
fi
dir=$VMDIR/t0300-kselftest
test_expect_success 'the kselftest without report_all: one report, the rest skipped, said so' "
	{ '$TOP/vm/boot.sh' -n t0300-kselftest -t 400 -r '$TRASH/kselftest-default.sh' \
		-w 300 >out 2>&1 || { tail -5 out; false; }; } &&
	test_cmp '$TRASH/kselftest-default.want' $dir/raw/workload.out &&
	segment aa $dir/console.log >seg &&
	grep -qE '$(banner recursive-locking)' seg &&
	! grep -q 'test_lockdep_scenarios: run abba' $dir/console.log
"

# With lockdep.report_all=1 validation goes on after a report: every
# scenario in one boot (but abba-deadlock, which stops the machine:
# t0710, and trace-table-full, which stops the validator: t0330), run by the kselftest in list order, each reporting one its
# own, the clean ones none, and the second half of each pair (ba-order,
# irq-then-abba-2) closing its cycle.
dir=$VMDIR/t0300-report-all
printf '#!/bin/sh\nexec /kselftest/lockdep/scenarios.sh\n' >"$TRASH/kselftest.sh"
# The KTAP the kselftest must print, but for its diagnostics: every
# test ok, none skipped.
awk 'BEGIN { print "TAP version 13" }
	$1 != "abba-deadlock" && $1 != "trace-table-full" { n++; ok = ok "ok " n " " $1 "\n" }
	END { print "1.." n; printf "%s", ok
		print "# Totals: pass:" n " fail:0 xfail:0 xpass:0 skip:0 error:0" }' \
	"$TRASH/expected-list" >"$TRASH/expected-ktap"
test_expect_success 'report_all: the kselftest runs every scenario in one boot' "
	{ '$TOP/vm/boot.sh' -n t0300-report-all -t 400 -a lockdep.report_all=1 \
		-r '$TRASH/kselftest.sh' -w 600 >out 2>&1 || { tail -5 out; false; }; }
"
if ! grep -q 'reports printed:' "$dir/raw/files/proc/lockdep_stats" 2>/dev/null; then
	test_skip 'report_all: the KTAP says ok for every scenario' \
		'kernel without lockdep.report_all'
	test_skip 'report_all: one report per reporting scenario, none for the clean ones' \
		'kernel without lockdep.report_all'
else
	test_expect_success 'report_all: the KTAP says ok for every scenario' "
		awk '!/^# / || /^# Totals: /' $dir/raw/workload.out >ktap &&
		test_cmp '$TRASH/expected-ktap' ktap
	"
	test_expect_success 'report_all: one report per reporting scenario, none for the clean ones' "
		for s in \$(awk '\$1 != \"abba-deadlock\" && \$1 != \"trace-table-full\" { print \$1 }' \
			'$TRASH/expected-list'); do
			r=\$(awk -v n=\$s '\$1 == n { print \$2 }' '$TRASH/expected-list')
			case \$s in ba-order|irq-then-abba-2|*-then-cycle-2) r=circular-dependency ;; esac
			segment \$s $dir/console.log >seg &&
			grep -q \"test_lockdep_scenarios: done \$s\" seg || exit 1
			n=\$(grep -cE '$ANY_REPORT' seg)
			if [ \$r = none ]; then
				[ \$n = 0 ] || { echo \"\$s: \$n reports\"; exit 1; }
			else
				[ \$n = 1 ] && grep -qE \"\$(banner \$r)\" seg ||
					{ echo \"\$s: \$n reports, expected one \$r\"; exit 1; }
			fi
		done
	"
fi

# The differential of report_all, on the two boots above that run the
# clean scenarios, without it (t0300-clean) and with it among all the
# others (t0300-report-all), by the scenario module's classes (their keys
# in module space), named "NAME/VERSION/SUBCLASS": the dependencies
# without report_all must all be there with it, and in each boot the
# dependency events must name the export's dependencies between those
# classes, no more and no fewer.
# mod_deps DIR: the export's dependencies of boot DIR, "FROM TO"
mod_deps() {
	awk '$1 == "class" && $3 ~ /^0xffffffffa/ { c[$2] = $NF "/" $4 "/" $5 }
		$1 == "dep" && ($2 in c) && ($3 in c) { print c[$2], c[$3] }' \
		"$1/raw/files/sys/kernel/debug/lockdep/graph" | sort -u
}
# mod_events DIR: the same from the dependency events of boot DIR
mod_events() {
	{ awk '$1 == "class" && $3 ~ /^0xffffffffa/ { print "class", $2, $NF "/" $4 "/" $5 }' \
		"$1/raw/files/sys/kernel/debug/lockdep/graph" &&
	  sed -n 's/.* lockdep_dependency: from=\([0-9]*\) to=\([0-9]*\) .*/dep \1 \2/p' \
		"$1/raw/events"; } |
	awk '$1 == "class" { c[$2] = $3 }
		$1 == "dep" && ($2 in c) && ($3 in c) { print c[$2], c[$3] }' | sort -u
}
test_expect_success 'differential: every dependency without report_all is there with it' "
	mod_deps $VMDIR/t0300-clean >off &&
	mod_deps $VMDIR/t0300-report-all >on &&
	test -s off &&
	comm -23 off on >missing &&
	{ test ! -s missing || { cat missing; false; }; }
"
for b in clean report-all; do
	test_expect_success "differential: the events of t0300-$b say what its export says" "
		mod_deps $VMDIR/t0300-$b >export &&
		mod_events $VMDIR/t0300-$b >events &&
		test -s export &&
		test_cmp export events
	"
done

for s in $LOCKDEP_SCENARIOS; do
	r=$(report_of "$s")
	dir=$VMDIR/t0300-$s
	test_expect_success "$s: boot" "boot $s $(yes "$s" | head -n "$(runs_of "$s")" | tr '\n' ' ')"
	test_expect_success "$s: exactly one report, $r" "
		test -n '$(banner "$r")' &&
		grep -qx 'trigger done $s' $dir/raw/MANIFEST &&
		segment $s $dir/console.log >seg &&
		grep -E '$(banner "$r")' seg &&
		test \$(grep -cE '$ANY_REPORT' seg) = 1
	"
done

# unlock-order ran three times: one report printed, two suppressed, and
# the check never turns lockdep off (it keeps one bit per class, no
# table that could fill up).
dir=$VMDIR/t0300-unlock-order
if echo "$LOCKDEP_SCENARIOS" | tr ' ' '\n' | grep -qx unlock-order; then
	test_expect_success 'unlock-order: reported once in three runs, lockdep still on' "
		test \$(grep -c 'trigger done unlock-order' $dir/raw/MANIFEST) = 3 &&
		sed -n '/test_lockdep_scenarios: run unlock-order:/,\$p' $dir/console.log >runs &&
		test \$(grep -cE '$ANY_REPORT' runs) = 1 &&
		stats=$dir/raw/files/proc/lockdep_stats &&
		grep -E '^ *reports printed: +1\$' \$stats &&
		grep -E '^ *duplicate reports suppressed: +2\$' \$stats &&
		grep -E '^ *debug_locks: +1\$' \$stats
	"
fi

test_done
