#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The lockdep kernel with a config fragment merged on, patches applied,
# or both ('make vm-boot KCONFIG=extra.config PATCH=fix.patch',
# 'make verify-fix'), built beside the default one, which is never
# written into or rebuilt:
#
#   vm/kernel-variant.sh [-c FRAGMENT] [-p PATCH]...
#
# Prints the variant's directory, build/variant/ID (ID: a hash of the
# base commit and build, the fragment and the patches, so going back to
# one is free), holding what a boot needs: bzImage, vmlinux, kodir (a
# link to the .ko files with debug info: give --modules its target, the
# symboliser walks no link), modules/ (installed) and
# initramfs.cpio.gz (+ -workload), for
#   VM_KERNEL=$v/bzImage VM_INITRD=$v/initramfs.cpio.gz VM_MODULES=$v/modules
#
# Everything is checked before anything is built, and a failure builds
# nothing:
#  - FRAGMENT is merged over the lockdep kernel's .config (itself
#    tinyconfig + kvm_guest.config + kernel-patches/lockdep.config) in a
#    scratch file, olddefconfig run, and every CONFIG_ line of
#    kernel-patches/lockdep.config and FRAGMENT (FRAGMENT's wins) must
#    read the same after it, as vm/kernel.sh checks its own: one that did
#    not survive is named with its Kconfig dependencies;
#  - each PATCH (git format-patch mail, for git am, or a plain diff, for
#    git apply; in order) is applied to an index of the base commit: one
#    that does not apply is named with git's reason.
# Then:
#  - patches that touch the scenario module's source alone, and no
#    fragment: the module alone is rebuilt out of tree against the
#    lockdep kernel (vm/scenario-module.sh), the kernel is the default;
#  - else: linux/, a worktree of the lockdep kernel's repository
#    (build/linux) at its commit, its files copied from the built tree
#    with their times (so Kbuild compiles only what the patches and
#    options touch; ccache as vm/kernel.sh's), the patches committed
#    there (git am, or git apply and a commit), the merged .config, then
#    bzImage and modules built.
# NICE=N, JOBS=N as for vm/kernel.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=variant
# standard output is the variant's directory alone: the rest to stderr
exec 3>&1 1>&2
export CCACHE_NOHASHDIR=1

fragment="" patches=()
usage() {
	echo "usage: $0 [-c FRAGMENT] [-p PATCH]..." >&2
	exit 64
}
while getopts c:p: opt; do
	case $opt in
	c) fragment=$OPTARG ;;
	p) patches+=("$OPTARG") ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || usage
