#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The series' lockdep boot options, booted in QEMU with vm/boot.sh:
#
#  - lockdep.report_all off (the default) and on: the locking API
#    self-tests pass, and the table is the same in both;
#  - the "bad unlock order" (6 cells) and "non-nested unlock" (4 cells)
#    rows, on self-test locks whose classes opted in to the unlock order
#    check, give the 2006 seed's results;
#  - no class of the kernel's own code opted in: no "bad unlock order"
#    report in either boot, though core code (rcu, writeback, dcache,
#    netlink, tty) releases locks out of order;
#  - /proc/lockdep_stats counts the printed reports (every report banner
#    on the console) and the suppressed duplicates, and with report_all
#    on lockdep is still on at the end;
#  - report_all on, every reporting scenario of the scenario module in one
#    boot: one report each (skipped when the module is not built).
#
# Boots land in build/vm/t0200-*/ (console.log, raw/); BUILD=DIR boots
# the kernel, initramfs and tools of another build directory.

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"
. "$(dirname "$0")/scenario-lib.sh"

BUILD=${BUILD:-$TOP/build}
VMDIR=$BUILD/vm
# the modules of KERNEL_SOURCE's kernel (vm/lib.sh: build/modules for 6.1)
MODULES=${MODULES:-$(. "$TOP/vm/lib.sh" && echo "$MODULES")}

# boot NAME "KERNEL ARGS" [COLLECT ARGS...]
boot() {
	local name=$1 args=$2
	shift 2
	"$TOP/vm/boot.sh" -n "t0200-$name" -t 400 -a "$args" -- "$@"
}

# table CONSOLE: the self-test rows ("name: cells"), without timestamps.
table() {
	tr -d '\r' <"$1" | sed 's/^\[[ 0-9.]*\] //' |
		sed -n '/| Locking API testsuite:/,/testcases passed\|unexpected failures/p' |
		grep -E '^ *[^ ].*: .*\|$'
}

# passed CONSOLE: N of "Good, all N testcases passed!".
passed() {
	tr -d '\r' <"$1" | sed -n 's/.*Good, all *\([0-9]*\) testcases passed!.*/\1/p'
}


# banners CONSOLE: the report banners on the console (the self-tests
# print none: their reports are silent).
banners() {
	tr -d '\r' <"$1" | grep -E "$REPORT_BANNERS"
}

off=$VMDIR/t0200-off
on=$VMDIR/t0200-on

test_expect_success 'boot with every option off' 'boot off ""'
test_expect_success 'options off: self-tests pass' '
	"$TOP/vm/check-selftest.sh" "$off/console.log"
'
test_expect_success 'options off: both unlock order rows give the seed results' '
	table "$off/console.log" >rows &&
	grep -E "^ *bad unlock order:(  ok  \|){6}$" rows &&
	grep -E "^ *non-nested unlock:(  ok  \|){4}$" rows
'
test_expect_success 'options off: the kernel reports no unlock order of its own' '
	! tr -d "\r" <"$off/console.log" | grep "bad unlock order detected"
'
test_expect_success 'options off: stats count the printed reports, lockdep on' '
	test "$(ldstat "$off/raw" "reports printed")" = "$(banners "$off/console.log" | wc -l)" &&
	test "$(ldstat "$off/raw" "duplicate reports suppressed")" = 0 &&
	test "$(ldstat "$off/raw" debug_locks)" = 1
'

test_expect_success 'boot with report_all on' '
	boot on "lockdep.report_all=1"
'
test_expect_success 'options on: self-tests pass' '
	"$TOP/vm/check-selftest.sh" "$on/console.log"
'
test_expect_success 'options on: the table is the same as off' '
	table "$off/console.log" >off-rows &&
	table "$on/console.log" >on-rows &&
	test_cmp off-rows on-rows &&
	test "$(passed "$on/console.log")" = "$(passed "$off/console.log")"
'
test_expect_success 'options on: the kernel reports no unlock order of its own' '
	! tr -d "\r" <"$on/console.log" | grep "bad unlock order detected"
'
test_expect_success 'options on: every report counted, lockdep still on' '
	test "$(ldstat "$on/raw" "reports printed")" = "$(banners "$on/console.log" | wc -l)" &&
	test -n "$(ldstat "$on/raw" "duplicate reports suppressed")" &&
	test "$(ldstat "$on/raw" debug_locks)" = 1
'

# report_all with every reporting scenario in one boot (scenario-lib.sh).
reporting_scenarios >"$TRASH/scenarios"
all=$VMDIR/t0200-report-all
if ! find "$MODULES" -name 'test_lockdep_scenarios.ko' 2>/dev/null | grep -q .; then
	test_skip 'report_all: every scenario in one boot, one report each' \
		"no test_lockdep_scenarios.ko in ${MODULES#"$TOP"/}"
else
	test_expect_success 'boot with report_all on, every scenario triggered' '
		boot report-all "lockdep.report_all=1" \
			$(awk "{ printf \"--trigger %s \", \$1 }" "$TRASH/scenarios")
	'
	test_expect_success 'report_all: the module lists every scenario used' '
		list=$all/raw/files/sys/kernel/debug/lockdep_scenarios/list &&
		for s in $(awk "{ print \$1 }" "$TRASH/scenarios"); do
			grep -q "^$s " "$list" || { echo "$s not listed"; return 1; }
		done
	'
	test_expect_success 'report_all: one report per reporting scenario' '
		tr -d "\r" <"$all/console.log" |
			grep -E "$REPORT_BANNERS|WARNING: suspicious RCU usage" >got &&
		awk "NF > 1 { sub(/^[^ ]+ /, \"\"); print }" "$TRASH/scenarios" >want &&
		test "$(wc -l <got)" = "$(wc -l <want)" &&
		while read -r banner; do
			test "$(grep -c -- "$banner" got)" = "$(grep -cxF -- "$banner" want)" ||
				{ echo "count of \"$banner\" differs"; return 1; }
		done <want &&
		test "$(ldstat "$all/raw" debug_locks)" = 1
	'
fi

test_done
