#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Every step of the series builds, with W=1 and without a warning of its
# own, both with the lockdep kernel's .config and with PROVE_LOCKING off
# (lockdep's !PROVE_LOCKING half: DEBUG_LOCK_ALLOC alone). For each commit
# on top of "pristine" (branch lockdep of $KREPO, see kernel.sh), the C
# files the series has touched up to that commit are compiled in a scratch
# worktree, $KREPO-steps, into two object trees (O=), one per config. A
# warning counts as the series' own when its text (file and message, not
# the line) is not among the warnings of the same files at pristine.
# Slow (every step compiles lockdep.o twice): make check-steps, not in
# make check. Run 'make kernel' first.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=steps

[ -f "$KREPO/.config" ] || die "no configured kernel tree in $KREPO: run 'make kernel'"
SCRATCH=$KREPO-steps
mapfile -t commits < <(git -C "$KREPO" rev-list --reverse pristine..lockdep)
[ ${#commits[@]} -gt 0 ] || die "branch lockdep of $KREPO has no commit on top of pristine"

if [ -f "$SCRATCH/.git" ]; then
	git -C "$SCRATCH" checkout -q -f --detach pristine
else
	rm -rf "$SCRATCH"
	git -C "$KREPO" worktree prune
	run_logged "${BASELOG}steps-worktree" \
		git -C "$KREPO" worktree add -f --detach "$SCRATCH" pristine
fi

# smake CONFIG ARGS...: kmake (lib.sh) in the scratch tree, objects in
# $SCRATCH.CONFIG
smake() {
	local cfg=$1
	shift
	KSRC=$SCRATCH kmake O="$SCRATCH.$cfg" "$@"
}

for cfg in prove noprove; do
	mkdir -p "$SCRATCH.$cfg"
	cp "$KREPO/.config" "$SCRATCH.$cfg/.config"
	[ $cfg = noprove ] &&
		"$KREPO/scripts/config" --file "$SCRATCH.$cfg/.config" \
			-d PROVE_LOCKING -d LOCK_STAT -e DEBUG_LOCK_ALLOC
	run_logged "${BASELOG}steps-$cfg-prepare" smake $cfg olddefconfig prepare
done
if grep -q '^CONFIG_PROVE_LOCKING=y' "$SCRATCH.noprove/.config"; then
	die "PROVE_LOCKING stayed on in $SCRATCH.noprove/.config"
fi

# warnings CONFIG OBJ...: build OBJs with W=1, print "file: message" per
# warning, without line and column
warnings() {
	local cfg=$1 log
	shift
	log=$LOGS/${BASELOG}steps-$cfg.log
	(cd "$SCRATCH.$cfg" && rm -f "$@")
	if ! smake "$cfg" -j"$(nproc)" W=1 "$@" >"$log" 2>&1; then
		tail -20 "$log" >&2
		die "build failed (log: $log)"
	fi
	sed -n 's/^\([^ :]*\):[0-9]*:[0-9]*: \(warning\|error\): /\1: \2: /p' "$log" | sort -u
}

mapfile -t all < <(git -C "$KREPO" diff --name-only --diff-filter=AM pristine lockdep -- '*.c' |
	sed 's/\.c$/.o/')
declare -A base
for cfg in prove noprove; do
	# the files the series adds do not exist at pristine
	mapfile -t here < <(for o in "${all[@]}"; do
		[ -f "$SCRATCH/${o%.o}.c" ] && echo "$o"; done)
	base[$cfg]=$(warnings $cfg "${here[@]}")
done

bad=0 n=0
for c in "${commits[@]}"; do
	n=$((n + 1))
	git -C "$SCRATCH" checkout -q -f --detach "$c"
	mapfile -t objs < <(git -C "$KREPO" diff --name-only --diff-filter=AM pristine "$c" -- '*.c' |
		sed 's/\.c$/.o/')
	for cfg in prove noprove; do
		# an object a config does not build (CONFIG_..._SCENARIOS off
		# with PROVE_LOCKING off) is left to kbuild, which says so
		new=$(comm -13 <(echo "${base[$cfg]}") <(warnings $cfg "${objs[@]}"))
		if [ -n "$new" ]; then
			echo "step $n $(git -C "$KREPO" log -1 --format=%s "$c") ($cfg):" >&2
			echo "$new" >&2
			bad=1
		fi
	done
	progress "step $n/${#commits[@]}: built ($(git -C "$KREPO" log -1 --format=%s "$c"))"
done
[ $bad = 0 ] || die "W=1 warnings of the series' own at some step (above)"
progress "every step builds with W=1, PROVE_LOCKING on and off, without a warning of its own"
