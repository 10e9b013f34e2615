#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-report finds the same reports under every log prefix

Corpus reports printed without any prefix are dressed as dmesg (plain,
-T, -H, -d), kmsg, syslog, ISO syslog and journal output, with CRLF line
ends, and two of them interleaved line by line with PRINTK_CALLER tags;
each must parse to the same type, truncation, locks and chain as the
original.'

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/report-lib.sh"

summary_of() {
	"$BIN/lockdep-report" --pretty "$1" >"$1.json" &&
	json_summary "$1.json"
}

for f in 020-circular.txt 010-hardirq-safe-unsafe.txt 034-circular.txt \
	 039-softirq-safe-unsafe.txt 002-circular.txt; do
	export f
	test_expect_success "$f: same report under every prefix" '
		cp "$CORPUS/$f" orig.log &&
		summary_of orig.log >expect &&
		test -s expect &&
		awk "{ printf \"[%5d.%06d] %s\n\", 100 + NR / 1000, NR % 1000000, \$0 }" orig.log >stamped.log &&
		sed "s/^/[Mon Jan  8 10:11:12 2024] /" orig.log >dmesg-T.log &&
		sed "s/^/[Jan 8 10:11] /; s/^\[Jan 8/[Jan08/" orig.log >dmesg-H.log &&
		sed "s/^/[  +0.000012] /" orig.log >dmesg-H2.log &&
		sed "s/^/[   12.000001 <    0.000012>] /" orig.log >dmesg-d.log &&
		sed "s/^/<4>[   12.000001] /" orig.log >kmsg.log &&
		sed "s/^/Jan  8 10:11:12 host kernel: /" orig.log >syslog.log &&
		sed "s/^/2024-01-08T10:11:12.345678+01:00 host kernel: /" orig.log >iso.log &&
		sed "s/^/[   12.000001] host kernel: /" orig.log >journal.log &&
		sed "s/^/[   12.000001][ T4242] /; s/\$/\r/" orig.log >caller-crlf.log &&
		for log in stamped dmesg-T dmesg-H dmesg-H2 dmesg-d kmsg syslog iso journal caller-crlf; do
			summary_of $log.log >actual &&
			test_cmp expect actual || { echo "in $log"; return 1; }
		done
	'
done

test_expect_success 'two reports interleaved line by line, told apart by caller' '
	sed "s/^/[    1.000000][ T100] /" "$CORPUS/020-circular.txt" >a.log &&
	sed "s/^/[    1.000000][    C1] /" "$CORPUS/007-inconsistent.txt" >b.log &&
	awk "{ print; if ((getline line < \"b.log\") > 0) print line }
	     END { while ((getline line < \"b.log\") > 0) print line }" a.log >mixed.log &&
	test "$(wc -l <mixed.log)" = $(( $(wc -l <a.log) + $(wc -l <b.log) )) &&
	{ summary_of a.log; summary_of b.log; } | LC_ALL=C sort >expect &&
	summary_of mixed.log | LC_ALL=C sort >actual &&
	test "$(wc -l <actual)" = 2 &&
	test_cmp expect actual
'

test_expect_success 'a report between other kernel messages and oopses' '
	{
		echo "[    0.000000] Linux version 6.1.0 (gcc 12)"
		echo "[    1.000000] ------------[ cut here ]------------"
		echo "[    1.000001] WARNING: CPU: 0 PID: 1 at kernel/x.c:1 f+0x1/0x2"
		sed "s/^/[    2.000000] /" "$CORPUS/007-inconsistent.txt"
		echo "[    3.000000] BUG: kernel NULL pointer dereference, address: 0"
		sed "s/^/[    4.000000] /" "$CORPUS/033-still-has-locks-held.txt"
	} >mixed.log &&
	"$BIN/lockdep-report" --list mixed.log >out &&
	cat >expect <<-\EOT &&
	1 inconsistent-lock-state     inconsistent lock state in btrfs_run_delayed_iputs
	2 locks-held-at-exit          still has locks held in pipe_lock
	EOT
	test_cmp expect out
'

test_done
