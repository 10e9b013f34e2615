#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ipc-smoke: the file descriptors that wait and wake, IPC, and tasks:
# one stress-ng worker per CPU of each of pipes (and splice, tee),
# epoll (over AF_UNIX), eventfd, timerfd, signalfd, POSIX timers,
# futexes, inotify, AIO, message queues (both kinds), System V
# semaphores, POSIX shared memory and memfd, ptys, clone, and one that
# unshares namespaces, for 20 seconds.
set -eu
secs=20
cpus=$(nproc)

mkdir -p /tmp/ipc-smoke
stress-ng --temp-path /tmp/ipc-smoke --timeout "${secs}s" \
	--pipe "$cpus" --epoll "$cpus" --eventfd "$cpus" --timerfd "$cpus" \
	--sigfd "$cpus" --timer "$cpus" --futex "$cpus" --inotify "$cpus" \
	--aio "$cpus" --msg "$cpus" --mq "$cpus" --sem-sysv "$cpus" \
	--shm "$cpus" --memfd "$cpus" --splice "$cpus" --tee "$cpus" \
	--pty "$cpus" --clone "$cpus" --unshare 1 || {
	# 3: a stressor lacked resources for its whole run in this small
	# guest; 7: one was cut short (OOM-killed) while counting its bogo
	# ops: neither says anything of the kernel's locking
	s=$?
	case $s in
	3) echo "ipc-smoke: a stressor ran short of resources" ;;
	7) echo "ipc-smoke: a stressor was cut short (bogo-op counts untrustworthy)" ;;
	*) exit $s ;;
	esac
}
echo "ipc-smoke: done"
