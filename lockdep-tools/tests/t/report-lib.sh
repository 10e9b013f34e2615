# SPDX-License-Identifier: GPL-2.0
# Helpers for the lockdep-report tests; sourced after lib.sh.

# json_summary FILE: from lockdep-report --pretty output, one line per
# report: "type<TAB>truncated<TAB>lock,lock,...<TAB>chain,chain,..."
# (lock names distinct, in order of appearance). Relies on the pretty
# layout: report keys at 4 spaces, lock keys at 8, chain entries at 6.
json_summary() {
	awk '
	function str(s) {
		sub(/^[^:]*: "/, "", s); sub(/",?$/, "", s)
		gsub(/\\"/, "\"", s); gsub(/\\\\/, "\\", s)
		return s
	}
	function flush() {
		if (type != "")
			printf "%s\t%s\t%s\t%s\n", type, trunc, locks, chain
		type = ""; trunc = ""; locks = ""; chain = ""; delete seen
	}
	/^  \{$/ { flush() }
	/^    "type": / { type = str($0) }
	/^    "truncated": / { trunc = $2; sub(/,$/, "", trunc) }
	/^        "name": / {
		n = str($0)
		if (!(n in seen)) { seen[n] = 1; locks = locks (locks == "" ? "" : ",") n }
	}
	/^    "chain": \[$/ { inchain = 1; next }
	inchain && /^    \]/ { inchain = 0 }
	inchain { c = $0; sub(/^ *"/, "", c); sub(/",?$/, "", c); chain = chain (chain == "" ? "" : ",") c }
	END { flush() }
	' "$1"
}

# sorted_set "a,b,c": the comma-separated names one per line, sorted
sorted_set() {
	printf '%s\n' "$1" | tr ',' '\n' | sed '/^$/d' | LC_ALL=C sort -u
}

# hostile_log FILE: a recursive-locking report whose lock names carry a
# quote, a backslash, an escape sequence, a control byte, invalid UTF-8
# and 100000 characters; the report is cut before its backtrace.
hostile_log() {
	{
		printf 'WARNING: possible recursive locking detected\n'
		printf 'a/1 is trying to acquire lock:\n'
		printf 'ffff888020d36378 (q"uo\\te\033[31m\001x){+.+.}-{3:3}, at: f+0x1/0x2\n'
		printf 'but task is already holding lock:\n'
		printf 'ffff888020d36378 (\303\050\377){....}, at: g+0x1/0x2\n'
		printf 'ffff888020d36379 ('
		head -c 100000 /dev/zero | tr '\0' A
		printf '){....}, at: g+0x1/0x2\n'
	} >"$1"
}

# json_titles FILE: from lockdep-report --pretty output, one line per
# report: "title<TAB>syzbot_title" ("null" for a JSON null).
json_titles() {
	awk '
	function str(s) {
		if (s ~ /: null,?$/) return "null"
		sub(/^[^:]*: "/, "", s); sub(/",?$/, "", s)
		gsub(/\\"/, "\"", s); gsub(/\\\\/, "\\", s)
		return s
	}
	/^    "title": / { t = str($0) }
	/^    "syzbot_title": / { printf "%s\t%s\n", t, str($0) }
	' "$1"
}
