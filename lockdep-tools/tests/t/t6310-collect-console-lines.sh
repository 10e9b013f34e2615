#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-collect --console: a console line over 1 MiB

The console log is guest output like any other input: its lines are
held to the 1 MiB rule (an error naming the log and the line, nothing
stored), not read in pieces. A real agent serves this machine.'
. "$(dirname "$0")/lib.sh"

# with_agent CMD...: CMD while a real agent serves ./a.sock; CMD's status
with_agent() {
	local pid ret
	"$BIN/lockdep-agent" --listen a.sock 2>agent.err &
	pid=$!
	for _ in $(seq 50); do [ -S a.sock ] && break; sleep 0.1; done
	"$@"
	ret=$?
	kill "$pid" 2>/dev/null
	wait "$pid"
	return "$ret"
}

test_expect_success 'a console line over 1 MiB: refused, naming the line, nothing stored' '
	{ printf "[    1.000000] a line\n" &&
	  head -c 1048577 /dev/zero | tr "\\000" x && printf "\n" &&
	  printf "[    2.000000] reboot: Power down\n"; } >long.log &&
	with_agent test_expect_code 2 "$BIN/lockdep-collect" --socket a.sock \
		--timeout 10 --poweroff --db c.db --console long.log >id 2>err &&
	grep -q "long.log:2: a line longer than" err &&
	test "$(sqlite3 c.db "SELECT count(*) FROM boots")" = 0
'

test_done
