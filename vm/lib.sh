# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the vm/ scripts: paths, progress lines, logged steps.
# Sourced, never run (by bash). Paths set here are read by the scripts
# that source it, which shellcheck cannot see from this file alone.
# shellcheck shell=bash disable=SC2034

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
LOGS=$BUILD/logs
# KERNEL_SOURCE names the Debian source package the series is kept for:
#   linux-source-6.1   (default) kernel-patches/, build/linux
#   linux-source-6.12  kernel-patches/6.12/, build/linux-6.12
# Everything a base builds or installs carries its suffix (KBASE: "" for
# 6.1, "-6.12"): the trees, modules, initramfs, stamps and logs of one
# base never touch the other's.
KERNEL_SOURCE=${KERNEL_SOURCE:-linux-source-6.1}
case $KERNEL_SOURCE in
linux-source-6.1) KBASE="" ;;
linux-source-6.12) KBASE=-6.12 ;;
*) echo "KERNEL_SOURCE must be linux-source-6.1 or linux-source-6.12, not '$KERNEL_SOURCE'" >&2
	exit 64 ;;
esac
PATCHES=$TOP/kernel-patches${KBASE:+/${KBASE#-}}
# Names of its logs in build/logs start with the version ("6.12-").
BASELOG=${KBASE#-}${KBASE:+-}
# The git repo that holds the pristine tree and the series (branch lockdep).
KREPO=$BUILD/linux$KBASE
# KERNEL_VARIANT picks the kernel that kernel.sh builds and the guest boots:
#   lockdep  the tree with kernel-patches/ applied (default)
#   plain    the pristine tree, same config, the scenario module built out of
#            tree: the baseline of bench/lock-hotpath.sh
#   kasan    the series with KASAN on (vm/kasan.config): make check-kasan
#   capacity the series with lockdep's tables made small (CAPACITY_CONFIG,
#            default vm/capacity.config): make check-capacity
# VM_MODULES and VM_INITRD replace the lockdep kernel's installed modules
# and initramfs (vm/scenario-module.sh: a rebuilt scenario module; VM_INITRD
# also the plain kernel's: boot.sh -r, one with the workload appended), and
# VM_KERNEL its image: a kernel built elsewhere (make vm-boot KERNEL_IMAGE=
# or KERNEL_TREE=), whose modules are optional.
case ${KERNEL_VARIANT:-lockdep} in
lockdep) KSRC=$KREPO MODULES=${VM_MODULES:-$BUILD/modules$KBASE}
	INITRD=${VM_INITRD:-$BUILD/initramfs$KBASE.cpio.gz} ;;
plain) KSRC=$KREPO-plain MODULES=$KREPO-plain.modules
	INITRD=${VM_INITRD:-$BUILD/initramfs$KBASE-plain.cpio.gz} ;;
kasan) KSRC=$KREPO-kasan MODULES=$KREPO-kasan.modules
	INITRD=${VM_INITRD:-$BUILD/initramfs$KBASE-kasan.cpio.gz} ;;
capacity) KSRC=$KREPO-capacity MODULES=$KREPO-capacity.modules
	INITRD=${VM_INITRD:-$BUILD/initramfs$KBASE-capacity.cpio.gz} ;;
*) echo "KERNEL_VARIANT must be lockdep, plain, kasan or capacity, not '$KERNEL_VARIANT'" >&2
	exit 64 ;;
esac
KIMAGE=${VM_KERNEL:-$KSRC/arch/x86/boot/bzImage}
# What a workload boot (boot.sh -r) appends to INITRD: stress-ng and the
# libraries it links, built by initramfs.sh next to INITRD.
WORKLOAD_INITRD=${INITRD%.cpio.gz}-workload.cpio.gz
# The guest's memory in MiB (run-qemu.sh -m): initramfs.sh bounds what
# it packs by it.
GUEST_MEM=${GUEST_MEM:-512}
case $GUEST_MEM in
''|0|*[!0-9]*) echo "GUEST_MEM must be a number of MiB, not '$GUEST_MEM'" >&2
	exit 64 ;;
esac
mkdir -p "$LOGS"

_t0=$(date +%s)

# kmake ARGS...: make in the kernel tree, as every step that compiles
# kernel code calls it (the same command lines, the same ccache in
# build/ccache). Fixed version strings keep ccache hits across rebuilds.
# NICE=N runs it under nice -n N (a build that must leave the CPUs to
# others on a shared machine).
kmake() {
	CCACHE_DIR=$BUILD/ccache CCACHE_BASEDIR=$KSRC \
	KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026' \
	KBUILD_BUILD_USER=lockdep KBUILD_BUILD_HOST=qemu \
		${NICE:+nice -n "$NICE"} make -C "$KSRC" ARCH=x86_64 \
		CC="ccache gcc" HOSTCC="ccache gcc" "$@"
}

# progress MSG: one short line with the seconds since the script started.
progress() {
	printf '  %-10s %s (%ss)\n' "${STEP:-vm}" "$*" "$(( $(date +%s) - _t0 ))"
}

die() {
	printf '%s: error: %s\n' "${STEP:-vm}" "$*" >&2
	exit 1
}

# cpio_pack DIR OUT: DIR as a gzipped newc archive for the kernel to
# unpack, files in a fixed order and owned by root
cpio_pack() {
	(cd "$1" && find . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --owner=0:0 --quiet) | gzip -9n >"$2.tmp"
	mv "$2.tmp" "$2"
}

