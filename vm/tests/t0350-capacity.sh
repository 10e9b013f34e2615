#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# When lockdep runs out (make check-capacity, issue 33): the capacity
# kernel (KERNEL_VARIANT=capacity, vm/kernel.sh: the lockdep kernel with
# CAPACITY_CONFIG's BITS lowered) runs vm/workloads/all.sh on an SMP
# guest, and one of its tables runs out:
#   report    a lockdep-limit report of the table CAPACITY_CONFIG made
#             small (LOCKDEP_BITS: MAX_LOCKDEP_ENTRIES, CHAINS_BITS:
#             MAX_LOCKDEP_CHAINS), during the workload
#   snapshot  the agent's snapshot, linked to that report: its
#             lockdep_stats has the table at its max (the size the
#             BITS say), its copy of the graph export arrived whole and
#             has as many dependencies as the table's entries say (two
#             list entries each: the export is of the table that ran
#             out), and lockdep-report shows the link
#   series    the periodic samples before it: in time order, each
#             about the interval apart, the table's use growing to the
#             snapshot's; none after it grows it (lockdep is off)
#   analysis  lockdep-report --capacity names as the table's top class
#             the one the snapshot's export itself says (an oracle in
#             awk: list entries are two per dependency, one on each
#             class's list; a chain is charged to its last class)
# Skipped unless the capacity kernel is built from the series as it is
# now with CAPACITY_CONFIG ('make check-capacity' builds it, once per
# fragment). The boot lands in $BUILD/vm/t0350-NAME/, its database in
# $BUILD/vm/t0350-NAME.db (NAME: the fragment's: capacity,
# capacity-chains; t0356 advises from it).

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"

export KERNEL_VARIANT=capacity
CONFIG=${CAPACITY_CONFIG:-$TOP/vm/capacity.config}
eval "$(. "$TOP/vm/lib.sh" &&
	echo "KREPO='$KREPO' KTREE='$KSRC' KIMAGE='$KIMAGE' BUILD='$BUILD'")"
NAME=t0350-$(basename "$CONFIG" .config)
DB=$BUILD/vm/$NAME.db

if [ ! -f "$KIMAGE" ]; then
	test_skip_all 'the capacity kernel' "its own target: make check-capacity (no capacity kernel here)"
fi
tip=$(git -C "$KREPO" rev-parse -q --verify lockdep 2>/dev/null || echo none)
case $(cat "$KTREE.stamp-build" 2>/dev/null) in
*-"$tip") ;;
*)	test_skip_all 'the capacity kernel' "its own target: make check-capacity (the capacity kernel here was built from another series than branch lockdep's tip)" ;;
esac
if ! grep -qxFf <(grep "^CONFIG_" "$CONFIG") "$KTREE/.config" ||
   [ "$(grep -cxFf <(grep "^CONFIG_" "$CONFIG") "$KTREE/.config")" != "$(grep -c "^CONFIG_" "$CONFIG")" ]; then
	test_skip_all 'the capacity kernel' "its own target: make check-capacity (the capacity kernel here was built with another fragment than $CONFIG)"
fi
SNAP=/run/lockdep/snapshot-graph

q() { sqlite3 "$DB" "$1"; }

# The table CAPACITY_CONFIG lowers, its size, and its lockdep_stats line.
if grep -q "^CONFIG_LOCKDEP_BITS=" "$CONFIG"; then
	bits=$(sed -n "s/^CONFIG_LOCKDEP_BITS=//p" "$CONFIG")
	TABLE=MAX_LOCKDEP_ENTRIES LINE="direct dependencies" SIZE=$((1 << bits))
	JTABLE=list_entries
elif grep -q "^CONFIG_LOCKDEP_CHAINS_BITS=" "$CONFIG"; then
	bits=$(sed -n "s/^CONFIG_LOCKDEP_CHAINS_BITS=//p" "$CONFIG")
	TABLE=MAX_LOCKDEP_CHAINS LINE="dependency chains" SIZE=$((1 << bits))
	JTABLE=chains
else
	echo "Bail out! $CONFIG lowers no table this test knows"
	exit 1
fi

test_expect_success "all.sh on the capacity kernel ($(basename "$CONFIG")): stored, with a series" '
	# the workload may fail once lockdep is off (4); the boot is whole
	rm -f "$DB" &&
	{ test_expect_code 0,4 env SAMPLE_MS=1000 "$TOP/vm/boot.sh" \
		-n "$NAME" -r "$TOP/vm/workloads/all.sh" \
		-f "$TOP/vm/workloads" -- --db "$DB" --label capacity \
		--vmlinux "$KTREE/vmlinux" >out 2>&1 || { cat out; false; }; } &&
	cat out &&
	grep -q "/run/lockdep/stats: [1-9][0-9]* bytes" out &&
	test "$(q "SELECT count(*) FROM stats_samples WHERE kind = '\''periodic'\''")" -ge 5
'

