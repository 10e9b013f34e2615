#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The patched lockdep kernel, in build/linux:
#   tree     unpack Debian's linux-source-6.1 as a git repo; the first commit
#            is the pristine tree, tagged "pristine"
#   patches  reset branch "lockdep" to pristine and apply kernel-patches/series
#            with git am (no fuzz: git am refuses a patch that does not apply)
#   config   tinyconfig + kvm_guest.config + kernel-patches/lockdep.config,
#            then check that every requested option survived olddefconfig
#   build    bzImage, modules and vmlinux (ccache under build/ccache)
#   export   regenerate kernel-patches/*.patch and series from the commits
#            on top of "pristine" (the only way patches are edited), and
#            0000-cover-letter.patch around the subject and text it had;
#            subjects begin "[PREFIX NN/MM]", PREFIX from the series'
#            subject-prefix file (e.g. "RFC PATCH v4"), or "PATCH"
#
# KERNEL_SOURCE=linux-source-6.12 (see lib.sh) runs the same steps for the
# series kept for Debian's 6.12: build/linux-6.12 and kernel-patches/6.12/,
# configured from kernel-patches/lockdep.config followed by
# kernel-patches/6.12/lockdep.config (what differs on 6.12, if any).
#   all      tree + patches + config + build
# Each step is skipped when a stamp of its inputs says nothing changed.
#
# KERNEL_VARIANT=plain (see lib.sh) runs the same steps for the baseline
# of bench/lock-hotpath.sh: build/linux-plain, a worktree of "pristine"
# with no patches, configured from the same fragment and vm/plain.config
# (no debug info: the same code, built faster), with the options that
# only the series defines dropping out; nothing else may differ from the
# lockdep kernel's .config. Its scenario module is built out of tree from
# the series' lib/test_lockdep_scenarios.c.
#
# KERNEL_VARIANT=kasan builds the series with KASAN (make check-kasan):
# build/linux-kasan, a detached worktree at branch lockdep's tip (moved
# there by checkout when the series changed, so that only what changed
# is rebuilt), configured as the lockdep kernel plus vm/kasan.config.
#
# KERNEL_VARIANT=capacity builds the series with lockdep's tables made
# small (make check-capacity): build/linux-capacity, a copy of the built
# lockdep tree (cp -a keeps its objects and times, and its .cmd files
# are told the new path, so Kbuild recompiles only what the BITS
# options touch: lockdep and a relink), configured as
# the lockdep kernel plus CAPACITY_CONFIG (default vm/capacity.config).
# Another CAPACITY_CONFIG reconfigures the same tree: each switch
# rebuilds lockdep's few files, and ccache makes a switch back cheap.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=kernel

TARBALL=${KERNEL_TARBALL:-/usr/src/$KERNEL_SOURCE.tar.xz}
CONFIG_FRAGMENTS=("$TOP/kernel-patches/lockdep.config")
[ -n "$KBASE" ] && [ -f "$PATCHES/lockdep.config" ] &&
	CONFIG_FRAGMENTS+=("$PATCHES/lockdep.config")
JOBS=${JOBS:-$(nproc)}
STAMP=$KSRC.stamp
VARIANT=${KERNEL_VARIANT:-lockdep}
case $VARIANT in
lockdep) ;;
capacity) CONFIG_FRAGMENTS+=("${CAPACITY_CONFIG:-$TOP/vm/capacity.config}") ;;
*) CONFIG_FRAGMENTS+=("$TOP/vm/$VARIANT.config") ;;
esac
# Log names of the plain and kasan kernels' steps start with "plain-" and
# "kasan-" (after BASELOG, lib.sh).
LOG=$BASELOG
[ "$VARIANT" != lockdep ] && LOG=$LOG$VARIANT-
# What do_tree unpacked, for do_build's last line.
SOURCE_VERSION=$BUILD/linux-source-version
[ -n "$KBASE" ] && SOURCE_VERSION=$KREPO.source-version
series_files() {
	local p
	[ -f "$PATCHES/series" ] || return 0
	while read -r p; do
		case $p in ''|'#'*) continue ;; esac
		printf '%s\n' "$PATCHES/$p"
	done <"$PATCHES/series"
}

