#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Hot-path benchmark: what the kernel series costs lockdep's lock/unlock
# path with its options off. Two guests, built from the same .config
# (vm/kernel.sh checks that): the series kernel ("lockdep") and the plain
# Debian 6.1 tree ("plain", the peer) with the scenario module built out
# of tree. In each boot the scenario module's "bench" entry times
# ITERATIONS spin_lock/spin_unlock pairs on one lock, REPEATS times; the
# boots alternate plain, lockdep, lockdep, plain, ... over ROUNDS rounds
# so that a drift in the host's load falls on both alike.
#
# MODE=icount (default) runs QEMU's TCG with "-icount shift=0": the
# guest's clock advances 1 ns per instruction executed, so "ns" are
# guest instructions, the same from run to run to 0.1 %. Without KVM this
# is the only steady figure: wall-clock samples under TCG spread by
# +-30 % within one boot. MODE=wall times in real nanoseconds (QEMU as
# vm/run-qemu.sh picks it: KVM where it works); worth reading with KVM.
#
# Printed: per boot the median per iteration, then per kernel the median
# over all its samples and the ratio lockdep/plain (target: <= 1.01).
# Both boot with the dependency events of the series compiled in and off
# (EVENTS=0 for vm/boot.sh): they fire only when the graph grows, never
# in the loop. Each boot checks that lockdep was still on after the loop (debug_locks
# 1) and that the guest ran the kernel it should (the plain one has no
# graph export). Not a test: nothing here fails on speed.
# Boots land in build/vm/NAME-*; the table is also written to
# build/logs/NAME.txt (NAME: bench-hotpath).
#
# Environment: MODE (icount or wall), ROUNDS (default 2), REPEATS
# (default 3), ITERATIONS (default 100000; use 1000000 or more for wall),
# NAME (default bench-hotpath), BENCH_SMALL=1 (make check: one round of
# two repeats under the NAME check-hotpath, so that it never overwrites
# the last real table; both kernels still boot and are still checked).
set -euo pipefail
. "$(dirname "$0")/../vm/lib.sh"
STEP=bench

if [ "${BENCH_SMALL:-}" = 1 ]; then
	ROUNDS=${ROUNDS:-1} REPEATS=${REPEATS:-2} NAME=${NAME:-check-hotpath}
fi
MODE=${MODE:-icount}
ROUNDS=${ROUNDS:-2}
REPEATS=${REPEATS:-3}
ITERATIONS=${ITERATIONS:-100000}
NAME=${NAME:-bench-hotpath}
OUT=$LOGS/$NAME.txt

check_name NAME "$NAME"
case $MODE in
# one CPU under -icount: the loop runs on one CPU anyway, and TCG with
# -icount runs every vCPU in one thread, where a second one's bring-up
# can keep the boot stuck at "Booting SMP configuration"
icount) export ACCEL=tcg QEMU_ARGS="-icount shift=0,sleep=off" SMP=1; UNIT="insns/iter" ;;
wall) UNIT="ns/iter" ;;
*) die "MODE must be icount or wall, not '$MODE'" ;;
esac
for v in ROUNDS REPEATS ITERATIONS; do
	case ${!v} in
	''|0|*[!0-9]*) die "$v must be a positive integer, not '${!v}'" ;;
	esac
done
for v in lockdep plain; do
	(
		KERNEL_VARIANT=$v . "$TOP/vm/lib.sh"
		[ -f "$KSRC/arch/x86/boot/bzImage" ] && [ -f "$INITRD" ] ||
			die "no $v kernel or initramfs: run 'make bench' (it builds both)"
	)
done

# boot VARIANT ROUND: one guest, REPEATS timed loops; appends the samples
# (one per line) to $LOGS/NAME-VARIANT.samples.
boot() {
	local v=$1 r=$2 dir name triggers=() i graph
	name=$NAME-$v-$r
	dir=$BUILD/vm/$name
	for ((i = 0; i < REPEATS; i++)); do
		triggers+=(--trigger bench)
	done
	KERNEL_VARIANT=$v EVENTS=0 "$TOP/vm/boot.sh" -n "$name" -t 900 \
		-a "test_lockdep_scenarios.bench_iterations=$ITERATIONS" \
		-- "${triggers[@]}" >"$LOGS/$name.log" 2>&1 ||
		{ tail -n 15 "$LOGS/$name.log" >&2; die "$v boot $r failed (log: $LOGS/$name.log)"; }
	grep -Eq '^ *debug_locks: +1$' "$dir/raw/files/proc/lockdep_stats" ||
		die "$v boot $r: lockdep was off after the loop ($dir/raw/files/proc/lockdep_stats)"
	graph=$(sed -n 's|^file \([a-z]*\) /sys/kernel/debug/lockdep/graph .*|\1|p' "$dir/raw/MANIFEST")
	case $v:$graph in
	lockdep:complete|plain:missing) ;;
	*) die "$v boot $r: the graph export is '$graph': not the $v kernel?" ;;
	esac
	tr -d '\r' <"$dir/console.log" |
		sed -n "s/.* bench: $ITERATIONS spin_lock\/spin_unlock pairs in [0-9]* ns: \([0-9.]*\) ns\/iteration$/\1/p" \
		>"$dir/samples"
	[ "$(wc -l <"$dir/samples")" = "$REPEATS" ] ||
		die "$v boot $r: $(wc -l <"$dir/samples") of $REPEATS bench lines in $dir/console.log"
	cat "$dir/samples" >>"$LOGS/$NAME-$v.samples"
}

median() {
	sort -n | awk '{ v[NR] = $1 } END {
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# row FORMAT ARGS...: a line of the table, on stdout and in $OUT
row() {
	printf "$@" | tee -a "$OUT"
}

rm -f "$LOGS/$NAME"-*.samples "$OUT"
progress "$MODE: $ROUNDS rounds of 2 boots, $REPEATS x $ITERATIONS lock/unlock pairs each"
row '%-8s %5s %12s\n' kernel round "$UNIT"
for ((r = 1; r <= ROUNDS; r++)); do
	order="plain lockdep"
	[ $((r % 2)) = 0 ] && order="lockdep plain"
	for v in $order; do
		boot "$v" "$r"
		row '%-8s %5d %12.3f\n' "$v" "$r" \
			"$(median <"$BUILD/vm/$NAME-$v-$r/samples")"
	done
done
p=$(median <"$LOGS/$NAME-plain.samples")
l=$(median <"$LOGS/$NAME-lockdep.samples")
row '\nmedian of %d samples each: plain %.3f, lockdep %.3f %s\n' \
	$((ROUNDS * REPEATS)) "$p" "$l" "$UNIT"
row 'ratio lockdep/plain %.4f (target <= 1.01)\n' "$(echo "$l / $p" | bc -l)"
