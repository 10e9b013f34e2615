#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The graph export, /sys/kernel/debug/lockdep/graph (kernel-patches/, format
# in lockdep-design.rst), in a booted 2-CPU guest: it agrees with
# /proc/lockdep (same classes, same distance-1 edges), every class and trace
# it cites is in it, it hides addresses from a reader kptr_restrict says may
# not see them, a non-root reader is refused and /proc/lockdep_graph is gone.
# Stored by lockdep-collect with the vmlinux of the same build (which the
# test checks), its traces, sites and keys are symbolised.
#
# Churn: while a loop loads the scenario module, runs a few of its clean
# scenarios (new classes, dependencies, chains and usage bits) and unloads
# it (every class of the module zapped, its chains freed after an RCU grace
# period), the guest opens and reads the export CHURN_READS times. Every
# open must return within CHURN_BOUND seconds (the kernel makes at most four
# copies of the graph, then fails the open with EAGAIN; on TCG one read takes
# a few seconds), either with a whole file in which every dependency, chain
# and usage record names only classes and traces of the same file, or with
# EAGAIN and nothing read; most must succeed, and classes must have been
# zapped meanwhile.
#
# The agent reads files only as root and sends no file metadata, so this test
# boots the series' kernel with an initramfs of its own: busybox, the
# scenario module and a script /init that reads the files as root and as uid
# 65534 (busybox su), packs them with tar and writes the archive to a
# virtio-serial port that QEMU stores in a host file. One boot, about two
# minutes of TCG.
#
# KERNEL overrides the kernel image (default: the bzImage of the tree of
# KERNEL_SOURCE's series, vm/lib.sh: build/linux for 6.1), VMLINUX its
# vmlinux (default: that tree's), SCENARIO_KO the scenario module of the
# same build (default: the one installed in vm/lib.sh's MODULES).

. "$(dirname "$0")/../../lockdep-tools/tests/t/lib.sh"

KTREE=$(. "$TOP/vm/lib.sh" && echo "$KREPO")
KMODULES=$(. "$TOP/vm/lib.sh" && echo "$MODULES")
SCENARIO_KO=${SCENARIO_KO:-$(find "$KMODULES/lib/modules" -name \
	test_lockdep_scenarios.ko 2>/dev/null | head -n 1)}
CHURN_READS=${CHURN_READS:-12}
CHURN_BOUND=${CHURN_BOUND:-30}
KERNEL=${KERNEL:-$KTREE/arch/x86/boot/bzImage}
VMLINUX=${VMLINUX:-$KTREE/vmlinux}
BUSYBOX=${BUSYBOX:-/bin/busybox}
OUT=$TRASH/out
DB=$TRASH/db
q() { sqlite3 "$DB" "$1"; }

