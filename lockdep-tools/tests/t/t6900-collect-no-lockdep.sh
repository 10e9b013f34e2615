#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='a kernel without lockdep is a normal case

A distro kernel (CONFIG_PROVE_LOCKING off, no CONFIG_LOCKDEP) has no
/proc/lockdep, lockdep_stats or lockdep_chains. Its kernel log and its
workload are collected all the same: lockdep-collect says once that the
kernel has no lockdep and exits 3 ("everything the kernel offers"), the
files are in the "does not offer" list, lockdep-graph and lockdep-diff
say there is no lock graph, and lockdep-report shows the boot, its
workload and "0 reports".'
. "$(dirname "$0")/lib.sh"

DB=$TRASH/db

# a raw directory as the agent of a kernel without lockdep leaves it:
# the kernel log, /proc/version, cmdline, config.gz, the build id note,
# and a workload that ran
nolockdep_raw() {
	local d=$1 n
	mkdir -p "$d/files/proc" "$d/files/sys/kernel" &&
	echo "Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org) #1 SMP PREEMPT_DYNAMIC Debian 6.1.158-1" \
		>"$d/files/proc/version" &&
	echo "console=ttyS0 panic=-1" >"$d/files/proc/cmdline" &&
	printf "CONFIG_LOCK_DEBUGGING_SUPPORT=y\n# CONFIG_PROVE_LOCKING is not set\n" |
		gzip >"$d/files/proc/config.gz" &&
	printf "\004\000\000\000\024\000\000\000\003\000\000\000GNU\000\001\043\105\147\211\253\315\357\001\043\105\147\211\253\315\357\001\043\105\147" \
		>"$d/files/sys/kernel/notes" &&
	printf "[    0.000000] Linux version 6.1.0-57-amd64\n[    1.000000] virtio_blk virtio1: [vda] 131072 512-byte logical blocks\n[    2.000000] EXT4-fs (vda): mounted filesystem\n" |
		kmsg_from_log 0 >"$d/kmsg" &&
	n=$(wc -l <"$d/kmsg") &&
	raw_manifest "$d" "kmsg complete $n 0 $((n - 1)) -" &&
	printf "done\n" >"$d/workload.out" &&
	echo "workload exited fs-smoke 1 2 0 1200 5" >>"$d/MANIFEST"
}

test_expect_success 'raw directory of a kernel without lockdep: stored, exit 3' '
	nolockdep_raw "$TRASH/raw" &&
	collect_rc 3 --db "$DB" --raw-dir "$TRASH/raw" --label nolockdep &&
	test "$(grep -c "this kernel has no lockdep" err)" = 1 &&
	grep -q "^lockdep-collect: this kernel does not offer: /proc/lockdep, /proc/lockdep_stats, /proc/lockdep_chains, /proc/lock_stat" err &&
	! grep -q "partial\|required" err &&
	test "$(sqlite3 "$DB" "SELECT completeness FROM boots WHERE label = '\''nolockdep'\''")" = complete &&
	sqlite3 "$DB" "SELECT not_offered FROM boots" | grep -q "^/proc/lockdep, " &&
	test "$(sqlite3 "$DB" "SELECT count(*) FROM workloads")" = 1
'

test_expect_success 'a /proc copy of such a kernel: its version alone, exit 3' '
	mkdir -p pd && cp "$TRASH/raw/files/proc/version" pd/ &&
	collect_rc 3 --db "$DB" --proc-dir pd --label pd &&
	grep -q "this kernel has no lockdep" err &&
	mkdir -p empty && collect_rc 2 --db "$DB" --proc-dir empty
'

test_expect_success 'lockdep-graph: no lock graph for that boot' '
	"$BIN/lockdep-graph" --db "$DB" --boots nolockdep --list >out 2>&1 &&
	grep -q "nolockdep) has no lock graph: this kernel has no lockdep" out &&
	! grep -q "dependencies from /proc/lockdep alone" out &&
	"$BIN/lockdep-graph" --db "$DB" --boots nolockdep --cycles --json >out.json &&
	grep -q "\"graph_export\":false,\"lockdep\":false" out.json
'

test_expect_success 'lockdep-diff: no lock graph for that side' '
	plain_proc_dir plain &&
	test_expect_code 3 "$BIN/lockdep-collect" --db "$DB" --proc-dir plain --label plain >/dev/null 2>&1 &&
	"$BIN/lockdep-diff" --db "$DB" nolockdep plain >out &&
	grep -q "^A has no lock graph: this kernel has no lockdep" out &&
	! grep -q "^A has no graph export" out &&
	grep -q "^B has no graph export" out
'

test_expect_success 'lockdep-report: the boot, its workload and 0 reports' '
	"$BIN/lockdep-report" --db "$DB" --boot 1 >out &&
	grep -q "^boot 1 (nolockdep): kernel 6.1.0-57-amd64, complete; no lockdep$" out &&
	grep -q "^workload fs-smoke: exit status 0 after 1.2 s$" out &&
	grep -qx "0 reports" out
'

test_done
