#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-collect --repro-source: a C reproducer'\''s runs, stored

vm/repro.sh stores each boot that ran a C reproducer with its source, the
fragment and patches of its kernel (--repro-source, --repro-config,
--repro-patch) and the verdict, drawn when the boot is stored from the
first report during the workload and its duration. lockdep-report shows
it under the boot: the verdict with syzbot'\''s title, and the history of
the source ("reproduced on A; fixed by P on B"). The boots are raw
directories of the real 6.1 fixtures (one report) with a workload line
that puts the report during or before the run.'
. "$(dirname "$0")/lib.sh"

# the fixtures are of a kernel without our series: complete, exit 3
collect_plain() {
	test_expect_code 3 "$BIN/lockdep-collect" "$@"
}
q() { sqlite3 db "$1"; }

# raw_run DIR PHASE: the fixtures with a workload repro.c that ran 1.5 s,
# the report during it or before it
raw_run() {
	rm -rf "$1" && raw_from_fixtures "$1" &&
	s=$(sed -n "s/^[0-9]*,\([0-9]*\),.*;=====.*/\1/p" "$1/kmsg" | head -n 1) &&
	test -n "$s" &&
	case $2 in
	during) echo "workload exited repro.c $s $((s + 5)) 0 1500 0" ;;
	before) echo "workload exited repro.c $((s + 1)) $((s + 5)) 0 1500 0" ;;
	esac >>"$1/MANIFEST" &&
	: >"$1/workload.out"
}

test_expect_success 'setup: a reproducer, a fragment, two patches' '
	printf "int main(void) { for (;;); }\n" >repro.c &&
	printf "CONFIG_TUN=y\n" >extra.config &&
	printf "diff --git a/x b/x\n" >fix-1.patch &&
	printf "diff --git a/y b/y\n" >fix-2.patch
'

test_expect_success 'usage: --repro-config and --repro-patch need --repro-source, which needs --db (64)' '
	raw_run raw during &&
	test_expect_code 64 "$BIN/lockdep-collect" --raw-dir raw --db db \
		--repro-patch fix-1.patch 2>err &&
	grep -q "need --repro-source" err &&
	test_expect_code 64 "$BIN/lockdep-collect" --socket s --raw-dir raw \
		--repro-source repro.c 2>err &&
	grep -q "repro-source needs --db" err &&
	test ! -e db
'

test_expect_success 'a file that cannot be read: named, nothing stored (2)' '
	test_expect_code 2 "$BIN/lockdep-collect" --raw-dir raw --db db \
		--repro-source repro.c --repro-patch missing.patch 2>err &&
	grep -q "unable to open --repro-patch .missing.patch." err &&
	test ! -e db
'

test_expect_success 'reproduced: the first report during the run, the run'\''s length, the files' '
	collect_plain --raw-dir raw --db db --label without --repro-source repro.c \
		--repro-config extra.config >id 2>log &&
	test "$(q "SELECT source_name, reproduced, report_seq IS NOT NULL, duration_ms,
		fragment_name, patch_names IS NULL FROM repro_runs")" = \
		"repro.c|1|1|1500|extra.config|1" &&
	q "SELECT writefile('\''source'\'', source), writefile('\''fragment'\'', fragment)
		FROM repro_runs" >/dev/null &&
	test_cmp repro.c source && test_cmp extra.config fragment &&
	test "$(q "SELECT length(source_hash) FROM repro_runs")" = 16 &&
	"$BIN/lockdep-report" --db db --boot without >text &&
	grep -qx "reproducer repro.c (source hash [0-9a-f]*), KCONFIG extra.config" text &&
	title=$("$BIN/lockdep-report" --db db --boot without --list --title=syzbot \
		--phase=during | sed "s/^[0-9]* [^ ]* *//") &&
	test -n "$title" &&
	grep -qxF "verdict: reproduced in 1.5 s: $title" text &&
	grep -qx "history: reproduced on boot 1 (without)" text
'

test_expect_success 'not reproduced with the patches: the history says fixed by them' '
	raw_run raw before &&
	collect_plain --raw-dir raw --db db --label with --repro-source repro.c \
		--repro-config extra.config --repro-patch fix-1.patch \
		--repro-patch fix-2.patch >id 2>log &&
	test "$(q "SELECT reproduced, report_seq IS NULL, patch_names FROM repro_runs
		WHERE boot_id = $(cat id)" | tr "\n" " ")" = "0|1|fix-1.patch fix-2.patch " &&
	q "SELECT writefile('\''patches'\'', patches) FROM repro_runs WHERE boot_id = $(cat id)" >/dev/null &&
	cat fix-1.patch fix-2.patch >want && test_cmp want patches &&
	"$BIN/lockdep-report" --db db --boot with >text &&
	grep -qx "reproducer repro.c (source hash [0-9a-f]*), KCONFIG extra.config, patched with fix-1.patch, fix-2.patch" text &&
	grep -qx "verdict: not reproduced in 1.5 s" text &&
	grep -qx "history: reproduced on boot 1 (without); fixed by fix-1.patch, fix-2.patch on boot 2 (with)" text
'

test_expect_success 'reproduced with a patch: the history says not fixed by it' '
	raw_run raw during &&
	printf "diff --git a/z b/z\n" >wrong.patch &&
	collect_plain --raw-dir raw --db db --label wrong --repro-source repro.c \
		--repro-patch wrong.patch >id 2>log &&
	"$BIN/lockdep-report" --db db --boot wrong >text &&
	grep -q "^verdict: reproduced in 1.5 s: " text &&
	grep -qx "history: reproduced on boot 1 (without); fixed by fix-1.patch, fix-2.patch on boot 2 (with); not fixed by wrong.patch on boot 3 (wrong)" text
'

test_expect_success 'another source has its own history; a boot without a reproducer shows none' '
	raw_run raw during &&
	echo "int main(void) { return 0; }" >other.c &&
	collect_plain --raw-dir raw --db db --label other --repro-source other.c >id 2>log &&
	"$BIN/lockdep-report" --db db --boot other >text &&
	grep -qx "history: reproduced on boot 4 (other)" text &&
	"$BIN/lockdep-report" --db db --boot with >text &&
	grep -q "^history: reproduced on boot 1 (without); fixed by" text &&
	raw_run raw during &&
	collect_plain --raw-dir raw --db db --label plain >id 2>log &&
	"$BIN/lockdep-report" --db db --boot plain >text &&
	! grep -q "^reproducer\|^verdict\|^history" text
'

test_expect_success 'lockdep-merge copies the runs, their reports found by seq' '
	"$BIN/lockdep-merge" --db merged.db --quiet db &&
	test "$(sqlite3 merged.db "SELECT count(*) FROM repro_runs")" = 4 &&
	"$BIN/lockdep-report" --db merged.db --boot without >text &&
	grep -qxF "verdict: reproduced in 1.5 s: $("$BIN/lockdep-report" --db db --boot without --list --title=syzbot --phase=during | sed "s/^[0-9]* [^ ]* *//")" text
'

test_done
