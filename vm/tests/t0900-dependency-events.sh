#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The dependency event stream (kernel-patches/, the tracepoints patch): a
# workload boot of the lockdep kernel on 2 CPUs running
# vm/workloads/fs-smoke.sh (stress-ng's file stressors, a worker of each
# per CPU, on ext4, a loop mount and tmpfs), collected raw and into a
# database (the class registrations in class_events, the rest in
# dependency_events). Replaying the
# lockdep_dependency and lockdep_class_zapped events of raw/events in
# order gives dependencies that the graph export, read at the end,
# has with the same dep bits and distance; the usage events give usage
# bits it has. What the stream cannot hold is printed and bounded: the
# graph's dependencies and usage bits from before the events were on
# (lockdep runs from the first instruction, trace events from
# trace_init(); early_initcall turns the boot's events off and on again,
# and the locks of that switch itself are not traced). What the stream
# gained after the graph was read (it runs on while the agent reads the
# other files) is left out: the agent marks each READ in the trace
# buffer before it opens the file, and with the global trace clock
# every event before the mark of the graph export happened before
# the read. (A cut at the first event whose stack trace the graph's
# trace store lacks is not enough: lockdep shares identical traces, and
# a new usage bit reached through a stack seen before has an old trace
# id.) The database holds every event, in time order per CPU, and
# dependency_first_seen has a time for every dependency of the boot the
# stream saw. The boot lands in $BUILD/vm/t0900-fs/.

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"

VMDIR=${BUILD:-$TOP/build}/vm
DB=$TRASH/db
RAW=$VMDIR/t0900-fs/raw

q() { sqlite3 "$DB" "$1"; }

# graph_deps GRAPH: "from to dep distance" per dependency, sorted
graph_deps() {
	awk '$1 == "dep" { print $2, $3, $4, $5 }' "$1" | sort
}
# graph_classes GRAPH: the class indices in it, one a line
graph_classes() {
	awk '$1 == "class" { print $2 }' "$1"
}
# before_read EVENTS: the events before the agent's mark of its READ of
# the graph export; how many came after it goes to "late". Fails
# without the mark.
before_read() {
	awk '
	/ tracing_mark_write: lockdep-agent: READ \/sys\/kernel\/debug\/lockdep\/graph$/ {
		cut = 1
		next
	}
	cut { if (/ lockdep_[a-z_]*: /) late++; next }
	{ print }
	END { print late + 0 >"late"; exit !cut }' "$1"
}
# stream_deps EVENTS CLASSES: the replay of the stream, the same shape,
# of the dependencies between classes listed in the file CLASSES
stream_deps() {
	awk '
	function zap(c,  k, f) {
		for (k in dep) {
			split(k, f, " ")
			if (f[1] == c || f[2] == c)
				delete dep[k]
		}
	}
	NR == FNR { known[$1] = 1; next }
	{
		for (i = 1; i <= NF; i++)
			if (split($i, kv, "=") == 2)
				v[kv[1]] = kv[2]
	}
	/ lockdep_dependency: / { dep[v["from"] " " v["to"]] = v["dep"] " " v["distance"] }
	/ lockdep_class_zapped: / { zap(v["class"]) }
	END {
		for (k in dep) {
			split(k, f, " ")
			if ((f[1] in known) && (f[2] in known))
				print k, dep[k]
		}
	}' "$2" "$1" | sort
}
# name GRAPH: "from to" lines on stdin with the class names
names() {
	awk 'NR == FNR { if ($1 == "class") n[$2] = $NF; next }
		{ print n[$1], "->", n[$2] }' "$1" -
}
# graph_usage GRAPH, stream_usage EVENTS CLASSES: "class bit" per usage
# bit set (of the classes listed in CLASSES)
graph_usage() {
	awk '$1 == "usage" { print $2, $3 }' "$1" | sort
}
stream_usage() {
	awk '
	NR == FNR { known[$1] = 1; next }
	{
		for (i = 1; i <= NF; i++)
			if (split($i, kv, "=") == 2)
				v[kv[1]] = kv[2]
	}
	/ lockdep_usage: / { used[v["class"] " " v["bit"]] = 1 }
	/ lockdep_class_zapped: / {
		for (k in used)
			if (split(k, f, " ") && f[1] == v["class"])
				delete used[k]
	}
	END {
		for (k in used)
			if (split(k, f, " ") && (f[1] in known))
				print k
	}' "$2" "$1" | sort
}

