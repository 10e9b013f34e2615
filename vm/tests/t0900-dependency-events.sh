#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The dependency event stream (kernel patch 0008): a workload boot of the
# lockdep kernel on 2 CPUs running vm/workloads/all.sh, collected raw and
# into a database. Replaying the lockdep_dependency and
# lockdep_class_zapped events of raw/events in order must give exactly
# the dependencies of /proc/lockdep_graph read at the end (from, to, dep
# bits, distance), and the lockdep_usage events exactly the classes'
# usage bits; events whose stack trace was stored after the graph was
# read (a trace id at or past the graph's last trace) are left out, and
# the count of those is printed. The database holds the stream in order,
# and dependency_first_seen times every dependency of the boot. The boot
# lands in $BUILD/vm/t0900-all/.

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"

VMDIR=${BUILD:-$TOP/build}/vm
DB=$TRASH/db
RAW=$VMDIR/t0900-all/raw

q() { sqlite3 "$DB" "$1"; }

# graph_deps GRAPH: "from to dep distance" per dependency, sorted; and
# the end of the trace store when it was read in trace_end
graph_deps() {
	awk '$1 == "dep" { print $2, $3, $4, $5 }' "$1" | sort
}
trace_end() {
	awk '$1 == "trace" { end = $2 + 3 + $3 } END { print end }' "$1"
}
# stream_deps EVENTS END: the replay of the stream, the same shape, of
# the dependencies whose trace id is below END
stream_deps() {
	awk -v end="$2" '
	function zap(c,  k, f) {
		for (k in dep) {
			split(k, f, " ")
			if (f[1] == c || f[2] == c)
				delete dep[k]
		}
	}
	{
		for (i = 1; i <= NF; i++)
			if (split($i, kv, "=") == 2)
				v[kv[1]] = kv[2]
	}
	/ lockdep_dependency: / {
		k = v["from"] " " v["to"]
		dep[k] = v["dep"] " " v["distance"]
		tr[k] = v["trace"]
	}
	/ lockdep_class_zapped: / { zap(v["class"]) }
	END {
		for (k in dep)
			if (tr[k] + 0 < end + 0)
				print k, dep[k]
			else
				late++
		print late + 0 >"late"
	}' "$1" | sort
}
# graph_usage GRAPH, stream_usage EVENTS: "class bit" per usage bit set
graph_usage() {
	awk '$1 == "usage" { print $2, $3 }' "$1" | sort
}
stream_usage() {
	awk '
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
	END { for (k in used) print k }' "$1" | sort
}

test_expect_success 'all.sh on 2 CPUs: exit 0, the events streamed and stored' '
	"$TOP/vm/boot.sh" -n t0900-all -r "$TOP/vm/workloads/all.sh" \
		-f "$TOP/vm/workloads" -- --db "$DB" --label all >out 2>&1 ||
		{ cat out; false; } &&
	tr -d "\r" <"$VMDIR/t0900-all/console.log" |
		grep -qE "smp: Brought up 1 node, 2 CPUs$" &&
	test "$(q "SELECT w.state, w.exit_code FROM workloads w")" = "exited|0" &&
	grep -q "^events [1-9][0-9]*$" "$RAW/MANIFEST" &&
	test -s "$RAW/events" &&
	test "$(q "SELECT lost FROM event_streams")" = 0
'

test_expect_success 'the stream replayed gives the dependencies of the graph read at the end' '
	graph="$RAW/files/proc/lockdep_graph" &&
	graph_deps "$graph" >graph.deps &&
	stream_deps "$RAW/events" "$(trace_end "$graph")" >stream.deps &&
	echo "graph $(wc -l <graph.deps), stream $(wc -l <stream.deps), added after the read $(cat late)" &&
	test "$(wc -l <graph.deps)" -gt 2000 &&
	test_cmp graph.deps stream.deps
'

test_expect_success 'the usage events give each class its usage bits' '
	graph_usage "$RAW/files/proc/lockdep_graph" >graph.usage &&
	stream_usage "$RAW/events" >stream.usage &&
	echo "usage bits: graph $(wc -l <graph.usage), stream $(wc -l <stream.usage)" &&
	test "$(wc -l <graph.usage)" -gt 500 &&
	test_cmp graph.usage stream.usage
'

test_expect_success 'the database: every event in order, a first time for every dependency' '
	test "$(q "SELECT count(*) FROM dependency_events")" = \
		"$(grep -c " lockdep_" "$RAW/events")" &&
	test "$(q "SELECT count(*) FROM dependency_events e JOIN dependency_events n
		ON n.boot_id = e.boot_id AND n.seq = e.seq + 1
		WHERE n.time_us < e.time_us AND n.cpu = e.cpu")" = 0 &&
	deps=$(q "SELECT count(*) FROM dependencies") &&
	seen=$(q "SELECT count(*) FROM dependency_first_seen") &&
	echo "dependencies $deps, with a first time $seen" &&
	test "$seen" = "$deps"
'

test_done
