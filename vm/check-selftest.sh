#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# vm/check-selftest.sh CONSOLE_LOG: exit 0 if the kernel's locking API
# self-test table in CONSOLE_LOG ran to its end and passed: the summary
# line "Good, all N testcases passed!" is there, and no cell says FAILED
# and no "unexpected failures" line appears. Otherwise print why, exit 1.
set -uo pipefail
log=${1:?usage: $0 CONSOLE_LOG}
[ -r "$log" ] || { echo "check-selftest: error: cannot read '$log'" >&2; exit 2; }

bad=0
if ! grep -q 'Locking API testsuite' "$log"; then
	echo "check-selftest: $log: no self-test table (CONFIG_DEBUG_LOCKING_API_SELFTESTS off?)" >&2
	exit 1
fi
if grep -n 'FAILED|' "$log" >&2; then
	echo "check-selftest: $log: FAILED cells above" >&2
	bad=1
fi
if grep -n 'unexpected failures' "$log" >&2; then
	bad=1
fi
good=$(grep -oE 'Good, all +[0-9]+ testcases passed!' "$log")
if [ -z "$good" ]; then
	echo "check-selftest: $log: no 'Good, all N testcases passed!' line" >&2
	bad=1
else
	echo "check-selftest: $good"
fi
exit $bad
