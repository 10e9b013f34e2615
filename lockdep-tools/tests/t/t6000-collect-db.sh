#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-collect --db from logs, raw and /proc directories

Real inputs: every corpus log, and a raw directory made here from the
real 6.1 fixtures (tests/fixtures/6.1: /proc files and a console log
turned into /dev/kmsg records). Queries go through sqlite3 and
lockdep-report --db; bad input must leave the database as it was.'
. "$(dirname "$0")/lib.sh"

FIX=$TOP/lockdep-tools/tests/fixtures/6.1
MAN=$TOP/lockdep-tools/man
collect() { "$BIN/lockdep-collect" "$@"; }
# collect_plain ARGS: the boot of a kernel without our series (the raw
# directories here have no lockdep_graph and no scenario list): stored,
# exit 3, and one line says what the kernel does not offer
collect_plain() {
	if test_expect_code 3 "$BIN/lockdep-collect" "$@" 2>plain.err &&
	   test "$(grep -c "does not offer" plain.err)" = 1; then
		cat plain.err >&2
	else
		cat plain.err >&2
		return 1
	fi
}
q() { sqlite3 "$DB" "$1"; }
DB=$TRASH/db

test_expect_success 'man page lockdep-db(5) is clean roff' '
	groff -ww -z -man "$MAN/lockdep-db.5" 2>err &&
	test_cmp /dev/null err
'

test_expect_success 'usage: sources and destinations are checked (64)' '
	for args in "--db x" "--log a --proc-dir b --db x" "--log a" \
		"--local" "--raw-dir r" "--socket s" "--log a --db x --poweroff" \
		"--log a --db x --duration 3" "--socket s --raw-dir r --label x" \
		"--socket s --log a --db x" "--log a --db x --duration 0"; do
		test_expect_code 64 collect $args 2>err && grep -q usage: err ||
		{ echo "args: $args"; return 1; }
	done
'

test_expect_success 'every corpus log: stored, typed as INDEX.tsv says' '
	for f in "$CORPUS"/[0-9]*.txt; do
		id=$(collect --db "$DB" --log "$f" --label "$(basename "$f")" 2>>log) ||
			{ echo "failed: $f"; cat log; return 1; }
		echo "$(basename "$f") $id" >>ids || return 1
	done &&
	test "$(q "SELECT count(*) FROM boots WHERE source = '"'log'"'")" = \
		"$(ls "$CORPUS"/[0-9]*.txt | wc -l)" &&
	tail -n +2 "$CORPUS/INDEX.tsv" | cut -f1,2 | sort >expect &&
	q "SELECT b.label, r.type FROM boots b JOIN reports r ON r.boot_id = b.id
	   WHERE r.seq = (SELECT min(seq) FROM reports x WHERE x.boot_id = b.id
	                  AND x.type = (SELECT type FROM reports y
	                  WHERE y.boot_id = b.id ORDER BY y.seq LIMIT 1))" |
		tr "|" "\t" | sort >actual.all &&
	join -t "	" expect actual.all >joined &&
	while IFS="	" read -r file want got; do
		test "$want" = "$got" || { echo "$file: $want != $got"; exit 1; }
	done <joined &&
	test "$(wc -l <joined)" = "$(wc -l <expect)"
'

test_expect_success 'lockdep-report --db prints what lockdep-report FILE prints' '
	for f in 034-circular.txt 010-hardirq-safe-unsafe.txt 031-held-lock-freed.txt; do
		rm -f one.db &&
		collect --db one.db --log "$CORPUS/$f" >/dev/null 2>&1 &&
		"$BIN/lockdep-report" --json "$CORPUS/$f" >from-file &&
		"$BIN/lockdep-report" --db one.db --json >from-db &&
		test_cmp from-file from-db &&
		"$BIN/lockdep-report" "$CORPUS/$f" >from-file &&
		"$BIN/lockdep-report" --db one.db >from-db &&
		test_cmp from-file from-db || return 1
	done
'

