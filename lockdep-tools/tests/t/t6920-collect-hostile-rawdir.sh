#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-collect on hostile raw directories and MANIFESTs

A raw directory is untrusted: a symbolic link at any level beneath it,
a malformed number in its MANIFEST, a cut config.gz are refused with an
error naming the input, and nothing is stored.'
. "$(dirname "$0")/lib.sh"

collect() { "$BIN/lockdep-collect" "$@"; }
boots() { sqlite3 "$1" "SELECT count(*) FROM boots"; }

test_expect_success 'setup: a raw directory from the 6.1 fixtures' '
	raw_from_fixtures raw &&
	test_expect_code 3 collect --db ok.db --raw-dir raw >id 2>err &&
	test "$(boots ok.db)" = 1
'

test_expect_success 'a symbolic link to a directory beneath the raw directory is refused' '
	mkdir -p elsewhere/kernel &&
	echo "Linux version 9.9.9-host (planted)" >elsewhere/version &&
	cp raw/files/sys/kernel/notes elsewhere/kernel/notes &&
	for link in files/proc files/sys/kernel files; do
		rm -rf bad elsewhere/proc elsewhere/k2 elsewhere/files &&
		cp -r raw bad &&
		case $link in
		files/proc) rm -r bad/files/proc && cp -r raw/files/proc elsewhere/proc &&
			cp elsewhere/version elsewhere/proc/version &&
			ln -s "$TRASH/elsewhere/proc" bad/files/proc ;;
		files/sys/kernel) rm -r bad/files/sys/kernel && cp -r raw/files/sys/kernel elsewhere/k2 &&
			ln -s "$TRASH/elsewhere/k2" bad/files/sys/kernel ;;
		files) mv bad/files elsewhere/files && ln -s "$TRASH/elsewhere/files" bad/files ;;
		esac &&
		raw_manifest bad "$(grep "^kmsg " raw/MANIFEST)" &&
		rm -f bad.db &&
		test_expect_code 2 collect --db bad.db --raw-dir bad >id 2>err &&
		grep -q "bad/$link. is a symbolic link" err &&
		test ! -s bad.db -o "$(boots bad.db 2>/dev/null || echo 0)" = 0 ||
		{ echo "link $link:"; cat err; return 1; }
	done
'

test_done
