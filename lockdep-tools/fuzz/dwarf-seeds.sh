#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Writes fuzz/seeds/dwarf/: the DWARF sections of a tiny program (inlined
# calls, a lexical block, a second file's function) compiled as DWARF 4
# and 5, with and without range lists, in the input layout of
# fuzz/fuzz-dwarf.c (a flags byte, seven 16-bit sizes, the sections).
#   fuzz/dwarf-seeds.sh [CC]
set -eu
cc=${1:-gcc}
out=$(cd "$(dirname "$0")" && pwd)/seeds/dwarf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
mkdir -p src && cd src
cat >inl.h <<'C'
static inline int twice(int x) { return x + x; }
C
cat >t.c <<'C'
#include "inl.h"
static int sq(int x) { return x * x; }
static __attribute__((noinline)) int f(volatile int *p)
{
	int s = 0;
	for (int i = 0; i < *p; i++) {
		int k = sq(i);
		s += twice(k);
	}
	return s;
}
volatile int n = 3, r;
__attribute__((cold, noinline)) void slow(void) { r = -1; }
void _start(void)
{
	r = f(&n);
	if (r > 1000)
		slow();
	for (;;)
		;
}
C
sections=".debug_info .debug_abbrev .debug_line .debug_line_str .debug_str .debug_ranges .debug_rnglists"
# seed NAME CFLAGS...: one seed of the program built with CFLAGS
seed() {
	name=$1
	shift
	"$cc" -O2 -nostdlib -static -fno-asynchronous-unwind-tables \
		-o "$tmp/$name.elf" "$@" t.c
	printf '\0' >"$tmp/$name"
	for s in $sections; do
		rm -f "$tmp/$s"
		# a section the program lacks: empty
		objcopy --dump-section "$s=$tmp/$s" "$tmp/$name.elf" \
			"$tmp/x" 2>/dev/null || :
		test -f "$tmp/$s" || : >"$tmp/$s"
		size=$(wc -c <"$tmp/$s")
		test "$size" -lt 65536
		printf "\\$(printf %03o $((size & 255)))\\$(printf %03o $((size >> 8)))" \
			>>"$tmp/$name"
	done
	for s in $sections; do
		cat "$tmp/$s" >>"$tmp/$name"
	done
	cp "$tmp/$name" "$out/$name"
}
seed dwarf5 -g -gdwarf-5
seed dwarf4 -g -gdwarf-4
seed dwarf5-ranges -g -gdwarf-5 -freorder-blocks-and-partition -ffunction-sections
seed dwarf4-ranges -g -gdwarf-4 -freorder-blocks-and-partition -ffunction-sections