do_tree() {
	local pkgver
	[ -f "$TARBALL" ] || die "$TARBALL missing: apt-get install $KERNEL_SOURCE (or run 'make deps')"
	pkgver=$(dpkg-query -W -f='${Version}' "$KERNEL_SOURCE" 2>/dev/null || echo unknown)
	if [ -f "$KREPO.stamp-tree" ] &&
	   [ "$(cat "$KREPO.stamp-tree")" = "$pkgver" ] &&
	   git -C "$KREPO" rev-parse -q --verify pristine >/dev/null; then
		progress "tree: $KERNEL_SOURCE $pkgver already unpacked"
		return
	fi
	rm -rf "$KREPO" "$KREPO".stamp-*
	mkdir -p "$KREPO"
	run_logged "${BASELOG}unpack" tar -C "$KREPO" --strip-components=1 -xf "$TARBALL"
	# shellcheck disable=SC2016 # $1: sh -c's own argument
	run_logged "${BASELOG}git-pristine" sh -c '
		cd "$1" && git init -q -b lockdep &&
		git -c user.name=lockdep -c user.email=lockdep@localhost \
			add -A -f . &&
		git -c user.name=lockdep -c user.email=lockdep@localhost \
			commit -q -m "$3 $2 (pristine)" &&
		git tag pristine' sh "$KREPO" "$pkgver" "$KERNEL_SOURCE"
	echo "$pkgver" >"$KREPO.stamp-tree"
	echo "$KERNEL_SOURCE $pkgver" >"$SOURCE_VERSION"
}

# worktree_at REV WHERE: $KSRC, a detached worktree of $KREPO at REV
# (WHERE says it in the progress line): left alone when it is there and
# clean, moved there by checkout when it is at another commit (only what
# differs is rebuilt), made anew when it is missing or its repo was made
# anew (a worktree has a .git file; without one, git would find the
# project's own repository above build/).
worktree_at() {
	local want
	want=$(git -C "$KREPO" rev-parse "$1")
	if [ -f "$KSRC/.git" ] &&
	   [ "$(git -C "$KSRC" rev-parse -q --verify HEAD 2>/dev/null)" = "$want" ] &&
	   [ -z "$(git -C "$KSRC" status --porcelain --untracked-files=no)" ]; then
		progress "tree: $VARIANT worktree at $2"
		return
	fi
	if [ -f "$KSRC/.git" ] &&
	   git -C "$KSRC" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		run_logged "${LOG}checkout" git -C "$KSRC" checkout -q -f --detach "$want"
		return
	fi
	rm -rf "$KSRC" "$STAMP"-*
	git -C "$KREPO" worktree prune
	run_logged "${LOG}worktree" git -C "$KREPO" worktree add -f --detach "$KSRC" "$want"
}

# The plain tree: a worktree of "pristine".
do_tree_plain() {
	do_tree
	worktree_at pristine pristine
}

# The kasan tree: a worktree at the tip of branch "lockdep", which
# do_patches (of the lockdep kernel, run first) keeps current.
do_tree_kasan() {
	worktree_at lockdep "the series' tip"
}

# The capacity tree: a copy of the built lockdep tree, made anew when
# the series moved on (its HEAD is no longer branch lockdep's tip).
do_tree_capacity() {
	local want
	want=$(git -C "$KREPO" rev-parse lockdep)
	[ -f "$KREPO/arch/x86/boot/bzImage" ] ||
		die "the lockdep kernel is not built: 'make kernel' first (the capacity tree is a copy of it)"
	if [ -d "$KSRC/.git" ] &&
	   [ "$(git -C "$KSRC" rev-parse -q --verify HEAD 2>/dev/null)" = "$want" ]; then
		progress "tree: capacity copy at the series' tip"
		return
	fi
	rm -rf "$KSRC" "$STAMP"-*
	mkdir -p "$KSRC"
	run_logged "${LOG}copy" cp -a "$KREPO/." "$KSRC/"
	# objtool is built with absolute paths, which its .cmd files keep:
	# under another path Kbuild rebuilds it, and after it every object
	# (each depends on the objtool binary): the whole kernel, 83 minutes
	# here under load. The copy's .cmd files name the copy instead.
	repoint_build "$KSRC" "$(cd "$KREPO" && pwd -P)" "$KSRC"
}

