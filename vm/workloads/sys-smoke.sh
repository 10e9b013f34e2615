#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# sys-smoke: every readable sysfs attribute and sysctl read once, as
# monitoring tools and udev do (debugfs and tracefs left out: they are for
# tests, and tracefs' trace_pipe would block and take the events the
# agent streams). Each show() takes its subsystem's locks, and each sysfs
# attribute is a lock class of its own (kernfs's active reference,
# "kn->active#N"), so most of what this adds to an idle boot's classes
# are those.
set -u
t0=$(date +%s)
# files ACTION...: find's ACTION on each readable file of the sweep
files() {
	find /sys /proc/sys \( -path /sys/kernel/debug -o \
		-path /sys/kernel/tracing \) -prune -o \
		-type f -perm -0400 "$@"
}
n=$(files -print | wc -l)
# one cat for many files; a file that cannot be read is only skipped
files -exec cat {} + >/dev/null 2>&1
echo "sys-smoke: read $n files in $(($(date +%s) - t0)) s"
