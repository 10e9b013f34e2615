#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='the agent'\''s lockdep_stats series and "too low" snapshot

A raw directory of the real 6.1 fixtures with the two files the agent
writes itself (lockdep-agent(8) SAMPLES): the series, whose samples are
each the fixture'\''s lockdep_stats, and the graph export it copied when
the kernel logged "BUG: MAX_LOCKDEP_ENTRIES too low!". Every sample and
line is stored, the snapshot names its report, and what is odd about the
series is said, never lost.'
. "$(dirname "$0")/lib.sh"

SERIES=/run/lockdep/stats
SNAP=/run/lockdep/snapshot-graph

# stats FILE LOCK_CLASSES DIRECT: the fixture's lockdep_stats with two
# counts changed
stats() {
	sed -e "s/^\( lock-classes: *\)[0-9]*/\1$2/" \
	    -e "s/^\( direct dependencies: *\)[0-9]*/\1$3/" "$FIX61/lockdep_stats"
}

# series_raw DIR SERIES-TEXT: the fixtures' raw directory, its kernel log
# ending in a "too low" report (sequence number $LIMIT_SEQ), and the
# series; with SNAPSHOT=1 the copy of the graph export too
series_raw() {
	local d=$1 n
	raw_from_fixtures "$d" "" graph &&
	n=$(wc -l <"$d/kmsg") &&
	LIMIT_SEQ=$n &&
	# corpus 035's report, its table renamed
	sed -e "s/^\[[^]]*\] //" -e "s/MAX_LOCKDEP_CHAIN_HLOCKS/MAX_LOCKDEP_ENTRIES/" \
		"$CORPUS/035-max-lockdep-chain-hlocks.txt" |
		sed "s/^/[   90.000000] /" | kmsg_from_log "$n" >>"$d/kmsg" &&
	n=$(wc -l <"$d/kmsg") &&
	mkdir -p "$d/files/run/lockdep" &&
	printf "%s" "$2" >"$d/files$SERIES" &&
	if [ "${SNAPSHOT:-0}" = 1 ]; then
		cp "$d/files$GRAPH_PATH" "$d/files$SNAP"
	fi &&
	RAW_GRAPH=$GRAPH_PATH raw_manifest "$d" "kmsg complete $n 0 $((n - 1)) -" &&
	for f in $SNAP $SERIES; do
		[ ! -f "$d/files$f" ] ||
		sed -i "/^kmsg /i file complete $f $(wc -c <"$d/files$f")" "$d/MANIFEST" ||
		return 1
	done
}

q() {
	sqlite3 "$1" "$2"
}

# collect_raw ARGS: stored, exit 3 (these raw directories have no
# scenario list: not offered)
collect_raw() {
	test_expect_code 3 "$BIN/lockdep-collect" "$@"
}

test_expect_success 'setup: a series of four samples and a snapshot' '
	{ echo "@ 0 1500 periodic 2000" && stats x 400 1700 &&
	  echo "@ 1 3500 periodic 2000" && stats x 420 2400 &&
	  echo " a counter of 7.0:           5" &&
	  echo "@ 4 9500 periodic 2000" && stats x 410 3900 &&
	  echo "@ 5 9700 snapshot 445" && stats x 410 32768 ; } >series.txt &&
	sed -i "/^@ 5/,\$ s/^\( direct dependencies: *[0-9]* \[max: \)[0-9]*/\132768/" series.txt &&
	SNAPSHOT=1 series_raw raw "$(cat series.txt)
" &&
	test "$LIMIT_SEQ" = 445
'

