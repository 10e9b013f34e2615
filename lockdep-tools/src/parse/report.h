/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parsed form of one lockdep report, whatever input it came from.
 *
 * A parser (kernel log today; the agent's kmsg stream and the store later)
 * fills a struct ldr_report, report_finish() derives the title and the
 * dedup key, and consumers (the text and JSON printers, the SQLite store)
 * read it. Everything a report points to is owned by it and freed by
 * report_free().
 *
 * Invariants:
 *  (1) Every index field (ldr_chain_link.lock/.stack, ldr_stack.lock,
 *      ldr_report.backtrace) is -1 or a valid index into its array.
 *  (2) ldr_lock.name is the class name exactly as the kernel printed it,
 *      "#version" and "/subclass" suffixes included; ldr_lock.class_name
 *      is the same without those suffixes.
 *  (3) chain[] is in the order the kernel printed the "-> #N" entries
 *      (N counting down to #0, the lock being acquired).
 *  (4) Strings are never NULL except where a field says "or NULL".
 *  (5) A report with truncated set was cut before lockdep finished
 *      printing it; whatever was parsed is still there.
 */
#ifndef PARSE_REPORT_H
#define PARSE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ldr_type {
	LDR_CIRCULAR_DEPENDENCY,
	LDR_RECURSIVE_LOCKING,
	LDR_INCONSISTENT_LOCK_STATE,
	LDR_IRQ_SAFE_UNSAFE_ORDER,
	LDR_IRQ_LOCK_INVERSION,
	LDR_BAD_UNLOCK_BALANCE,
	LDR_BAD_UNLOCK_ORDER,
	LDR_HELD_LOCK_FREED,
	LDR_LOCKS_HELD_AT_EXIT,
	LDR_LOCK_HELD_RETURNING_TO_USER,
	LDR_NESTED_LOCK_NOT_TAKEN,
	LDR_SUSPICIOUS_RCU_USAGE,
	LDR_INVALID_WAIT_CONTEXT,
	LDR_LOCKDEP_LIMIT,
	LDR_NON_STATIC_KEY,
	LDR_CHAIN_KEY_COLLISION,
	LDR_BAD_CONTENTION,
	LDR_HELD_LOCKS_DUMP,
	LDR_OTHER_LOCKDEP,
	LDR_TYPE_NR
};

/* "circular-dependency", ...; NULL if out of range. */
const char *ldr_type_name(enum ldr_type type);
/* The type named name, or -1. */
int ldr_type_from_name(const char *name);

/* What a lock is to the report (JSON "role"). */
enum ldr_role {
	LDR_ROLE_ACQUIRING,	/* trying to acquire / lock, takes, changed state */
	LDR_ROLE_HOLDING,	/* "but task is already holding" */
	LDR_ROLE_RELEASING,	/* bad unlock: the lock being released */
	LDR_ROLE_EXPECTED,	/* bad unlock order: the next lock to release */
	LDR_ROLE_CONTENDING,	/* bad contention: the lock contended */
	LDR_ROLE_FREED,		/* held lock freed: the lock in freed memory */
	LDR_ROLE_NEST_LOCK,	/* nested lock not taken: the missing nest lock */
	LDR_ROLE_IRQ_SAFE,	/* the irq-safe lock of an irq order report */
	LDR_ROLE_IRQ_UNSAFE,	/* the irq-unsafe lock */
	LDR_ROLE_CHAIN,		/* a "-> #N" entry of the dependency chain */
	LDR_ROLE_DEPENDENCY,	/* a class of a dependency dump "-> (x) {" */
	LDR_ROLE_HELD,		/* an entry of an "N locks held by" list */
	LDR_ROLE_OTHER,		/* any other lock lockdep printed */
	LDR_ROLE_NR
};

const char *ldr_role_name(enum ldr_role role);

/*
 * Usage bits, decoded from the {....} string. The names are the kernel's
 * own (usage_str[]): IN-x-W means "taken in x context", x-ON-W "taken
 * with x enabled"; -R are the read-side variants.
 */
enum ldr_usage_state { LDR_HARDIRQ, LDR_SOFTIRQ, LDR_RECLAIM_FS, LDR_STATE_NR };
#define LDR_USAGE_IN(state)		(1u << ((state) * 4 + 0))
#define LDR_USAGE_IN_READ(state)	(1u << ((state) * 4 + 1))
#define LDR_USAGE_ON(state)		(1u << ((state) * 4 + 2))
#define LDR_USAGE_ON_READ(state)	(1u << ((state) * 4 + 3))
#define LDR_USAGE_BITS			(LDR_STATE_NR * 4)
/* Name of bit number bit ("IN-HARDIRQ-W"), NULL if out of range. */
const char *ldr_usage_bit_name(unsigned int bit);

/*
 * A call inlined at a frame's address, from symbolisation: func's code is
 * at file:line. In a frame's inline chain (innermost first), entry k>0's
 * file:line is the call site of entry k-1, and the frame's own file:line
 * is the call site of the last entry (addr2line -i order).
 */
struct ldr_inline {
	char *func;
	char *file;		/* or NULL if unknown */
	unsigned int line;
};

/* One stack frame as printed, whatever the kernel's format. */
struct ldr_frame {
	char *func;		/* or NULL for a bare address ("0xffffffff") */
	unsigned long long off, size;	/* valid if has_off */
	unsigned long long addr;	/* [<addr>] or the bare address */
	char *module;		/* "[ext4]", or NULL */
	char *build_id;		/* "[ext4 <build id>]", or NULL */
	char *file;		/* "fs/btrfs/inode.c:3523" source, or NULL */
	unsigned int line;	/* with file; 0 if not printed */
	bool has_off;
	bool has_addr;
	bool unreliable;	/* "? " */
	bool inlined;		/* "[inline]" */
	struct ldr_inline *inl;	/* symbolised inline chain, or NULL */
	size_t nr_inl;
	/*
	 * file and the inline chain's strings, or func, are the
	 * symboliser's, not the frame's (SYMBOLISE_BORROW,
	 * symbolise/symbolise.h): not freed
	 */
	bool source_borrowed, func_borrowed;
};

struct ldr_frames {
	struct ldr_frame *v;
	size_t nr, alloc;
};

/* A labelled stack: the backtrace, a chain link's trace, "IN-HARDIRQ-W at". */
struct ldr_stack {
	char *label;
	int lock;		/* the lock it belongs to, or -1 */
	struct ldr_frames frames;
};

struct ldr_lock {
	enum ldr_role role;
	char *name;		/* as printed: class[#version][/subclass] */
	char *class_name;	/* without the suffixes */
	unsigned int version;	/* #N, 0 if none */
	unsigned int subclass;	/* /N, 0 if none */
	char *usage;		/* the {...} text without braces, or NULL */
	unsigned int usage_bits;	/* LDR_USAGE_* */
	int wait_outer, wait_inner;	/* -{outer:inner}, -1 if not printed */
	unsigned long long addr;	/* lock instance, valid if has_addr */
	bool has_addr;
	int index;		/* #N of a held list or chain entry, else -1 */
	char *holder;		/* "comm/pid" owning a held entry, or NULL */
	struct ldr_frames at;	/* the ", at:" location(s) */
	unsigned long line;	/* input line number */
};

struct ldr_chain_link {
	int lock;
	int stack;
};

/* A row of the "Possible unsafe locking scenario" table. */
struct ldr_scenario_row {
	int cpu;		/* column: 0 = CPU0, 1 = CPU1 */
	char *text;		/* "lock(&x->lock);", "<Interrupt>", ... */
};

/* "hardirqs last  enabled at (39): ..." and friends. */
struct ldr_irq_event {
	char *what;		/* "hardirqs-on", "hardirqs-off", "softirqs-on", ... */
	unsigned long long stamp;
	struct ldr_frames frames;
};

struct ldr_raw_line {
	unsigned long lineno;
	char *text;
};

struct ldr_report {
	unsigned int id;	/* 1-based, assigned by the parser */
	enum ldr_type type;
	char *input;		/* input name, "-" for stdin */
	char *header;		/* the header line as printed */
	char *title;		/* set by report_finish() */
	char *syzbot_title;	/* syzkaller's title, or NULL: report_finish() */
	char *dedup_key;	/* set by report_finish() */
	char *message;		/* the report's own message line, or NULL */
	char *release;		/* kernel release, or NULL */
	char *taint;		/* "" if "Not tainted", flags, or NULL */
	char *task;		/* comm, or NULL */
	long pid, cpu;		/* -1 if unknown */
	char *irq_context;	/* "HC0[0]:SC0[0]:HE1:SE1", or NULL */
	char *hardware;		/* "Hardware name:" value, or NULL */
	char *irq_class;	/* HARDIRQ / SOFTIRQ of irq reports, or NULL */
	unsigned long long irq_event_stamp;
	bool has_irq_event_stamp;
	bool old_format;	/* "[ INFO: ... ]" era header */
	bool truncated;
	unsigned long first_line, last_line;
	/* the kernel log record of first_line, when the input had them */
	uint64_t kmsg_seq;
	bool has_kmsg_seq;

	struct ldr_lock *locks;
	size_t nr_locks, alloc_locks;
	struct ldr_stack *stacks;
	size_t nr_stacks, alloc_stacks;
	int backtrace;		/* stack index of "stack backtrace", or -1 */
	struct ldr_chain_link *chain;
	size_t nr_chain, alloc_chain;
	char **chain_summary;	/* "Chain exists of:" class names */
	size_t nr_chain_summary, alloc_chain_summary;
	struct ldr_scenario_row *scenario;
	size_t nr_scenario, alloc_scenario;
	struct ldr_irq_event *irq_events;
	size_t nr_irq_events, alloc_irq_events;
	char **notes;		/* other lockdep remarks, e.g. lockdep turned off */
	size_t nr_notes, alloc_notes;
	struct ldr_raw_line *raw;
	size_t nr_raw, alloc_raw;
	size_t raw_dropped;	/* lines beyond LDR_MAX_RAW_LINES */
};

#define LDR_MAX_RAW_LINES 100000

struct ldr_report *report_new(enum ldr_type type, const char *input);
void report_free(struct ldr_report *r);

/* Append helpers; each returns the new element's index. */
int report_add_lock(struct ldr_report *r, enum ldr_role role);
int report_add_stack(struct ldr_report *r, const char *label, int lock);
void report_add_raw(struct ldr_report *r, unsigned long lineno,
		    const char *text);
void report_add_note(struct ldr_report *r, const char *text);
struct ldr_frame *frames_add(struct ldr_frames *f);
void frames_release(struct ldr_frames *f);
void frame_release(struct ldr_frame *f);
void lock_release(struct ldr_lock *l);
/* Replace *field with a copy of s (which may be NULL). */
void report_set(char **field, const char *s);

/*
 * Derive title, syzbot_title and dedup_key from the parsed fields; call
 * once, when the parser is done with the report. See report-title.c for
 * the rules.
 */
void report_finish(struct ldr_report *r);
/* Only syzbot_title, for a report read back with its stored title. */
void report_make_syzbot_title(struct ldr_report *r);
/*
 * Put syzbot_title in title, for printers that show one title
 * (lockdep-report --title=syzbot); a report syzkaller does not title on
 * its own (a held locks dump) keeps ours.
 */
void report_title_as_syzbot(struct ldr_report *r);

/*
 * The first frame of @f outside the locking and freeing primitives (the
 * caller that took the lock), or NULL.
 */
const struct ldr_frame *report_pick_frame(const struct ldr_frames *f);
/* The frame the titles blame, or NULL (exposed for tests). */
const struct ldr_frame *report_guilty_frame(const struct ldr_report *r);

#endif
