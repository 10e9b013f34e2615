#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A guest or its tooling that ends badly, booted in QEMU with vm/boot.sh:
#
#  - an NMI panic during --follow (QEMU's inject-nmi, the guest booted
#    with unknown_nmi_panic=1): the boot is stored partial with the
#    panic's message as the reason, boot.sh and collect exit 1, and
#    run-qemu.sh says the guest panicked, not that it powered off;
#  - QEMU killed by someone else (SIGKILL, through QEMU's pidfile) during
#    --follow: partial, and run-qemu.sh names the signal, not a timeout;
#  - boot.sh killed (SIGTERM, SIGKILL): QEMU, timeout and collect end
#    with it;
#  - collect failing at once: boot.sh stops QEMU instead of waiting out
#    its -t timeout, and exits with collect's status.
#
# Boots land in build/vm/t0600-*/.

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"

VMDIR=$TOP/build/vm
T=300	# boot.sh's -t: no case here may come near it

# wait_for FILE PATTERN: until FILE has a line matching PATTERN (120 s);
# FILE is of a boot started after its directory was removed
wait_for() {
	local i
	for i in $(seq 1200); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "never saw '$2' in $1"
	return 1
}

# left NAME: the pids of processes still running for boot NAME (QEMU,
# timeout, run-qemu.sh, collect: each names the boot's directory)
left() {
	pgrep -f -- "$VMDIR/$1(/| |$)" || true
}

# none_left NAME: nothing of boot NAME is running within 10 s; what is,
# is shown and ended (by pid) so the next test starts clean
none_left() {
	local pids
	for _ in $(seq 100); do
		pids=$(left "$1")
		[ -z "$pids" ] && return 0
		sleep 0.1
	done
	ps -o pid,args -p "$(echo "$pids" | paste -sd ,)"
	# shellcheck disable=SC2086 # one pid a word
	kill -KILL $pids 2>/dev/null
	return 1
}

# qmp NAME COMMAND: one QMP command to boot NAME's QEMU
qmp() {
	python3 - "$VMDIR/$1/qmp.sock" "$2" <<-\EOF
	import json, socket, sys
	s = socket.socket(socket.AF_UNIX)
	s.connect(sys.argv[1])
	f = s.makefile("rw")
	f.readline()
	for cmd in ("qmp_capabilities", sys.argv[2]):
	    f.write(json.dumps({"execute": cmd}) + "\n"); f.flush()
	    while "return" not in json.loads(f.readline()):
	        pass
	EOF
}

test_expect_success 'NMI panic during --follow: partial, the panic is the reason, exit 1' '
	rm -rf "$VMDIR/t0600-panic" && mkdir -p "$VMDIR/t0600-panic" &&
	{ QEMU_ARGS="-qmp unix:$VMDIR/t0600-panic/qmp.sock,server=on,wait=off" \
		"$TOP/vm/boot.sh" -n t0600-panic -t $T -a unknown_nmi_panic=1 -- \
		--follow --db "$TRASH/panic.db" >out 2>&1 & } &&
	boot=$! &&
	wait_for "$VMDIR/t0600-panic/collect.log" "following the kernel log" &&
	qmp t0600-panic inject-nmi &&
	{ test_expect_code 1 wait $boot || { cat out; false; }; } &&
	cat out &&
	grep -q "Kernel panic - not syncing" "$VMDIR/t0600-panic/console.log" &&
	grep -q "^lockdep-collect: error: the guest panicked: Kernel panic - not syncing" out &&
	grep -q "^qemu: error: the guest panicked: Kernel panic - not syncing" out &&
	! grep -q "guest powered off" out &&
	test "$(sqlite3 panic.db "SELECT completeness FROM boots")" = partial &&
	sqlite3 panic.db "SELECT partial_reason FROM boots" |
		grep -q "^the guest panicked: Kernel panic - not syncing" &&
	grep -q "^kmsg incomplete .* EPIPE$" "$VMDIR/t0600-panic/raw/MANIFEST" &&
	none_left t0600-panic
'

test_expect_success 'QEMU killed from outside during --follow: partial, the signal named' '
	rm -rf "$VMDIR/t0600-killed" &&
	{ "$TOP/vm/boot.sh" -n t0600-killed -t $T -- --follow >out 2>&1 & } &&
	boot=$! &&
	wait_for "$VMDIR/t0600-killed/collect.log" "following the kernel log" &&
	kill -KILL "$(cat "$VMDIR/t0600-killed/qemu.pid")" &&
	{ test_expect_code 1 wait $boot || { cat out; false; }; } &&
	cat out &&
	grep -q "^qemu: error: QEMU was killed by SIGKILL after [0-9]*s, not by the ${T}s timeout" out &&
	! grep -q "still running after" out &&
	grep -q "collection is partial: the guest went away during the follow" out &&
	none_left t0600-killed
'

# boot.sh, killed by $1 once collect waits for the agent: nothing left
# of the boot 10 s later
killed_boot() {
	local name=t0600-sig$1 boot
	rm -rf "${VMDIR:?}/$name" || return 1
	# --follow: a guest left running would outlive the test's wait
	"$TOP/vm/boot.sh" -n "$name" -t "$T" -- --follow >out 2>&1 &
	boot=$!
	wait_for "$VMDIR/$name/collect.log" "waiting for the agent" &&
	test -n "$(left "$name")" &&
	kill "-$1" "$boot" &&
	{ wait $boot || :; } &&
	none_left "$name"
}

for sig in TERM KILL; do
	test_expect_success "boot.sh killed (SIG$sig): QEMU, timeout and collect end with it" "
		killed_boot $sig
	"
done

test_expect_success 'collect fails at once: boot.sh stops QEMU, does not wait out -t' '
	{ test_expect_code 64 timeout 120 "$TOP/vm/boot.sh" -n t0600-collect-fails -t $T -- \
		--no-such-option >out 2>&1 || { cat out; false; }; } &&
	cat out &&
	grep -q "lockdep-collect exited with status 64" out &&
	grep -q "QEMU stopped: lockdep-collect has ended" out &&
	none_left t0600-collect-fails
'

test_done
