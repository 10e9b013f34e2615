#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The advice from a boot that ran out, proven by a boot (make
# check-capacity, issue 33 item 4). t0350's boots ran all.sh on the
# capacity kernel with one table made too small (vm/capacity.config:
# LOCKDEP_BITS=12, vm/capacity-chains.config: CHAINS_BITS=12) and
# stopped counting when it ran out: every count is a lower bound.
# lockdep-report --capacity projects each table to the whole workload
# (lockdep-report(1), CAPACITY: the growth since the workload's first
# sample, at the same rate over the workload's duration). For each of
# the two boots:
#   advice     --headroom=H --fragment: a projection line, sure, and the
#              option of the table that ran out raised above 12
#   advised    the capacity kernel rebuilt with that fragment runs
#              all.sh: no limit report, and each table the advice sized
#              has at most (100 - H) % used, TOL % of its use allowed
#              over (t0355 argues TOL = 10: the workload's list entries
#              varied 6 % in eight boots)
#   can fail   the same check of the advised boot against the sizes the
#              counts at exhaustion alone would have advised (the lower
#              bounds, not projected) fails for the table that ran out:
#              the projection is what makes the advice hold
# t0350 keeps its databases in $BUILD/vm/t0350-NAME.db (NAME: the
# fragment's); the advised boots land in $BUILD/vm/t0356-NAME/, their
# databases next to them.

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"
. "$(dirname "$0")/capacity-lib.sh"

H=50
TOL=10
eval "$(. "$TOP/vm/lib.sh" && echo "KREPO='$KREPO' BUILD='$BUILD'")"
if [ "${KERNEL_VARIANT:-}" != capacity ]; then
	test_skip_all 'the projected advice' "its own target: make check-capacity (run with KERNEL_VARIANT=capacity)"
fi
for name in capacity capacity-chains; do
	if [ ! -f "$BUILD/vm/t0350-$name.db" ]; then
		test_skip_all 'the projected advice' "its own target: make check-capacity (t0350 stores the boot that ran out first: no $BUILD/vm/t0350-$name.db)"
	fi
done

# The table each fragment made small: its --capacity key, its option
table_of() {
	case $1 in
	capacity) echo "list_entries CONFIG_LOCKDEP_BITS" ;;
	capacity-chains) echo "chains CONFIG_LOCKDEP_CHAINS_BITS" ;;
	esac
}

for name in capacity capacity-chains; do
	OUT=$BUILD/vm/t0350-$name.db ADVISED=$BUILD/vm/t0356-$name.db
	read -r table option <<<"$(table_of $name)"

	test_expect_success "$name: the advice of the boot that ran out ($table) is projected" '
		test "$(capacity_limits "$OUT")" = 1 &&
		"$BIN/lockdep-report" --db "$OUT" --capacity --headroom=$H \
			--fragment=$name.config >$name.advice &&
		cat $name.advice $name.config &&
		grep "^projection: boot [0-9]* ran out .* at the same rate over all of it: " $name.advice &&
		! grep -qi unsure $name.advice &&
		bits=$(sed -n "s/^$option=//p" $name.config) &&
		test "$bits" -gt 12
	'

	test_expect_success "$name: the capacity kernel built with it" '
		{ KERNEL_VARIANT=capacity CAPACITY_CONFIG=$PWD/$name.config \
			nice -n 10 "$TOP/vm/kernel.sh" all >$name.build 2>&1 ||
			{ cat $name.build; false; }; } &&
		ktree=$(KERNEL_VARIANT=capacity && . "$TOP/vm/lib.sh" && echo "$KSRC") &&
		test "$(grep -cxFf <(grep "^CONFIG_" $name.config) "$ktree/.config")" = 4
	'

	test_expect_success "$name: all.sh on it: no limit report, $H % free (tolerance $TOL %)" '
		{ capacity_boot t0356-$name "$ADVISED" capacity >out 2>&1 ||
			{ cat out; false; }; } &&
		test "$(capacity_limits "$ADVISED")" = 0 &&
		capacity_holds "$ADVISED" "$H" "$TOL"
	'

	test_expect_success "$name: the counts at exhaustion alone would not have held it" '
		# the size the lower bound advises: the table at 100 - H % used
		"$BIN/lockdep-report" --db "$OUT" --capacity --json >lower.json &&
		jq -r ".tables[] | select(.table == \"$table\") | .used" lower.json >lower &&
		awk -v h=$H -v t=$table "{ n = 4096; while (n * (100 - h) < \$1 * 100) n *= 2
			print t, n }" lower >sizes &&
		cat sizes &&
		test_must_fail capacity_holds "$ADVISED" "$H" 0 sizes >short &&
		cat short &&
		grep -q "^$table: .* (short)$" short
	'
done

test_done
