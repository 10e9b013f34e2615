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
# so that a drift in the host's load falls on both alike. The module's
# "bench-unordered" entry times the other release path the same way: two
# nested locks released outer first, so that lockdep takes the inner one
# off its stack and acquires it again (where the series' unlock order
# check sits). No lock class has opted in to that check in these boots,
# and report_all is off: what is measured is the series with its options
# off.
#
# MODE=icount (default) runs QEMU's TCG with "-icount shift=0": the
# guest's clock advances 1 ns per instruction executed, so "ns" are
# guest instructions, the same from run to run to 0.1 %. Without KVM this
# is the only steady figure: wall-clock samples under TCG spread by
# +-30 % within one boot. MODE=wall times in real nanoseconds (QEMU as
# vm/run-qemu.sh picks it: KVM where it works); worth reading with KVM.
#
# Printed: per boot and loop the median per iteration, then per kernel and
# loop the median over all its samples and the ratio lockdep/plain
# (target: <= 1.005).
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

LOOPS="bench bench-unordered"

# boot VARIANT ROUND: one guest, REPEATS timed runs of each loop; appends
# the samples (one per line) to $LOGS/NAME-VARIANT-LOOP.samples.
boot() {
	local v=$1 r=$2 dir name triggers=() i graph loop
	name=$NAME-$v-$r
	dir=$BUILD/vm/$name
	for ((i = 0; i < REPEATS; i++)); do
		for loop in $LOOPS; do
			triggers+=(--trigger "$loop")
		done
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
	for loop in $LOOPS; do
		tr -d '\r' <"$dir/console.log" |
			sed -n "s/.* $loop: $ITERATIONS [a-z_/ ]* in [0-9]* ns: \([0-9.]*\) ns\/iteration$/\1/p" \
			>"$dir/$loop.samples"
		[ "$(wc -l <"$dir/$loop.samples")" = "$REPEATS" ] ||
			die "$v boot $r: $(wc -l <"$dir/$loop.samples") of $REPEATS $loop lines in $dir/console.log"
		cat "$dir/$loop.samples" >>"$LOGS/$NAME-$v-$loop.samples"
	done
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
progress "$MODE: $ROUNDS rounds of 2 boots, $REPEATS x $ITERATIONS iterations of each loop"
row '%-8s %5s %-16s %12s\n' kernel round loop "$UNIT"
for ((r = 1; r <= ROUNDS; r++)); do
	order="plain lockdep"
	[ $((r % 2)) = 0 ] && order="lockdep plain"
	for v in $order; do
		boot "$v" "$r"
		for loop in $LOOPS; do
			row '%-8s %5d %-16s %12.3f\n' "$v" "$r" "$loop" \
				"$(median <"$BUILD/vm/$NAME-$v-$r/$loop.samples")"
		done
	done
done
row '\n'
for loop in $LOOPS; do
	p=$(median <"$LOGS/$NAME-plain-$loop.samples")
	l=$(median <"$LOGS/$NAME-lockdep-$loop.samples")
	row '%s, median of %d samples each: plain %.3f, lockdep %.3f %s\n' \
		"$loop" $((ROUNDS * REPEATS)) "$p" "$l" "$UNIT"
	row '%s: ratio lockdep/plain %.4f (target <= 1.005)\n' "$loop" \
		"$(echo "$l / $p" | bc -l)"
done
