#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='the lockdep dependency events: a raw directory to the database

The real dependency event stream of our 6.1 guest (fixtures/6.1/events,
captured with the lockdep_graph fixture by vm/regen-fixtures.sh) in a
raw directory next to the export: every event stored in stream order
with its time, kind and bounds checked, and dependency_first_seen. A
malformed lockdep event, a cut last line or a size other than the
MANIFEST says is an error naming the input (and the line), and nothing
is stored; a raw directory without events (a kernel without them) stores
no stream; the lines of other events (where the agent marks its reads),
of the function tracer and lines that are no trace event at all are
counted as other lines, and the boot stored.'
. "$(dirname "$0")/lib.sh"

DB=$TRASH/db
EV=$FIX61/events
q() { sqlite3 "$DB" "$1"; }

# events_raw DIR [EVENTS]: the fixtures' raw directory with the export
# and EVENTS (default the captured stream) as the agent's events
events_raw() {
	local d=$1 n
	raw_from_fixtures "$d" "" graph &&
	n=$(wc -l <"$d/kmsg") &&
	raw_manifest "$d" "kmsg complete $n 0 $((n - 1)) -" &&
	cp "${2:-$EV}" "$d/events" &&
	echo "events $(wc -c <"$d/events")" >>"$d/MANIFEST"
}

test_expect_success 'the captured stream: every event stored, in order, with its kind' '
	events_raw raw &&
	collect_rc 3 --db "$DB" --raw-dir raw --label events &&
	n=$(grep -c " lockdep_" "$EV") &&
	o=$(grep -c " tracing_mark_write: " "$EV" || :) &&
	test "$n" -gt 1000 &&
	test "$(q "SELECT events, lost, other FROM event_streams")" = "$n|0|$o" &&
	test "$(q "SELECT count(*), min(seq), max(seq) FROM dependency_events")" = \
		"$n|0|$((n - 1))" &&
	for k in dependency usage class_zapped; do
		test "$(q "SELECT count(*) FROM dependency_events
			WHERE kind = '\''$k'\''")" = "$(grep -c " lockdep_$k: " "$EV")" ||
		{ echo "kind $k"; return 1; }
	done
'

test_expect_success 'each row as its line says: the first dependency event' '
	line=$(grep -m 1 " lockdep_dependency: " "$EV") &&
	want=$(echo "$line" | sed -E "s/.* ([0-9]+)\.([0-9]{6}): lockdep_dependency: from=([0-9]+) to=([0-9]+) dep=0x([0-9a-f]+) distance=([0-9]+) trace=([0-9]+)$/\1 \2 \3 \4 \5 \6 \7/" |
		awk "{ printf \"%d|%s|%s|%s|%s|%s\n\", \$1 * 1000000 + \$2, \$3, \$4, \$5, \$6, \$7 }") &&
	got=$(q "SELECT time_us, class_idx, to_idx, printf('\''%x'\'', dep_bits),
		distance, trace_id FROM dependency_events
		WHERE kind = '\''dependency'\'' ORDER BY seq LIMIT 1") &&
	test "$got" = "$want"
'

test_expect_success 'dependency_first_seen: a time for dependencies of the export' '
	seen=$(q "SELECT count(*) FROM dependency_first_seen") &&
	test "$seen" -gt 0 &&
	test "$seen" -le "$(grep -c "^dep " "$FIX61/lockdep_graph")" &&
	test "$(q "SELECT count(*) FROM dependency_first_seen f
		JOIN dependencies d ON d.from_class = f.from_class
		AND d.to_class = f.to_class WHERE d.boot_id = f.boot_id")" = "$seen"
'

test_expect_success 'the agent'\''s marks of its reads: other lines, the same events stored' '
	awk "NR == 100 { print \"   lockdep-agent-58      [000] .....     9.996242: tracing_mark_write: lockdep-agent: READ /proc/lockdep_graph\" } { print }" \
		"$EV" >marked.events &&
	events_raw marked marked.events &&
	collect_rc 3 --db "$DB" --raw-dir marked --label marked &&
	test "$(q "SELECT e.events, e.other FROM event_streams e JOIN boots b
		ON b.id = e.boot_id WHERE b.label = '\''marked'\''")" = \
		"$(grep -c " lockdep_" "$EV")|$(($(grep -c " tracing_mark_write: " "$EV") + 1))"
'

test_expect_success 'a workload'\''s trace lines: other lines, warned about, the boot stored' '
	awk "NR == 50 { print \"          <idle>-0       [000] d..2.     9.000001: do_idle <-cpu_startup_entry\" }
	     NR == 60 { print \"              sh-80      [000] .....     9.000002: tracing_mark_write: two\"; print \"lines\" }
	     NR == 70 { print \"garbage\" } { print }" "$EV" >workload.events &&
	events_raw workload workload.events &&
	collect_rc 3 --db "$DB" --raw-dir workload --label workload &&
	grep -q "workload/events.: 2 lines that are no trace event (the first is line 62): counted as other lines" err &&
	test "$(q "SELECT e.events, e.other FROM event_streams e JOIN boots b
		ON b.id = e.boot_id WHERE b.label = '\''workload'\''")" = \
		"$(grep -c " lockdep_" "$EV")|$(($(grep -c " tracing_mark_write: " "$EV") + 4))" &&
	test "$(q "SELECT count(*) FROM reports r JOIN boots b ON b.id = r.boot_id
		WHERE b.label = '\''workload'\''")" = "$(q "SELECT count(*) FROM reports r
		JOIN boots b ON b.id = r.boot_id WHERE b.label = '\''events'\''")"
'

test_expect_success 'a malformed lockdep event: an error naming the file and line, nothing stored' '
	sed "5s/class=/klass=/" "$EV" >bad.events &&
	! cmp -s bad.events "$EV" &&
	events_raw bad bad.events &&
	snapshot &&
	collect_rc 2 --db "$DB" --raw-dir bad &&
	grep -q "bad/events:5: malformed dependency event" err &&
	unchanged
'

test_expect_success 'a cut last line: an error naming its line, nothing stored' '
	head -c -1 "$EV" >cut.events &&
	events_raw cut cut.events &&
	snapshot &&
	collect_rc 2 --db "$DB" --raw-dir cut &&
	grep -q "cut/events:$(wc -l <"$EV"): the last line has no end" err &&
	unchanged
'

test_expect_success 'a size other than the MANIFEST says: an error, nothing stored' '
	events_raw short &&
	echo "     kworker/0:1-12      [000] d..2.     1.234567: lockdep_class_zapped: class=1" >>short/events &&
	snapshot &&
	collect_rc 2 --db "$DB" --raw-dir short &&
	grep -q "short/events: more bytes, but .*MANIFEST. counts" err &&
	unchanged
'

test_expect_success 'no events line (a kernel without them): no stream stored' '
	raw_from_fixtures plain &&
	collect_rc 3 --db "$DB" --raw-dir plain --label plain &&
	test "$(q "SELECT count(*) FROM event_streams e JOIN boots b
		ON b.id = e.boot_id WHERE b.label = '\''plain'\''")" = 0
'

test_done
