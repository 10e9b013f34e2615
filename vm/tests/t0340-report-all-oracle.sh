#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# An oracle for the claim of lockdep.report_all=1 that every dependency
# that happened is recorded, after a recursion report, after a return to
# user space with a lock held and after an allowed unordered unlock:
# every (held, taken) pair the scenarios make, but for the trylock, the
# lock of a class already held and the pairs under a lock the validator
# stopped checking for its task, must be a dependency in the graph export,
# and the cycle that needs it must be reported. One workload boot on 2
# CPUs runs, through the kernel tree's kselftest
# (tools/testing/selftests/lockdep/scenarios.sh):
#   recursion-then-cycle-1    R1, Q (trylock), R2 of R1's class: a
#                             recursive locking report, and Q -> R
#   recursion-then-cycle-2    R -> P and P -> Q in kthreads: with Q -> R,
#                             the cycle Q -> R -> P -> Q
#   user-return-then-cycle-1  X -> L in a kthread; L held to user space
#                             (the report), then X taken under L by the
#                             same task, no dependency there
#   user-return-then-cycle-2  L -> X in a kthread: the cycle, unless the
#                             first task's (L, X) chain kept L -> X out
#   unordered-then-cycle-1    X -> D in a kthread; D's unordered unlock
#                             allowed, then X taken under D
#   unordered-then-cycle-2    D -> X in a kthread: the cycle, the same
# and reads the export (the debugfs file lockdep/graph) afterwards; the
# same dependencies must be in the lockdep_dependency events the agent
# streamed (raw/events). The
# boot lands in $BUILD/vm/t0340-recursion/.

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"
. "$(dirname "$0")/scenario-lib.sh"

VMDIR=${BUILD:-$TOP/build}/vm
dir=$VMDIR/t0340-recursion

# The dependencies the scenarios made, "FROM TO" by class name, sorted.
cat >"$TRASH/pairs" <<'EOF'
rtc_p rtc_q
rtc_q rtc_r
rtc_r rtc_p
uoc_d uoc_x
uoc_x uoc_d
urc_l urc_x
urc_x urc_l
EOF

# The workload: the pair, then the export's classes of the scenarios,
# "class INDEX NAME", and the dependencies between them, "dep FROM TO"
# by class name.
cat >"$TRASH/oracle.sh" <<'EOF'
#!/bin/sh
/kselftest/lockdep/scenarios.sh recursion-then-cycle-1 recursion-then-cycle-2 \
	user-return-then-cycle-1 user-return-then-cycle-2 \
	unordered-then-cycle-1 unordered-then-cycle-2
rc=$?
awk '$1 == "class" && $NF ~ /^(rtc_[rqp]|urc_[lx]|uoc_[dx])$/ {
		name[$2] = $NF
		print "class", $2, $NF
	}
	$1 == "dep" && ($2 in name) && ($3 in name) { print "dep", name[$2], name[$3] }' \
	/sys/kernel/debug/lockdep/graph
exit $rc
EOF

test_expect_success 'the pair on 2 CPUs with report_all: the kselftest passes' '
	{ "$TOP/vm/boot.sh" -n t0340-recursion -t 400 -a lockdep.report_all=1 \
		-r "$TRASH/oracle.sh" -w 300 >out 2>&1 || { tail -5 out; false; }; }
'

test_expect_success 'the guest had 2 CPUs, the KTAP says ok for both' '
	tr -d "\r" <"$dir/console.log" | grep -qE "smp: Brought up 1 node, 2 CPUs$" &&
	grep -x "ok 1 recursion-then-cycle-1" "$dir/raw/workload.out" &&
	grep -x "ok 2 recursion-then-cycle-2" "$dir/raw/workload.out" &&
	grep -x "ok 3 user-return-then-cycle-1" "$dir/raw/workload.out" &&
	grep -x "ok 4 user-return-then-cycle-2" "$dir/raw/workload.out" &&
	grep -x "ok 5 unordered-then-cycle-1" "$dir/raw/workload.out" &&
	grep -x "ok 6 unordered-then-cycle-2" "$dir/raw/workload.out"
'

test_expect_success 'the console: the recursion report, then the cycle through Q -> R' '
	segment recursion-then-cycle-1 "$dir/console.log" >one &&
	grep -E "WARNING: possible recursive locking detected" one &&
	segment recursion-then-cycle-2 "$dir/console.log" >two &&
	grep -E "WARNING: possible circular locking dependency detected" two &&
	grep -q rtc_q two && grep -q rtc_r two && grep -q rtc_p two
'

test_expect_success 'the console: the return to user, then the cycle through L -> X' '
	segment user-return-then-cycle-1 "$dir/console.log" >one &&
	grep -E "WARNING: lock held when returning to user space" one &&
	segment user-return-then-cycle-2 "$dir/console.log" >two &&
	grep -E "WARNING: possible circular locking dependency detected" two &&
	grep -q urc_l two && grep -q urc_x two
'

test_expect_success 'the console: the cycle through D -> X after the unordered unlock' '
	segment unordered-then-cycle-1 "$dir/console.log" >one &&
	! grep -E "$REPORT_BANNERS" one &&
	segment unordered-then-cycle-2 "$dir/console.log" >two &&
	grep -E "WARNING: possible circular locking dependency detected" two &&
	grep -q uoc_d two && grep -q uoc_x two
'

test_expect_success 'every dependency the scenarios made is in the export' '
	test "$(wc -l <"$TRASH/pairs")" = 7 &&
	sed -n "s/^dep //p" "$dir/raw/workload.out" | sort -u >graph &&
	comm -23 "$TRASH/pairs" graph >missing &&
	{ test ! -s missing || { echo "missing:"; cat missing; false; }; }
'

test_expect_success 'and in the dependency event stream' '
	test "$(wc -l <"$TRASH/pairs")" = 7 &&
	while read -r from to; do
		i=$(awk -v n="$from" '\''$1 == "class" && $3 == n { print $2 }'\'' "$dir/raw/workload.out") &&
		j=$(awk -v n="$to" '\''$1 == "class" && $3 == n { print $2 }'\'' "$dir/raw/workload.out") &&
		test -n "$i" && test -n "$j" &&
		grep -qE " lockdep_dependency: from=$i to=$j " "$dir/raw/events" ||
		{ echo "no event for $from -> $to"; return 1; }
	done <"$TRASH/pairs"
'

test_done
