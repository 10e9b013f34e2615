#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-symbolise on a binary built here, options, exit codes'

. "$(dirname "$0")/lib.sh"

MAN=$TOP/lockdep-tools/man/lockdep-symbolise.1
VMLINUX=${VMLINUX:-$TOP/build/linux/vmlinux}
export MAN

# t.c's lines are the answers: leaf:4, middle:8, outer:12, plain:16.
test_expect_success 'setup: a static binary with inlined calls' '
	cat >"$TRASH/ext.c" <<-\EOF &&
	__attribute__((noinline)) int ext(int x) { return x * x; }
	int outer(int);
	void _start(void) { outer(1); for (;;) ; }
	EOF
	cat >"$TRASH/t.c" <<-\EOF &&
	int ext(int);
	static inline __attribute__((always_inline)) int leaf(int x)
	{
		return ext(x) * 3;
	}
	static inline __attribute__((always_inline)) int middle(int x)
	{
		return leaf(x + 1) - 2;
	}
	__attribute__((noinline)) int outer(int x)
	{
		return middle(x) + 1;
	}
	__attribute__((noinline)) int plain(int x)
	{
		return ext(x) ^ 5;
	}
	EOF
	(cd "$TRASH" && ${CC:-cc} -g -O2 -fno-pie -no-pie -static -nostdlib \
		-Wl,--build-id -o vmlinux t.c ext.c) &&
	nm "$TRASH/vmlinux" >"$TRASH/nm" &&
	# the call of ext inlined in outer, and its return address
	objdump -d "$TRASH/vmlinux" | awk "/<outer>:/ { f = 1 }
		f && /call.*<ext>/ { sub(/:.*/, \"\"); print \$1; exit }" \
		>"$TRASH/call" &&
	test -s "$TRASH/call"
'

outer=$(awk '$3 == "outer" { print $1 }' "$TRASH/nm" 2>/dev/null)
call=$(cat "$TRASH/call" 2>/dev/null)

test_expect_success 'func+off/size of a return address: inline chain' '
	off=$(printf "0x%x" $((0x$call + 5 - 0x$outer))) &&
	size=$(nm -S "$TRASH/vmlinux" | awk "\$4 == \"outer\" { print \$2 }") &&
	size=$(printf "0x%x" $((0x$size))) &&
	"$BIN/lockdep-symbolise" -e "$TRASH/vmlinux" "outer+$off/$size" >out &&
	cat >expect <<-EOF &&
	leaf t.c:4 [inline]
	middle t.c:8 [inline]
	outer+$off/$size t.c:12
	EOF
	test_cmp expect out
'

test_expect_success 'bare PC with --kaslr-offset and --pc, from stdin' '
	printf "%x\n" $((0x$call + 0x200000)) |
	"$BIN/lockdep-symbolise" -e "$TRASH/vmlinux" -k 0x200000 --pc >out &&
	test "$(sed -n 1p out)" = "leaf t.c:4 [inline]" &&
	grep "^outer+0x[0-9a-f]*/0x[0-9a-f]* t.c:12$" out
'

test_expect_success '--json: one object per line with the inline chain' '
	"$BIN/lockdep-symbolise" -e "$TRASH/vmlinux" -k 0 --pc -j \
		"0x$call" "0x$call" >out &&
	test "$(wc -l <out)" = 2 &&
	grep "\"func\":\"outer\"" out | grep "\"file\":\"t.c\",\"line\":12" |
		grep "\"inlined\":\[{\"func\":\"leaf\",\"file\":\"t.c\",\"line\":4}" >/dev/null
'

test_expect_success 'co-process: each answer comes before the next line is sent' '
	coproc SYM { "$BIN/lockdep-symbolise" -e "$TRASH/vmlinux" -k 0 --pc; } &&
	for i in 1 2; do
		echo "0x$call" >&"${SYM[1]}" &&
		while read -t 10 -r line <&"${SYM[0]}"; do
			case $line in *" [inline]") ;; *) break ;; esac
		done &&
		case $line in outer+*" t.c:12") ;; *) return 1 ;; esac || return 1
	done &&
	exec {SYM[1]}>&- &&
	wait $SYM_PID
'

