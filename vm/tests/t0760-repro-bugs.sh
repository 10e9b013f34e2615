#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The real bugs of vm/repro/ (make check-repro, doc/repro.md), what can
# be checked of them without a kernel build or a boot:
#  - each directory is complete: the reproducer compiles as syzbot
#    builds reproducers (static, -pthread), warnings as errors; a title
#    of one line, a timeout in seconds, a fragment of CONFIG_ lines and
#    comments alone;
#  - each revert applies to the lockdep kernel's tree and its fix,
#    applied over it, gives back that tree exactly (a scratch index:
#    the tree is not written);
#  - verify-fix -b (the base both sides start from) refuses a base that
#    does not apply, with git's reason, and builds nothing.
# make check-repro does the rest: the kernels and the boots.

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"

BUILD=${BUILD:-$TOP/build}
KTREE=$BUILD/linux
BUGS=$TOP/vm/repro
export BUILD KTREE BUGS

test_expect_success 'three bugs, each complete; each reproducer compiles static with -pthread' '
	ls "$BUGS"/*/repro.c >list &&
	test "$(wc -l <list)" = 3 &&
	for d in "$BUGS"/*/; do
		for f in README.md repro.c revert.patch fix.patch kconfig title timeout; do
			test -s "$d$f" || { echo "$d$f missing or empty"; false; } || exit 1
		done &&
		test "$(wc -l <"${d}title")" = 1 &&
		grep -qx "[1-9][0-9]*" "${d}timeout" &&
		! grep -v -e "^CONFIG_[A-Z0-9_]*=[ym]$" -e "^#" -e "^$" "${d}kconfig" &&
		gcc -static -pthread -O2 -Wall -Wextra -Werror -o repro "${d}repro.c" || exit 1
	done
'

test_expect_success 'each revert applies to the lockdep tree; its fix over it gives the tree back' '
	base=$(git -C "$KTREE" rev-parse "HEAD^{tree}") &&
	for d in "$BUGS"/*/; do
		GIT_INDEX_FILE=$PWD/index git -C "$KTREE" read-tree HEAD &&
		GIT_INDEX_FILE=$PWD/index git -C "$KTREE" apply --cached "${d}revert.patch" &&
		reverted=$(GIT_INDEX_FILE=$PWD/index git -C "$KTREE" write-tree) &&
		test "$reverted" != "$base" &&
		GIT_INDEX_FILE=$PWD/index git -C "$KTREE" apply --cached "${d}fix.patch" &&
		test "$(GIT_INDEX_FILE=$PWD/index git -C "$KTREE" write-tree)" = "$base" || {
			echo "$d: the revert or its fix does not fit the tree"; false; } || exit 1
	done &&
	test -z "$(git -C "$KTREE" status --porcelain --untracked-files=no)"
'

test_expect_success 'verify-fix -b: a base that does not apply is refused with the reason, nothing built' '
	d=$BUGS/unix-diag-icons &&
	sed "s/U_LOCK_DIAG);/U_LOCK_STALE);/" "$d/revert.patch" >stale.patch &&
	! cmp -s stale.patch "$d/revert.patch" &&
	{ ls "$BUILD/variant" 2>/dev/null || :; } >before &&
	test_expect_code 1 "$TOP/vm/verify-fix.sh" -n t0760 -r 1 -b stale.patch \
		-p "$d/fix.patch" "$d/repro.c" >out 2>err &&
	grep -q "patch failed: net/unix/diag.c" err &&
	grep -q "the patch .stale.patch. does not apply" err &&
	{ ls "$BUILD/variant" 2>/dev/null || :; } >after && test_cmp before after &&
	test ! -e "$BUILD/vm/t0760-without-1"
'

test_done
