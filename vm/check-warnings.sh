#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Every C file the series touches builds without a warning at W=1 on the
# lines the series adds or changes (the headers it touches are checked
# through them). The objects are removed
# first: after one run they are already built with W=1's command line,
# and kbuild would not compile them again to show the warnings (ccache
# does replay a cached compile's warnings). Run 'make kernel' first.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=warnings

[ -f "$KSRC/.config" ] || die "no configured kernel tree in $KSRC: run 'make kernel'"
mapfile -t objs < <(git -C "$KSRC" diff --name-only --diff-filter=AM pristine HEAD -- '*.c' |
	sed 's/\.c$/.o/')
[ ${#objs[@]} -gt 0 ] || die "the series touches no C file?"
(cd "$KSRC" && rm -f "${objs[@]}")
log=$LOGS/${BASELOG}warnings-w1.log
run_logged "${BASELOG}warnings-w1" kmake W=1 "${objs[@]}"
# A warning on a line of the pristine tree is upstream's, not the
# series' (6.12's W=1 has -Wformat-truncation, which finds one in
# lockdep_proc.c's seq_stats()): said, not failed.
ours=0 theirs=0
while IFS=: read -r file line _; do
	if git -C "$KSRC" blame -s -L "$line,$line" pristine..HEAD -- "$file" |
		grep -q '^^'; then
		theirs=$((theirs + 1))
	else
		grep -E "^$file:$line:[0-9]+: (warning|error):" "$log" >&2
		ours=$((ours + 1))
	fi
done < <(grep -E '^[^ :]+:[0-9]+:[0-9]+: (warning|error):' "$log")
if [ $ours -gt 0 ] || grep -E '^[^ :]+: (warning|error):' "$log" >&2; then
	die "W=1 warnings in lines the series adds or changes (log: $log)"
fi
[ $theirs = 0 ] ||
	progress "W=1: $theirs warning(s) on unchanged upstream lines (log: ${log#"$TOP"/})"
progress "W=1: no warnings in ${objs[*]} on the series' lines"
