#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='the README'"'"'s one-minute start, as a newcomer runs it

A fresh copy of the tree (no build/), the commands of the README'"'"'s "One
minute" block run as written on a kernel log. apt is faked: every
package looks missing, and what make asks apt-get to install is
recorded, which must be the tools'"'"' packages only (no kernel source, QEMU
or browser). The build itself is real: most of the test'"'"'s minute.'
. "$(dirname "$0")/lib.sh"

TOOLS_PACKAGES="gcc libc6-dev libdw-dev libelf-dev libiberty-dev libsqlite3-dev make xxd zlib1g-dev"

test_expect_success 'setup: a copy of the tree, the README block, a log, apt faked' '
	mkdir tree fake &&
	tar -C "$TOP" --exclude=./build --exclude=./.git -cf - . | tar -C tree -xf - &&
	awk "/^## One minute/ { f = 1 } f && /^\`\`\`sh/ { b = 1; next }
	     b && /^\`\`\`/ { exit } b" tree/README.md >start.sh &&
	test "$(wc -l <start.sh)" -ge 2 &&
	grep -q "^make tools$" start.sh &&
	cp "$CORPUS/002-circular.txt" tree/dmesg.txt &&
	printf "#!/bin/sh\nexit 1\n" >fake/dpkg-query &&
	printf "#!/bin/sh\necho \"\$*\" >>\"%s/apt.log\"\n" "$TRASH" >fake/apt-get &&
	printf "#!/bin/sh\nexec \"\$@\"\n" >fake/sudo &&
	chmod +x fake/*
'

test_expect_success 'the one-minute start works on a fresh copy' '
	(cd tree && PATH=$TRASH/fake:$PATH bash -e ../start.sh) >out 2>err &&
	grep -q "^report 1: circular-dependency" out &&
	grep -q "^advice: real deadlock" out
'

test_expect_success 'make tools asked apt for the tools'"'"' packages only' '
	grep "^install " apt.log | tr " " "\n" | grep -v "^-\|^install$" |
		sort >asked &&
	printf "%s\n" $TOOLS_PACKAGES >want &&
	test_cmp want asked
'

test_done
