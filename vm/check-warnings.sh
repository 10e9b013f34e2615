#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Every C file the series touches builds without a warning at W=1 (the
# headers it touches are checked through them). The objects are removed
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
if grep -E ': (warning|error):' "$log" >&2; then
	die "W=1 warnings in files the series touches (log: $log)"
fi
progress "W=1: no warnings in ${objs[*]}"