test_expect_success 'every sample and line stored, the odd ones said' '
	collect_raw --db s.db --raw-dir raw 2>err &&
	cat err &&
	test "$(q s.db "SELECT count(*) FROM stats_samples")" = 4 &&
	test "$(q s.db "SELECT group_concat(seq || \":\" || time_ms || \":\" || kind, \" \") FROM stats_samples ORDER BY idx")" = \
		"0:1500:periodic 1:3500:periodic 4:9500:periodic 5:9700:snapshot" &&
	lines=$(grep -c ":" "$FIX61/lockdep_stats") &&
	test "$(q s.db "SELECT count(*) FROM stats_sample_values")" = $((4 * lines + 1)) &&
	test "$(q s.db "SELECT value FROM stats_sample_values WHERE sample_idx = 1 AND name = \"direct dependencies\"")" = 2400 &&
	test "$(q s.db "SELECT known FROM stats_sample_values WHERE name = \"a counter of 7.0\"")" = 0 &&
	grep -q "^lockdep-collect: warning: .[^ ]*/run/lockdep/stats.: 2 samples are missing, the agent could not read them (the first: samples 2 to 3 (line [0-9]*))$" err &&
	grep -q "1 counter went back from one sample to the next (the first: .lock-classes. 420 -> 410 at sample 4 " err &&
	grep -q "1 line with a label no kernel we know prints (the first: .a counter of 7.0. (line [0-9]*)): kept" err &&
	# the view: the step of each line
	test "$(q s.db "SELECT dt_ms || \" \" || delta FROM stats_sample_steps WHERE sample_idx = 2 AND name = \"lock-classes\"")" = "6000 -10"
'

test_expect_success 'the snapshot names its report and the copy of the export' '
	test "$(q s.db "SELECT r.type || \" \" || r.kmsg_seq || \" \" || s.graph_path FROM stats_samples s JOIN reports r ON r.id = s.report_id")" = \
		"lockdep-limit 445 $SNAP" &&
	test "$(q s.db "SELECT bytes FROM files WHERE path = \"$SNAP\"")" = "$(wc -c <"$FIX61/lockdep_graph")" &&
	! grep -q "snapshot" err &&
	"$BIN/lockdep-report" --db s.db --type lockdep-limit >rep &&
	grep -qx "snapshot: lockdep_stats sample 5 at 9.700 s (full: direct dependencies), graph export $SNAP" rep &&
	"$BIN/lockdep-report" --db s.db --type lockdep-limit --json >rep.json &&
	jq -e ".[0].snapshot.sample == 5 and .[0].snapshot.kmsg_seq == 445 and .[0].snapshot.full == \"direct dependencies\"" rep.json >/dev/null
'

test_expect_success 'a "too low" report with no snapshot, a snapshot with no report: said' '
	series_raw nosnap "$(sed "/^@ 5/,\$d" series.txt)
" &&
	collect_raw --db n.db --raw-dir nosnap 2>err &&
	grep -q "1 \"too low\" report of this boot has no snapshot of lockdep_stats and the graph export in .[^ ]*/run/lockdep/stats." err &&
	"$BIN/lockdep-report" --db n.db --type lockdep-limit >rep &&
	grep -qx "snapshot: none (the agent took no snapshot of lockdep_stats and the graph export for it)" rep &&
	"$BIN/lockdep-report" --db n.db --type lockdep-limit --json >rep.json &&
	jq -e ".[0].snapshot == null" rep.json >/dev/null &&
	series_raw wrong "$(sed "s/^@ 5 9700 snapshot 445/@ 5 9700 snapshot 7/" series.txt)
" &&
	collect_raw --db w.db --raw-dir wrong 2>err &&
	grep -q "1 lockdep_stats snapshot of .[^ ]*/run/lockdep/stats. names a kernel log record with no \"too low\" report: stored without one" err &&
	test "$(q w.db "SELECT count(*) FROM stats_samples WHERE kind = \"snapshot\" AND report_id IS NULL")" = 1
'

test_expect_success 'numbers and times going back: stored as read, said' '
	series_raw back "@ 3 5000 periodic 2000
