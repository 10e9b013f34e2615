#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# One guest boot, collected: start the guest (run-qemu.sh) and pull its
# lockdep state through the agent (lockdep-collect), then power it off.
#
#   vm/boot.sh [-n NAME] [-t SECONDS] [-a "KERNEL ARGS"] [-D IMAGE]...
#              [-r SCRIPT [-f DIR] [-w SECONDS]] [-- COLLECT ARGS...]
#
# Everything lands in build/vm/NAME (default "boot"): console.log,
# qemu.log, collect.log and raw/ (the files as the agent sent them, with
# raw/MANIFEST). Extra arguments after -- go to lockdep-collect (for
# example --trigger NAME, --db FILE); collect also reads console.log
# (--console) to tell a guest that panicked or vanished from one that
# powered off. -t bounds the boot and the collection (default 300 s).
#
# -r SCRIPT runs a workload: SCRIPT becomes the guest's /workload/run
# and DIR's contents /workload/files (its working directory), appended to
# the initramfs with stress-ng (initramfs.sh); a fresh scratch ext4 disk
# (disk.sh) is the guest's /dev/vda. The agent runs it as root with a
# clean environment while collect follows the kernel log (--run, named
# after SCRIPT's file name); -w bounds it (default 600 s), and the guest
# gets -t plus -w in all.
#
# -r REPRO.c, a C source (no #! line), is vm/repro.sh's: compiled on the host,
# run until lockdep reports or -w, stored with its verdict (there, the
# defaults: -w 300, the database build/vm/NAME/repro.db); -f is refused.
#
# -D IMAGE (one or more) gives the guest a disk image of yours as a
# virtio disk, after the scratch disk of a workload boot (/dev/vdb, vdc...;
# /dev/vda... without -r); the guest's writes to it are discarded, the
# file is never written (run-qemu.sh -R).
#
# The kernel's lockdep dependency events (kernel-patches/, the
# tracepoints patch) are on
# from early boot (trace_event= on the command line, with a trace buffer
# of 4 MiB a CPU so that a boot's and a workload's fit until the agent
# streams them, and the global trace clock: with the default one, the
# kernel resets the buffer when it finds the TSC unstable, as under
# TCG, losing the boot's events); EVENTS=0 boots with them compiled in and off
# (bench/lock-hotpath.sh). SAMPLE_MS=N sets the agent's lockdep_stats
# interval (lockdep-agent(8) SAMPLES; 0 turns its sampler off). A kernel without them logs "Failed to enable
# trace event" and boots on (one of the v2 series: for lock:lockdep_class,
# its class events, alone).
#
# Exit status: 0 when the boot was collected complete, also from a
# kernel that does not offer everything (collect's 3: it names what);
# else collect's own status (1 partial, 2 error, 4 the workload failed,
# see lockdep-collect(1)), or 1 if QEMU failed or the guest panicked.
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
script="" files="" wtime=600 run="" wset=""
disks=() disk_args=()
usage() {
	echo "usage: $0 [-n NAME] [-t SECONDS] [-a \"KERNEL ARGS\"] [-D IMAGE]... [-r SCRIPT [-f DIR] [-w SECONDS]] [-- COLLECT ARGS...]" >&2
	exit 64
}
while getopts n:t:a:r:f:w:D: opt; do
	case $opt in
	n) name=$OPTARG ;;
	t) timeout=$OPTARG ;;
	a) append=$OPTARG ;;
	r) script=$OPTARG ;;
	f) files=$OPTARG ;;
	w) wtime=$OPTARG wset=1 ;;
	D) [ -f "$OPTARG" ] && [ -r "$OPTARG" ] || die "no disk image '$OPTARG' (-D)"
	   disks+=(-R "$(realpath "$OPTARG")") disk_args+=(-D "$OPTARG") ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
check_name NAME "$name"
for v in timeout wtime; do
	case ${!v} in
	''|0|*[!0-9]*) echo "boot: error: -${v:0:1} wants a number of seconds, not '${!v}'" >&2
		exit 64 ;;
	esac
