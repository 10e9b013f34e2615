#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The advice of lockdep's BITS proven by a boot (make check-capacity,
# issue 33 item 4). t0350 is the first half: a config too small for
# vm/workloads/all.sh reports the limit. Here:
#   whole     the lockdep kernel (its default BITS) runs all.sh with no
#             limit report: its counts are the workload's, not the lower
#             bounds of a boot that ran out (advice from those is a
#             projection: t0356 proves it from t0350's boots)
#   advice    lockdep-report --capacity --headroom=H --fragment of that
#             boot: sure, and not the default in at least one option.
#             The advice never goes below the boot's own BITS, so H is
#             picked above what the defaults leave free: list entries
#             are about 7200 of 32768 (78 % free), H = 80 asks for one
#             more bit
#   advised   the capacity kernel rebuilt with that fragment (vm/kernel.sh,
#             the same tree: lockdep's few files and the links) runs
#             all.sh: no limit report, and each table the advice sized
#             (list entries, chains, chain hlocks, stack-trace entries;
#             not the stack hash, whose bits follow the trace bits by
#             ratio) has at most (100 - H) % used, within TOL % of its
#             use: the same workload differs from boot to boot (list
#             entries 7050 to 7470 in eight boots on 2026-12-07: 6 %),
#             so TOL = 10
#   can fail  the same check, with no tolerance, on the lockdep kernel's
#             boot (one bit fewer than advised: about 22 % used, 6554
#             entries are 20 %) fails: the check tells the two apart
# The boots land in $BUILD/vm/t0355-*/, their databases next to them
# (NAME.db, and NAME.db.tables: the tables checked).

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"
. "$(dirname "$0")/capacity-lib.sh"

H=80
TOL=10
eval "$(. "$TOP/vm/lib.sh" && echo "KREPO='$KREPO' BUILD='$BUILD'")"
# the databases next to the boots, to read after the test
WHOLE=$BUILD/vm/t0355-whole.db ADVISED=$BUILD/vm/t0355-advised.db
# make check-capacity runs it (KERNEL_VARIANT=capacity): it rebuilds the
# capacity tree and takes minutes; make check-boot's t*.sh does not
if [ "${KERNEL_VARIANT:-}" != capacity ]; then
	test_skip_all 'the advice' "its own target: make check-capacity (run with KERNEL_VARIANT=capacity)"
fi
if [ ! -f "$KREPO/arch/x86/boot/bzImage" ]; then
	test_skip_all 'the advice' "its own target: make check-capacity (no lockdep kernel here)"
fi

test_expect_success 'all.sh on the lockdep kernel: whole, no limit report' '
	{ capacity_boot t0355-whole "$WHOLE" lockdep >out 2>&1 || { cat out; false; }; } &&
	test "$(capacity_limits "$WHOLE")" = 0
'

test_expect_success "the advice for --headroom=$H: sure, not the defaults" '
	"$BIN/lockdep-report" --db "$WHOLE" --capacity --headroom=$H \
		--fragment=advised.config >advice &&
	cat advice advised.config &&
	! grep -qi unsure advice &&
	grep -c "^CONFIG_LOCKDEP_.*BITS=" advised.config >n &&
	test "$(cat n)" = 4 &&
	# at least one option differs from the lockdep kernel'\''s
	test "$(grep -cxFf <(grep "^CONFIG_" advised.config) "$KREPO/.config")" -lt 4
'

test_expect_success 'the capacity kernel built with the advice' '
	{ KERNEL_VARIANT=capacity CAPACITY_CONFIG=$PWD/advised.config \
		nice -n 10 "$TOP/vm/kernel.sh" all >build.out 2>&1 ||
		{ cat build.out; false; }; } &&
	ktree=$(KERNEL_VARIANT=capacity && . "$TOP/vm/lib.sh" && echo "$KSRC") &&
	test "$(grep -cxFf <(grep "^CONFIG_" advised.config) "$ktree/.config")" = 4
'

test_expect_success "all.sh on it: no limit report, $H % free (tolerance $TOL %)" '
	{ capacity_boot t0355-advised "$ADVISED" capacity >out 2>&1 || { cat out; false; }; } &&
	test "$(capacity_limits "$ADVISED")" = 0 &&
	capacity_holds "$ADVISED" "$H" "$TOL"
'

test_expect_success 'the check (no tolerance) fails on the lockdep kernel: one bit fewer' '
	test_must_fail capacity_holds "$WHOLE" "$H" 0 >short &&
	cat short &&
	grep -q "^list_entries: .* (short)$" short
'

test_done