test_expect_success 'hostile lock names round-trip exactly' '
	name="x\"'"'"'); DROP TABLE boots;--%s%n\\\\tab	é\$(id)" &&
	sed "s/&fs_info->delayed_iput_lock/$(printf "%s" "$name" | sed "s/[&/\\\\]/\\\\&/g")/g" \
		"$CORPUS/007-inconsistent.txt" >hostile.log &&
	grep -qF "$name" hostile.log &&
	rm -f h.db && collect --db h.db --log hostile.log >id 2>err &&
	sqlite3 h.db "SELECT DISTINCT name FROM report_locks WHERE name LIKE '"'x%'"'" >got &&
	printf "%s\n" "$name" >want &&
	test_cmp want got &&
	"$BIN/lockdep-report" --json hostile.log >from-file &&
	"$BIN/lockdep-report" --db h.db --json >from-db &&
	test_cmp from-file from-db &&
	test "$(sqlite3 h.db "SELECT count(*) FROM boots")" = 1
'

test_expect_success 'a raw directory from the real 6.1 fixtures' '
	raw_from_fixtures raw &&
	id=$(collect_plain --db raw.db --raw-dir raw --label fixture 2>err) &&
	test "$id" = 1 &&
	grep -qx "lockdep-collect: this kernel does not offer: /sys/kernel/debug/lockdep/graph, /sys/kernel/debug/lockdep_scenarios/list" err &&
	test "$(sqlite3 raw.db "SELECT not_offered FROM boots")" = \
		"/sys/kernel/debug/lockdep/graph, /sys/kernel/debug/lockdep_scenarios/list" &&
	grep -q "boot 1 stored" err &&
	test "$(sqlite3 raw.db "SELECT source || \" \" || completeness || \" \" || kernel_release || \" \" || build_id FROM boots")" = \
		"raw-dir complete 6.1.192+ 0123456789abcdef0123456789abcdef01234567" &&
	sqlite3 raw.db "SELECT config FROM boots" | grep -qx CONFIG_PROVE_LOCKING=y &&
	test "$(sqlite3 raw.db "SELECT count(*) FROM classes")" = \
		"$(grep -c " FD: " "$FIX/lockdep")" &&
	test "$(sqlite3 raw.db "SELECT count(*) FROM dependencies")" -gt 0 &&
	test "$(sqlite3 raw.db "SELECT count(*) FROM chains")" = \
		"$(grep -c "^irq_context" "$FIX/lockdep_chains")" &&
	test "$(sqlite3 raw.db "SELECT value FROM stats WHERE name = '"'lock-classes'"'")" = \
		"$(sed -n "s/^ *lock-classes: *\([0-9]*\).*/\1/p" "$FIX/lockdep_stats")" &&
	test "$(sqlite3 raw.db "SELECT count(*) FROM lock_stat")" -gt 0 &&
	test "$(sqlite3 raw.db "SELECT count(*) FROM files")" = 10 &&
	test "$(sqlite3 raw.db "SELECT outcome FROM selftest_summary")" = all-passed &&
	test "$(sqlite3 raw.db "SELECT count(*) FROM selftest")" -gt 100 &&
	test "$(sqlite3 raw.db "SELECT type FROM reports")" = circular-dependency &&
	sqlite3 raw.db "SELECT rtrim(manifest, char(10)) FROM boots" >manifest &&
	test_cmp raw/MANIFEST manifest &&
	"$BIN/lockdep-report" --db raw.db --list >list &&
	grep -q "circular-dependency" list
'

test_expect_success 'the queries of lockdep-db(5) run' '
	sed -n "/^\.SH EXAMPLES/,/^\.SH SEE ALSO/p" "$MAN/lockdep-db.5" |
		sed -n "/^\.EX/,/^\.EE/p" | grep -v "^\.E[XE]" |
		sed -e "s/\\\\-/-/g" -e "s/lockdep\.db/raw.db/" >queries.sh &&
	test "$(grep -c "^sqlite3" queries.sh)" -ge 8 &&
	(cd "$TRASH" && bash -e queries.sh) >out 2>err &&
	test_cmp /dev/null err &&
	grep -q "circular" out
