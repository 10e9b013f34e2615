# SPDX-License-Identifier: GPL-2.0
# Minimal git-style test library: source it, call test_expect_success,
# end with test_done. Output is TAP. Sourced, never run.
#
#   test_expect_success 'what it checks' '
#       cmd1 &&
#       cmd2
#   '
# Each test body runs in a subshell inside a fresh scratch directory
# ($TRASH); $TOP is the repository root, $BIN the built tools.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
BIN=${BIN:-$TOP/build/bin}
CORPUS=${CORPUS:-$TOP/../shared/corpus}
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/ldt-test.XXXXXX")
# The tools' symbol index cache (lockdep-symbolise(1)): a scratch one,
# never the user's. Its background builders end before it is removed.
export XDG_CACHE_HOME=$TRASH/.cache
trap 'for l in "$XDG_CACHE_HOME"/lockdep-tools/*.lock; do
	[ -e "$l" ] && flock "$l" true
done; rm -rf "$TRASH"' EXIT
_n=0
_failed=0

# The chain-lint (git's t/test-lib.sh): a body is one && chain, so a
# failed step cannot be followed by a later step that succeeds and hides
# it. "(exit 117) && BODY" must exit 117: a step joined by ";", a
# newline or "||" runs anyway and changes that. It runs before the body,
# in an empty directory of its own, and fails the test when broken.
_chain_lint() {
	local lint=$TRASH/.chain-lint rc
	rm -rf "$lint" && mkdir "$lint" || return 1
	(cd "$lint" && eval "(exit 117) && $1") </dev/null >/dev/null 2>&1
	rc=$?
	rm -rf "$lint"
	test "$rc" = 117
}

test_expect_success() {
	local desc=$1 body=$2
	_n=$((_n + 1))
	if ! _chain_lint "$body"; then
		echo "not ok $_n - $desc"
		echo "#   broken &&-chain: a step of this body is not joined by &&:"
		printf '%s\n' "$body" | sed 's/^/#   | /'
		_failed=$((_failed + 1))
		return
	fi
	# fd 4: the test's own output, for the helpers' messages when
	# the body sends a command's stderr to a file
	if (cd "$TRASH" && eval "$body") >"$TRASH/.out" 2>&1 4>&1; then
		echo "ok $_n - $desc"
	else
		echo "not ok $_n - $desc"
		sed 's/^/#   /' "$TRASH/.out"
		_failed=$((_failed + 1))
	fi
}

# test_skip DESC REASON: a test that cannot run here, said so in TAP.
# tests/run-tap.sh fails a skip whose REASON is not on its list of
# reasons outside what make check builds ("its own target: make X", "no
# network for apt: ...", "no report corpus: ..."); any other skip is
# reported, and failed there.
test_skip() {
	_n=$((_n + 1))
	echo "ok $_n # skip $1 (reason: $2)"
}

# test_skip_all DESC REASON: nothing in this file can run here: one
# skipped test, the plan, and the file ends.
test_skip_all() {
	test_skip "$1" "$2"
	test_done
	exit 0
}

# _say MSG: a helper's failure message, on the test's output (fd 4)
# when there is one, else on stderr
_say() {
	if { true >&4; } 2>/dev/null; then
		echo "$*" >&4
	else
		echo "$*" >&2
	fi
}

# test_expect_code CODE CMD...: CMD exits with exactly CODE (git's
# t/test-lib.sh), or with one of CODE's comma-separated list ("0,3":
# what a host with or without lockdep answers). Use it, or
# test_must_fail, for every exit status a test checks: a `cmd || rc=$?`
# chain hides an earlier failure.
test_expect_code() {
	local want=$1 got
	shift
	"$@"
	got=$?
	case ",$want," in *",$got,"*) return 0 ;; esac
	_say "test_expect_code: '$*' exited $got, expected $want"
	return 1
}

# test_must_fail CMD...: CMD fails the way a tool fails, with a status
# of its own: not 0, not "not found" (127), not killed by a signal.
test_must_fail() {
	local got
	"$@"
	got=$?
	if test "$got" = 0; then
		_say "test_must_fail: '$*' succeeded"
		return 1
	elif test "$got" = 127; then
		_say "test_must_fail: '$*': command not found"
		return 1
	elif test "$got" -gt 128 && test "$got" -le 192; then
		_say "test_must_fail: '$*' killed by signal $((got - 128))"
		return 1
	fi
	return 0
}