test_expect_success 'wrong size, unknown symbol, garbage: ??:0, exit 1, reasons' '
	test_expect_code 1 "$BIN/lockdep-symbolise" -e "$TRASH/vmlinux" "outer+0x1/0x999" \
		"no_such_fn+0x1/0x2" "hello world" >out 2>err &&
	cat >expect <<-\EOF &&
	outer+0x1/0x999 ??:0
	no_such_fn+0x1/0x2 ??:0
	??:0
	EOF
	test_cmp expect out &&
	grep "not a stack frame: '"'"'hello world'"'"'" err &&
	grep "0 of 2 frames symbolised.*1 no such symbol; 1 size mismatch" err
'

test_expect_success 'mismatched build id: one warning, frames left alone' '
	test_expect_code 1 "$BIN/lockdep-symbolise" -e "$TRASH/vmlinux" --build-id=0011 -k 0 \
		"0x$call" "0x$call" >out 2>err &&
	test "$(grep -c "build id" err)" = 1 &&
	test "$(grep -c "^0x$call ??:0$" out)" = 2
'

# A --vmlinux the user named that cannot be read is an error in both
# tools: exit 2, nothing printed, the file named.
test_expect_success 'a --vmlinux that cannot be read is an error naming it (2)' '
	echo "not an ELF file" >text &&
	for vm in nowhere/vmlinux text; do
		for tool in "lockdep-symbolise -e $vm f+0x1/0x2" \
			    "lockdep-symbolise --vmlinux=$vm -m $TRASH" \
			    "lockdep-report --vmlinux=$vm $CORPUS/020-circular.txt" \
			    "lockdep-report -j --vmlinux=$vm --modules=$TRASH -"; do
			test_expect_code 2 $BIN/$tool </dev/null >out 2>err && test ! -s out &&
			grep "error: unable to open vmlinux '"'"'$vm'"'"'" err &&
			! grep warning: err ||
			{ echo "$tool"; cat out err; return 1; }
		done || return 1
	done
'

# The symbol index cache. sym: the tool against the test binary, all of
# its code as return addresses and as PCs (both exit 1: some addresses
# are in no function); wait_index DIR: the background build of the
# binary's index in DIR is over.
id=$(readelf -n "$TRASH/vmlinux" 2>/dev/null | sed -n 's/^ *Build ID: //p')
sym() {
	test_expect_code 1 "$BIN/lockdep-symbolise" -e "$TRASH/vmlinux" -k 0 "$@" <"$TRASH/addrs" &&
	test_expect_code 1 "$BIN/lockdep-symbolise" -e "$TRASH/vmlinux" -k 0 --pc "$@" <"$TRASH/addrs"
}
wait_index() { flock "$1/$id.lock" true && test -s "$1/$id.idx"; }

test_expect_success 'cache: the first run answers as --no-cache, then the index is built' '
	test -n "$id" &&
	for a in $(seq $((0x$outer)) $((0x$outer + 0x80))); do
		printf "0x%x\n" $a
	done >addrs &&
	sym --no-cache >expect 2>/dev/null &&
	grep -q "leaf t.c:4 \[inline\]" expect &&
	sym --cache="$TRASH/c" >cold 2>/dev/null &&
	test_cmp expect cold &&
	wait_index "$TRASH/c" &&
	cp "$TRASH/c/$id.idx" "$TRASH/good.idx"
'

test_expect_success 'cache: a warm run answers from the index, the same' '
	sym --cache="$TRASH/c" >warm 2>err &&
	test_cmp expect warm &&
	test "$(grep -c "frames symbolised" err)" = 2 &&
	cmp "$TRASH/good.idx" "$TRASH/c/$id.idx"
'

test_expect_success 'cache: a damaged, truncated or stale index is refused and rebuilt' '
	mkdir -p other &&
	sed "s/return x \* x;/return x + x;/" "$TRASH/ext.c" >other/ext.c &&
	(cd other && ${CC:-cc} -g -O2 -fno-pie -no-pie -static -nostdlib \
		-Wl,--build-id -o vmlinux "$TRASH/t.c" ext.c) &&
	test_expect_code 1 "$BIN/lockdep-symbolise" --cache="$TRASH/o" -e other/vmlinux \
		"outer+0x1/0x2" >/dev/null 2>&1 &&
	other=$(readelf -n other/vmlinux | sed -n "s/^ *Build ID: //p") &&
	flock "$TRASH/o/$other.lock" true &&
	size=$(wc -c <"$TRASH/good.idx") &&
	for damage in "head -c 100" "head -c $((size - 1))" "head -c 0" \
		      "sed s/t\.c/u.c/" "tr a-f A-F" "cat $TRASH/o/$other.idx"; do
		$damage <"$TRASH/good.idx" >"$TRASH/c/$id.idx" 2>/dev/null &&
		! cmp -s "$TRASH/good.idx" "$TRASH/c/$id.idx" &&
		sym --cache="$TRASH/c" >out 2>/dev/null &&
		test_cmp expect out &&
		wait_index "$TRASH/c" &&
		cmp "$TRASH/good.idx" "$TRASH/c/$id.idx" ||
		{ echo "damage: $damage"; return 1; }
	done
