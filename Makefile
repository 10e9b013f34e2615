# SPDX-License-Identifier: GPL-2.0
#
# lockdep toolkit: patched 6.1 lockdep kernel in QEMU + host tools.
#
#   make demo    build everything, boot the guest, collect its lockdep state
#   make check   every test: unit (plain and ASan+UBSan), tools, QEMU boots
#   make bench   benchmarks against named peers (bench/*.sh; not tests)
#   make vm-boot RUN=repro.c [KCONFIG=extra.config] [PATCH=fix.patch]
#                a C reproducer in the guest, on a kernel of yours
#   make verify-fix RUN=repro.c PATCH=fix.patch [RUNS=N]
#                does the patch fix what the reproducer shows (doc/repro.md)
#   make check-repro
#                three real lockdep bugs: reverted they reproduce, fixed not
#
# Everything is built under build/ (git-ignored). See README.md.

BUILD := $(CURDIR)/build
export BUILD

# KERNEL_SOURCE=linux-source-6.12 makes kernel, initramfs, vm-boot and
# export-patches work on the series kept for Debian's 6.12
# (kernel-patches/6.12/, built in build/linux-6.12; vm/lib.sh); the
# default is the 6.1 series in build/linux. KTREE is the chosen tree.
KERNEL_SOURCE ?= linux-source-6.1
KTREE := $(BUILD)/linux$(if $(filter-out linux-source-6.1,$(KERNEL_SOURCE)),-$(KERNEL_SOURCE:linux-source-%=%))

# Debian packages by need. 'make deps-tools' installs what the tools
# build with (make tools: a compiler and the -dev packages of SQLite,
# elfutils, zlib and libiberty); 'make deps' those and everything else
# the kernel, the guest, the tests and the explorer's check need (make
# check, make demo). Each installs only the missing ones and does
# nothing when all are there.
DEB_TOOLS := gcc make libc6-dev libsqlite3-dev libdw-dev libelf-dev zlib1g-dev \
	libiberty-dev xxd
DEB_PACKAGES := $(DEB_TOOLS) binutils git xz-utils flex bison bc libssl-dev \
	kmod ccache linux-source-6.1 linux-source-6.12 qemu-system-x86 \
	busybox-static cpio sqlite3 libcmocka-dev graphviz groff \
	libxml2-utils clang python3-ply python3-git time llvm \
	e2fsprogs stress-ng rsync btrfs-progs chromium shellcheck

APPEND ?=

all: tools

deps: $(BUILD)/.deps-ok
deps-tools: $(BUILD)/.deps-tools-ok

