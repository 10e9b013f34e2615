#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-report --advise: verdicts on the corpus, patches on fixtures

Every report of shared/corpus gets the verdict, rule and certainty that
tests/fixtures/advise/corpus-verdicts.tsv says, written from reading each
report before the tool ran. The fixtures in the shape of a syzbot log
(file:line and [inline] frames) give patches that git apply --check takes
against a small source tree, and none where the evidence says deadlock.'

. "$(dirname "$0")/lib.sh"

FIX=$TOP/lockdep-tools/tests/fixtures/advise
export FIX

# verdict_of FILE: "rule sure|unsure" from the text output
verdict_of() {
	"$BIN/lockdep-report" --advise "$1" 2>/dev/null |
		awk '/^  rule: / { print $2, ($3 == "(unsure)" ? "unsure" : "sure") }'
}

if [ ! -r "$CORPUS/INDEX.tsv" ]; then
	test_skip 'corpus verdicts' "no report corpus: no $CORPUS/INDEX.tsv"
else
	test_expect_success 'every corpus report has an expected verdict' '
		for f in "$CORPUS"/[0-9]*.txt; do
			grep -q "^$(basename "$f")	" "$FIX/corpus-verdicts.tsv" ||
				{ echo "no expectation for $f"; exit 1; }
		done
	'
	while IFS=$'\t' read -r file verdict rule sure why; do
		case $file in '#'*|'') continue ;; esac
		export file verdict rule sure
		test_expect_success "$file: $verdict ($rule, $sure)" '
			# 1: a truncated report (t4000 checks which)
			test_expect_code 0,1 "$BIN/lockdep-report" --advise --json "$CORPUS/$file" >out.json 2>err &&
			test "$(verdict_of "$CORPUS/$file")" = "$rule $sure" &&
			grep -q "\"verdict\":\"$verdict\"" out.json
		'
	done <"$FIX/corpus-verdicts.tsv"
	test_expect_success 'no corpus report of a real deadlock is advised a change' '
		for f in $(awk -F"\t" "\$2 == \"deadlock\" { print \$1 }" "$FIX/corpus-verdicts.tsv"); do
			test_expect_code 0,1 "$BIN/lockdep-report" --advise "$CORPUS/$f" >out 2>/dev/null &&
			! grep -q "^  change: " out && ! grep -q "^  patch:" out || exit 1
		done
	'
fi

# patch_of LOG [ARGS]: the advised patch of the one report of LOG
patch_of() {
	local log=$1
	shift
	"$BIN/lockdep-report" --advise "$@" "$log" | sed -n '/^  patch:$/,$p' | tail -n +2
}

test_expect_success 'two instances of one class: spin_lock_nested() at the inner one, a patch that applies' '
	cp -r "$FIX/src" tree &&
	patch_of "$FIX/recursive-two.log" --source tree >p.diff &&
	grep -qx "+	spin_lock_nested(&b->lock, SINGLE_DEPTH_NESTING);" p.diff &&
	grep -qx -- "-	spin_lock(&b->lock);" p.diff &&
	test "$(grep -c "^[-+]	" p.diff)" = 2 &&
	(cd tree && git apply --check ../p.diff && git apply ../p.diff) &&
	grep -q "spin_lock_nested(&b->lock, SINGLE_DEPTH_NESTING);" tree/drivers/demo/port.c
'

test_expect_success 'one instance taken twice: a real deadlock, no change, no patch' '
	"$BIN/lockdep-report" --advise --source "$FIX/src" "$FIX/recursive-same.log" >out &&
	grep -qx "advice: real deadlock: change the order or split the lock" out &&
	grep -qx "  rule: recursive-same-instance" out &&
	! grep -q "^  change:" out && ! grep -q "^  patch:" out &&
	"$BIN/lockdep-report" --advise --source "$FIX/src" --json "$FIX/recursive-same.log" >out.json &&
	grep -q "\"changes\":\[\]" out.json && grep -q "\"patch\":null" out.json
'

test_expect_success 'softirq-safe lock taken with softirqs on: spin_lock_bh() and its release' '
	cp -r "$FIX/src" tree2 &&
	patch_of "$FIX/inconsistent-bh.log" --source tree2 >p.diff &&
	grep -qx "+	spin_lock_bh(&a->lock);" p.diff &&
	grep -qx "+	spin_unlock_bh(&a->lock);" p.diff &&
	(cd tree2 && git apply --check ../p.diff)
'

