#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='a kernel without our series: collect, graph and diff

The real /proc files of our 6.1 guest (tests/fixtures/6.1) as a kernel
without the series offers them: no graph export, no scenario module
(plain_proc_dir in lib.sh), as a proc directory and as the raw
directory an agent on such a kernel leaves. lockdep-collect stores
what there is, says once what the kernel does not offer and exits 3;
what was offered and arrived incomplete is still 1. lockdep-graph and
lockdep-diff (plain against the same files with the export) work from
/proc/lockdep alone and say what is missing.'
. "$(dirname "$0")/lib.sh"

FIX=$TOP/lockdep-tools/tests/fixtures/6.1
DB=$TRASH/db
q() { sqlite3 "$DB" "$1"; }
MISSING="sites, trace ids, dependency kinds, dependencies at distance > 1 or usage traces"

# plain_raw DIR: the raw directory of an agent on a plain kernel asked
# for --trigger ab_ba: the series' files missing (ENOENT), the trigger
# failed (ENOENT: no scenario module)
plain_raw() {
	local d=$1
	plain_proc_dir "$d/files/proc" &&
	mkdir -p "$d/files/sys/kernel" &&
	head -n 1 "$FIX/console.log" | sed "s/^\[[^]]*\] //" >"$d/files/proc/version" &&
	echo "console=ttyS0 panic=-1" >"$d/files/proc/cmdline" &&
	printf "CONFIG_PROVE_LOCKING=y\n" | gzip >"$d/files/proc/config.gz" &&
	printf "\004\000\000\000\024\000\000\000\003\000\000\000GNU\000" >"$d/files/sys/kernel/notes" &&
	printf "\001\043\105\147\211\253\315\357\001\043\105\147\211\253\315\357\001\043\105\147" >>"$d/files/sys/kernel/notes" &&
	echo "6,0,0,-;plain kernel" >"$d/kmsg" &&
	raw_manifest "$d" "kmsg complete 1 0 0 -" &&
	echo "trigger failed ab_ba ENOENT" >>"$d/MANIFEST"
}

test_expect_success 'proc directory of a plain kernel: stored complete, one line, exit 3' '
	plain_proc_dir plain &&
	collect_rc 3 --db "$DB" --proc-dir plain --label plain &&
	test "$(grep -c "does not offer" err)" = 1 &&
	grep -qx "lockdep-collect: this kernel does not offer: /sys/kernel/debug/lockdep/graph" err &&
	! grep -q "partial" err &&
	test "$(q "SELECT completeness || \"|\" || not_offered || \"|\" ||
		ifnull(partial_reason, \"-\") FROM boots WHERE label = '\''plain'\''")" = \
		"complete|/sys/kernel/debug/lockdep/graph|-" &&
	test "$(q "SELECT status || \" \" || reason FROM files
		WHERE path = '\''/sys/kernel/debug/lockdep/graph'\''")" = "missing ENOENT"
'

test_expect_success 'its graph: every class and "->" line of /proc/lockdep, nothing of the export' '
	test "$(q "SELECT count(*) FROM classes")" = "$(grep -c " FD: " "$FIX/lockdep")" &&
	test "$(q "SELECT count(*) FROM dependencies")" = "$(grep -c "^ -> " "$FIX/lockdep")" &&
	test "$(q "SELECT count(*) FROM dependencies WHERE dep_bits IS NOT NULL
		OR trace_id IS NOT NULL")" = 0 &&
	test "$(q "SELECT count(*) FROM graph_exports")" = 0
'

