#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A C reproducer as the guest's workload ('make vm-boot RUN=repro.c'):
#
#   vm/repro.sh [-n NAME] [-w SECONDS] [-d DB] [-l LABEL] [-c FRAGMENT]
#               [-p PATCH]... [BOOT.SH OPTIONS] REPRO.c [-- COLLECT ARGS...]
#
# REPRO.c is compiled on the host as syzbot's reproducers are built
# (gcc -static -pthread -O2; CC= another compiler): a compiler error is
# shown and nothing boots. With -c or -p the kernel is the lockdep kernel
# with FRAGMENT merged and the patches applied (vm/kernel-variant.sh:
# checked before anything is built, built incrementally beside the
# default one). The binary runs in the guest under vm/repro-run.sh,
# again each time it exits, until lockdep has printed a report or -w
# SECONDS (RUN_TIMEOUT, default 300) have passed; reproducers that
# never exit are normal. The boot (vm/boot.sh -r, the workload named
# after REPRO.c's file name) is stored in DB (default
# build/vm/NAME/repro.db) as LABEL (default NAME) with the reproducer,
# the fragment and the patches (lockdep-collect --repro-source ...), and
# the last line printed is the verdict lockdep-report reads from there:
#   reproduced in N s: TITLE     (exit status 0)
#   not reproduced in N s        (exit status 2)
# TITLE is syzbot's title of the first report that came while the
# reproducer ran, N how long it ran. The line is also kept in
# build/vm/NAME/verdict. A guest that hangs or panics on the bug still
# has a verdict when its report arrived. Exit status 1: it does not
# compile, the kernel could not be built, or the boot could not be
# collected at all; 64: usage.
#
# The options -t, -a and -D go to vm/boot.sh. Without -c and -p, a
# kernel of the environment's VM_KERNEL (VM_INITRD, VM_MODULES) is
# booted as vm/boot.sh does, symbolised as the COLLECT ARGS say; else
# the lockdep kernel's vmlinux and modules symbolise. -P PATCH names a
# patch that kernel was built with elsewhere (make vm-boot KERNEL_TREE=
# PATCH=: vm/kernel-tree.sh applied it): stored with the run, not applied.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=repro

name=boot wtime=300 db="" label=""
boot_args=() variant_args=() repro_args=()
usage() {
	echo "usage: $0 [-n NAME] [-w SECONDS] [-d DB] [-l LABEL] [-c FRAGMENT] [-p PATCH]... [-P PATCH]... [-t SECONDS] [-a \"KERNEL ARGS\"] [-D IMAGE]... REPRO.c [-- COLLECT ARGS...]" >&2
	exit 64
}
while getopts n:w:d:l:c:p:P:t:a:D: opt; do
	case $opt in
	c) variant_args+=(-c "$OPTARG"); repro_args+=(--repro-config "$OPTARG") ;;
	p) variant_args+=(-p "$OPTARG"); repro_args+=(--repro-patch "$OPTARG") ;;
	P) repro_args+=(--repro-patch "$OPTARG") ;;
	n) name=$OPTARG ;;
	w) wtime=$OPTARG ;;
	d) db=$OPTARG ;;
	l) label=$OPTARG ;;
	t|a|D) boot_args+=("-$opt" "$OPTARG") ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
src=$1
shift
[ $# = 0 ] || { [ "$1" = -- ] && shift; } || usage
check_name NAME "$name"
case $wtime in
''|0|*[!0-9]*) echo "repro: error: -w wants a number of seconds, not '$wtime'" >&2
	exit 64 ;;
esac
[ -f "$src" ] && [ -r "$src" ] || die "no reproducer '$src'"
run=${src##*/}
case $run in
*.c) ;;
*) die "the reproducer '$src' is not a .c file" ;;
esac
dir=$BUILD/vm/$name
db=${db:-$dir/repro.db}
label=${label:-$name}

# Compiled outside the boot's directory (boot.sh makes that anew).
work=$BUILD/repro/$name
rm -rf "$work"
mkdir -p "$work/files"
repro_compile "$src" "$work/files/repro"
progress "compiled $run ($(sha256sum <"$src" | cut -c1-12))"
syms=()
if [ ${#variant_args[@]} -gt 0 ]; then
	v=$("$TOP/vm/kernel-variant.sh" "${variant_args[@]}") || exit 1
	export VM_KERNEL=$v/bzImage VM_INITRD=$v/initramfs.cpio.gz VM_MODULES=$v/modules
	# the real directory: the symboliser walks no link
	syms=(--vmlinux "$v/vmlinux" --modules "$(readlink -f "$v/kodir")")
elif [ -z "${VM_KERNEL:-}" ]; then
	syms=(--vmlinux "$KSRC/vmlinux" --modules "$KSRC")
fi
echo "$wtime" >"$work/files/limit"
# the workload is named after the source (collect --run NAME)
install -m 0755 "$TOP/vm/repro-run.sh" "$work/$run"

# collect waits a little longer than repro-run.sh, which ends itself;
# boot.sh's output shown as it comes and kept: collect prints the new
# boot's id alone on a line, which names it even when DB holds LABEL twice
rc=0
{ "$TOP/vm/boot.sh" -n "$name" "${boot_args[@]}" -r "$work/$run" -f "$work/files" \
	-w $((wtime + 30)) -- --db "$db" --label "$label" --repro-source "$src" \
	"${repro_args[@]}" "${syms[@]}" "$@" || echo $? >"$work/boot.rc"; } | tee "$work/boot.out"
[ ! -f "$work/boot.rc" ] || rc=$(cat "$work/boot.rc")
# 1 (partial: a guest that hung or died on the bug) and 4 still stored it
case $rc in
0|1|4) ;;
*) die "the boot was not collected (vm/boot.sh: status $rc)" ;;
esac
id=$(grep -x '[0-9][0-9]*' "$work/boot.out" | tail -n 1) ||
	die "the boot was not stored in $db (vm/boot.sh: status $rc)"

# the verdict as the database has it (lockdep-report, under the boot)
verdict=$("$BUILD/bin/lockdep-report" --db "$db" --boot "$id" | sed -n 's/^verdict: //p') ||
	die "unable to read the boot's verdict from $db"
[ -n "$verdict" ] || die "no verdict stored for boot $id ($label) in $db"
echo "$verdict" >"$dir/verdict"
echo "$verdict"
case $verdict in
reproduced*) exit 0 ;;
*) exit 2 ;;
esac
