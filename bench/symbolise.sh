#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Symbolisation benchmark: N addresses (default 100000) drawn at random
# from the code of the real vmlinux, symbolised with inline frames by
#   lockdep-symbolise  (ours; once from a file = batched, once from a
#                       pipe = one answer per line, as a co-process)
#   addr2line -afi     (binutils, ONE process fed all addresses)
#   llvm-symbolizer    (one process fed all addresses)
# The answers are compared (innermost function + file:line of every
# inline level), and wall time, CPU time and peak RSS (/usr/bin/time -v)
# are printed with the ratios peer/ours. Not a test: nothing here fails
# on speed. Full outputs in $BUILD/logs/bench-symbolise/.
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
# VMLINUX (default $BUILD/linux/vmlinux), N, SEED.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
BIN=${BIN:-$BUILD/bin}
VMLINUX=${VMLINUX:-$BUILD/linux/vmlinux}
N=${N:-100000}
SEED=${SEED:-1}
LOG=$BUILD/logs/bench-symbolise
LLVM_SYMBOLIZER=${LLVM_SYMBOLIZER:-$(command -v llvm-symbolizer ||
	command -v llvm-symbolizer-14 || true)}

die() { echo "bench/symbolise: $*" >&2; exit 2; }
[ -r "$VMLINUX" ] || die "no vmlinux at '$VMLINUX' (run 'make kernel')"
[ -x "$BIN/lockdep-symbolise" ] || die "no '$BIN/lockdep-symbolise' (run 'make tools')"
[ -x /usr/bin/time ] || die "/usr/bin/time missing (apt-get install time)"
command -v addr2line >/dev/null || die "addr2line missing (apt-get install binutils)"
mkdir -p "$LOG"
# the build directory, as DWARF names it: peers print absolute paths
SRCDIR=$(cd "$(dirname "$VMLINUX")" && pwd)

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

# run NAME OUT CMD...: stdin from $LOG/addrs, times into $LOG/NAME.time
run() {
	local name=$1 out=$2
	shift 2
	/usr/bin/time -v -o "$LOG/$name.time" "$@" <"$LOG/addrs" >"$out" \
		2>"$LOG/$name.err" || true
}
field() { sed -n "s/^[[:space:]]*$2: //p" "$LOG/$1.time"; }
# wall seconds from "h:mm:ss" or "m:ss.ss"
wall() { field "$1" 'Elapsed (wall clock) time (h:mm:ss or m:ss)' |
	awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }'; }
cpu() { echo "$(field "$1" 'User time (seconds)') $(field "$1" 'System time (seconds)')" |
	awk '{ print $1 + $2 }'; }
rss() { echo $(($(field "$1" 'Maximum resident set size (kbytes)') / 1024)); }

echo "bench/symbolise: $N addresses from $VMLINUX"
run ours "$LOG/ours.out" "$BIN/lockdep-symbolise" --vmlinux="$VMLINUX" \
	--kaslr-offset=0 --pc
# the same through a pipe: one answer per line, as a co-process
/usr/bin/time -v -o "$LOG/ours-pipe.time" sh -c \
	"cat '$LOG/addrs' | '$BIN/lockdep-symbolise' --vmlinux='$VMLINUX' --kaslr-offset=0 --pc" \
	>"$LOG/ours-pipe.out" 2>"$LOG/ours-pipe.err" || true
run addr2line "$LOG/addr2line.out" addr2line -afi -e "$VMLINUX"
peers="addr2line"
if [ -n "$LLVM_SYMBOLIZER" ]; then
	run llvm "$LOG/llvm.out" "$LLVM_SYMBOLIZER" --obj="$VMLINUX" --inlining
	peers="$peers llvm"
else
	echo "bench/symbolise: llvm-symbolizer not found (apt-get install llvm-14), skipped"
fi

# One record per address: "func file:line;..." innermost first. Names
# lose GCC clone suffixes (.isra.0, .constprop.0, .cold: the symbol table
# has them, DWARF does not); paths lose the build directory.
norm_path() { sed -e "s|$SRCDIR/||g" -e 's|\./||g' -e 's|??:?|??:0|g'; }
awk '{
	inl = sub(/ \[inline\]$/, "")
	loc = $NF; f = $1; sub(/\+0x.*/, "", f); sub(/\..*/, "", f)
	rec = rec (rec == "" ? "" : ";") f " " loc
	if (!inl) { print rec; rec = "" }
}' "$LOG/ours.out" | norm_path >"$LOG/ours.rec"
awk '/^0x/ { if (NR > 1) print rec; rec = ""; next }
	{ f = $0; sub(/\..*/, "", f); getline loc; sub(/ \(discriminator.*/, "", loc)
	  rec = rec (rec == "" ? "" : ";") f " " loc }
	END { print rec }' "$LOG/addr2line.out" | norm_path >"$LOG/addr2line.rec"
if [ -n "$LLVM_SYMBOLIZER" ]; then
	awk '/^$/ { print rec; rec = ""; next }
		{ f = $0; sub(/\..*/, "", f); getline loc; sub(/:[0-9]+$/, "", loc)
		  rec = rec (rec == "" ? "" : ";") f " " loc }' "$LOG/llvm.out" |
		norm_path >"$LOG/llvm.rec"
fi

inl=$(grep -c ' \[inline\]$' "$LOG/ours.out" || true)
withinl=$(grep -c ';' "$LOG/ours.rec" || true)
cmp -s "$LOG/ours.out" "$LOG/ours-pipe.out" && pipe_same=yes || pipe_same=NO
echo "  $withinl addresses inside inlined code, $inl inline frames in all; pipe output identical to batch: $pipe_same"
printf '  %-26s %8s %8s %8s  %s\n' tool "wall s" "cpu s" "RSS MB" "same answers as ours"
printf '  %-26s %8s %8s %8s  %s\n' "lockdep-symbolise (batch)" "$(wall ours)" "$(cpu ours)" "$(rss ours)" -
printf '  %-26s %8s %8s %8s  %s\n' "lockdep-symbolise (pipe)" "$(wall ours-pipe)" "$(cpu ours-pipe)" "$(rss ours-pipe)" -
for p in $peers; do
	same=$(paste -d '\n' "$LOG/ours.rec" "$LOG/$p.rec" |
		awk 'NR % 2 { a = $0; next } { n++; if (a == $0) s++ }
		     END { printf "%d of %d (%.2f%%)", s, n, n ? 100 * s / n : 0 }')
	name=$p; [ "$p" = llvm ] && name=llvm-symbolizer; [ "$p" = addr2line ] && name="addr2line -afi"
	printf '  %-26s %8s %8s %8s  %s\n' "$name" "$(wall $p)" "$(cpu $p)" "$(rss $p)" "$same"
	paste -d '|' "$LOG/ours.rec" "$LOG/$p.rec" | awk -F'|' '$1 != $2' \
		>"$LOG/diff-$p.txt"
done
for p in $peers; do
	awk -v p="$p" -v ow="$(wall ours)" -v pw="$(wall $p)" -v oc="$(cpu ours)" \
		-v pc="$(cpu $p)" -v opw="$(wall ours-pipe)" 'BEGIN {
		printf "  ratio %s/ours: wall %.1fx (pipe %.1fx), cpu %.1fx\n", p,
			pw / ow, pw / opw, pc / oc }'
done
echo "  differences: $LOG/diff-*.txt (ours|peer, one address per line)"
