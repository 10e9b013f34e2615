#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Does the patch fix the bug the reproducer shows? ('make verify-fix')
#
#   vm/verify-fix.sh [-n NAME] [-r RUNS] [-w SECONDS] [-c FRAGMENT]
#                    [-b PATCH]... -p PATCH [-p PATCH]... REPRO.c
#                    [-- COLLECT ARGS...]
#
# Boots RUNS times (default 3) the kernel without the patches and RUNS
# times with them (vm/kernel-variant.sh: both with FRAGMENT merged when
# -c is given; the patches applied and built incrementally), each boot
# running REPRO.c for up to -w SECONDS (default 300) through
# vm/repro.sh, and prints the table (-b PATCH: patches both sides start
# from, such as the revert that brings a fixed bug back, vm/repro/):
#   without the patch: reproduced k/RUNS, the title syzbot would give it
#   with the patch:    reproduced k/RUNS
#   the dependency that closed the cycle (a circular dependency's
#   held -> acquired lock of the first report): in how many boots with
#   the patch lockdep's graph still has it (a lock-order fix leaves it
#   in none)
#   lockdep-diff of the boots without against the first with: what the
#   patch removed and added, the report's classes' lines (all of it in
#   build/verify/NAME/diff.txt)
# and the verdict as the last line: fixed, not fixed or not reproduced.
# The compile, the fragment and the patches are checked before anything
# is built or booted (vm/repro.sh, vm/kernel-variant.sh). Every boot is
# in build/verify/NAME/verify.db, labelled NAME-without-K and
# NAME-with-K (boot directories build/vm/NAME-with-K...).
#
# Exit status: 0 fixed (reproduced without the patch, never with it),
# 1 an error (it does not compile, a patch does not apply, an option
# did not survive, a build or a boot failed), 2 not fixed (reproduced
# with the patch too), 3 not reproduced (not even without the patch:
# nothing proven), 64 usage.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=verify-fix