# check_name WHAT VALUE: VALUE names files and directories under build/
# that are removed first: no "", "..", "a/b". Exits 64 otherwise.
check_name() {
	case $2 in
	''|.*|*[!A-Za-z0-9._-]*)
		printf "%s: error: invalid %s '%s': expected [A-Za-z0-9._-], not starting with '.'\n" \
			"${STEP:-vm}" "$1" "$2" >&2
		exit 64 ;;
	esac
}

# run_logged NAME CMD...: run CMD with all output in $LOGS/NAME.log; on
# failure print the log's path and its last lines, and fail.
run_logged() {
	local name=$1 log rc=0 how
	shift
	log=$LOGS/$name.log
	progress "$name: start (log: ${log#"$TOP"/})"
	"$@" >"$log" 2>&1 || rc=$?
	if [ $rc = 0 ]; then
		progress "$name: done"
		return 0
	fi
	how="exit $rc"
	[ $rc -le 128 ] || how="killed by SIG$(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128)))"
	printf '%s: error: %s failed (%s); last lines of %s:\n' \
		"${STEP:-vm}" "$name" "$how" "$log" >&2
	tail -n 25 "$log" >&2
	exit 1
}

# check_fragment DOTCONFIG FRAGMENT [SKIP]: every CONFIG_ line of
# FRAGMENT reads the same in DOTCONFIG, but for the symbols listed in SKIP
# (one per line); prints each one that does not and fails.
check_fragment() {
	local line opt want got bad=0
	while read -r line; do
		case $line in
		CONFIG_*=*) opt=${line%%=*} want=$line ;;
		'# CONFIG_'*' is not set') opt=${line#\# } opt=${opt%% *} want="" ;;
		*) continue ;;
		esac
		grep -qx "${opt#CONFIG_}" <<<"${3:-}" && continue
		got=$(grep -E "^$opt=" "$1" || true)
		if [ "$got" != "$want" ]; then
			echo "config: $opt: requested '${want:-n}', got '${got:-n}'" >&2
			bad=1
		fi
	done <"$2"
	[ $bad = 0 ]
}

# fragment_lines FRAGMENT...: the CONFIG_ lines of the fragments, a
# later fragment's line for an option replacing an earlier one's.
fragment_lines() {
	sed -n 's/^\(# \)\{0,1\}\(CONFIG_[A-Za-z0-9_]*\)[= ].*/\2 &/p' "$@" | tac |
		awk '!seen[$1]++ { sub(/^[^ ]* /, ""); print }' | tac
}

# repro_compile SOURCE BINARY: a C reproducer built as syzbot builds
# them (static, -pthread, -O2; CC= another compiler); the compiler's
# messages shown, and failure said, naming SOURCE
repro_compile() {
	local log rc=0
	log=$(${CC:-gcc} -static -pthread -O2 -o "$2" "$1" 2>&1) || rc=$?
	[ -z "$log" ] || printf '%s\n' "$log" >&2
	[ $rc = 0 ] ||
		die "the reproducer '$1' does not compile (${CC:-gcc} -static -pthread -O2, above): nothing built or booted"
}

# content_hash FILE...: one hash over the names and contents of FILEs, for
# "rebuild only what changed" stamps.
content_hash() {
	local f
	for f in "$@"; do
		printf '%s\n' "${f#"$TOP"/}"
		cat "$f"
	done | sha256sum | cut -d' ' -f1
}

# scenario_module_build DIR LOGNAME [CFLAGS] <SOURCE: the scenario module
# from the source on standard input, built out of tree in DIR against $KSRC
# (DIR is made anew), with CFLAGS added to its compiler flags.
scenario_module_build() {
	rm -rf "$1"
	mkdir -p "$1"
	cat >"$1/test_lockdep_scenarios.c"
	printf 'obj-m := test_lockdep_scenarios.o\nccflags-y := %s\n' "${3:-}" >"$1/Kbuild"
	run_logged "$2" kmake M="$1" modules
}

# apply_patches WHERE CMD... -- PATCH...: CMD PATCH (a git apply, with
# its own tree or index) for each PATCH in turn; the first that does not
# apply is named with git's reason, and nothing is built. One checker
# for kernel-variant.sh (an index of the base commit) and kernel-tree.sh
# (a scratch copy of the files the patches touch).
apply_patches() {
	local where=$1 cmd=() p log
	shift
	while [ "$1" != -- ]; do cmd+=("$1"); shift; done
	shift
	log=$(mktemp)
	for p in "$@"; do
		if ! "${cmd[@]}" "$(realpath "$p")" 2>"$log"; then
			sed 's/^/    /' "$log" >&2
			rm -f "$log"
			die "the patch '$p' does not apply to $where (git apply, above): nothing built"
		fi
	done
	rm -f "$log"
}

# repoint_build OBJ FROM TO: a kernel build directory copied with its
# times (cp -a) named its source and itself by absolute paths, FROM/...
# in its command lines and dependency files: now TO/..., times kept, so
# Kbuild finds the same commands and rebuilds only what is newer
repoint_build() {
	local from
	from=$(printf '%s/' "$2" | sed 's/[][\.*^$|]/\\&/g')
	grep -rlIF "$2/" "$1" | while read -r f; do
		sed "s|$from|$3/|g" "$f" >"$f.tmp" && chmod --reference="$f" "$f.tmp" &&
			touch -r "$f" "$f.tmp" && mv "$f.tmp" "$f"
	done
}
