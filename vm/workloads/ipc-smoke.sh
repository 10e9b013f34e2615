#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ipc-smoke: the file descriptors that wait and wake, and System V and
# POSIX IPC: one stress-ng worker per CPU of each of pipes, epoll (over
# AF_UNIX), eventfd, timerfd, inotify, AIO, message queues (both kinds),
# System V semaphores and shared memory, for 20 seconds.
set -eu
secs=20
cpus=$(nproc)

mkdir -p /tmp/ipc-smoke
stress-ng --temp-path /tmp/ipc-smoke --timeout "${secs}s" \
	--pipe "$cpus" --epoll "$cpus" --eventfd "$cpus" --timerfd "$cpus" \
	--inotify "$cpus" --aio "$cpus" --msg "$cpus" --mq "$cpus" \
	--sem-sysv "$cpus" --shm "$cpus"
echo "ipc-smoke: done"
