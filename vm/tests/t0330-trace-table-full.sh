#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The series' first patch, a fix of 6.1: when check_noncircular() finds
# a cycle and lockdep's stack-trace table is full, save_trace() turns the
# validator off and releases the graph lock, and 6.1 then prints the
# report, which releases that lock a second time and takes
# lockdep_recursion below zero. The scenario trace-table-full fills the
# table, the last trace cut to the room left, and closes a cycle. Two
# boots on 2 CPUs, each triggering it alone:
#   plain   the unpatched 6.1 kernel (make kernel-plain, its scenario
#           module built from the series' source)
#   series  the series' kernel: the table found full, the validator off,
#           and nothing else printed
# In both, "MAX_STACK_TRACE_ENTRIES too low" must come out of
# check_noncircular(): that the scenario reached the path it is for.
# What 6.1 does wrong there shows nowhere on our kernels: the warning
# lock_acquire() would print about lockdep_recursion is a WARN_ON_ONCE(),
# compiled to nothing without CONFIG_BUG (tinyconfig's default), and the
# second release of the graph lock breaks nothing unless another CPU
# holds it then. So the plain boot proves only that 6.1 reaches that
# path; a boot that fails on 6.1 needs CONFIG_BUG=y (issue 31, next).
# Boots land in $BUILD/vm/t0330-plain/ and t0330-series/.

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"
. "$(dirname "$0")/scenario-lib.sh"

VMDIR=${BUILD:-$TOP/build}/vm


# full NAME: scenario trace-table-full ran in boot NAME, filled the table
# and the cycle found it full; its console segment in NAME.seg
full() {
	local dir=$VMDIR/t0330-$1
	tr -d '\r' <"$dir/console.log" | grep -qE "smp: Brought up 1 node, 2 CPUs$" &&
	grep -qx "trigger done trace-table-full" "$dir/raw/MANIFEST" &&
	segment trace-table-full "$dir/console.log" | tr -d '\r' >"$1.seg" &&
	grep -q "test_lockdep_scenarios: done trace-table-full" "$1.seg" &&
	sed -n '/BUG: MAX_STACK_TRACE_ENTRIES too low!/,$p' "$1.seg" >"$1.after" &&
	grep -q "turning off the locking correctness validator" "$1.after" &&
	sed -n '/Call Trace:/,/<\/TASK>/p' "$1.after" >"$1.trace" &&
	grep -q "check_noncircular" "$1.trace" &&
	test "$(ldstat "$dir/raw" debug_locks)" = 0
}

# 6.12 (KERNEL_SOURCE=linux-source-6.12): the series' half only, as
# make check-612 builds no plain 6.12 kernel (the plain kernel is the
# 6.1 bench's peer).
if [ "${KERNEL_SOURCE:-linux-source-6.1}" = linux-source-6.1 ]; then
	test_expect_success 'plain 6.1: boot, trigger trace-table-full' '
		{ KERNEL_VARIANT=plain "$TOP/vm/boot.sh" -n t0330-plain -t 400 -- \
			--trigger trace-table-full >out 2>&1 || { tail -5 out; false; }; }
	'

	test_expect_success 'plain 6.1: the table found full by the cycle' '
		full plain
	'
fi

test_expect_success 'the series: boot, trigger trace-table-full' '
	{ "$TOP/vm/boot.sh" -n t0330-series -t 400 -- \
		--trigger trace-table-full >out 2>&1 || { tail -5 out; false; }; }
'

test_expect_success 'the series: the table found full by the cycle, and nothing more' '
	full series &&
	test "$(grep -cE "(WARNING|BUG): " series.seg)" = 1 &&
	! grep -E "$REPORT_BANNERS" series.seg
'

test_done
