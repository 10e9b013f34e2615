#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A deadlock no single boot shows: two guest boots, one running the
# scenario module's ab-order half (order_a then order_b) and one its
# ba-order half (order_b then order_a). Each boot is clean on its own;
# lockdep-diff finds the AB-BA cycle in their union, names both edges
# with the boot that saw each and the site of each (from the trace the
# graph export stored, in the scenario module: named from the boot's
# /sys/module/NAME/sections/ files and the module's .ko of the build id
# in /sys/module/NAME/notes/), and fails with --fail-on new-cycle.
#
# Needs the scenario module (CONFIG_TEST_LOCKDEP_SCENARIOS), which the
# series adds and make kernel builds: never skipped.
# Boots land in $BUILD/vm/t0500-ab/ and $BUILD/vm/t0500-ba/.

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"

VMDIR=${BUILD:-$TOP/build}/vm
DB=$TRASH/db
VMLINUX=${VMLINUX:-$TOP/build/linux/vmlinux}
# the kernel tree: its lib/test_lockdep_scenarios.ko has DWARF
MODULES=${MODULES:-$TOP/build/linux}
SCENARIO_KO=$MODULES/lib/test_lockdep_scenarios.ko
ANY_REPORT='(WARNING|BUG): '

# boot HALF: one guest boot that runs scenario HALF-order
boot() {
	"$TOP/vm/boot.sh" -n "t0500-$1" -t 400 -- --trigger "$1-order"
}

for half in ab ba; do
	dir=$VMDIR/t0500-$half
	test_expect_success "$half-order: boot, clean on its own" "
		boot $half &&
		grep -qx 'trigger done $half-order' $dir/raw/MANIFEST &&
		sed -n '/test_lockdep_scenarios: run /,\$p' $dir/console.log >after &&
		grep -q 'test_lockdep_scenarios: done $half-order' after &&
		! grep -E '$ANY_REPORT' after &&
		grep -q '^file complete /sys/module/test_lockdep_scenarios/sections/\.text ' \\
			$dir/raw/MANIFEST &&
		grep -q '^file complete /sys/module/test_lockdep_scenarios/notes/\.note\.gnu\.build-id ' \\
			$dir/raw/MANIFEST &&
		'$BIN/lockdep-collect' --db '$DB' --raw-dir $dir/raw --label $half \\
			--vmlinux '$VMLINUX' --modules '$MODULES'
	"
done

# Checked against the module's own symbol table.
test_expect_success 'sites in the scenario module name its functions and lines' "
	nm --defined-only '$SCENARIO_KO' >ko-syms &&
	awk '\$2 ~ /^[tT]\$/ { print \$3 }' ko-syms | sort -u >ko-funcs &&
	test -s ko-funcs &&
	sqlite3 '$DB' \"SELECT DISTINCT site FROM traces
		WHERE site LIKE '%[test_lockdep_scenarios]%'\" >mod-sites &&
	test -s mod-sites &&
	! grep -v '^[a-z_0-9]*+0x[0-9a-f]*/0x[0-9a-f]* \\[test_lockdep_scenarios\\] (lib/test_lockdep_scenarios\\.c:[0-9]*)\$' mod-sites &&
	sed 's/+.*//' mod-sites | sort -u >mod-funcs &&
	comm -23 mod-funcs ko-funcs >unknown && ! test -s unknown
"

test_expect_success 'each half against itself: no new cycle' "
	'$BIN/lockdep-diff' --db '$DB' --fail-on=new-cycle ab ab >out &&
	grep -q '^new cycles: 0\$' out &&
	'$BIN/lockdep-diff' --db '$DB' --fail-on=new-cycle ba ba >out &&
	grep -q '^new cycles: 0\$' out
"

test_expect_success 'the union of the two boots has the AB-BA cycle' "
	test_expect_code 1 '$BIN/lockdep-diff' --db '$DB' --fail-on=new-cycle ab ba \
		>out 2>err &&
	grep -q 'new-cycle: 1 new cycles' err &&
	grep -q '^new cycle 1: possible circular locking dependency across boots' out &&
	grep -q '^  order_a --> order_b   seen in boot [0-9]* (ab)\$' out &&
	grep -q '^  order_b --> order_a   seen in boot [0-9]* (ba)\$' out &&
	grep -q '^  -> #1 (order_b){' out &&
	grep -q '^  -> #0 (order_a){' out &&
	test \$(grep -c '^         at: [a-z_0-9]*+0x[0-9a-f]*/0x[0-9a-f]* \\[test_lockdep_scenarios\\] (lib/test_lockdep_scenarios\\.c:[0-9]*)\$' out) = 2 &&
	grep -q 'Possible unsafe locking scenario' out &&
	grep -q '\\*\\*\\* DEADLOCK \\*\\*\\*' out
"

test_expect_success 'the same cycle in JSON: cross-boot' "
	'$BIN/lockdep-diff' --db '$DB' --json ab ba >out.json &&
	grep -q '\"new\":\\[{\"cross_boot\":true,\"edges\":\\[{\"from\":\"order_a\",\"to\":\"order_b\",\"kind\":\"EN\",\"seen_in\":\\[\"A\"\\]' out.json
"

test_done