test_expect_success 'bad unlock order: lockdep_allow_unordered_unlock() on a line before the release' '
	cp -r "$FIX/src" tree4 &&
	"$BIN/lockdep-report" --advise --source tree4 "$FIX/unlock-order.log" >out &&
	grep -qx "  rule: unlock-order" out &&
	grep -q "^  why: &a_key is released while &b_key, taken after it, is still held" out &&
	grep -qx "  why: if the code does not mean it, swap the two releases instead" out &&
	sed -n "/^  patch:$/,\$p" out | tail -n +2 >p.diff &&
	grep -qx "+	lockdep_allow_unordered_unlock(&a->lock);" p.diff &&
	test "$(grep -c "^[-+]	" p.diff)" = 1 &&
	grep -q "^@@ -32,7 +32,8 @@$" p.diff &&
	(cd tree4 && git apply --check ../p.diff && git apply ../p.diff) &&
	sed -n 35,36p tree4/drivers/demo/port.c >got &&
	printf "\tlockdep_allow_unordered_unlock(&a->lock);\n\tspin_unlock(&a->lock);\n" >want &&
	test_cmp want got
'

test_expect_success 'bad unlock order without --source: the annotation in words, no rename' '
	"$BIN/lockdep-report" --advise "$FIX/unlock-order.log" >out &&
	grep -qx "    + lockdep_allow_unordered_unlock() on the lock released, on a line of its own before spin_unlock()" out &&
	! grep -q "_non_nested" out
'

test_expect_success 'reclaim-fs inconsistency: no irq fix, the two choices, no patch' '
	"$BIN/lockdep-report" --advise --source "$FIX/src" "$FIX/reclaim-fs.log" >out &&
	grep -qx "  rule: reclaim-fs" out &&
	grep -q "^advice: unsure:" out &&
	grep -q "^  choice: allocate with GFP_NOFS" out &&
	grep -q "^  no patch: the choice is the developer" out &&
	sed -n "/^advice:/,\$p" out >advice &&
	! grep -q "_irq\|_bh" advice
'

test_expect_success 'a lockdep WARNING no rule covers: unknown, unsure, named' '
	"$BIN/lockdep-report" --advise "$TOP/lockdep-tools/tests/fixtures/shapes/lockdep-warning.log" >out &&
	grep -qx "  rule: unknown (unsure)" out &&
	grep -q "^  why: lockdep reported something no rule here covers (other-lockdep)" out &&
	! grep -q "^  change:" out
'

test_expect_success 'absolute DWARF paths are found by their tail under --source' '
	sed "s|drivers/demo/port.c|/home/dev/linux/drivers/demo/port.c|g" \
		"$FIX/recursive-two.log" >abs.log &&
	patch_of abs.log --source "$FIX/src" >p.diff &&
	grep -q "^+++ b/drivers/demo/port.c$" p.diff
'

