#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# By hand, not part of make bench: the longest interrupts-off section of
# one open() of /proc/lockdep_graph with lockdep nearly full (issue 12,
# finding 6). It needs a debug-only kernel:
#
#   (cd build/linux && git apply ../../bench/graph-irqsoff/measure.diff)
#   (. vm/lib.sh && kmake -j2 bzImage && kmake M=$PWD/build/gi modules)
#      with bench/graph-irqsoff/{Kbuild,lg_stress.c} copied to build/gi
#   cp build/gi/lg_stress.ko bench/graph-irqsoff/  (run.sh takes it there)
#   bench/graph-irqsoff/run.sh build/linux/arch/x86/boot/bzImage OUT [N] [T]
#   (cd build/linux && git checkout kernel/locking) and make kernel again
#
# measure.diff times each hold of the graph lock with local_clock() and
# prints one "lgdbg:" line per open() (holds, restarts, longest hold, whole
# open()). lg_stress.ko registers N classes, each one the target of a
# dependency from the one before, and with T > 0 a thread adds T more, one
# every millisecond or so, while two readers read the file. The guest runs
# on one CPU under -icount shift=0 (one instruction per nanosecond), so the
# times do not depend on the host's load. 7600 classes on top of the ~450
# of the boot come close to MAX_LOCKDEP_KEYS (8192).
#
# run.sh KERNEL OUT [N] [T]
set -e
K=$1; OUT=$2; N=${3:-7600}; T=${4:-0}
R=$(mktemp -d)
mkdir -p $R/bin $R/proc $R/sys $R/dev $R/tmp
cp /bin/busybox $R/bin/busybox
cp "$(dirname "$0")"/lg_stress.ko $R/
cat > $R/init <<EOI
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo 8 > /proc/sys/kernel/printk
insmod /lg_stress.ko nr_classes=$N trickle=$T
grep -E "lock-classes|direct dependencies|dependency chains" /proc/lockdep_stats
for i in 1 2 3 4 5; do
	cat /proc/lockdep_graph > /tmp/g\$i; echo "read \$i rc=\$? last=\$(tail -n1 /tmp/g\$i) \$(grep ^counts /tmp/g\$i)"
done
if [ $T != 0 ]; then
	( while ! dmesg | grep -q "trickle done"; do cat /proc/lockdep_graph > /tmp/r1 || echo r1 fail; tail -n1 /tmp/r1 >> /tmp/ends1; done ) &
	( while ! dmesg | grep -q "trickle done"; do cat /proc/lockdep_graph > /tmp/r2 || echo r2 fail; tail -n1 /tmp/r2 >> /tmp/ends2; done ) &
	wait
	echo "concurrent reads: \$(cat /tmp/ends1 /tmp/ends2 2>/dev/null | sort | uniq -c)"
fi
dmesg | grep -E "lgdbg|lg_stress|BUG|WARN|too low"
poweroff -f
EOI
chmod 755 $R/init
(cd $R && find . | cpio -o -H newc --owner=0:0 --quiet) | gzip > $R.cpio.gz
timeout 900 qemu-system-x86_64 -accel tcg -cpu qemu64 -m 1024 -smp 1 \
	-icount shift=0 -display none -monitor none -no-reboot \
	-kernel "$K" -initrd $R.cpio.gz -append "console=ttyS0 panic=-1 quiet" \
	-serial file:"$OUT" </dev/null || true
rm -rf $R $R.cpio.gz
