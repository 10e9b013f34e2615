#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lockdep-collect without --vmlinux: the kernel's vmlinux found by its
# build id (/sys/kernel/notes) under a debug directory laid out as a
# -dbg package or debuginfod leaves it, checked against that id, and
# named; the reports held for the lookup are stored, in order, either way.
. "$(dirname "$0")/lib.sh"

ID=0123456789abcdef0123456789abcdef01234567	# raw_from_fixtures' notes
REL=6.1.192+					# and its release

# elf ID FILE: a small ELF file whose GNU build id is ID
elf() {
	mkdir -p "$(dirname "$2")" &&
	echo "int f(void) { return 0; }" >f.c &&
	gcc -shared -nostdlib -Wl,--build-id=0x$1 -o "$2" f.c
}

# collect DB ARGS...: the raw directory into DB; stored, with its
# "does not offer" status (3: the fixtures have no graph export)
collect() {
	local db=$1
	shift
	collect_rc 3 --raw-dir "$TRASH/raw" --db "$db" --no-cache "$@"
}

# titles DB: the stored reports' titles, in order
titles() { sqlite3 "$1" "SELECT title FROM reports ORDER BY id"; }

raw_from_fixtures "$TRASH/raw"

test_expect_success 'none given: the reports stored unsymbolised, the lookup said' '
	collect none.db --debug-dir "$TRASH/empty" &&
	grep -x "lockdep-collect: no vmlinux of build id $ID under $TRASH/empty (.build-id/01/${ID#01}.debug, boot/vmlinux-$REL): reports stored unsymbolised; give --vmlinux" err &&
	test "$(titles none.db | wc -l)" -ge 1
'

test_expect_success 'found by build id under .build-id/xx/, and named' '
	elf $ID dbg/.build-id/01/${ID#01}.debug &&
	collect id.db --debug-dir "$PWD/dbg" &&
	grep -x "lockdep-collect: symbolising against $PWD/dbg/.build-id/01/${ID#01}.debug (build id $ID)" err &&
	titles none.db >want && titles id.db >got && test_cmp want got
'

test_expect_success 'boot/vmlinux-RELEASE of another build is not taken' '
	elf 00112233445566778899aabbccddeeff00112233 dbg2/boot/vmlinux-$REL &&
	collect other.db --debug-dir "$PWD/dbg2" &&
	grep "no vmlinux of build id $ID under $PWD/dbg2" err
'

test_expect_success 'boot/vmlinux-RELEASE of this build is taken' '
	elf $ID dbg3/boot/vmlinux-$REL &&
	collect rel.db --debug-dir "$PWD/dbg3" &&
	grep -x "lockdep-collect: symbolising against $PWD/dbg3/boot/vmlinux-$REL (build id $ID)" err
'

test_expect_success 'a FIFO at the build-id path or boot/vmlinux-RELEASE does not block' '
	mkdir -p dbgf/.build-id/01 dbgf/boot &&
	mkfifo dbgf/.build-id/01/${ID#01}.debug dbgf/boot/vmlinux-$REL &&
	test_expect_code 3 timeout 20 "$BIN/lockdep-collect" --raw-dir "$TRASH/raw" \
		--db fifo.db --no-cache --debug-dir "$PWD/dbgf" >id 2>err &&
	grep "no vmlinux of build id $ID under $PWD/dbgf" err
'

test_expect_success '--debug-dir with --vmlinux is a usage error' '
	collect_rc 64 --raw-dir "$TRASH/raw" --db u.db --vmlinux x --debug-dir y &&
	grep "give --vmlinux or --debug-dir, not both" err
'

test_done
