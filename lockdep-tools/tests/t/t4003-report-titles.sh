#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-report names the function syzbot names

The title and syzbot_title of each corpus report, as written down by
reading the report (syzkaller'"'"'s rule for its type applied by hand),
and one fixture per title rule.'

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/report-lib.sh"

FIX=$TOP/lockdep-tools/tests/fixtures/titles

# titles_are FILE TITLE SYZBOT_TITLE (exit 1, a truncated report, is fine)
titles_are() {
	cp "$1" in.log &&
	test_expect_code 0,1 "$BIN/lockdep-report" --pretty in.log >in.json 2>/dev/null &&
	json_titles in.json >actual &&
	printf "%s\t%s\n" "$2" "$3" >expect &&
	test_cmp expect actual
}

# file, title, syzbot_title (028: syzkaller titles the hung task that
# printed the dump, not the dump; 002: its "at:" sites are symbolic, not
# the "[<pc>]" syzkaller's pattern for the bracketed era needs, so the
# title is the header; 041: that pattern takes the "at:" function as
# printed, a lock primitive too)
cat >"$TRASH/corpus-titles" <<'EOT'
002-circular.txt	possible deadlock in __crypto_lookup_template	INFO: possible circular locking dependency detected ]
003-inconsistent.txt	inconsistent lock state in inet6_addr_add	inconsistent lock state in inet6_addr_add
007-inconsistent.txt	inconsistent lock state in btrfs_run_delayed_iputs	inconsistent lock state in btrfs_run_delayed_iputs
010-hardirq-safe-unsafe.txt	possible deadlock in io_link_timeout_fn	possible deadlock in io_link_timeout_fn
016-recursive.txt	possible deadlock in __wake_up_common_lock	possible deadlock in __wake_up_common_lock
018-circular.txt	possible deadlock in __btrfs_tree_lock	possible deadlock in __btrfs_tree_lock
020-circular.txt	possible deadlock in io_uring_mmap	possible deadlock in io_uring_mmap
025-nested-lock-not-taken.txt	nested lock was not taken in evict	WARNING: nested lock was not taken in evict
026-suspicious-rcu.txt	suspicious RCU usage in ipv6_flowlabel_opt	INFO: suspicious RCU usage in ipv6_flowlabel_opt
028-hung-task-locks-held.txt	locks held in the system	null
031-held-lock-freed.txt	held lock freed in sctp_sendmsg	BUG: held lock freed in sctp_sendmsg
032-lock-held-returning-user.txt	lock held when returning to user space in fuse_lock_inode	WARNING: lock held when returning to user space in fuse_lock_inode
033-still-has-locks-held.txt	still has locks held in pipe_lock	BUG: still has locks held in pipe_lock
034-circular.txt	possible deadlock in __blocking_notifier_call_chain	possible deadlock in __blocking_notifier_call_chain
035-max-lockdep-chain-hlocks.txt	MAX_LOCKDEP_CHAIN_HLOCKS too low	BUG: MAX_LOCKDEP_CHAIN_HLOCKS too low!
037-bad-unlock-balance.txt	bad unlock balance in generic_sync_sb_inodes	BUG: bad unlock balance in generic_sync_sb_inodes
039-softirq-safe-unsafe.txt	possible deadlock in meth_tx	possible deadlock in meth_tx
041-recursive.txt	possible deadlock in lock_cpu_hotplug	possible deadlock in mutex_lock
045-circular.txt	possible deadlock in shm_close	possible deadlock in shm_close
048-recursive.txt	possible deadlock in find_ref_lock	possible deadlock in find_ref_lock
EOT

if [ -r "$CORPUS/INDEX.tsv" ]; then
	while IFS=$'\t' read -r file title syz; do
		export file title syz
		test_expect_success "$file: $syz" '
			titles_are "$CORPUS/$file" "$title" "$syz"
		'
	done <"$TRASH/corpus-titles"
else
	test_skip 'corpus titles' "no report corpus: no $CORPUS/INDEX.tsv"
fi

# fixture, title, syzbot_title: one per rule of report-title.c
# (irq-safe-cut: syzkaller reads on from the cut irq-safe stack into the
# irq-unsafe one; held-freed-no-at: it takes the first "at:" as printed)
while IFS=$'\t' read -r fix title syz; do
	export fix title syz
	test_expect_success "$fix: $syz" '
		titles_are "$FIX/$fix" "$title" "$syz"
	'
done <<'EOT'
circular-wq-at.log	possible deadlock in mlx_teardown	possible deadlock in mlx_teardown
irq-safe-cut.log	possible deadlock in snd_timer_close	possible deadlock in snd_timer_user_tselect
held-freed-no-at.log	held lock freed in tipc_release	WARNING: held lock freed in lock_sock_nested
arm64-inconsistent.log	inconsistent lock state in hci_conn_timeout	inconsistent lock state in hci_conn_timeout
rcu-syscall-prefix.log	suspicious RCU usage in __sys_bpf	WARNING: suspicious RCU usage in bpf
invalid-wait-innocent.log	invalid wait context in nf_tables_commit	WARNING: locking bug in nf_tables_commit
printk-flush-nmi.log	inconsistent lock state in watchdog_overflow_callback	inconsistent lock state in watchdog_overflow_callback
iput-fill-super.log	trying to register non-static key in befs_fill_super	INFO: trying to register non-static key in befs_fill_super
cxx-mangled.log	possible deadlock in kbase::JobSlot::softStop	possible deadlock in kbase::JobSlot::softStop
wq-flush-fragment.log	possible deadlock in flush_workqueue	possible deadlock in flush_workqueue
panic-on-warn-cut.log	locking bug in snd_seq_ioctl_delete_port	WARNING: locking bug in snd_seq_ioctl_delete_port
gpf-in-lockdep.log	invalid wait context in rfcomm_dlc_close	WARNING: locking bug in rfcomm_dlc_close
EOT

test_done
