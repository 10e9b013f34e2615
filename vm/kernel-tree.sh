#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A developer's own kernel tree, built for the lockdep guest without
# writing into it ('make vm-boot KERNEL_TREE=DIR'):
#
#   vm/kernel-tree.sh DIR
#
# Everything lands in build/tree/NAME/ (NAME: DIR's last component):
#   obj/      the out-of-tree build (make O=...): .config, vmlinux, bzImage
#   modules/  its modules_install
#   src/      only for a tree built in place, which kbuild refuses to build
#             out of tree: a copy of the files git tracks or would track
#             (untracked but not ignored), kept in step with rsync
#   initramfs.cpio.gz
# The config is the tree's own .config if it has one, else tinyconfig +
# kvm_guest.config, with kernel-patches/lockdep.config merged on top; every
# option requested must survive olddefconfig, except those the tree does
# not define at all (the series' own, in a tree without it), which are
# only named. The version of the tree does not matter.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=tree

[ $# = 1 ] || { echo "usage: $0 DIR" >&2; exit 64; }
tree=$(cd "$1" 2>/dev/null && pwd) || die "no directory '$1'"
[ -f "$tree/Makefile" ] && [ -f "$tree/Kconfig" ] && [ -d "$tree/arch/x86" ] ||
	die "'$tree' is not a kernel source tree (no Makefile, Kconfig or arch/x86)"
name=$(basename "$tree")
check_name "tree name" "$name"
out=$BUILD/tree/$name
obj=$out/obj
JOBS=${JOBS:-$(nproc)}
FRAGMENT=$TOP/kernel-patches/lockdep.config
mkdir -p "$obj"

# kbuild builds out of tree only from a clean source tree; a tree built
# in place is copied instead (its git-visible files: no objects)
src=$tree
if [ -f "$tree/.config" ] || [ -d "$tree/include/config" ]; then
	git -C "$tree" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
		die "'$tree' was built in place and is not a git tree: kbuild cannot build it out of tree; give a clean copy (make mrproper in a copy of it)"
	src=$out/src
	mkdir -p "$src"
	run_logged tree-copy sh -c 'git -C "$1" ls-files -z -c -o --exclude-standard |
		rsync -a --from0 --files-from=- "$1/" "$2/"' sh "$tree" "$src"
fi

tmake() {
	CCACHE_DIR=$BUILD/ccache \
	KBUILD_BUILD_USER=lockdep KBUILD_BUILD_HOST=qemu \
		make -C "$src" O="$obj" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" "$@"
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
	for sym in $(sed -n 's/^CONFIG_\([A-Z0-9_]*\)=.*/\1/p' "$FRAGMENT"); do
		grep -rqsE --include='Kconfig*' "^(menu)?config $sym\$" "$src" ||
			undefined="$undefined$sym"$'\n'
	done
	[ -z "$undefined" ] ||
		progress "config: this tree does not define: $(echo $undefined)"
	check_fragment "$obj/.config" "$FRAGMENT" "$undefined" ||
		die "requested options were dropped by olddefconfig (see above; the tree's .config or a missing dependency)"
	echo "$stamp" >"$out/stamp-config"
fi

run_logged tree-build tmake -j"$JOBS" bzImage modules
rm -rf "$out/modules"
run_logged tree-modules-install tmake INSTALL_MOD_PATH="$out/modules" \
	INSTALL_MOD_STRIP=1 modules_install
progress "build: $(tmake -s kernelrelease) from $tree"
VM_KERNEL=$obj/arch/x86/boot/bzImage VM_MODULES=$out/modules \
	VM_INITRD=$out/initramfs.cpio.gz "$TOP/vm/initramfs.sh"
