#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='one number parser for every option that takes a count or an id

Counts, ids and seconds on a command line are digits only (util/parse-num.h):
no sign, no leading space, no trailing junk, no wrap-around. Each tool
refused a different subset of "+7", " 7", "-1" and "7x" before.'
. "$(dirname "$0")/lib.sh"

FIX=$TOP/lockdep-tools/tests/fixtures/6.1

test_expect_success 'setup: a database of one boot' '
	"$BIN/lockdep-collect" --db "$TRASH/n.db" \
		--proc-dir "$FIX" --label one >/dev/null 2>&1
'

# refused ARG TOOL ARGS...: TOOL ARGS with ARG in place of N is a usage
# error (64), for every bad spelling of a number
refused() {
	local bad args
	for bad in "+7" " 7" "7 " "-1" "7x" "" "99999999999999999999999"; do
		args=()
		for a in "$@"; do
			args+=("${a//N/$bad}")
		done
		test_expect_code 64 "${args[@]}" >out 2>err ||
		{ echo "accepted: [$bad] in $*"; return 1; }
	done
}

test_expect_success 'lockdep-graph: --radius, --report, --max-cycles, --max-nodes' '
	DB=$TRASH/n.db &&
	refused "$BIN/lockdep-graph" --db "$DB" --class console_lock --radius=N &&
	refused "$BIN/lockdep-graph" --db "$DB" --report=N &&
	refused "$BIN/lockdep-graph" --db "$DB" --max-cycles=N &&
	refused "$BIN/lockdep-graph" --db "$DB" --max-nodes=N
'

test_expect_success 'lockdep-diff --max-cycles, lockdep-report --show' '
	DB=$TRASH/n.db &&
	refused "$BIN/lockdep-diff" --db "$DB" --max-cycles=N 1 1 &&
	refused "$BIN/lockdep-report" --db "$DB" --show=N
'

test_expect_success 'lockdep-collect --timeout, --duration' '
	refused "$BIN/lockdep-collect" --socket "$TRASH/none" --db c.db --timeout=N &&
	refused "$BIN/lockdep-collect" --socket "$TRASH/none" --db c.db --duration=N
'

test_expect_success 'a plain number still works' '
	DB=$TRASH/n.db &&
	"$BIN/lockdep-graph" --db "$DB" --max-nodes=7 --max-cycles=0 >/dev/null &&
	"$BIN/lockdep-diff" --db "$DB" --max-cycles=7 1 1 >/dev/null
'

test_done
