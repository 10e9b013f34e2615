#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The reports of a held lock freed, a lock held on return to user space
# and a lock held at exit print with that lock still held: the locks
# the report takes while it prints (the console's), and what the task
# takes after it, must not be recorded as dependencies out of the freed
# or leaked lock's class. One workload boot on 2 CPUs with
# lockdep.report_all=1 runs held-lock-freed, user-return and
# held-at-exit, each through the kernel tree's kselftest
# (tools/testing/selftests/lockdep/scenarios.sh), and reads the graph
# export (the debugfs file lockdep/graph) before and after each: each report printed, and
# no dependency out of that scenario's class added. user-return and
# held-at-exit are checked only for dependencies into the print's
# classes (the console's: console_sem, console_owner, the serial port
# lock): the kernel's own code runs with those locks really held before
# the report, and what it takes is a real dependency (do_exit() takes
# the signal, cgroup and task locks and tasklist_lock before its check;
# the return to user space may schedule, taking the runqueue lock,
# before lockdep_sys_exit()). The KASAN run of held-lock-freed is
# t0720's. The boot lands in $BUILD/vm/t0320-held/.

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"

VMDIR=${BUILD:-$TOP/build}/vm
dir=$VMDIR/t0320-held

# The workload: for each scenario and the class of its lock, the
# dependencies out of that class before and after the scenario; one
# "SCENARIO: N new dependencies out of CLASS" line each, and each new
# one named.
cat >"$TRASH/held.sh" <<'EOF'
#!/bin/sh
graph=/sys/kernel/debug/lockdep/graph
# deps_out CLASS: "FROM -> TO" per dependency out of class CLASS
deps_out() {
	awk -v c="$1" '$1 == "class" { n[$2] = $NF; if ($NF == c) out[$2] = 1 }
		$1 == "dep" && ($2 in out) { print n[$2], "->", n[$3] }' $graph
}
rc=0
for sc in held-lock-freed:freed_object_lock user-return:user_return \
	  held-at-exit:held_at_exit; do
	s=${sc%:*} c=${sc#*:}
	deps_out $c >/tmp/before
	/kselftest/lockdep/scenarios.sh $s || rc=1
	deps_out $c >/tmp/after
	awk 'FILENAME == ARGV[1] { old[$0] = 1; next } !($0 in old)' /tmp/before /tmp/after >/tmp/new
	echo "$s: $(wc -l </tmp/new) new dependencies out of $c"
	sed 's/^/new: /' /tmp/new
done
exit $rc
EOF

test_expect_success 'the three scenarios on 2 CPUs with report_all: the kselftest passes' '
	{ "$TOP/vm/boot.sh" -n t0320-held -t 400 -a lockdep.report_all=1 \
		-r "$TRASH/held.sh" -w 300 >out 2>&1 || { tail -5 out; false; }; }
'

test_expect_success 'the guest had 2 CPUs, the KTAP says ok for each scenario' '
	tr -d "\r" <"$dir/console.log" | grep -qE "smp: Brought up 1 node, 2 CPUs$" &&
	for s in held-lock-freed user-return held-at-exit; do
		grep -x "ok 1 $s" "$dir/raw/workload.out" || exit 1
	done
'

# new SCENARIO: the new dependencies the workload found for SCENARIO
new() {
	awk -v s="$1:" '$1 == s { on = 1; next } on && sub(/^new: /, "") { print; next }
		{ on = 0 }' "$dir/raw/workload.out"
}

test_expect_success "held-lock-freed: no dependency out of freed_object_lock added" "
	grep -x 'held-lock-freed: [0-9]* new dependencies out of freed_object_lock' '$dir/raw/workload.out' &&
	new held-lock-freed >new && test_cmp /dev/null new
"

for sc in user-return:user_return held-at-exit:held_at_exit; do
	s=${sc%:*} c=${sc#*:}
	test_expect_success "$s: no dependency out of $c into the console path" "
		grep -x '$s: [0-9]* new dependencies out of $c' '$dir/raw/workload.out' &&
		new $s >new &&
		! grep -E -- '-> .*(console|printk|port_lock)' new
	"
done

test_done
