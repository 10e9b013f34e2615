#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One libFuzzer harness for make fuzz-check and fuzz-long, and one line
# on how far it got: its executions, its seconds and its CPU seconds.
#
# usage: run.sh HARNESS LOG SECONDS EXECS ARTIFACT_PREFIX CORPUS_DIR...
#   EXECS  the executions it is to reach in SECONDS; -1: none, it runs
#          for SECONDS (fuzz-long)
#
# Fails when the harness finds something (its log's tail is printed),
# and when it ends below EXECS although it had a core to itself: CPU
# seconds of at least nine tenths of SECONDS. That is a budget of the
# harness's speed (executions a CPU second), not of the machine's: a
# harness below EXECS with less CPU than that was kept waiting by other
# work, and is said to be, not failed.
set -u

harness=$1 log=$2 secs=$3 execs=$4 artifacts=$5
shift 5
name=${harness##*/}

/usr/bin/time -f '%U %S' -o "$log.cpu" "$harness" \
	-max_total_time="$secs" -runs="$execs" -max_len=65536 -timeout=10 \
	-rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$artifacts" "$@" >"$log" 2>&1
rc=$?
if [ "$rc" -ne 0 ]; then
	echo "== $name: failed, $log:"
	tail -40 "$log"
	exit 1
fi

# "Done 100000 runs in 12 second(s)"
done=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 \2/p' "$log")
case $done in
[0-9]*" "[0-9]*) ;;
*)	echo "== $name: no 'Done N runs' line in $log"
	exit 1 ;;
esac
runs=${done% *} took=${done#* }
cpu=$(tail -1 "$log.cpu" | awk '{ printf "%.1f", $1 + $2 }')
line="== $name: $runs runs in $took s, $cpu s of CPU"

if [ "$execs" -lt 0 ] || [ "$runs" -ge "$execs" ]; then
	echo "$line"
elif awk -v c="$cpu" -v s="$secs" 'BEGIN { exit !(c >= 0.9 * s) }'; then
	echo "$line: below its $execs (FUZZ_EXECS) with a core to itself, too slow for its budget"
	exit 1
else
	echo "$line: below its $execs (FUZZ_EXECS), kept waiting by other work: not judged"
fi
