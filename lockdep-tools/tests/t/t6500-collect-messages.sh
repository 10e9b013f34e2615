#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-collect says what is wrong, not what it upset

A MANIFEST that lists a file twice is named as such (it surfaced as the
store'\''s "UNIQUE constraint failed"); a log whose tail is binary is
stored up to there, partial, with "binary data" and the line (it was
reported as a malformed self-test table, and nothing was stored); a
socket that closes before the agent said a word is not "a frame cut in
the middle".'
. "$(dirname "$0")/lib.sh"

FIX=$TOP/lockdep-tools/tests/fixtures/6.1
collect() { "$BIN/lockdep-collect" "$@"; }

test_expect_success 'a file listed twice in MANIFEST: both lines named, nothing stored' '
	mkdir -p raw/files/proc &&
	cp "$FIX/lockdep" "$FIX/lockdep_stats" raw/files/proc/ && : >raw/kmsg &&
	raw_manifest raw "kmsg complete 0 - - -" &&
	sed -i "/ \/proc\/lockdep_stats /p" raw/MANIFEST &&
	test_expect_code 2 collect --db d.db --raw-dir raw 2>err &&
	grep -q "raw/MANIFEST:5: ./proc/lockdep_stats. is listed twice (first on line 4)" err &&
	! grep -q UNIQUE err &&
	test "$(sqlite3 d.db "SELECT count(*) FROM boots")" = 0
'

test_expect_success 'a binary tail: stored up to there, partial, the line named' '
	{ head -n 123 "$FIX/console.log"; printf "[    0.0] ok  |  o"; head -c 3000 "$BIN/lockdep-report"; } >tail.log &&
	test_expect_code 1 collect --db t.db --log tail.log 2>err &&
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

# close_after_hello SOCKET: a QEMU whose guest never answers: accept,
# leave the HELLO unread, close (the reader then gets ECONNRESET)
close_after_hello() {
	python3 - "$1" <<-\EOF &
	import socket, sys, time
	s = socket.socket(socket.AF_UNIX)
	s.bind(sys.argv[1]); s.listen(1)
	c, _ = s.accept()
	time.sleep(0.5)
	c.close()
	EOF
	for _ in $(seq 50); do [ -S "$1" ] && break; sleep 0.1; done
}

test_expect_success 'the socket closes before HELLO: said so, not "in the middle of a frame"' '
	close_after_hello q.sock &&
	test_expect_code 2 collect --socket q.sock --raw-dir r1 --timeout 10 2>err &&
	grep -q "the connection closed before the agent answered HELLO (no byte came): QEMU exited, was killed or timed out" err &&
	! grep -q "middle of a frame" err &&
	printf "[   1.000000] Kernel panic - not syncing: VFS: Unable to mount root fs\r\n" >console.log &&
	close_after_hello q2.sock &&
	test_expect_code 2 collect --socket q2.sock --raw-dir r2 --timeout 10 --console console.log 2>err &&
	grep -q "the guest panicked: Kernel panic - not syncing: VFS: Unable to mount root fs$" err
'

test_done
