#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The end-to-end demo ('make demo'): boot the guest, collect its lockdep
# state through the agent into build/demo/lockdep.db (frames symbolised
# against build/linux/vmlinux), keep the raw files beside it, and print
# the reports the database holds.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=demo

out=$BUILD/demo
db=$out/lockdep.db
mkdir -p "$out"
rm -f "$db" "$db-wal" "$db-shm"

# demo_boot NAME [COLLECT ARGS...]: one collected boot, stored as NAME.
demo_boot() {
	local name=$1
	shift
	"$TOP/vm/boot.sh" -n "demo-$name" -- --db "$db" --label "$name" \
		--vmlinux "$KSRC/vmlinux" --modules "$KSRC" "$@" >/dev/null
	progress "boot '$name' stored in ${db#"$TOP"/}"
}

demo_boot plain

"$BUILD/bin/lockdep-report" --db "$db" --all --list >"$out/reports.txt"
progress "reports: $(wc -l <"$out/reports.txt") (list in ${out#"$TOP"/}/reports.txt)"
echo "demo: database:     ${db#"$TOP"/}  (schema: man -l lockdep-tools/man/lockdep-db.5)"
echo "demo: console log:  build/vm/demo-plain/console.log"
echo "demo: raw files:    build/vm/demo-plain/raw/ (index: MANIFEST)"
