#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Pack build/initramfs.cpio.gz: static busybox, our /init, the guest agent,
# the kernel tree's scenario kselftest (/kselftest/lockdep/scenarios.sh)
# and the kernel's installed modules, those the guest loads and, when the
# tree is small, the rest (vm/modules-pick.sh: MODULES_LOAD, MODULES_MAX,
# RUN) (KERNEL_VARIANT=plain or kasan: that
# kernel's, into build/initramfs-plain.cpio.gz or -kasan). And next to it
# initramfs-workload.cpio.gz, which boot.sh -r appends for a workload
# boot only (the kernel unpacks concatenated archives in turn): the
# host's stress-ng with every library it links, in the same paths, kept
# out of the every-boot image because it is 6 times its size. Rebuilt
# from scratch every time: it takes a few seconds.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=initramfs

BUSYBOX=${BUSYBOX:-/bin/busybox}
AGENT=$BUILD/bin/lockdep-agent
OUT=$INITRD
ROOT=${INITRD%.cpio.gz}

[ -x "$AGENT" ] || die "$AGENT missing: run 'make tools'"
[ -x "$BUSYBOX" ] && ! readelf -l "$BUSYBOX" | grep -q INTERP ||
	die "$BUSYBOX is not a static busybox: apt-get install busybox-static"
# a kernel built elsewhere (VM_KERNEL) may come without modules
[ -d "$MODULES/lib/modules" ] || [ -n "${VM_KERNEL:-}" ] ||
	die "no installed modules in $MODULES: run 'make kernel'"

rm -rf "$ROOT"
mkdir -p "$ROOT"/{bin,dev,etc,proc,sys,tmp,lib}
cp "$BUSYBOX" "$ROOT/bin/busybox"
cp "$AGENT" "$ROOT/bin/lockdep-agent"
install -m 0755 "$TOP/vm/init" "$ROOT/init"
if [ -d "$MODULES/lib/modules" ]; then
	"$TOP/vm/modules-pick.sh" "$MODULES" "$ROOT"
fi
# The kernel tree's kselftest of the scenario module, as kselftest
# installs it: the boot tests run it in the guest and read its KTAP. A
# tree without it (the plain kernel's) packs none. Where it prints its
# KTAP with kselftest's ktap_helpers.sh (6.12), that goes where
# kselftest installs it too.
KSFT=$KSRC/tools/testing/selftests/lockdep/scenarios.sh
KTAP_HELPERS=$KSRC/tools/testing/selftests/kselftest/ktap_helpers.sh
if [ -f "$KSFT" ]; then
	mkdir -p "$ROOT/kselftest/lockdep"
	install -m 0755 "$KSFT" "$ROOT/kselftest/lockdep/"
	if grep -q ktap_helpers.sh "$KSFT"; then
		mkdir -p "$ROOT/kselftest/kselftest"
		install -m 0644 "$KTAP_HELPERS" "$ROOT/kselftest/kselftest/"
	fi
fi
# pack DIR OUT: cpio_pack, said
pack() {
	cpio_pack "$1" "$2"
	progress "$(du -h "$2" | cut -f1) ${2#"$TOP"/}"
}
pack "$ROOT" "$OUT"
# The guest (GUEST_MEM, 512 MiB) holds the archive and what it unpacks
# to at once: past half of it the kernel fails with "Initramfs unpacking
# failed: write error" and /init is not even there to say why.
need=$(( ($(du -sb "$ROOT" | cut -f1) + $(stat -c %s "$OUT")) >> 20 ))
[ "$need" -le $((GUEST_MEM / 2)) ] ||
	die "$OUT needs ${need} MiB of the guest's $GUEST_MEM to unpack: over $((GUEST_MEM / 2)); load fewer modules (MODULES_LOAD, MODULES_MAX)"

STRESS=$(command -v stress-ng) || die "no stress-ng: apt-get install stress-ng"
WROOT=${WORKLOAD_INITRD%.cpio.gz}
rm -rf "$WROOT"
mkdir -p "$WROOT"
# the binary, then each library ldd resolves (and the loader) under its
# own path; vdso is the kernel's and has no file
for f in "$STRESS" $(ldd "$STRESS" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }
		$1 ~ /^\// { print $1 }'); do
	mkdir -p "$WROOT${f%/*}"
	cp -L "$f" "$WROOT$f"
done
pack "$WROOT" "$WORKLOAD_INITRD"
