#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate lockdep-tools/tests/fixtures/6.1/ from a real boot of our
# guest (run 'make initramfs' first; with KERNEL_SOURCE=linux-source-6.12,
# fixtures/6.12/ from a boot of the 6.12 series' kernel):
#   console.log, lockdep, lockdep_stats, lock_stat   as the guest gave them
#   lockdep_chains                                   its first 400 chains
#   lockdep_graph                                    if the kernel has it: its
#                                                    first 200 classes, see below
#   events                                           if the kernel has them: the
#                                                    dependency events of those
#                                                    classes, in stream order
# ONLY=events rewrites events alone, cut to the classes of the
# lockdep_graph fixture already there (class indices of an idle boot of
# one kernel and config are the same from boot to boot: check the
# counts t6800 prints).
# KERNEL_VARIANT=capacity writes fixtures/capacity/ instead, from a
# workload boot of the capacity kernel (make check-capacity's t0350:
# FROM=t0350-capacity takes its boot as it is, else pass the workload,
# "-r vm/workloads/all.sh -f vm/workloads", and SAMPLE_MS=1000):
#   stats           the agent's series: its first sample, then from the
#                   last one before the workload (the first after it
#                   starts the projection, lockdep-report(1)) up to the
#                   snapshot and 5 after it (the cut is one gap, said
#                   when collected)
#   workload        the MANIFEST's line of the workload's run (its
#                   start in the kernel log, its duration), and its
#                   output as the agent kept it (workload.out)
#   snapshot-graph  the graph export the agent copied at "too low", whole
#                   (the analysis is of all of it), gzip'ed
#   kmsg            the kernel log records as the agent sent them: the
#                   first (Linux version) and the "too low" report's,
#                   with their sequence numbers (the snapshot names one)
#   lockdep_stats   /proc/lockdep_stats at the end of the boot
# Review the diff before committing: the tests know these files' counts.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=fixtures

if [ "${KERNEL_VARIANT:-}" = capacity ]; then
	out=$TOP/lockdep-tools/tests/fixtures/capacity
	name=${FROM:-fixtures-capacity}
	raw=$BUILD/vm/$name/raw
	[ -n "${FROM:-}" ] || "$TOP/vm/boot.sh" -n "$name" "$@"
	series=$raw/files/run/lockdep/stats
	[ -f "$series" ] && [ -f "$raw/files/run/lockdep/snapshot-graph" ] ||
		die "$raw has no series and snapshot: not a boot that ran out?"
	mkdir -p "$out"
	# the run's line of the MANIFEST: where it started in the kernel log
	grep "^workload exited " "$raw/MANIFEST" >"$out/workload" ||
		die "$raw/MANIFEST: the workload did not end"
	cp "$raw/workload.out" "$out/workload.out"
	start=$(cut -d' ' -f4 "$out/workload")
	snap=$(sed -n 's/^@ \([0-9]*\) [0-9]* snapshot .*/\1/p' "$series")
	# sample 0, then from the last sample before the workload (the
	# projection's start, lockdep-report(1)) to 5 after the snapshot
	from=$(awk -v start="$start" '$1 == "@" && $4 == "periodic" &&
		NF == 6 && $6 >= start { print $2 - 1; exit }' "$series")
	[ -n "$from" ] || die "$series: no sample says it was taken in the workload"
	awk -v from="$from" -v to=$((snap + 5)) '
		/^@ / { n = $2 } n == 0 || (n >= from && n <= to) { print }' \
		"$series" >"$out/stats"
	gzip -9n <"$raw/files/run/lockdep/snapshot-graph" >"$out/snapshot-graph.gz"
	cp "$raw/files/proc/lockdep_stats" "$out/lockdep_stats"
	awk 'NR == 1 { print; next }
		/;BUG: MAX_[A-Z_]* too low!/ { p = 1 }
		p { print } p && /<\/TASK>/ { p = 0 }' \
		"$raw/kmsg" >"$out/kmsg"
	progress "fixtures written to ${out#"$TOP"/}"
	exit
fi

base=${KBASE#-}
out=$TOP/lockdep-tools/tests/fixtures/${base:-6.1}
name=fixtures$KBASE
raw=$BUILD/vm/$name/raw
"$TOP/vm/boot.sh" -n "$name" "$@"
mkdir -p "$out"
if [ "${ONLY:-}" != events ]; then
	cp "$BUILD/vm/$name/console.log" "$out/console.log"
	for f in lockdep lockdep_stats lock_stat; do
		cp "$raw/files/proc/$f" "$out/$f"
	done
	awk '/^irq_context/ { n++ } n > 400 { exit } { print }' \
		"$raw/files/proc/lockdep_chains" >"$out/lockdep_chains"
	# The whole export is megabytes; keep it self-consistent while cutting:
	# the first 200 class records with their usage records, the deps and
	# chains among those classes only, the traces they cite, and a counts
	# record that says so (two passes over the file).
	# (the raw directory names it by its debugfs path, whichever the
	# kernel had: lockdep-agent(8))
	graph=$raw/files/sys/kernel/debug/lockdep/graph
	if [ -f "$graph" ]; then
		awk -v max=200 '
		NR == FNR {
			if ($1 == "class" && nc < max) { keep[$2] = 1; nc++ }
			else if ($1 == "usage" && ($2 in keep)) cite[$4] = 1
			else if ($1 == "dep" && ($2 in keep) && ($3 in keep)) {
				cite[$6] = 1; nd++
			} else if ($1 == "chain" && inside()) nch++
			else if ($1 == "trace" && ($2 in cite)) nt++
			next
		}
		function inside(  i) {
			for (i = 5; i <= NF; i++) if (!($i in keep)) return 0
			return 1
		}
		$1 == "counts" { print "counts", nc, nd, nch, nt; next }
		$1 == "class" || $1 == "usage" { if ($2 in keep) print; next }
		$1 == "dep" { if (($2 in keep) && ($3 in keep)) print; next }
		$1 == "chain" { if (inside()) print; next }
		$1 == "trace" { if ($2 in cite) print; next }
		{ print }
		' "$graph" "$graph" \
			>"$out/lockdep_graph"
	fi
fi
# The events of the classes the lockdep_graph fixture keeps: usage and
# zaps of one of them, dependencies between two of them.
if [ -f "$raw/events" ] && [ -f "$out/lockdep_graph" ]; then
	awk '
	NR == FNR { if ($1 == "class") keep[$2] = 1; next }
	{
		for (i = 1; i <= NF; i++)
			if (split($i, kv, "=") == 2)
				v[kv[1]] = kv[2]
	}
	/ lockdep_dependency: / { if ((v["from"] in keep) && (v["to"] in keep)) print; next }
	/ lockdep_(usage|class_zapped): / { if (v["class"] in keep) print }
	' "$out/lockdep_graph" "$raw/events" >"$out/events"
fi
progress "fixtures written to ${out#"$TOP"/}"
