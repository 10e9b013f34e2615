#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A C reproducer as the guest's workload ('make vm-boot RUN=repro.c'):
#
#   vm/repro.sh [-n NAME] [-w SECONDS] [-d DB] [-l LABEL] [BOOT.SH OPTIONS]
#               REPRO.c [-- COLLECT ARGS...]
#
# REPRO.c is compiled on the host as syzbot's reproducers are built
# (gcc -static -pthread -O2; CC= another compiler): a compiler error is
# shown and nothing boots. The binary runs in the guest under
# vm/repro-run.sh, again each time it exits, until lockdep has printed
# a report or -w SECONDS (RUN_TIMEOUT, default 300) have passed;
# reproducers that never exit are normal. The boot (vm/boot.sh -r, the
# workload named after REPRO.c's file name) is stored in DB (default
# build/vm/NAME/repro.db) as LABEL (default NAME), and the last line
# printed is the verdict:
#   reproduced in N s: TITLE     (exit status 0)
#   not reproduced in N s        (exit status 2)
# TITLE is the first report that came while the reproducer ran, titled as
# syzbot titles it (lockdep-report --list --title=syzbot --phase=during);
# N the seconds until the guest saw it. The line is also kept in
# build/vm/NAME/verdict. A guest that hangs or panics on the bug still
# has a verdict when its report arrived. Exit status 1: it does not
# compile, or the boot could not be collected at all; 64: usage.
#
# The options -t, -a and -D go to vm/boot.sh, as do the environment's
# VM_KERNEL, VM_INITRD, VM_MODULES, SMP (a patched or reconfigured
# kernel: vm/kernel-variant.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=repro

name=boot wtime=300 db="" label=""
boot_args=()
usage() {
	echo "usage: $0 [-n NAME] [-w SECONDS] [-d DB] [-l LABEL] [-t SECONDS] [-a \"KERNEL ARGS\"] [-D IMAGE]... REPRO.c [-- COLLECT ARGS...]" >&2
	exit 64
}
while getopts n:w:d:l:t:a:D: opt; do
	case $opt in
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
echo "$wtime" >"$work/files/limit"
# the workload is named after the source (collect --run NAME)
install -m 0755 "$TOP/vm/repro-run.sh" "$work/$run"

# collect waits a little longer than repro-run.sh, which ends itself
rc=0
"$TOP/vm/boot.sh" -n "$name" "${boot_args[@]}" -r "$work/$run" -f "$work/files" \
	-w $((wtime + 30)) -- --db "$db" --label "$label" "$@" || rc=$?
# 1 (partial: a guest that hung or died on the bug) and 4 still stored it
case $rc in
0|1|4) ;;
*) die "the boot was not collected (vm/boot.sh: status $rc)" ;;
esac

seen=$(sed -n 's/^repro-run: report after \([0-9]*\) s .*/\1/p' "$dir/raw/workload.out" 2>/dev/null | tail -n 1)
ran=$(sed -n 's/^repro-run: no report in \([0-9]*\) s .*/\1/p' "$dir/raw/workload.out" 2>/dev/null | tail -n 1)
list=$("$BUILD/bin/lockdep-report" --db "$db" --boot "$label" --list \
	--title=syzbot --phase=during) || die "unable to read the boot's reports from $db"
# "ID TYPE TITLE": the first report's title
title=$(printf '%s\n' "$list" | sed -n '1s/^[0-9]* [^ ]* *//p')
if [ -n "$title" ]; then
	verdict="reproduced in ${seen:-${ran:-$wtime}} s: $title"
	status=0
else
	verdict="not reproduced in ${ran:-${seen:-$wtime}} s"
	status=2
fi
echo "$verdict" >"$dir/verdict"
echo "$verdict"
exit $status
