#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Run TAP test scripts, show their output, and close with one summary line
# "tap: N passed, N failed, N skipped". Exits non-zero if any test failed,
# any script exited non-zero, a named script does not exist (a mistyped
# name in a Makefile list), a script's "1..N" plan is missing or differs
# from the tests it printed (a script that died half-way), or a test was
# skipped for a reason not in SKIP_REASONS below.
set -uo pipefail

# A skip must name a reason outside what make check builds itself (the
# test library prints it as "ok N # skip DESC (reason: REASON)"); each
# extended regex here is one such reason. Anything else that skips is a
# failure: a missing kernel, module or Debian package of make deps is
# something make check was to provide.
SKIP_REASONS=(
	# a kernel make check does not build: make check-kasan,
	# check-tree and the like build and run it
	'^its own target: make [a-z0-9-]+'
	# the Debian archive, over the network (t1000's distro kernel)
	'^no network for apt: '
	# the shared report corpus lives beside the repository, not in it
	'^no report corpus: '
)

skip_allowed() {
	local r
	for r in "${SKIP_REASONS[@]}"; do
		[[ $1 =~ $r ]] && return 0
	done
	return 1
}

pass=0 fail=0 skip=0 bad_scripts=0
for t in "$@"; do
	echo "# $t"
	if [ ! -f "$t" ]; then
		echo "not ok - $t: no such test script"
		fail=$((fail + 1)) bad_scripts=$((bad_scripts + 1))
		continue
	fi
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
	plans=$(grep -E '^1\.\.[0-9]+$' <<<"$out")
	if [ -z "$plans" ]; then
		echo "not ok - $t printed no 1..N plan: it ended before test_done"
		fail=$((fail + 1)) rc=1
	elif [ "$(wc -l <<<"$plans")" != 1 ] || [ "${plans#1..}" != $((p + s + f)) ]; then
		echo "not ok - $t: plan ${plans//$'\n'/ }, but $((p + s + f)) tests ran"
		fail=$((fail + 1)) rc=1
	fi
	while IFS= read -r line; do
		reason=$(sed -n 's/.*(reason: \(.*\))$/\1/p' <<<"$line")
		skip_allowed "$reason" && continue
		echo "not ok - $t skipped what make check provides: ${line#ok }"
		fail=$((fail + 1)) rc=1
	done < <(grep -E '^ok [0-9]+ # skip' <<<"$out")
	[ $rc = 0 ] || bad_scripts=$((bad_scripts + 1))
done
echo "tap: $pass passed, $fail failed, $skip skipped"
[ $fail = 0 ] && [ $bad_scripts = 0 ]
