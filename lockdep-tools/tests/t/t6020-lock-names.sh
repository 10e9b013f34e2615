#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='one lock-name splitter for logs and /proc

A class name ends in "#VERSION" and "/SUBCLASS" suffixes. The class
identity follows the /proc rule (lockdep-db(5), store/identity.h): a
suffix is 1 to 9 digits, a longer run of digits is part of the name. The
same class read from a kernel log (report_locks) and from /proc/lockdep
(classes) must split the same way, or one class gets two identities.'
. "$(dirname "$0")/lib.sh"

FIX=$TOP/lockdep-tools/tests/fixtures/6.1
collect() { "$BIN/lockdep-collect" "$@" 2>/dev/null; }
NAMES="a#12345678901 k#4294967297 m#3/2 q/1234567890 r#7/4294967296 s#123456789"

test_expect_success 'setup: the names in a report log and in /proc/lockdep' '
	mkdir proc &&
	cp "$FIX"/lockdep "$FIX"/lockdep_stats "$FIX"/lockdep_chains proc/ &&
	for n in $NAMES; do
		printf "(____ptrval____) FD:    0 BD:    1 +.+.: %s\n\n" "$n" >>proc/lockdep &&
		sed "s|&fs_info->delayed_iput_lock|$n|g" \
			"$CORPUS/007-inconsistent.txt" >>names.log || return 1
	done &&
	test_expect_code 3 collect --db n.db --proc-dir proc --label proc >/dev/null &&
	collect --db n.db --log names.log --label log >/dev/null
'

test_expect_success 'a log and /proc give every name one identity' '
	for n in $NAMES; do
		sqlite3 n.db "SELECT DISTINCT class_name || CASE WHEN subclass
			THEN '\''/'\'' || subclass ELSE '\'''\'' END
			FROM report_locks WHERE name = '\''$n'\''" >log.id &&
		sqlite3 n.db "SELECT identity FROM classes
			WHERE name = '\''$n'\''" >proc.id &&
		test -s log.id && test_cmp proc.id log.id || return 1
	done
'

test_expect_success 'the /proc rule: at most 9 digits make a suffix' '
	sqlite3 n.db "SELECT DISTINCT name, class_name, version, subclass
		FROM report_locks WHERE name IN ('\''k#4294967297'\'',
		'\''s#123456789'\'', '\''m#3/2'\'') ORDER BY name" >got &&
	printf "%s\n" "k#4294967297|k#4294967297|0|0" "m#3/2|m|3|2" \
		"s#123456789|s|123456789|0" >want &&
	test_cmp want got
'

test_done
