#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Pack build/initramfs.cpio.gz: static busybox, our /init, the guest agent
# and the kernel's installed modules (KERNEL_VARIANT=plain: the plain
# kernel's, into build/initramfs-plain.cpio.gz). Rebuilt from scratch
# every time: it takes under a second.
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
mkdir -p "$ROOT"/{bin,dev,proc,sys,tmp,lib}
cp "$BUSYBOX" "$ROOT/bin/busybox"
cp "$AGENT" "$ROOT/bin/lockdep-agent"
install -m 0755 "$TOP/vm/init" "$ROOT/init"
if [ -d "$MODULES/lib/modules" ]; then
	cp -a "$MODULES/lib/modules" "$ROOT/lib/"
fi
(cd "$ROOT" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) | gzip -9n >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
progress "$(du -h "$OUT" | cut -f1) ${OUT#"$TOP"/}"