test_expect_success 'the same files with the export: exit 0, nothing said' '
	patched_proc_dir patched &&
	collect_rc 0 --db "$DB" --proc-dir patched --label patched &&
	! grep -q "does not offer" err &&
	test "$(q "SELECT ifnull(not_offered, \"NULL\") FROM boots
		WHERE label = '\''patched'\''")" = NULL
'

test_expect_success 'raw directory of a plain kernel with a trigger: 3, not partial' '
	plain_raw raw &&
	collect_rc 3 --db "$DB" --raw-dir raw --label raw &&
	grep -qx "lockdep-collect: this kernel does not offer: /sys/kernel/debug/lockdep/graph, /sys/kernel/debug/lockdep_scenarios/list, trigger ab_ba (no scenario module)" err &&
	test "$(grep -c "does not offer" err)" = 1 &&
	test "$(q "SELECT completeness FROM boots WHERE label = '\''raw'\''")" = complete &&
	q "SELECT not_offered FROM boots WHERE label = '\''raw'\''" |
		grep -q "trigger ab_ba (no scenario module)$"
'

test_expect_success 'an agent that did not list the export: not offered either' '
	rm -rf unl && cp -r raw unl &&
	sed -i "s|^file missing /sys/kernel/debug/lockdep/graph 0 ENOENT$|file missing /sys/kernel/debug/lockdep/graph 0 unlisted|" unl/MANIFEST &&
	grep -q "lockdep/graph 0 unlisted" unl/MANIFEST &&
	collect_rc 3 --db "$DB" --raw-dir unl --label unl &&
	grep -q "does not offer: /sys/kernel/debug/lockdep/graph," err
'

test_expect_success 'a kernel without CONFIG_LOCK_STAT: lock_stat not offered (3), not partial' '
	plain_proc_dir nols && rm nols/lock_stat &&
	collect_rc 3 --db "$DB" --proc-dir nols --label nols &&
	grep -qx "lockdep-collect: this kernel does not offer: /proc/lock_stat, /sys/kernel/debug/lockdep/graph" err &&
	test "$(q "SELECT completeness FROM boots WHERE label = '\''nols'\''")" = complete &&
	rm -rf rawnols && cp -r raw rawnols && rm rawnols/files/proc/lock_stat &&
	sed -i "s|^file complete /proc/lock_stat .*|file missing /proc/lock_stat 0 ENOENT|" rawnols/MANIFEST &&
	collect_rc 3 --db "$DB" --raw-dir rawnols --label rawnols &&
	grep -q "does not offer: /proc/lock_stat, /sys/kernel/debug/lockdep/graph," err &&
	# an empty copy is not "not offered": it was there, and lost
	plain_proc_dir emptyls && : >emptyls/lock_stat &&
	collect_rc 1 --db "$DB" --proc-dir emptyls --label emptyls
'

test_expect_success 'offered but incomplete is 1 even on a plain kernel; the line stays' '
	rm -rf cut && cp -r raw cut &&
	sed -i "s|^file complete /proc/lock_stat .*|file incomplete /proc/lock_stat 100 ECONNRESET|" cut/MANIFEST &&
	head -c 100 raw/files/proc/lock_stat >cut/files/proc/lock_stat.incomplete &&
	rm cut/files/proc/lock_stat &&
	collect_rc 1 --db "$DB" --raw-dir cut --label cut &&
	test "$(grep -c "does not offer" err)" = 1 &&
	grep -q "collection is partial: .*/proc/lock_stat. is incomplete (ECONNRESET)" err &&
	test "$(q "SELECT completeness FROM boots WHERE label = '\''cut'\''")" = partial
'

test_expect_success 'a failed trigger other than ENOENT is still partial' '
	rm -rf einval && cp -r raw einval &&
	sed -i "s|^trigger failed ab_ba ENOENT$|trigger failed ab_ba EINVAL|" einval/MANIFEST &&
	collect_rc 1 --db "$DB" --raw-dir einval --label einval &&
	grep -q "collection is partial: trigger .ab_ba. failed (EINVAL)" err &&
	grep -qx "lockdep-collect: this kernel does not offer: /sys/kernel/debug/lockdep/graph, /sys/kernel/debug/lockdep_scenarios/list" err
'

test_expect_success 'lockdep-graph on the plain boot: the graph, and what it lacks' '
	"$BIN/lockdep-graph" --db "$DB" --boot plain --cycles --list >out &&
	echo "boot 1 (plain) has no graph export: dependencies from /proc/lockdep alone, without $MISSING" >expect &&
	echo "0 cycles" >>expect &&
	test_cmp expect out &&
	"$BIN/lockdep-graph" --db "$DB" --boot plain --max-nodes 0 >g.dot &&
	test "$(grep -c -- "-> n" g.dot)" = "$(grep -c "^ -> " "$FIX/lockdep")" &&
	grep -q "label=\"boot 1 (plain) has no graph export:" g.dot &&
	"$BIN/lockdep-graph" --db "$DB" --boots plain,patched --cycles --json >g.json &&
	python3 - g.json <<-\EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	b = {x["label"]: x for x in d["boots"]}
	assert b["plain"]["graph_export"] is False, b
	assert b["plain"]["missing"] == ["sites", "trace_ids", "dependency_kinds",
		"distant_dependencies", "usage_traces"], b
	assert b["patched"]["graph_export"] is True and b["patched"]["missing"] == [], b
	EOF
'

test_expect_success 'a database of older tools, the export missing by its /proc name: the same' '
	cp "$DB" old.db &&
	sqlite3 old.db "UPDATE files SET path = '\''/proc/lockdep_graph'\''
		WHERE path = '\''$GRAPH_PATH'\''" &&
	test "$(sqlite3 old.db "SELECT count(*) FROM files
		WHERE path = '\''/proc/lockdep_graph'\''")" -gt 0 &&
	"$BIN/lockdep-graph" --db old.db --boot plain --cycles --list >out &&
	echo "boot 1 (plain) has no graph export: dependencies from /proc/lockdep alone, without $MISSING" >expect &&
	echo "0 cycles" >>expect &&
	test_cmp expect out
'

test_expect_success 'lockdep-graph on the patched boot says nothing of the kind' '
	"$BIN/lockdep-graph" --db "$DB" --boot patched --cycles --list >out &&
	echo "0 cycles" >expect && test_cmp expect out &&
	"$BIN/lockdep-graph" --db "$DB" --boot patched >p.dot &&
	! grep -q "graph export" p.dot
'

test_expect_success 'lockdep-diff plain against patched: distance 1 only, said so' '
	far=$(q "SELECT count(*) FROM dependencies d JOIN boots b ON b.id = d.boot_id
		WHERE b.label = '\''patched'\'' AND d.distance > 1") &&
	test "$far" -gt 0 &&
	"$BIN/lockdep-diff" --db "$DB" plain patched >out &&
	sed -n 2p out >line &&
	echo "A has no graph export: dependencies from /proc/lockdep alone, without $MISSING" >expect &&
	test_cmp expect line &&
	grep -qx "  (distance 1 only, as /proc/lockdep shows them: 0 of A and $far of B at distance > 1 left out)" out &&
	"$BIN/lockdep-diff" --db "$DB" --json plain patched >d.json &&
	python3 - d.json "$DB" patched <<-\EOF
	import json, sqlite3, sys
	d = json.load(open(sys.argv[1]))
	db = sqlite3.connect(sys.argv[2])
	assert d["a"]["graph_export"] is False and len(d["a"]["missing"]) == 5, d["a"]
	assert d["b"]["graph_export"] is True and d["b"]["missing"] == [], d["b"]
	assert d["dependencies"]["distance_1_only"] is True
	# no added dependency is one only the export could show
	far = set(db.execute("""SELECT f.identity, t.identity FROM dependencies d
		JOIN classes f ON f.id = d.from_class JOIN classes t ON t.id = d.to_class
		JOIN boots b ON b.id = d.boot_id
		WHERE b.label = ? AND d.distance > 1""", (sys.argv[3],)))
	added = {(e["from"], e["to"]) for e in d["dependencies"]["added"]}
	assert added and not (added & far), (added & far)
	n = db.execute("""SELECT count(*) FROM dependencies d JOIN boots b
		ON b.id = d.boot_id WHERE b.label = ? AND d.distance > 1""",
		(sys.argv[3],)).fetchone()[0]
	assert d["b"]["left_out_dependencies"] == n, (d["b"], n)
	EOF
'

test_expect_success 'lockdep-diff of two patched boots compares everything' '
	"$BIN/lockdep-diff" --db "$DB" patched patched >out &&
	! grep -q "graph export\|distance 1 only" out
'

test_done