make_initramfs() {
	local root=$TRASH/root

	mkdir -p "$root"/bin "$root"/etc "$root"/proc "$root"/sys "$root"/dev \
		"$root"/tmp
	cp "$BUSYBOX" "$root/bin/busybox"
	if [ -f "$SCENARIO_KO" ]; then
		mkdir -p "$root/lib" && cp "$SCENARIO_KO" "$root/lib/"
	fi
	echo 'root:x:0:0:root:/:/bin/sh' >"$root/etc/passwd"
	echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>"$root/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
	cat >"$root/init" <<-EOF
	#!/bin/busybox sh
	reads=$CHURN_READS
	EOF
	cat >>"$root/init" <<-'EOF'
	/bin/busybox --install -s /bin
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev
	mount -t debugfs debugfs /sys/kernel/debug
	g=/sys/kernel/debug/lockdep/graph
	o=/tmp/out
	mkdir -p $o
	# The graph before and after /proc/lockdep: lockdep may add classes
	# and dependencies between the reads, never remove them.
	{ time cat $g >$o/graph1; } 2>$o/time
	cat /proc/lockdep >$o/lockdep
	cat $g >$o/graph2
	# the rest of a saved /proc directory (lockdep-collect --proc-dir)
	for f in version lockdep_stats lockdep_chains lock_stat; do
		cat /proc/$f >$o/$f
	done
	stat -c '%a %u %g' $g >$o/mode
	ls /proc/lockdep_graph >>$o/mode 2>/dev/null
	su -s /bin/sh nobody -c 'id -u; cat /proc/version >/dev/null && echo ok' \
		>$o/nobody-id 2>&1
	su -s /bin/sh nobody -c "cat $g" >$o/nobody.out 2>$o/nobody.err
	echo $? >$o/nobody.rc
	echo 2 >/proc/sys/kernel/kptr_restrict
	cat $g >$o/graph-hidden
	echo 0 >/proc/sys/kernel/kptr_restrict
	# Churn: classes registered and zapped while the graph is read. Each
	# read's exit status and /proc/uptime before and after it.
	zapped() { sed -n 's/^ *zapped classes: *//p' /proc/lockdep_stats; }
	mkdir $o/churn
	zapped >$o/churn/zapped-before
	(
		while ! [ -e /tmp/stop ]; do
			insmod /lib/test_lockdep_scenarios.ko || break
			for s in aa-nested ab-order hardirq-safe-unsafe-irq \
				softirq-safe-unsafe-bh i-mutex-nested; do
				echo $s >/sys/kernel/debug/lockdep_scenarios/trigger
			done
			rmmod test_lockdep_scenarios || break
			echo >>$o/churn/cycles
		done
	) &
	churn=$!
	i=0
	while [ $i -lt $reads ]; do
		i=$((i + 1))
		t0=$(cut -d' ' -f1 /proc/uptime)
		cat $g >$o/churn/$i 2>$o/churn/$i.err
		echo "$? $t0 $(cut -d' ' -f1 /proc/uptime)" >$o/churn/$i.rc
	done
	touch /tmp/stop
	wait $churn
	zapped >$o/churn/zapped-after
	for p in /sys/class/virtio-ports/*; do
		[ "$(cat $p/name)" = org.lockdep.t0400 ] &&
			tar -cf /dev/${p##*/} -C /tmp out
	done
	sync
	reboot -f
	EOF
	chmod 755 "$root/init"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --owner=0:0 \
		--quiet) | gzip -9n >"$TRASH/initramfs.cpio.gz"
}

boot_guest() {
	timeout --kill-after=5 300 qemu-system-x86_64 \
		-accel tcg -cpu qemu64 -m 512 -smp 2 \
		-display none -monitor none -no-reboot \
		-kernel "$KERNEL" -initrd "$TRASH/initramfs.cpio.gz" \
		-append "console=ttyS0 panic=-1 no_timer_check" \
		-serial "file:$TRASH/console.log" \
		-device virtio-serial-pci,id=vser0 \
		-chardev "file,id=out,path=$TRASH/out.tar" \
		-device virtserialport,bus=vser0.0,chardev=out,name=org.lockdep.t0400 \
		>"$TRASH/qemu.log" 2>&1 &&
	tar -xf "$TRASH/out.tar" -C "$TRASH" || {
		echo "boot failed; last lines of the console and of QEMU's log:"
		tail -n 20 "$TRASH/console.log" "$TRASH/qemu.log"
		return 1
	}
}

# unescape: the graph's names with \ooo escapes decoded.
unescape_awk='
function unescape(s,	r, i) {
	r = ""
	while ((i = index(s, "\\")) > 0) {
		r = r substr(s, 1, i - 1) \
			sprintf("%c", (substr(s, i + 1, 1) * 64 + \
				substr(s, i + 2, 1) * 8 + substr(s, i + 3, 1)))
		s = substr(s, i + 4)
	}
	return r s
}
# name: the class name as /proc/lockdep prints it, from a class record.
function name(	n, i) {
	n = $0
	for (i = 1; i <= 8; i++)
		n = substr(n, index(n, " ") + 1)
	n = unescape(n)
	if ($4 > 1)
		n = n "#" $4
	if ($5 != 0)
		n = n "/" $5
	return n
}'

# graph_sets GRAPH: GRAPH.classes and GRAPH.edges (distance 1), sorted.
graph_sets() {
	LC_ALL=C awk "$unescape_awk"'
	$1 == "class" { cls[$2] = name(); print cls[$2] >"'"$1"'.classes" }
	$1 == "dep" && $5 == 1 { e[++n] = $2 " " $3 }
	END {
		for (i = 1; i <= n; i++) {
			split(e[i], p, " ")
			print cls[p[1]] " -> " cls[p[2]] >"'"$1"'.edges"
		}
	}' "$1" &&
	LC_ALL=C sort -o "$1.classes" "$1.classes" &&
	LC_ALL=C sort -o "$1.edges" "$1.edges"
}