'

test_expect_success 'a MANIFEST kmsg line of 150 gaps is read whole' '
	rm -rf gaps && mkdir gaps && cp -r raw/files gaps/ &&
	awk -F, -v OFS=, "{ \$2 = \$2 * 2; print }" raw/kmsg >gaps/kmsg &&
	n=$(wc -l <gaps/kmsg) &&
	list=$(seq 1 2 299 | sed "s/.*/&-&/" | paste -sd, -) &&
	raw_manifest gaps "kmsg complete $n 0 $((2 * (n - 1))) $list" &&
	test "$(tail -n 1 gaps/MANIFEST | wc -c)" -gt 1024 &&
	id=$(collect_plain --db gaps.db --raw-dir gaps 2>err) &&
	sqlite3 gaps.db "SELECT rtrim(manifest, char(10)) FROM boots" >manifest &&
	test_cmp gaps/MANIFEST manifest
'

test_expect_success 'a file the agent did not list ("unlisted") is read back' '
	rm -rf unl && cp -r raw unl &&
	sed -i "s|^file missing /sys/kernel/debug/lockdep/graph 0 ENOENT$|file missing /sys/kernel/debug/lockdep/graph 0 unlisted|" unl/MANIFEST &&
	grep -q "lockdep/graph 0 unlisted$" unl/MANIFEST &&
	id=$(collect_plain --db unl.db --raw-dir unl 2>err) &&
	sqlite3 unl.db "SELECT rtrim(manifest, char(10)) FROM boots" >manifest &&
	test_cmp unl/MANIFEST manifest
'

test_expect_success 'a partial raw directory: stored, exit 1' '
	cp -r raw partial &&
	sed -i "s|^file complete /proc/lock_stat .*|file incomplete /proc/lock_stat 100 ECONNRESET|" partial/MANIFEST &&
	head -c 100 raw/files/proc/lock_stat >partial/files/proc/lock_stat.incomplete &&
	rm partial/files/proc/lock_stat &&
	test_expect_code 1 collect --db raw.db --raw-dir partial >id 2>err &&
	test "$(sqlite3 raw.db "SELECT completeness FROM boots WHERE id = $(cat id)")" = partial &&
	test "$(sqlite3 raw.db "SELECT status || \" \" || bytes || \" \" || reason FROM files WHERE boot_id = $(cat id) AND path = '"'/proc/lock_stat'"'")" = \
		"incomplete 100 ECONNRESET"
'

test_expect_success 'garbage kmsg: error names the file and line, db unchanged' '
	DB=raw.db && snapshot &&
	cp -r raw bad && sed -i "5s/.*/this is not a kmsg record/" bad/kmsg &&
	test_expect_code 2 collect --db raw.db --raw-dir bad >out 2>err && test ! -s out &&
	grep -q "bad/kmsg:5: malformed kmsg record" err &&
	grep -q "nothing was stored" err &&
	unchanged
'

test_expect_success 'kmsg records fewer or more than the MANIFEST counts: exit 2, db unchanged' '
	DB=raw.db && snapshot &&
	rm -rf bad && cp -r raw bad && : >bad/kmsg &&
	test_expect_code 2 collect --db raw.db --raw-dir bad >out 2>err && test ! -s out &&
	grep -q "bad/kmsg: 0 records, but .*MANIFEST. counts $(wc -l <raw/kmsg)" err &&
	sed -i "\$d" bad/MANIFEST && echo "kmsg incomplete 0 - - - EPIPE" >>bad/MANIFEST &&
	head -n 3 raw/kmsg >bad/kmsg &&
	test_expect_code 2 collect --db raw.db --raw-dir bad >out 2>err && grep -q "bad/kmsg: 3 records, but .*MANIFEST. counts 0" err &&
	unchanged
'

test_expect_success 'garbage /proc/lockdep: error names the file and line, db unchanged' '
	DB=raw.db && snapshot &&
	rm -rf bad && cp -r raw bad &&
	sed -i "3s/.*/@@@ garbage @@@/" bad/files/proc/lockdep &&
	test_expect_code 2 collect --db raw.db --raw-dir bad >out 2>err &&
	grep -q "bad/files/proc/lockdep:3:" err &&
	unchanged