test_expect_success '--source: a frame leading out of DIR is refused and named' '
	mkdir -p esc/outside && cp -r "$FIX/src" esc/tree &&
	cp "$FIX/src/drivers/demo/port.c" esc/outside/secret.c &&
	ln -s ../outside esc/tree/out &&
	for name in ../outside/secret.c out/secret.c "$PWD/esc/outside/secret.c"; do
		sed "s|drivers/demo/port.c|$name|g" "$FIX/recursive-two.log" >esc.log &&
		"$BIN/lockdep-report" --advise --source esc/tree esc.log >out &&
		! grep -q "^  patch:" out &&
		case $name in
		/*) grep -q "is not under esc/tree" out ;;
		*) grep -q "^  why: refused the frame at $name:13 in port_link: under esc/tree, it leads outside the directory" out ;;
		esac || { echo "$name:"; cat out; exit 1; }
	done
'

test_expect_success '--source: a FIFO, a device link and a file over 16 MiB are refused' '
	cp -r "$FIX/src" big && mkfifo big/fifo.c && ln -s /dev/zero big/zero.c &&
	cp big/drivers/demo/port.c big/huge.c && truncate -s 17M big/huge.c &&
	for name in fifo.c zero.c huge.c; do
		sed "s|drivers/demo/port.c|$name|g" "$FIX/recursive-two.log" >big.log &&
		timeout 20 "$BIN/lockdep-report" --advise --source big big.log >out &&
		grep -q "^  why: refused the frame at $name:13 in port_link: under big, it" out &&
		! grep -q "^  patch:" out || { echo "$name:"; cat out; exit 1; }
	done &&
	grep -q "it is over 16 MiB" out
'

# applies DIR PATCH: git apply and GNU patch both take PATCH in DIR
applies() {
	(cd "$1" && git apply --check "../$2" && patch -p1 --dry-run -s <"../$2")
}

test_expect_success 'a name with .., // or ./ gets its plain path in the patch' '
	cp -r "$FIX/src" norm && mkdir norm/drivers/x &&
	for name in drivers/x/../demo/port.c drivers//demo/./port.c \
		./drivers/demo//port.c /home/dev/linux/drivers/x/../demo/port.c; do
		sed "s|drivers/demo/port.c|$name|g" "$FIX/recursive-two.log" >norm.log &&
		patch_of norm.log --source norm >p.diff &&
		grep -qx "diff --git a/drivers/demo/port.c b/drivers/demo/port.c" p.diff &&
		grep -qx -- "--- a/drivers/demo/port.c" p.diff &&
		grep -qx "+++ b/drivers/demo/port.c" p.diff &&
		applies norm p.diff || { echo "$name:"; cat p.diff; exit 1; }
	done
'

test_expect_success 'a .. after a symbolic link or a missing directory: not patched' '
	cp -r "$FIX/src" lnk && mkdir -p lnk/lib/sub lnk/lib/demo &&
	cp lnk/drivers/demo/port.c lnk/lib/demo/port.c &&
	ln -s ../lib/sub lnk/drivers/y &&
	for name in drivers/y/../demo/port.c drivers/nodir/../demo/port.c; do
		sed "s|drivers/demo/port.c|$name|g" "$FIX/recursive-two.log" >lnk.log &&
		"$BIN/lockdep-report" --advise --source lnk lnk.log >out &&
		grep -q "^  why: refused the frame at $name:13 in port_link: under lnk, a \"..\" in its name does not lead where its plain path does" out &&
		! grep -q "^  patch:" out || { echo "$name:"; cat out; exit 1; }
	done
'

test_expect_success '--patch-dir: the patch as the file has it, control bytes and all' '
	cp -r "$FIX/src" ctl &&
	# CR before a newline, a form feed, an escape sequence, Latin-1
	sed -i -e "10s|\$| /* caf\o351 */|" -e "11s/\$/\r/" -e "14s/^/\f/" \
		-e "15s|\$| /* \o033[31m */|" ctl/drivers/demo/port.c &&
	cp -r ctl ctl.orig && mkdir pd &&
	"$BIN/lockdep-report" --source ctl --patch-dir pd "$FIX/recursive-two.log" >out &&
	grep -qx "  patch file: pd/report-1.patch" out &&
	grep -q "^  note: the patch below is escaped for a terminal" out &&
	grep -qF " \\x0c	a->peer = b;" out &&
	! grep -q "$(printf "\033")" out &&
	test "$(ls pd)" = report-1.patch &&
	applies ctl pd/report-1.patch &&
	(cd ctl && git apply ../pd/report-1.patch) &&
	sed "13s/spin_lock(&b->lock)/spin_lock_nested(\&b->lock, SINGLE_DEPTH_NESTING)/" \
		ctl.orig/drivers/demo/port.c >want &&
	cmp want ctl/drivers/demo/port.c &&
	"$BIN/lockdep-report" --json --source ctl.orig --patch-dir pd "$FIX/recursive-two.log" >out.json &&
	grep -q "\"patch_file\":\"pd/report-1.patch\"" out.json &&
	"$BIN/lockdep-report" --json --source ctl.orig "$FIX/recursive-two.log" >out.json &&
	grep -q "\"patch_file\":null" out.json
'

test_expect_success '--patch-dir: a planted link is replaced, not written through' '
	mkdir pd2 && echo mine >victim &&
	ln -s ../victim pd2/report-1.patch &&
	"$BIN/lockdep-report" --source "$FIX/src" --patch-dir pd2 "$FIX/recursive-two.log" >out &&
	echo mine >want && test_cmp want victim &&
	test -f pd2/report-1.patch && ! test -L pd2/report-1.patch &&
	cp -r "$FIX/src" src2 && applies src2 pd2/report-1.patch &&
	test "$(ls -A pd2)" = report-1.patch &&
	mkdir pd3 pd3/report-1.patch &&
	test_expect_code 2 "$BIN/lockdep-report" --source "$FIX/src" --patch-dir pd3 \
		"$FIX/recursive-two.log" >out 2>err &&
	grep -q "pd3/report-1.patch" err &&
	test "$(ls -A pd3)" = report-1.patch
