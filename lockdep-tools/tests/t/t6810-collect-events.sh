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
counted as other lines, and the boot stored. The class events of the
v3 series (lock:lockdep_class): a stream with them and no export names
every class of its events, an index reused after a zap names the new
class, a malformed one is an error.'
. "$(dirname "$0")/lib.sh"

DB=$TRASH/db
EV=$FIX61/events
q() { sqlite3 "$DB" "$1"; }

# events_raw DIR [EVENTS [nograph]]: the fixtures' raw directory with
# the export (not with "nograph") and EVENTS (default the captured
# stream) as the agent's events
events_raw() {
	local d=$1 n
	raw_from_fixtures "$d" "" "$([ "${3:-}" = nograph ] || echo graph)" &&
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
	awk "NR == 100 { print \"   lockdep-agent-58      [000] .....     9.996242: tracing_mark_write: lockdep-agent: READ /sys/kernel/debug/lockdep/graph\" } { print }" \
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

# with_classes: the captured stream with a lockdep_class line, in the
# shape the kernel prints it, before the first event that names an index
# (and the first after its zap), on that event's task, CPU, flags and
# time, for the class the export has at that index (the name decoded:
# "subsys mutex" has a blank): a v3 stream with the events on from boot
with_classes() {
	awk 'FILENAME == ARGV[1] {
		if ($1 == "class") {
			n = $9; gsub(/\\040/, " ", n)
			cls[$2] = sprintf("key=%s subclass=%s version=%s name=%s", $3, $5, $4, n)
		}
		next
	}
	{
		pre = $0; sub(/lockdep_[a-z_]*: .*/, "", pre)
		ev = $0; sub(/.*: lockdep_[a-z_]*: /, "", ev)
		zap = index($0, " lockdep_class_zapped: ")
		split(ev, f, /[ =]/)
		for (i = 1; i < length(f); i += 2) {
			if ((f[i] == "class" || f[i] == "from" || f[i] == "to") &&
			    !(f[i + 1] in seen) && (f[i + 1] in cls)) {
				print pre "lockdep_class: class=" f[i + 1] " " cls[f[i + 1]]
				seen[f[i + 1]] = 1
			}
		}
		if (zap)
			delete seen[f[2]]
		print
	}' "$FIX61/lockdep_graph" "$EV"
}

# printed IDX...: the export's printed name of each class (the name, then
# #version above 1 and /subclass unless 0), "idx|name" a line
printed() {
	awk -v want=" $* " '$1 == "class" && index(want, " " $2 " ") {
		n = $9; gsub(/\\040/, " ", n)
		print $2 "|" n ($4 > 1 ? "#" $4 : "") ($5 ? "/" $5 : "")
	}' "$FIX61/lockdep_graph" | sort -n
}

test_expect_success 'class events, no export: the stream alone names its classes' '
	with_classes >classes.events &&
	grep -q " lockdep_class: class=[0-9]* key=0x[0-9a-f]* subclass=0 version=1 name=subsys mutex$" classes.events &&
	events_raw stream classes.events nograph &&
	collect_rc 3 --db "$DB" --raw-dir stream --label stream &&
	b=$(q "SELECT id FROM boots WHERE label = '\''stream'\''") &&
	n=$(grep -c " lockdep_class: " classes.events) &&
	test "$n" -gt 100 &&
	test "$(q "SELECT count(*) FROM classes WHERE boot_id = $b
		AND graph_idx IS NOT NULL")" = 0 &&
	test "$(q "SELECT events FROM event_streams WHERE boot_id = $b")" = \
		"$(grep -c " lockdep_" classes.events)" &&
	test "$(q "SELECT count(*) FROM class_events WHERE boot_id = $b")" = "$n" &&
	# every event named, from and to: no index the stream left unnamed
	test "$(q "SELECT count(*) FROM dependency_event_names WHERE boot_id = $b")" = \
		"$(q "SELECT count(*) FROM dependency_events WHERE boot_id = $b")" &&
	test "$(q "SELECT count(*) FROM dependency_event_names n
		JOIN dependency_events e USING (boot_id, seq) WHERE n.boot_id = $b
		AND (n.class_name IS NULL OR
		     (e.kind = '\''dependency'\'') != (n.to_name IS NOT NULL))")" = 0 &&
	# each index named, at the end, as the export names it
	q "SELECT class_idx || '\''|'\'' || printed_name FROM class_event_spans
		WHERE boot_id = $b AND until_seq IS NULL ORDER BY class_idx" >names &&
	printed $(cut -d"|" -f1 names) >expect &&
	test "$(wc -l <names)" -gt 100 &&
	test_cmp expect names &&
	# and so is the first dependency event, by its line
	first=$(grep -m 1 " lockdep_dependency: " classes.events) &&
	from=$(echo "$first" | sed -E "s/.* from=([0-9]+) to=([0-9]+) .*/\1/") &&
	to=$(echo "$first" | sed -E "s/.* from=([0-9]+) to=([0-9]+) .*/\2/") &&
	printed "$from" "$to" | cut -d"|" -f2 >expect &&
	q "SELECT n.class_name, n.to_name FROM dependency_event_names n
		JOIN dependency_events e USING (boot_id, seq) WHERE n.boot_id = $b
		AND e.kind = '\''dependency'\'' ORDER BY seq LIMIT 1" |
		tr "|" "\n" >got &&
	if [ "$from" -gt "$to" ]; then tac got >got2 && mv got2 got; fi &&
	test_cmp expect got