name=verify runs=3 wtime=300 fragment=""
base=() patches=() frag_args=()
usage() {
	echo "usage: $0 [-n NAME] [-r RUNS] [-w SECONDS] [-c FRAGMENT] [-b PATCH]... -p PATCH [-p PATCH]... REPRO.c [-- COLLECT ARGS...]" >&2
	exit 64
}
while getopts n:r:w:c:b:p: opt; do
	case $opt in
	n) name=$OPTARG ;;
	r) runs=$OPTARG ;;
	w) wtime=$OPTARG ;;
	c) fragment=$OPTARG frag_args=(-c "$OPTARG") ;;
	b) base+=(-p "$OPTARG") ;;
	p) patches+=(-p "$OPTARG") ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] && [ ${#patches[@]} -gt 0 ] || usage
src=$1
shift
[ $# = 0 ] || { [ "$1" = -- ] && shift; } || usage
check_name NAME "$name"
for v in runs wtime; do
	case ${!v} in
	''|0|*[!0-9]*) echo "verify-fix: error: ${v/wtime/-w} wants a positive number, not '${!v}'" >&2
		exit 64 ;;
	esac
done
[ -f "$src" ] && [ -r "$src" ] || die "no reproducer '$src'"
out=$BUILD/verify/$name
rm -rf "$out"
mkdir -p "$out"
db=$out/verify.db

# Everything that can fail before a boot, first: the kernels are built
# (or found built) here, repro.sh finds them built.
repro_compile "$src" "$out/repro"
[ -z "$fragment" ] && [ ${#base[@]} = 0 ] ||
	"$TOP/vm/kernel-variant.sh" "${frag_args[@]}" "${base[@]}" >/dev/null
"$TOP/vm/kernel-variant.sh" "${frag_args[@]}" "${base[@]}" "${patches[@]}" >/dev/null

# side without|with K [COLLECT ARGS]: boot K of one side; its verdict
# line in build/vm/NAME-SIDE-K/verdict (repro.sh: 0 reproduced, 2 not)
side() {
	local which=$1 k=$2 label=$name-$1-$2 rc=0 kernel=("${frag_args[@]}" "${base[@]}")
	[ "$which" = without ] || kernel+=("${patches[@]}")
	shift 2
	progress "$which the patch, boot $k of $runs"
	"$TOP/vm/repro.sh" -n "$label" -w "$wtime" -d "$db" -l "$label" "${kernel[@]}" \
		"$src" -- "$@" >"$out/$label.log" 2>&1 || rc=$?
	case $rc in
	0|2) progress "$which the patch, boot $k: $(cat "$BUILD/vm/$label/verdict")" ;;
	*) tail -n 20 "$out/$label.log" >&2
	   die "boot $label failed (log: $out/$label.log)" ;;
	esac
}
for k in $(seq "$runs"); do
	side without "$k" "$@"
done
for k in $(seq "$runs"); do
	side with "$k" "$@"
done

# verdicts SIDE: the verdict lines of SIDE's boots, in order
verdicts() {
	local k
	for k in $(seq "$runs"); do
		cat "$BUILD/vm/$name-$1-$k/verdict"
	done
}
n_without=$(verdicts without | grep -c '^reproduced' || true)
n_with=$(verdicts with | grep -c '^reproduced' || true)
first=$(verdicts without | grep -m1 '^reproduced' || true)
title=${first#*: }
printf '\nverify-fix %s: %s, RUNS=%s, RUN_TIMEOUT=%s%s\n' "$name" "${src##*/}" "$runs" "$wtime" \
	"${fragment:+, KCONFIG ${fragment##*/}}"
printf '  patches:          '
for ((i = 1; i < ${#patches[@]}; i += 2)); do printf ' %s' "${patches[i]##*/}"; done
echo
if [ ${#base[@]} -gt 0 ]; then
	printf '  both sides from:  '
	for ((i = 1; i < ${#base[@]}; i += 2)); do printf ' %s' "${base[i]#"$TOP"/}"; done
	echo
fi
printf '  without the patch: reproduced %s/%s%s\n' "$n_without" "$runs" "${first:+: $title}"
printf '  with the patch:    reproduced %s/%s' "$n_with" "$runs"
verdicts with | sed -n 's/^reproduced[^:]*: \(.*\)/\1/p' | sort -u |
	while read -r t; do printf ' (%s)' "$t"; done
echo

# The first report of the first boot without that reproduced: a circular
# dependency's closing dependency is its held lock -> the lock acquired.
closing=""
for k in $(seq "$runs"); do
	grep -q '^reproduced' "$BUILD/vm/$name-without-$k/verdict" || continue
	json=$("$BUILD/bin/lockdep-report" --db "$db" --boot "$name-without-$k" --json --phase=during)
	case $json in
	'[{"id":'*'"type":"circular-dependency"'*)
		json=${json%%\},\{\"id\":*}
		held=$(grep -o '"role":"holding","name":"[^"]*","class":"[^"]*"' <<<"$json" |
			head -n 1 | sed 's/.*"class":"\(.*\)"$/\1/')
		taken=$(grep -o '"role":"acquiring","name":"[^"]*","class":"[^"]*"' <<<"$json" |
			head -n 1 | sed 's/.*"class":"\(.*\)"$/\1/')
		[ -z "$held" ] || [ -z "$taken" ] || closing="$held -> $taken"
		;;
	esac
	break
done
if [ -n "$closing" ]; then
	still=0
	for k in $(seq "$runs"); do
		"$BUILD/bin/lockdep-graph" --db "$db" --boot "$name-with-$k" --json \
			--path "$held" "$taken" >"$out/path-with-$k.json" 2>/dev/null || true
		grep -q '"length":1,' "$out/path-with-$k.json" && still=$((still + 1))
	done
	printf '  closing dependency %s: in the graph of %s/%s boots with the patch\n' \
		"$closing" "$still" "$runs"
else
	echo "  closing dependency: none (no circular dependency reproduced)"
fi

"$BUILD/bin/lockdep-diff" --db "$db" "$(seq -s, -f "$name-without-%g" "$runs")" "$name-with-1" \
	>"$out/diff.txt" 2>&1 || true
echo "  lockdep-diff without -> with (all in ${out#"$TOP"/}/diff.txt):"
grep -E '^(classes|dependencies|reports|new cycles)' "$out/diff.txt" | sed 's/^/    /' || true
if [ -n "$closing" ]; then
	grep -F -e " $held " -e " $taken" "$out/diff.txt" | grep -E '^  [-+]' | sed 's/^/  /' || true
fi

# the database's account of every run of this source
"$BUILD/bin/lockdep-report" --db "$db" --boot "$name-with-$runs" | sed -n 's/^history: /  stored: /p'

if [ "$n_without" = 0 ]; then
	echo "not reproduced: the reproducer showed nothing without the patch in $runs boots"
	exit 3
elif [ "$n_with" != 0 ]; then
	echo "not fixed: reproduced $n_with/$runs with the patch"
	exit 2
fi
echo "fixed: reproduced $n_without/$runs without the patch, 0/$runs with it"