test_expect_success 'fs-smoke.sh on 2 CPUs: exit 0, the events streamed and stored' '
	{ "$TOP/vm/boot.sh" -n t0900-fs -r "$TOP/vm/workloads/fs-smoke.sh" -- \
		--db "$DB" --label fs >out 2>&1 || { cat out; false; }; } &&
	tr -d "\r" <"$VMDIR/t0900-fs/console.log" |
		grep -qE "smp: Brought up 1 node, 2 CPUs$" &&
	test "$(q "SELECT w.state, w.exit_code FROM workloads w")" = "exited|0" &&
	grep -q "^events [1-9][0-9]*$" "$RAW/MANIFEST" &&
	test -s "$RAW/events" &&
	test "$(q "SELECT lost FROM event_streams")" = 0
'

test_expect_success 'the stream replayed: dependencies of the graph, as the graph has them' '
	graph="$RAW/files/sys/kernel/debug/lockdep/graph" &&
	graph_deps "$graph" >graph.deps &&
	graph_classes "$graph" >graph.classes &&
	before_read "$RAW/events" >events.before &&
	stream_deps events.before graph.classes >stream.deps &&
	comm -13 graph.deps stream.deps >not-in-graph &&
	comm -23 graph.deps stream.deps >not-in-stream &&
	echo "graph $(wc -l <graph.deps), stream $(wc -l <stream.deps), events after the read $(cat late)" &&
	echo "stream dependencies not in the graph: $(wc -l <not-in-graph)" &&
	cut -d" " -f1,2 not-in-graph | names "$graph" | sed "s/^/#   /" &&
	echo "graph dependencies not in the stream (added before the events were on): $(wc -l <not-in-stream)" &&
	cut -d" " -f1,2 not-in-stream | names "$graph" | sed "s/^/#   /" &&
	test "$(wc -l <graph.deps)" -gt 1500 &&
	test ! -s not-in-graph &&
	test "$(wc -l <not-in-stream)" -le "$(($(wc -l <graph.deps) / 20))"
'

test_expect_success 'the usage events: usage bits of the graph' '
	graph_usage "$RAW/files/sys/kernel/debug/lockdep/graph" >graph.usage &&
	stream_usage events.before graph.classes >stream.usage &&
	comm -13 graph.usage stream.usage >usage-not-in-graph &&
	comm -23 graph.usage stream.usage >usage-not-in-stream &&
	echo "usage bits: graph $(wc -l <graph.usage), stream $(wc -l <stream.usage), graph bits set before the events were on $(wc -l <usage-not-in-stream)" &&
	echo "stream bits not in the graph: $(wc -l <usage-not-in-graph)" &&
	sed "s/^/#   /" usage-not-in-graph &&
	test "$(wc -l <graph.usage)" -gt 500 &&
	test ! -s usage-not-in-graph &&
	test "$(wc -l <usage-not-in-stream)" -le "$(($(wc -l <graph.usage) / 10))"
'

test_expect_success 'the database: every event in order, a first time for every dependency' '
	test "$(q "SELECT count(*) FROM dependency_events")" = \
		"$(grep " lockdep_" "$RAW/events" | grep -vc " lockdep_class:")" &&
	test "$(q "SELECT count(*) FROM class_events")" = \
		"$(grep -c " lockdep_class:" "$RAW/events")" &&
	test "$(q "SELECT count(*) FROM class_events")" -gt 0 &&
	test "$(q "SELECT count(*) FROM dependency_events e JOIN dependency_events n
		ON n.boot_id = e.boot_id AND n.seq = e.seq + 1
		WHERE n.time_us < e.time_us AND n.cpu = e.cpu")" = 0 &&
	deps=$(q "SELECT count(*) FROM dependencies") &&
	seen=$(q "SELECT count(*) FROM dependency_first_seen") &&
	echo "dependencies $deps, with a first time $seen" &&
	test "$seen" = "$(($(wc -l <graph.deps) - $(wc -l <not-in-stream)))"
'

test_done
