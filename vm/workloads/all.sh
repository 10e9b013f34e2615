#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# all: fs-smoke, net-smoke, ipc-smoke and sys-smoke at the same time.
# They are its files: boot it with them (vm/boot.sh -r
# vm/workloads/all.sh -f vm/workloads, or make vm-boot
# RUN=vm/workloads/all.sh RUN_FILES=vm/workloads). Fails if any of them
# failed, naming it.
set -u
for w in fs-smoke net-smoke ipc-smoke sys-smoke; do
	[ -x "./$w.sh" ] || {
		echo "all: no ./$w.sh here: boot with -f vm/workloads (RUN_FILES=vm/workloads)" >&2
		exit 2
	}
done
./fs-smoke.sh & fs=$!
./net-smoke.sh & net=$!
./ipc-smoke.sh & ipc=$!
./sys-smoke.sh & sys=$!
rc=0
for w in fs:$fs net:$net ipc:$ipc sys:$sys; do
	wait "${w#*:}" || { s=$?; echo "all: ${w%%:*}-smoke failed, status $s" >&2; rc=1; }
done
exit $rc