$(stats x 1 1)
@ 2 4000 periodic 2000
$(stats x 1 1)
@ 2 4000 periodic 2000
$(stats x 1 1)
" &&
	collect_raw --db b.db --raw-dir back 2>err &&
	test "$(q b.db "SELECT group_concat(seq, \",\") FROM stats_samples ORDER BY idx")" = "3,2,2" &&
	grep -q "the sample number goes back 2 times: the series is damaged; stored as read" err &&
	grep -q "the time goes back 1 time: stored as read" err
'

test_expect_success 'unused and uncategorized locks shrink as classes are used: not said' '
	series_raw used "@ 0 1000 periodic 2000
$(stats x 1 1 | sed "s/^\( unused locks: *\)[0-9]*/\15/")
@ 1 3000 periodic 2000
$(stats x 1 1 | sed -e "s/^\( unused locks: *\)[0-9]*/\13/" -e "s/^\( uncategorized locks: *\)[0-9]*/\11/")
" &&
	collect_raw --db u.db --raw-dir used 2>err &&
	test "$(q u.db "SELECT delta FROM stats_sample_steps WHERE name = \"unused locks\"")" = -2 &&
	! grep -q "went back" err
'

test_expect_success 'a malformed series: the line named, exit 2, nothing stored' '
	DB=bad.db &&
	collect_raw --db bad.db --raw-dir raw >/dev/null 2>&1 &&
	snapshot &&
	series_raw badraw "$(cat series.txt | sed "3i @ 9 x periodic 2000")
" &&
	test_expect_code 2 "$BIN/lockdep-collect" --db bad.db --raw-dir badraw 2>err &&
	grep -q "[^ ]*/run/lockdep/stats:3: sample header: no time" err &&
	grep -q "nothing stored" err &&
	unchanged &&
	series_raw early " lock-classes: 3 [max: 8192]
" &&
	test_expect_code 2 "$BIN/lockdep-collect" --db bad.db --raw-dir early 2>err &&
	grep -q "[^ ]*/run/lockdep/stats:1: a line before the first sample header" err &&
	unchanged
'

# The capacity kernel's boot (fixtures/capacity, vm/regen-fixtures.sh
# from make check-capacity's t0350): its series, its snapshot and the
# report's kernel log records as the agent sent them, in the 6.1
# fixtures' raw directory.
FIXCAP=$TOP/lockdep-tools/tests/fixtures/capacity

test_expect_success 'the capacity boot: its real series and snapshot, linked to its report' '
	raw_from_fixtures cap "" graph &&
	cp "$FIXCAP/kmsg" cap/kmsg &&
	cp "$FIXCAP/lockdep_stats" cap/files/proc/lockdep_stats &&
	mkdir -p cap/files/run/lockdep &&
	cp "$FIXCAP/stats" cap/files$SERIES &&
	gzip -dc "$FIXCAP/snapshot-graph.gz" >cap/files$SNAP &&
	first=$(sed -n "2s/^[0-9]*,\([0-9]*\),.*/\1/p" cap/kmsg) &&
	last=$(tail -n 1 cap/kmsg | cut -d, -f2) &&
	RAW_GRAPH=$GRAPH_PATH raw_manifest cap \
		"kmsg complete $(wc -l <cap/kmsg) 0 $last 1-$((first - 1))" &&
	cat "$FIXCAP/workload" >>cap/MANIFEST &&
	cp "$FIXCAP/workload.out" cap/workload.out &&
	for f in $SNAP $SERIES; do
		sed -i "/^kmsg /i file complete $f $(wc -c <"cap/files$f")" cap/MANIFEST ||
		return 1
	done &&
	collect_raw --db cap.db --raw-dir cap 2>err &&
	cat err &&
	test "$(q cap.db "SELECT count(*) FROM stats_samples")" = "$(grep -c "^@ " "$FIXCAP/stats")" &&
	test "$(q cap.db "SELECT count(*) FROM stats_sample_values WHERE known = 0")" = 0 &&
	# the fixture keeps the first sample and the last ones: one gap, said
	test "$(grep -c "samples are missing" err)" = 1 &&
	! grep -q "no \"too low\" report\|has no snapshot" err &&
	test "$(q cap.db "SELECT r.type || \" \" || (r.kmsg_seq = s.kmsg_seq) || \" \" || s.graph_path FROM stats_samples s JOIN reports r ON r.id = s.report_id")" = \
		"lockdep-limit 1 $SNAP" &&
	q cap.db "SELECT title FROM reports WHERE type = \"lockdep-limit\"" | grep -q "MAX_LOCKDEP_ENTRIES" &&
	# the snapshot is of the table that ran out: full, and as the export says
	test "$(q cap.db "SELECT v.value = v.max FROM stats_sample_values v JOIN stats_samples s ON s.boot_id = v.boot_id AND s.idx = v.sample_idx WHERE s.kind = \"snapshot\" AND v.name = \"direct dependencies\"")" = 1 &&
	test $((2 * $(grep -c "^dep " cap/files$SNAP))) = \
		"$(q cap.db "SELECT v.value FROM stats_sample_values v JOIN stats_samples s ON s.boot_id = v.boot_id AND s.idx = v.sample_idx WHERE s.kind = \"snapshot\" AND v.name = \"direct dependencies\"")"
