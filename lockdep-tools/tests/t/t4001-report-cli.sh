#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-report options, output formats and exit codes'

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/report-lib.sh"

MAN=$TOP/lockdep-tools/man/lockdep-report.1
export MAN

test_expect_success 'setup: a log with two reports around noise' '
	{
		echo "[    0.000000] Linux version 6.1.0"
		cat "$CORPUS/026-suspicious-rcu.txt"
		echo "[   40.000000] eth0: link up"
		cat "$CORPUS/032-lock-held-returning-user.txt"
	} >"$TRASH/two.log"
'

test_expect_success '--help shows usage, types and exit status' '
	"$BIN/lockdep-report" --help >out &&
	grep "^usage: lockdep-report" out &&
	grep "circular-dependency" out &&
	grep "64 usage error" out
'

test_expect_success 'no file, bad option, bad type, --json with --list: 64' '
	for args in "" "--bogus x" "--type=nope x" "--json --list x"; do
		test_expect_code 64 "$BIN/lockdep-report" $args >out 2>err && test -s err || return 1
	done
'

test_expect_success 'missing input: exit 2, error names the file' '
	test_expect_code 2 "$BIN/lockdep-report" no-such.log >out 2>err &&
	grep "unable to open '"'"'no-such.log'"'"'" err
'

test_expect_success 'one missing input among good ones: exit 1, output kept' '
	test_expect_code 1 "$BIN/lockdep-report" --list "$TRASH/two.log" missing.log >out 2>err &&
	test "$(wc -l <out)" = 2
'

test_expect_success 'a line over 1 MiB after two reports: exit 1, both printed, line named' '
	{ cat "$TRASH/two.log"; head -c 1100000 /dev/zero | tr "\\0" a; echo; } >long.log &&
	n=$(($(wc -l <"$TRASH/two.log") + 1)) &&
	test_expect_code 1 "$BIN/lockdep-report" --list long.log >out 2>err && test "$(wc -l <out)" = 2 &&
	grep -q "long.log:$n: a line longer than 1048576 bytes" err &&
	{ head -c 1100000 /dev/zero | tr "\\0" a; echo; } >only-long.log &&
	test_expect_code 2 "$BIN/lockdep-report" --list only-long.log >out 2>err && test ! -s out
'

test_expect_success '--list: one line per report, ids in order' '
	"$BIN/lockdep-report" --list "$TRASH/two.log" >out &&
	cat >expect <<-\EOT &&
	1 suspicious-rcu-usage        suspicious RCU usage in ipv6_flowlabel_opt
	2 lock-held-returning-to-user lock held when returning to user space in fuse_lock_inode
	EOT
	test_cmp expect out
'

test_expect_success '--type filters, ids stay those of the whole input' '
	"$BIN/lockdep-report" --list --type lock-held-returning-to-user \
		"$TRASH/two.log" >out &&
	grep "^2 lock-held-returning-to-user" out &&
	test "$(wc -l <out)" = 1
'

test_expect_success 'standard input as -' '
	"$BIN/lockdep-report" --list - <"$TRASH/two.log" >out &&
	test "$(wc -l <out)" = 2
'

test_expect_success 'plain text reads like the kernel report' '
	"$BIN/lockdep-report" "$CORPUS/045-circular.txt" >out &&
	grep "^report 1: circular-dependency: possible deadlock in shm_close" out &&
	grep "^-> #3 (&mm->mmap_sem){++++++}:" out &&
	grep "^  &ids->rwsem --> &xfs_dir_ilock_class --> &mm->mmap_sem" out &&
	grep "^stack backtrace:" out &&
	grep "^  acquiring  (&ids->rwsem){+++++.}, at: shm_close+0x34/0x130" out
'

test_expect_success 'JSON: an array with the documented keys' '
	"$BIN/lockdep-report" --json "$TRASH/two.log" >out &&
	test "$(head -c1 out)" = "[" &&
	for key in type title locks chain frames role name subclass usage \
		   usage_bits dedup_key truncated raw stacks; do
		grep -q "\"$key\":" out || return 1
	done
'

