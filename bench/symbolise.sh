#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Symbolisation benchmark: N addresses (default 100000) drawn at random
# from the code of the real vmlinux, symbolised with inline frames by
#   lockdep-symbolise  (ours) cold: no symbol index yet, answers from the
#                      DWARF and builds the index in the background
#                      (lockdep-symbolise(1), CACHE); warm: reads the index;
#                      warm from a pipe: one answer per line (co-process)
#   addr2line -afi     (binutils, ONE process fed all addresses)
#   llvm-symbolizer    (one process fed all addresses)
# Our runs must answer byte for byte alike (and like --no-cache); the
# peers' answers are compared (innermost function + file:line of every
# inline level) and must agree on at least AGREE percent (default 97) of
# the addresses, the rest being the known differences below. Wall time,
# CPU time (user + system, to the microsecond: /usr/bin/time prints
# hundredths, a fifth of a warm run) and peak RSS, from the rusage of
# each run (timed() below), are printed with the ratios
# peer/ours, and the index's size per MB of DWARF. Each tool runs RUNS
# times (default 3; a cold run each time without an index, its
# background build waited for before the next): the least wall and the
# least CPU time are printed, as noise on a shared machine only adds.
# Nothing fails on speed; a tool that fails, or answers that disagree,
# exit 1. Full outputs in $BUILD/logs/bench-symbolise/.
#
# BENCH_SMALL=1: N=2000 (seconds), the same runs and checks.
# ICOUNT=1: also the instructions each tool executes (valgrind
# --tool=callgrind, one run each: --no-cache, warm, the peers), with the
# ratios peer/ours: the measure a loaded machine does not move. Slow: the
# peers take minutes under valgrind at N=100000.
#
# Known differences (6.1 vmlinux, DWARF 5, gcc 12, binutils 2.40, LLVM 14):
#  - several symbols at one address (functions merged by identical code
#    folding, syscall aliases): ours names the symbol-table entry, the
#    peers the DWARF subprogram (about 0.15% of addresses);
#  - binutils 2.40 addr2line names the unit's main file instead of the
#    header for some lines of inlined header code (llvm-symbolizer agrees
#    with ours; about 1.4%);
#  - code with a line table row of line 0: ours prints ??:0.
#
# Environment: BUILD (default build/), BIN (default $BUILD/bin),
# VMLINUX (default $BUILD/linux/vmlinux), N, SEED, AGREE, RUNS, BENCH_SMALL,
# ICOUNT.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
BIN=${BIN:-$BUILD/bin}
VMLINUX=${VMLINUX:-$BUILD/linux/vmlinux}
if [ "${BENCH_SMALL:-}" = 1 ]; then N=${N:-2000}; else N=${N:-100000}; fi
AGREE=${AGREE:-97}
SEED=${SEED:-1}
RUNS=${RUNS:-3}
LOG=$BUILD/logs/bench-symbolise
LLVM_SYMBOLIZER=${LLVM_SYMBOLIZER:-$(command -v llvm-symbolizer ||
	command -v llvm-symbolizer-14 || true)}

die() { echo "bench/symbolise: $*" >&2; exit 2; }
fail() { echo "bench/symbolise: FAILED: $*" >&2; failed=1; }
failed=0
[ -r "$VMLINUX" ] || die "no vmlinux at '$VMLINUX' (run 'make kernel')"
[ -x "$BIN/lockdep-symbolise" ] || die "no '$BIN/lockdep-symbolise' (run 'make tools')"
command -v python3 >/dev/null || die "python3 missing (apt-get install python3)"
command -v addr2line >/dev/null || die "addr2line missing (apt-get install binutils)"
command -v flock >/dev/null || die "flock missing (apt-get install util-linux)"
mkdir -p "$LOG"
CACHE=$LOG/cache
BUILD_ID=$(readelf -n "$VMLINUX" | sed -n 's/^ *Build ID: //p' | head -n 1)
[ -n "$BUILD_ID" ] || die "'$VMLINUX' has no build id"

