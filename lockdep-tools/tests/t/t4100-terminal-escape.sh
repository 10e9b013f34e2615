#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='untrusted text never reaches a terminal raw

Lock names, frames and whole lines come from the guest. Wherever they
are printed (report text, error messages) the bytes a terminal acts on
are written as \xNN: C0 controls but tab, DEL, the C1 controls as UTF-8
(U+0080..U+009F: c2 80..c2 9f, a CSI at c2 9b) and bytes that are not
UTF-8 (a lone 9b is a CSI to an 8-bit terminal). Other UTF-8 passes.'
. "$(dirname "$0")/lib.sh"

ESC=$(printf '\033')
CSI_C1=$(printf '\302\233')	# U+009B as UTF-8
CSI_8BIT=$(printf '\233')	# a lone byte 0x9b
BEL=$(printf '\a')
E_ACUTE=$(printf '\303\251')	# U+00E9, printable: kept

# raw_controls FILE: true if FILE holds a byte a terminal acts on
raw_controls() {
	LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$1" ||
	LC_ALL=C grep -q "$CSI_C1" "$1" || LC_ALL=C grep -q "$CSI_8BIT" "$1"
}

test_expect_success 'the check itself sees raw controls' '
	printf "a${ESC}[31m\n" >esc && raw_controls esc &&
	printf "a${CSI_C1}31m\n" >c1 && raw_controls c1 &&
	printf "plain caf\303\251 \342\206\222 text\n" >ok && ! raw_controls ok
'

test_expect_success 'lockdep-report: C0, C1 and stray bytes in a lock name escaped, UTF-8 kept' '
	sed "s/&ctx->cq_wait/\&ctx${ESC}]0;x${BEL}${CSI_C1}31m${CSI_8BIT}2J${E_ACUTE}/g" \
		"$CORPUS/016-recursive.txt" >hostile.log &&
	"$BIN/lockdep-report" hostile.log >out &&
	! raw_controls out &&
	grep -F "&ctx\\x1b]0;x\\x07\\xc2\\x9b31m\\x9b2J${E_ACUTE}" out
'

test_expect_success 'lockdep-report --db: the same escaping' '
	"$BIN/lockdep-collect" --db db --log hostile.log >/dev/null 2>&1 &&
	"$BIN/lockdep-report" --db db >out &&
	! raw_controls out && grep -qF "&ctx\\x1b]0;x" out
'

test_expect_success 'lockdep-symbolise: the bad line in the error message escaped' '
	rc=0 && "$BIN/lockdep-symbolise" -e /bin/true \
		"x${ESC}]0;pwned${BEL}${CSI_C1}31m${CSI_8BIT}" >out 2>err || rc=$? &&
	test "$rc" = 1 && ! raw_controls err &&
	grep -F "not a stack frame: '"'"'x\\x1b]0;pwned\\x07\\xc2\\x9b31m\\x9b'"'"'" err
'

test_expect_success 'every error line: a name from outside escaped (lockdep-collect)' '
	f="bin${ESC}[2J.log" &&
	{ echo "[ 1.0] hello"; printf "a\000b\n"; } >"$f" &&
	rc=0 && "$BIN/lockdep-collect" --db db --log "$f" 2>err || rc=$? &&
	test "$rc" = 2 && ! raw_controls err &&
	grep -qF "bin\x1b[2J.log:2: binary data" err
'

test_done