'

test_expect_success 'module section files: stored; garbage is an error naming the file' '
	DB=raw.db &&
	rm -rf sec && cp -r raw sec &&
	s=/sys/module/test_mod/sections &&
	mkdir -p "sec/files$s" &&
	echo 0xffffffffc0200000 >"sec/files$s/.text" &&
	echo "file complete $s/.text 19" >>sec/MANIFEST &&
	id=$(collect_plain --db raw.db --raw-dir sec 2>err) &&
	test "$(sqlite3 raw.db "SELECT bytes FROM files WHERE boot_id = $id
		AND path = '"'/sys/module/test_mod/sections/.text'"'")" = 19 &&
	snapshot &&
	for bad in garbage "0xffffffffc0200000 0x1" 0x1ffffffffc0200000 \
		   ffffffffc0200000 "0x-1"; do
		printf "%s\n" "$bad" >"sec/files$s/.text" &&
		sed -i "s|^file complete $s/.text .*|file complete $s/.text $(wc -c <"sec/files$s/.text")|" sec/MANIFEST &&
		test_expect_code 2 collect --db raw.db --raw-dir sec >out 2>err && test ! -s out &&
		grep -q "sec/files$s/.text:1: " err || return 1
	done &&
	unchanged &&
	# a path outside the pattern is refused, whatever the MANIFEST says
	echo 0x1 >"sec/files$s/.text" &&
	sed -i "s|^file complete $s/.text .*|file complete /sys/module/x/sections/../../../etc/passwd 4|" sec/MANIFEST &&
	test_expect_code 2 collect --db raw.db --raw-dir sec 2>err && grep -q "not on the agent.s allow-list" err &&
	unchanged
'

test_expect_success 'bad MANIFEST, missing MANIFEST, binary log: exit 2, db unchanged' '
	DB=raw.db && snapshot &&
	rm -rf bad && cp -r raw bad && sed -i "3s/.*/file whatever/" bad/MANIFEST &&
	test_expect_code 2 collect --db raw.db --raw-dir bad 2>err && grep -q "bad/MANIFEST:3:" err &&
	rm bad/MANIFEST &&
	test_expect_code 2 collect --db raw.db --raw-dir bad 2>err && grep -q "bad/MANIFEST" err &&
	{ echo "[ 1.0] hello"; printf "a\000b\n"; } >bin.log &&
	test_expect_code 2 collect --db raw.db --log bin.log 2>err && grep -q "bin.log:2: binary data" err &&
	test_expect_code 2 collect --db raw.db --log no-such.log 2>err && grep -q "unable to open .no-such.log." err &&
	unchanged
'

test_expect_success 'a line over 1 MiB: error names input and line, collect exits 2, db unchanged' '
	DB=raw.db && snapshot &&
	head -c 1048577 /dev/zero | tr "\\000" a >long &&
	{ cat "$CORPUS/034-circular.txt"; echo "[ 9.0] $(cat long)";
	  cat "$CORPUS/034-circular.txt"; } >long.log &&
	n=$(($(wc -l <"$CORPUS/034-circular.txt") + 1)) &&
	test_expect_code 2 collect --db raw.db --log long.log >out 2>err && test ! -s out &&
	grep -q "long.log:$n: a line longer than 1048576 bytes" err &&
	(ulimit -v 400000 && test_expect_code 2 collect --db raw.db --log /dev/zero >out 2>err) &&
	grep -q "/dev/zero:1: a line longer than" err &&
	rm -rf bad && cp -r raw bad && { head -n 2 raw/kmsg; echo "6,9999,0,-;$(cat long)"; } >bad/kmsg &&
	test_expect_code 2 collect --db raw.db --raw-dir bad >out 2>err && grep -q "bad/kmsg:3: a line longer than" err &&
	rm -rf bad && cp -r raw bad && cat long >>bad/MANIFEST &&
	test_expect_code 2 collect --db raw.db --raw-dir bad >out 2>err && grep -q "bad/MANIFEST:$(($(wc -l <raw/MANIFEST) + 1)): a line longer than" err &&
	mkdir -p longproc && cp "$FIX"/lockdep* "$FIX/lock_stat" longproc/ &&
	cat long >>longproc/lockdep_stats &&
	test_expect_code 2 collect --db raw.db --proc-dir longproc >out 2>err && grep -q "longproc/lockdep_stats:$(($(wc -l <"$FIX/lockdep_stats") + 1)): a line longer than" err &&
	unchanged &&
	test_expect_code 1 "$BIN/lockdep-report" --list long.log >out 2>err && test "$(wc -l <out)" = 1 &&
	grep -q "long.log:$n: a line longer than 1048576 bytes" err
