#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='--boot: one resolver for every tool

lockdep-graph, lockdep-diff and lockdep-report name a boot the same
way: an id, else a label. A label that two boots carry (lockdep-merge of
two databases that both have boot "idle-1" makes one) is an error naming
both ids, in every tool; none of them picks one of the two in silence.'
. "$(dirname "$0")/lib.sh"

FIX=$TOP/lockdep-tools/tests/fixtures/6.1
collect() { "$BIN/lockdep-collect" "$@" 2>/dev/null; }

test_expect_success 'setup: boots 1 and 2 labelled idle-1, boot 3 other' '
	collect --db "$TRASH/b.db" --proc-dir "$FIX" --label idle-1 >/dev/null &&
	collect --db "$TRASH/b.db" --proc-dir "$FIX" --label idle-1 >/dev/null &&
	collect --db "$TRASH/b.db" --proc-dir "$FIX" --label other >/dev/null &&
	sqlite3 "$TRASH/b.db" "SELECT id, label FROM boots ORDER BY id" >boots &&
	printf "%s\n" "1|idle-1" "2|idle-1" "3|other" >expect &&
	test_cmp expect boots
'

# ambiguous TOOL ARGS...: exits 2 saying which boots carry the label
ambiguous() {
	test_expect_code 2 "$@" >out 2>err &&
	grep -q "label .idle-1. names boots 1 and 2" err
}

test_expect_success 'an ambiguous label is an error naming the ids, in every tool' '
	DB=$TRASH/b.db &&
	ambiguous "$BIN/lockdep-graph" --db "$DB" --boot idle-1 &&
	ambiguous "$BIN/lockdep-graph" --db "$DB" --boots other,idle-1 &&
	ambiguous "$BIN/lockdep-diff" --db "$DB" idle-1 other &&
	ambiguous "$BIN/lockdep-diff" --db "$DB" other idle-1 &&
	ambiguous "$BIN/lockdep-report" --db "$DB" --boot idle-1
'

test_expect_success 'a label or an id names the same boot in every tool' '
	DB=$TRASH/b.db &&
	for b in other 3; do
		"$BIN/lockdep-graph" --db "$DB" --boot $b --json >g.json &&
		grep -q "\"boots\":\[{\"id\":3,\"label\":\"other\"" g.json &&
		"$BIN/lockdep-report" --db "$DB" --boot $b >r.txt &&
		grep -q "^boot 3 (other): " r.txt &&
		"$BIN/lockdep-diff" --db "$DB" 1 $b >d.txt &&
		grep -q "^B: boot 3 (other)" d.txt || return 1
	done
'

test_expect_success 'an id wins over a label that reads as a number' '
	collect --db n.db --proc-dir "$FIX" --label 2 >/dev/null &&
	collect --db n.db --proc-dir "$FIX" --label x >/dev/null &&
	"$BIN/lockdep-report" --db n.db --boot 2 >r.txt &&
	grep -q "^boot 2 (x): " r.txt
'

test_expect_success 'no such boot: exit 2, the same words in every tool' '
	DB=$TRASH/b.db &&
	for t in "lockdep-graph --db $DB --boot" "lockdep-report --db $DB --boot" \
		 "lockdep-diff --db $DB 1"; do
		test_expect_code 2 $BIN/$t nosuch >out 2>err &&
		grep -q "no boot .nosuch. in .*b.db" err &&
		test_expect_code 2 $BIN/$t 99 >out 2>err &&
		grep -q "no boot 99 in .*b.db" err || return 1
	done
'

test_done
