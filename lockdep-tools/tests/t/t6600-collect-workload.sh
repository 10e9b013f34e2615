#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-collect --run: the guest workload, no VM

A real lockdep-agent serves a UNIX socket (--listen) and runs a script of
this test as its workload (--workload). This host has no lockdep, which
those collections store as what the kernel does not offer (exit 3, or 4
for a failed workload, or 1 when partial): they check what MANIFEST,
workload.out and the messages say. The exit status of a
complete boot, the database rows and where each report falls come from a
raw directory made of the real 6.1 fixtures.'
. "$(dirname "$0")/lib.sh"

collect() { "$BIN/lockdep-collect" "$@"; }
# raw_from_fixtures is of a kernel without our series (no lockdep_graph,
# no scenario list): complete, exit 3
collect_plain() {
	test_expect_code 3 "$BIN/lockdep-collect" "$@"
}
DB=$TRASH/db

# workload NAME BODY: an executable sh script ./NAME
workload() {
	printf '#!/bin/sh\n%s\n' "$2" >"$1" && chmod +x "$1"
}

# run WANT NAME [COLLECT ARGS]: collect with --run NAME into raw/ exits
# WANT (test_expect_code; 0,3 for a stored boot whose workload passed:
# 3 when this host's kernel lacks lockdep's files); stderr in log, shown
run() {
	local want=$1 name=$2
	shift 2
	rm -rf raw &&
	test_expect_code "$want" collect --socket agent.sock --raw-dir raw \
		--timeout 10 --run "$name" --poweroff "$@" 2>log &&
	cat log || { cat log; return 1; }
}

test_expect_success 'usage: --run and --run-timeout are checked (64)' '
	for args in "--socket s --raw-dir r --run bad/name" \
		"--socket s --raw-dir r --run \"\"" \
		"--socket s --raw-dir r --run-timeout 5" \
		"--socket s --raw-dir r --run x --run-timeout 0" \
		"--log l --db d --run x"; do
		test_expect_code 64 eval collect $args 2>err || { echo "args: $args"; cat err; return 1; }
	done &&
	test_expect_code 64 "$BIN/lockdep-agent" --workload "" 2>err
'

test_expect_success 'the workload runs with a clean environment in its files/' '
	mkdir -p wl/files &&
	workload wl/run "echo \"cwd \$(pwd)\"; env | sort; echo to-stderr >&2; exit 3" &&
	start_agent --workload "$PWD/wl/run" &&
	LOCKDEP_SECRET=1 run 4 smoke.sh &&
	wait "$(cat agent.pid)" &&
	grep -q "workload smoke.sh: exit status 3 after" log &&
	cat >want <<-EOF &&
	cwd $PWD/wl/files
	HOME=/
	LANG=C
	PATH=/bin:/sbin:/usr/bin:/usr/sbin
	PWD=$PWD/wl/files
	TERM=dumb
	to-stderr
	EOF
	grep -v "^_=\|^SHLVL=" raw/workload.out >got &&
	test_cmp want got &&
	line=$(grep "^workload " raw/MANIFEST) &&
	set -- $line &&
	test "$2 $3" = "exited smoke.sh" &&
	test "$6" = $((3 << 8)) &&
	test "$8" = "$(wc -c <raw/workload.out)" &&
	# the workload ran after the first kmsg dump: its start is past it
	if grep -q "^kmsg complete [1-9]" raw/MANIFEST; then
		last=$(sed -n "s/^kmsg complete [0-9]* [0-9]* \([0-9]*\) .*/\1/p" raw/MANIFEST) &&
		test "$4" -le $((last + 1)) && test "$5" -ge "$4"
	fi
'

test_expect_success 'output past 64 KiB keeps its last 64 KiB and the count' '
	workload run "seq 1 30000; echo last-line" &&
	start_agent --workload "$PWD/run" &&
	run 0,3 big.sh &&
	wait "$(cat agent.pid)" &&
	{ seq 1 30000; echo last-line; } >all &&
	total=$(wc -c <all) &&
	set -- $(grep "^workload " raw/MANIFEST) &&
	test "$8" = "$total" &&
	test "$(wc -c <raw/workload.out)" = 65536 &&
	tail -c 65536 all >want &&
	cmp want raw/workload.out &&
	grep -q "$total bytes of output" log
'

test_expect_success 'a workload killed by a signal is stored as such' '
	workload run "kill -9 \$\$" &&
	start_agent --workload "$PWD/run" &&
	run 4 killed.sh --db db4 &&
	wait "$(cat agent.pid)" &&
	grep -q "workload killed.sh: killed by signal 9" log &&
	test "$(sqlite3 db4 "SELECT state, exit_code IS NULL, signal FROM workloads")" = "exited|1|9"
'

test_expect_success 'no workload in the guest: partial, naming it and why' '
	start_agent --workload "$PWD/nowhere" &&
	run 1 ghost.sh --db db5 &&
	wait "$(cat agent.pid)" &&
	grep -q "workload .ghost.sh. did not start (ENOENT: no workload to run at $PWD/nowhere)" log &&
	grep -qx "workload not-started ghost.sh - - - - - ENOENT" raw/MANIFEST &&
	test ! -e raw/workload.out &&
	test "$(sqlite3 db5 "SELECT state, error FROM workloads")" = "not started|ENOENT"
