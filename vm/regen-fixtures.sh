#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate lockdep-tools/tests/fixtures/6.1/ from a real boot of our
# guest (run 'make initramfs' first):
#   console.log, lockdep, lockdep_stats, lock_stat   as the guest gave them
#   lockdep_chains                                   its first 400 chains
#   lockdep_graph                                    if the kernel has it
# Review the diff before committing: the tests know these files' counts.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=fixtures

out=$TOP/lockdep-tools/tests/fixtures/6.1
raw=$BUILD/vm/fixtures/raw
"$TOP/vm/boot.sh" -n fixtures "$@"
mkdir -p "$out"
cp "$BUILD/vm/fixtures/console.log" "$out/console.log"
for f in lockdep lockdep_stats lock_stat; do
	cp "$raw/files/proc/$f" "$out/$f"
done
awk '/^irq_context/ { n++ } n > 400 { exit } { print }' \
	"$raw/files/proc/lockdep_chains" >"$out/lockdep_chains"
if [ -f "$raw/files/proc/lockdep_graph" ]; then
	cp "$raw/files/proc/lockdep_graph" "$out/lockdep_graph"
fi
progress "fixtures written to ${out#"$TOP"/}"
