#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Advice proven by a reboot. One boot (lockdep.report_all=1, so every
# scenario reports on its own) runs each annotatable scenario of the
# scenario module, the real deadlocks and locking bugs, and the fixed
# halves of the annotatable ones. lockdep-report --advise --source
# build/linux, on each scenario's part of the console:
#  - for an annotatable scenario, advises a change and a patch that
#    git apply --check takes; every patch is applied to a scratch copy of
#    the module's source, the module alone is rebuilt out of tree
#    (vm/scenario-module.sh), and a second boot runs the same scenarios
#    with it: lockdep reports nothing;
#  - for a real deadlock or locking bug, advises no change at all.
# The hand-written fixed halves stay clean in the first boot. Only the
# reports with a frame in the module count (scenario_log): any other is
# the kernel's own and belongs to no scenario.
#
# Boots land in $BUILD/vm/t0700-broken/ and $BUILD/vm/t0700-fixed/; the
# advice (NAME.txt) and patches (NAME.diff) in $BUILD/vm/t0700-advice/.

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"
. "$(dirname "$0")/scenario-lib.sh"

BUILD=${BUILD:-$TOP/build}
VMDIR=$BUILD/vm
KTREE=$BUILD/linux
ADVICE=$VMDIR/t0700-advice
export KTREE ADVICE

# The scenarios an annotation fixes, each with its fixed half.
annotatable="aa i-mutex mm-ptl hardirq-safe-unsafe softirq-safe-unsafe irq-inversion"
annotatable="$annotatable inconsistent-softirq unlock-order"
fixed="aa-nested i-mutex-nested mm-ptl-nested hardirq-safe-unsafe-irq softirq-safe-unsafe-bh"
fixed="$fixed irq-inversion-irq inconsistent-softirq-bh unlock-order-non-nested"
# Real deadlocks (one instance taken twice included) and locking bugs.
real="abba abbcca abcdbcda rwlock-read-recursion rwsem-read-recursion held-lock-freed"
real="$real bad-unlock user-return rcu-deref"

if ! grep -q '^unlock-order-non-nested ' <(git -C "$KTREE" show lockdep:lib/test_lockdep_scenarios.c 2>/dev/null |
			       sed -n 's/^\t{ "\([a-z-]*\)", .*/\1 /p'); then
	test_skip_all 'advice proven by a reboot' 'the scenario module has no fixed halves'
fi

# boot NAME SCENARIO...: one guest boot that triggers each, with every
# report printed (report_all)
boot() {
	local name=$1 s args=()
	shift
	for s; do
		args+=(--trigger "$s")
	done
	"$TOP/vm/boot.sh" -n "t0700-$name" -t 400 \
		-a "lockdep.report_all=1" -- "${args[@]}"
}


# advise NAME: the advice on scenario NAME's report of the first boot
advise() {
	segment "$1" "$VMDIR/t0700-broken/console.log" >"$ADVICE/$1.console" &&
	scenario_log "$ADVICE/$1.console" "$ADVICE/$1.log" &&
	test -s "$ADVICE/$1.log" &&
	"$BIN/lockdep-report" --advise --source "$KTREE" --vmlinux "$KTREE/vmlinux" \
		--modules "$KTREE" "$ADVICE/$1.log" >"$ADVICE/$1.txt" 2>"$ADVICE/$1.err"
}
export VMDIR BIN

t0=$(date +%s)
rm -rf "$ADVICE"
mkdir -p "$ADVICE"
test_expect_success 'first boot: annotatable, real and fixed scenarios' "
	boot broken $annotatable $real $fixed
"

test_expect_success 'the fixed halves are clean' "
	for s in $fixed; do
		segment \$s $VMDIR/t0700-broken/console.log >seg &&
		grep -q \"test_lockdep_scenarios: done \$s\" seg &&
		scenario_log seg ours && test ! -s ours || { echo \"\$s\"; exit 1; }
	done
"

for s in $annotatable; do
	test_expect_success "$s: advised a change and a patch that applies" "
		advise $s &&
		grep -qE '^advice: (false positive of lock nesting|irq context mismatch)' \$ADVICE/$s.txt &&
		! grep -q '(unsure)' \$ADVICE/$s.txt &&
		sed -n '/^  patch:\$/,\$p' \$ADVICE/$s.txt | tail -n +2 >\$ADVICE/$s.diff &&
		test -s \$ADVICE/$s.diff &&
		(cd \$KTREE && git apply --check \$ADVICE/$s.diff)
	"
done

for s in $real; do
	test_expect_success "$s: a real bug, no annotation advised" "
		advise $s &&
		grep -qE '^advice: (real deadlock|locking bug)' \$ADVICE/$s.txt &&
		! grep -q '^  change:' \$ADVICE/$s.txt &&
		! grep -q '^  patch:' \$ADVICE/$s.txt
	"
done

# Outside any git work tree, where git apply takes paths as they are.
scratch=$TRASH/scratch
test_expect_success 'every patch applies to a scratch copy of the module source' "
	mkdir -p $scratch/lib &&
	cp $KTREE/lib/test_lockdep_scenarios.c $scratch/lib/ &&
	for s in $annotatable; do
		(cd $scratch && git apply \$ADVICE/\$s.diff) || { echo \$s; exit 1; }
	done &&
	! cmp -s $KTREE/lib/test_lockdep_scenarios.c $scratch/lib/test_lockdep_scenarios.c
"

test_expect_success 'the patched module alone rebuilds' "
	$TOP/vm/scenario-module.sh -n t0700-module $scratch/lib/test_lockdep_scenarios.c
"

test_expect_success 'second boot, patched module: the same scenarios report nothing' "
	VM_INITRD=$VMDIR/t0700-module/initramfs.cpio.gz boot fixed $annotatable &&
	for s in $annotatable; do
		grep -qx \"trigger done \$s\" $VMDIR/t0700-fixed/raw/MANIFEST &&
		segment \$s $VMDIR/t0700-fixed/console.log >seg &&
		grep -q \"test_lockdep_scenarios: done \$s\" seg &&
		scenario_log seg ours && test ! -s ours || { echo \"\$s\"; exit 1; }
	done &&
	scenario_log $VMDIR/t0700-fixed/console.log ours && test ! -s ours
"
echo "# t0700: $(( $(date +%s) - t0 )) s"

test_done
