#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A developer's own kernel tree, built for the lockdep guest without
# writing into it ('make vm-boot KERNEL_TREE=DIR'):
#
#   vm/kernel-tree.sh [-p PATCH]... DIR
#
# Everything lands in build/tree/NAME/ (NAME: DIR's last component):
#   obj/      the out-of-tree build (make O=...): .config, vmlinux, bzImage
#   modules/  its modules_install
#   src/      only for a tree configured or built in place, which kbuild
#             refuses to build out of tree: its source files, hard links
#             on DIR's own file system (rsync --link-dest), whatever
#             its .gitignore says (Debian's linux-source holds "/*"),
#             without the build's products, and cleaned with make
#             mrproper there (never in DIR)
#   initramfs.cpio.gz
# The config is the tree's own .config if it has one, else tinyconfig +
# kvm_guest.config, with kernel-patches/lockdep.config merged on top; every
# option requested must survive olddefconfig, except those the tree does
# not define at all (the series' own, in a tree without it), which are
# only named. The version of the tree does not matter.
#
# When no file of DIR has changed (its modification time, find -newer:
# touch a file whose older time was restored) since the last complete
# build, nothing is copied or made again: the check takes a second. A step that fails or is interrupted (Ctrl-C)
# leaves that mark where it was, and the next run resumes: rsync and make
# do again only what is missing.
#
# -p PATCH (git format-patch mails or plain diffs, in order; 'make vm-boot
# KERNEL_TREE=DIR PATCH=fix.patch'): the tree built as above, then with
# the patches applied in build/tree/NAME-ID/ (ID: a hash of the patches,
# so going back to either side is free), which the guest boots:
#  - checked first, before anything is built: the files they touch are
#    copied from DIR into a scratch directory and the patches applied
#    there in turn (apply_patches, lib.sh, as kernel-variant.sh checks
#    its own); one that does not apply is named with git's reason;
#  - src/: the unpatched build's source (DIR, or its copy) copied with
#    hard links where the file system allows, and the files the patches
#    touch copied again, unlinked, before git apply writes them: DIR is
#    never written into;
#  - obj/: a copy of the unpatched build with its times (cp -a), its
#    absolute paths pointed at the new directory (repoint_build), so
#    Kbuild compiles only what the patches touch.
# A new unpatched build (DIR changed) starts the patched one again.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=tree

usage() {
	echo "usage: $0 [-p PATCH]... DIR" >&2
	exit 64
}
patches=()
while getopts p: opt; do
	case $opt in
	p) patches+=("$OPTARG") ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 1 ] || usage
tree=$(cd "$1" 2>/dev/null && pwd) || die "no directory '$1'"
[ -f "$tree/Makefile" ] && [ -f "$tree/Kconfig" ] && [ -d "$tree/arch/x86" ] ||
	die "'$tree' is not a kernel source tree (no Makefile, Kconfig or arch/x86)"
name=$(basename "$tree")
check_name "tree name" "$name"
out=$BUILD/tree/$name
obj=$out/obj
JOBS=${JOBS:-$(nproc)}
FRAGMENT=$TOP/kernel-patches/lockdep.config
mkdir -p "$BUILD/tree"

