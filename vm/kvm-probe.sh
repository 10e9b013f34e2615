#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Exit 0 if a KVM guest boots on this machine, 1 if not. KVM is present
# but hangs or aborts on some hosts (e.g. "-cpu host" dies on MSR 0x10a),
# so we boot our own kernel with no root under KVM, exactly as
# run-qemu.sh would start it, and expect it to panic and reboot (QEMU
# exits: -no-reboot) within 20 seconds. The answer is cached in
# build/vm/kvm-probe; delete it to probe again.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
STEP=kvm-probe

cache=$BUILD/vm/kvm-probe
if [ -f "$cache" ]; then
	[ "$(cat "$cache")" = yes ]
	exit
fi
mkdir -p "$BUILD/vm"
answer=no
if [ -w /dev/kvm ] && [ -f "$KIMAGE" ]; then
	log=$LOGS/kvm-probe.log
	# In a child shell, so that a QEMU killed by SIGABRT does not make
	# this shell print "Aborted".
	if bash -c 'timeout --kill-after=2 20 qemu-system-x86_64 \
		-accel kvm -cpu host -m 256 -display none -monitor none \
		-no-reboot -kernel "$1" -append "console=ttyS0 panic=-1" \
		-serial "file:$2"; exit $?' probe "$KIMAGE" "$log" \
		>/dev/null 2>&1 &&
	   grep -q 'Kernel panic' "$log"; then
		answer=yes
	fi
fi
echo $answer >"$cache"
progress "KVM usable: $answer"
[ $answer = yes ]