'

test_expect_success 'not a database: refused, file untouched' '
	echo "just some text, not SQLite" >text.db && cp text.db text.orig &&
	test_expect_code 2 collect --db text.db --log "$CORPUS/034-circular.txt" 2>err && grep -q "text.db" err && cmp text.db text.orig
'

test_expect_success '--proc-dir: the real 6.1 /proc files' '
	id=$(collect --db proc.db --proc-dir "$FIX" 2>err) &&
	test "$(sqlite3 proc.db "SELECT source || \" \" || completeness FROM boots WHERE id = $id")" = "proc-dir complete" &&
	test "$(sqlite3 proc.db "SELECT count(*) FROM classes")" -gt 100 &&
	mkdir some && cp "$FIX/lockdep_stats" some/ &&
	test_expect_code 1 collect --db proc.db --proc-dir some >/dev/null 2>err &&
	grep -q "collection is partial: .some/lockdep. is missing, .some/lockdep_chains. is missing$" err &&
	mkdir none && test_expect_code 2 collect --db proc.db --proc-dir none 2>err && grep -q "none. holds none of" err
'

test_expect_success 'an empty log, empty /proc files: said, never a complete boot' '
	DB=proc.db && snapshot &&
	: >empty.log &&
	test_expect_code 2 collect --db proc.db --log empty.log >out 2>err && test ! -s out && grep -q "empty.log. is empty" err &&
	test_expect_code 2 collect --db proc.db --log - </dev/null >out 2>err && grep -q "is empty" err &&
	rm -rf e && mkdir e && : >e/lockdep && : >e/lockdep_stats &&
	: >e/lockdep_chains && : >e/lock_stat &&
	test_expect_code 2 collect --db proc.db --proc-dir e >out 2>err && test ! -s out && grep -q "e/lockdep. is empty" err &&
	unchanged &&
	cp "$FIX/lockdep" e/ &&
	test_expect_code 1 collect --db proc.db --proc-dir e >id 2>err && grep -q "e/lock_stat. is empty" err &&
	grep -q "collection is partial: .e/lockdep_stats. is empty, .e/lockdep_chains. is empty, .e/lock_stat. is empty$" err &&
	test "$(sqlite3 proc.db "SELECT completeness FROM boots WHERE id = $(cat id)")" = partial
'

test_expect_success 'class names with a NUL or a trailing CR are stored byte for byte' '
	rm -rf nul && mkdir nul && cp "$FIX/lockdep" nul/ &&
	printf "(____ptrval____) FD:    1 BD:    1 ....: nul\\000AAA\n -> [(____ptrval____)] nul\\000BBB\n\n" >>nul/lockdep &&
	printf "(____ptrval____) FD:    1 BD:    1 ....: nul\\000BBB\n\n" >>nul/lockdep &&
	printf "(____ptrval____) FD:    1 BD:    1 ....: cr\\r\n\n" >>nul/lockdep &&
	test_expect_code 1 collect --db nul.db --proc-dir nul >id 2>err &&
	test "$(sqlite3 nul.db "SELECT count(*) FROM classes") " = "$(($(grep -c " FD: " "$FIX/lockdep") + 3)) " &&
	sqlite3 nul.db "SELECT hex(name), hex(identity) FROM classes
		WHERE hex(name) LIKE hex('"'nul'"') || '"'00%'"'
		   OR hex(name) LIKE hex('"'cr'"') || '"'%'"' ORDER BY 1" >got &&
	n=6E756C && c=6372 &&
	printf "%s|%s\n" "${c}0D" "${c}0D" "${n}00414141" "${n}00414141" \
		"${n}00424242" "${n}00424242" >want &&
	test_cmp want got &&
	sqlite3 nul.db "SELECT hex(f.name) || '"' '"' || hex(t.name) FROM dependencies d
		JOIN classes f ON f.id = d.from_class JOIN classes t ON t.id = d.to_class
		WHERE hex(f.name) LIKE hex('"'nul'"') || '"'00%'"'" >got &&
	echo "${n}00414141 ${n}00424242" >want &&
	test_cmp want got
