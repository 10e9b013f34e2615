#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# One guest boot, collected: start the guest (run-qemu.sh) and pull its
# lockdep state through the agent (lockdep-collect), then power it off.
#
#   vm/boot.sh [-n NAME] [-t SECONDS] [-a "KERNEL ARGS"] [-- COLLECT ARGS...]
#
# Everything lands in build/vm/NAME (default "boot"): console.log,
# qemu.log, collect.log and raw/ (the files as the agent sent them, with
# raw/MANIFEST). Extra arguments after -- go to lockdep-collect (for
# example --trigger NAME); collect also reads console.log (--console) to
# tell a guest that panicked or vanished from one that powered off.
# Exits non-zero if QEMU or the collection failed, or the guest panicked.
#
# Nothing outlives this script: QEMU, its timeout and lockdep-collect are
# started with a parent-death signal (setpriv --pdeathsig), so killing
# boot.sh, by SIGKILL too, ends them all; and once collect has ended,
# QEMU gets GRACE seconds to power off and is then stopped.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=boot

name=boot
timeout=300
append=""
while getopts n:t:a: opt; do
	case $opt in
	n) name=$OPTARG ;;
	t) timeout=$OPTARG ;;
	a) append=$OPTARG ;;
	*) echo "usage: $0 [-n NAME] [-t SECONDS] [-a \"KERNEL ARGS\"] [-- COLLECT ARGS...]" >&2
	   exit 64 ;;
	esac
done
shift $((OPTIND - 1))
check_name NAME "$name"

# how long QEMU may take to power off after collect ended (TCG, loaded)
GRACE=30

dir=$BUILD/vm/$name
rm -rf "$dir"
mkdir -p "$dir"
setpriv --pdeathsig KILL "$TOP/vm/run-qemu.sh" -d "$dir" -t "$timeout" -a "$append" &
qemu=$!

# QEMU creates the socket at once; if it dies first, say so now instead
# of letting lockdep-collect wait for a socket that will never come.
while [ ! -S "$dir/agent.sock" ] && kill -0 $qemu 2>/dev/null; do
	sleep 0.1
done
collect_rc=0
if [ -S "$dir/agent.sock" ]; then
	setpriv --pdeathsig TERM "$BUILD/bin/lockdep-collect" \
		--socket "$dir/agent.sock" --raw-dir "$dir/raw" \
		--console "$dir/console.log" --timeout "$timeout" --poweroff "$@" \
		2> >(tee "$dir/collect.log" >&2) || collect_rc=$?
else
	wait $qemu || true
	echo "boot: error: QEMU exited before it opened the agent socket (see $dir/qemu.log)" >&2
	exit 1
fi
# A guest that collect powered off, or that went away, is gone or going;
# one that collect failed to reach is not waited for.
grace=$GRACE
[ $collect_rc -le 1 ] || grace=0
for _ in $(seq $((grace * 10))); do
	kill -0 $qemu 2>/dev/null || break
	sleep 0.1
done
if kill -0 $qemu 2>/dev/null; then
	# run-qemu.sh dies; QEMU and timeout follow it (parent-death signal)
	kill $qemu 2>/dev/null || true
	if [ $grace = 0 ]; then
		echo "boot: error: QEMU stopped: lockdep-collect has ended (status $collect_rc)" >&2
	else
		echo "boot: error: QEMU stopped: lockdep-collect has ended and the guest was still up ${grace}s later" >&2
	fi
fi
qemu_rc=0
wait $qemu || qemu_rc=$?
progress "guest exited (qemu $qemu_rc, collect $collect_rc)"
# collect's messages were shown as they came (and kept in collect.log).
[ $collect_rc = 0 ] ||
	echo "boot: error: lockdep-collect exited with status $collect_rc (log: $dir/collect.log)" >&2
[ $qemu_rc = 0 ] && [ $collect_rc = 0 ]
