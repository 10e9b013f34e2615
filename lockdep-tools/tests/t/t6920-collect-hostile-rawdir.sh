#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-collect on hostile raw directories and MANIFESTs

A raw directory is untrusted: a symbolic link at any level beneath it,
a malformed number in its MANIFEST, a cut config.gz are refused with an
error naming the input, and nothing is stored.'
. "$(dirname "$0")/lib.sh"

collect() { "$BIN/lockdep-collect" "$@"; }
boots() { sqlite3 "$1" "SELECT count(*) FROM boots"; }

test_expect_success 'setup: a raw directory from the 6.1 fixtures' '
	raw_from_fixtures raw &&
	test_expect_code 3 collect --db ok.db --raw-dir raw >id 2>err &&
	test "$(boots ok.db)" = 1
'

test_expect_success 'a symbolic link to a directory beneath the raw directory is refused' '
	mkdir -p elsewhere/kernel &&
	echo "Linux version 9.9.9-host (planted)" >elsewhere/version &&
	cp raw/files/sys/kernel/notes elsewhere/kernel/notes &&
	for link in files/proc files/sys/kernel files; do
		rm -rf bad elsewhere/proc elsewhere/k2 elsewhere/files &&
		cp -r raw bad &&
		case $link in
		files/proc) rm -r bad/files/proc && cp -r raw/files/proc elsewhere/proc &&
			cp elsewhere/version elsewhere/proc/version &&
			ln -s "$TRASH/elsewhere/proc" bad/files/proc ;;
		files/sys/kernel) rm -r bad/files/sys/kernel && cp -r raw/files/sys/kernel elsewhere/k2 &&
			ln -s "$TRASH/elsewhere/k2" bad/files/sys/kernel ;;
		files) mv bad/files elsewhere/files && ln -s "$TRASH/elsewhere/files" bad/files ;;
		esac &&
		raw_manifest bad "$(grep "^kmsg " raw/MANIFEST)" &&
		rm -f bad.db &&
		test_expect_code 2 collect --db bad.db --raw-dir bad >id 2>err &&
		grep -q "bad/$link. is a symbolic link" err &&
		test ! -s bad.db -o "$(boots bad.db 2>/dev/null || echo 0)" = 0 ||
		{ echo "link $link:"; cat err; return 1; }
	done
'

test_expect_success 'a graph export listing one dependency twice is refused, naming the line' '
	rm -rf dup && raw_from_fixtures dup "$FIX61" graph &&
	g=dup/files$GRAPH_PATH &&
	first=$(grep -n -m1 "^dep " "$g" | cut -d: -f1) &&
	set -- $(sed -n "${first}p" "$g") &&
	sed -i "$((first + 1))s/^dep .*/dep $2 $3 0x4 3 $6/" "$g" &&
	raw_manifest dup "$(grep "^kmsg " dup/MANIFEST)" &&
	test_expect_code 2 collect --db dup.db --raw-dir dup >id 2>err &&
	grep -q "lockdep/graph:$((first + 1)): dependency $2 -> $3 listed twice" err &&
	test "$(boots dup.db)" = 0
'

# with_config NAME: raw directory NAME, its config.gz from stdin
with_config() {
	rm -rf "$1" && cp -r raw "$1" &&
	cat >"$1/files/proc/config.gz" &&
	raw_manifest "$1" "$(grep "^kmsg " raw/MANIFEST)"
}

test_expect_success 'config.gz: every gzip member is stored' '
	{ printf "CONFIG_A=y\n" | gzip && printf "CONFIG_B=y\n" | gzip; } |
		with_config two &&
	test_expect_code 3 collect --db two.db --raw-dir two >id 2>err &&
	printf "CONFIG_A=y\nCONFIG_B=y\n\n" >want &&
	sqlite3 two.db "SELECT config FROM boots" >got &&
	test_cmp want got
'

test_expect_success 'config.gz: trailing bytes or a NUL are refused, nothing stored' '
	{ printf "CONFIG_A=y\n" | gzip && printf "junk"; } | with_config trail &&
	test_expect_code 2 collect --db trail.db --raw-dir trail >id 2>err &&
	grep -q "config.gz.*trailing" err &&
	test "$(boots trail.db)" = 0 &&
	printf "CONFIG_A=y\n\000CONFIG_B=y\n" | gzip | with_config nul &&
	test_expect_code 2 collect --db nul.db --raw-dir nul >id 2>err &&
	grep -q "config.gz.*NUL" err &&
	test "$(boots nul.db)" = 0
'

