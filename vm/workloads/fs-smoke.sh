#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fs-smoke: ext4 with its jbd2 journal on the scratch disk (/dev/vda, which
# vm/boot.sh -r attaches), an ext4 image loop-mounted on top of it, and a
# tmpfs. On each at once, one stress-ng worker per CPU of each kind:
# files created, written and fsync-ed, renamed, linked and unlinked,
# directories and dentries churned, ranges fallocated, flock-ed and
# sync_file_range-d, for 20 seconds; then all three are unmounted, which
# commits and closes the journals too.
set -eu
secs=20
cpus=$(nproc)

[ -b /dev/vda ] || {
	echo "fs-smoke: no /dev/vda: boot with vm/boot.sh -r (make vm-boot RUN=...), which attaches the scratch disk" >&2
	exit 2
}
mkdir -p /mnt/disk /mnt/loop /mnt/tmp
mount -t ext4 /dev/vda /mnt/disk
mount -t ext4 -o loop /mnt/disk/loop.img /mnt/loop
mount -t tmpfs -o size=96m tmpfs /mnt/tmp

pids=""
for d in /mnt/disk /mnt/loop /mnt/tmp; do
	stress-ng --temp-path "$d" --timeout "${secs}s" \
		--hdd "$cpus" --hdd-bytes 1m --hdd-opts fsync \
		--rename "$cpus" --link "$cpus" --dir "$cpus" --dentry "$cpus" \
		--fallocate "$cpus" --fallocate-bytes 4m --flock "$cpus" \
		--sync-file "$cpus" --sync-file-bytes 4m &
	pids="$pids $!"
done
rc=0
for p in $pids; do
	wait "$p" || rc=$?
done
sync
umount /mnt/loop
umount /mnt/disk
umount /mnt/tmp
echo "fs-smoke: done, status $rc"
exit $rc