'

test_expect_success '--patch-dir: usage errors; a source with a NUL byte is refused' '
	test_expect_code 64 "$BIN/lockdep-report" --source "$FIX/src" --patch-dir /nonexistent \
		"$FIX/recursive-two.log" >out 2>err &&
	grep -q "not a directory" err &&
	test_expect_code 64 "$BIN/lockdep-report" --advise --patch-dir . \
		"$FIX/recursive-two.log" >out 2>err &&
	grep -q "patch-dir needs --source" err &&
	cp -r "$FIX/src" nul && printf "/* \000 */\n" >>nul/drivers/demo/port.c &&
	"$BIN/lockdep-report" --source nul "$FIX/recursive-two.log" >out &&
	grep -q "^  why: refused the frame at drivers/demo/port.c:13 in port_link: under nul, it holds a NUL byte" out &&
	! grep -q "^  patch:" out
'

test_expect_success '--db ids are digits: a sign, a space or a huge --show id is a usage error' '
	"$BIN/lockdep-collect" --db ids.db --log "$FIX/recursive-two.log" >/dev/null 2>&1 &&
	"$BIN/lockdep-report" --db ids.db --show=1 --source "$FIX/src" >out &&
	grep -q "^  patch:" out &&
	for opt in --show=+1 "--show= 1" --show=0x1 \
		--show=99999999999999999999; do
		test_expect_code 64 "$BIN/lockdep-report" --db ids.db "$opt" >out 2>err &&
		grep -q "expected a positive id" err || { echo "$opt"; cat err; exit 1; }
	done &&
	# a --boot that is not digits alone is a label (lockdep-db(5))
	for opt in --boot=+1 "--boot= 1"; do
		test_expect_code 2 "$BIN/lockdep-report" --db ids.db "$opt" >out 2>err &&
		grep -q "no boot .*in .ids.db." err || { echo "$opt"; cat err; exit 1; }
	done
'

test_expect_success 'a source line without the call: the change in words, no patch' '
	cp -r "$FIX/src" tree3 &&
	sed -i "13s/.*/	do_something_else();/" tree3/drivers/demo/port.c &&
	"$BIN/lockdep-report" --advise --source tree3 "$FIX/recursive-two.log" >out &&
	grep -q "does not call a lock function" out &&
	grep -q "^  no patch: a change could not be located" out
'

test_expect_success 'without --source: the change, no patch' '
	"$BIN/lockdep-report" --advise "$FIX/recursive-two.log" >out &&
	grep -q "^  change: drivers/demo/port.c:13 in port_link" out &&
	grep -q "^  no patch: no source directory" out
'

test_expect_success 'JSON: an advice member only with --advise' '
	"$BIN/lockdep-report" --json "$FIX/recursive-two.log" >plain.json &&
	! grep -q "\"advice\"" plain.json &&
	"$BIN/lockdep-report" --advise --json --source "$FIX/src" "$FIX/recursive-two.log" >adv.json &&
	for k in verdict text rule sure reasons changes choices patch no_patch; do
		grep -q "\"$k\":" adv.json || { echo "no $k"; exit 1; }
	done &&
	grep -q "\"proposed\":\"spin_lock_nested(&b->lock, SINGLE_DEPTH_NESTING)\"" adv.json
'

test_expect_success 'lockdep-graph --report: the advice as a note beside the chain' '
	"$BIN/lockdep-collect" --db g.db --log "$FIX/recursive-two.log" 2>/dev/null &&
	"$BIN/lockdep-graph" --db g.db --report=1 >g.dot &&
	grep "advice_note" g.dot >note &&
	grep -q "advice: false positive of lock nesting: annotate" note &&
	grep -q "drivers/demo/port.c:13: spin_lock -> spin_lock_nested(..., SINGLE_DEPTH_NESTING)" note &&
	"$BIN/lockdep-collect" --db g2.db --log "$FIX/recursive-same.log" 2>/dev/null &&
	"$BIN/lockdep-graph" --db g2.db --report=1 | grep advice_note >note2 &&
	grep -q "real deadlock" note2 && ! grep -q "_nested" note2
'

test_expect_success 'usage errors: --source not a directory, --advise with --list' '
	test_expect_code 64 "$BIN/lockdep-report" --source /nonexistent "$FIX/recursive-two.log" 2>err && grep -q "not a directory" err &&
	test_expect_code 64 "$BIN/lockdep-report" --advise --list "$FIX/recursive-two.log" 2>err
'

test_done
