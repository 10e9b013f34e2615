#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-collect against a real lockdep-agent, no VM

The agent serves a UNIX socket (--listen) instead of a virtio port and
reads this host'\''s real /proc; its kernel has no lockdep, so those files
are what it does not offer and the collection is complete as far as
this kernel goes (exit 3).'
. "$(dirname "$0")/lib.sh"

MAN=$TOP/lockdep-tools/man

# What a collection of this machine exits: 3 without lockdep (complete
# as far as it goes), 1 (partial) if the kernel log is unreadable too;
# with lockdep, 0, 1 or 3 (what it lacks of our series' files is not
# what these tests check).
if [ -e /proc/lockdep ]; then HOST_RC=0,1,3
elif [ -r /dev/kmsg ]; then HOST_RC=3
else HOST_RC=1
fi

test_expect_success 'help and man page name the same options' '
	for tool in lockdep-agent:8 lockdep-collect:1; do
		"$BIN/${tool%:*}" --help >help &&
		grep -o -- "--[a-z-]*" help | sort -u >from-help &&
		sed -e "s/\\\\-/-/g" "$MAN/${tool%:*}.${tool#*:}" |
			grep -o -- "--[a-z-]*" | sort -u >from-man &&
		test_cmp from-help from-man || return 1
	done
'

test_expect_success '--help that cannot be written exits 2' '
	if [ -w /dev/full ]; then
		for tool in lockdep-agent lockdep-collect; do
			test_expect_code 2 "$BIN/$tool" --help >/dev/full || return 1
		done
	fi
'

test_expect_success 'man pages are clean roff' '
	groff -ww -z -man "$MAN/lockdep-agent.8" 2>err &&
	groff -ww -z -man "$MAN/lockdep-collect.1" 2>>err &&
	test_cmp /dev/null err
'

test_expect_success 'usage errors exit 64' '
	for args in "" "--socket s" "--raw-dir d" \
		"--socket s --raw-dir d --timeout 0" \
		"--socket s --raw-dir d --timeout x" \
		"--socket s --raw-dir d --trigger Bad" \
		"--socket s --raw-dir d extra" "--bogus"; do
		test_expect_code 64 "$BIN/lockdep-collect" $args 2>err &&
		grep -q usage: err || { echo "args: $args"; return 1; }
	done &&
	for args in "--port a --listen b" "extra"; do
		test_expect_code 64 "$BIN/lockdep-agent" $args 2>err && grep -q "^usage: lockdep-agent" err ||
		{ echo "args: $args"; return 1; }
	done
'

test_expect_success 'a usage error is worded as every tool words one' '
	test_expect_code 64 "$BIN/lockdep-collect" --socket s 2>err &&
	head -n 1 err >first &&
	echo "lockdep-collect: error: --socket needs --raw-dir DIR, --db FILE or both" >want &&
	test_cmp want first &&
	test_expect_code 64 "$BIN/lockdep-agent" --port a --listen b 2>err &&
	head -n 1 err >first &&
	echo "lockdep-agent: error: --port and --listen cannot be used together" >want &&
	test_cmp want first
'

test_expect_success 'collect everything from a real agent' '
	start_agent &&
	test_expect_code $HOST_RC "$BIN/lockdep-collect" --socket agent.sock --raw-dir raw \
		--timeout 10 --trigger ab_ba --poweroff 2>log &&
	wait "$(cat agent.pid)" &&
	cat log &&
	grep -q "power-off acknowledged" log &&
	cmp /proc/version raw/files/proc/version &&
	cmp /proc/cmdline raw/files/proc/cmdline &&
	cmp /sys/kernel/notes raw/files/sys/kernel/notes &&
	size=$(wc -c </proc/version) &&
	grep -qx "file complete /proc/version $size" raw/MANIFEST &&
	grep -qx "agent lockdep-agent 1 Linux $(uname -r) $(uname -m)" raw/MANIFEST &&
	test "$(grep -c "^file " raw/MANIFEST)" = 12 &&
	test -z "$(find raw -name "*.part")" &&
	# a kernel without lockdep: said once
	if [ -e /proc/lockdep ]; then :; else
		grep -qx "file missing /proc/lockdep 0 ENOENT" raw/MANIFEST &&
		# no lockdep, no sampler: its files are none, never "not offered"
		grep -qx "file missing /run/lockdep/stats 0 ENOENT" raw/MANIFEST &&
		! grep -q "does not offer.*/run/lockdep" log agent.err &&
		test ! -e raw/files/proc/lockdep &&
		test "$(grep -c "this kernel has no lockdep" log)" = 1 &&
		grep -q "^lockdep-collect: this kernel does not offer: /proc/lockdep, /proc/lockdep_stats, /proc/lockdep_chains, " log &&
		! grep -q "/proc/lockdep.*missing" log
	fi &&
	if [ -r /dev/kmsg ]; then
		grep -q "^kmsg complete [1-9]" raw/MANIFEST &&
		head -n 1 raw/kmsg | grep -q "^[0-9]*,[0-9]*,[0-9]*,.*;"
	fi &&
	grep -qx "trigger failed ab_ba ENOENT" raw/MANIFEST &&
	# this host has neither our export nor the scenario module: said once
	if [ ! -e /proc/lockdep_graph ] && [ ! -e /sys/kernel/debug/lockdep/graph ]; then
		! grep -q "lockdep/graph: missing" log &&
		! grep -q "trigger .ab_ba. failed" log &&
		test "$(grep -c "does not offer" log)" = 1 &&
		grep -q "^lockdep-collect: this kernel does not offer: .*/sys/kernel/debug/lockdep/graph, .*trigger ab_ba (no scenario module)$" log &&
		test "$(grep -c "does not offer" agent.err)" = 1 &&
		grep -q "^lockdep-agent: this kernel does not offer: .*/sys/kernel/debug/lockdep/graph" agent.err
	fi
'

test_expect_success 'a second collection replaces the first' '
	start_agent &&
	mkdir -p raw/files/proc && echo stale >raw/files/proc/lockdep &&
	test_expect_code $HOST_RC "$BIN/lockdep-collect" --socket agent.sock --raw-dir raw \
		--timeout 10 --poweroff 2>log &&
	wait "$(cat agent.pid)" &&
	test ! -e raw/files/proc/lockdep -o -e /proc/lockdep &&
	! grep -q "^trigger" raw/MANIFEST
'

test_expect_success 'no guest: fatal after the timeout, naming the socket' '
	test_expect_code 2 "$BIN/lockdep-collect" --socket nowhere.sock --raw-dir raw \
		--timeout 1 2>err &&
	grep -q "unable to connect to .nowhere.sock." err &&
	grep -qx "file missing /proc/version 0 ENOTCONN" raw/MANIFEST
'

test_expect_success 'a hung agent: fatal after the timeout' '
	start_agent &&
	kill -STOP "$(cat agent.pid)" &&
	test_expect_code 2 "$BIN/lockdep-collect" --socket agent.sock --raw-dir raw \
		--timeout 2 2>err &&
	kill -KILL "$(cat agent.pid)" &&
	grep -q "did not answer HELLO" err
'

# an agent a failed test left behind
[ -f "$TRASH/agent.pid" ] && kill -KILL "$(cat "$TRASH/agent.pid")" 2>/dev/null
test_done
