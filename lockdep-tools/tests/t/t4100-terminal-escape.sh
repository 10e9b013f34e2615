#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='untrusted text never reaches a terminal raw

Lock names, frames and whole lines come from the guest. Wherever they
are printed (report text, error messages) the bytes a terminal acts on
are written as \xNN: C0 controls but tab, DEL, the C1 controls as UTF-8
(U+0080..U+009F: c2 80..c2 9f, a CSI at c2 9b) and bytes that are not
UTF-8 (a lone 9b is a CSI to an 8-bit terminal), and the bidirectional
controls (U+202E reorders what the reader sees). Other UTF-8 passes.
lockdep-merge'\''s line per source (a file name) and lockdep-graph
--list'\''s boot labels go through the same escaper.'
. "$(dirname "$0")/lib.sh"

ESC=$(printf '\033')
CSI_C1=$(printf '\302\233')	# U+009B as UTF-8
CSI_8BIT=$(printf '\233')	# a lone byte 0x9b
BEL=$(printf '\a')
E_ACUTE=$(printf '\303\251')	# U+00E9, printable: kept
RLO=$(printf '\342\200\256')	# U+202E right-to-left override
LRI=$(printf '\342\201\246')	# U+2066 left-to-right isolate

# raw_controls FILE: true if FILE holds a byte a terminal acts on
raw_controls() {
	LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$1" ||
	LC_ALL=C grep -q "$CSI_C1" "$1" || LC_ALL=C grep -q "$CSI_8BIT" "$1" ||
	LC_ALL=C grep -q "$RLO" "$1" || LC_ALL=C grep -q "$LRI" "$1"
}

test_expect_success 'the check itself sees raw controls' '
	printf "a${ESC}[31m\n" >esc && raw_controls esc &&
	printf "a${CSI_C1}31m\n" >c1 && raw_controls c1 &&
	printf "plain caf\303\251 \342\206\222 text\n" >ok && ! raw_controls ok &&
	printf "a${RLO}b\n" >rlo && raw_controls rlo
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
	test_expect_code 1 "$BIN/lockdep-symbolise" -e /bin/true \
		"x${ESC}]0;pwned${BEL}${CSI_C1}31m${CSI_8BIT}" >out 2>err && ! raw_controls err &&
	grep -F "not a stack frame: '"'"'x\\x1b]0;pwned\\x07\\xc2\\x9b31m\\x9b'"'"'" err
'

test_expect_success 'every error line: a name from outside escaped (lockdep-collect)' '
	f="bin${ESC}[2J.log" &&
	{ echo "[ 1.0] hello"; printf "a\000b\n"; } >"$f" &&
	test_expect_code 2 "$BIN/lockdep-collect" --db db --log "$f" 2>err && ! raw_controls err &&
	grep -qF "bin\x1b[2J.log:2: binary data" err
'

test_expect_success 'lockdep-report: bidi controls in a lock name escaped' '
	sed "s/&ctx->cq_wait/\&ctx${RLO}tiaw${LRI}x/g" "$CORPUS/016-recursive.txt" >bidi.log &&
	"$BIN/lockdep-report" bidi.log >out &&
	! raw_controls out &&
	grep -qF "&ctx\\xe2\\x80\\xaetiaw\\xe2\\x81\\xa6x" out
'

# a /proc/lockdep of two classes in a cycle, for a boot with LABEL
cycle_db() {
	mkdir -p cyc &&
	printf "%s\n" "all lock classes:" \
		"(____ptrval____) FD:    2 BD:    2 +.+.: lock_a" \
		" -> [(____ptrval____)] lock_b" "" \
		"(____ptrval____) FD:    2 BD:    2 +.+.: lock_b" \
		" -> [(____ptrval____)] lock_a" "" >cyc/lockdep &&
	{ "$BIN/lockdep-collect" --db "$1" --proc-dir cyc --label "$2" >/dev/null 2>&1
	  test $? -le 1; }
}

test_expect_success 'lockdep-graph --list: a boot label escaped in "seen in"' '
	cycle_db c.db "x${ESC}[2J${RLO}y" &&
	"$BIN/lockdep-graph" --db c.db --cycles --list >out &&
	grep -q "seen in" out && ! raw_controls out &&
	grep -qF "seen in boot 1 (x\\x1b[2J\\xe2\\x80\\xaey)" out
'

test_expect_success 'lockdep-merge: a source file name escaped in its line' '
	cycle_db "s${ESC}]0;x${BEL}${RLO}.db" "s" &&
	"$BIN/lockdep-merge" --db m.db "s${ESC}]0;x${BEL}${RLO}.db" >out &&
	! raw_controls out &&
	grep -qxF "s\\x1b]0;x\\x07\\xe2\\x80\\xae.db: 1 boot, 1 added" out
'

test_done