'

# ev TIME EVENT: a trace_pipe line of kworker/0:1-12 on CPU 0
ev() {
	printf "     kworker/0:1-12      [000] d..2.     %s: %s\n" "$1" "$2"
}

test_expect_success 'an index reused after a zap names the new class from then on' '
	{ ev 1.000000 "lockdep_dependency: from=5 to=6 dep=0xf distance=1 trace=1" &&
	  ev 1.000001 "lockdep_class: class=5 key=0xffffffffc0002010 subclass=0 version=1 name=&(&sb->s_type->i_lock_key)->rlock" &&
	  ev 1.000002 "lockdep_class: class=6 key=0xffffffff82a1c8d0 subclass=1 version=2 name=(work_completion)(&w->work)" &&
	  ev 1.000003 "lockdep_dependency: from=5 to=6 dep=0xf distance=1 trace=2" &&
	  ev 1.000004 "lockdep_usage: class=5 bit=8 trace=3" &&
	  ev 2.000000 "lockdep_class_zapped: class=5" &&
	  ev 2.000001 "lockdep_usage: class=5 bit=8 trace=4" &&
	  ev 3.000000 "lockdep_class: class=5 key=0xffffffffc0004000 subclass=0 version=1 name=new class name=x" &&
	  ev 3.000001 "lockdep_dependency: from=6 to=5 dep=0x1 distance=2 trace=5"
	} >reuse.events &&
	events_raw reuse reuse.events nograph &&
	collect_rc 3 --db "$DB" --raw-dir reuse --label reuse &&
	b=$(q "SELECT id FROM boots WHERE label = '\''reuse'\''") &&
	cat >expect <<-\EOF &&
	0|dependency||
	3|dependency|&(&sb->s_type->i_lock_key)->rlock|(work_completion)(&w->work)#2/1
	4|usage|&(&sb->s_type->i_lock_key)->rlock|
	5|class_zapped|&(&sb->s_type->i_lock_key)->rlock|
	6|usage||
	8|dependency|(work_completion)(&w->work)#2/1|new class name=x
	EOF
	q "SELECT seq, kind, n.class_name, n.to_name FROM dependency_events
		JOIN dependency_event_names n USING (boot_id, seq)
		WHERE boot_id = $b ORDER BY seq" >got &&
	test_cmp expect got &&
	test "$(q "SELECT seq, class_idx, key_addr, subclass, name_version, name
		FROM class_events WHERE boot_id = $b AND seq = 7")" = \
		"7|5|ffffffffc0004000|0|1|new class name=x" &&
	test "$(q "SELECT seq, until_seq FROM class_event_spans
		WHERE boot_id = $b ORDER BY seq" | tr "\n" " ")" = "1|5 2| 7| "
'

test_expect_success 'merged into another database: the same names, the same spans' '
	"$BIN/lockdep-collect" --db other.db --log "$CORPUS/034-circular.txt" >/dev/null &&
	"$BIN/lockdep-merge" --db other.db "$DB" >/dev/null &&
	names() {
		sqlite3 "$1" "SELECT b.label, n.seq, n.class_name, n.to_name,
			s.until_seq FROM dependency_event_names n
			JOIN boots b ON b.id = n.boot_id
			LEFT JOIN class_event_spans s ON s.boot_id = n.boot_id
			AND s.seq = n.seq - 1 WHERE b.label IN ('\''stream'\'', '\''reuse'\'')
			ORDER BY b.label, n.seq"
	} &&
	names "$DB" >expect &&
	test "$(wc -l <expect)" -gt 1000 &&
	names other.db >got &&
	test_cmp expect got
'

test_expect_success 'a malformed class event: an error naming the file and line, nothing stored' '
	{ ev 1.000000 "lockdep_class: class=5 key=0x1 subclass=0 version=1 name=a" &&
	  ev 1.000001 "lockdep_class: class=6 key=0x1 subclass=0 version=1 name="
	} >badclass.events &&
	events_raw badclass badclass.events nograph &&
	snapshot &&
	collect_rc 2 --db "$DB" --raw-dir badclass &&
	grep -q "badclass/events:2: malformed dependency event: expected .class=N key=0xN" err &&
	unchanged
'

test_expect_success 'no events line (a kernel without them): no stream stored' '
	raw_from_fixtures plain &&
	collect_rc 3 --db "$DB" --raw-dir plain --label plain &&
	test "$(q "SELECT count(*) FROM event_streams e JOIN boots b
		ON b.id = e.boot_id WHERE b.label = '\''plain'\''")" = 0
'

test_done
