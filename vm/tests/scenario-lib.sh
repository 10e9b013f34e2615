# SPDX-License-Identifier: GPL-2.0
# Helpers for the boot tests that drive the scenario module; sourced after
# lockdep-tools/tests/t/lib.sh.

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
# others are the kernel's own: with lockdep.check_unlock_order=1, kernel
# code that releases out of order on purpose reports too.
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
