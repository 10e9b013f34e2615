/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recognisers for the shapes of single lockdep report lines, shared by
 * the kernel log parser (klog.c) and its unit tests. Each takes the text
 * of one logical line (prefixes stripped, leading blanks allowed) and
 * fills its output only when it returns true.
 */
#ifndef PARSE_KLOG_SHAPES_H
#define PARSE_KLOG_SHAPES_H

#include <stdbool.h>
#include <stddef.h>

#include "parse/report.h"

/*
 * A stack frame in any format the kernel has printed:
 *   func+0x1e/0x2d [mod]          ? func+0x1e/0x2d
 *   [<ffffffff8108eb06>] ? func+0x917/0xcf7 [videodev]
 *   [func+14/45] func+0xe/0x2d    ([<0000000000100a06>] func+0xee/0x144)
 *   func+0x28/0xe0 fs/btrfs/inode.c:3523    spin_lock include/x.h:350 [inline]
 *   [<ffffffffa02ff000>] ? 0xffffffffa02fefff    ... [<addr>] func+0x8/0x34
 *   func+0x10/0x20 [mod 4f1ab3...]  (module build id)
 * On success *f owns its strings (frame_release()).
 */
bool klog_parse_frame(const char *s, struct ldr_frame *f);

/*
 * An ARM32 unwinder line, "[<80de0078>] (dump_backtrace) from
 * [<80de0354>] (show_stack+0x28/0x2c)" (before 4.x the first name has
 * its offset too): the function that called and the one it was called
 * from. On success both own their strings (frame_release()).
 */
bool klog_parse_arm_frame(const char *s, struct ldr_frame *callee,
			  struct ldr_frame *caller);

/*
 * A line of addr2line or decode_stacktrace.sh pasted between a report's
 * lines: "func at fs/x.c:12", "(inlined by) func at fs/x.c:12",
 * "func at kernel/sched/core.c:1957 (discriminator 4)".
 */
bool klog_addr2line_line(const char *s);

/*
 * A lock as print_lock()/print_lock_name() write it, with optional held
 * index and instance address in front:
 *   " #1: ffff888020d36378 (&ctx->cq_wait){....}-{2:2}, at: frame"
 *   " (&ifa->lock){-+..}, at: [<f8b2d836>] frame"
 *   "-> #1 (btrfs-tree-02){++++}-{3:3}:"
 * legacy selects the 2.6.18-2.6.29 usage character order. On success *l
 * is filled (role 0, to be set by the caller; lock_release() it) and *rest points after the "}" or "-{x:y}".
 * The "at:" frame is not parsed here (see klog.c).
 */
bool klog_parse_lock(const char *s, struct ldr_lock *l, bool legacy,
		     const char **rest);

/*
 * Decode a usage string ("+.?." without braces) into LDR_USAGE_* bits.
 *   4 or 6 chars, 2.6.30+: pairs (W, R) per state HARDIRQ, SOFTIRQ
 *     [, RECLAIM_FS]; '-' = IN-x, '+' = x-ON, '?' = both.
 *   4 chars, legacy (2.6.18-2.6.29): HARDIRQ, SOFTIRQ, HARDIRQ-R,
 *     SOFTIRQ-R; '+' = IN-x, '-' = x-ON, '?' = both.
 * Unknown characters decode to no bit.
 */
unsigned int klog_decode_usage(const char *usage, size_t len, bool legacy);

/* Split "name#3/1" by proc_split_name(), the class name a new string. */
void klog_split_lock_name(const char *name, char **class_name,
			  unsigned int *version, unsigned int *subclass);

struct klog_header {
	enum ldr_type type;
	bool old_format;	/* "[ INFO: ... ]" */
	char *detail;		/* the limit ("MAX_LOCK_DEPTH"), the irq class,
				 * or the "comm/pid" of the header; or NULL */
};

/* The first line of a lockdep report ("WARNING: possible ..."). */
bool klog_parse_header(const char *s, struct klog_header *h);
/* "WARNING: CPU: 0 PID: 1 at kernel/locking/lockdep.c:232 f": a WARN() */
bool klog_lockdep_warning(const char *s);

#endif
