#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='syzbot_title equals the title syzkaller gives

Fixtures written for this test in the shapes of each era'"'"'s lockdep
output: the bracketed "[ INFO: ... ]" headers of 2.6.x and 3.x with
"at: [<pc>] f+0x" sites, 4.x with timestamps, 5.x with caller ids and
6.x plain and symbolised; complete, cut and interleaved with another
report. Each title is the one syzkaller'"'"'s report package gives the
same text (pkg/report/linux.go: "... in corrupted" when the frames it
looks for are missing, the bare header when the lines its pattern
needs are). lockdep-report --title=syzbot prints it in text.'

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/report-lib.sh"

FIX=$TOP/lockdep-tools/tests/fixtures/syzbot-titles

# fixture, lockdep-report's exit status (1: truncated), syzbot's title
cat >"$TRASH/titles" <<'EOT'
26-recursive-at-primitive.log	0	possible deadlock in lock_sock_nested
26-circular-cut-before-lock.log	1	INFO: possible circular locking dependency detected ]
3x-inconsistent-raw-at.log	0	inconsistent lock state in _raw_spin_lock
3x-rcu-bracket.log	0	INFO: suspicious RCU usage in quux_find_peer
3x-rcu-bracket-cut.log	1	INFO: suspicious RCU usage. ]
3x-hardirq-order-no-format.log	0	INFO: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected ]
4x-bad-unlock-interleaved.log	1	BUG: bad unlock balance in corrupted
4x-bad-unlock-fault-injection.log	1	BUG: bad unlock balance in corrupted
4x-rcu-cut-by-fault.log	1	WARNING: suspicious RCU usage
5x-circular-caller-ids.log	0	possible deadlock in tray_shutdown
6x-rcu-no-culprit.log	1	WARNING: suspicious RCU usage in corrupted
6x-rcu-syscall-se.log	0	WARNING: suspicious RCU usage in wobble
6x-inconsistent-cut.log	1	inconsistent lock state in corrupted
6x-circular-cut-after-acquire.log	1	possible deadlock in corrupted
6x-circular-header-only.log	1	WARNING: possible circular locking dependency detected
6x-held-freed-at-primitive.log	0	WARNING: held lock freed in lock_sock_nested
6x-bad-unlock-cut.log	1	WARNING: bad unlock balance in corrupted
6x-recursive-symbolised.log	0	possible deadlock in yarn_knot
6x-circular-at-inlined.log	0	possible deadlock in spool_fill
6x-recursive-long-name.log	0	possible deadlock in quux_quux_quux_quux_quux_quux_quux_quux_quux_quux_quux_quux_quux_quux_quux_quux_quux_quux_quux_quux
EOT

while IFS=$'\t' read -r fix code syz; do
	export fix code syz
	test_expect_success "$fix: $syz" '
		test_expect_code "$code" "$BIN/lockdep-report" --pretty \
			"$FIX/$fix" >out.json 2>err &&
		json_titles out.json | cut -f2 >actual &&
		printf "%s\n" "$syz" >expect &&
		test_cmp expect actual
	'
done <"$TRASH/titles"

