#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-collect --console: how the guest ended

When the agent'\''s connection closes during --follow or --duration, only
the console log (ttyS0) tells a power-off from a panic or a killed
QEMU. A real agent serves this machine; the console logs are made here
in the console'\''s own shape: a real corpus report (at timestamps after
every kmsg record, so the agent never sent it) and a real panic line.'
. "$(dirname "$0")/lib.sh"

collect() { "$BIN/lockdep-collect" "$@"; }
q() { sqlite3 "$1" "$2"; }

# console_log FILE LAST_LINE: a corpus report, then LAST_LINE, as a
# console would show them, after anything this machine logged (its
# timestamps moved past 115 days of uptime)
console_log() {
	sed "s/^\[ *\([0-9]*\)\./[99999\1./" "$CORPUS/016-recursive.txt" >"$1" &&
	printf "[99999999.000001] %s\r\n" "$2" >>"$1"
}

# follow_until_agent_ends WANT SOCKET ARGS...: collect --follow exits
# WANT (test_expect_code), the agent ended 2 s in (a guest that went away)
follow_until_agent_ends() {
	local want=$1 sock=$2 pid rc
	shift 2
	"$BIN/lockdep-agent" --listen "$sock" 2>agent.err &
	pid=$!
	for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
	{ sleep 2; kill "$pid"; } &
	test_expect_code "$want" collect --socket "$sock" --timeout 10 --follow "$@" >id 2>err
	rc=$?	# the agent reaped whatever collect said
	wait "$pid" || :	# ended by our SIGTERM
	return $rc
}

test_expect_success 'a panic on the console: partial, the reason, the console report stored' '
	console_log panic.log "Kernel panic - not syncing: NMI: Not continuing" &&
	follow_until_agent_ends 1 a1.sock --db p.db --console panic.log &&
	grep -q "the guest panicked: Kernel panic - not syncing: NMI: Not continuing" err &&
	grep -q "collection is partial: the guest panicked" err &&
	test "$(q p.db "SELECT completeness FROM boots")" = partial &&
	q p.db "SELECT partial_reason FROM boots" | grep -q "^the guest panicked: Kernel panic - not syncing: NMI: Not continuing$" &&
	test "$(q p.db "SELECT count(*) FROM reports WHERE type = '"'"'recursive-locking'"'"'
		AND title LIKE '"'"'%__wake_up_common_lock%'"'"'")" = 1
'

test_expect_success 'no power-off and no panic on the console: partial (QEMU went away)' '
	console_log killed.log "random: crng init done" &&
	follow_until_agent_ends 1 a2.sock --db k.db --raw-dir raw --console killed.log &&
	grep -q "collection is partial: .*neither powered off nor panicked" err &&
	test "$(q k.db "SELECT completeness FROM boots")" = partial &&
	grep -q "^kmsg incomplete .* EPIPE$" raw/MANIFEST
'

# (this machine may have no /proc/lockdep: then the boot is partial for
# that, exit 1, but the kernel log is complete)
test_expect_success 'a power-off on the console: the kernel log is whole' '
	console_log off.log "reboot: Power down" &&
	# a host without lockdep: complete as far as it goes (3)
	if [ -e /proc/lockdep ]; then want=0; else want=0,3; fi &&
	follow_until_agent_ends $want a3.sock --db o.db --raw-dir raw3 --console off.log &&
	grep -q "^kmsg complete " raw3/MANIFEST &&
	test "$(q o.db "SELECT completeness FROM boots")" = complete &&
	test -z "$(q o.db "SELECT partial_reason FROM boots")" &&
	test "$(q o.db "SELECT count(*) FROM reports WHERE type = '"'"'recursive-locking'"'"'")" = 1
'

test_expect_success 'no --console: the connection closing is partial, and says why' '
	follow_until_agent_ends 1 a4.sock --db n.db &&
	grep -q "collection is partial: .*--console" err &&
	test "$(q n.db "SELECT completeness FROM boots")" = partial
'

test_expect_success '--console needs --socket; lockdep-collect(1) and lockdep-db(5) say it' '
	test_expect_code 64 collect --db x.db --log panic.log --console panic.log 2>err && grep -q "need --socket" err &&
	grep -q "^\\.BI \\\\-\\\\-console" "$TOP/lockdep-tools/man/lockdep-collect.1" &&
	grep -q "partial_reason" "$TOP/lockdep-tools/man/lockdep-db.5"
'

test_done