# test_cmp EXPECTED ACTUAL: diff, shown on failure.
test_cmp() {
	diff -u "$1" "$2"
}

# man_synopsis MAN TOOL: MAN renders without groff warnings and its
# SYNOPSIS names every option of TOOL's usage lines (TOOL --help).
man_synopsis() {
	local opt
	groff -ww -z -man "$1" 2>groff.err && test_cmp /dev/null groff.err &&
	groff -man -Tascii -P-cbou -rLL=200n "$1" >man.txt 2>/dev/null &&
	sed -n "/^SYNOPSIS/,/^DESCRIPTION/p" man.txt >synopsis &&
	for opt in $("$2" --help | sed -n "/^usage:/,/^\$/p" |
		     grep -o -- "--*[a-z-]*[a-z]"); do
		grep -q -- "$opt" synopsis || { echo "missing $opt"; return 1; }
	done
}

# raw_manifest DIR KMSG_LINE: DIR/MANIFEST for a raw directory made by
# hand, as lockdep-collect writes one: every allow-listed file, in the
# agent's order, "complete" with its size where DIR/files has it and
# "missing ... ENOENT" where not, then KMSG_LINE. The graph export is
# listed as $RAW_GRAPH when set (/proc/lockdep_graph, the v2 series'
# name, in a raw directory of older tools), else as $GRAPH_PATH.
GRAPH_PATH=/sys/kernel/debug/lockdep/graph
raw_manifest() {
	local d=$1 f
	{
		echo "# lockdep-collect MANIFEST 1"
		echo "agent lockdep-agent 1 Linux 6.1.192+ x86_64"
		for f in /proc/lockdep /proc/lockdep_stats /proc/lockdep_chains \
			 /proc/lock_stat /proc/version /proc/cmdline \
			 /proc/config.gz /sys/kernel/notes "${RAW_GRAPH:-$GRAPH_PATH}" \
			 /sys/kernel/debug/lockdep_scenarios/list; do
			if [ -f "$d/files$f" ]; then
				echo "file complete $f $(wc -c <"$d/files$f")"
			else
				echo "file missing $f 0 ENOENT"
			fi
		done
		echo "$2"
	} >"$d/MANIFEST"
}

FIX61=$TOP/lockdep-tools/tests/fixtures/6.1

# kmsg_from_log: a console log on stdin as /dev/kmsg records on stdout,
# first sequence number $1 (the kernel's escaping of '\' included)
kmsg_from_log() {
	awk -v seq="$1" '{
		t = 0; s = $0
		if (match(s, /^\[ *[0-9]+\.[0-9]+\] ?/)) {
			t = substr(s, 2, RLENGTH - 2); sub(/\] ?$/, "", t)
			s = substr(s, RLENGTH + 1)
		}
		gsub(/\\/, "\\x5c", s)
		split(t, p, "."); us = p[1] * 1000000 + p[2]
		printf "6,%d,%d,-;%s\n", seq++, us, s
	}'
}

# start_agent [AGENT-ARGS...]: lockdep-agent on ./agent.sock (with
# AGENT-ARGS, e.g. --workload SCRIPT), its pid in ./agent.pid, its stderr
# in ./agent.err; fails if the socket is not there within 5 s
start_agent() {
	"$BIN/lockdep-agent" --listen agent.sock "$@" 2>agent.err &
	echo $! >agent.pid
	for _ in $(seq 50); do
		[ -S agent.sock ] && return 0
		sleep 0.1
	done
	return 1
}

# collect_rc WANT ARGS: lockdep-collect exits WANT; stderr in ./err
collect_rc() {
	local want=$1
	shift
	test_expect_code "$want" "$BIN/lockdep-collect" "$@" >id 2>err || { cat err; return 1; }
}

