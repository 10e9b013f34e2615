#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# With lockdep.report_all=1 a reported dependency is still recorded: a
# later cycle through it is reported, and it is in the graph export and
# in the dependency event stream. One workload boot on 2 CPUs runs the
# scenario pair through the kernel tree's kselftest
# (tools/testing/selftests/lockdep/scenarios.sh):
#   irq-then-abba-1  S taken in hardirq context, U with hardirqs on, U
#                    under S: an irq-safe -> irq-unsafe report of S -> U
#   irq-then-abba-2  U with hardirqs on, then S, in a kthread: U -> S, a
#                    circular dependency with that S -> U
# Both reports must be printed, and S -> U must be in the export (the
# debugfs file lockdep/graph, read in the guest after the pair) and in the
# lockdep_dependency events the agent streamed (raw/events). The boot
# lands in $BUILD/vm/t0310-pair/.

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"
. "$(dirname "$0")/scenario-lib.sh"

VMDIR=${BUILD:-$TOP/build}/vm
dir=$VMDIR/t0310-pair

# The workload: the pair, then the export's records of the pair's two
# classes and of the dependencies between them.
cat >"$TRASH/pair.sh" <<'EOF'
#!/bin/sh
/kselftest/lockdep/scenarios.sh irq-then-abba-1 irq-then-abba-2
rc=$?
graph=/sys/kernel/debug/lockdep/graph
echo "export $graph"
awk '$1 == "class" && ($NF == "irq_abba_s" || $NF == "irq_abba_u") {
		pair[$2] = 1
		print
	}
	$1 == "dep" && ($2 in pair) && ($3 in pair)' $graph
exit $rc
EOF

# class NAME: the index of class NAME in the workload's output
class() {
	awk -v n="$1" '$1 == "class" && $NF == n { print $2 }' "$dir/raw/workload.out"
}

test_expect_success 'the pair on 2 CPUs with report_all: the kselftest passes' '
	{ "$TOP/vm/boot.sh" -n t0310-pair -t 400 -a lockdep.report_all=1 \
		-r "$TRASH/pair.sh" -w 300 >out 2>&1 || { tail -5 out; false; }; }
'

test_expect_success 'the guest had 2 CPUs, the KTAP says ok for both halves' '
	tr -d "\r" <"$dir/console.log" | grep -qE "smp: Brought up 1 node, 2 CPUs$" &&
	grep -x "ok 1 irq-then-abba-1" "$dir/raw/workload.out" &&
	grep -x "ok 2 irq-then-abba-2" "$dir/raw/workload.out"
'

test_expect_success 'the console: S -> U reported as irq-unsafe, then the cycle' '
	segment irq-then-abba-1 "$dir/console.log" >one &&
	grep -E "WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected" one &&
	segment irq-then-abba-2 "$dir/console.log" >two &&
	grep -E "WARNING: possible circular locking dependency detected" two &&
	grep -q irq_abba_s two && grep -q irq_abba_u two
'

test_expect_success 'S -> U is in the graph export' '
	s=$(class irq_abba_s) && u=$(class irq_abba_u) &&
	test -n "$s" && test -n "$u" &&
	grep "^export " "$dir/raw/workload.out" &&
	grep -E "^dep $s $u " "$dir/raw/workload.out"
'

test_expect_success 'S -> U is in the dependency event stream' '
	s=$(class irq_abba_s) && u=$(class irq_abba_u) &&
	test -n "$s" && test -n "$u" &&
	grep -E " lockdep_dependency: from=$s to=$u " "$dir/raw/events"
'

test_done
