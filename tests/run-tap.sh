#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Run TAP test scripts, show their output, and close with one summary line
# "tap: N passed, N failed, N skipped". Exits non-zero if any test failed
# or any script exited non-zero.
set -uo pipefail

pass=0 fail=0 skip=0 bad_scripts=0
for t in "$@"; do
	[ -e "$t" ] || continue
	echo "# $t"
	out=$(bash "$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	p=$(grep -cE '^ok [0-9]+( -|$)' <<<"$out")
	s=$(grep -cE '^ok [0-9]+ # skip' <<<"$out")
	f=$(grep -cE '^not ok [0-9]+' <<<"$out")
	pass=$((pass + p)) skip=$((skip + s)) fail=$((fail + f))
	if [ $rc != 0 ] && [ "$f" = 0 ]; then
		echo "not ok - $t exited with status $rc"
		fail=$((fail + 1))
	fi
	[ $rc = 0 ] || bad_scripts=$((bad_scripts + 1))
done
echo "tap: $pass passed, $fail failed, $skip skipped"
[ $fail = 0 ] && [ $bad_scripts = 0 ]
