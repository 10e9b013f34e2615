#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make vm-boot KERNEL_TREE= on a tree as a developer has one: Debian's
# linux-source-6.1 tarball unpacked (its .gitignore holds "/*") and
# configured in place (make tinyconfig kvm_guest.config), in
# $TREE_TEST (default build/src/linux-source-6.1, unpacked and
# configured here when missing). The tree is built out of tree from a
# copy of its source files and boots; it is never written into; a second
# run with nothing changed takes seconds (one find over 84000 files: 0.7 s
# of CPU; under 30 s asked, for a loaded machine); a build stopped by
# Ctrl-C says how it ended and the next run finishes it. PATCH=: a patch
# that does not apply fails with git's reason before anything is built;
# a small real one (a line printed in start_kernel) is built from a copy
# of the unpatched build, recompiling only what it touches, and boots;
# the tree is never written into, and going back costs nothing. A kernel build
# (lockdep's config, -j2): make check-tree runs this, make check skips it.

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"

[ -n "${TREE_TEST:-}" ] ||
	test_skip_all 'a developer'"'"'s tree boots' \
		'its own target: make check-tree (it builds a kernel)'
TARBALL=/usr/src/linux-source-6.1.tar.xz
tree=$TREE_TEST
out=${BUILD:-$TOP/build}/tree/$(basename "$tree")
export JOBS=${JOBS:-2} NICE=${NICE:-10}

if [ ! -f "$tree/.config" ]; then
	[ -f "$TARBALL" ] ||
		test_skip_all 'a developer'"'"'s tree boots' "no $TARBALL: apt-get install linux-source-6.1"
	rm -rf "$tree"
	mkdir -p "$(dirname "$tree")"
	tar -xf "$TARBALL" -C "$(dirname "$tree")" &&
	make -s -C "$tree" ARCH=x86_64 tinyconfig kvm_guest.config >/dev/null ||
		{ echo "cannot unpack and configure $TARBALL in $tree"; exit 1; }
fi

# snap: the tree's names, sizes and modification times
snap() { (cd "$tree" && find . -printf '%p %s %T@\n' | LC_ALL=C sort); }
snap >"$TRASH/before"

test_expect_success 'the tree ignores every file to git: .gitignore holds "/*"' '
	grep -qx "/\*" "$tree/.gitignore"
'

test_expect_success 'configured in place, built out of tree, it boots' '
	start=$(date +%s) &&
	{ make -s -C "$TOP" --no-print-directory vm-boot KERNEL_TREE="$tree" \
		NAME=t1100 >"$TRASH/boot.out" 2>&1 || { cat "$TRASH/boot.out"; false; }; } &&
	echo "first make vm-boot: $(( $(date +%s) - start )) s" >&2 &&
	cat "$TRASH/boot.out" &&
	grep -q "guest exited (qemu 0," "$TRASH/boot.out" &&
	grep -q "agent: lockdep-agent 1 Linux 6.1" "$TOP/build/vm/t1100/collect.log"
'

test_expect_success 'its source files were copied, none of its build products' '
	test -f "$out/src/kernel/locking/lockdep.c" &&
	test ! -e "$out/src/.config" && test ! -e "$out/src/include/config"
'

test_expect_success 'the tree was not written into' '
	snap >after && test_cmp "$TRASH/before" after
'

test_expect_success 'nothing changed: the second run checks it in seconds' '
	start=$(date +%s) &&
	"$TOP/vm/kernel-tree.sh" "$tree" >again 2>&1 &&
	took=$(( $(date +%s) - start )) &&
	cat again && echo "took $took s" &&
	grep -q "build: unchanged since the last one" again &&
	! grep -q "tree-copy\|tree-build" again &&
	test $took -lt 30
'

# the patches: one whose context is in no file of the tree, and a line
# printed after the banner in start_kernel
printf '%s\n' '--- a/init/main.c' '+++ b/init/main.c' '@@ -1,3 +1,4 @@' \
	' no such line' '+/* t1100 */' ' in init/main.c' ' at all' >"$TRASH/bad.patch"
awk '{ print } /^\tpr_notice\("%s", linux_banner\);$/ {
	print "\tpr_notice(\"t1100: booted with the patch\\n\");" }' "$tree/init/main.c" |
	diff -u --label a/init/main.c --label b/init/main.c "$tree/init/main.c" - >"$TRASH/good.patch"
patched=$out-$(sha256sum <"$TRASH/good.patch" | cut -c1-16)

