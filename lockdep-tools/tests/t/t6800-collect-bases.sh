#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='the real files of every kernel base the series is kept for

tests/fixtures/VERSION/ (vm/regen-fixtures.sh, a boot of the series on
that base: 6.1, and 6.12 once written with KERNEL_SOURCE=linux-source-6.12)
as the raw directory an agent leaves, its console
log as the kernel log. Every count and value the tools store is checked
against the file it came from, counted here with grep and awk: classes
and "->" lines of /proc/lockdep, chains, every lockdep_stats line, the
lock_stat classes, the self-test cells, and the counts record of the
graph export.'
. "$(dirname "$0")/lib.sh"

DB=$TRASH/db
q() { sqlite3 "$DB" "$1"; }

# collect ARGS: lockdep-collect stores the boot, 0 or 3 (a file the
# kernel does not offer)
collect() {
	test_expect_code 0,3 "$BIN/lockdep-collect" "$@" >id 2>err || { cat err; return 1; }
}

for FIX in "$TOP"/lockdep-tools/tests/fixtures/[0-9]*/; do
	FIX=${FIX%/}
	v=${FIX##*/}
	export FIX v

	test_expect_success "$v: stored complete, release of its console" '
		raw_from_fixtures raw "$FIX" &&
		collect --db "$DB" --raw-dir raw --label "$v" &&
		rel=$(sed -n "1s/.*Linux version \([^ ]*\) .*/\1/p" "$FIX/console.log") &&
		test -n "$rel" &&
		test "$(q "SELECT completeness || \" \" || kernel_release FROM boots
			WHERE label = '\''$v'\''")" = "complete $rel"
	'

	test_expect_success "$v: every class and \"->\" line of /proc/lockdep" '
		b=$(q "SELECT id FROM boots WHERE label = '\''$v'\''") &&
		test "$(q "SELECT count(*) FROM classes WHERE boot_id = $b")" = \
			"$(grep -c " FD: " "$FIX/lockdep")" &&
		test "$(q "SELECT count(*) FROM dependencies WHERE boot_id = $b")" = \
			"$(grep -c "^ -> " "$FIX/lockdep")"
	'

	test_expect_success "$v: every chain of lockdep_chains" '
		b=$(q "SELECT id FROM boots WHERE label = '\''$v'\''") &&
		test "$(q "SELECT count(*) FROM chains WHERE boot_id = $b")" = \
			"$(grep -c "^irq_context" "$FIX/lockdep_chains")" &&
		test "$(q "SELECT count(*) FROM chain_classes JOIN chains
			ON chains.id = chain_id WHERE boot_id = $b")" = \
			"$(grep -c "^\[" "$FIX/lockdep_chains")"
	'

	test_expect_success "$v: every lockdep_stats line, name and value" '
		b=$(q "SELECT id FROM boots WHERE label = '\''$v'\''") &&
		sed -n "s/^ *\([^:]*[^: ]\): *\([0-9][0-9]*\).*/\1|\2/p" \
			"$FIX/lockdep_stats" >want &&
		test "$(wc -l <want)" -gt 20 &&
		q "SELECT name || \"|\" || value FROM stats WHERE boot_id = $b
			ORDER BY idx" >got &&
		test_cmp want got
	'

	test_expect_success "$v: every class of lock_stat" '
		b=$(q "SELECT id FROM boots WHERE label = '\''$v'\''") &&
		awk "\$0 ~ /^ *[^ ].*: +[0-9]/ && NF >= 12 { n++ } END { print n }" \
			"$FIX/lock_stat" >want &&
		q "SELECT count(*) FROM lock_stat WHERE boot_id = $b" >got &&
		test "$(cat want)" -gt 0 &&
		test_cmp want got
	'

	test_expect_success "$v: the self-tests, every cell passed" '
		b=$(q "SELECT id FROM boots WHERE label = '\''$v'\''") &&
		test "$(q "SELECT outcome FROM selftest_summary WHERE boot_id = $b")" = all-passed &&
		test "$(q "SELECT count(*) FROM selftest WHERE boot_id = $b
			AND result = '\''ok'\''")" = "$(grep -o "  ok  |" "$FIX/console.log" | wc -l)" &&
		test "$(q "SELECT count(*) FROM selftest WHERE boot_id = $b
			AND result != '\''ok'\''")" = 0
	'

	if [ -f "$FIX/lockdep_graph" ]; then
		test_expect_success "$v: the graph export, as its counts record says" '
			raw_from_fixtures graw "$FIX" graph &&
			collect --db "$DB" --raw-dir graw --label "$v-graph" &&
			b=$(q "SELECT id FROM boots WHERE label = '\''$v-graph'\''") &&
			awk "\$1 == \"counts\" { print \$2, \$3, \$4, \$5 }" "$FIX/lockdep_graph" >want &&
			q "SELECT classes || \" \" || deps || \" \" || chains || \" \" || traces
				FROM graph_exports WHERE boot_id = $b AND complete = 1" >got &&
			test_cmp want got &&
			test "$(q "SELECT count(*) FROM classes WHERE boot_id = $b
				AND graph_idx IS NOT NULL")" = "$(cut -d" " -f1 want)"
		'
	fi
done


test_done