test_expect_success "a lockdep-limit report of $TABLE, during the workload" '
	test "$(q "SELECT count(*) FROM reports WHERE type = '\''lockdep-limit'\''")" = 1 &&
	q "SELECT title FROM reports WHERE type = '\''lockdep-limit'\''" >title &&
	cat title &&
	grep -q "$TABLE" title &&
	test "$(q "SELECT phase FROM report_workload_phase p JOIN reports r ON r.id = p.report_id WHERE r.type = '\''lockdep-limit'\''")" = during
'

test_expect_success 'the snapshot is linked to it and is of the table that ran out' '
	test "$(q "SELECT count(*) FROM stats_samples s JOIN reports r ON r.id = s.report_id WHERE s.kind = '\''snapshot'\'' AND r.type = '\''lockdep-limit'\'' AND s.kmsg_seq = r.kmsg_seq")" = 1 &&
	snap=$(q "SELECT idx FROM stats_samples WHERE kind = '\''snapshot'\''") &&
	test "$(q "SELECT value || \" \" || max FROM stats_sample_values WHERE sample_idx = $snap AND name = '\''$LINE'\''")" = "$SIZE $SIZE" &&
	test "$(q "SELECT graph_path FROM stats_samples WHERE idx = $snap")" = "$SNAP" &&
	test "$(q "SELECT status FROM files WHERE path = '\''$SNAP'\''")" = complete &&
	q "SELECT CAST(content AS TEXT) FROM files WHERE path = '\''$SNAP'\''" >export &&
	head -n 1 export | grep -q "^lockdep_graph " &&
	# its last record is its end (sqlite3 adds a blank line)
	awk "NF { last = \$1 } END { exit last != \"end\" }" export &&
	entries=$(q "SELECT value FROM stats_sample_values WHERE sample_idx = $snap AND name = '\''direct dependencies'\''") &&
	deps=$(grep -c "^dep " export) &&
	echo "snapshot: $LINE at $SIZE of $SIZE; export: $deps dependencies, $entries list entries" &&
	test $((2 * deps)) = "$entries" &&
	"$BIN/lockdep-report" --db "$DB" --type lockdep-limit >rep &&
	grep -q "^snapshot: lockdep_stats sample [0-9]* at [0-9.]* s (full: [^)]*$LINE[^)]*), graph export $SNAP$" rep
'

test_expect_success 'the series before it: in time, growing to the snapshot, nothing after' '
	snap=$(q "SELECT idx FROM stats_samples WHERE kind = '\''snapshot'\''") &&
	q "SELECT s.time_ms, v.value FROM stats_samples s JOIN stats_sample_values v
		ON v.boot_id = s.boot_id AND v.sample_idx = s.idx
		WHERE v.name = '\''$LINE'\'' ORDER BY s.idx" >series &&
	awk -F"|" -v size="$SIZE" "
		NR > 1 && \$1 < t { print \"time goes back at \" NR; bad = 1 }
		\$2 > size { print \"over the table at \" NR; bad = 1 }
		{ t = \$1 }
		END { exit bad }" series &&
	# the table grew during the workload, up to the snapshot
	first=$(head -n 1 series | cut -d"|" -f2) &&
	test "$first" -lt "$SIZE" &&
	# periodic samples about a second apart (the guest is slow: up to 5)
	test "$(q "SELECT count(*) FROM stats_sample_steps WHERE name = '\''lock-classes'\'' AND dt_ms > 5000")" -le 2 &&
	# lockdep is off after the snapshot: the table stays where it was
	test "$(q "SELECT count(*) FROM stats_sample_values WHERE sample_idx > $snap AND name = '\''$LINE'\'' AND value > $SIZE")" = 0
'

test_expect_success "the analysis names the table's real top consumer, from the export" '
	q "SELECT CAST(content AS TEXT) FROM files WHERE path = '\''$SNAP'\''" >export &&
	awk -v table="$JTABLE" "
		\$1 == \"class\" { s = \$0; for (i = 1; i <= 8; i++) sub(/^[^ ]* /, \"\", s); name[\$2] = s }
		table == \"list_entries\" && \$1 == \"dep\" { n[\$2]++; n[\$3]++ }
		table == \"chains\" && \$1 == \"chain\" { n[\$NF]++ }
		END { for (c in n) print n[c] \"|\" name[c] }" export |
		sort -t"|" -k1,1nr >oracle &&
	head -n 3 oracle &&
	"$BIN/lockdep-report" --db "$DB" --capacity --json >cap.json &&
	jq -r ".tables[] | select(.table == \"$JTABLE\") | .consumers.class[0] | \"\(.rows)|\(.name)\"" cap.json >top &&
	cat top &&
	# the top count is the export'\''s; a tie may name another class of it
	test "$(cut -d"|" -f1 top)" = "$(head -n 1 oracle | cut -d"|" -f1)" &&
	grep -qxF "$(cat top)" oracle
'

test_done