# Random addresses inside sized code symbols, deterministic for a SEED.
# mawk has 53-bit doubles, so only the low 7 hex digits are arithmetic.
nm -S --defined-only "$VMLINUX" | awk -v n="$N" -v seed="$SEED" '
function hex(s,  i, v) {
	v = 0
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
BEGIN { srand(seed) }
($3 == "t" || $3 == "T") && length($1) == 16 && hex($2) > 0 &&
substr($1, 1, 9) == "ffffffff8" {
	pre[m] = substr($1, 1, 9); lo[m] = hex(substr($1, 10)); sz[m] = hex($2); m++
}
END {
	for (i = 0; i < n; i++) {
		k = int(rand() * m)
		printf "0x%s%07x\n", pre[k], lo[k] + int(rand() * sz[k])
	}
}' >"$LOG/addrs"

# timed FILE CMD...: runs CMD, appending "wall user system maxrss" (s,
# s, s, KiB) from its rusage (wait4) to FILE; CMD's exit status
timed() {
	python3 -c '
import os, sys, time
start = time.monotonic()
pid = os.posix_spawnp(sys.argv[2], sys.argv[2:], os.environ)
status, r = os.wait4(pid, 0)[1:]
wall = time.monotonic() - start
with open(sys.argv[1], "a") as f:
    f.write("%.6f %.6f %.6f %d\n" % (wall, r.ru_utime, r.ru_stime, r.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))
' "$@"
}
# run1 NAME CMD...: stdin from $LOG/addrs, stdout to $LOG/NAME.out, times
# appended to $LOG/NAME.time; exit 0, or 1 (some frames unsymbolised)
# for ours
run1() {
	local name=$1 rc=0
	shift
	timed "$LOG/$name.time" "$@" <"$LOG/addrs" \
		>"$LOG/$name.out" 2>"$LOG/$name.err" || rc=$?
	[ "$rc" -le 1 ] && [ -s "$LOG/$name.out" ] ||
		fail "$name exited $rc (see $LOG/$name.err)"
}
# run NAME CMD...: run1 RUNS times
run() {
	rm -f "$LOG/$1.time"
	for _ in $(seq "$RUNS"); do run1 "$@"; done
}
least() { sort -g | head -n 1; }
# the least wall seconds, CPU seconds (user + system), RSS (MB) of NAME
wall() { awk '{ printf "%.3f\n", $1 }' "$LOG/$1.time" | least; }
cpu() { awk '{ printf "%.3f\n", $2 + $3 }' "$LOG/$1.time" | least; }
rss() { awk '{ print int($4 / 1024) }' "$LOG/$1.time" | least; }

ours=("$BIN/lockdep-symbolise" --vmlinux="$VMLINUX" --kaslr-offset=0 --pc)
echo "bench/symbolise: $N addresses from $VMLINUX, least of $RUNS runs, load $(cut -d ' ' -f 1-3 /proc/loadavg)"
run nocache "${ours[@]}" --no-cache
rm -f "$LOG/ours.time"
for _ in $(seq "$RUNS"); do
	rm -rf "$CACHE"
	run1 ours "${ours[@]}" --cache="$CACHE"
	# the index is built in the background of the cold run: wait for it
	start=$(date +%s.%N)
	flock "$CACHE/$BUILD_ID.lock" true 2>/dev/null ||
		fail "no index build started in $CACHE"
	build_s=$(echo "$start $(date +%s.%N)" | awk '{ printf "%.2f", $2 - $1 }')
	[ -s "$CACHE/$BUILD_ID.idx" ] || fail "no index in $CACHE after the cold run"
done
run warm "${ours[@]}" --cache="$CACHE"
# the same through a pipe: one answer per line, as a co-process
rm -f "$LOG/ours-pipe.time"
for _ in $(seq "$RUNS"); do
	timed "$LOG/ours-pipe.time" sh -c \
		"cat '$LOG/addrs' | '$BIN/lockdep-symbolise' --vmlinux='$VMLINUX' --kaslr-offset=0 --pc --cache='$CACHE'" \
		>"$LOG/ours-pipe.out" 2>"$LOG/ours-pipe.err" || true
done
for r in ours warm ours-pipe; do
	cmp -s "$LOG/nocache.out" "$LOG/$r.out" ||
		fail "$r answers differ from --no-cache ($LOG/$r.out)"
done
run addr2line addr2line -afi -e "$VMLINUX"
peers="addr2line"
if [ -n "$LLVM_SYMBOLIZER" ]; then
	run llvm "$LLVM_SYMBOLIZER" --obj="$VMLINUX" --inlining
	peers="$peers llvm"
else
	echo "bench/symbolise: llvm-symbolizer not found (apt-get install llvm-14), skipped"
fi

# One record per address: "func file:line;..." innermost first. Names
# lose GCC clone suffixes (.isra.0, .constprop.0, .cold: the symbol table
# has them, DWARF does not); paths lose the build directory.
awk '{
	inl = sub(/ \[inline\]$/, "")
	loc = $NF; f = $1; sub(/\+0x.*/, "", f); sub(/\..*/, "", f)
	rec = rec (rec == "" ? "" : ";") f " " loc
	if (!inl) { print rec; rec = "" }
}' "$LOG/ours.out" >"$LOG/ours.raw"
awk '/^0x/ { if (NR > 1) print rec; rec = ""; next }
	{ f = $0; sub(/\..*/, "", f); getline loc; sub(/ \(discriminator.*/, "", loc)
	  rec = rec (rec == "" ? "" : ";") f " " loc }
	END { print rec }' "$LOG/addr2line.out" >"$LOG/addr2line.raw"
if [ -n "$LLVM_SYMBOLIZER" ]; then
	awk '/^$/ { print rec; rec = ""; next }
		{ f = $0; sub(/\..*/, "", f); getline loc; sub(/:[0-9]+$/, "", loc)
		  rec = rec (rec == "" ? "" : ";") f " " loc }' "$LOG/llvm.out" \
		>"$LOG/llvm.raw"
fi
# The build directory as DWARF names it: ours prints paths relative to
# it, addr2line absolute ones; the first address both place in a file
# tells it. addr2line joins a header's "./include/..." name as
# "DIR/./include/...": that "/./" is one "/" first, else DIR would be
# taken as "DIR/." and strip only the headers' paths.
SRCDIR=$(paste -d '|' "$LOG/ours.raw" "$LOG/addr2line.raw" | awk -F'|' '!done {
	o = $1; sub(/.* /, "", o); sub(/:[0-9]+$/, "", o)
	p = $2; gsub(/\/\.\//, "/", p); sub(/.* /, "", p); sub(/:[0-9]+$/, "", p)
	n = length(p) - length(o)
	if (o != "??" && p ~ /^\// && n > 1 && substr(p, n) == "/" o) {
		print substr(p, 1, n - 1); done = 1
	}
}')
norm_path() { sed -e 's|/\./|/|g' -e "s|${SRCDIR:-//}/||g" -e 's|\./||g' -e 's|??:?|??:0|g'; }
for r in ours $peers; do
	norm_path <"$LOG/$r.raw" >"$LOG/$r.rec"
done

inl=$(grep -c ' \[inline\]$' "$LOG/ours.out" || true)
withinl=$(grep -c ';' "$LOG/ours.rec" || true)
echo "  $withinl addresses inside inlined code, $inl inline frames in all"
row() { printf '  %-30s %8s %8s %8s  %s\n' "$@"; }
row tool "wall s" "cpu s" "RSS MB" "same answers as ours"
row "lockdep-symbolise --no-cache" "$(wall nocache)" "$(cpu nocache)" "$(rss nocache)" -
row "lockdep-symbolise cold" "$(wall ours)" "$(cpu ours)" "$(rss ours)" -
row "lockdep-symbolise warm" "$(wall warm)" "$(cpu warm)" "$(rss warm)" -
row "lockdep-symbolise warm (pipe)" "$(wall ours-pipe)" "$(cpu ours-pipe)" "$(rss ours-pipe)" -
for p in $peers; do
	same=$(paste -d '\n' "$LOG/ours.rec" "$LOG/$p.rec" |
		awk 'NR % 2 { a = $0; next } { n++; if (a == $0) s++ }
		     END { printf "%d of %d (%.2f%%)", s, n, n ? 100 * s / n : 0 }')
	name=$p; [ "$p" = llvm ] && name=llvm-symbolizer; [ "$p" = addr2line ] && name="addr2line -afi"
	row "$name" "$(wall $p)" "$(cpu $p)" "$(rss $p)" "$same"
	paste -d '|' "$LOG/ours.rec" "$LOG/$p.rec" | awk -F'|' '$1 != $2' \
		>"$LOG/diff-$p.txt"
	echo "$same" | awk -v a="$AGREE" '{ gsub(/[(%)]/, "", $4); exit !($4 >= a) }' ||
		fail "$name agrees on less than $AGREE% ($LOG/diff-$p.txt)"
done
for p in $peers; do
	awk -v p="$p" -v oc="$(wall ours)" -v ow="$(wall warm)" -v pw="$(wall $p)" \
		-v occ="$(cpu ours)" -v owc="$(cpu warm)" -v pc="$(cpu $p)" 'BEGIN {
		printf "  ratio %s/ours: cold wall %.1fx cpu %.1fx; warm wall %.1fx cpu %.1fx\n",
			p, pw / oc, pc / occ, pw / ow, pc / owc }'
done
# the DWARF the index replaces: every .debug_* section
dwarf=$(readelf -SW "$VMLINUX" | sed 's/^ *\[ *[0-9]*\] *//' |
	awk '$1 ~ /^\.debug_/ { print $5 }' |
	while read -r h; do echo $((0x$h)); done | awk '{ s += $1 } END { print s + 0 }')
idx=$(wc -c <"$CACHE/$BUILD_ID.idx" 2>/dev/null || echo 0)
awk -v i="$idx" -v d="$dwarf" -v b="$build_s" 'BEGIN {
	printf "  index: %.1f MB for %.1f MB of DWARF (%.3f MB per MB), built in the background in %s s\n",
		i / 1048576, d / 1048576, d ? i / d : 0, b }'
echo "  differences: $LOG/diff-*.txt (ours|peer, one address per line)"

# icount NAME CMD...: the instructions CMD executes on the addresses
icount() {
	local name=$1
	shift
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" \
		<"$LOG/addrs" >/dev/null 2>"$LOG/$name.icount" || true
	sed -n 's/.*Collected : //p' "$LOG/$name.icount"
}
if [ "${ICOUNT:-}" = 1 ]; then
	command -v valgrind >/dev/null || die "valgrind missing (apt-get install valgrind)"
	ic_cold=$(icount nocache "${ours[@]}" --no-cache)
	ic_warm=$(icount warm "${ours[@]}" --cache="$CACHE")
	line="  instructions: ours --no-cache $ic_cold, warm $ic_warm"
	for p in $peers; do
		if [ "$p" = llvm ]; then
			ic=$(icount llvm "$LLVM_SYMBOLIZER" --obj="$VMLINUX" --inlining)
		else
			ic=$(icount addr2line addr2line -afi -e "$VMLINUX")
		fi
		line="$line; $p $ic ($(awk -v p="$ic" -v c="$ic_cold" -v w="$ic_warm" \
			'BEGIN { printf "%.1fx cold, %.1fx warm", p / c, p / w }'))"
	done
	echo "$line"
fi
[ "$failed" = 0 ] || exit 1
