#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The vm/ scripts' checks that need no guest: a failed logged step
# (lib.sh) names its real exit status, or the signal that ended it
# (Ctrl-C); initramfs.sh refuses an image the guest could not unpack.

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"

# logged CMD...: run_logged of CMD in a vm/ script's shell, its stderr
logged() {
	BUILD=$TRASH/build bash -c '. "$1/vm/lib.sh"; shift; run_logged step "$@"' \
		sh "$TOP" "$@" 2>err >/dev/null
}

test_expect_success 'a step that succeeds returns 0' '
	logged true && test_cmp /dev/null err
'

test_expect_success 'a failed step says its exit status, and its log' '
	test_expect_code 1 logged sh -c "echo last words; exit 3" &&
	grep -x "vm: error: step failed (exit 3); last lines of .*/logs/step.log:" err &&
	grep -x "last words" err
'

# A shell starts its background jobs with SIGINT ignored (make check &,
# nohup, setsid, a CI runner), and an ignored signal stays ignored in a
# non-interactive child: env gives the step back SIGINT's default, as a
# terminal's Ctrl-C would find it, so the test checks the same in the
# foreground and in the background.
test_expect_success 'a step ended by a signal says which' '
	test_expect_code 1 logged env --default-signal=INT sh -c "kill -INT \$\$" &&
	grep "step failed (killed by SIGINT)" err
'

test_expect_success 'an initramfs the guest cannot unpack is refused, said' '
	mkdir -p mods/lib/modules/9.9.9/kernel &&
	truncate -s 20M mods/lib/modules/9.9.9/kernel/big.ko &&
	test_expect_code 1 env VM_KERNEL=/dev/null VM_MODULES=$PWD/mods GUEST_MEM=32 \
		VM_INITRD=$PWD/big.cpio.gz \
		BUSYBOX=/bin/busybox "$TOP/vm/initramfs.sh" >out 2>&1 &&
	cat out &&
	grep "big.cpio.gz needs 2[0-9] MiB of the guest.s 32 to unpack: over 16" out
'

test_done
