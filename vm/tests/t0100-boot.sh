#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The spine: one guest boot, collected through the agent port.
# KERNEL_SOURCE (vm/lib.sh) picks the series' base: build/linux (6.1) by
# default, build/linux-6.12 with linux-source-6.12.
. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"

KTREE=$(. "$TOP/vm/lib.sh" && echo "$KREPO")

VM=$TOP/build/vm/t0100
RAW=$VM/raw

test_expect_success 'guest boots, serves the agent, powers off by itself' '
	{ "$TOP/vm/boot.sh" -n t0100 -t 300 >"$TRASH/boot.out" 2>&1 ||
	  { cat "$TRASH/boot.out"; false; }; }
'

test_expect_success 'locking self-tests all pass' '
	"$TOP/vm/check-selftest.sh" "$VM/console.log"
'

test_expect_success 'self-test check fails on a FAILED cell' '
	sed "0,/  ok  |/s//FAILED|/" "$VM/console.log" >bad.log &&
	! "$TOP/vm/check-selftest.sh" bad.log
'

test_expect_success 'self-test check fails when the summary line is missing' '
	grep -v "testcases passed" "$VM/console.log" >cut.log &&
	! "$TOP/vm/check-selftest.sh" cut.log
'

test_expect_success 'lockdep_stats through the agent says debug_locks 1' '
	grep -E "^ *debug_locks: +1$" "$RAW/files/proc/lockdep_stats"
'

test_expect_success 'every file the kernel has arrived complete' '
	for f in /proc/lockdep /proc/lockdep_stats /proc/lockdep_chains \
		/proc/lock_stat /proc/version /proc/cmdline /proc/config.gz \
		/sys/kernel/notes; do
		grep -qx "file complete $f [0-9]*" "$RAW/MANIFEST" &&
		test -s "$RAW/files$f" || { echo "not complete: $f"; exit 1; }
	done &&
	! grep -E "^file incomplete" "$RAW/MANIFEST"
'

test_expect_success 'kmsg stream is complete with no sequence gap' '
	grep -E "^kmsg complete [0-9]+ 0 [0-9]+ -$" "$RAW/MANIFEST" &&
	grep -q "testcases passed" "$RAW/kmsg"
'

# The agent's sampler (lockdep-agent(8) SAMPLES), on by default: its
# series arrived whole, each sample has the lines the kernel's own
# lockdep_stats has, every label one the parser knows (on 6.12 too).
test_expect_success 'the agent sampled lockdep_stats: whole samples, every line known' '
	grep -qx "file complete /run/lockdep/stats [1-9][0-9]*" "$RAW/MANIFEST" &&
	"$BIN/lockdep-collect" --db s.db --raw-dir "$RAW" >/dev/null 2>err &&
	! grep -q "run/lockdep/stats" err &&
	n=$(sqlite3 s.db "SELECT count(*) FROM stats_samples WHERE kind = '\''periodic'\''") &&
	echo "$n samples" &&
	test "$n" -ge 1 &&
	test "$(sqlite3 s.db "SELECT count(*) FROM stats_sample_values WHERE known = 0")" = 0 &&
	sed -n "s/^ *\([^:]*[^: ]\) *:.*/\1/p" "$RAW/files/proc/lockdep_stats" >labels &&
	last=$(sqlite3 s.db "SELECT max(idx) FROM stats_samples") &&
	sqlite3 s.db "SELECT name FROM stats_sample_values WHERE sample_idx = $last ORDER BY idx" >sampled &&
	test_cmp labels sampled
'

test_expect_success 'the kernel is the one we built' '
	release=$(make -s -C "$KTREE" kernelrelease) &&
	grep -q "Linux version $release " "$RAW/files/proc/version"
'

test_done
