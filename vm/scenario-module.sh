#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A guest with another build of the scenario module: build SOURCE (a
# test_lockdep_scenarios.c, for example one a patch was applied to) out
# of tree against the lockdep kernel, put it in place of the series'
# module in a copy of the installed modules, and pack an initramfs of
# that copy.
#
#   vm/scenario-module.sh -n NAME SOURCE
#
# Results in build/vm/NAME/: build/ (the module's out-of-tree build),
# modules/ and initramfs.cpio.gz. Boot it with
#   VM_INITRD=build/vm/NAME/initramfs.cpio.gz vm/boot.sh ...
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=module

name=""
while getopts n: opt; do
	case $opt in
	n) name=$OPTARG ;;
	*) echo "usage: $0 -n NAME SOURCE" >&2; exit 64 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 1 ] && [ -n "$name" ] || { echo "usage: $0 -n NAME SOURCE" >&2; exit 64; }
check_name NAME "$name"
[ -r "$1" ] || die "cannot read '$1'"
[ -d "$MODULES/lib/modules" ] || die "no installed modules in $MODULES: run 'make kernel'"

out=$BUILD/vm/$name
mkdir -p "$out"
scenario_module_build "$out/build" "$name-module" <"$1"
rm -rf "$out/modules"
cp -a "$MODULES" "$out/modules"
installed=$(find "$out/modules" -name test_lockdep_scenarios.ko)
[ "$(printf '%s\n' "$installed" | grep -c .)" = 1 ] ||
	die "expected one installed test_lockdep_scenarios.ko in $MODULES"
# As modules_install with INSTALL_MOD_STRIP=1 does.
strip --strip-debug -o "$installed" "$out/build/test_lockdep_scenarios.ko"
VM_MODULES=$out/modules VM_INITRD=$out/initramfs.cpio.gz "$TOP/vm/initramfs.sh"