test_expect_success 'PATCH= that does not apply: git'"'"'s reason, nothing built, the tree unchanged' '
	ls "$(dirname "$out")" >dirs-before &&
	test_expect_code 1 "$TOP/vm/kernel-tree.sh" -p "$TRASH/bad.patch" "$tree" >bad 2>&1 &&
	cat bad &&
	grep -q "error: patch failed: init/main.c:1" bad &&
	grep -q "the patch .*bad.patch. does not apply to $tree" bad &&
	! grep -q "build:\|tree-" bad &&
	ls "$(dirname "$out")" >dirs-after && test_cmp dirs-before dirs-after &&
	snap >after && test_cmp "$TRASH/before" after
'

test_expect_success 'PATCH= a line in start_kernel: built incrementally, it boots with it' '
	grep -q "t1100: booted with the patch" "$TRASH/good.patch" &&
	start=$(date +%s) &&
	{ make -s -C "$TOP" --no-print-directory vm-boot KERNEL_TREE="$tree" \
		PATCH="$TRASH/good.patch" NAME=t1100p >pboot.out 2>&1 || { cat pboot.out; false; }; } &&
	echo "make vm-boot PATCH=: $(( $(date +%s) - start )) s" >&2 &&
	cat pboot.out &&
	grep -q "tree-patch-build: done" pboot.out &&
	# compiled: the objects newer than the patched file (but those of
	# the link, made anew each time)
	find "$patched/obj" -name "*.o" ! -name ".tmp_vmlinux*" ! -name vmlinux.o \
		! -path "*/boot/*" ! -name "version-timestamp.o" \
		-newer "$patched/src/init/main.c" >compiled &&
	cat compiled &&
	test "$(cat compiled)" = "$patched/obj/init/main.o" &&
	grep -q "t1100: booted with the patch" "$TOP/build/vm/t1100p/console.log" &&
	grep -q "guest exited (qemu 0," pboot.out
'

test_expect_success 'PATCH=: the tree and the unpatched copy unchanged, the patched one patched' '
	snap >after && test_cmp "$TRASH/before" after &&
	cmp "$tree/init/main.c" "$out/src/init/main.c" &&
	! grep -q t1100 "$out/src/init/main.c" &&
	grep -q "t1100: booted with the patch" "$patched/src/init/main.c" &&
	test "$(stat -c %h "$patched/src/init/main.c")" = 1
'

test_expect_success 'PATCH=: going back and forth builds nothing' '
	"$TOP/vm/kernel-tree.sh" "$tree" >back 2>&1 &&
	cat back && grep -q "build: unchanged since the last one" back &&
	"$TOP/vm/kernel-tree.sh" -p "$TRASH/good.patch" "$tree" >forth 2>&1 &&
	cat forth && grep -q "patched build: unchanged since the last one" forth &&
	! grep -q "tree-copy\|tree-build\|tree-patch" back forth
'

test_expect_success 'PATCH= with RUN=repro.c: the run stored with the patch, not applied again' '
	test_expect_code 0,2 make -s -C "$TOP" --no-print-directory vm-boot \
		KERNEL_TREE="$tree" PATCH="$TRASH/good.patch" NAME=t1100r \
		RUN="$TOP/vm/tests/repro/abba.c" RUN_TIMEOUT=5 DB="$TRASH/r.db" >rboot.out 2>&1 &&
	cat rboot.out &&
	# make says 2 for any failed recipe: the verdict line tells "not
	# reproduced" (the tree has no scenario module) from a failure
	grep -q "reproduced in [0-9.]* s" rboot.out &&
	grep -q "patched build: unchanged since the last one" rboot.out &&
	"$BIN/lockdep-report" --db "$TRASH/r.db" --boot t1100r >rrep &&
	cat rrep &&
	grep -q "patched with good.patch" rrep
'

test_expect_success 'Ctrl-C in the build: ends it, no false "exit 0", the next run finishes it' '
	touch "$tree/init/version.c" &&
	# alone after the &: $! is then the pid (and session) of setsid
	# itself; a shell starts it with SIGINT ignored, which a terminal
	# would not, so env gives it back its default
	{ setsid env --default-signal=INT "$TOP/vm/kernel-tree.sh" "$tree" >int 2>&1 & } &&
	pid=$! &&
	for _ in $(seq 600); do
		grep -q "tree-build: start" int && break
		sleep 0.5
	done &&
	sleep 3 && { kill -INT -- -$pid || { cat int; false; }; } &&
	! wait $pid &&
	cat int && ! grep -q "(exit 0)" int &&
	"$TOP/vm/kernel-tree.sh" "$tree" >resumed 2>&1 &&
	cat resumed &&
	grep -q "tree-build: done" resumed
'

test_done