'

test_expect_success 'cache: a FIFO or a directory in place of the index neither hangs nor stays' '
	rm -f "$TRASH/c/$id.idx" && mkfifo "$TRASH/c/$id.idx" &&
	test_expect_code 1 timeout 60 "$BIN/lockdep-symbolise" --cache="$TRASH/c" \
		-e "$TRASH/vmlinux" -k 0 <addrs >out 2>/dev/null &&
	head -n "$(wc -l <out)" expect | test_cmp - out &&
	wait_index "$TRASH/c" && cmp "$TRASH/good.idx" "$TRASH/c/$id.idx" &&
	rm "$TRASH/c/$id.idx" && mkdir "$TRASH/c/$id.idx" &&
	sym --cache="$TRASH/c" >out 2>/dev/null &&
	test_cmp expect out &&
	flock "$TRASH/c/$id.lock" true &&
	test "$(ls "$TRASH/c" | grep -c tmp)" = 0 &&
	rmdir "$TRASH/c/$id.idx" && cp "$TRASH/good.idx" "$TRASH/c/$id.idx"
'

test_expect_success 'cache: --no-cache writes nothing; the default is XDG_CACHE_HOME, else HOME' '
	XDG_CACHE_HOME="$TRASH/x1" sym --no-cache >out 2>/dev/null &&
	test_cmp expect out &&
	test ! -e "$TRASH/x1" &&
	XDG_CACHE_HOME="$TRASH/x2" sym >out 2>/dev/null &&
	wait_index "$TRASH/x2/lockdep-tools" &&
	(unset XDG_CACHE_HOME && HOME="$TRASH/h" sym) >out 2>/dev/null &&
	wait_index "$TRASH/h/.cache/lockdep-tools" &&
	XDG_CACHE_HOME="$TRASH/x2" sym >out 2>/dev/null &&
	test_cmp expect out
'

test_expect_success 'cache: a directory that cannot be created is warned about, answers stay' '
	sym --cache=/dev/null/c >out 2>err &&
	test_cmp expect out &&
	grep "warning: unable to create cache directory '"'"'/dev/null/c'"'"'" err
'

test_expect_success 'cache: runs in parallel build the index once and agree' '
	for i in 1 2 3 4; do
		{ sym --cache="$TRASH/p" >par.$i 2>/dev/null & } || return 1
	done &&
	wait &&
	wait_index "$TRASH/p" &&
	for i in 1 2 3 4; do test_cmp expect par.$i || return 1; done &&
	cmp "$TRASH/good.idx" "$TRASH/p/$id.idx" &&
	test "$(ls "$TRASH/p")" = "$(printf "%s\n" "$id.idx" "$id.lock")"
'

test_expect_success 'cache: a directory not the user'"'"'s alone is refused, said so; answers stay' '
	mkdir -m 0777 c777 && mkdir -m 0770 c770 && mkdir -m 0700 cother &&
	# not root: "/" is a directory of another user
	if [ "$(id -u)" = 0 ]; then chown nobody cother; other_dir=$TRASH/cother; else other_dir=/; fi &&
	for d in "$TRASH/c777:may be written by others (mode 0777)" \
		 "$TRASH/c770:may be written by its group (mode 0770)" \
		 "$other_dir:is owned by uid [0-9]*, not by this user"; do
		dir=${d%%:*} &&
		sym --cache="$dir" >out 2>err &&
		test_cmp expect out &&
		grep -q "warning: cache directory .$dir. ${d#*:}.*: not used" err &&
		{ [ "$dir" = "$other_dir" ] || test -z "$(ls -A "$dir/")"; } ||
		{ echo "$dir"; cat err; return 1; }
	done &&
	# made by a run: for its user alone
	sym --cache="$TRASH/made" >out 2>/dev/null &&
	wait_index "$TRASH/made" &&
	test "$(stat -c %a "$TRASH/made")" = 700