'

test_expect_success 'a hung workload: --run-timeout ends the wait, its output so far and the files come' '
	workload run "echo stuck in step 2; exec sleep 30" &&
	start_agent --workload "$PWD/run" &&
	run 1 hang.sh --run-timeout 1 --db db6 &&
	wait "$(cat agent.pid)" &&
	grep -q "workload .hang.sh. did not end within 1 s (--run-timeout): its exit status is missing; its output so far is kept (16 bytes)" log &&
	grep -q "^workload running hang.sh [0-9-]* - - - 16$" raw/MANIFEST &&
	echo "stuck in step 2" >expect && test_cmp expect raw/workload.out &&
	grep -q "^file complete /proc/version " raw/MANIFEST &&
	test "$(sqlite3 db6 "SELECT state, end_seq IS NULL, exit_code IS NULL, output, output_bytes FROM workloads")" = "running|1|1|stuck in step 2
|16" &&
	sqlite3 db6 "SELECT partial_reason FROM boots" | grep -q "workload .hang.sh. did not end within 1 s" &&
	test_expect_code 1 collect --raw-dir raw --db db6r 2>err &&
	grep -q "workload .hang.sh. did not end: its exit status is missing (its output so far is kept)" err &&
	test "$(sqlite3 db6r "SELECT state, output, output_bytes FROM workloads")" = "running|stuck in step 2
|16"
'

test_expect_success 'what the workload leaves running is killed when it ends' '
	workload run "sleep 4242 & echo \$! >$PWD/left.pid; echo started" &&
	start_agent --workload "$PWD/run" &&
	run 0,3 leftover.sh &&
	wait "$(cat agent.pid)" &&
	grep -q "workload leftover.sh: exit status 0" log &&
	sleep 0.2 &&
	# by its pid, not its name (a run of this test beside this one has
	# the same); a zombie, waiting for a reaper, is ended
	! ps -o stat= -p "$(cat left.pid)" | grep -q "^[^Z]"
'

test_expect_success 'the guest goes away while the workload runs: partial, naming it' '
	workload run "echo \$\$ >$PWD/lost.pid; exec sleep 30" &&
	start_agent --workload "$PWD/run" &&
	{ { sleep 1; kill -KILL "$(cat agent.pid)"; } & } &&
	run 1 lost.sh --db db8 &&
	wait &&
	# the workload outlives its killed agent: ended by its pid, never by
	# its name (a run of this test beside this one has the same)
	{ kill "$(cat lost.pid)" || :; } &&
	grep -q "workload .lost.sh. did not end: .* while it ran; its exit status and output are missing" log &&
	grep -q "^workload running lost.sh " raw/MANIFEST &&
	test "$(sqlite3 db8 "SELECT state FROM workloads")" = running
'

# raw_with_workload DIR LINE: the fixture raw directory, with LINE
raw_with_workload() {
	raw_from_fixtures "$1" && echo "$2" >>"$1/MANIFEST"
}

test_expect_success 'a complete boot whose workload failed exits 4; one that passed exits 3 (no series)' '
	rm -rf raw && raw_with_workload raw "workload exited fail.sh 10 20 256 1500 8" &&
	printf "oops\nno\n" >raw/workload.out &&
	test_expect_code 4 collect --raw-dir raw --db db9 2>log &&
	rm -rf raw && raw_with_workload raw "workload exited pass.sh 10 20 0 1500 0" &&
	: >raw/workload.out &&
	test_expect_code 3 collect --raw-dir raw --db db9 2>log && grep -q "this kernel does not offer" log &&
	test "$(sqlite3 db9 "SELECT name, exit_code, duration_ms, length(output), output_bytes FROM workloads ORDER BY boot_id" | tr "\n" " ")" = \
		"fail.sh|1|1500|8|8 pass.sh|0|1500|0|0 "
'

test_expect_success 'each report is before, during or after the workload' '
	rm -rf raw && raw_from_fixtures raw &&
	id=$(collect_plain --raw-dir raw --db db10 2>log) &&
	# the kernel log record its first line came in: kmsg line N is record N - 1
	s=$(sqlite3 db10 "SELECT kmsg_seq FROM reports WHERE boot_id = $id") &&
	line=$(sqlite3 db10 "SELECT first_line FROM reports WHERE boot_id = $id") &&
	test "$s" = $((line - 1)) &&
	sed -n "${line}p" raw/kmsg | grep -q "^[0-9]*,$s,.*;=====" &&
	for phase in before during after; do
		case $phase in
		before) line="workload exited w.sh $((s + 1)) $((s + 5)) 0 10 0" ;;
		during) line="workload exited w.sh $s $((s + 5)) 0 10 0" ;;
		after) line="workload exited w.sh 0 $s 0 10 0" ;;
		esac &&
		rm -rf raw && raw_with_workload raw "$line" && : >raw/workload.out &&
		id=$(collect_plain --raw-dir raw --db db10 2>log) || return 1
		echo "$id" >"boot-$phase" &&
		got=$(sqlite3 db10 "SELECT phase FROM report_workload_phase WHERE boot_id = $id") &&
		test "$got" = "$phase" || { echo "$phase: got $got"; return 1; }
	done &&
	"$BIN/lockdep-report" --db db10 --boot "$id" >text &&
	grep -q "^workload: w.sh, exit status 0 after 0.0 s; this report came after it$" text &&
	"$BIN/lockdep-report" --db db10 --boot "$id" --json >json &&
	grep -q "\"workload\":{\"name\":\"w.sh\",\"state\":\"exited\",\"exit_code\":0,\"signal\":null,\"duration_ms\":10,\"phase\":\"after\"}" json
