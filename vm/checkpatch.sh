#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/checkpatch.pl --strict on every patch of kernel-patches/series,
# from the unpacked tree (run 'make kernel' first). Fails on any error or
# warning; CHECKs are printed and must be justified in the commit message.
# But UNKNOWN_COMMIT_ID: the tree is Debian's source, a git repository
# with no upstream history, where no Fixes: tag's commit can be found
# (each one is checked by hand against upstream, and said how in the
# commit message of its patch or in the cover letter).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=checkpatch

[ -x "$KSRC/scripts/checkpatch.pl" ] || die "no kernel tree in $KSRC: run 'make kernel'"
# spdxcheck.py needs Debian's python3 with python3-ply, not another one
# that may come first in PATH.
export PATH=/usr/bin:$PATH
bad=0
while read -r p; do
	case $p in ''|'#'*) continue ;; esac
	out=$(cd "$KSRC" && perl scripts/checkpatch.pl --strict \
		--show-types --ignore UNKNOWN_COMMIT_ID "$PATCHES/$p" 2>&1) || true
	total=$(grep -E '^total:' <<<"$out" || echo "total: no summary")
	echo "  $p: $total"
	if ! grep -qE '^total: 0 errors, 0 warnings' <<<"$out" ||
	   grep -q 'Traceback' <<<"$out"; then
		printf '%s\n' "$out" >&2
		bad=1
	fi
done <"$PATCHES/series"
exit $bad
