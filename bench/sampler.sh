#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# What the agent's lockdep_stats sampler costs a workload (issue 33,
# lockdep-agent(8) SAMPLES): the same workload in two boots of the
# lockdep kernel, one with the sampler off (SAMPLE_MS=0, the peer) and
# one sampling every SAMPLE_MS (default 2000, the agent's default), side
# by side in one run. The figure is the workload's duration as the agent
# measured it, in the guest's clock.
#
# MODE=icount (default) runs QEMU's TCG with "-icount shift=0,sleep=off"
# and one CPU, as bench/lock-hotpath.sh does: the guest's clock advances
# 1 ns per instruction, so the duration counts the guest's instructions
# (the workload's, the agent's reads of the file, lockdep's own work)
# and is steady from run to run, where wall time under TCG spreads by
# tens of percent. MODE=wall times the guest's real milliseconds.
#
# Printed: per boot the workload's duration and how many samples the
# series holds (the off boot must have none, the sampled one at least
# one per SAMPLE_MS of the workload: else this is not the comparison it
# claims, and the script fails), then the ratio sampled/off (target:
# <= 1.02). Not a test: nothing here fails on speed.
# Boots land in build/vm/NAME-off and NAME-on; the table is also written
# to build/logs/NAME.txt (NAME: bench-sampler).
#
# Environment: MODE (icount or wall), WORKLOAD (default
# vm/workloads/all.sh), SAMPLE_MS (default 2000), RUN_S (how long the
# workload may run, host seconds, default 3600), NAME (default
# bench-sampler), BENCH_SMALL=1 (make check: sys-smoke.sh alone,
# sampled every 200 ms, under the NAME check-sampler).
set -euo pipefail
. "$(dirname "$0")/../vm/lib.sh"
STEP=bench

if [ "${BENCH_SMALL:-}" = 1 ]; then
	WORKLOAD=${WORKLOAD:-$TOP/vm/workloads/sys-smoke.sh}
	SAMPLE_MS=${SAMPLE_MS:-200} NAME=${NAME:-check-sampler}
fi
MODE=${MODE:-icount}
# how long the workload may run, in the host's seconds: all.sh under
# TCG took more than boot.sh's default 600 at load 24 (2026-12-08)
RUN_S=${RUN_S:-3600}
WORKLOAD=${WORKLOAD:-$TOP/vm/workloads/all.sh}
SAMPLE_MS=${SAMPLE_MS:-2000}
NAME=${NAME:-bench-sampler}
OUT=$LOGS/$NAME.txt

check_name NAME "$NAME"
case $MODE in
icount) export ACCEL=tcg QEMU_ARGS="-icount shift=0,sleep=off" SMP=1
	UNIT="guest ms (1 ns = 1 insn)" ;;
wall) UNIT="guest ms" ;;
*) die "MODE must be icount or wall, not '$MODE'" ;;
esac
case $SAMPLE_MS in
''|0|*[!0-9]*) die "SAMPLE_MS must be a positive integer, not '$SAMPLE_MS'" ;;
esac
[ -f "$WORKLOAD" ] || die "no workload '$WORKLOAD'"
if [ ! -f "$KSRC/arch/x86/boot/bzImage" ] || [ ! -f "$INITRD" ]; then
	die "no lockdep kernel or initramfs: run 'make bench' (it builds them)"
fi

# boot off|on: one guest running WORKLOAD; prints "DURATION_MS SAMPLES"
boot() {
	local name=$NAME-$1 dir ms=0 wl n
	[ "$1" = on ] && ms=$SAMPLE_MS
	dir=$BUILD/vm/$name
	SAMPLE_MS=$ms "$TOP/vm/boot.sh" -n "$name" -t 900 -w "$RUN_S" -r "$WORKLOAD" \
		-f "$(dirname "$WORKLOAD")" >"$LOGS/$name.log" 2>&1 ||
		{ tail -n 15 "$LOGS/$name.log" >&2; die "boot $name failed (log: $LOGS/$name.log)"; }
	# "workload exited NAME START END STATUS DURATION_MS OUTPUT"
	wl=$(grep "^workload exited " "$dir/raw/MANIFEST") ||
		die "boot $name: the workload did not end ($dir/raw/MANIFEST)"
	[ "$(echo "$wl" | cut -d' ' -f6)" = 0 ] ||
		die "boot $name: the workload failed ($dir/raw/workload.out)"
	n=0
	[ ! -f "$dir/raw/files/run/lockdep/stats" ] ||
		n=$(grep -c "^@ .* periodic " "$dir/raw/files/run/lockdep/stats")
	echo "$(echo "$wl" | cut -d' ' -f7) $n"
}

rm -f "$OUT"
progress "$MODE: $(basename "$WORKLOAD") with the sampler off, then every $SAMPLE_MS ms"
printf '%-8s %16s %8s\n' sampler "$UNIT" samples | tee -a "$OUT"
read -r off_ms off_n < <(boot off)
printf '%-8s %16d %8d\n' off "$off_ms" "$off_n" | tee -a "$OUT"
read -r on_ms on_n < <(boot on)
printf '%-8s %16d %8d\n' "${SAMPLE_MS}ms" "$on_ms" "$on_n" | tee -a "$OUT"
[ "$off_n" = 0 ] || die "the boot with the sampler off has $off_n samples"
# the workload's time over the interval: that many samples, give or
# take one, were taken while it ran (the series also has the boot's)
[ "$on_n" -ge $((on_ms / SAMPLE_MS)) ] ||
	die "the sampled boot has $on_n samples for a workload of $on_ms ms at $SAMPLE_MS ms"
[ "$off_ms" -gt 0 ] || die "the workload took no time in the boot with the sampler off"
awk -v on="$on_ms" -v off="$off_ms" 'BEGIN {
	printf "sampled/off: %.4f (target: <= 1.02)\n", on / off }' | tee -a "$OUT"