$(BUILD)/.deps-ok: PACKAGES = $(DEB_PACKAGES)
$(BUILD)/.deps-tools-ok: PACKAGES = $(DEB_TOOLS)
$(BUILD)/.deps-ok $(BUILD)/.deps-tools-ok: Makefile
	@missing=$$(for p in $(PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
			grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "  deps       installing:" $$missing; \
		sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo apt-get update -q >/dev/null && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -q \
			--no-install-recommends $$missing >/dev/null || exit 1; \
	fi
	@mkdir -p $(BUILD) && touch $@

kernel: deps
	@vm/kernel.sh all

tools: deps-tools
	@$(MAKE) -s -C lockdep-tools O=$(BUILD) -j$$(nproc)

initramfs: kernel tools
	@vm/initramfs.sh

# The unpatched 6.1 tree with the same .config: the peer of
# bench/lock-hotpath.sh (KERNEL_VARIANT in vm/lib.sh).
kernel-plain: kernel
	@KERNEL_VARIANT=plain vm/kernel.sh all

initramfs-plain: kernel-plain tools
	@KERNEL_VARIANT=plain vm/initramfs.sh

# vm-boot boots the lockdep kernel, or one of yours, never writing into
# it: KERNEL_IMAGE=bzImage [VMLINUX=file] [MODULES=dir] one built already
# (MODULES: its INSTALL_MOD_PATH), KERNEL_TREE=DIR a tree built out of
# tree first into build/tree/NAME (vm/kernel-tree.sh; with PATCH= the
# patches applied to a copy of its source, never to DIR, and built
# from a copy of that build in build/tree/NAME-ID). Of its modules the
# guest loads at boot, with what they need (modules.dep), the virtio
# ones, ext4, loop, the filesystems RUN mounts and MODULES_LOAD=a,b;
# the others are packed for modprobe when they are at most MODULES_MAX
# MiB (64), else left out, said (vm/modules-pick.sh). RUN=script
# [RUN_FILES=dir] [RUN_TIMEOUT=s] runs your workload in the guest; DB=file
# stores the boot there (symbolised against the kernel's vmlinux: for
# KERNEL_IMAGE, VMLINUX= or the one of its build id under DEBUG_DIR=,
# default /usr/lib/debug, lockdep-collect --debug-dir);
# DISK="a.img b.img" gives the guest your disk images (after a workload's
# scratch disk: /dev/vdb...; its writes discarded); GUEST_MEM=MiB its
# memory (512: the initramfs may take half of it); SMP=N CPUs (default
# 2); SAMPLE_MS=ms the agent's lockdep_stats interval (2000; 0 off);
# NAME names build/vm/NAME (default boot).
# RUN=repro.c: a C reproducer, compiled static on the host and run in the
# guest until lockdep reports or RUN_TIMEOUT (default 300 s); the last line
# is the verdict, "reproduced in N s: TITLE" or "not reproduced in N s"
# (vm/repro.sh; stored in DB, default build/vm/NAME/repro.db, with the
# reproducer, fragment and patches: lockdep-report --db shows the history).
# KCONFIG=extra.config merged over kernel-patches/lockdep.config and
# PATCH="fix.patch ..." applied: the lockdep kernel built beside the
# default one, in build/variant/ID, only what they touch recompiled
# (vm/kernel-variant.sh; not with KERNEL_IMAGE; with KERNEL_TREE, PATCH=
# alone: the tree's own .config is its config, not ours).
PATCH_ARGS = $(foreach p,$(PATCH),-p $(abspath $(p)))
VARIANT_ARGS = $(if $(KCONFIG),-c $(abspath $(KCONFIG))) $(PATCH_ARGS)
ifneq ($(strip $(VARIANT_ARGS)),)
ifneq ($(KERNEL_IMAGE),)
$(error KCONFIG= and PATCH= build a kernel's tree: not with KERNEL_IMAGE=)
endif
ifneq ($(and $(KERNEL_TREE),$(KCONFIG)),)
$(error KCONFIG= is merged over our config, and KERNEL_TREE='s kernel has the tree's own .config: not with KERNEL_TREE=)
endif
endif
ifneq ($(KERNEL_IMAGE),)
VM_ENV = VM_KERNEL=$(abspath $(KERNEL_IMAGE)) VM_INITRD=$(BUILD)/image/initramfs.cpio.gz \
	VM_MODULES=$(if $(MODULES),$(abspath $(MODULES)),$(BUILD)/image/no-modules)
VM_PREP = $(VM_ENV) $(MODULES_ENV) vm/initramfs.sh
VM_DEPS = deps tools
VM_SYMS = $(if $(VMLINUX),--vmlinux $(abspath $(VMLINUX)),$(if $(DEBUG_DIR),--debug-dir $(abspath $(DEBUG_DIR))))
else ifneq ($(KERNEL_TREE),)
# PATCH=: the patched build, build/tree/NAME-ID (ID as kernel-tree.sh's)
TREE_OUT = $(BUILD)/tree/$(notdir $(abspath $(KERNEL_TREE)))$(if $(PATCH),-$(shell cat $(abspath $(PATCH)) | sha256sum | cut -c1-16))
VM_ENV = VM_KERNEL=$(TREE_OUT)/obj/arch/x86/boot/bzImage \
	VM_MODULES=$(TREE_OUT)/modules VM_INITRD=$(TREE_OUT)/initramfs.cpio.gz
VM_PREP = $(MODULES_ENV) vm/kernel-tree.sh $(PATCH_ARGS) $(KERNEL_TREE)
# the patches were applied by kernel-tree.sh: repro.sh only stores them
VARIANT_ARGS = $(foreach p,$(PATCH),-P $(abspath $(p)))
VM_DEPS = deps tools
VM_SYMS = --vmlinux $(TREE_OUT)/obj/vmlinux --modules $(TREE_OUT)/obj
else ifneq ($(strip $(VARIANT_ARGS)),)
VM_PREP = :
VM_DEPS = initramfs
VM_VARIANT = v=$$(vm/kernel-variant.sh $(VARIANT_ARGS)) && \
	export VM_KERNEL=$$v/bzImage VM_INITRD=$$v/initramfs.cpio.gz VM_MODULES=$$v/modules &&
VM_SYMS = --vmlinux $$v/vmlinux --modules $$(readlink -f $$v/kodir)
else
VM_PREP = :
VM_DEPS = initramfs
VM_SYMS = --vmlinux $(KTREE)/vmlinux --modules $(KTREE)
endif
NAME ?= boot
MODULES_ENV = MODULES_LOAD=$(MODULES_LOAD) $(if $(MODULES_MAX),MODULES_MAX=$(MODULES_MAX)) \
	$(if $(RUN),RUN=$(abspath $(RUN)))

vm-boot: $(VM_DEPS)
	@$(VM_PREP)
ifneq ($(filter %.c,$(RUN)),)
	@$(VM_ENV) $(if $(SMP),SMP=$(SMP)) $(if $(SAMPLE_MS),SAMPLE_MS=$(SAMPLE_MS)) vm/repro.sh -n $(NAME) -a "$(APPEND)" \
		$(foreach d,$(DISK),-D $(abspath $(d))) $(if $(RUN_TIMEOUT),-w $(RUN_TIMEOUT)) \
		$(if $(DB),-d $(abspath $(DB))) $(VARIANT_ARGS) $(RUN) \
		-- $(if $(KERNEL_IMAGE)$(KERNEL_TREE),$(VM_SYMS))
else
	@$(VM_VARIANT) $(VM_ENV) $(if $(SMP),SMP=$(SMP)) $(if $(SAMPLE_MS),SAMPLE_MS=$(SAMPLE_MS)) vm/boot.sh -n $(NAME) -a "$(APPEND)" \
		$(foreach d,$(DISK),-D $(abspath $(d))) \
		$(if $(RUN),-r $(RUN) $(if $(RUN_FILES),-f $(RUN_FILES)) \
			$(if $(RUN_TIMEOUT),-w $(RUN_TIMEOUT))) \
		-- $(if $(DB),--db $(abspath $(DB)) --label $(NAME) $(VM_SYMS))
endif

# make verify-fix RUN=repro.c PATCH="fix.patch ..." [RUNS=3] [KCONFIG=extra.config]
# [RUN_TIMEOUT=300] [NAME=verify]: RUNS boots without the patches and RUNS
# with them, the table (reproduced k/RUNS without, with its title; with
# the patches; the dependency that closed the cycle; lockdep-diff) and the
# verdict: exit status 0 fixed, 2 not fixed, 3 not reproduced, 1 an
# error (vm/verify-fix.sh). Boots in build/verify/NAME/verify.db.
# BASE_PATCH="revert.patch ...": applied to both sides first (a fixed bug
# brought back, vm/repro/*/revert.patch).
verify-fix: initramfs
	@test -n "$(RUN)" -a -n "$(PATCH)" || { echo "verify-fix: RUN=repro.c and PATCH=fix.patch are needed" >&2; exit 64; }
	@vm/verify-fix.sh -n $(or $(NAME:boot=verify),verify) $(if $(RUNS),-r $(RUNS)) \
		$(if $(RUN_TIMEOUT),-w $(RUN_TIMEOUT)) $(if $(KCONFIG),-c $(abspath $(KCONFIG))) \
		$(foreach p,$(BASE_PATCH),-b $(abspath $(p))) \
		$(foreach p,$(PATCH),-p $(abspath $(p))) $(RUN)

# make check-repro [RUNS=1]: the real, public lockdep bugs of vm/repro/
# (doc/repro.md), each through verify-fix with its revert as the base
# and the upstream fix as the patch: reproduced under the title in its
# directory with the revert, not with the fix (vm/check-repro.sh). It
# builds two kernel variants a bug, so it is not part of make check.
check-repro: initramfs
	@vm/check-repro.sh

demo: initramfs
	@vm/demo.sh

# Every tool in build/bin and every man page in lockdep-tools/man, under
# $(DESTDIR)$(PREFIX)/bin and .../share/man/manN.
PREFIX ?= /usr/local
install: tools
	@set -e; d=$(DESTDIR)$(PREFIX); \
	install -d "$$d/bin"; \
	install -m 755 $(BUILD)/bin/* "$$d/bin/"; \
	for m in lockdep-tools/man/*.[1-9]; do \
		install -d "$$d/share/man/man$${m##*.}"; \
		install -m 644 "$$m" "$$d/share/man/man$${m##*.}/"; \
	done; \
	echo "  install    $$d: $$(ls $(BUILD)/bin | wc -l) tools, $$(ls lockdep-tools/man/*.[1-9] | wc -l) man pages"

# Rewrite kernel-patches/ from the commits on top of "pristine" in
# build/linux (edit patches as commits there, then run this); with
# KERNEL_SOURCE=linux-source-6.12, kernel-patches/6.12/ from build/linux-6.12.
export-patches:
	@vm/kernel.sh export

# The kernel first: unit and tool tests use its vmlinux as real data.
check: kernel check-shell check-patches check-unit check-tools check-fuzz check-boot check-bench

# The real-data unit tests must find this build's vmlinux and scenario
# module: named here, a missing one fails them instead of skipping them.
check-unit: export LDT_VMLINUX = $(BUILD)/linux/vmlinux
check-unit: export LDT_SCENARIO_KO = $(BUILD)/linux/lib/test_lockdep_scenarios.ko
check-unit: kernel
	@$(MAKE) -s -C lockdep-tools O=$(BUILD) -j$$(nproc) check-unit
	@$(MAKE) -s -C lockdep-tools O=$(BUILD)/san SANITIZE=1 -j$$(nproc) check-unit

# t7000 reads the kernel's vmlinux (a skip without it fails run-tap.sh);
# kernel brings every package (deps).
check-tools: tools kernel
	@tests/run-tap.sh lockdep-tools/tests/t/t*.sh

# shellcheck on every shell script of vm/, at every severity: any finding
# fails. What is disabled, and why, is in vm/.shellcheckrc and
# vm/tests/.shellcheckrc (or beside the line, for one line).
check-shell: deps
	@shellcheck -x vm/*.sh vm/init vm/workloads/*.sh vm/tests/*.sh

# scripts/checkpatch.pl --strict on every patch of the series, and no
# W=1 warning on the lines it adds or changes in the C files it touches
# (vm/check-warnings.sh); checkpatch also on the 6.12
# series, with 6.12's own checkpatch.pl (its W=1 check is in check-612,
# which builds that kernel).
check-patches: kernel kernel-612-tree
	@vm/checkpatch.sh
	@vm/check-warnings.sh
	@KERNEL_SOURCE=linux-source-6.12 vm/checkpatch.sh

# Every step of the series (6.1, or KERNEL_SOURCE=linux-source-6.12)
# compiled at W=1 with PROVE_LOCKING on and off, in a scratch worktree
# (vm/check-steps.sh). Not in check: 28 minutes of compiling on a loaded
# machine (2026-12-06).
check-steps: kernel
	@vm/check-steps.sh

# The 6.12 tree unpacked, for its checkpatch.pl (no build).
kernel-612-tree: deps
	@KERNEL_SOURCE=linux-source-6.12 vm/kernel.sh tree

# The 6.12 series' kernel built (kernel-patches/6.12/, build/linux-6.12)
# and the boot tests that do not need the 6.1-only pieces (the plain
# kernel, the bench, t0700's advice) run on it. Not in check, nor in CI:
# a cold 6.12 build takes longer than the 6.1 one, and a third cold
# kernel beside check's two does not fit CI's 90 minutes on 2 cores
# (doc/measurements.md). NICE=19 leaves the CPUs to others.
check-612: tools check-612-compile
	@$(MAKE) -s KERNEL_SOURCE=linux-source-6.12 initramfs
	@KERNEL_SOURCE=linux-source-6.12 vm/checkpatch.sh
	@KERNEL_SOURCE=linux-source-6.12 tests/run-tap.sh $(CHECK_612_TESTS)

# What CI runs of 6.12 beside make check: the series applied to the 6.12
# tree, configured, and the C files it touches compiled at W=1 (no
# warning on its lines), without building the kernel.
check-612-compile: kernel-612-tree
	@KERNEL_SOURCE=linux-source-6.12 vm/kernel.sh patches
	@KERNEL_SOURCE=linux-source-6.12 vm/kernel.sh config
	@KERNEL_SOURCE=linux-source-6.12 vm/check-warnings.sh

# The series built with KASAN (vm/kasan.config, build/linux-kasan) and
# booted: t0720 (the boot, a module reload) and t0710's reports under
# load. Not in check, nor in CI: a third kernel build (19 min cold on 2
# cores, doc/measurements.md). make check's boot tests run t0720 when the kasan
# kernel is built from the series as it is.
kernel-kasan: kernel
	@KERNEL_VARIANT=kasan vm/kernel.sh all

initramfs-kasan: kernel-kasan tools
	@KERNEL_VARIANT=kasan vm/initramfs.sh

check-kasan: initramfs-kasan
	@KERNEL_VARIANT=kasan tests/run-tap.sh $(CHECK_KASAN_TESTS)

CHECK_KASAN_TESTS := vm/tests/t0720-kasan.sh vm/tests/t0710-report-console.sh

# When lockdep runs out (issue 33): the series with its tables made
# small (KERNEL_VARIANT=capacity: build/linux-capacity, a copy of the
# built lockdep tree, so that only what the BITS options touch is
# rebuilt) running vm/workloads/all.sh, once per fragment of
# CAPACITY_CONFIGS, each a different table: t0350 (the report, the
# agent's snapshot linked to it, the series); then t0355, the advice
# proven: advised from the lockdep kernel's whole boot, the capacity
# tree rebuilt with it, booted with the headroom said; then t0356, the
# advice projected from each of t0350's boots (they ran out) proven the
# same way. Not in check, nor in CI: a kernel of its own
# (doc/measurements.md).
CAPACITY_CONFIGS := vm/capacity.config vm/capacity-chains.config

kernel-capacity: kernel
	@KERNEL_VARIANT=capacity vm/kernel.sh all

initramfs-capacity: kernel-capacity tools
	@KERNEL_VARIANT=capacity vm/initramfs.sh

check-capacity: initramfs initramfs-capacity
	@set -e; for c in $(CAPACITY_CONFIGS); do \
		KERNEL_VARIANT=capacity CAPACITY_CONFIG=$(CURDIR)/$$c vm/kernel.sh all; \
		KERNEL_VARIANT=capacity CAPACITY_CONFIG=$(CURDIR)/$$c \
			tests/run-tap.sh vm/tests/t0350-capacity.sh; done
	@KERNEL_VARIANT=capacity tests/run-tap.sh vm/tests/t0355-capacity-advice.sh \
		vm/tests/t0356-capacity-projected.sh

# Debian's own kernel (the newest linux-image-6.1.0-N-amd64 apt offers,
# fetched into build/distro/, never installed) with its modules and a
# btrfs disk made on the host, through make vm-boot: t1000, which
# check-boot runs too (skipped, said why, when the package cannot be
# fetched).
check-distro: deps tools
	@tests/run-tap.sh vm/tests/t1000-distro-kernel.sh

# make vm-boot KERNEL_TREE= on Debian's linux-source-6.1 tarball unpacked
# and configured in place (build/src/, made by the test): t1100, a kernel
# build with lockdep's config at -j2 (JOBS), so not in check.
check-tree: deps tools
	@TREE_TEST=$${TREE_TEST:-$(BUILD)/src/linux-source-6.1} \
		tests/run-tap.sh vm/tests/t1100-kernel-tree.sh

# tests/mutate.sh: the tools broken one way at a time, as a user would
# notice (a documented JSON key renamed, a report mistyped, a promised
# exit status, a --fail-on combination, a migration step, the symboliser's
# inline frames, a report line dropped), each in a scratch copy of the
# tree: each must fail the tool tests it names. Not in check: it builds
# the tools once more and runs a test file or two per mutation.
check-mutate: tools kernel
	@tests/mutate.sh

# Every libFuzzer harness for 100000 executions or 40 seconds, whichever
# comes first (FUZZ_EXECS, FUZZ_TIME), seeded with its small set in
# lockdep-tools/fuzz/seeds/; one that ends below its 100000 with a core
# to itself fails, a budget of its speed (lockdep-tools/Makefile, the
# fuzz rules; lockdep-tools/fuzz/README). fuzz-long: each for FUZZ_LONG_TIME seconds
# (default 600) on the whole corpus (the fixtures and the shared report
# corpus as well): not in check.
check-fuzz: deps
	@$(MAKE) -s -C lockdep-tools O=$(BUILD) -j$$(nproc) fuzz-check

fuzz-long: deps
	@$(MAKE) -s -C lockdep-tools O=$(BUILD) -j$$(nproc) fuzz-long

CHECK_612_TESTS := vm/tests/t0100-boot.sh vm/tests/t0200-options.sh \
	vm/tests/t0300-scenarios.sh vm/tests/t0310-report-all-dependencies.sh \
	vm/tests/t0320-held-lock-reports.sh vm/tests/t0330-trace-table-full.sh \
	vm/tests/t0340-report-all-oracle.sh vm/tests/t0400-graph-export.sh \
	vm/tests/t0710-report-console.sh vm/tests/t0900-dependency-events.sh

# t0800 boots the plain kernel too, through make vm-boot KERNEL_IMAGE=.
check-boot: initramfs initramfs-plain
	@tests/run-tap.sh vm/tests/t*.sh

# Every benchmark at a tiny size (BENCH_SMALL=1, seconds each but the
# guest harness's two boots): each still runs its peer and exits non-zero
# if the answers differ or anything failed to run, so a schema or CLI
# change that breaks a benchmark fails here. A new bench/*.sh is picked
# up by the loop.
check-bench: tools initramfs initramfs-plain
	@set -e; for b in bench/*.sh; do \
		echo "  bench      $$b (BENCH_SMALL=1)"; BENCH_SMALL=1 $$b; done

# Speed and memory as ratios against peers, at full size.
bench: tools initramfs initramfs-plain
	@set -e; for b in bench/*.sh; do $$b; done

clean:
	@$(MAKE) -s -C lockdep-tools O=$(BUILD) clean
	rm -rf $(BUILD)/vm $(BUILD)/repro $(BUILD)/verify $(BUILD)/san $(BUILD)/initramfs $(BUILD)/initramfs.cpio.gz \
		$(BUILD)/initramfs-plain $(BUILD)/initramfs-plain.cpio.gz \
		$(BUILD)/initramfs-6.12 $(BUILD)/initramfs-6.12.cpio.gz \
		$(BUILD)/initramfs-kasan $(BUILD)/initramfs-kasan.cpio.gz

distclean:
	rm -rf $(BUILD)

.PHONY: all deps deps-tools kernel kernel-plain tools initramfs initramfs-plain vm-boot verify-fix check-repro demo install \
	export-patches check bench check-shell check-patches check-unit check-tools check-fuzz fuzz-long check-boot \
	check-bench check-mutate check-steps check-612 check-612-compile kernel-612-tree kernel-kasan initramfs-kasan \
	check-kasan check-distro check-tree kernel-capacity initramfs-capacity check-capacity \
	clean distclean
