#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-report --db on a database whose indexes point nowhere

A report is stored as rows that point at each other by index
(report_chain.lock_idx, .stack_idx, report_stacks.lock_idx,
reports.backtrace, report_frames.owner_idx, frame_inlines.frame_idx). A
database is untrusted input: an index that is NULL where one is needed,
or that names no row of the report, is an error naming the database,
the report and the column, in text and in JSON (exit 2); nothing is
read from outside an array (run it with the ASan+UBSan build).'
. "$(dirname "$0")/lib.sh"

report() { "$BIN/lockdep-report" "$@"; }

test_expect_success 'setup: a database with a circular-dependency report' '
	"$BIN/lockdep-collect" --db good.db --log "$CORPUS/034-circular.txt" >id &&
	test "$(sqlite3 good.db "SELECT count(*) FROM report_chain")" -gt 0 &&
	report --db good.db --all >out &&
	grep -q "existing dependency chain" out
'

# bad SQL WHAT: good.db edited by SQL is refused, with WHAT in the error
bad() {
	cp good.db bad.db &&
	sqlite3 bad.db "$1" &&
	for args in --all "--all --json" --show=1 "--show=1 --json"; do
		test_expect_code 2 report --db bad.db $args >out 2>err &&
		grep -q "^lockdep-report: error: .bad.db.: report 1: $2" err &&
		! grep -q "no report" err ||
		{ echo "args: $args"; cat err; return 1; }
	done
}

test_expect_success 'a chain link whose lock is out of range or NULL' '
	bad "UPDATE report_chain SET lock_idx = 1000" \
		"report_chain.lock_idx 1000 names no row of" &&
	bad "UPDATE report_chain SET lock_idx = -1" \
		"report_chain.lock_idx -1 names no row of" &&
	bad "UPDATE report_chain SET lock_idx = NULL" "report_chain.lock_idx is NULL"
'

test_expect_success 'a chain link whose stack is out of range or NULL' '
	bad "UPDATE report_chain SET stack_idx = 99" \
		"report_chain.stack_idx 99 names no row of" &&
	bad "UPDATE report_chain SET stack_idx = NULL" "report_chain.stack_idx is NULL"
'

test_expect_success 'a stack, the backtrace, a frame or an inline frame pointing nowhere' '
	bad "UPDATE report_stacks SET lock_idx = 77 WHERE idx = 0" \
		"report_stacks.lock_idx 77 names no row of" &&
	bad "UPDATE reports SET backtrace = 55" "reports.backtrace 55 names no row of" &&
	bad "UPDATE report_frames SET owner_idx = owner_idx + 100 WHERE owner = '"'stack'"'" \
		"report_frames.owner_idx 10[0-9] names no row of" &&
	if [ "$(sqlite3 good.db "SELECT count(*) FROM frame_inlines")" -gt 0 ]; then
		bad "UPDATE frame_inlines SET frame_idx = 1000" \
			"frame_inlines.frame_idx 1000 names no row of"
	fi
'

test_expect_success 'NULL where the schema allows it is still read' '
	cp good.db ok.db &&
	sqlite3 ok.db "UPDATE report_stacks SET lock_idx = NULL; UPDATE reports SET backtrace = NULL" &&
	report --db ok.db --all >out &&
	report --db ok.db --all --json >out.json &&
	grep -q "existing dependency chain" out
'

test_expect_success 'a report id past 32 bits does not borrow the rows of report 1' '
	cp good.db two.db &&
	"$BIN/lockdep-collect" --db two.db --log "$CORPUS/016-recursive.txt" >id &&
	test "$(cat id)" = 2 &&
	sqlite3 two.db "UPDATE reports SET id = 4294967297 WHERE boot_id = 2" &&
	test_expect_code 2 report --db two.db --boot=2 >out 2>err &&
	grep -q "^lockdep-report: error: .two.db.: report id 4294967297 is out of range" err &&
	! grep -q memory_chain out
'

test_done