'

test_expect_success 'a symbolic link or a FIFO among the inputs is refused, db unchanged' '
	DB=proc.db && snapshot &&
	echo "root:secret-hash:19000:0:99999:7:::" >shadow &&
	rm -rf p && mkdir p && cp "$FIX"/lockdep* "$FIX/lock_stat" p/ &&
	ln -s "$TRASH/shadow" p/cmdline &&
	test_expect_code 2 collect --db proc.db --proc-dir p >out 2>err && grep -q "p/cmdline. is a symbolic link" err &&
	rm p/cmdline && mkfifo p/cmdline &&
	test_expect_code 2 timeout 20 "$BIN/lockdep-collect" --db proc.db --proc-dir p >out 2>err && grep -q "p/cmdline. is not a regular file" err &&
	unchanged && ! grep -q secret-hash proc.db &&
	DB=raw.db && snapshot &&
	rm -rf bad && cp -r raw bad && rm bad/files/proc/cmdline &&
	ln -s "$TRASH/shadow" bad/files/proc/cmdline &&
	sed -i "s|^file complete /proc/cmdline .*|file complete /proc/cmdline $(wc -c <shadow)|" bad/MANIFEST &&
	test_expect_code 2 collect --db raw.db --raw-dir bad >out 2>err && grep -q "bad/files/proc/cmdline. is a symbolic link" err &&
	rm -rf bad && cp -r raw bad && mv bad/kmsg kmsg.real && ln -s "$TRASH/kmsg.real" bad/kmsg &&
	test_expect_code 2 collect --db raw.db --raw-dir bad >out 2>err && grep -q "bad/kmsg. is a symbolic link" err &&
	rm -rf bad && cp -r raw bad && mv bad/MANIFEST M.real && ln -s "$TRASH/M.real" bad/MANIFEST &&
	test_expect_code 2 collect --db raw.db --raw-dir bad >out 2>err && grep -q "bad/MANIFEST. is a symbolic link" err &&
	unchanged && ! grep -q secret-hash raw.db
'

test_expect_success 'a stored boot is never exit 2: stdout full, file size limit' '
	if [ -w /dev/full ]; then
		test_expect_code 1 collect --db full.db --log "$CORPUS/034-circular.txt" >/dev/full 2>err && grep -q "boot 1 stored" err &&
		grep -q "unable to write the boot.s id to standard output" err &&
		test "$(sqlite3 full.db "SELECT count(*) FROM boots")" = 1
	fi &&
	# the boot fits in the write-ahead log, the database file cannot grow
	rm -rf x && mkdir x && cp "$FIX/lockdep" "$FIX/lockdep_stats" \
		"$FIX/lockdep_chains" "$FIX/lock_stat" x/ &&
	head -c 3000000 /dev/zero | tr "\\000" a | fold -w 1000 >x/cmdline &&
	collect_plain --db big.db --proc-dir x >/dev/null 2>&1 &&
	collect_plain --db big.db --proc-dir x >/dev/null 2>&1 &&
	blocks=$(($(stat -c %s big.db) / 1024 + 1)) &&
	(ulimit -f $blocks && test_expect_code 3 "$BIN/lockdep-collect" --db big.db --proc-dir x >id 2>err) &&
	test "$(cat id)" = 3 && grep -q "write-ahead log" err &&
	test "$(sqlite3 big.db "SELECT count(*) FROM boots")" = 3 &&
	(ulimit -f 200 && test_expect_code 2 "$BIN/lockdep-collect" --db big.db --proc-dir x >id 2>err) &&
	grep -q "nothing was stored" err &&
	test "$(sqlite3 big.db "SELECT count(*) FROM boots")" = 3
