#!/bin/sh
# shellcheck shell=dash
# SPDX-License-Identifier: GPL-2.0
#
# The guest's side of a C reproducer (vm/repro.sh): run ./repro, again
# each time it exits, until the kernel has printed a lockdep report or
# the time in ./limit (seconds) has passed. Run by the agent as the
# workload (/workload/run), in /workload/files.
#
# A report is seen in /proc/lockdep_stats: "reports printed" (the
# series' counter, every report the validator prints) grew, or
# debug_locks fell to 0 (the first report turns the validator off).
# Which report it was, and its title, is the host's to say, from the
# kernel log (one parser). Reproducers that never exit are normal: the
# agent kills what is left of them when this script ends.
#
# Prints one last line the host reads:
#   repro-run: report after N s (run K)
#   repro-run: no report in N s (K runs)
limit=$(cat limit)

# now: tenths of a second since boot
now() {
	local up
	read -r up _ </proc/uptime
	echo $(( ${up%.*} * 10 + $(printf '%.1s' "${up#*.}") ))
}
# reported: the validator's report count and debug_locks, as one word
reported() {
	awk -F: '/^ *reports printed:/ { r = $2 + 0 }
		/^ *debug_locks:/ { d = $2 + 0 }
		END { print r "/" d }' /proc/lockdep_stats
}

start=$(reported)
t0=$(now)
end=$((t0 + limit * 10))
runs=0 pid=""
while :; do
	if [ -z "$pid" ]; then
		runs=$((runs + 1))
		./repro &
		pid=$!
	fi
	sleep 0.2
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid"
		echo "repro-run: run $runs exited with status $?"
		pid=""
	fi
	now=$(now)
	if [ "$(reported)" != "$start" ]; then
		echo "repro-run: report after $(( (now - t0 + 5) / 10 )) s (run $runs)"
		exit 0
	fi
	if [ "$now" -ge "$end" ]; then
		echo "repro-run: no report in $limit s ($runs runs)"
		exit 0
	fi
done
