#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Your kernel, your test: workload boots on an SMP guest.
#   idle   the lockdep kernel, nothing run: the baseline
#   all    the same kernel running vm/workloads/all.sh (ext4 + jbd2 on the
#          scratch disk, a loop mount, tmpfs, TCP/UDP/AF_UNIX, pipes,
#          epoll, IPC, a sysfs sweep): at least twice the idle boot's classes, ext4's and
#          jbd2's among them, status 0 and no lockdep report
#   hang   a workload that never ends: -w ends it, what arrived is stored
#          (its output so far too),
#          the boot is partial and the message names the workload
#   plain  the unpatched 6.1 kernel (make kernel-plain) through make
#          vm-boot KERNEL_IMAGE= with 3 CPUs (SMP=3) running net-smoke:
#          collected, drawn, and diffed against the patched boot
# All four go into one database. Boots land in $BUILD/vm/t0800-*/.

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"

VMDIR=${BUILD:-$TOP/build}/vm
DB=$TRASH/db
VMLINUX=$TOP/build/linux/vmlinux
PLAIN=$TOP/build/linux-plain

q() { sqlite3 "$DB" "$1"; }
# stat LABEL NAME: the boot's /proc/lockdep_stats value NAME
stat() {
	q "SELECT s.value FROM stats s JOIN boots b ON b.id = s.boot_id
		WHERE b.label = '$1' AND s.name = '$2'"
}
# cpus_up NAME N: 1 when boot NAME's kernel brought up N CPUs
cpus_up() {
	tr -d '\r' <"$VMDIR/t0800-$1/console.log" |
		grep -cE "smp: Brought up 1 node, $2 CPUs?$"
}

test_expect_success 'idle: boots with 2 CPUs online, stored' '
	{ "$TOP/vm/boot.sh" -n t0800-idle -- --db "$DB" --label idle \
		--vmlinux "$VMLINUX" >out 2>&1 || { cat out; false; }; } &&
	test "$(cpus_up idle 2)" = 1
'

test_expect_success 'all.sh: exit 0, stored with its workload row, 2 CPUs' '
	{ "$TOP/vm/boot.sh" -n t0800-all -r "$TOP/vm/workloads/all.sh" \
		-f "$TOP/vm/workloads" -- --db "$DB" --label all \
		--vmlinux "$VMLINUX" >out 2>&1 || { cat out; false; }; } &&
	test "$(cpus_up all 2)" = 1 &&
	test "$(q "SELECT w.name, w.state, w.exit_code FROM workloads w
		JOIN boots b ON b.id = w.boot_id WHERE b.label = '\''all'\''")" = \
		"all.sh|exited|0" &&
	grep -q "fs-smoke: done, status 0" "$VMDIR/t0800-all/raw/workload.out" &&
	grep -q "net-smoke: done, status 0" "$VMDIR/t0800-all/raw/workload.out"
'

test_expect_success 'all.sh: twice the classes of the idle boot, ext4 and jbd2 among them' '
	idle=$(stat idle lock-classes) && all=$(stat all lock-classes) &&
	echo "classes: idle $idle, all.sh $all" &&
	echo "dependencies: idle $(stat idle "direct dependencies"), all.sh $(stat all "direct dependencies")" &&
	echo "chains: idle $(stat idle "dependency chains"), all.sh $(stat all "dependency chains")" &&
	test "$all" -ge $((2 * idle)) &&
	for c in "&ei->i_data_sem" jbd2_handle "&sb->s_type->i_mutex_key" \
		sk_lock-AF_INET sk_lock-AF_INET6 sk_lock-AF_UNIX; do
		test "$(q "SELECT count(*) FROM classes c JOIN boots b ON b.id = c.boot_id
			WHERE b.label = '\''all'\'' AND c.name LIKE '\''$c%'\''")" -gt 0 ||
		{ echo "no class $c"; exit 1; }
	done
'

test_expect_success 'all.sh: no lockdep report; lockdep-diff names the workload and its status' '
	test "$(q "SELECT count(*) FROM reports r JOIN boots b ON b.id = r.boot_id
		WHERE b.label = '\''all'\''")" = 0 &&
	! grep -E "(WARNING|BUG): " "$VMDIR/t0800-all/console.log" &&
	"$BIN/lockdep-diff" --db "$DB" idle all >diff &&
	grep -qE "^   workload all.sh: exit status 0 after [0-9.]+ s$" diff
'

test_expect_success 'a workload that hangs: ended by -w, stored with its output so far, partial (1), named' '
	printf "#!/bin/sh\necho started\nsleep 100000\n" >hang.sh &&
	{ test_expect_code 1 env SMP=1 "$TOP/vm/boot.sh" -n t0800-hang -r hang.sh -w 15 -- \
		--db "$DB" --label hang >out 2>&1 || { cat out; false; }; } &&
	grep -q "workload .hang.sh. did not end within 15 s (--run-timeout): its exit status is missing; its output so far is kept (8 bytes)" out &&
	test "$(q "SELECT w.state, w.output FROM workloads w JOIN boots b ON b.id = w.boot_id
		WHERE b.label = '\''hang'\''")" = "running|started" &&
	test "$(stat hang lock-classes)" -gt 0 &&
	test "$(cpus_up hang 1)" = 1
'

test_expect_success 'plain 6.1 through make vm-boot KERNEL_IMAGE=, SMP=3, net-smoke: stored' '
	{ make -s -C "$TOP" --no-print-directory vm-boot \
		KERNEL_IMAGE="$PLAIN/arch/x86/boot/bzImage" VMLINUX="$PLAIN/vmlinux" \
		MODULES="$PLAIN.modules" NAME=t0800-plain SMP=3 \
		RUN="$TOP/vm/workloads/net-smoke.sh" DB="$DB" >out 2>&1 || { cat out; false; }; } &&
	grep -q "this kernel does not offer: /sys/kernel/debug/lockdep/graph" out &&
	test "$(cpus_up plain 3)" = 1 &&
	test "$(q "SELECT w.state, w.exit_code FROM workloads w JOIN boots b
		ON b.id = w.boot_id WHERE b.label = '\''t0800-plain'\''")" = "exited|0"
'

test_expect_success 'plain: its graph, and what it lacks' '
	"$BIN/lockdep-graph" --db "$DB" --boot t0800-plain --cycles --list >out &&
	grep -q "has no graph export: dependencies from /proc/lockdep alone" out &&
	"$BIN/lockdep-graph" --db "$DB" --boot t0800-plain --max-nodes 0 >g.dot &&
	test "$(grep -c -- "-> n" g.dot)" -gt 100
'

test_expect_success 'plain against the patched workload boot: a diff, said what A lacks' '
	"$BIN/lockdep-diff" --db "$DB" t0800-plain all >out &&
	grep -q "^A has no graph export: dependencies from /proc/lockdep alone" out &&
	grep -qE "^   workload net-smoke.sh: exit status 0 after [0-9.]+ s$" out &&
	grep -q "distance 1 only" out
'

test_done