'

test_expect_success '--local: this machine, read only, lockdep or not' '
	test_expect_code 0,1,3 collect --db local.db --local >id 2>err &&
	test "$(sqlite3 local.db "SELECT kernel_release FROM boots")" = "$(uname -r)" &&
	# without lockdep: said once, not partial for it
	if [ ! -e /proc/lockdep ]; then
		test "$(grep -c "this kernel has no lockdep" err)" = 1 &&
		! grep -q "/proc/lockdep.*missing" err
	fi
'

test_expect_success 'live from a real agent: --raw-dir and --db, --duration' '
	{ "$BIN/lockdep-agent" --listen agent.sock 2>agent.err & } &&
	echo $! >agent.pid &&
	for _ in $(seq 50); do [ -S agent.sock ] && break; sleep 0.1; done &&
	test_expect_code 0,1,3 collect --socket agent.sock --raw-dir live --db live.db \
		--timeout 10 --duration 1 --poweroff >id 2>err &&
	wait "$(cat agent.pid)" &&
	grep -q "records followed" err &&
	test "$(cat id)" = 1 &&
	sqlite3 live.db "SELECT rtrim(manifest, char(10)) FROM boots" >manifest &&
	test_cmp live/MANIFEST manifest &&
	test "$(sqlite3 live.db "SELECT kernel_release FROM boots")" = "$(uname -r)"
'

test_expect_success 'live: the raw copy fails after the boot was stored: not exit 2' '
	{ "$BIN/lockdep-agent" --listen agent3.sock 2>agent.err & } &&
	pid=$! &&
	for _ in $(seq 50); do [ -S agent3.sock ] && break; sleep 0.1; done &&
	mkdir -p rawfail/MANIFEST.tmp &&
	test_expect_code 1 collect --socket agent3.sock --raw-dir rawfail --db rf.db \
		--timeout 10 --poweroff >id 2>err &&
	wait "$pid" &&
	grep -q "MANIFEST.tmp" err &&
	grep -q "boot 1 stored" err && test "$(cat id)" = 1 &&
	test "$(sqlite3 rf.db "SELECT count(*) FROM boots")" = 1
'

test_expect_success 'live --follow ends when the guest goes away' '
	{ "$BIN/lockdep-agent" --listen agent2.sock 2>agent.err & } &&
	pid=$! &&
	for _ in $(seq 50); do [ -S agent2.sock ] && break; sleep 0.1; done &&
	{ { sleep 2; kill "$pid"; } & } &&
	test_expect_code 0,1 collect --socket agent2.sock --db live2.db --timeout 10 \
		--follow >id 2>err &&
	grep -q "the guest closed the connection" err &&
	test "$(sqlite3 live2.db "SELECT count(*) FROM boots")" = 1
'

test_expect_success 'lockdep-report --db: --boot, --all, --show, errors' '
	"$BIN/lockdep-report" --db raw.db --all --list >all &&
	test "$(wc -l <all)" = "$(sqlite3 raw.db "SELECT count(*) FROM reports")" &&
	rid=$(sqlite3 raw.db "SELECT min(id) FROM reports") &&
	"$BIN/lockdep-report" --db raw.db --show "$rid" --json >one &&
	grep -q "\"id\":$rid" one &&
	test_expect_code 2 "$BIN/lockdep-report" --db raw.db --boot 999 2>err && grep -q "no boot 999" err &&
	test_expect_code 64 "$BIN/lockdep-report" --db raw.db --show 1 --list 2>err &&
	test_expect_code 64 "$BIN/lockdep-report" --boot 1 x.log 2>err
'

test_done
