#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-report --capacity on a real 6.1 boot

The real /proc files and graph export of tests/fixtures/6.1, collected
with lockdep-collect --db. Each table the tool counts is checked against
the export file itself (an oracle written here in Python over the
records: a class is one lock_classes[] entry, a dependency two list
entries, a chain one chain and max(depth, 2) chain hlocks, a trace nr + 3
stack trace entries), and so are the top consumers and shapes it names.
The fixture export is cut to 200 classes (fixtures/README.proc) while
lockdep_stats is the whole boot'"'"'s: the tool must say they differ. Then
bad input: lockdep_stats with lines no kernel we know prints, no
lockdep_stats, no export, a limit report with no snapshot; the advice
and its Kconfig fragment.'
. "$(dirname "$0")/lib.sh"

DB=$TRASH/db
GRAPH=$FIX61/lockdep_graph
report() { "$BIN/lockdep-report" "$@"; }
collect() { "$BIN/lockdep-collect" "$@" >/dev/null 2>&1; }

# oracle KEY: what the export file says, computed from its records
oracle() {
	python3 - "$GRAPH" "$1" <<-\EOF
	import collections, sys
	path, what = sys.argv[1], sys.argv[2]
	names, deps, chains, traces = {}, [], [], []
	for line in open(path):
	    f = line.split()
	    if f[0] == "class":
	        name = " ".join(f[8:])
	        ver, sub = int(f[3]), int(f[4])
	        printed = name + ("#%d" % ver if ver > 1 else "") + ("/%d" % sub if sub else "")
	        names[int(f[1])] = (name, printed)
	    elif f[0] == "dep":
	        deps.append((int(f[1]), int(f[2])))
	    elif f[0] == "chain":
	        chains.append([int(x) for x in f[4:]])
	    elif f[0] == "trace":
	        traces.append(int(f[2]))
	if what == "tables":
	    print(len(names), 2 * len(deps), len(chains),
	          sum(max(len(c), 2) for c in chains), sum(n + 3 for n in traces))
	elif what == "list_entries":    # the class in most dependencies
	    n = collections.Counter()
	    for a, b in deps:
	        n[names[a][1]] += 1
	        n[names[b][1]] += 1
	    print(max(n.values()), " ".join(sorted(k for k, v in n.items() if v == max(n.values()))))
	elif what == "chains":          # the class most chains end with
	    n = collections.Counter(names[c[-1]][1] for c in chains)
	    print(max(n.values()), " ".join(sorted(k for k, v in n.items() if v == max(n.values()))))
	elif what == "one_name":        # the name of most classes
	    n = collections.Counter(v[0] for v in names.values())
	    print(max(n.values()), " ".join(sorted(k for k, v in n.items() if v == max(n.values()))))
	elif what == "same_name_chains":
	    n = collections.Counter()
	    for c in chains:
	        seen = collections.Counter(names[i][0] for i in c)
	        for k, v in seen.items():
	            if v > 1:
	                n[k] += 1
	    print(sum(n.values()))
	elif what == "orders":          # sets of classes chained in 2+ orders
	    orders = collections.defaultdict(set)
	    for c in chains:
	        if len(c) > 1:
	            orders[tuple(sorted(c))].add(tuple(c))
	    print(sorted((len(v), ", ".join(names[i][1] for i in k))
	                 for k, v in orders.items() if len(v) > 1))
	EOF
}

