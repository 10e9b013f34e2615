#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-report on the log shapes of real public logs

One fixture per shape: console text glued before the time stamp, a bare
"kernel: " prefix with rsyslog escapes, z/VM "00: " CPU prefixes with
frames cut in two and addr2line lines between them, ARM32 "Backtrace:"
frames, lockdep WARN()s, another task'"'"'s stack in the backtrace, and
mail wrapping at 80 columns with CRLF ends. Each must be found, typed,
titled and complete (exit 0, not truncated).'

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/report-lib.sh"

FIX=$TOP/lockdep-tools/tests/fixtures/shapes

# fixture, then the --list lines expected
check_list() {
	cp "$FIX/$1" in.log &&
	"$BIN/lockdep-report" --list in.log >out 2>err &&
	test_must_be_empty err &&
	test_cmp expect out
}

# summary_is EXPECTED: json_summary of in.log (into out.json)
summary_is() {
	"$BIN/lockdep-report" --pretty in.log >out.json &&
	json_summary out.json >summary &&
	printf "%s\n" "$1" >expect &&
	test_cmp expect summary
}

test_must_be_empty() {
	test ! -s "$1" || { cat "$1"; return 1; }
}

test_expect_success 'console text glued before the time stamp' '
	printf "1 recursive-locking           possible deadlock in ep_item_poll\n" >expect &&
	check_list glued-console.log &&
	summary_is "$(printf "recursive-locking\tfalse\t&ep->mtx\t")" &&
	test "$(grep -c "\"role\": \"holding\"" out.json)" = 1
'

test_expect_success 'a bare "kernel: " prefix with #012 escapes' '
	printf "1 circular-dependency         possible deadlock in i915_gem_retire_work_handler\n" >expect &&
	check_list bare-kernel-prefix.log &&
	summary_is "$(printf "circular-dependency\tfalse\t&dev->struct_mutex,(&(&dev_priv->mm.retire_work)->work),\"events\"\t(&(&dev_priv->mm.retire_work)->work),&dev->struct_mutex")"
'

test_expect_success 'mail wrapping at 80 columns and CRLF ends' '
	printf "1 irq-safe-unsafe-order       possible deadlock in snd_timer_close\n" >expect &&
	check_list mail-wrapped-crlf.log &&
	"$BIN/lockdep-report" --pretty in.log >wrapped.json &&
	"$BIN/lockdep-report" --pretty "$TOP/lockdep-tools/tests/fixtures/titles/irq-safe-cut.log" >orig.json &&
	json_summary orig.json >expect &&
	json_summary wrapped.json >actual &&
	test_cmp expect actual &&
	grep "\"func\"" orig.json >expect &&
	grep "\"func\"" wrapped.json >actual &&
	test_cmp expect actual
'

test_expect_success 'z/VM "00: " prefix, a frame cut in two, addr2line lines' '
	printf "1 circular-dependency         possible deadlock in try_to_wake_up\n" >expect &&
	check_list s390-cpu-prefix.log &&
	summary_is "$(printf "circular-dependency\tfalse\t&p->pi_lock,&rq->lock\t&rq->lock,&p->pi_lock")" &&
	awk "/^    \"frames\": \\[/ { on = 1 } on && /\"func\"/ { print } /^    \\],?\$/ { on = 0 }" out.json >frames &&
	test "$(wc -l <frames)" = 15 &&
	grep -q "\"size\": 1240" out.json &&
	grep -q "\"message\": null" out.json
'

test_expect_success 'ARM32 "Backtrace:" frames' '
	printf "1 recursive-locking           possible deadlock in genpd_lock_mtx\n" >expect &&
	check_list arm32-backtrace.log &&
	"$BIN/lockdep-report" --pretty in.log >out.json &&
	awk "/^    \"frames\": \\[/ { on = 1 } on && /\"func\"/ { print } /^    \\],?\$/ { on = 0 }" out.json >frames &&
	sed -n "1p;9p;15p" frames >actual &&
	cat >expect <<-\EOT &&
	        "func": "dump_backtrace",
	        "func": "genpd_lock_mtx",
	        "func": "ret_from_fork",
	EOT
	test_cmp expect actual &&
	test "$(wc -l <frames)" = 15
'

test_expect_success 'lockdep WARN()s, with and without DEBUG_LOCKS_WARN_ON' '
	cat >expect <<-\EOT &&
	1 other-lockdep               locking bug in hrtimer_start_range_ns
	2 other-lockdep               locking bug in nsim_dev_trap_report_work
	EOT
	check_list lockdep-warning.log &&
	"$BIN/lockdep-report" --pretty in.log >out.json &&
	json_titles out.json >actual &&
	cat >expect <<-\EOT &&
	locking bug in hrtimer_start_range_ns	WARNING: locking bug in hrtimer_start_range_ns
	locking bug in nsim_dev_trap_report_work	WARNING: locking bug in nsim_dev_trap_report_work
	EOT
	test_cmp expect actual
'

test_expect_success 'another task'"'"'s stack in the backtrace is left out' '
	printf "1 inconsistent-lock-state     inconsistent lock state in nfs_commit_release_pages\n" >expect &&
	check_list other-task-stack.log &&
	"$BIN/lockdep-report" --pretty in.log >out.json &&
	awk "/^    \"frames\": \\[/ { on = 1 } on && /\"func\"/ { print } /^    \\],?\$/ { on = 0 }" out.json >frames &&
	! grep -q "neigh_periodic_work\|kthread" frames &&
	test "$(wc -l <frames)" = 14
'

# irq-inversion.log is written by hand in the form of 6.1's
# print_irq_inversion_bug() (the corpus has no such report): its type is
# its own, not the irq-safe -> irq-unsafe order it resembles.
test_expect_success 'an irq lock inversion is typed as one, not as an irq-safe -> irq-unsafe order' '
	printf "1 irq-lock-inversion          possible deadlock in demo_irq_handler\n" >expect &&
	check_list irq-inversion.log &&
	summary_is "$(printf "irq-lock-inversion\tfalse\t&dev->stats_lock,&dev->cfg_lock\t")"
'

test_done