# lockdep_sets: lockdep.classes and lockdep.edges from /proc/lockdep.
lockdep_sets() {
	LC_ALL=C awk '
	/^ -> \[/ { print from " -> " substr($0, index($0, "] ") + 2) >"lockdep.edges"; next }
	/^[^ ]/ && match($0, / BD: *[0-9]+ [^ ]*: /) {
		from = substr($0, RSTART + RLENGTH)
		print from >"lockdep.classes"
	}
	' "$OUT/lockdep" &&
	LC_ALL=C sort -o lockdep.classes lockdep.classes &&
	LC_ALL=C sort -o lockdep.edges lockdep.edges
}

if ! [ -f "$KERNEL" ]; then
	test_skip_all 'graph export in a booted guest' "no kernel at $KERNEL: run 'make kernel'"
fi

test_expect_success 'guest boots and returns the files' '
	make_initramfs && boot_guest &&
	test -s "$OUT/graph1" && test -s "$OUT/lockdep"
'

test_expect_success 'header: version, release, build id, raw addresses' '
	LC_ALL=C awk "
		NR == 1 && \$0 != \"lockdep_graph 1\" { exit 1 }
		NR == 2 && \$1 != \"release\" { exit 1 }
		NR == 3 && (\$1 != \"build_id\" || length(\$2) != 40 ||
			    \$2 ~ /[^0-9a-f]/ || \$2 ~ /^0+\$/) { exit 1 }
		NR == 4 && \$0 != \"addresses raw\" { exit 1 }
		NR == 5 && (\$1 != \"stext\" || \$2 == \"0x0\") { exit 1 }
		END { if (\$0 != \"end\") exit 1 }" "$OUT/graph1"
'

# counts_match GRAPH: GRAPH is whole and has as many records of each kind
# as its counts header says, and some of each.
counts_match() {
	LC_ALL=C awk '
		$1 == "counts" { c = $2; d = $3; ch = $4; t = $5 }
		$1 == "class" { nc++ }
		$1 == "dep" { nd++ }
		$1 == "chain" { nch++ }
		$1 == "trace" { nt++ }
		END {
			printf "classes %d/%d deps %d/%d chains %d/%d traces %d/%d\n",
				nc, c, nd, d, nch, ch, nt, t
			exit !(nc == c && nd == d && nch == ch && nt == t && nc > 0 &&
			       nd > 0 && nch > 0 && nt > 0 && $0 == "end")
		}' "$1"
}

# records_valid GRAPH: every class and trace a usage, dep or chain record
# of GRAPH cites is in GRAPH, and every chain has as many classes as its
# depth; says which not.
records_valid() {
	LC_ALL=C awk '
		$1 == "class" { cls[$2] = 1 }
		$1 == "trace" { tr[$2] = 1 }
		$1 == "usage" { need("class", $2); need("trace", $4) }
		$1 == "dep" { need("class", $2); need("class", $3); need("trace", $6) }
		$1 == "chain" { for (i = 5; i <= NF; i++) need("class", $i)
				 if (NF != 4 + $4) { print "bad chain: " $0; bad++ } }
		function need(kind, id) { if (id != "-") ref[kind " " id] = NR }
		END {
			for (r in ref) {
				split(r, p, " ")
				if ((p[1] == "class" && !(p[2] in cls)) ||
				    (p[1] == "trace" && !(p[2] in tr))) {
					print FILENAME " line " ref[r] ": no " r; bad++
				}
			}
			exit bad != 0
		}' "$1"
}

test_expect_success 'record counts match the counts header' '
	counts_match "$OUT/graph1"
'

# subset A B: every line of A (sorted) is in B (sorted); says which not
subset() {
	LC_ALL=C comm -23 "$1" "$2" >extra &&
	{ ! test -s extra || { echo "in $1, not in $2:"; cat extra; false; }; }
}

# The guest keeps taking locks while it reads the three files, and lockdep
# only ever adds classes and dependencies then: graph1 <= /proc/lockdep <=
# graph2. An entry the export leaves out (of the second read) or makes up
# (in the first) breaks an inclusion; both reads run the same code, so a
# systematic error shows in both, but a one-off in graph2 alone or a gap
# in graph1 alone would pass.
test_expect_success 'same classes and distance-1 edges as /proc/lockdep' '
	cp "$OUT/graph1" g1 && cp "$OUT/graph2" g2 &&
	graph_sets g1 && graph_sets g2 && lockdep_sets &&
	echo "classes: $(wc -l <lockdep.classes), edges: $(wc -l <lockdep.edges)" &&
	test -s lockdep.classes && test -s lockdep.edges &&
	subset g1.classes lockdep.classes && subset lockdep.classes g2.classes &&
	subset g1.edges lockdep.edges && subset lockdep.edges g2.edges
'

test_expect_success 'every class and trace cited is in the file' '
	records_valid "$OUT/graph1"
'

test_expect_success 'the file is root-only, mode 0400, not in /proc' '
	echo "400 0 0" >expect && test_cmp expect "$OUT/mode"
'

test_expect_success 'a non-root reader is refused' '
	printf "65534\nok\n" >expect && test_cmp expect "$OUT/nobody-id" &&
	! test -s "$OUT/nobody.out" && test "$(cat "$OUT/nobody.rc")" != 0 &&
	grep -q "Permission denied" "$OUT/nobody.err"
'

test_expect_success 'kptr_restrict=2 hides every address' '
	grep -qx "addresses hidden" "$OUT/graph-hidden" &&
	grep -qx "stext 0x0" "$OUT/graph-hidden" &&
	LC_ALL=C awk "
		\$1 == \"class\" && \$3 != \"0x0\" { exit 1 }
		\$1 == \"trace\" { n++; for (i = 4; i <= NF; i++) if (\$i != \"0x0\") exit 1 }
		END { exit n == 0 }" "$OUT/graph-hidden"
'

# The same build: the export's build id is vmlinux's. Not a skip when they
# differ: $KTREE would then not be the kernel that was booted.
test_expect_success 'the export and the vmlinux are of one build' '
	id=$(awk "\$1 == \"build_id\" { print \$2 }" "$OUT/graph2") &&
	readelf -n "$VMLINUX" >notes &&
	{ grep -q "Build ID: $id\$" notes ||
	  { echo "export build id ${id:-none}, $VMLINUX: $(grep "Build ID" notes)"; false; }; }
'

test_expect_success 'stored with vmlinux: traces symbolised, sites past lock primitives' '
	mkdir pd &&
	cp "$OUT/version" "$OUT/lockdep" "$OUT/lockdep_stats" \
		"$OUT/lockdep_chains" "$OUT/lock_stat" pd/ &&
	cp "$OUT/graph2" pd/lockdep_graph &&
	"$BIN/lockdep-collect" --db "$DB" --proc-dir pd --label raw >collect.out &&
	"$BIN/lockdep-collect" --db "$DB" --proc-dir pd --label sym \
		--vmlinux "$VMLINUX" >collect.out &&
	b=$(q "SELECT id FROM boots WHERE label = '\''sym'\''") &&
	test "$(q "SELECT count(*) FROM graph_exports WHERE boot_id = $b
		AND complete = 1 AND kaslr_offset IS NOT NULL")" = 1 &&
	# most frames are named (not those in modules); the first always
	named=$(q "SELECT count(*) FROM trace_frames WHERE boot_id = $b
		AND func IS NOT NULL") &&
	test "$named" -gt 0 &&
	test $((named * 2)) -ge "$(q "SELECT count(*) FROM trace_frames
		WHERE boot_id = $b")" &&
	test "$(q "SELECT count(*) FROM trace_frames WHERE boot_id = $b
		AND idx = 0 AND func IS NULL")" = 0 &&
	q "SELECT site FROM traces WHERE boot_id = $b" >sites &&
	test "$(grep -c "^[a-z_][a-zA-Z0-9_.]*+0x[0-9a-f]*/0x[0-9a-f]*" sites)" -gt 0 &&
	! grep "^lock_acquire\|^_raw_spin_lock\|^mutex_lock_nested\|^__lock_acquire" sites &&
	grep -q "(.*\.[ch]:[0-9]*)$" sites
'

test_expect_success 'stored with vmlinux: key symbols and the key identity' '
	b=$(q "SELECT id FROM boots WHERE label = '\''sym'\''") &&
	n=$(q "SELECT count(*) FROM classes WHERE boot_id = $b
		AND key_symbol IS NOT NULL") &&
	test "$n" -gt 0 &&
	test "$(q "SELECT count(*) FROM classes WHERE boot_id = $b
		AND identity LIKE '\''%@'\'' || key_symbol")" = "$n" &&
	# a key in a symbol, never the lockdep class table itself
	test "$(q "SELECT count(*) FROM classes WHERE boot_id = $b
		AND key_symbol LIKE '\''lock_classes%'\''")" = 0 &&
	# the offset of each key is the same without vmlinux
	a=$(q "SELECT id FROM boots WHERE label = '\''raw'\''") &&
	test "$(q "SELECT count(*) FROM classes a JOIN classes c
		ON a.key_offset = c.key_offset AND a.graph_idx = c.graph_idx
		WHERE a.boot_id = $a AND c.boot_id = $b")" = \
		"$(awk "\$1 == \"counts\" { print \$2 }" "$OUT/graph2")"
'

test_expect_success 'lockdep-graph prints the symbolised site of a dependency' '
	"$BIN/lockdep-graph" --db "$DB" --boot sym --max-nodes 0 >g.dot &&
	grep -o "site: [^\"]*" g.dot >sites &&
	test "$(grep -c "site: unknown" sites)" -lt "$(wc -l <sites)" &&
	grep -q "^site: [a-z_][a-zA-Z0-9_.]*+0x[0-9a-f]*/0x[0-9a-f]*" sites
'

# churn_reads: one line per churn read: number, exit status, seconds.
churn_reads() {
	local i=1 rc t0 t1
	while [ -f "$OUT/churn/$i.rc" ]; do
		read -r rc t0 t1 <"$OUT/churn/$i.rc" &&
		echo "$i $rc $(awk -v a="$t0" -v b="$t1" "BEGIN { print b - a }")"
		i=$((i + 1))
	done
}

test_expect_success 'churn: every open returned in time, whole and valid or EAGAIN' '
	churn_reads >reads && cat reads &&
	test "$(wc -l <reads)" = "$CHURN_READS" &&
	while read -r i rc secs; do
		awk -v s="$secs" -v b="$CHURN_BOUND" "BEGIN { exit !(s <= b) }" ||
		{ echo "read $i took $secs s"; exit 1; }
		if [ "$rc" = 0 ]; then
			counts_match "$OUT/churn/$i" >/dev/null &&
			records_valid "$OUT/churn/$i" || exit 1
		else
			! test -s "$OUT/churn/$i" &&
			grep -q "Resource temporarily unavailable" "$OUT/churn/$i.err" ||
			{ echo "read $i: status $rc"; cat "$OUT/churn/$i.err"; exit 1; }
		fi
	done <reads
'

test_expect_success 'churn: most opens succeed, while classes are zapped' '
	churn_reads >reads &&
	ok=$(awk "\$2 == 0" reads | wc -l) &&
	cycles=$(wc -l <"$OUT/churn/cycles") &&
	zaps=$(($(cat "$OUT/churn/zapped-after") - $(cat "$OUT/churn/zapped-before"))) &&
	echo "$ok of $CHURN_READS reads whole; $cycles module cycles, $zaps classes zapped" &&
	test $((ok * 2)) -gt "$CHURN_READS" && test "$cycles" -ge 2 && test "$zaps" -gt 0
'

if [ -s "$OUT/churn/zapped-after" ]; then
	churn_reads | awk -v c="$(wc -l <"$OUT/churn/cycles")" \
		-v z="$(($(cat "$OUT/churn/zapped-after") - $(cat "$OUT/churn/zapped-before")))" '
		{ n++; if ($2 == 0) ok++; if ($3 > max) max = $3 }
		END { printf "# churn: %d of %d reads whole, the longest %s s; %d module cycles, %d classes zapped\n",
			ok, n, max, c, z }'
fi
if [ -s "$OUT/time" ]; then
	echo "# read time of the graph export ($(wc -c <"$OUT/graph1") bytes):" \
		"$(tr '\n' ' ' <"$OUT/time")"
fi
test_done