test_expect_success 'MANIFEST numbers: only plain decimal in range' '
	v=$(wc -c <raw/files/proc/version) &&
	n=$(grep "^kmsg " raw/MANIFEST | cut -d" " -f3) &&
	last=$((n - 1)) &&
	for edit in "s|^file complete /proc/version .*|file complete /proc/version ${v}x|" \
		"s|^file complete /proc/version .*|file complete /proc/version +$v|" \
		"s|^file complete /proc/version .*|file complete /proc/version -18446744073709551616|" \
		"s|^file complete /proc/version .*|file complete /proc/version 18446744073709551617|" \
		"s|^kmsg complete $n |kmsg complete ${n}junk |" \
		"s|^kmsg complete $n |kmsg complete +$n |" \
		"s|^kmsg complete $n 0 $last -|kmsg complete $n 0 ${last}x -|" \
		"s|^kmsg complete $n 0 $last -|kmsg complete $n -0 $last -|" \
		"s|^kmsg complete $n 0 $last -|kmsg complete $n 0 $last +1-2|" \
		"s|^kmsg complete $n 0 $last -|kmsg complete $n 0 $last 1--2|" \
		"s|^file missing /sys/kernel/debug/lockdep/graph 0 ENOENT|file missing /sys/kernel/debug/lockdep/graph 0 errno-5x|" \
		"s|^file missing /sys/kernel/debug/lockdep/graph 0 ENOENT|file missing /sys/kernel/debug/lockdep/graph 0 errno-4294967301|" \
		"s|^file missing /sys/kernel/debug/lockdep/graph 0 ENOENT|file missing /sys/kernel/debug/lockdep/graph 0 errno--5|" \
		"s|^file missing /sys/kernel/debug/lockdep/graph 0 ENOENT|file missing /sys/kernel/debug/lockdep/graph 0 errno-0|"; do
		rm -rf lax && cp -r raw lax && sed -i "$edit" lax/MANIFEST &&
		! cmp -s raw/MANIFEST lax/MANIFEST &&
		rm -f lax.db &&
		test_expect_code 2 collect --db lax.db --raw-dir lax >id 2>err &&
		grep -q "lax/MANIFEST:[0-9]*: " err ||
		{ echo "edit: $edit"; cat err; return 1; }
	done
'

test_expect_success 'a /proc/cmdline over 1 MiB, or with a NUL, is refused' '
	rm -rf long && cp -r raw long &&
	head -c 1048577 /dev/zero | tr "\\000" x >long/files/proc/cmdline &&
	raw_manifest long "$(grep "^kmsg " raw/MANIFEST)" &&
	test_expect_code 2 collect --db long.db --raw-dir long >id 2>err &&
	grep -q "proc/cmdline.*longer than 1 MiB" err &&
	test "$(boots long.db)" = 0 &&
	printf "console=ttyS0\000secret" >long/files/proc/cmdline &&
	raw_manifest long "$(grep "^kmsg " raw/MANIFEST)" &&
	test_expect_code 2 collect --db long.db --raw-dir long >id 2>err &&
	grep -q "proc/cmdline.*NUL" err &&
	test "$(boots long.db)" = 0
'

test_expect_success 'an event line over 1 MiB is refused, naming the line' '
	rm -rf ev && cp -r raw ev &&
	{ printf "# tracer: nop\n" &&
	  head -c 1048577 /dev/zero | tr "\\000" x && echo; } >ev/events &&
	echo "events $(wc -c <ev/events)" >>ev/MANIFEST &&
	test_expect_code 2 collect --db ev.db --raw-dir ev >id 2>err &&
	grep -q "events:2: .*longer than 1 MiB" err &&
	test "$(boots ev.db)" = 0
'

test_expect_success 'a MANIFEST trigger name that --trigger would refuse is malformed' '
	long=$(head -c 5000 /dev/zero | tr "\\000" a) &&
	for name in "$long" "Bad" "a/b" "x.y"; do
		rm -rf trig && cp -r raw trig &&
		echo "trigger done $name" >>trig/MANIFEST &&
		test_expect_code 2 collect --db trig.db --raw-dir trig >id 2>err &&
		grep -q "trig/MANIFEST:[0-9]*: .*scenario name" err ||
		{ echo "name: $name"; cat err; return 1; }
	done
'

test_expect_success 'a graph export listing one trace twice is refused, naming the line' '
	rm -rf dupt && raw_from_fixtures dupt "$FIX61" graph &&
	g=dupt/files$GRAPH_PATH &&
	first=$(grep -n -m1 "^trace " "$g" | cut -d: -f1) &&
	id=$(sed -n "${first}p" "$g" | cut -d" " -f2) &&
	sed -i "$((first + 1))s/^trace [0-9]* /trace $id /" "$g" &&
	raw_manifest dupt "$(grep "^kmsg " dupt/MANIFEST)" &&
	test_expect_code 2 collect --db dupt.db --raw-dir dupt >id 2>err &&
	grep -q "lockdep/graph:$((first + 1)): trace $id listed twice" err &&
	! grep -q UNIQUE err &&
	test "$(boots dupt.db)" = 0
'

test_done
