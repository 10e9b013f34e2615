#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the lockdep guest in QEMU and wait for it to power off.
#
#   vm/run-qemu.sh [-d DIR] [-t SECONDS] [-a "KERNEL ARGS"] [-D DISK]... [-R DISK]...
#
# DIR (default build/vm/run) receives console.log (ttyS0, the kernel
# console), qemu.log (QEMU's own messages), qemu.pid (QEMU's pidfile) and
# agent.sock, the UNIX socket behind the virtio-serial port
# "org.lockdep.agent" (QEMU listens; the host side connects with
# lockdep-collect --socket DIR/agent.sock).
#
# The guest is killed after SECONDS (default 300) so a hung guest never
# hangs the caller: exit status 124 then. QEMU killed by a signal from
# elsewhere: 128 + the signal, and the message names it. A guest that
# panicked (QEMU exits 0: -no-reboot): 1. QEMU and its timeout end when
# this script ends, however it ends (SIGKILL included): each is started
# with a parent-death signal. ACCEL=tcg|kvm|auto picks the
# accelerator; auto (default) uses KVM only if vm/kvm-probe.sh says a KVM
# guest boots on this machine, and TCG otherwise. KERNEL_VARIANT=plain
# (or kasan) boots that kernel and its initramfs, VM_INITRD another initramfs
# (see lib.sh). -D DISK
# attaches a raw image as a virtio-blk disk that the guest writes into,
# -R DISK one whose writes QEMU discards (snapshot=on: the file is left
# as it was); the guest sees them as /dev/vda, /dev/vdb... in the order
# given, the -D disks first. GUEST_MEM=MiB: its memory (default 512). SMP=N
# gives the guest N CPUs (default 2). QEMU_ARGS: more QEMU options, split
# on spaces (for example "-icount shift=0").
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=qemu

dir=$BUILD/vm/run
timeout=300
append=""
disk=() rdisk=()
while getopts d:t:a:D:R: opt; do
	case $opt in
	d) dir=$OPTARG ;;
	t) timeout=$OPTARG ;;
	a) append=$OPTARG ;;
	D|R) [ -f "$OPTARG" ] && [ -r "$OPTARG" ] || die "no disk image '$OPTARG'"
	   # a comma in a -drive value must be doubled
	   f=${OPTARG//,/,,}
	   if [ "$opt" = D ]; then
		disk+=(-drive "file=$f,if=virtio,format=raw,cache=unsafe")
	   else
		rdisk+=(-drive "file=$f,if=virtio,format=raw,snapshot=on")
	   fi ;;
	*) echo "usage: $0 [-d DIR] [-t SECONDS] [-a \"KERNEL ARGS\"] [-D DISK]... [-R DISK]..." >&2
	   exit 64 ;;
	esac
done
smp=${SMP:-2}
case $smp in
''|0|*[!0-9]*) die "SMP must be a number of CPUs, not '$smp'" ;;
esac

kernel=$KIMAGE
initrd=$INITRD
[ -f "$kernel" ] || die "$kernel missing: run 'make kernel'"
[ -f "$initrd" ] || die "$initrd missing: run 'make initramfs'"

case ${ACCEL:-auto} in
tcg) accel=tcg ;;
kvm) accel=kvm ;;
auto) if "$TOP/vm/kvm-probe.sh"; then accel=kvm; else accel=tcg; fi ;;
*) die "ACCEL must be tcg, kvm or auto" ;;
esac

mkdir -p "$dir"
rm -f "$dir/agent.sock" "$dir/console.log" "$dir/qemu.log" "$dir/qemu.pid"
cpu=qemu64
[ "$accel" = kvm ] && cpu=host
progress "booting ($accel, $smp CPUs, timeout ${timeout}s), console: ${dir#"$TOP"/}/console.log"
start=$SECONDS
set +e
# setpriv --pdeathsig: killed with this script (or with timeout), even by
# SIGKILL, so no QEMU outlives its caller. no_timer_check: under TCG on a
# loaded host the guest's IO-APIC timer check can miss its ticks and panic
# the boot ("IO-APIC + timer doesn't work!").
# shellcheck disable=SC2086 # QEMU_ARGS: extra options, split into words
setpriv --pdeathsig TERM timeout --kill-after=5 "$timeout" \
	setpriv --pdeathsig TERM qemu-system-x86_64 \
	-accel "$accel" -cpu "$cpu" -m "$GUEST_MEM" -smp "$smp" \
	-display none -monitor none -no-reboot \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 no_timer_check $append" \
	-serial "file:$dir/console.log" \
	-device virtio-serial-pci,id=vser0 \
	-chardev "socket,id=agent,path=$dir/agent.sock,server=on,wait=off" \
	-device virtserialport,bus=vser0.0,chardev=agent,name=org.lockdep.agent \
	-pidfile "$dir/qemu.pid" "${disk[@]}" "${rdisk[@]}" \
	${QEMU_ARGS:-} >"$dir/qemu.log" 2>&1
rc=$?
elapsed=$((SECONDS - start))
set -e
# timeout: 124 when it stopped QEMU, 137 when it had to SIGKILL it
# (--kill-after); 128 + N when QEMU died of signal N from elsewhere
case $rc in
0)	panic=$(tr -d '\r' <"$dir/console.log" 2>/dev/null |
		grep -m 1 -o 'Kernel panic - not syncing.*' || true)
	if [ -n "$panic" ]; then
		printf 'qemu: error: the guest panicked: %s; console: %s\n' \
			"$panic" "$dir/console.log" | cat -v >&2
		rc=1
	else
		progress "guest powered off"
	fi ;;
124|137) if [ $rc = 124 ] || [ $elapsed -ge "$timeout" ]; then
		echo "qemu: error: guest still running after ${timeout}s, killed; console: $dir/console.log" >&2
		tail -n 15 "$dir/console.log" | cat -v >&2
	else
		echo "qemu: error: QEMU was killed by SIGKILL after ${elapsed}s, not by the ${timeout}s timeout; console: $dir/console.log" >&2
	fi ;;
*)	if [ $rc -gt 128 ]; then
		echo "qemu: error: QEMU was killed by SIG$(kill -l $((rc - 128))) after ${elapsed}s; see $dir/qemu.log" >&2
	else
		echo "qemu: error: qemu exited with status $rc; see $dir/qemu.log:" >&2
	fi
	tail -n 15 "$dir/qemu.log" | cat -v >&2 ;;
esac
exit $rc