'

test_expect_success 'cache: a link planted as BUILD_ID.lock or BUILD_ID.idx is not followed' '
	mkdir -m 0700 lk && ln -s "$TRASH/planted" "lk/$id.lock" &&
	sym --cache="$TRASH/lk" >out 2>/dev/null &&
	test_cmp expect out && test ! -e "$TRASH/planted" &&
	mkdir -m 0700 li && cp "$TRASH/good.idx" elsewhere.idx &&
	ln -s "$TRASH/elsewhere.idx" "li/$id.idx" &&
	sym --cache="$TRASH/li" >out 2>/dev/null &&
	test_cmp expect out &&
	wait_index "$TRASH/li" && test ! -L "li/$id.idx" &&
	cmp "$TRASH/good.idx" "li/$id.idx"
'

# forge SRC BUILD_ID DST: index SRC under BUILD_ID, its CRC made right
forge() {
	python3 - "$@" <<-\EOF
	import sys, zlib
	b = bytearray(open(sys.argv[1], "rb").read())
	b[24:24 + len(sys.argv[2]) + 1] = sys.argv[2].encode() + b"\0"
	b[12:16] = bytes(4)
	b[12:16] = zlib.crc32(bytes(b)).to_bytes(4, "little")
	open(sys.argv[3], "wb").write(b)
	EOF
}

test_expect_success 'cache: another binary'"'"'s index under this build id, CRC right, is refused' '
	other=$(readelf -n other/vmlinux | sed -n "s/^ *Build ID: //p") &&
	mkdir -m 0700 fo && forge "$TRASH/o/$other.idx" "$id" "fo/$id.idx" &&
	sym --cache="$TRASH/fo" >out 2>/dev/null &&
	test_cmp expect out &&
	wait_index "$TRASH/fo" && cmp "$TRASH/good.idx" "fo/$id.idx"
'

test_expect_success 'cache: a huge sparse index is refused before its CRC is computed' '
	mkdir -m 0700 sp &&
	python3 - "$TRASH/good.idx" "sp/$id.idx" <<-\EOF &&
	import sys
	b = bytearray(open(sys.argv[1], "rb").read())
	big = 64 << 30
	b[16:24] = big.to_bytes(8, "little")
	with open(sys.argv[2], "wb") as f:
	    f.write(b)
	    f.truncate(big)
	EOF
	SECONDS=0 &&
	test_expect_code 1 timeout 60 "$BIN/lockdep-symbolise" --cache="$TRASH/sp" -e "$TRASH/vmlinux" \
		-k 0 <addrs >out 2>/dev/null &&
	[ $SECONDS -lt 5 ] && head -n "$(wc -l <out)" expect | test_cmp - out &&
	wait_index "$TRASH/sp" && cmp "$TRASH/good.idx" "sp/$id.idx"
'

test_expect_success 'cache: a lockdep-tools link planted in a shared sticky XDG_CACHE_HOME is not followed' '
	mkdir -m 1777 shared && mkdir -m 0700 victim &&
	ln -s "$TRASH/victim" shared/lockdep-tools &&
	test_expect_code 0 env XDG_CACHE_HOME="$TRASH/shared" \
		"$BIN/lockdep-symbolise" -e "$TRASH/vmlinux" -k 0 "$(head -n 1 addrs)" \
		>out 2>err &&
	test_expect_code 0 "$BIN/lockdep-symbolise" -e "$TRASH/vmlinux" -k 0 \
		--no-cache "$(head -n 1 addrs)" >want &&
	test_cmp want out &&
	grep -q "warning: cache directory .$TRASH/shared/lockdep-tools. is a symbolic link: not used" err &&
	test -z "$(ls -A victim)"
'

