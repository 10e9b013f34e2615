#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# net-smoke: loopback up, then at once, one stress-ng worker per CPU of
# each: TCP over 127.0.0.1 and over ::1, UDP over 127.0.0.1, AF_UNIX
# socket pairs and file descriptors passed over AF_UNIX, for 20 seconds.
# Each kind has ports of its own.
set -eu
secs=20
cpus=$(nproc)

ip link set lo up
pids=""
run() {
	stress-ng --timeout "${secs}s" "$@" &
	pids="$pids $!"
}
run --sock "$cpus" --sock-domain ipv4 --sock-port 20000
run --sock "$cpus" --sock-domain ipv6 --sock-port 21000
run --udp "$cpus" --udp-domain ipv4 --udp-port 22000
# AF_UNIX: socket pairs, and file descriptors passed over them; (stress-ng
# 0.15's --sock-domain unix asks for IPPROTO_TCP and fails)
run --sockpair "$cpus" --sockfd "$cpus" --sockfd-port 23000
# stress-ng's 3: a stressor lacked resources (ports, memory) for its
# whole run in this small guest; its 7: one was cut short (OOM-killed)
# while counting its bogo ops: neither says anything of the kernel
rc=0
for p in $pids; do
	wait "$p" || { s=$?; case $s in
		3) echo "net-smoke: a stressor ran short of resources" ;;
		7) echo "net-smoke: a stressor was cut short (bogo-op counts untrustworthy)" ;;
		*) rc=$s ;;
		esac; }
done
echo "net-smoke: done, status $rc"
exit $rc
