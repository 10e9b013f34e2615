#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The lock/unlock hot path's machine code with and without the series:
# disassembles lock_acquire, lock_release and the functions they call on
# every lock operation (__lock_acquire, __lock_release, ...) in the
# lockdep kernel's vmlinux and in the plain kernel's (the peer of
# bench/lock-hotpath.sh, same .config), and prints, per function, the
# instruction counts and a diff of the instructions with addresses,
# jump targets and symbol offsets taken out. What the series changes on
# those paths shows as diff lines; a function the same in both prints
# "same". Functions that one kernel calls and the other does not (a helper
# that gcc stopped inlining, say: a call, a frame and a return on the path)
# are named first, as the diff of renamed registers can hide them. Not a
# test. Run 'make bench' (it builds both kernels) first.
#
# FUNCS overrides the list of functions.
set -euo pipefail
. "$(dirname "$0")/../vm/lib.sh"
STEP=disasm

FUNCS=${FUNCS:-"lock_acquire lock_release __lock_acquire __lock_release lock_acquired lock_contended validate_chain check_chain_key"}
lockdep=$KREPO/vmlinux
plain=$(KERNEL_VARIANT=plain . "$TOP/vm/lib.sh" && echo "$KSRC")/vmlinux
for f in "$lockdep" "$plain"; do
	[ -f "$f" ] || die "$f missing: run 'make bench' (it builds both kernels)"
done

# body VMLINUX FUNC: FUNC's instructions, one per line, without address,
# encoding, jump targets or offsets into symbols
body() {
	local start size
	read -r start size < <(nm -S --defined-only "$1" |
		awk -v f="$2" '$4 == f { print $1, $2; exit }')
	[ -n "${start:-}" ] || return 0
	objdump -d --no-show-raw-insn --start-address="0x$start" \
		--stop-address="$(printf '0x%x' $((0x$start + 0x$size)))" "$1" |
		sed -n 's/^ *[0-9a-f]*:\t//p' |
		sed -e 's/ \+/ /g' -e 's/[0-9a-f]\{16\} <\([^>+]*\)[^>]*>/<\1>/g' \
			-e 's/0x[0-9a-f]\{6,\}/ADDR/g' -e 's/# [0-9a-f]* </# </'
}

# calls: the functions a body calls, one per line, sorted
calls() {
	sed -n 's/^call <\([^>]*\)>$/\1/p' | sort -u
}

for fn in $FUNCS; do
	a=$(body "$plain" "$fn")
	b=$(body "$lockdep" "$fn")
	if [ -z "$a$b" ]; then
		printf '%-18s inlined or absent in both\n' "$fn"
		continue
	fi
	printf '%-18s plain %4d insns, lockdep %4d insns' "$fn" \
		"$(grep -c . <<<"$a" || true)" "$(grep -c . <<<"$b" || true)"
	if [ "$a" = "$b" ]; then
		echo ": same"
	else
		echo ": differ"
		comm -3 <(calls <<<"$a") <(calls <<<"$b") |
			sed -e 's/^\t\(.*\)/    calls only in lockdep: \1/' \
				-e 's/^\([^ ].*\)/    calls only in plain:   \1/'
		diff <(echo "$a") <(echo "$b") | sed -n 's/^[<>] /    &/p' | head -${DIFF_LINES:-40} || true
	fi
done
