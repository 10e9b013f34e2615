#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-collect says what is wrong, not what it upset

A MANIFEST that lists a file twice is named as such (it surfaced as the
store'\''s "UNIQUE constraint failed"); a log whose tail is binary is
stored up to there, partial, with "binary data" and the line (it was
reported as a malformed self-test table, and nothing was stored).'
. "$(dirname "$0")/lib.sh"

FIX=$TOP/lockdep-tools/tests/fixtures/6.1
collect() { "$BIN/lockdep-collect" "$@"; }

test_expect_success 'a file listed twice in MANIFEST: both lines named, nothing stored' '
	mkdir -p raw/files/proc &&
	cp "$FIX/lockdep" "$FIX/lockdep_stats" raw/files/proc/ && : >raw/kmsg &&
	raw_manifest raw "kmsg complete 0 - - -" &&
	sed -i "/ \/proc\/lockdep_stats /p" raw/MANIFEST &&
	rc=0 && collect --db d.db --raw-dir raw 2>err || rc=$? &&
	test "$rc" = 2 &&
	grep -q "raw/MANIFEST:5: ./proc/lockdep_stats. is listed twice (first on line 4)" err &&
	! grep -q UNIQUE err &&
	test "$(sqlite3 d.db "SELECT count(*) FROM boots")" = 0
'

test_expect_success 'a binary tail: stored up to there, partial, the line named' '
	{ head -n 123 "$FIX/console.log"; printf "[    0.0] ok  |  o"; head -c 3000 "$BIN/lockdep-report"; } >tail.log &&
	rc=0 && collect --db t.db --log tail.log 2>err || rc=$? &&
	test "$rc" = 1 &&
	grep -q "tail.log:124: binary data from here on" err &&
	! grep -q "self-test" err &&
	test "$(sqlite3 t.db "SELECT completeness FROM boots")" = partial &&
	sqlite3 t.db "SELECT partial_reason FROM boots" | grep -q "tail.log:124: binary data"
'

test_expect_success 'a stray NUL on a console line is still kept' '
	{ cat "$FIX/console.log"; printf "\000[   99.0] hello\n"; } >nul.log &&
	collect --db n.db --log nul.log >/dev/null 2>err &&
	test "$(sqlite3 n.db "SELECT completeness FROM boots")" = complete
'

test_done
