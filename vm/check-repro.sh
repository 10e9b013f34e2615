#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The real bugs of vm/repro/ ('make check-repro', doc/repro.md): each is
# a public lockdep bug whose fix Debian's linux-source-6.1 carries. Its
# directory holds the reproducer (repro.c), the revert that brings the
# bug back (revert.patch), the fix re-applied over it (fix.patch), the
# config fragment it needs (kconfig), the title syzbot gives its report
# (title) and the seconds a boot may run it (timeout).
#
#   vm/check-repro.sh [NAME]...
#
# Each bug (all, or those named) goes through vm/verify-fix.sh with the
# revert as both sides' base and the fix as the patch, RUNS boots a side
# (default 1): it passes when the reproducer shows the bug with the
# revert, under exactly the title in its directory, and never with the
# fix (verify-fix: fixed). Builds two kernel variants a bug
# (vm/kernel-variant.sh, build/variant/), so it is a target of its own,
# not part of make check. Each bug's table and verdict (verify-fix's
# output) is build/verify/repro-NAME.table, its boots build/verify/repro-NAME/.
#
# Exit status: 0 when every bug passed, 1 when one did not (named).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=check-repro

runs=${RUNS:-1}
if [ $# = 0 ]; then
	mapfile -t names < <(find "$TOP/vm/repro" -mindepth 2 -maxdepth 2 -name repro.c |
		sed 's|.*/vm/repro/\([^/]*\)/repro.c$|\1|' | sort)
	set -- "${names[@]}"
fi
mkdir -p "$BUILD/verify"
failed=()
for name in "$@"; do
	d=$TOP/vm/repro/$name
	for f in repro.c revert.patch fix.patch kconfig title timeout; do
		[ -f "$d/$f" ] || die "vm/repro/$name has no $f"
	done
	want=$(cat "$d/title")
	frag=()
	! grep -q '^CONFIG_' "$d/kconfig" || frag=(-c "$d/kconfig")
	table=$BUILD/verify/repro-$name.table
	t0=$(date +%s)
	rc=0
	"$TOP/vm/verify-fix.sh" -n "repro-$name" -r "$runs" -w "$(cat "$d/timeout")" \
		"${frag[@]}" -b "$d/revert.patch" -p "$d/fix.patch" "$d/repro.c" \
		>"$table" 2>&1 || rc=$?
	secs=$(( $(date +%s) - t0 ))
	got=$(sed -n 's/^  without the patch: reproduced [0-9]*\/[0-9]*: //p' "$table")
	if [ "$rc" = 0 ] && [ "$got" = "$want" ]; then
		progress "$name: passed in $secs s: '$got' with the revert, not with the fix"
	else
		case $rc in
		0) why="titled '$got', not '$want'" ;;
		2) why="reproduced with the fix too" ;;
		3) why="not reproduced with the revert" ;;
		*) why="verify-fix failed (status $rc)" ;;
		esac
		progress "$name: FAILED in $secs s: $why (${table#"$TOP"/})"
		failed+=("$name")
	fi
done
[ ${#failed[@]} = 0 ] || die "real bugs not proven: ${failed[*]}"
