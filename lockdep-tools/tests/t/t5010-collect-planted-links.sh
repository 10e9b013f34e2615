#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-collect --raw-dir never writes through a planted link

Someone who can write into the raw directory plants symbolic links at
the names the collector writes (kmsg.part, files/proc/version.part, the
MANIFEST'\''s temporary file) or links a directory of it elsewhere. The
real agent serves this host'\''s /proc over a UNIX socket; no file outside
the raw directory may change.'
. "$(dirname "$0")/lib.sh"

# collect_agent DIR: one collection into DIR, its exit status in ./rc;
# the agent ends with it (a collection refused early never powers off)
collect_agent() {
	start_agent &&
	{ "$BIN/lockdep-collect" --socket agent.sock --raw-dir "$1" \
		--timeout 10 --poweroff 2>log; echo $? >rc; } &&
	{ kill "$(cat agent.pid)" 2>/dev/null; wait "$(cat agent.pid)"; true; }
}

test_expect_success 'links planted at the names it creates are replaced, not followed' '
	mkdir -p raw/files/proc outside &&
	for n in kmsg.part events.part MANIFEST.tmp MANIFEST kmsg \
		 files/proc/version.part files/proc/version \
		 files/proc/cmdline.part files/proc/cmdline.incomplete; do
		echo "victim $n" >"outside/$(echo "$n" | tr / _)" &&
		ln -s "$TRASH/outside/$(echo "$n" | tr / _)" "raw/$n" || return 1
	done &&
	(cd outside && sha256sum * >../before) &&
	collect_agent raw &&
	(cd outside && sha256sum -c --quiet ../before) &&
	cat log &&
	test "$(cat rc)" != 2 &&
	test -z "$(find raw -type l)" &&
	cmp /proc/version raw/files/proc/version &&
	grep -q "^kmsg " raw/MANIFEST
'

test_expect_success 'a directory linked elsewhere is refused, nothing written there' '
	rm -rf raw outside && mkdir -p raw/files outside/proc &&
	ln -s "$TRASH/outside/proc" raw/files/proc &&
	collect_agent raw &&
	cat log &&
	test "$(cat rc)" = 2 &&
	grep -q "raw/files/proc. is a symbolic link" log &&
	test -z "$(ls outside/proc)"
'

# an agent a failed test left behind
[ -f "$TRASH/agent.pid" ] && kill -KILL "$(cat "$TRASH/agent.pid")" 2>/dev/null
test_done
