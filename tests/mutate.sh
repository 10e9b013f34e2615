#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/mutate.sh [NAME...]: break the tools the way a user would notice,
# one change at a time, and check that the tests fail (make
# check-mutate). The tree as it is (tracked and untracked files, not the
# ignored ones) is copied to a scratch directory and its tools built
# there; each mutation below is then applied alone to the copy, the
# tools rebuilt, the tests it names run (tests/run-tap.sh) and the
# mutation undone. Exit 0 when every mutation made its tests fail; 1 when
# one survived, or no longer applies (its sed changed nothing: the code
# moved, update the mutation); 2 when the unmutated tests fail.
#
# CORPUS, VMLINUX (t7000's real kernel) are passed to the tests as the
# tool tests take them, defaulting to this tree's.
set -uo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
export CORPUS=${CORPUS:-$TOP/../shared/corpus}
export VMLINUX=${VMLINUX:-$TOP/build/linux/vmlinux}

# mutation NAME FILE SED-SCRIPT TEST...: FILE under lockdep-tools/src;
# TESTs are lockdep-tools/tests/t scripts, by number.
names=() files=() scripts=() tests=()
mutation() {
	names+=("$1") files+=("$2") scripts+=("$3")
	shift 3
	tests+=("$*")
}

# a documented key of every report renamed in --json
mutation json-key report/report-json.c \
	's/"hardware", r->hardware/"hw", r->hardware/' t4001
# the irq lock inversion header typed as an irq-safe -> irq-unsafe order
mutation irq-inversion-type parse/klog-header.c \
	's/\("possible irq lock inversion dependency detected", \)LDR_IRQ_LOCK_INVERSION/\1LDR_IRQ_SAFE_UNSAFE_ORDER/' \
	t4000 t4004
# an exit status lockdep-graph(1) promises: 2 when the output cannot be
# written
mutation graph-write-exit builtin/lockdep-graph.c \
	'/if (close_output(o, out, pid, wr))/{n;s/goto out;/{ ret = EXIT_OK; goto out; }/}' t8000
# a --fail-on combination: new-report replaces the conditions before it
mutation fail-on-combination builtin/lockdep-diff.c \
	's/f->conditions |= DIFF_FAIL_NEW_REPORT;/f->conditions = DIFF_FAIL_NEW_REPORT;/' t9000
# a database migration step: version 5 leaves the old boots without a uuid
mutation migration-uuid store/schema.c \
	'/UPDATE boots SET uuid = lower(hex(randomblob(16)))/d' t6050 t6200
# the symboliser's inline frames: the frame keeps its innermost inline
# call's line instead of the call site
mutation inline-call-line symbolise/dwarf-lines.c \
	's/lineno = name ? call_line(&die) : 0;/lineno = name ? (call_line(\&die), lineno) : 0;/' t7000
# a tool exiting 0 where it should exit 1: lockdep-report with one input
# missing among good ones
mutation report-missing-input-exit builtin/lockdep-report.c \
	's/return cli_exit(failed || read_in_part/return cli_exit(read_in_part/' t4001
# a report line dropped: the message line of the plain text
mutation report-message-line report/report-plain.c \
	'/field(out, "message:", r->message);/d' t4001 t4002
# --capacity's count: a stored trace without struct lock_trace's header
mutation capacity-trace-header report/capacity.c \
	's/unsigned long long entries = (unsigned long long)t->nr + 3;/unsigned long long entries = t->nr;/' t4020
# lockdep-diff's consumers that grew: a consumer that stayed counts too
mutation diff-grew-equal diff/diff-capacity.c \
	's/if (mb->rows\[i\]\[t\] <= ra)/if (mb->rows[i][t] < ra)/' t4020

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ldt-mutate.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
(cd "$TOP" && git ls-files -z -co --exclude-standard | tar --null -cf - -T -) |
	tar -xf - -C "$WORK" || exit 2
SRC=$WORK/lockdep-tools/src

build() {
	make -s -C "$WORK/lockdep-tools" O="$WORK/build" -j"${JOBS:-2}" >"$WORK/build.log" 2>&1 ||
		{ cat "$WORK/build.log"; return 1; }
}

# run_tests TESTS...: the copy's tool tests of those numbers, quietly
run_tests() {
	local n files=()
	for n in "$@"; do
		files+=("$WORK"/lockdep-tools/tests/t/"$n"-*.sh)
	done
	"$WORK/tests/run-tap.sh" "${files[@]}" >"$WORK/tap.out" 2>&1
}

# selected NAME: the mutation is one of the command line's, or all are
selected() {
	[ ${#ARGS[@]} = 0 ] || printf '%s\n' "${ARGS[@]}" | grep -qx -- "$1"
}
ARGS=("$@")

echo "mutate: building the unmutated tools in $WORK"
build || exit 2
mapfile -t all_tests < <(for i in "${!names[@]}"; do
	selected "${names[i]}" && echo "${tests[i]}"
done | tr ' ' '\n' | sort -u)
if ! run_tests "${all_tests[@]}"; then
	grep '^not ok' "$WORK/tap.out"
	echo "mutate: the unmutated tree fails its tests: nothing to learn" >&2
	exit 2
fi

caught=0 survived=0 stale=0
for i in "${!names[@]}"; do
	name=${names[i]} file=${files[i]} script=${scripts[i]}
	read -ra test_list <<<"${tests[i]}"
	selected "$name" || continue
	cp -p "$SRC/$file" "$WORK/orig"
	sed -i -e "$script" "$SRC/$file"
	if cmp -s "$SRC/$file" "$WORK/orig"; then
		echo "STALE    $name: the sed no longer changes src/$file"
		stale=$((stale + 1))
		continue
	fi
	if ! build; then
		echo "STALE    $name: the mutation of src/$file does not build"
		stale=$((stale + 1))
	elif run_tests "${test_list[@]}"; then
		echo "SURVIVED $name: src/$file changed, ${tests[i]} still pass"
		survived=$((survived + 1))
	else
		echo "caught   $name by: $(grep -c '^not ok' "$WORK/tap.out") failures of ${tests[i]}"
		grep '^not ok' "$WORK/tap.out" | head -n 3 | sed 's/^/           /'
		caught=$((caught + 1))
	fi
	cp "$WORK/orig" "$SRC/$file" && touch "$SRC/$file"
done
echo "mutate: $caught caught, $survived survived, $stale stale"
[ $survived = 0 ] && [ $stale = 0 ]
