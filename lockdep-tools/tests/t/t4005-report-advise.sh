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