do_patches() {
	local stamp files
	mapfile -t files < <(series_files)
	stamp=$(content_hash "$PATCHES/series" "${files[@]}" 2>/dev/null || echo none)
	if [ -f "$STAMP-patches" ] &&
	   [ "$(cat "$STAMP-patches")" = "$stamp" ]; then
		progress "patches: series unchanged (${#files[@]} patches)"
		return
	fi
	rm -f "$STAMP-patches"
	git -C "$KSRC" am --abort >/dev/null 2>&1 || true
	git -C "$KSRC" checkout -q -f -B lockdep pristine
	if [ ${#files[@]} -gt 0 ]; then
		run_logged "${BASELOG}git-am" git -C "$KSRC" -c user.name=lockdep \
			-c user.email=lockdep@localhost am --whitespace=error-all "${files[@]}"
	fi
	progress "patches: ${#files[@]} applied"
	echo "$stamp" >"$STAMP-patches"
}

# The Kconfig symbols that only the series defines, one per line.
series_symbols() {
	git -C "$KREPO" diff pristine lockdep -- '*Kconfig*' |
		sed -n 's/^+\(menu\)\{0,1\}config \([A-Z0-9_]*\)$/\2/p' | sort -u
}

# Every CONFIG_ line of the fragments must read the same in .config (in
# the plain tree, except the options only the series defines).
check_config() {
	local skip=""
	[ "$VARIANT" = plain ] && skip=$(series_symbols)
	check_fragment "$KSRC/.config" <(fragment_lines "${CONFIG_FRAGMENTS[@]}") "$skip" ||
		die "requested options were dropped by olddefconfig (missing dependency?)"
}

# The plain kernel's .config must be the lockdep kernel's, but for the
# series' own options and debug info (vm/plain.config: DEBUG_INFO and
# the options under it): otherwise the bench compares two configurations.
check_same_config() {
	local filter
	filter="^(# )?CONFIG_($(series_symbols | paste -sd'|')|DEBUG_INFO[A-Z0-9_]*|GDB_SCRIPTS)[= ]"
	if ! diff -u <(grep -Ev "$filter" "$KREPO/.config") \
		<(grep -Ev "$filter" "$KSRC/.config") >"$LOGS/${LOG}config-diff.log"; then
		sed -n '3,20p' "$LOGS/${LOG}config-diff.log" >&2
		die "the plain .config differs from $KREPO/.config (see $LOGS/${LOG}config-diff.log)"
	fi
}

do_config() {
	local stamp
	stamp=$(content_hash "${CONFIG_FRAGMENTS[@]}")-$(git -C "$KSRC" rev-parse HEAD)
	if [ "$VARIANT" = plain ]; then
		[ -f "$KREPO.stamp-config" ] ||
			die "configure the lockdep kernel first ('make kernel'): its .config is the reference"
		stamp=$stamp-$(content_hash "$KREPO/.config")
	fi
	if [ -f "$STAMP-config" ] &&
	   [ "$(cat "$STAMP-config")" = "$stamp" ] && [ -f "$KSRC/.config" ]; then
		progress "config: unchanged"
		return
	fi
	# shellcheck disable=SC2016 # $1, $@: sh -c's own arguments
	run_logged "${LOG}config" sh -c '
		make -C "$1" ARCH=x86_64 tinyconfig &&
		cd "$1" && shift && ARCH=x86_64 scripts/kconfig/merge_config.sh -m \
			.config kernel/configs/kvm_guest.config "$@" &&
		make ARCH=x86_64 olddefconfig' sh "$KSRC" "${CONFIG_FRAGMENTS[@]}"
	check_config
	[ "$VARIANT" = plain ] && check_same_config
	echo "$stamp" >"$STAMP-config"
}

# The plain tree has no scenario module: build the series' source of it
# out of tree against the plain kernel, into the same modules directory.
# The plain kernel has no lockdep_allow_unordered_unlock() and no
# lockdep_set_class_check_unlock_order() (the series adds both with its
# unlock-order check, which the plain kernel lacks too): there the
# annotation of the unlock-order pair's fixed half is nothing, and the
# pair's locks get their keys with lockdep_set_class().
build_scenarios_out_of_tree() {
	local dir=$KSRC.scenarios
	git -C "$KREPO" show lockdep:lib/test_lockdep_scenarios.c |
		scenario_module_build "$dir" "${LOG}scenarios-build" \
			"'-Dlockdep_allow_unordered_unlock(l)=((void)(l))' '-Dlockdep_set_class_check_unlock_order(...)=lockdep_set_class(__VA_ARGS__)'"
	run_logged "${LOG}scenarios-install" kmake M="$dir" \
		INSTALL_MOD_PATH="$MODULES" INSTALL_MOD_STRIP=1 modules_install
}

do_build() {
	local stamp
	stamp=$(cat "$STAMP-config")-$(git -C "$KSRC" rev-parse HEAD)
	if [ "$VARIANT" = plain ]; then
		git -C "$KREPO" cat-file -e lockdep:lib/test_lockdep_scenarios.c 2>/dev/null ||
			die "branch lockdep of $KREPO has no lib/test_lockdep_scenarios.c: the plain kernel's bench loop comes from the series ('make kernel' first)"
		stamp=$stamp-$(git -C "$KREPO" rev-parse lockdep:lib/test_lockdep_scenarios.c)
	fi
	if [ -f "$STAMP-build" ] &&
	   [ "$(cat "$STAMP-build")" = "$stamp" ] &&
	   [ -f "$KSRC/arch/x86/boot/bzImage" ]; then
		progress "build: up to date"
		return
	fi
	rm -f "$STAMP-build"
	run_logged "${LOG}kernel-build" kmake -j"$JOBS" bzImage modules
	rm -rf "$MODULES"
	run_logged "${LOG}modules-install" kmake INSTALL_MOD_PATH="$MODULES" \
		INSTALL_MOD_STRIP=1 modules_install
	[ "$VARIANT" = plain ] && build_scenarios_out_of_tree
	echo "$stamp" >"$STAMP-build"
	progress "build: $(kmake -s kernelrelease) ($(cat "$SOURCE_VERSION"))"
}

# cover_part FILE subject|blurb: the part of a cover letter that is ours,
# not format-patch's: the subject without its "[PREFIX 0/N] " (unfolded),
# or the text between the headers and the shortlog ("Name (N):")
cover_part() {
	awk -v part="$2" '
	part == "subject" && /^Subject: / {
		s = $0; sub(/^Subject: \[[^]]*\] /, "", s); subj = 1; next }
	subj && /^[ \t]/ { sub(/^[ \t]+/, " "); s = s $0; next }
	subj { print s; exit }
	part == "blurb" && !body && /^$/ { body = 1; next }
	part == "blurb" && body && /^[^ ].* \([0-9]+\):$/ { exit }
	part == "blurb" && body { line[++n] = $0 }
	END { while (n && line[n] == "") n--; for (i = 1; i <= n; i++) print line[i] }
	' "$1"
}

do_export() {
	local n cover=$PATCHES/0000-cover-letter.patch subject="" blurb="" prefix=PATCH
	git -C "$KSRC" rev-parse -q --verify pristine >/dev/null ||
		die "no kernel tree in $KSRC: run '$0 tree' first"
	n=$(git -C "$KSRC" rev-list --count pristine..HEAD)
	# the series' version, as the subjects say it ("RFC PATCH v4")
	[ -f "$PATCHES/subject-prefix" ] && prefix=$(cat "$PATCHES/subject-prefix")
	# the cover letter's text is kept across exports; format-patch
	# writes the rest (shortlog, diffstat) anew
	if [ -f "$cover" ]; then
		subject=$(cover_part "$cover" subject)
		blurb=$(cover_part "$cover" blurb)
	fi
	rm -f "$PATCHES"/*.patch
	if [ "$n" -gt 0 ]; then
		# sender and date of the cover letter: the last commit's, so
		# that exporting unchanged commits changes no file
		git -C "$KSRC" -c user.name="$(git -C "$KSRC" log -1 --format=%an)" \
			-c user.email="$(git -C "$KSRC" log -1 --format=%ae)" \
			format-patch -q --no-signature --zero-commit --cover-letter \
			--subject-prefix="$prefix" \
			-o "$PATCHES" pristine..HEAD
		SUBJECT=$subject BLURB=$blurb \
		DATE=$(git -C "$KSRC" log -1 --format=%aD) awk '
			/^Date: / && !d { print "Date: " ENVIRON["DATE"]; d = 1; next }
			/\*\*\* SUBJECT HERE \*\*\*/ && ENVIRON["SUBJECT"] != "" {
				sub(/\*\*\* SUBJECT HERE \*\*\*/, ENVIRON["SUBJECT"]) }
			/^\*\*\* BLURB HERE \*\*\*$/ && ENVIRON["BLURB"] != "" {
				print ENVIRON["BLURB"]; next }
			{ print }' "$cover" >"$cover.tmp"
		mv "$cover.tmp" "$cover"
	fi
	(cd "$PATCHES" && for p in *.patch; do
		case $p in 0000-cover-letter.patch|'*.patch') ;; *) echo "$p" ;; esac
	done) >"$PATCHES/series"
	progress "export: $n patches and their cover letter written to ${PATCHES#"$TOP"/}/"
}

# plain and kasan: their own tree step, no patches or export of their own
if [ "$VARIANT" != lockdep ]; then
	case ${1:-all} in
	tree) "do_tree_$VARIANT" ;;
	config) do_config ;;
	build) do_build ;;
	all) "do_tree_$VARIANT"; do_config; do_build ;;
	*) echo "usage: KERNEL_VARIANT=$VARIANT $0 [tree|config|build|all]" >&2; exit 64 ;;
	esac
	exit
fi
case ${1:-all} in
tree) do_tree ;;
patches) do_patches ;;
config) do_config ;;
build) do_build ;;
export) do_export ;;
all) do_tree; do_patches; do_config; do_build ;;
*) echo "usage: $0 [tree|patches|config|build|export|all]" >&2; exit 64 ;;
esac
