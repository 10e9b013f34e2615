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
# example --trigger NAME). Exits non-zero if QEMU or the collection failed.
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

dir=$BUILD/vm/$name
rm -rf "$dir"
mkdir -p "$dir"
"$TOP/vm/run-qemu.sh" -d "$dir" -t "$timeout" -a "$append" &
qemu=$!

# QEMU creates the socket at once; if it dies first, say so now instead
# of letting lockdep-collect wait for a socket that will never come.
while [ ! -S "$dir/agent.sock" ] && kill -0 $qemu 2>/dev/null; do
	sleep 0.1
done
collect_rc=0
if [ -S "$dir/agent.sock" ]; then
	"$BUILD/bin/lockdep-collect" --socket "$dir/agent.sock" --raw-dir "$dir/raw" \
		--timeout "$timeout" --poweroff "$@" 2> >(tee "$dir/collect.log" >&2) ||
		collect_rc=$?
else
	wait $qemu || true
	echo "boot: error: QEMU exited before it opened the agent socket (see $dir/qemu.log)" >&2
	exit 1
fi
qemu_rc=0
wait $qemu || qemu_rc=$?
progress "guest exited (qemu $qemu_rc, collect $collect_rc)"
# collect's messages were shown as they came (and kept in collect.log).
[ $collect_rc = 0 ] ||
	echo "boot: error: lockdep-collect exited with status $collect_rc (log: $dir/collect.log)" >&2
[ $qemu_rc = 0 ] && [ $collect_rc = 0 ]
