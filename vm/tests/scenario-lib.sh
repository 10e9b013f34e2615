# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Helpers for the boot tests that drive the scenario module; sourced after
# lockdep-tools/tests/t/lib.sh.

# Every banner a lockdep violation report starts with.
REPORT_BANNERS='WARNING: (possible circular locking dependency|possible recursive locking|inconsistent lock state|[A-Z-]*-safe -> [A-Z-]*-unsafe lock order|possible irq lock inversion|bad unlock balance|bad contention|held lock freed|.* still has locks held|lock held when returning to user space|bad unlock order|Nested lock was not taken)|\[ BUG: Invalid wait context \]'

# ldstat RAW NAME: a value of the collected /proc/lockdep_stats.
ldstat() {
	sed -n "s/^ *$2: *\([0-9]*\).*/\1/p" "$1/files/proc/lockdep_stats"
}

# segment NAME CONSOLE: the console from scenario NAME's run line up to the
# next scenario's run line.
segment() {
	awk -v name="$1" '
		index($0, "test_lockdep_scenarios: run " name ":") { on = 1; print; next }
		on && index($0, "test_lockdep_scenarios: run ") { exit }
		on { print }
	' "$2"
}

# scenario_log LOG OUT: the lockdep reports of LOG that have a frame in
# the scenario module, as LOG printed them, into OUT (empty if none). The
# others are the kernel's own, and belong to no scenario.
scenario_log() {
	"$BIN/lockdep-report" --pretty "$1" 2>/dev/null | awk '
		/^  \{$/ { first = 0; last = 0; ours = 0 }
		/^    "first_line": / { first = $2 + 0 }
		/^    "last_line": / { last = $2 + 0 }
		/"module": "test_lockdep_scenarios"/ { ours = 1 }
		/^  \},?$/ { if (ours) print first "," last "p" }
	' >"$2.lines"
	if [ -s "$2.lines" ]; then
		sed -n -f "$2.lines" "$1" >"$2"
	else
		: >"$2"
	fi
	rm -f "$2.lines"
}

# reporting_scenarios: the scenarios a report_all boot runs in one go,
# each with the report it must give (none for those that must stay
# clean). ba-order is left out: with ab-order it closes a cycle (that
# is its purpose), and bench only measures. Each name must be on the
# module's list with the report given here.
reporting_scenarios() {
	cat <<'EOF'
aa possible recursive locking
abba possible circular locking dependency
abbcca possible circular locking dependency
abcdbcda possible circular locking dependency
hardirq-safe-unsafe -safe -> [A-Z-]*-unsafe lock order
softirq-safe-unsafe -safe -> [A-Z-]*-unsafe lock order
irq-inversion possible irq lock inversion
inconsistent-softirq inconsistent lock state
rwlock-read-recursion possible recursive locking
rwsem-read-recursion possible recursive locking
bad-unlock bad unlock balance
held-lock-freed held lock freed
user-return lock held when returning to user space
i-mutex possible recursive locking
mm-ptl possible recursive locking
unlock-order bad unlock order
rcu-deref suspicious RCU usage
rwlock-read-recursion-softirq
i-mutex-nested
mm-ptl-nested
unlock-order-non-nested
ab-order
EOF
}