# The index shrunk, then replaced by another binary's, in place (not by
# rename) under a running co-process: its answers stay those of its own
# binary, it is not killed (SIGBUS).
test_expect_success 'cache: an index changed in place under a running symboliser' '
	other=$(readelf -n other/vmlinux | sed -n "s/^ *Build ID: //p") &&
	mkdir -m 0700 ip && cp "$TRASH/good.idx" "ip/$id.idx" &&
	mkfifo cop.in &&
	{ { "$BIN/lockdep-symbolise" -e "$TRASH/vmlinux" -k 0 --cache="$TRASH/ip" \
		<cop.in >out 2>err; echo $? >rc; } & } &&
	exec 3>cop.in &&
	n=$(wc -l <addrs) && half=$((n / 2)) &&
	head -n "$half" addrs >&3 &&
	for i in $(seq 300); do
		test "$(grep -cv " \[inline\]$" out)" = "$half" && break
		sleep 0.1
	done &&
	: >"ip/$id.idx" &&
	sed -n "$((half + 1)),$((half + 4))p" addrs >&3 &&
	sleep 0.5 &&
	cp "$TRASH/o/$other.idx" "ip/$id.idx" &&
	sed -n "$((half + 5)),\$p" addrs >&3 &&
	exec 3>&- &&
	wait &&
	{ "$BIN/lockdep-symbolise" -e "$TRASH/vmlinux" -k 0 --no-cache <addrs \
		>want; echo $? >want.rc; } &&
	test_cmp want.rc rc &&
	test_cmp want out
'

test_expect_success 'a FIFO as NAME.ko under --modules or as --vmlinux does not block' '
	mkdir -p fm/kernel && mkfifo fm/kernel/fifo_mod.ko fifo-vmlinux &&
	test_expect_code 1 timeout 20 "$BIN/lockdep-symbolise" -m fm \
		"f+0x1/0x10 [fifo_mod]" >out 2>err &&
	grep -q "module .fifo_mod. unusable in .fm. (not a regular file)" err &&
	test_expect_code 2 timeout 20 "$BIN/lockdep-symbolise" -e fifo-vmlinux \
		"f+0x1/0x10" >out 2>err &&
	grep -q "unable to open vmlinux .fifo-vmlinux.: not a regular file" err
'

test_expect_success 'cache: lockdep-report --cache and --no-cache' '
	off=$(printf "0x%x" $((0x$call + 5 - 0x$outer))) &&
	size=$(nm -S "$TRASH/vmlinux" | awk "\$4 == \"outer\" { print \$2 }") &&
	sed "s/\] [a-z_.0-9]*+0x[0-9a-f]*\/0x[0-9a-f]*\$/] outer+$off\/0x$size/" \
		"$CORPUS/026-suspicious-rcu.txt" >rcu.log &&
	XDG_CACHE_HOME="$TRASH/r0" "$BIN/lockdep-report" --no-cache \
		--vmlinux="$TRASH/vmlinux" rcu.log >expect.r &&
	test ! -e "$TRASH/r0" &&
	grep -q "leaf t.c:4 \[inline\]" expect.r &&
	"$BIN/lockdep-report" --cache="$TRASH/r" --vmlinux="$TRASH/vmlinux" rcu.log >cold.r &&
	wait_index "$TRASH/r" &&
	"$BIN/lockdep-report" --cache="$TRASH/r" --vmlinux="$TRASH/vmlinux" rcu.log >warm.r &&
	test_cmp expect.r cold.r && test_cmp expect.r warm.r
'

test_expect_success 'usage errors: 64' '
	for args in "" "-e x -k zz" "--bogus"; do
		test_expect_code 64 "$BIN/lockdep-symbolise" $args </dev/null >out 2>err && test -s err || return 1
	done
'

test_expect_success 'man page: groff clean, SYNOPSIS has every --help option' '
	test -r "$MAN" &&
	groff -ww -z -man "$MAN" 2>err && test ! -s err &&
	groff -man -Tascii -P-cbou -rLL=200n "$MAN" >man.txt 2>/dev/null &&
	sed -n "/^SYNOPSIS/,/^DESCRIPTION/p" man.txt >synopsis &&
	for opt in $("$BIN/lockdep-symbolise" --help | sed -n "/^usage:/,/^\$/p" |
		     grep -o -- "--*[a-z-]*[a-z]"); do
		grep -q -- "$opt" synopsis || return 1
	done
'

test_expect_success 'lockdep-report --vmlinux: inlined calls in the trace' '
	off=$(printf "0x%x" $((0x$call + 5 - 0x$outer))) &&
	size=$(nm -S "$TRASH/vmlinux" | awk "\$4 == \"outer\" { print \$2 }") &&
	size=$(printf "0x%x" $((0x$size))) &&
	sed "s/\] [a-z_.0-9]*+0x[0-9a-f]*\/0x[0-9a-f]*\$/] outer+$off\/$size/" \
		"$CORPUS/026-suspicious-rcu.txt" >rcu.log &&
	grep -q "outer+$off" rcu.log &&
	"$BIN/lockdep-report" --vmlinux="$TRASH/vmlinux" rcu.log >out &&
	grep "^  leaf t.c:4 \[inline\]$" out &&
	grep "^  outer+$off/$size t.c:12$" out &&
	"$BIN/lockdep-report" --vmlinux="$TRASH/vmlinux" --json rcu.log >out.json &&
	grep -q "\"inlined\":\[{\"func\":\"leaf\",\"file\":\"t.c\",\"line\":4}" out.json &&
	"$BIN/lockdep-report" rcu.log >plain &&
	! grep -q "\[inline\]" plain