'

test_expect_success 'lockdep-report --phase lists only the reports of that phase' '
	for boot in before during after; do
		for phase in before during after; do
			"$BIN/lockdep-report" --db db10 --boot "$(cat boot-$boot)" \
				--list --phase=$phase >list || return 1
			want=0 && { test $boot != $phase || want=1; } &&
			test "$(wc -l <list)" = $want ||
			{ echo "boot $boot, --phase=$phase: $(cat list)"; return 1; }
		done
	done &&
	test_expect_code 64 "$BIN/lockdep-report" --db db10 --phase=while 2>err &&
	grep -q "unknown --phase .while.: expected before, during or after" err &&
	test_expect_code 64 "$BIN/lockdep-report" --phase=during raw/kmsg 2>err &&
	grep -q "need --db" err
'

test_expect_success 'lockdep-diff names each boot'\''s workload' '
	rm -rf raw && raw_with_workload raw "workload exited first.sh 1 2 0 2500 0" &&
	: >raw/workload.out &&
	a=$(collect_plain --raw-dir raw --db db11 2>/dev/null) &&
	rm -rf raw && raw_from_fixtures raw &&
	b=$(collect_plain --raw-dir raw --db db11 2>/dev/null) &&
	"$BIN/lockdep-diff" --db db11 "$a" "$b" >out &&
	grep -qx "   workload first.sh: exit status 0 after 2.5 s" out &&
	test "$(grep -c "^   workload " out)" = 1 &&
	"$BIN/lockdep-diff" --db db11 --json "$a" "$b" >json &&
	grep -q "\"workload\":{\"name\":\"first.sh\",\"state\":\"exited\",\"status\":\"exit status 0 after 2.5 s\"}" json &&
	grep -q "\"workload\":null" json
'

test_expect_success 'hostile workload lines are refused, naming the line; nothing stored' '
	raw_from_fixtures good && : >good/workload.out &&
	collect_plain --raw-dir good --db "$DB" >/dev/null 2>&1 &&
	snapshot &&
	n=$(($(wc -l <good/MANIFEST) + 1)) &&
	for line in "workload exited ../x 1 2 0 1 0" "workload done x.sh 1 2 0 1 0" \
		"workload exited x.sh 1 2 0 1" "workload exited x.sh 1 2 - 1 0" \
		"workload running x.sh 1 - 0 - -" "workload not-started x.sh - - - - -" \
		"workload exited x.sh 1 2 99999999999 1 0" "workload exited x.sh 1 2 0 1 5" \
		"workload exited x.sh -1 2 0 1 0" "workload running x.sh 1 - - - 5"; do
		rm -rf raw && cp -a good raw && echo "$line" >>raw/MANIFEST &&
		test_expect_code 2 collect --raw-dir raw --db "$DB" 2>err &&
		grep -q "raw/MANIFEST:$n: \|raw/workload.out: " err ||
		{ echo "line: $line"; cat err; return 1; }
	done &&
	unchanged
'
test_expect_success 'an output or a duration past 2^63 - 1: refused, naming the line' '
	DB=big.db &&
	collect_plain --raw-dir good --db "$DB" >/dev/null 2>&1 &&
	snapshot &&
	n=$(($(wc -l <good/MANIFEST) + 1)) &&
	for line in "workload exited x.sh 1 2 0 1 18446744073709551615" \
		"workload exited x.sh 1 2 0 9223372036854775808 65536"; do
		rm -rf raw && cp -a good raw && echo "$line" >>raw/MANIFEST &&
		head -c 65536 /dev/zero >raw/workload.out &&
		test_expect_code 2 collect --raw-dir raw --db "$DB" 2>err && grep -q "raw/MANIFEST:$n: expected .workload" err ||
		{ echo "line: $line"; cat err; return 1; }
	done &&
	unchanged &&
	test "$(sqlite3 "$DB" "SELECT count(*) FROM workloads WHERE output_bytes < 0 OR duration_ms < 0")" = 0
'

# an agent a failed test left behind
[ -f "$TRASH/agent.pid" ] && kill -KILL "$(cat "$TRASH/agent.pid")" 2>/dev/null
test_done