# raw_from_fixtures DIR [FIX [graph]]: a raw directory as lockdep-collect
# --raw-dir writes it, from the real files of FIX (none or "": the 6.1
# fixtures, whose kernel log then also carries corpus report 034); no
# graph export unless the third argument says "graph"
raw_from_fixtures() {
	local d=$1 fix=${2:-$FIX61} f n
	mkdir -p "$d/files/proc" "$d/files/sys/kernel/debug/lockdep" &&
	for f in lockdep lockdep_stats lockdep_chains lock_stat; do
		cp "$fix/$f" "$d/files/proc/$f" || return 1
	done &&
	if [ "${3:-}" = graph ]; then
		cp "$fix/lockdep_graph" "$d/files$GRAPH_PATH"
	fi &&
	head -n 1 "$fix/console.log" | sed "s/^\[[^]]*\] //" >"$d/files/proc/version" &&
	echo "console=ttyS0 panic=-1" >"$d/files/proc/cmdline" &&
	printf "CONFIG_LOCKDEP=y\nCONFIG_PROVE_LOCKING=y\n" | gzip >"$d/files/proc/config.gz" &&
	# one ELF note: namesz 4, descsz 20, type 3 (NT_GNU_BUILD_ID), "GNU\0"
	printf "\004\000\000\000\024\000\000\000\003\000\000\000GNU\000" >"$d/files/sys/kernel/notes" &&
	printf "\001\043\105\147\211\253\315\357\001\043\105\147\211\253\315\357\001\043\105\147" >>"$d/files/sys/kernel/notes" &&
	{ cat "$fix/console.log"
	  [ -n "${2:-}" ] || cat "$CORPUS/034-circular.txt"; } |
		kmsg_from_log 0 >"$d/kmsg" &&
	n=$(wc -l <"$d/kmsg") &&
	raw_manifest "$d" "kmsg complete $n 0 $((n - 1)) -"
}

# plain_proc_dir DIR / patched_proc_dir DIR: the real /proc files of
# our 6.1 guest (fixtures/6.1) as a kernel without our series offers
# them (no lockdep_graph: see fixtures/README.proc), or with the export.
plain_proc_dir() {
	local f
	mkdir -p "$1" &&
	for f in lockdep lockdep_stats lockdep_chains lock_stat; do
		cp "$FIX61/$f" "$1/" || return 1
	done
}
patched_proc_dir() {
	plain_proc_dir "$1" &&
	cp "$FIX61/lockdep_graph" "$1/"
}

# snapshot, then unchanged: the database $DB holds what it held at the
# snapshot (nothing stored is lost or changed by a refused input).
# The SQL that takes a database back from schema version 17 to 16 (the
# lockdep_stats series), from 17 to 15 (and the reproducer runs), from 17
# to 14 (and the union kept by lockdep-merge), from 17 to 12 (and the
# class events; 14 only moved indexes), from 17 to 11 (the dependency
# event stream), and from 10 to 9 (the dependency packs, with 11's stamp
# column), for the tests of older databases.
UNDO_V17="DROP VIEW stats_sample_steps;
	DROP TABLE stats_sample_values;
	DROP TABLE stats_samples"
UNDO_V16="$UNDO_V17; DROP TABLE repro_runs"
UNDO_V15="$UNDO_V16; DROP TRIGGER union_boot_delete; DROP TRIGGER union_boot_update;
	DROP TRIGGER union_class_insert; DROP TRIGGER union_class_update;
	DROP TRIGGER union_class_delete; DROP TRIGGER union_dep_insert;
	DROP TRIGGER union_dep_update; DROP TRIGGER union_dep_delete;
	DROP TRIGGER union_trace_insert; DROP TRIGGER union_trace_update;
	DROP TRIGGER union_trace_delete; DROP TABLE union_packs;
	DROP TABLE union_deps; DROP TABLE union_ambiguous;
	DROP TABLE union_classes; DROP TABLE union_state"
UNDO_V13="$UNDO_V15;
	DROP VIEW dependency_event_names;
	DROP VIEW class_event_spans;
	DROP TABLE class_events"
UNDO_V12="$UNDO_V13;
	DROP VIEW dependency_first_seen;
	DROP TABLE dependency_events;
	DROP TABLE event_streams"
UNDO_V10="DROP TABLE dependency_packs;
	DROP TRIGGER dependency_packs_dep_insert;
	DROP TRIGGER dependency_packs_dep_update;
	DROP TRIGGER dependency_packs_dep_delete;
	DROP TRIGGER dependency_packs_class_insert;
	DROP TRIGGER dependency_packs_class_update;
	DROP TRIGGER dependency_packs_class_delete;
	DROP INDEX dependencies_boot"

snapshot() { sqlite3 "$DB" .dump >"$TRASH/db.before"; }
unchanged() { sqlite3 "$DB" .dump >"$TRASH/db.after" && cmp "$TRASH/db.before" "$TRASH/db.after"; }

test_done() {
	echo "1..$_n"
	[ "$_failed" = 0 ]
}
