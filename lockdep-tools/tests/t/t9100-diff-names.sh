#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='distinct classes that share a name stay distinct across boots

The shape of a 6.12 btrfs workload boot (tests/fixtures/names-6.12, in
the /proc/lockdep and /proc/lockdep_graph form of our kernel series):
three &p->lock and two &of->mutex classes of distinct keys, with no key
symbol (no --vmlinux) to tell them apart. Merged by name, the btrfs
boot alone showed the cycle &cache->alloc_lock -> &p->lock -> &of->mutex
-> cgroup_mutex -> cpu_hotplug_lock that no boot has, and
--fail-on=new-cycle failed a clean run. btrfs2 is the same boot with the
two &of->mutex classes registered in the other order: matched by their
printed names ("#2"), the two boots made a cycle across boots.'
. "$(dirname "$0")/lib.sh"

FIX=$TOP/lockdep-tools/tests/fixtures/names-6.12
DB=$TRASH/db

# names_raw BOOT: a raw directory of fixture BOOT, as collected
names_raw() {
	local d=$TRASH/raw-$1 n id
	mkdir -p "$d/files/proc" "$d/files/sys/kernel/debug/lockdep" &&
	cp "$FIX/$1/lockdep" "$FIX/$1/lockdep_chains" "$d/files/proc/" &&
	cp "$FIX/$1/lockdep_graph" "$d/files$GRAPH_PATH" &&
	cp "$FIX61/lockdep_stats" "$d/files/proc/" &&
	sed "s/^\[[^]]*\] //" "$FIX/$1/console.log" >"$d/files/proc/version" &&
	echo "console=ttyS0 panic=-1" >"$d/files/proc/cmdline" &&
	id=$(awk '$1 == "build_id" { print $2 }' "$FIX/$1/lockdep_graph") &&
	# one ELF note: namesz 4, descsz 20, type 3 (NT_GNU_BUILD_ID), "GNU\0"
	{ printf "\004\000\000\000\024\000\000\000\003\000\000\000GNU\000" &&
	  echo "$id" | xxd -r -p; } >"$d/files/sys/kernel/notes" &&
	kmsg_from_log 0 <"$FIX/$1/console.log" >"$d/kmsg" &&
	n=$(wc -l <"$d/kmsg") &&
	raw_manifest "$d" "kmsg complete $n 0 $((n - 1)) -"
}

test_expect_success 'the three boots, stored' '
	for b in idle btrfs btrfs2; do
		# exit 3: no lock_stat (not a CONFIG_LOCK_STAT kernel)
		names_raw $b &&
		collect_rc 3 --db "$DB" --raw-dir "$TRASH/raw-$b" --label $b ||
		return 1
	done &&
	test "$(sqlite3 "$DB" "SELECT count(*) FROM classes WHERE boot_id = 2 AND identity = '\''&p->lock'\''")" = 3
'

test_expect_success 'lockdep-graph: no cycle in any boot' '
	for b in idle btrfs btrfs2; do
		"$BIN/lockdep-graph" --db "$DB" --boots $b --cycles --list >out &&
		grep -qx "0 cycles" out || { cat out; return 1; }
	done
'

test_expect_success 'lockdep-diff: no false cycle from a shared name; the gate passes' '
	{ "$BIN/lockdep-diff" --db "$DB" --fail-on=new-cycle idle btrfs >out 2>err ||
	  { cat out err; false; }; } &&
	grep -qx "new cycles: 0" out &&
	! grep -q "name collision" out
'

test_expect_success 'lockdep-diff says which names are ambiguous, and compares the rest' '
	"$BIN/lockdep-diff" --db "$DB" idle btrfs >out &&
	grep -qx "ambiguous: 2 names held by several classes of a boot, with no key symbol to tell them apart: not matched across boots (4 dependencies not compared)" out &&
	grep -qx "  ? &of->mutex (1 -> 2 classes)" out &&
	grep -qx "  ? &p->lock (1 -> 3 classes)" out &&
	grep -qx "classes: 1 added, 0 removed" out &&
	grep -qx "  + &cache->alloc_lock" out &&
	grep -qx "dependencies: 1 added, 0 removed" out &&
	grep -q "^  + cpu_hotplug_lock -(EN)-> &cache->alloc_lock$" out &&
	"$BIN/lockdep-diff" --db "$DB" --json idle btrfs >out.json &&
	grep -q "\"ambiguous\":\[{\"identity\":\"&of->mutex\",\"count_a\":1,\"count_b\":2},{\"identity\":\"&p->lock\",\"count_a\":1,\"count_b\":3}\]" out.json &&
	grep -q "\"cycles\":{\"edges_not_listed\":0,\"new\":\[\]}" out.json
'

test_expect_success 'registration order ("#2") is no identity: no cycle across boots' '
	{ "$BIN/lockdep-diff" --db "$DB" --fail-on=new-cycle btrfs btrfs2 >out 2>err ||
	  { cat out err; false; }; } &&
	grep -qx "new cycles: 0" out &&
	"$BIN/lockdep-graph" --db "$DB" --boots btrfs,btrfs2 --cycles --list >out &&
	grep -qx "0 cycles" out &&
	grep -q "boot 2 (btrfs): 5 classes of ambiguous names" out
'

test_done