test_expect_success 'plain text: every summary line of a report, each field in place' '
	cp "$CORPUS/007-inconsistent.txt" in.log &&
	"$BIN/lockdep-report" in.log >out &&
	cat >expect <<-\EOF &&
	report 1: inconsistent-lock-state: inconsistent lock state in btrfs_run_delayed_iputs
	  header:  WARNING: inconsistent lock state
	  message: inconsistent {IN-SOFTIRQ-W} -> {SOFTIRQ-ON-W} usage.
	  kernel:  6.4.0-syzkaller-09904-ga507db1d8fdc, not tainted
	  task:    btrfs-cleaner/16079 on CPU 3 [HC0[0]:SC0[0]:HE1:SE1]
	  input:   in.log:1-81
	  dedup:   646a935b7a8a07c6

	EOF
	head -n 8 out >summary &&
	test_cmp expect summary
'

# man_report_keys MAN: the report object keys JSON OUTPUT documents (the
# .B/.BR items of its .TP paragraphs, up to its first subsection)
man_report_keys() {
	sed -n "/^\.SH JSON OUTPUT/,/^\.S[SH] [^J]/p" "$1" |
		awk "prev == \".TP\" && /^\.BR? / { print } { prev = \$0 }" |
		sed "s/^\.BR* //; s/\"[^\"]*\"/ /g; s/[^a-z_]/ /g" | tr " " "\n" | grep . | sort -u
}

test_expect_success 'JSON: each report has exactly the keys lockdep-report(1) documents' '
	man_report_keys "$TOP/lockdep-tools/man/lockdep-report.1" >expect &&
	test "$(wc -l <expect)" -ge 25 &&
	"$BIN/lockdep-report" --json "$TRASH/two.log" "$CORPUS/007-inconsistent.txt" >out.json &&
	python3 -c "import json, sys
for r in json.load(open(sys.argv[1])):
    print(\"\\n\".join(sorted(r)))" out.json | sort -u >actual &&
	test_cmp expect actual
'

test_expect_success 'JSON of an input without reports is []' '
	echo "nothing to see" | "$BIN/lockdep-report" --json - >out &&
	echo "[]" >expect &&
	test_cmp expect out
'

test_expect_success 'usage string decoded into bits' '
	"$BIN/lockdep-report" --pretty "$CORPUS/007-inconsistent.txt" >out &&
	grep -A6 "\"usage\": \"+.?.\"" out >bits &&
	grep "\"HARDIRQ-ON-W\"" bits &&
	grep "\"IN-SOFTIRQ-W\"" bits &&
	grep "\"SOFTIRQ-ON-W\"" bits
'

test_expect_success 'truncated report: exit 1, warning names file and line' '
	head -n 12 "$CORPUS/020-circular.txt" >cut.log &&
	test_expect_code 1 "$BIN/lockdep-report" --list cut.log >out 2>err &&
	grep "cut.log:1: report 1 (circular-dependency) is truncated" err &&
	grep "(truncated)" out
'

test_expect_success 'hostile lock names come out as valid escaped JSON' '
	hostile_log hostile.log &&
	test_expect_code 1 "$BIN/lockdep-report" --json hostile.log >out 2>err &&
	grep -F "\"name\":\"q\\\"uo\\\\te\\u001b[31m\\u0001x\"" out &&
	grep -F "\"name\":\"\\ufffd(\\ufffd\"" out &&
	grep -c AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA out &&
	! LC_ALL=C grep -q "$(printf "[\001\033\377]")" out
'

test_expect_success 'garbage input: no report, no crash' '
	head -c 200000 /dev/urandom >garbage &&
	"$BIN/lockdep-report" --json garbage >out &&
	test_cmp - out <<-\EOT
	[]
	EOT
'

test_expect_success 'write error on stdout: exit 2' '
	if [ -w /dev/full ]; then
		test_expect_code 2 "$BIN/lockdep-report" "$CORPUS/020-circular.txt" >/dev/full 2>err && grep "unable to write output" err
	fi
'

test_expect_success 'man page passes groff -ww and matches --help synopsis' '
	test -r "$MAN" &&
	groff -t -ww -z -man "$MAN" 2>err && test ! -s err &&
	groff -t -man -Tascii -P-cbou -rLL=200n "$MAN" >man.txt 2>/dev/null &&
	sed -n "/^SYNOPSIS/,/^DESCRIPTION/p" man.txt >synopsis &&
	for opt in $("$BIN/lockdep-report" --help | sed -n "/^usage:/,/^\$/p" |
		     grep -o -- "--*[a-z]*"); do
		grep -q -- "$opt" synopsis || return 1
	done &&
	for t in $("$BIN/lockdep-report" --help | sed -n "/^Types:/,/^\$/p" | tail -n +2); do
		grep -q -- "^ *$t " man.txt || return 1
	done
'

test_done
