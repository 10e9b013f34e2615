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
#            on top of "pristine" (the only way patches are edited)
#   all      tree + patches + config + build
# Each step is skipped when a stamp of its inputs says nothing changed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=kernel

TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
CONFIG_FRAGMENT=$PATCHES/lockdep.config
JOBS=${JOBS:-$(nproc)}
export CCACHE_DIR=$BUILD/ccache
export CCACHE_BASEDIR=$KSRC
# Deterministic kernel version strings keep ccache hits across rebuilds.
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=lockdep KBUILD_BUILD_HOST=qemu

kmake() {
	make -C "$KSRC" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" "$@"
}

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
	[ -f "$TARBALL" ] || die "$TARBALL missing: apt-get install linux-source-6.1 (or run 'make deps')"
	pkgver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo unknown)
	if [ -f "$BUILD/linux.stamp-tree" ] &&
	   [ "$(cat "$BUILD/linux.stamp-tree")" = "$pkgver" ] &&
	   git -C "$KSRC" rev-parse -q --verify pristine >/dev/null; then
		progress "tree: linux-source-6.1 $pkgver already unpacked"
		return
	fi
	rm -rf "$KSRC" "$BUILD"/linux.stamp-*
	mkdir -p "$KSRC"
	run_logged unpack tar -C "$KSRC" --strip-components=1 -xf "$TARBALL"
	run_logged git-pristine sh -c '
		cd "$1" && git init -q -b lockdep &&
		git -c user.name=lockdep -c user.email=lockdep@localhost \
			add -A -f . &&
		git -c user.name=lockdep -c user.email=lockdep@localhost \
			commit -q -m "linux-source-6.1 $2 (pristine)" &&
		git tag pristine' sh "$KSRC" "$pkgver"
	echo "$pkgver" >"$BUILD/linux.stamp-tree"
	echo "linux-source-6.1 $pkgver" >"$BUILD/linux-source-version"
}

do_patches() {
	local stamp files
	mapfile -t files < <(series_files)
	stamp=$(content_hash "$PATCHES/series" "${files[@]}" 2>/dev/null || echo none)
	if [ -f "$BUILD/linux.stamp-patches" ] &&
	   [ "$(cat "$BUILD/linux.stamp-patches")" = "$stamp" ]; then
		progress "patches: series unchanged (${#files[@]} patches)"
		return
	fi
	rm -f "$BUILD/linux.stamp-patches"
	git -C "$KSRC" am --abort >/dev/null 2>&1 || true
	git -C "$KSRC" checkout -q -f -B lockdep pristine
	if [ ${#files[@]} -gt 0 ]; then
		run_logged git-am git -C "$KSRC" -c user.name=lockdep \
			-c user.email=lockdep@localhost am --whitespace=error-all "${files[@]}"
	fi
	progress "patches: ${#files[@]} applied"
	echo "$stamp" >"$BUILD/linux.stamp-patches"
}

# Every CONFIG_ line of the fragment must read the same in .config.
check_config() {
	local line opt want got bad=0
	while read -r line; do
		case $line in
		CONFIG_*=*) opt=${line%%=*} want=$line ;;
		'# CONFIG_'*' is not set') opt=${line#\# } opt=${opt%% *} want="" ;;
		*) continue ;;
		esac
		got=$(grep -E "^$opt=" "$KSRC/.config" || true)
		if [ "$got" != "$want" ]; then
			echo "config: $opt: requested '${want:-n}', got '${got:-n}'" >&2
			bad=1
		fi
	done <"$CONFIG_FRAGMENT"
	[ $bad = 0 ] || die "requested options were dropped by olddefconfig (missing dependency?)"
}

do_config() {
	local stamp
	stamp=$(content_hash "$CONFIG_FRAGMENT")-$(git -C "$KSRC" rev-parse HEAD)
	if [ -f "$BUILD/linux.stamp-config" ] &&
	   [ "$(cat "$BUILD/linux.stamp-config")" = "$stamp" ] && [ -f "$KSRC/.config" ]; then
		progress "config: unchanged"
		return
	fi
	run_logged config sh -c '
		make -C "$1" ARCH=x86_64 tinyconfig &&
		cd "$1" && ARCH=x86_64 scripts/kconfig/merge_config.sh -m .config \
			kernel/configs/kvm_guest.config "$2" &&
		make ARCH=x86_64 olddefconfig' sh "$KSRC" "$CONFIG_FRAGMENT"
	check_config
	echo "$stamp" >"$BUILD/linux.stamp-config"
}

do_build() {
	local stamp
	stamp=$(cat "$BUILD/linux.stamp-config")-$(git -C "$KSRC" rev-parse HEAD)
	if [ -f "$BUILD/linux.stamp-build" ] &&
	   [ "$(cat "$BUILD/linux.stamp-build")" = "$stamp" ] &&
	   [ -f "$KSRC/arch/x86/boot/bzImage" ]; then
		progress "build: up to date"
		return
	fi
	rm -f "$BUILD/linux.stamp-build"
	run_logged kernel-build kmake -j"$JOBS" bzImage modules
	rm -rf "$BUILD/modules"
	run_logged modules-install kmake INSTALL_MOD_PATH="$BUILD/modules" \
		INSTALL_MOD_STRIP=1 modules_install
	echo "$stamp" >"$BUILD/linux.stamp-build"
	progress "build: $(kmake -s kernelrelease) ($(cat "$BUILD/linux-source-version"))"
}

do_export() {
	local n
	git -C "$KSRC" rev-parse -q --verify pristine >/dev/null ||
		die "no kernel tree in $KSRC: run '$0 tree' first"
	n=$(git -C "$KSRC" rev-list --count pristine..HEAD)
	rm -f "$PATCHES"/*.patch
	if [ "$n" -gt 0 ]; then
		git -C "$KSRC" format-patch -q --no-signature --zero-commit \
			-o "$PATCHES" pristine..HEAD
	fi
	(cd "$PATCHES" && ls -1 -- *.patch 2>/dev/null || true) >"$PATCHES/series"
	progress "export: $n patches written to kernel-patches/"
}

case ${1:-all} in
tree) do_tree ;;
patches) do_patches ;;
config) do_config ;;
build) do_build ;;
export) do_export ;;
all) do_tree; do_patches; do_config; do_build ;;
*) echo "usage: $0 [tree|patches|config|build|export|all]" >&2; exit 64 ;;
esac
