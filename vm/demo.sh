#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The end-to-end demo ('make demo'). Six guest boots, each collected
# through the agent into build/demo/lockdep.db (frames symbolised against
# build/linux/vmlinux, raw files kept in build/vm/demo-NAME/):
#   abba   the scenario module's ABBA case: lockdep reports the cycle
#   ab     only the A -> B half of an ABBA pair: clean on its own
#   ba     only the B -> A half: clean on its own
#   i-mutex  a directory's and a file's inode mutex without nesting
#          annotation: lockdep reports recursive locking
#   idle   nothing run: the baseline of the next one
#   workload  vm/workloads/all.sh (ext4 + jbd2, loop, tmpfs, TCP/UDP/AF_UNIX,
#          pipes, epoll, IPC on every CPU, a sysfs sweep): the classes,
#          dependencies and chains it adds to the idle boot's
# Then the tools read the database: the reports, a picture of the cycle
# that only the union of boots ab and ba has, the diff ab -> ba, which
# names that cycle as new, and the advice on the reports of boots abba (a
# real deadlock: no annotation) and i-mutex (an annotation, with its
# patch against build/linux), and what fills lockdep's tables in the
# workload boot (lockdep-report --capacity): the demo ends with its
# headroom line, the fullest table and its top consumer.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=demo

out=$BUILD/demo
db=$out/lockdep.db
bin=$BUILD/bin
mkdir -p "$out"
rm -f "$db" "$db-wal" "$db-shm"

# demo_boot NAME [BOOT OPTIONS...] [-- COLLECT ARGS...]: one collected
# boot, stored as NAME.
demo_boot() {
	local name=$1 opts=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	[ $# = 0 ] || shift
	"$TOP/vm/boot.sh" -n "demo-$name" "${opts[@]}" -- --db "$db" --label "$name" \
		--vmlinux "$KSRC/vmlinux" --modules "$KSRC" "$@" \
		>/dev/null 2>"$LOGS/demo-$name.log" || {
		echo "demo: error: boot '$name' failed; last lines of $LOGS/demo-$name.log:" >&2
		tail -n 15 "$LOGS/demo-$name.log" >&2
		exit 1
	}
	progress "boot '$name' stored in ${db#"$TOP"/}"
}

demo_boot abba -- --trigger abba
demo_boot ab -- --trigger ab-order
demo_boot ba -- --trigger ba-order
demo_boot i-mutex -- --trigger i-mutex
demo_boot idle
demo_boot workload -r "$TOP/vm/workloads/all.sh" -f "$TOP/vm/workloads"

"$bin/lockdep-report" --db "$db" --all >"$out/reports.txt"
"$bin/lockdep-graph" --db "$db" --boots ab,ba --cycles -T svg -o "$out/cycles.svg"
"$bin/lockdep-graph" --db "$db" --boot workload -T html -o "$out/explorer.html"
rc=0
"$bin/lockdep-diff" --db "$db" --fail-on new-cycle ab ba >"$out/diff-ab-ba.txt" \
	2>"$LOGS/demo-diff.log" || rc=$?
[ $rc = 1 ] || { echo "demo: error: lockdep-diff ab ba found no new cycle (exit $rc)" >&2; exit 1; }
# Boot ids follow the order of the boots into the fresh database.
"$bin/lockdep-report" --db "$db" --boot 1 --advise --source "$KSRC" >"$out/advice-abba.txt"
"$bin/lockdep-report" --db "$db" --boot 4 --advise --source "$KSRC" >"$out/advice-i-mutex.txt"
grep -q '^advice: real deadlock' "$out/advice-abba.txt" &&
	! grep -q '^  patch:' "$out/advice-abba.txt" ||
	{ echo "demo: error: the abba boot was not advised a real deadlock (see $out/advice-abba.txt)" >&2; exit 1; }
grep -q '^  patch:' "$out/advice-i-mutex.txt" ||
	{ echo "demo: error: no patch advised for i-mutex (see $out/advice-i-mutex.txt)" >&2; exit 1; }
"$bin/lockdep-report" --db "$db" --boot workload --capacity >"$out/capacity.txt"
headroom=$(sed -n 's/^headroom: //p' "$out/capacity.txt")
[ -n "$headroom" ] ||
	{ echo "demo: error: no headroom line for the workload boot (see $out/capacity.txt)" >&2; exit 1; }
# counts LABEL: the boot's classes and chains as its /proc/lockdep_stats
# gave them, and its dependencies (A -> B pairs) as the database, the
# graph and the explorer count them: lockdep_stats' "direct dependencies"
# counts each one twice (it is on A's list after and on B's list before)
counts() {
	sqlite3 -separator ' ' "$db" "SELECT
		max(CASE s.name WHEN 'lock-classes' THEN s.value END),
		(SELECT count(*) FROM dependencies d WHERE d.boot_id = b.id),
		max(CASE s.name WHEN 'dependency chains' THEN s.value END)
		FROM stats s JOIN boots b ON b.id = s.boot_id WHERE b.label = '$1'"
}
read -r ic id ich <<<"$(counts idle)"
read -r wc wd wch <<<"$(counts workload)"
progress "done"

cat <<MSG
demo: database:     ${db#"$TOP"/}   (schema: man -l lockdep-tools/man/lockdep-db.5)
demo: reports:      ${out#"$TOP"/}/reports.txt   ($("$bin/lockdep-report" --db "$db" --all --list | wc -l) stored; boot 'abba' has the circular one)
demo: cycle svg:    ${out#"$TOP"/}/cycles.svg   (boots ab + ba: a cycle neither has alone)
demo: explorer:     ${out#"$TOP"/}/explorer.html   (the workload boot's graph, one page: open it in a browser)
demo: diff ab ba:   ${out#"$TOP"/}/diff-ab-ba.txt
demo: advice abba:  ${out#"$TOP"/}/advice-abba.txt   ($(sed -n 's/^advice: //p' "$out/advice-abba.txt" | head -1))
demo: advice i-mutex: ${out#"$TOP"/}/advice-i-mutex.txt   ($(sed -n 's/^advice: //p' "$out/advice-i-mutex.txt" | head -1); with its patch:)
$(sed -n '/^  patch:$/,$p' "$out/advice-i-mutex.txt" | tail -n +2 | sed 's/^/    /')
demo: workload:     all.sh on 2 CPUs: $wc classes, $wd dependencies (A -> B), $wch chains; the idle boot: $ic, $id, $ich
                    ($("$bin/lockdep-report" --db "$db" --boot 6 --list | wc -l) reports; output: build/vm/demo-workload/raw/workload.out)
demo: console logs: build/vm/demo-{abba,ab,ba,i-mutex,idle,workload}/console.log, raw files in build/vm/demo-*/raw/
demo: capacity:     ${out#"$TOP"/}/capacity.txt   (what fills lockdep's tables in the workload boot, and the BITS that hold it)
demo: headroom:     $headroom
MSG