# nogit ARGS...: git as a plain patch tool on files that are no
# repository's, not even the one build/ is in
nogit() {
	GIT_CEILING_DIRECTORIES=$BUILD/tree git "$@"
}
# the patches, checked on a scratch copy of the files they touch
if [ ${#patches[@]} -gt 0 ]; then
	for p in "${patches[@]}"; do
		[ -f "$p" ] && [ -r "$p" ] || die "cannot read '$p'"
	done
	pout=$out-$(cat "${patches[@]}" | sha256sum | cut -c1-16)
	scratch=$(mktemp -d "$BUILD/tree/.check-XXXXXX")
	trap 'rm -rf "$scratch"' EXIT
	touched=()
	for p in "${patches[@]}"; do
		numstat=$(nogit -C "$scratch" apply --numstat "$(realpath "$p")" 2>&1) ||
			{ printf '%s\n' "$numstat" | sed 's/^/    /' >&2; die "'$p' is not a patch git apply can read: nothing built"; }
		while IFS=$'\t' read -r _ _ f; do
			[ -n "$f" ] || continue
			case /$f/ in
			*/../*) die "the patch '$p' names '$f', outside the tree: nothing built" ;;
			esac
			touched+=("$f")
		done <<<"$numstat"
	done
	for f in "${touched[@]}"; do
		[ ! -f "$tree/$f" ] || [ -e "$scratch/$f" ] ||
			{ mkdir -p "$scratch/$(dirname "$f")" && cp -p "$tree/$f" "$scratch/$f"; }
	done
	apply_patches "$tree" nogit -C "$scratch" apply -- "${patches[@]}"
	progress "patches: ${#patches[@]} apply, touching ${#touched[@]} files"
fi
mkdir -p "$obj"

# changed_since STAMP: a file of the tree is newer than STAMP, or there
# is no STAMP
changed_since() {
	[ ! -f "$1" ] || [ -n "$(find "$tree" -newer "$1" -print -quit)" ]
}
# what make checks since the last complete build: the tree's files and
# the fragment (stamp-config covers the .config)
built=$out/stamp-built
unchanged=false
if [ -f "$obj/arch/x86/boot/bzImage" ] && [ "$FRAGMENT" -ot "$built" ] &&
   ! changed_since "$built"; then
	unchanged=true
fi
# a change made while this runs must count next time: the mark is taken now
touch "$out/stamp-start"

# kbuild builds out of tree only from a clean source tree (no .config,
# include/config or generated headers: its own test); any other is copied
src=$tree
if [ -f "$tree/.config" ] || [ -d "$tree/include/config" ] ||
   [ -d "$tree/arch/x86/include/generated" ]; then
	src=$out/src
fi
# tree_copy: DIR's source files into src/, then mrproper there for what
# the excludes did not catch. src-dirty says a copy has not been cleaned
# yet (an interrupted run's too); stamp-copied when the last complete
# one began.
tree_copy() {
	local link=()
	touch "$out/stamp-copy-start" "$out/src-dirty"
	mkdir -p "$src"
	[ "$(stat -c %d "$tree")" != "$(stat -c %d "$out")" ] || link=(--link-dest="$tree")
	rsync -a --delete --delete-excluded "${link[@]}" \
		--exclude='*.o' --exclude='*.ko' --exclude='*.a' --exclude='.*.cmd' \
		--exclude='/.config*' --exclude='/include/config/' \
		--exclude='/include/generated/' --exclude='/arch/*/include/generated/' \
		--exclude='/vmlinux*' --exclude='/System.map' --exclude='/.tmp_*' \
		--exclude='/.git/' "$tree/" "$src/" &&
	make -C "$src" ARCH=x86_64 mrproper &&
	rm "$out/src-dirty" &&
	mv "$out/stamp-copy-start" "$out/stamp-copied"
}
if [ "$src" != "$tree" ] &&
   { [ -f "$out/src-dirty" ] || changed_since "$out/stamp-copied"; }; then
	run_logged tree-copy tree_copy
fi

# NICE=N: under nice -n N, as kmake (lib.sh)
tmake() {
	CCACHE_DIR=$BUILD/ccache \
	KBUILD_BUILD_USER=lockdep KBUILD_BUILD_HOST=qemu \
		${NICE:+nice -n "$NICE"} make -C "$src" O="$obj" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" "$@"
}

# config_steps BASE: tinyconfig first when BASE (kvm_guest.config) is
# given, then the fragment merged on, then olddefconfig
config_steps() {
	if [ -n "$1" ]; then
		tmake tinyconfig || return
	fi
	(cd "$src" && ARCH=x86_64 scripts/kconfig/merge_config.sh -m -O "$obj" \
		"$obj/.config" ${1:+"$1"} "$FRAGMENT") && tmake olddefconfig
}

# the base config: the tree's own, or the guest's minimal one
own=none
[ -f "$tree/.config" ] && own=$(sha256sum <"$tree/.config" | cut -c1-16)
stamp=$(content_hash "$FRAGMENT")-$own
if [ ! -f "$obj/.config" ] || [ "$(cat "$out/stamp-config" 2>/dev/null)" != "$stamp" ]; then
	if [ -f "$tree/.config" ]; then
		progress "config: the tree's own .config + ${FRAGMENT#"$TOP"/}"
		cp "$tree/.config" "$obj/.config"
		base=""
	else
		progress "config: tinyconfig + kvm_guest.config + ${FRAGMENT#"$TOP"/}"
		base=kernel/configs/kvm_guest.config
	fi
	run_logged tree-config config_steps "$base"
	# options the tree does not define cannot be asked of it
	undefined=""
	while read -r sym; do
		grep -rqsE --include='Kconfig*' "^(menu)?config $sym\$" "$src" ||
			undefined="$undefined$sym"$'\n'
	done < <(sed -n 's/^CONFIG_\([A-Z0-9_]*\)=.*/\1/p' "$FRAGMENT")
	[ -z "$undefined" ] ||
		progress "config: this tree does not define: $(printf '%s' "$undefined" | paste -sd ' ')"
	check_fragment "$obj/.config" "$FRAGMENT" "$undefined" ||
		die "requested options were dropped by olddefconfig (see above; the tree's .config or a missing dependency)"
	echo "$stamp" >"$out/stamp-config"
fi

if $unchanged && [ -d "$out/modules" ]; then
	progress "build: unchanged since the last one ($(tmake -s kernelrelease) from $tree)"
else
	run_logged tree-build tmake -j"$JOBS" bzImage modules
	rm -rf "$out/modules"
	run_logged tree-modules-install tmake INSTALL_MOD_PATH="$out/modules" \
		INSTALL_MOD_STRIP=1 modules_install
	mv "$out/stamp-start" "$built"
	progress "build: $(tmake -s kernelrelease) from $tree"
fi

# patch_copy: the unpatched build copied into $pout, pointed there
patch_copy() {
	local link=()
	mkdir -p "$pout" &&
	cp -a "$obj" "$pout/obj" &&
	{ [ "$(stat -c %d "$src")" != "$(stat -c %d "$pout")" ] || link=(--link-dest="$src"); } &&
	rsync -a --exclude=/.git/ "${link[@]}" "$src/" "$pout/src/" &&
	repoint_build "$pout/obj" "$obj" "$pout/obj" &&
	repoint_build "$pout/obj" "$src" "$pout/src" &&
	ln -sfn "$pout/src" "$pout/obj/source"
}
# the touched files unlinked from the unpatched source, then patched
patch_apply() {
	local f
	for f in "${touched[@]}"; do
		[ ! -f "$pout/src/$f" ] || { cp -p "$pout/src/$f" "$pout/src/$f.unlinked" &&
			mv "$pout/src/$f.unlinked" "$pout/src/$f"; } || return
	done
	apply_patches "$pout/src" nogit -C "$pout/src" apply -- "${patches[@]}"
}
if [ ${#patches[@]} -gt 0 ]; then
	from=$(stat -c %Y "$built")
	if [ -f "$pout/stamp-built" ] && [ "$(cat "$pout/stamp-from")" = "$from" ]; then
		progress "patched build: unchanged since the last one (${pout#"$TOP"/})"
	else
		rm -rf "$pout"
		run_logged tree-patch-copy patch_copy
		patch_apply
		src=$pout/src obj=$pout/obj
		run_logged tree-patch-build tmake -j"$JOBS" bzImage modules
		run_logged tree-patch-modules-install tmake INSTALL_MOD_PATH="$pout/modules" \
			INSTALL_MOD_STRIP=1 modules_install
		echo "$from" >"$pout/stamp-from"
		touch "$pout/stamp-built"
		progress "patched build: ${#patches[@]} patches on $tree (${pout#"$TOP"/})"
	fi
	out=$pout obj=$pout/obj
fi
VM_KERNEL=$obj/arch/x86/boot/bzImage VM_MODULES=$out/modules \
	VM_INITRD=$out/initramfs.cpio.gz "$TOP/vm/initramfs.sh"
