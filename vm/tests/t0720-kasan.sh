#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The series under KASAN (make check-kasan): the lockdep kernel built with
# the generic KASAN (KERNEL_VARIANT=kasan, vm/kasan.config), booted on 2
# CPUs with lockdep.report_all=1. A KASAN report taints the kernel, which
# turns lockdep off, so both are checked:
#
#  - boot: every lock class registered at boot goes through the lookup of
#    the keys that asked for the unlock order check (0006), and not every
#    key is a struct lock_class_key (DEFINE_TIMER()'s is its name string):
#    no KASAN report, lockdep on;
#  - lifetime: a held lock freed, a recursive lock, a lock held on return
#    to user space, an unlock out of order; then the scenario module is
#    unloaded (its keys, and with them lockdep's entries for them, go
#    away) and loaded again, and the out-of-order unlock is reported once
#    more, for the new classes of the reloaded keys. One report each, no
#    KASAN report, lockdep still on;
#  - the freed lock's report prints with the validator off for it: no
#    dependency out of the freed lock's class (registered by
#    held-lock-freed, the boot's first trigger) in the graph export
#    read before the module's unload (the debugfs file lockdep/graph),
#    which zaps its classes.
#
# Skipped unless the kasan kernel is built from the series as it is now
# ('make kernel-kasan'). Boots land in $BUILD/vm/t0720-*/.

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"
. "$(dirname "$0")/scenario-lib.sh"

export KERNEL_VARIANT=kasan
BUILD=${BUILD:-$TOP/build}
VMDIR=$BUILD/vm
eval "$(. "$TOP/vm/lib.sh" &&
	echo "KREPO='$KREPO' KSRC='$KSRC' KIMAGE='$KIMAGE' MODULES='$MODULES'")"

if [ ! -f "$KIMAGE" ] ||
   ! find "$MODULES" -name 'test_lockdep_scenarios.ko' 2>/dev/null | grep -q .; then
	test_skip_all 'the series under KASAN' "its own target: make check-kasan (no kasan kernel with the scenario module here)"
fi
# the build stamp ends with the commit the kasan tree was built at
tip=$(git -C "$KREPO" rev-parse -q --verify lockdep 2>/dev/null || echo none)
case $(cat "$KSRC.stamp-build" 2>/dev/null) in
*-"$tip") ;;
*)	test_skip_all 'the series under KASAN' "its own target: make check-kasan (the kasan kernel here was built from another series than branch lockdep's tip)" ;;
esac

cat >"$TRASH/reload.sh" <<'EOF'
#!/bin/sh
set -e
# The freed lock's class and the dependencies out of it, read before the
# unload zaps the module's classes.
graph=/sys/kernel/debug/lockdep/graph
awk '$1 == "class" && $NF == "freed_object_lock" { c[$2] = 1; print }
	$1 == "dep" && ($2 in c)' $graph
ko=$(find /lib/modules -name test_lockdep_scenarios.ko)
rmmod test_lockdep_scenarios
insmod "$ko"
echo unlock-order >/sys/kernel/debug/lockdep_scenarios/trigger
echo "reload: done"
EOF

run=$VMDIR/t0720-kasan
test_expect_success 'boot the kasan kernel with report_all, the scenarios, a module reload' '
	{ "$TOP/vm/boot.sh" -n t0720-kasan -t 500 -a "lockdep.report_all=1" \
		-r "$TRASH/reload.sh" -w 200 -- --trigger held-lock-freed \
		--trigger aa --trigger user-return --trigger unlock-order \
		>out 2>&1 || { tail -20 out; false; }; } &&
	tr -d "\r" <"$run/console.log" >console &&
	grep -q "KernelAddressSanitizer initialized" console
'
test_expect_success 'no KASAN report, no warning of lockdep itself' '
	! grep -E "BUG: KASAN|DEBUG_LOCKS_WARN_ON|WARNING: CPU|MAX_UNLOCK_ORDER_KEYS|Disabling lock debugging" console
'
test_expect_success 'one report each, the unlock order again after the reload, lockdep on' '
	grep -qx "reload: done" "$run/raw/workload.out" &&
	grep -E "$REPORT_BANNERS" console | sed "s/^\[[ 0-9.]*\] //" >got &&
	printf "%s\n" "WARNING: held lock freed!" \
		"WARNING: possible recursive locking detected" \
		"WARNING: lock held when returning to user space!" \
		"WARNING: bad unlock order detected!" \
		"WARNING: bad unlock order detected!" >want &&
	test_cmp want got &&
	test "$(ldstat "$run/raw" "reports printed")" = 5 &&
	test "$(ldstat "$run/raw" debug_locks)" = 1
'

test_expect_success 'held-lock-freed: no dependency out of the freed lock class' '
	awk "\$1 == \"class\" { n++ } \$1 == \"dep\" { print; bad++ }
		END { if (!n) print \"no class freed_object_lock\"; exit !n || bad }" \
		"$run/raw/workload.out"
'

test_done
