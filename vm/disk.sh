#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The scratch disk of a workload boot (vm/boot.sh -r): a fresh sparse
# ext4 image, the guest's /dev/vda, holding loop.img, a smaller ext4
# image for a loop mount on top of it.
#
#   vm/disk.sh FILE [SIZE_MB]
#
# Built by mkfs.ext4 -d (e2fsprogs) as an ordinary user: no loop device
# and no mount on the host. SIZE_MB defaults to 512; loop.img is 64 MiB.
# Both are sparse, so the disk costs the host only what the guest writes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=disk

[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 FILE [SIZE_MB]" >&2; exit 64; }
out=$1 size=${2:-512}
case $size in
''|*[!0-9]*) die "SIZE_MB must be a number of MiB, not '$size'" ;;
esac
[ "$size" -ge 128 ] || die "SIZE_MB must be at least 128 (loop.img takes 64)"
# mkfs.ext4 lives in /sbin, which an ordinary user's PATH may lack
mkfs=$(PATH=$PATH:/usr/sbin:/sbin command -v mkfs.ext4) ||
	die "no mkfs.ext4: apt-get install e2fsprogs"

stage=$out.d
rm -rf "$stage" "$out"
mkdir -p "$stage"
"$mkfs" -q -F -L lockdep-loop "$stage/loop.img" 64M >/dev/null ||
	die "mkfs.ext4 failed on $stage/loop.img"
"$mkfs" -q -F -L lockdep-scratch -d "$stage" "$out" "${size}M" >/dev/null ||
	die "mkfs.ext4 failed on $out"
rm -rf "$stage"
