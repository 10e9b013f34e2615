#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian's own kernel as it comes (README "Your kernel, your test"): the
# newest linux-image-6.1.0-N-amd64 apt offers, fetched with apt-get
# download and unpacked into build/distro/ (never installed), booted
# through make vm-boot KERNEL_IMAGE= MODULES= with its 4000 modules:
# only those the guest needs and those named (MODULES_LOAD=btrfs) are
# packed and loaded, each after what it needs, and the workload reads a
# btrfs image made on the host (DISK=). That kernel has no lockdep: the
# test asks only that the guest booted, the agent answered and the
# kernel log was stored, not for collect's status. Skipped, with the
# reason, when the package cannot be fetched. make check-distro runs it.

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"

DISTRO=${BUILD:-$TOP/build}/distro
VM=${BUILD:-$TOP/build}/vm/t1000-distro

pkg=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' 2>/dev/null |
	cut -d' ' -f1 | sort -V | tail -n 1)
[ -n "$pkg" ] ||
	test_skip_all 'a Debian kernel boots' 'no network for apt: apt offers no linux-image-6.1.0-N-amd64'
mkdir -p "$DISTRO"
if [ ! -f "$DISTRO/$pkg/done" ]; then
	rm -rf "${DISTRO:?}/$pkg" "$DISTRO"/"$pkg"_*.deb
	(cd "$DISTRO" && apt-get download "$pkg") >"$TRASH/apt.log" 2>&1 ||
		test_skip_all 'a Debian kernel boots' \
			"no network for apt: apt-get download $pkg failed: $(grep -m 1 -E '^(E|Err):' "$TRASH/apt.log")"
	dpkg-deb -x "$DISTRO"/"$pkg"_*.deb "$DISTRO/$pkg" && touch "$DISTRO/$pkg/done" ||
		test_skip_all 'a Debian kernel boots' "cannot unpack $DISTRO/${pkg}_*.deb"
fi
K=$DISTRO/$pkg
image=$(echo "$K"/boot/vmlinuz-*)

# the disk: one file on btrfs, made as an ordinary user (no mount)
mkdir -p "$TRASH/files"
echo "hello from the host" >"$TRASH/files/greeting"
truncate -s 128M "$TRASH/data.img"
PATH=$PATH:/usr/sbin:/sbin mkfs.btrfs -q --rootdir "$TRASH/files" "$TRASH/data.img" \
	>"$TRASH/mkfs.log" 2>&1 || { cat "$TRASH/mkfs.log"; exit 1; }
cat >"$TRASH/read-disk.sh" <<'EOF'
#!/bin/sh
mkdir -p /mnt/data
mount -t btrfs -o ro /dev/vdb /mnt/data
cat /mnt/data/greeting
echo "max_loop $(cat /sys/module/loop/parameters/max_loop)"
EOF

test_expect_success "$pkg through make vm-boot, MODULES_LOAD=btrfs, DISK=: the guest boots" '
	{ make -s -C "$TOP" --no-print-directory vm-boot KERNEL_IMAGE="$image" \
		MODULES="$K" MODULES_LOAD=btrfs DISK="$TRASH/data.img" \
		RUN="$TRASH/read-disk.sh" NAME=t1000-distro APPEND=loop.max_loop=3 \
		>"$TRASH/boot.out" 2>&1 || { cat "$TRASH/boot.out"; false; }; } &&
	cat "$TRASH/boot.out" &&
	grep -q "guest exited (qemu 0," "$TRASH/boot.out"
'

test_expect_success 'the agent answered and the kernel log is stored' '
	grep -q "agent: lockdep-agent 1 Linux 6.1" "$VM/collect.log" &&
	grep -q "Btrfs loaded" "$VM/raw/kmsg"
'

test_expect_success 'every module loaded, in dependency order; the rest left out, said' '
	! tr -d "\r" <"$VM/console.log" | grep "lockdep-init: modprobe" &&
	grep -E "loading .*virtio_console.* btrfs at boot, the other [0-9]+ left out: its modules are [0-9]+ MiB, over MODULES_MAX=64" \
		"$TRASH/boot.out"
'

test_expect_success 'the initramfs is bounded: under 8 MiB' '
	test "$(stat -c %s "$TOP/build/image/initramfs.cpio.gz")" -lt $((8 << 20))
'

test_expect_success 'the workload read the btrfs disk; the command line reached loop' '
	printf "%s\n" "hello from the host" "max_loop 3" >want &&
	test_cmp want "$VM/raw/workload.out"
'

test_expect_success 'a MODULES_LOAD name the tree lacks fails, named' '
	! make -s -C "$TOP" --no-print-directory vm-boot KERNEL_IMAGE="$image" \
		MODULES="$K" MODULES_LOAD=no-such-fs NAME=t1000-bad >out 2>&1 &&
	grep "MODULES_LOAD: no module .no_such_fs. in" out
'

test_done
