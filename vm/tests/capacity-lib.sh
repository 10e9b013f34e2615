# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Helpers for the boot tests that prove lockdep-report --capacity's
# advice (t0355, t0356: make check-capacity); sourced after
# lockdep-tools/tests/t/lib.sh.

# capacity_boot NAME DB VARIANT: all.sh on KERNEL_VARIANT's kernel,
# sampled every second, stored in DB (anew); the boot lands in
# $BUILD/vm/NAME/
capacity_boot() {
	local tree
	rm -f "$2" &&
	tree=$(KERNEL_VARIANT=$3 && . "$TOP/vm/lib.sh" && echo "$KSRC") &&
	KERNEL_VARIANT=$3 SAMPLE_MS=1000 "$TOP/vm/boot.sh" -n "$1" \
		-r "$TOP/vm/workloads/all.sh" -f "$TOP/vm/workloads" -- \
		--db "$2" --label "$1" \
		--vmlinux "$tree/vmlinux"
}

# capacity_limits DB: the number of lockdep-limit reports DB holds
capacity_limits() {
	sqlite3 "$1" "SELECT count(*) FROM reports WHERE type = 'lockdep-limit'"
}

# capacity_holds DB H TOL [SIZES]: each table the advice sizes (list
# entries, chains, chain hlocks, stack-trace entries; not the stack hash,
# whose bits follow the trace bits by ratio) has at most (100 - H) % of
# its max used, TOL % of its use allowed over; each printed, "holds" or
# "short". SIZES, a file of "table max" lines, replaces the boot's own
# max of those tables (the sizes another advice would have given).
capacity_holds() {
	"$BIN/lockdep-report" --db "$1" --capacity --json >"$1.cap" &&
	jq -r '.tables[] | select(.table == "list_entries" or .table == "chains"
		or .table == "chain_hlocks" or .table == "stack_trace_entries")
		| "\(.table) \(.used) \(.max)"' "$1.cap" >"$1.tables" &&
	test "$(wc -l <"$1.tables")" = 4 &&
	awk -v h="$2" -v tol="$3" '
		FILENAME != last { file++; last = FILENAME }
		file == 1 && ARGC > 2 { size[$1] = $2; next }
		{ max = ($1 in size) ? size[$1] : $3
		  free = 100 - 100 * $2 / max
		  ok = $2 * 100 * 100 <= max * (100 - h) * (100 + tol)
		  printf "%s: %d of %d, %.1f %% free (%s)\n", $1, $2, max, free,
			ok ? "holds" : "short"
		  if (!ok) bad = 1 }
		END { exit bad }' ${4:+"$4"} "$1.tables"
}