# syzkaller titles the raw console output (Parse) before it symbolises
# (Symbolize), and its {{FUNC}} needs the "+0x" or "." after a name, so
# no "[inline]" line of a symbolised report ever names the function:
# its testdata (report 695, "WARNING in nfc_llcp_unregister_device"
# under "nfc_llcp_find_local ... [inline]") shows it too. The same report
# raw and symbolised here: the inline chain is there and not used.
test_expect_success 'setup: the spool report raw, and a binary to symbolise it' '
	cat >ext.c <<-\EOF &&
	__attribute__((noinline)) int ext(int x) { return x * x; }
	int spool_fill(int);
	void _start(void) { spool_fill(1); for (;;) ; }
	EOF
	cat >spool.c <<-\EOF &&
	int ext(int);
	static inline __attribute__((always_inline)) int spool_dump_threads(int x)
	{
		return ext(x) * 3;
	}
	__attribute__((noinline)) int spool_fill(int x)
	{
		return spool_dump_threads(x) + 1;
	}
	EOF
	${CC:-cc} -g -O2 -fno-pie -no-pie -static -nostdlib -Wl,--build-id \
		-o vmlinux spool.c ext.c &&
	start=$(nm vmlinux | awk "\$3 == \"spool_fill\" { print \$1 }") &&
	call=$(objdump -d vmlinux | awk "/<spool_fill>:/ { f = 1 }
		f && /call.*<ext>/ { sub(/:.*/, \"\"); print \$1; exit }") &&
	size=$(nm -S vmlinux | awk "\$4 == \"spool_fill\" { print \$2 }") &&
	site=$(printf "spool_fill+0x%x/0x%x" $((0x$call + 5 - 0x$start)) \
		$((0x$size))) &&
	sed -e "/ \[inline\]\$/d" -e "s/ [a-z/_.]*\.[chS]:[0-9][0-9]*\$//" \
	    -e "s|spool_fill.isra.0+0x[0-9a-f]*/0x397|$site|" \
		"$FIX/6x-circular-at-inlined.log" >raw.log &&
	! grep -e "inline\]" -e "isra" raw.log &&
	grep -c "$site" raw.log >n &&
	echo 5 >expect && test_cmp expect n
'

test_expect_success 'symbolised here: the inline chain is not the function' '
	"$BIN/lockdep-report" --vmlinux=vmlinux --pretty raw.log >out.json &&
	grep -q "\"func\": \"spool_dump_threads\"" out.json &&
	json_titles out.json >actual &&
	printf "%s\t%s\n" "possible deadlock in spool_fill" \
		"possible deadlock in spool_fill" >expect &&
	test_cmp expect actual &&
	"$BIN/lockdep-collect" --db sym.db --vmlinux=vmlinux --log raw.log \
		>/dev/null 2>err &&
	"$BIN/lockdep-report" --db sym.db --all --list --title=syzbot >list &&
	grep -x "1 circular-dependency *possible deadlock in spool_fill" list
'

test_expect_success 'the same titles from a database (lockdep-collect --db --log)' '
	while IFS="	" read -r fix code syz; do
		"$BIN/lockdep-collect" --db t.db --log "$FIX/$fix" >/dev/null 2>&1 ||
		return 1
	done <titles &&
	test_expect_code 1 "$BIN/lockdep-report" --db t.db --all --list \
		--title=syzbot >list 2>err &&
	sed -e "s/^[0-9]* [a-z-]* *//" -e "s/ (truncated)\$//" list >actual &&
	cut -f3 titles >expect &&
	test_cmp expect actual
'

test_expect_success '--title=syzbot prints syzbot'"'"'s title in text and --list' '
	test_expect_code 1 "$BIN/lockdep-report" --title=syzbot \
		"$FIX/6x-inconsistent-cut.log" >text 2>err &&
	grep -x "report 1: inconsistent-lock-state: inconsistent lock state in corrupted" text &&
	test_expect_code 0 "$BIN/lockdep-report" --list --title=syzbot \
		"$FIX/6x-rcu-syscall-se.log" >list 2>err &&
	grep -x "1 suspicious-rcu-usage *WARNING: suspicious RCU usage in wobble" list &&
	test_expect_code 0 "$BIN/lockdep-report" --list --title=ours \
		"$FIX/6x-rcu-syscall-se.log" >list 2>err &&
	grep -x "1 suspicious-rcu-usage *suspicious RCU usage in __se_sys_wobble" list
'

test_expect_success '--title takes ours or syzbot, and only for text' '
	test_expect_code 64 "$BIN/lockdep-report" --title=dashboard \
		"$FIX/6x-rcu-syscall-se.log" >out 2>err &&
	grep "unknown --title .dashboard." err &&
	test_expect_code 64 "$BIN/lockdep-report" --json --title=syzbot \
		"$FIX/6x-rcu-syscall-se.log" >out 2>err &&
	grep -e "--json carries both" err
'

test_done