'

# Against the real vmlinux when built: the names exist, the sizes do not fit.
test_expect_success 'lockdep-report: frames of another kernel stay as printed' '
	vm=$VMLINUX && { test -r "$vm" || vm=$TRASH/vmlinux; } &&
	"$BIN/lockdep-report" --vmlinux="$vm" \
		"$CORPUS/026-suspicious-rcu.txt" >out 2>err &&
	"$BIN/lockdep-report" "$CORPUS/026-suspicious-rcu.txt" >expect &&
	test_cmp expect out &&
	grep "warning: 0 of 18 frames symbolised" err
'

test_expect_success 'lockdep-report: --vmlinux with --db is a usage error' '
	test_expect_code 64 "$BIN/lockdep-report" --db=x.db --vmlinux="$TRASH/vmlinux" >out 2>err && grep -- "--vmlinux" err
'

if [ -r "$VMLINUX" ]; then
	test_expect_success 'real vmlinux: a lockdep frame and its inline chain' '
		line=$(nm -n -S "$VMLINUX" | awk "\$4 == \"_raw_spin_lock\" { print \$2; exit }") &&
		"$BIN/lockdep-symbolise" -e "$VMLINUX" "_raw_spin_lock+0x1/0x$line" >out &&
		tail -n 1 out | grep "^_raw_spin_lock+0x1/0x[0-9a-f]* kernel/locking/spinlock.c:[0-9]*$"
	'
	# every 20th function at a few offsets, and the scenario module's
	# functions by name: warm answers as --no-cache
	test_expect_success 'real vmlinux and module: a warm run answers as --no-cache' '
		nm -S --defined-only "$VMLINUX" |
		awk "\$3 ~ /^[tT]\$/ && \$2 != \"\" && NR % 20 == 0 { print \$4, \$2 }" |
		while read -r f size; do
			# break, not &&: a last function shorter than 17
			# bytes must not fail the loop
			for off in 1 5 17; do
				[ $off -lt $((0x$size)) ] || break
				printf "%s+0x%x/0x%x\n" "$f" $off $((0x$size))
			done
		done >real.frames &&
		ko=$(dirname "$VMLINUX")/lib/test_lockdep_scenarios.ko &&
		mkdir -p mods && cp "$ko" mods/ &&
		nm -S --defined-only mods/*.ko |
		awk "\$3 ~ /^[tT]\$/ && \$2 != \"\" { print \$4, \$2 }" |
		while read -r f size; do
			printf "%s+0x%x/0x%x [test_lockdep_scenarios]\n" \
				"$f" $((0x$size / 2)) $((0x$size))
		done >>real.frames &&
		test "$(wc -l <real.frames)" -gt 1000 &&
		run() { test_expect_code 0,1 "$BIN/lockdep-symbolise" -e "$VMLINUX" -m mods "$@" \
			<real.frames 2>/dev/null; } &&
		run --no-cache >expect.real &&
		run --cache=real-cache >cold.real &&
		id=$(readelf -n "$VMLINUX" | sed -n "s/^ *Build ID: //p") &&
		mid=$(readelf -n mods/*.ko | sed -n "s/^ *Build ID: //p") &&
		flock "real-cache/$id.lock" true && flock "real-cache/$mid.lock" true &&
		test -s "real-cache/$id.idx" && test -s "real-cache/$mid.idx" &&
		run --cache=real-cache >warm.real &&
		test_cmp expect.real cold.real &&
		test_cmp expect.real warm.real &&
		grep -q "\[inline\]$" warm.real &&
		grep -q "test_lockdep_scenarios\] lib/test_lockdep_scenarios.c:[0-9]*$" warm.real
	'
else
	test_skip 'real vmlinux: a lockdep frame and its inline chain' "no $VMLINUX"
	test_skip 'real vmlinux and module: a warm run answers as --no-cache' "no $VMLINUX"
fi

test_done
