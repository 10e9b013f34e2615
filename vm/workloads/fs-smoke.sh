#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fs-smoke: ext4 with its jbd2 journal on the scratch disk (/dev/vda, which
# vm/boot.sh -r attaches), an ext4 image loop-mounted on top of it, and a
# tmpfs. On each at once, one stress-ng worker per CPU of each kind:
# files created, written and fsync-ed, renamed, linked, symlinked and
# unlinked, directories read and churned, ranges fallocated, locked with
# flock, lockf and fcntl, and sync_file_range-d, modes and times set;
# on ext4 also extended attributes, and on the disk extents mapped, readahead,
# copy_file_range and sendfile, and a loop device over a file; for 20
# seconds. Then all three are unmounted, which commits and closes the
# journals too.
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
# fs DIR [MORE STRESSORS...]: the common set on DIR, in the background
fs() {
	d=$1
	shift
	stress-ng --temp-path "$d" --timeout "${secs}s" \
		--hdd "$cpus" --hdd-bytes 1m --hdd-opts fsync \
		--rename "$cpus" --link "$cpus" --symlink "$cpus" --dir "$cpus" \
		--dentry "$cpus" --getdent "$cpus" --fallocate "$cpus" \
		--fallocate-bytes 4m --flock "$cpus" --lockf "$cpus" \
		--fcntl "$cpus" --sync-file "$cpus" --sync-file-bytes 4m \
		--chmod "$cpus" --utime "$cpus" "$@" &
	pids="$pids $!"
}
# ext4 only: extents, readahead, copy_file_range, sendfile, and a loop
# device of stress-ng's own on a file of the disk
fs /mnt/disk --xattr "$cpus" --fiemap "$cpus" --readahead "$cpus" \
	--copy-file "$cpus" --sendfile "$cpus" --loop 1
fs /mnt/loop --xattr "$cpus"
# tmpfs: no xattr (CONFIG_TMPFS_XATTR is not in the guest)
fs /mnt/tmp
# stress-ng's 3: a stressor lacked resources (space, memory) for its
# whole run in this small guest; its 7: one was cut short (OOM-killed)
# while counting its bogo ops: neither says anything of the kernel
rc=0
for p in $pids; do
	wait "$p" || { s=$?; case $s in
		3) echo "fs-smoke: a stressor ran short of resources" ;;
		7) echo "fs-smoke: a stressor was cut short (bogo-op counts untrustworthy)" ;;
		*) rc=$s ;;
		esac; }
done
sync
umount /mnt/loop
umount /mnt/disk
umount /mnt/tmp
echo "fs-smoke: done, status $rc"
exit $rc
