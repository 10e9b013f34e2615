#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# How lockdep.report_all prints its reports, on an SMP guest (2 CPUs),
# booted in QEMU with vm/boot.sh:
#
#  - storm: every reporting scenario of the scenario module runs on CPU 0
#    while CPU 1 makes the kernel print a backtrace of every CPU (sysrq
#    "l": dump_stack() under the printk CPU lock, NMIs to CPU 0) without
#    pause. A report printed under the graph lock can deadlock against
#    that. The guest must finish, with one report per scenario, lockdep
#    still on, and the backtraces on the console;
#  - deadlock: abba-deadlock deadlocks both CPUs with interrupts off right
#    after lockdep reports the cycle, and nothing else ever prints. The
#    whole report must reach the console anyway: a report deferred to
#    irq_work (printk_deferred) never does. The guest is then ended;
#  - freed: a held lock freed (slab poisoning on, slub_debug=FPZ) and then
#    a lock taken before it released: the validator does not read the
#    freed lock again (no fault, no internal warning) and stays on.
#
# The scenario module is the series' own (make kernel builds it): never
# skipped. Boots land in $BUILD/vm/t0710-*/.

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"
. "$(dirname "$0")/scenario-lib.sh"

BUILD=${BUILD:-$TOP/build}
VMDIR=$BUILD/vm
# the modules of KERNEL_SOURCE's kernel (vm/lib.sh: build/modules for 6.1)
MODULES=${MODULES:-$(. "$TOP/vm/lib.sh" && echo "$MODULES")}

# The reporting scenarios of t0200's report_all boot that print a lockdep
# banner, with it; held-lock-freed and user-return have their own case
# below ("freed"), rcu-deref is RCU's report, not lockdep's.
reporting_scenarios |
	awk 'NF > 1 && $1 !~ /^(held-lock-freed|user-return|rcu-deref)$/' \
	>"$TRASH/scenarios"

# The storm workload: CPU 1 asks for backtraces while CPU 0 runs the
# scenarios, each trigger write pinned to its CPU.
{
	echo '#!/bin/sh'
	echo 'taskset 2 sh -c "while :; do echo l >/proc/sysrq-trigger; done" &'
	echo 'storm=$!'
	echo 'sleep 2'
	awk '{ printf "taskset 1 sh -c \"echo %s >/sys/kernel/debug/lockdep_scenarios/trigger\" || echo \"storm: %s failed\"\n", $1, $1 }' \
		"$TRASH/scenarios"
	echo 'kill $storm'
	echo 'wait'
	echo 'echo "storm: done"'
} >"$TRASH/storm.sh"

storm=$VMDIR/t0710-storm
# log_buf_len: on 6.12 the storm's backtraces are printed to the serial
# console from irq_work (they are printed under the printk CPU lock, and
# 6.12 defers the legacy consoles there), so nothing slows the storm to
# the console's pace: with the default 128 KB buffer it overwrote
# reports before the console printed them ("printk messages dropped").
test_expect_success 'storm: boot with report_all, scenarios against a backtrace storm' '
	{ "$TOP/vm/boot.sh" -n t0710-storm -t 400 -a "lockdep.report_all=1 log_buf_len=16M" \
		-r "$TRASH/storm.sh" -w 300 >out 2>&1 || { tail -20 out; false; }; }
'
test_expect_success 'storm: the workload ran to its end, with the storm on' '
	grep -qx "storm: done" "$storm/raw/workload.out" &&
	! grep "storm: .* failed" "$storm/raw/workload.out" &&
	test "$(tr -d "\r" <"$storm/console.log" | grep -c "NMI backtrace for cpu 1")" -ge 1
'
test_expect_success 'storm: one report per scenario, lockdep still on' '
	tr -d "\r" <"$storm/console.log" | grep -E "$REPORT_BANNERS" >got &&
	sed "s/^[^ ]* //" "$TRASH/scenarios" >want &&
	test "$(wc -l <got)" = "$(wc -l <want)" &&
	while read -r banner; do
		test "$(grep -c -- "$banner" got)" = "$(grep -cxF -- "$banner" want)" ||
			{ echo "count of \"$banner\" differs"; return 1; }
	done <want &&
	test "$(ldstat "$storm/raw" "reports printed")" = "$(wc -l <want)" &&
	test "$(ldstat "$storm/raw" debug_locks)" = 1
'

# A held lock freed, then a lock taken before it released, with the slab
# allocator poisoning freed objects (slub_debug=FPZ): the validator must
# not read the freed lock again, and stays on for the next report.
freed=$VMDIR/t0710-freed
test_expect_success 'freed: boot with report_all and slab poisoning' '
	{ "$TOP/vm/boot.sh" -n t0710-freed -t 400 \
		-a "lockdep.report_all=1 slub_debug=FPZ" \
		-- --trigger held-lock-freed --trigger aa >out 2>&1 ||
		{ tail -20 out; false; }; }
'
test_expect_success 'freed: one report each, no fault, lockdep still on' '
	tr -d "\r" <"$freed/console.log" >console &&
	grep -q "slub_debug=FPZ" console &&
	grep -E "$REPORT_BANNERS" console >got &&
	printf "%s\n" "WARNING: held lock freed!" \
		"WARNING: possible recursive locking detected" >want &&
	sed "s/^\[[ 0-9.]*\] //" got >got.text &&
	test_cmp want got.text &&
	! grep -E "DEBUG_LOCKS_WARN_ON|WARNING: CPU|BUG: unable|general protection|Oops" console &&
	test "$(ldstat "$freed/raw" "reports printed")" = 2 &&
	test "$(ldstat "$freed/raw" debug_locks)" = 1
'

# The deadlock boot never powers off: boot.sh runs in the background until
# the report is on the console (or 180 s went by), and is then killed,
# which ends QEMU with it.
dead=$VMDIR/t0710-deadlock
test_expect_success 'deadlock: the whole report reaches the console' '
	rm -rf "$dead" &&
	{ "$TOP/vm/boot.sh" -n t0710-deadlock -t 400 -a "lockdep.report_all=1" \
		-- --trigger abba-deadlock >out 2>&1 & } &&
	pid=$! &&
	found=0 &&
	for i in $(seq 1800); do
		if tr -d "\r" <"$dead/console.log" 2>/dev/null |
			sed -n "/WARNING: possible circular locking dependency/,\$p" |
			grep -q "^ *\(</TASK>\|\[ *[0-9.]*\] *</TASK>\)"; then
			found=1
			break
		fi
		sleep 0.1
	done &&
	sleep 2 &&
	# the guest is deadlocked on purpose: its boot ends by our kill,
	# whatever its status then
	{ kill $pid; wait $pid || :; } &&
	tr -d "\r" <"$dead/console.log" >console &&
	test $found = 1 &&
	grep -q "test_lockdep_scenarios: run abba-deadlock" console &&
	sed -n "/WARNING: possible circular locking dependency/,\$p" console >report &&
	grep -q "deadlock_[ab]" report &&
	grep -q "\*\*\* DEADLOCK \*\*\*" report &&
	grep -q "stack backtrace:" report &&
	grep -q "deadlock_fn" report
'

test_done
