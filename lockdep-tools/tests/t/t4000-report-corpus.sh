#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-report on every real-world report of shared/corpus

Reads INDEX.tsv at run time: each file must give exactly one report, of
the type the index says, with exactly the lock class names the index
lists (as a set) and, for circular dependencies, the chain in order.'

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/report-lib.sh"

if [ ! -r "$CORPUS/INDEX.tsv" ]; then
	test_skip_all 'corpus reports' "no report corpus: no $CORPUS/INDEX.tsv"
fi

# Tabs are IFS white space, so empty columns would merge: read on \037.
while IFS=$'\037' read -r file type era kernel source locks chain notes; do
	[ "$file" = file ] && continue
	expect_rc=0
	expect_trunc=false
	case "$notes" in *truncated=yes*) expect_rc=1 expect_trunc=true ;; esac
	[ "$locks" = '(none printed)' ] && locks=
	export file type locks chain expect_rc expect_trunc
	test_expect_success "$file: one $type report, locks and chain exact" '
		test_expect_code $expect_rc "$BIN/lockdep-report" --pretty "$CORPUS/$file" >out.json 2>err &&
		json_summary out.json >summary &&
		test "$(wc -l <summary)" = 1 &&
		IFS=$'"'"'\037'"'"' read -r got_type got_trunc got_locks got_chain \
			< <(tr '"'"'\t'"'"' '"'"'\037'"'"' <summary) &&
		test "$got_type" = "$type" &&
		test "$got_trunc" = "$expect_trunc" &&
		sorted_set "$locks" >expect.locks &&
		sorted_set "$got_locks" >actual.locks &&
		test_cmp expect.locks actual.locks &&
		test "$got_chain" = "$chain"
	'
done < <(tr '\t' '\037' <"$CORPUS/INDEX.tsv")

test_done