[ -n "$fragment" ] || [ ${#patches[@]} -gt 0 ] || usage
for f in ${fragment:+"$fragment"} "${patches[@]}"; do
	[ -f "$f" ] && [ -r "$f" ] || die "cannot read '$f'"
done
[ -f "$KREPO/.config" ] && [ -f "$KREPO/arch/x86/boot/bzImage" ] ||
	die "the lockdep kernel is not built in $KREPO: run 'make kernel'"
[ -z "$(git -C "$KREPO" status --porcelain --untracked-files=no)" ] ||
	die "$KREPO has changes of its own: a variant starts from its commit"
JOBS=${JOBS:-$(nproc)}
base=$(git -C "$KREPO" rev-parse HEAD)
# the base build too: its config may change at the same commit
id=$({ echo "$base"; cat "$KREPO.stamp-build" 2>/dev/null || true; for f in ${fragment:+"$fragment"}; do echo fragment; cat "$f"; done
	for f in "${patches[@]}"; do echo patch; cat "$f"; done; } | sha256sum | cut -c1-16)
v=$BUILD/variant/$id
tmp=$BUILD/variant/$id.check
# one build of a variant at a time: a second run waits, then finds it built
mkdir -p "$BUILD/variant"
exec 9>"$BUILD/variant/.lock-$id"
flock 9
# built before, so its inputs passed the checks below then
if [ -f "$v/stamp-built" ]; then
	progress "variant $id: built already"
	echo "$v" >&3
	exit 0
fi
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

# kconfig_deps SYMBOL: where SYMBOL is defined and what it depends on
kconfig_deps() {
	local where
	where=$(cd "$KREPO" && grep -rnE --include='Kconfig*' "^(menu)?config $1\$" . | head -n 3) || {
		echo "    $1 is defined by no Kconfig of this tree"
		return
	}
	while IFS=: read -r file line _; do
		echo "    ${file#./}:$line:"
		# the entry's lines up to the next entry, but its help text
		awk -v from="$line" 'NR == from { next } NR > from && /^[^ \t#]/ { exit }
			NR > from && /^[ \t]+(help|---help---)/ { exit }
			NR > from && /^[ \t]+(depends on|select|imply|bool|tristate|default)/ {
				sub(/^[ \t]+/, "      "); print }' "$KREPO/$file"
	done <<<"$where"
}

# The merged .config, checked, in $tmp/.config.
if [ -n "$fragment" ]; then
	fragment_abs=$(realpath "$fragment")
	cp "$KREPO/.config" "$tmp/.config"
	(cd "$KREPO" && KCONFIG_CONFIG="$tmp/.config" ARCH=x86_64 \
		scripts/kconfig/merge_config.sh -m "$tmp/.config" "$fragment_abs") \
		>"$tmp/merge.log" 2>&1 || { cat "$tmp/merge.log" >&2; die "unable to merge '$fragment'"; }
	# KCONFIG_CONFIG: olddefconfig writes the scratch file, not the
	# tree's; through kmake, whose command lines the tree was built
	# with (another HOSTCC would rebuild scripts/kconfig there)
	kmake -s KCONFIG_CONFIG="$tmp/.config" olddefconfig \
		>"$tmp/olddefconfig.log" 2>&1 ||
		{ cat "$tmp/olddefconfig.log" >&2; die "olddefconfig failed on '$fragment'"; }
	if ! check_fragment "$tmp/.config" \
		<(fragment_lines "$TOP/kernel-patches/lockdep.config" "$fragment") 2>"$tmp/dropped"; then
		while read -r line; do
			echo "$line" >&2
			sym=${line#config: CONFIG_}
			kconfig_deps "${sym%%:*}" >&2
		done <"$tmp/dropped"
		die "options of '$fragment' did not survive olddefconfig (their dependencies are above): nothing built"
	fi
	progress "config: '$fragment' merged, every option survived"
fi

# is_mail PATCH: a git format-patch mail (git am), not a plain diff
is_mail() {
	awk '/^(diff|---|\+\+\+) / { exit 1 } /^Subject: / { found = 1; exit } END { exit !found }' "$1"
}

# The patches, applied in turn to an index of the base commit.
export GIT_INDEX_FILE=$tmp/index
git -C "$KREPO" read-tree "$base"
apply_patches "$KREPO at ${base:0:12}" git -C "$KREPO" apply --cached -- "${patches[@]}"
changed=$(git -C "$KREPO" diff-index --cached --name-only "$base")
[ ${#patches[@]} = 0 ] || progress "patches: ${#patches[@]} apply, touching $(echo "$changed" | grep -c .) files"
module_only=false
[ -z "$fragment" ] && [ "$changed" = lib/test_lockdep_scenarios.c ] && module_only=true
$module_only && git -C "$KREPO" show ":lib/test_lockdep_scenarios.c" >"$tmp/test_lockdep_scenarios.c"
unset GIT_INDEX_FILE

mkdir -p "$v"
if $module_only; then
	progress "variant $id: the scenario module alone, rebuilt against the lockdep kernel"
	"$TOP/vm/scenario-module.sh" -n "variant-$id" "$tmp/test_lockdep_scenarios.c"
	m=$BUILD/vm/variant-$id
	ln -sfn "$KREPO/arch/x86/boot/bzImage" "$v/bzImage"
	ln -sfn "$KREPO/vmlinux" "$v/vmlinux"
	ln -sfn "$m/build" "$v/kodir"
	ln -sfn "$m/modules" "$v/modules"
	ln -sfn "$m/initramfs.cpio.gz" "$v/initramfs.cpio.gz"
	ln -sfn "$m/initramfs-workload.cpio.gz" "$v/initramfs-workload.cpio.gz"
	touch "$v/stamp-built"
	echo "$v" >&3
	exit 0
fi

# The worktree: registered with --no-checkout, its files copied from the
# built tree (times kept), then its index read from its commit.
tree=$v/linux
if [ ! -f "$tree/.git" ]; then
	rm -rf "$tree"
	git -C "$KREPO" worktree prune
	run_logged "variant-$id-worktree" git -C "$KREPO" worktree add -f --no-checkout --detach "$tree" "$base"
	run_logged "variant-$id-copy" rsync -a --exclude=/.git "$KREPO/" "$tree/"
	# objtool (tools/) is built with absolute paths in its .cmd files:
	# pointed at the copy, or objtool is rebuilt and with it every object
	# that depends on it (gen_objtooldep): the whole kernel.
	orig=$(sed -n '1s|^cmd_\(/.*\)/tools/objtool/objtool-in\.o := .*|\1|p' \
		"$tree/tools/objtool/.objtool-in.o.cmd" 2>/dev/null || true)
	if [ -n "$orig" ] && [ "$orig" != "$tree" ]; then
		repoint_build "$tree/tools" "$orig" "$tree"
	fi
	git -C "$tree" reset -q
	for p in "${patches[@]}"; do
		if is_mail "$p"; then
			run_logged "variant-$id-am" git -C "$tree" -c user.name=lockdep \
				-c user.email=lockdep@localhost am "$(realpath "$p")"
		else
			run_logged "variant-$id-apply" git -C "$tree" apply --index "$(realpath "$p")"
			git -C "$tree" -c user.name=lockdep -c user.email=lockdep@localhost \
				commit -q -m "${p##*/}"
		fi
	done
	[ -z "$fragment" ] || cp "$tmp/.config" "$tree/.config"
fi
KSRC=$tree
run_logged "variant-$id-build" kmake -j"$JOBS" bzImage modules
rm -rf "$v/modules"
run_logged "variant-$id-modules-install" kmake INSTALL_MOD_PATH="$v/modules" \
	INSTALL_MOD_STRIP=1 modules_install
ln -sfn "$tree/arch/x86/boot/bzImage" "$v/bzImage"
ln -sfn "$tree/vmlinux" "$v/vmlinux"
ln -sfn "$tree" "$v/kodir"
VM_KERNEL=$v/bzImage VM_MODULES=$v/modules VM_INITRD=$v/initramfs.cpio.gz \
	"$TOP/vm/initramfs.sh"
touch "$v/stamp-built"
progress "variant $id: $(kmake -s kernelrelease)"
echo "$v" >&3
