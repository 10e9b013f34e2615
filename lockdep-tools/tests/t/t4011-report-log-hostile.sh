#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-report and lockdep-collect on hostile kernel logs

A stray NUL byte (a serial console'\''s noise) in a report'\''s header
line must not make the report vanish.'
. "$(dirname "$0")/lib.sh"

# nul_in FILE WORD: FILE with a NUL byte inserted before the first WORD
nul_in() {
	python3 -c "import sys
s = open(sys.argv[1], 'rb').read()
sys.stdout.buffer.write(s.replace(sys.argv[2].encode(), b'\\0' + sys.argv[2].encode(), 1))" "$1" "$2"
}

test_expect_success 'a NUL in a report header line: the report is still found' '
	"$BIN/lockdep-report" "$CORPUS/034-circular.txt" >want &&
	nul_in "$CORPUS/034-circular.txt" "circular locking" >nul.log &&
	test "$(tr -cd "\\000" <nul.log | wc -c)" = 1 &&
	"$BIN/lockdep-report" nul.log >got &&
	grep -q "^report 1: circular-dependency" got &&
	sed -n "/^report 1/,/input:/p" want | grep -v "header:\|input:" >want.head &&
	sed -n "/^report 1/,/input:/p" got | grep -v "header:\|input:" >got.head &&
	test_cmp want.head got.head
'

test_expect_success 'the same past the first 8000 bytes of a log given to collect' '
	{ yes "[    0.000000] boot noise line" | head -n 400 &&
	  cat "$CORPUS/034-circular.txt"; } >long.log &&
	nul_in long.log "circular locking" >nul-long.log &&
	"$BIN/lockdep-collect" --db n.db --log nul-long.log >id 2>err &&
	test "$(sqlite3 n.db "SELECT type FROM reports")" = circular-dependency
'

test_done