'

# The projection (lockdep-report(1), Projection), computed here from the
# fixture's own files: the workload's start in the kernel log and its
# duration (the MANIFEST line), the first periodic sample whose log record
# is at or past that start, the snapshot; each table's growth between the
# two, at the same rate over the duration, rounded up.
test_expect_success 'the capacity boot projected to its whole workload, as its series says' '
	read -r _ _ _ start _ _ dur _ <"$FIXCAP/workload" &&
	awk -v start="$start" -v dur="$dur" "
		\$1 == \"@\" { at = \"\" }
		\$1 == \"@\" && \$4 == \"periodic\" && NF == 6 && \$6 >= start && !t0 { t0 = \$3; at = \"s\" }
		\$1 == \"@\" && \$4 == \"snapshot\" && !t1 { t1 = \$3; at = \"e\" }
		at != \"\" && /^ direct dependencies:/ { v[at] = \$3 }
		END { d = t1 - t0; printf \"%d %d %d %d\\n\", t0, t1, dur,
			v[\"s\"] + int(((v[\"e\"] - v[\"s\"]) * dur + d - 1) / d) }
	" "$FIXCAP/stats" >expect &&
	cat expect &&
	"$BIN/lockdep-report" --db cap.db --capacity --json >cap.json &&
	jq -r "\"\(.projection.start_ms) \(.projection.out_ms) \(.projection.workload_ms) \(.tables[] | select(.table == \"list_entries\") | .projected)\"" cap.json >actual &&
	test_cmp expect actual &&
	"$BIN/lockdep-report" --db cap.db --capacity --headroom=50 >out &&
	grep "^projection: boot 1 ran out .* at the same rate over all of it: .*list entries $(cut -d" " -f4 expect) " out &&
	grep "^  why: list entries: $(cut -d" " -f4 expect) projected for the whole workload (4096 used of 4096 when lockdep turned off)" out &&
	grep "^  rule: capacity-bits$" out
'

test_expect_success 'without the workload, no projection: said, and the advice is unsure' '
	rm -rf nowl && cp -r cap nowl &&
	sed -i "/^workload /d" nowl/MANIFEST && rm nowl/workload.out &&
	collect_raw --db nowl.db --raw-dir nowl 2>/dev/null &&
	"$BIN/lockdep-report" --db nowl.db --capacity >out &&
	grep "^note: boot 1: its counts are not projected to its whole workload: the boot ran no workload$" out &&
	! grep "^projection:" out &&
	grep "^  rule: capacity-bits (unsure)$" out &&
	grep "each count is a lower bound" out
'

test_done
