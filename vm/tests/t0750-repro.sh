#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# From a C reproducer to a verified fix (issue 34), on the scenario
# module, with no kernel build of its own:
#  - the inputs that cannot work fail with the reason, before anything is
#    built or booted: a reproducer that does not compile (vm/repro.sh,
#    vm/verify-fix.sh), a patch that does not apply and a fragment option
#    that does not survive olddefconfig (vm/kernel-variant.sh; the
#    lockdep kernel's tree is not written either);
#  - vm/verify-fix.sh with repro/abba.c (two threads driving the
#    module's AB-BA pair, syzbot's way: static, -pthread, never exits)
#    and repro/abba-fix.patch (the pair's lock order fixed in the
#    module's source, a git format-patch mail): one boot without the
#    patch reproduces with syzbot's title, the module alone is rebuilt
#    (as t0700 does) and one boot with it does not; the closing
#    dependency is in no graph with the patch; exit status 0, "fixed";
#    the verdicts are stored with the boots.
# Boots land in $BUILD/vm/t0750-*; the table in $BUILD/verify/t0750/.

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"

BUILD=${BUILD:-$TOP/build}
KTREE=$BUILD/linux
REPRO=$TOP/vm/tests/repro
export BUILD KTREE REPRO

# variants: the variant directories there are now
variants() {
	ls "$BUILD/variant" 2>/dev/null || true
}

t0=$(date +%s)
test_expect_success 'a reproducer that does not compile: the compiler says why, nothing boots' '
	printf "int main(void) { return undeclared_thing; }\n" >broken.c &&
	test_expect_code 1 "$TOP/vm/repro.sh" -n t0750-broken broken.c >out 2>err &&
	grep -q "undeclared_thing" err &&
	grep -q "the reproducer .broken.c. does not compile (gcc -static -pthread -O2" err &&
	test ! -e "$BUILD/vm/t0750-broken" &&
	variants >before &&
	test_expect_code 1 "$TOP/vm/verify-fix.sh" -n t0750-broken -r 1 \
		-p "$REPRO/abba-fix.patch" broken.c >out 2>err &&
	grep -q "does not compile" err &&
	variants >after && test_cmp before after &&
	test ! -e "$BUILD/vm/t0750-broken-without-1"
'

test_expect_success 'a patch that does not apply: git says where, nothing is built' '
	sed "s/mutex_order(&order_b, &order_a);/mutex_order(\&order_y, \&order_x);/" \
		"$REPRO/abba-fix.patch" >stale.patch &&
	! cmp -s stale.patch "$REPRO/abba-fix.patch" &&
	variants >before && : >stamp && sleep 1 &&
	test_expect_code 1 "$TOP/vm/kernel-variant.sh" -p stale.patch >out 2>err &&
	grep -q "patch failed: lib/test_lockdep_scenarios.c:327" err &&
	grep -q "the patch .stale.patch. does not apply to .* (git apply, above): nothing built" err &&
	test ! -s out &&
	variants >after && test_cmp before after &&
	test -z "$(find "$KTREE" -path "$KTREE/.git" -prune -o -newer stamp -type f -print)"
'

test_expect_success 'a fragment option that does not survive olddefconfig: named with its dependencies, nothing built' '
	printf "CONFIG_TUN=y\nCONFIG_USB_STORAGE=y\n" >extra.config &&
	variants >before && : >stamp && sleep 1 &&
	test_expect_code 1 "$TOP/vm/kernel-variant.sh" -c extra.config >out 2>err &&
	grep -qx "config: CONFIG_USB_STORAGE: requested .CONFIG_USB_STORAGE=y., got .n." err &&
	grep -q "drivers/usb/storage/Kconfig:[0-9]*:" err &&
	grep -q "depends on SCSI" err &&
	! grep -q "CONFIG_TUN" err &&
	grep -q "did not survive olddefconfig" err &&
	test ! -s out &&
	variants >after && test_cmp before after &&
	test -z "$(find "$KTREE" -path "$KTREE/.git" -prune -o -newer stamp -type f -print)"
'

test_expect_success 'verify-fix: reproduced without the patch, not with it; fixed (exit 0)' '
	{ "$TOP/vm/verify-fix.sh" -n t0750 -r 1 -w 10 -p "$REPRO/abba-fix.patch" \
		"$REPRO/abba.c" >out 2>err || { cat out err; false; }; } &&
	cat out &&
	grep -qx "  without the patch: reproduced 1/1: possible deadlock in mutex_order" out &&
	grep -qx "  with the patch:    reproduced 0/1" out &&
	grep -qx "  closing dependency order_b -> order_a: in the graph of 0/1 boots with the patch" out &&
	grep -q "^    reports: 0 new, 1 gone" out &&
	test "$(tail -n 1 out)" = "fixed: reproduced 1/1 without the patch, 0/1 with it" &&
	grep -qx "reproduced in [0-9.]* s: possible deadlock in mutex_order" "$BUILD/vm/t0750-without-1/verdict" &&
	grep -qx "not reproduced in 1[0-9].[0-9] s" "$BUILD/vm/t0750-with-1/verdict" &&
	grep -qx "  stored: reproduced on boot 1 (t0750-without-1); fixed by abba-fix.patch on boot 2 (t0750-with-1)" out &&
	id=$(sed -n "s/.* variant \([0-9a-f]*\): .*/\1/p" err | head -n 1) &&
	test -n "$id" &&
	test "$(readlink "$BUILD/variant/$id/bzImage")" = "$KTREE/arch/x86/boot/bzImage" &&
	test -f "$BUILD/vm/variant-$id/build/test_lockdep_scenarios.ko"
'
echo "# t0750: $(( $(date +%s) - t0 )) s"

test_done