done
# a .c source, not a script (vm/repro.sh's own workload is named after
# the source, and starts with #!)
if [ "${script%.c}" != "$script" ] && [ "$(head -c 2 "$script" 2>/dev/null)" != '#!' ]; then
	[ -z "$files" ] || die "a C reproducer ('$script') is the whole workload: no -f"
	exec "$TOP/vm/repro.sh" -n "$name" -t "$timeout" -a "$append" "${disk_args[@]}" \
		${wset:+-w "$wtime"} "$script" -- "$@"
fi
if [ -n "$script" ]; then
	[ -f "$script" ] && [ -r "$script" ] || die "no workload script '$script'"
	# collect's --run NAME alphabet, checked here to say which file it is
	run=${script##*/}
	case $run in
	*[!A-Za-z0-9._+-]*) die "the workload '$script': its file name may hold only [A-Za-z0-9._+-]" ;;
	esac
	[ ${#run} -le 64 ] || die "the workload '$script': its file name is over 64 characters"
	[ -z "$files" ] || [ -d "$files" ] || die "no directory '$files' (-f)"
elif [ -n "$files" ]; then
	usage
fi

# how long QEMU may take to power off after collect ended (TCG, loaded)
GRACE=30

if [ "${EVENTS:-1}" != 0 ]; then
	append="trace_event=lock:lockdep_dependency,lock:lockdep_usage,lock:lockdep_class_zapped,lock:lockdep_class trace_buf_size=4M trace_clock=global${append:+ $append}"
fi

if [ -n "${SAMPLE_MS:-}" ]; then
	case $SAMPLE_MS in
	*[!0-9]*) die "SAMPLE_MS must be a number of milliseconds, not '$SAMPLE_MS'" ;;
	esac
	append="$append lockdep_sample_ms=$SAMPLE_MS"
fi

dir=$BUILD/vm/$name
rm -rf "$dir"
mkdir -p "$dir"
qemu_args=(-d "$dir" -t "$timeout" -a "$append" "${disks[@]}")
collect_args=()
if [ -n "$script" ]; then
	[ -f "$WORKLOAD_INITRD" ] || die "$WORKLOAD_INITRD missing: run 'make initramfs'"
	w=$dir/workload
	mkdir -p "$w/workload"
	install -m 0755 "$script" "$w/workload/run"
	[ -z "$files" ] || cp -R "$files/." "$w/workload/files"
	cpio_pack "$w" "$w.cpio.gz"
	cat "$INITRD" "$WORKLOAD_INITRD" "$w.cpio.gz" >"$dir/initrd.cpio.gz"
	export VM_INITRD=$dir/initrd.cpio.gz
	"$TOP/vm/disk.sh" "$dir/disk.img"
	qemu_args=(-d "$dir" -t $((timeout + wtime)) -a "$append" -D "$dir/disk.img" "${disks[@]}")
	collect_args=(--run "$run" --run-timeout "$wtime")
	progress "workload $run${files:+ with $files/}: up to ${wtime}s"
fi
setpriv --pdeathsig KILL "$TOP/vm/run-qemu.sh" "${qemu_args[@]}" &
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
		--console "$dir/console.log" --timeout "$timeout" --poweroff \
		"${collect_args[@]}" "$@" \
		2> >(tee "$dir/collect.log" >&2) || collect_rc=$?
else
	wait $qemu || true
	echo "boot: error: QEMU exited before it opened the agent socket (see $dir/qemu.log)" >&2
	exit 1
fi
# A guest that collect powered off, or that went away, is gone or going;
# one that collect failed to reach (2, 64...) is not waited for.
case $collect_rc in
0|1|3|4) grace=$GRACE ;;
*) grace=0 ;;
esac
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
# collect's messages were shown as they came (and kept in collect.log);
# 3 is a complete boot of a kernel that lacks something, which it named.
case $collect_rc in
0|3) [ $qemu_rc = 0 ] || exit 1
     exit 0 ;;
4) echo "boot: error: the workload${run:+ $run} failed (log: $dir/collect.log, output: $dir/raw/workload.out)" >&2 ;;
*) echo "boot: error: lockdep-collect exited with status $collect_rc (log: $dir/collect.log)" >&2 ;;
esac
exit $collect_rc