# field JSON EXPR: a value of the --capacity JSON in ./cap.json
field() {
	python3 -c "import json, sys
d = json.load(open(\"cap.json\"))
t = {x[\"table\"]: x for x in d[\"tables\"]}
s = d[\"shapes\"]
print($1)"
}

test_expect_success 'setup: the real 6.1 boot with its export' '
	patched_proc_dir "$TRASH/p" &&
	collect --db "$DB" --proc-dir "$TRASH/p" --label real
'

test_expect_success 'each table counted from the rows equals the export oracle' '
	report --db "$DB" --capacity --json >cap.json &&
	oracle tables >expect &&
	field "\" \".join(str(t[k][\"counted\"]) for k in (\"classes\", \"list_entries\", \"chains\", \"chain_hlocks\", \"stack_trace_entries\"))" >actual &&
	test_cmp expect actual &&
	field "t[\"stack_trace_hash_chains\"][\"counted\"]" >hash &&
	echo None >expect && test_cmp expect hash
'

test_expect_success 'used and max are lockdep_stats'"'"', and the tool says the cut export differs' '
	field "t[\"classes\"][\"used\"], t[\"classes\"][\"max\"], t[\"list_entries\"][\"used\"], t[\"stack_trace_entries\"][\"used\"]" >actual &&
	echo "405 8192 1770 42002" >expect &&
	test_cmp expect actual &&
	report --db "$DB" --capacity >out &&
	grep "^classes  *405  *8192  *4.9%  200 (differs)$" out &&
	grep "^note: boot 1: the export counts 200 classes, lockdep_stats 405" out
'

test_expect_success 'the top consumer by class: list entries and chains, as the export has them' '
	for t in list_entries chains; do
		oracle $t >o &&
		read -r rows names <o &&
		field "t[\"$t\"][\"consumers\"][\"class\"][0][\"rows\"], t[\"$t\"][\"consumers\"][\"class\"][0][\"name\"]" >top &&
		read -r got name <top &&
		test "$got" = "$rows" &&
		case " $names " in *" $name "*) ;; *) echo "$name not in $names"; false ;; esac ||
		return 1
	done
'

test_expect_success 'every grouping sums to its table (consumers and classes no longer referred to)' '
	report --db "$DB" --capacity --json --top=1000 >cap.json &&
	field "all(sum(c[\"rows\"] for c in x[\"consumers\"][g]) == x[\"counted\"] for x in d[\"tables\"] if x[\"counted\"] for g in x[\"consumers\"])" >ok &&
	echo True >expect && test_cmp expect ok
'

test_expect_success 'shapes: the name of most classes, and the chains of one name held twice' '
	report --db "$DB" --capacity --json --top=1000 >cap.json &&
	oracle one_name >o && read -r n names <o &&
	field "[x for x in s if x[\"shape\"] == \"one_name\"][0][\"count\"], [x for x in s if x[\"shape\"] == \"one_name\"][0][\"subject\"]" >top &&
	read -r got name <top &&
	test "$got" = "$n" &&
	case " $names " in *" $name "*) ;; *) false ;; esac &&
	oracle same_name_chains >expect &&
	field "sum(x[\"count\"] for x in s if x[\"shape\"] == \"same_name_chains\")" >actual &&
	test_cmp expect actual &&
	field "[x[\"takes\"] for x in s if x[\"shape\"] == \"one_name\"][0][0]" >takes &&
	grep ".classes., .rows.: $n, .of.: 200" takes
'

test_expect_success 'the headroom line names the fullest table and its top consumer' '
	report --db "$DB" --capacity >out &&
	grep "^headroom: fullest table stack trace entries 8.0 % (42002 of 524288); top consumer [^ ].* % of it$" out
'

test_expect_success 'a table near full: its option raised, the cost said, the fragment written' '
	cp -r "$TRASH/p" q &&
	sed -i "s/^ direct dependencies: *1770 \[max: 32768\]/ direct dependencies:                 30000 [max: 32768]/" q/lockdep_stats &&
	grep -q " 30000 \[max: 32768\]" q/lockdep_stats &&
	collect --db "$DB" --proc-dir q --label full &&
	report --db "$DB" --boot full --capacity --fragment frag >out &&
	grep "^  rule: capacity-bits$" out &&
	grep "^    + CONFIG_LOCKDEP_BITS=16$" out &&
	grep "^  change: 50 % of the table free for this workload: 3.5 MiB of lockdep.s tables instead of 1.8 MiB$" out &&
	grep -x "CONFIG_LOCKDEP_BITS=16" frag &&
	grep -x "CONFIG_LOCKDEP_CHAINS_BITS=16" frag &&
	grep -x "CONFIG_LOCKDEP_STACK_TRACE_BITS=19" frag &&
	test "$(grep -c "^CONFIG_" frag)" = 4 &&
	report --db "$DB" --boot full --capacity --headroom=0 --fragment frag >out &&
	grep "^  rule: capacity-fits$" out &&
	grep -x "CONFIG_LOCKDEP_BITS=15" frag
'

test_expect_success 'a union of boots: each table at its fullest boot' '
	report --db "$DB" --capacity --boots=real,full --json >cap.json &&
	field "d[\"boots\"], t[\"list_entries\"][\"used\"], t[\"classes\"][\"counted\"]" >actual &&
	echo "[1, 2] 30000 200" >expect &&
	test_cmp expect actual
'

test_expect_success 'lockdep_stats lines no kernel we know prints: kept and shown' '
	cp -r "$TRASH/p" u &&
	printf " future table:                  17 [max: 64]\n frobnications:                   9\n" >>u/lockdep_stats &&
	collect --db "$DB" --proc-dir u --label unknown &&
	report --db "$DB" --boot unknown --capacity >out &&
	grep "^other: future table 17 of 64 " out &&
	grep "^other: frobnications 9 " out &&
	report --db "$DB" --boot unknown --capacity --json >cap.json &&
	field "[(o[\"name\"], o[\"value\"], o[\"max\"]) for o in d[\"other_stats\"]]" >actual &&
	echo "[('"'"'future table'"'"', 17, 64), ('"'"'frobnications'"'"', 9, None)]" >expect &&
	test_cmp expect actual
'

test_expect_success 'no lockdep_stats: used is the export'"'"'s count, limits unknown, said' '
	cp -r "$TRASH/p" n && rm n/lockdep_stats &&
	test_expect_code 1 "$BIN/lockdep-collect" --db "$DB" --proc-dir n --label nostats >/dev/null 2>&1 &&
	report --db "$DB" --boot nostats --capacity >out &&
	grep "^note: boot [0-9]* has no lockdep_stats" out &&
	grep "^headroom: no table with a known limit$" out &&
	grep "^  rule: capacity-fits (unsure)$" out &&
	report --db "$DB" --boot nostats --capacity --json >cap.json &&
	field "t[\"classes\"][\"used\"], t[\"classes\"][\"counted\"], t[\"classes\"][\"max\"]" >actual &&
	echo "None 200 None" >expect &&
	test_cmp expect actual
'

test_expect_success 'no export (a kernel without our series): the tables from lockdep_stats, no consumers' '
	plain_proc_dir pl &&
	test_expect_code 3 "$BIN/lockdep-collect" --db "$DB" --proc-dir pl --label plain >/dev/null 2>&1 &&
	report --db "$DB" --boot plain --capacity >out &&
	grep "has no graph export" out &&
	grep "^classes  *405  *8192  *4.9%  not counted (no export)$" out &&
	! grep "top consumers" out
'

test_expect_success 'a limit report with no snapshot of its moment, lockdep off: said, counts a lower bound' '
	raw_from_fixtures raw "$FIX61" graph &&
	# lockdep turned itself off when it printed the report
	sed -i "s/^\( debug_locks: *\)1$/\10/" raw/files/proc/lockdep_stats &&
	grep -q "^ debug_locks: *0$" raw/files/proc/lockdep_stats &&
	{ cat "$FIX61/console.log"
	  printf "[   41.100000] %s\n" "BUG: MAX_LOCKDEP_ENTRIES too low!" \
		"turning off the locking correctness validator." \
		"CPU: 1 PID: 120 Comm: stress-ng Not tainted 6.1.192+ #1" \
		"Call Trace:" " <TASK>" " dump_stack_lvl+0x45/0x5d" \
		" add_lock_to_list+0x9b/0xc0" " __lock_acquire+0x1f1e/0x2040" \
		" </TASK>"; } |
		kmsg_from_log 0 >raw/kmsg &&
	n=$(wc -l <raw/kmsg) &&
	raw_manifest raw "kmsg complete $n 0 $((n - 1)) -" &&
	test_expect_code 3 "$BIN/lockdep-collect" --db "$DB" --raw-dir raw --label limit >/dev/null 2>&1 &&
	report --db "$DB" --boot limit --capacity >out &&
	grep "^note: boot [0-9]* reported \"MAX_LOCKDEP_ENTRIES too low\": no snapshot of that moment is stored" out &&
	grep "^  why: lockdep turned itself off in this boot (debug_locks 0): .* lower bound" out &&
	grep "^  rule: capacity-.* (unsure)$" out
'

test_expect_success 'lockdep-diff: the consumer that made more chains is named' '
	cp -r "$TRASH/p" g &&
	# ten more chains that end with class 0, (console_sem).lock, and
	# the first of them in the other order
	awk '"'"'
		/^counts / { $4 += 11 }
		/^trace / && !done { for (i = 0; i < 10; i++) print "chain", 900000 + i, 0, 2, 1 + i, 0
			print "chain 900100 0 2 0 1"; done = 1 }
		{ print }'"'"' "$GRAPH" >g/lockdep_graph &&
	test "$(grep -c "^chain " g/lockdep_graph)" = 1551 &&
	collect --db "$DB" --proc-dir g --label grown &&
	report --db "$DB" --boot real --capacity --json --top=1000 >cap.json &&
	field "[c[\"rows\"] for c in t[\"chains\"][\"consumers\"][\"class\"] if c[\"name\"] == \"(console_sem).lock\"][0]" >before &&
	"$BIN/lockdep-diff" --db "$DB" --json real grown >diff.json &&
	python3 -c "import json
d = json.load(open(\"diff.json\"))
g = [x for x in d[\"consumers_grew\"] if x[\"table\"] == \"chains\" and x[\"by\"] == \"class\"]
print(g[0][\"name\"], g[0][\"a\"], g[0][\"b\"])" >actual &&
	echo "(console_sem).lock $(cat before) $(($(cat before) + 10))" >expect &&
	test_cmp expect actual &&
	"$BIN/lockdep-diff" --db "$DB" real grown >out &&
	grep "^  chains  *class  *[0-9]* -> [0-9]*  *+10  (console_sem).lock$" out &&
	"$BIN/lockdep-diff" --db "$DB" real real >same &&
	! grep "consumers that grew" same
'

test_expect_success 'shapes: chains of the same classes in other orders, as the export has them' '
	GRAPH=g/lockdep_graph oracle orders >expect &&
	grep -q "(2, .(console_sem).lock, console_lock.)" expect &&
	report --db "$DB" --boot grown --capacity --json --top=1000 >cap.json &&
	field "sorted((x[\"distinct\"], x[\"subject\"]) for x in s if x[\"shape\"] == \"orders\")" >actual &&
	test_cmp expect actual
'

test_expect_success 'the agent'"'"'s series: growth and time to full; the snapshot'"'"'s tables at the report' '
	raw_from_fixtures sr "$FIX61" graph &&
	cat "$FIX61/console.log" | kmsg_from_log 0 >sr/kmsg &&
	seq=$(wc -l <sr/kmsg) &&
	printf "[   62.000000] %s\n" "BUG: MAX_LOCKDEP_ENTRIES too low!" \
		"turning off the locking correctness validator." \
		"CPU: 1 PID: 120 Comm: stress-ng Not tainted 6.1.192+ #1" \
		"Call Trace:" " <TASK>" " dump_stack_lvl+0x45/0x5d" \
		" </TASK>" | kmsg_from_log "$seq" >>sr/kmsg &&
	n=$(wc -l <sr/kmsg) &&
	mkdir -p sr/files/run/lockdep &&
	deps() { sed "s/^\( direct dependencies: *\)[0-9]*/\1$1/" "$FIX61/lockdep_stats"; } &&
	{ echo "@ 0 1000 periodic 2000" && deps 1000 &&
	  echo "@ 1 61000 periodic 2000" && deps 1600 &&
	  echo "@ 2 62000 snapshot $seq" && deps 2000; } >sr/files/run/lockdep/stats &&
	raw_manifest sr "kmsg complete $n 0 $((n - 1)) -" &&
	sed -i "/^kmsg /i file complete /run/lockdep/stats $(wc -c <sr/files/run/lockdep/stats)" sr/MANIFEST &&
	test_expect_code 3 "$BIN/lockdep-collect" --db "$DB" --raw-dir sr --label series >/dev/null 2>&1 &&
	report --db "$DB" --boot series --capacity >out &&
	grep "^list entries  *2000  *32768  *6.1%  720 (differs)$" out &&
	grep "^growth: list entries +600 a minute over 60.000 s (2 samples); full in 3077 s at that rate$" out &&
	grep "^note: boot [0-9]*: used and max are the snapshot the agent took at 62.000 s, when report [0-9]* (\"MAX_LOCKDEP_ENTRIES too low\") fired" out &&
	! grep "no snapshot of that moment" out &&
	grep "^  why: list entries: 2000 used of 32768 (6 %); .*; growing 600 a minute in the agent.s samples, full in 3077 s at that rate$" out &&
	report --db "$DB" --boot series --capacity --json >cap.json &&
	field "d[\"from_snapshot\"], t[\"list_entries\"][\"growth_per_min\"], t[\"list_entries\"][\"full_in_s\"], t[\"chains\"][\"growth_per_min\"]" >actual &&
	echo "True 600 3077 0" >expect &&
	test_cmp expect actual
'

test_expect_success 'usage: --capacity needs --db and takes no report options' '
	test_expect_code 64 report --capacity "$FIX61/console.log" 2>err &&
	grep "needs --db" err &&
	test_expect_code 64 report --db "$DB" --capacity --list 2>err &&
	test_expect_code 64 report --db "$DB" --capacity --top=0 2>err &&
	test_expect_code 64 report --db "$DB" --capacity --headroom=95 2>err &&
	test_expect_code 64 report --db "$DB" --top=3 2>err &&
	test_expect_code 64 report --db "$DB" --capacity --boot=1 --all 2>err &&
	test_expect_code 2 report --db "$DB" --capacity --boot=nosuch 2>err &&
	test_expect_code 2 report --db "$DB" --capacity --fragment "$TRASH/no/dir/f" >/dev/null 2>err &&
	grep "unable to write" err
'

test_expect_success 'lockdep-report(1) documents --capacity and its JSON' '
	man=$TOP/lockdep-tools/man/lockdep-report.1 &&
	man_synopsis "$man" "$BIN/lockdep-report" &&
	grep -q "^\.B \\\\-\\\\-capacity" "$man" &&
	for k in tables consumers shapes other_stats notes options fullest projection projected; do
		grep -q "^\.B $k$" "$man" || { echo "$k"; return 1; }
	done
'

test_done
