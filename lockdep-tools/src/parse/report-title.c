// SPDX-License-Identifier: GPL-2.0
/*
 * Titles and dedup keys of reports.
 *
 * Title: "<what> in <function>", in the manner of syzkaller, where the
 * function is the first frame of the backtrace that is neither lockdep's
 * own machinery, nor stack dumping, nor a lock primitive (spin_lock,
 * mutex_lock_nested, down_write, ...): the code that asked for the lock.
 * Unreliable ("?") frames are never chosen. Without a backtrace the
 * "at:" location of the report's main lock is used. Compiler suffixes
 * (".cold", ".isra.0", ".part.0", ".constprop.0") are dropped.
 *
 * Dedup key: 16 hex digits of the 64-bit FNV-1a hash of
 *   "<type>\n<lock>\n<lock>...\n<function>"
 * where the locks are, for a circular dependency, the chain in printed
 * order, otherwise the locks with a leading role (acquiring, holding,
 * releasing, expected, contending, freed, nest-lock, irq-safe,
 * irq-unsafe; else the held ones), and <function> is the title's
 * (left out for circular dependencies: the chain is the bug). Lock names
 * keep their "/subclass" but lose the "#version" suffix: versions number
 * same-named classes in registration order, which differs between boots
 * and machines, while subclasses are fixed in the source.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/report.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Frames that are never the culprit (glob patterns on the base name). */
static const char *const innocent[] = {
	/* stack dumping and report printing */
	"dump_stack*", "__dump_stack", "show_stack", "show_trace*",
	"dump_trace", "print_*", "printk*", "_printk", "vprintk*",
	/* lockdep itself */
	"lockdep_*", "__lockdep_*", "lock_acquire*", "__lock_acquire*",
	"lock_release*", "__lock_release*", "lock_acquired", "lock_contended",
	"lock_downgrade", "lock_sync", "lock_is_held*", "__lock_is_held",
	"mark_lock*", "mark_usage", "mark_held_locks", "valid_state",
	"check_noncircular", "check_prev_add", "check_prevs_add",
	"check_irq_usage", "check_usage*", "check_deadlock", "check_flags",
	"check_chain_key", "check_wait_context", "validate_chain",
	"add_chain_cache", "add_lock_to_list", "lookup_chain_cache_add",
	"register_lock_class", "look_up_lock_class", "hlock_class",
	"find_held_lock", "save_trace", "save_stack_trace*",
	"stack_trace_save*", "debug_check_no_locks_*", "debug_show_all_locks",
	"trace_hardirqs_*", "lock_map_acquire*", "lock_map_release",
	/* lock primitives */
	"_raw_spin_*", "__raw_spin_*", "raw_spin_*", "do_raw_spin_*",
	"_raw_read_*", "__raw_read_*", "do_raw_read_*",
	"_raw_write_*", "__raw_write_*", "do_raw_write_*",
	"_spin_*", "_read_*", "_write_*", "spin_lock*", "spin_unlock*",
	"spin_trylock*", "read_lock*", "read_unlock*", "write_lock*",
	"write_unlock*", "queued_spin_*", "queued_read_*", "queued_write_*",
	"native_queued_*", "__pv_queued_*", "rt_spin_*",
	"mutex_lock*", "mutex_unlock*", "mutex_trylock*", "__mutex_*",
	"ww_mutex_*", "__ww_mutex_*", "rt_mutex_*", "__rt_mutex_*",
	"down", "down_*", "__down*", "up", "up_read", "up_write", "__up*",
	"downgrade_write", "rwsem_*", "__rwsem_*", "percpu_down_*",
	"percpu_up_*", "__percpu_down_*", "__percpu_up_*", "percpu_rwsem_*",
	"rcu_read_lock*", "rcu_read_unlock*", "rcu_lock_acquire",
	"rcu_lock_release", "srcu_read_lock*", "__srcu_read_lock*",
	"lock_sock*", "__lock_sock", "release_sock", "local_bh_*",
	"__local_bh_*", "_local_bh_*", "seqcount_lockdep_reader_access",
	"__might_fault", "might_fault", "__might_sleep", "___might_sleep",
	"__might_resched", "fs_reclaim_*", "__fs_reclaim_*",
	"class_*_constructor", "class_*_destructor", "console_lock",
	"console_trylock", "console_unlock", "touch_wq_lockdep_map",
	"touch_work_lockdep_map",
	/* freeing memory (held lock freed is found while freeing) */
	"kfree", "kfree_*", "kvfree", "vfree*", "kmem_cache_free*",
	"__kmem_cache_free", "slab_free*", "__slab_free", "free_pages*",
	"__free_pages*", "debug_check_no_obj_freed",
};

/* Order of preference for the lock whose "at:" names the culprit. */
static const enum ldr_role main_roles[] = {
	LDR_ROLE_ACQUIRING, LDR_ROLE_RELEASING, LDR_ROLE_CONTENDING,
	LDR_ROLE_FREED, LDR_ROLE_HOLDING, LDR_ROLE_IRQ_UNSAFE,
	LDR_ROLE_EXPECTED, LDR_ROLE_NEST_LOCK, LDR_ROLE_IRQ_SAFE,
	LDR_ROLE_HELD,
};

/* The function name without compiler suffixes; caller frees. */
static char *base_name(const char *func)
{
	return xstrndup(func, strcspn(func, "."));
}

static bool is_innocent(const char *func)
{
	char *base = base_name(func);
	size_t i;
	bool res = false;

	for (i = 0; i < sizeof(innocent) / sizeof(innocent[0]) && !res; i++)
		res = !fnmatch(innocent[i], base, 0);
	free(base);
	return res;
}

const struct ldr_frame *report_pick_frame(const struct ldr_frames *f)
{
	size_t i;

	for (i = 0; i < f->nr; i++)
		if (f->v[i].func && !f->v[i].unreliable &&
		    !is_innocent(f->v[i].func))
			return &f->v[i];
	return NULL;
}

const struct ldr_frame *report_guilty_frame(const struct ldr_report *r)
{
	const struct ldr_frame *f;
	size_t i, k;

	if (r->backtrace >= 0 &&
	    (f = report_pick_frame(&r->stacks[r->backtrace].frames)))
		return f;
	for (k = 0; k < sizeof(main_roles) / sizeof(main_roles[0]); k++)
		for (i = 0; i < r->nr_locks; i++)
			if (r->locks[i].role == main_roles[k] &&
			    (f = report_pick_frame(&r->locks[i].at)))
				return f;
	return NULL;
}

static const char *what(const struct ldr_report *r)
{
	switch (r->type) {
	case LDR_CIRCULAR_DEPENDENCY:
	case LDR_RECURSIVE_LOCKING:
	case LDR_IRQ_SAFE_UNSAFE_ORDER:
	case LDR_IRQ_LOCK_INVERSION:
		return "possible deadlock";
	case LDR_INCONSISTENT_LOCK_STATE:
		return "inconsistent lock state";
	case LDR_BAD_UNLOCK_BALANCE:
		return "bad unlock balance";
	case LDR_BAD_UNLOCK_ORDER:
		return "bad unlock order";
	case LDR_HELD_LOCK_FREED:
		return "held lock freed";
	case LDR_LOCKS_HELD_AT_EXIT:
		return "still has locks held";
	case LDR_LOCK_HELD_RETURNING_TO_USER:
		return "lock held when returning to user space";
	case LDR_NESTED_LOCK_NOT_TAKEN:
		return "nested lock was not taken";
	case LDR_SUSPICIOUS_RCU_USAGE:
		return "suspicious RCU usage";
	case LDR_INVALID_WAIT_CONTEXT:
		return "invalid wait context";
	case LDR_LOCKDEP_LIMIT:
		return r->message ? r->message : "lockdep limit";
	case LDR_NON_STATIC_KEY:
		return "trying to register non-static key";
	case LDR_CHAIN_KEY_COLLISION:
		return "chain_key collision";
	case LDR_BAD_CONTENTION:
		return "bad contention";
	case LDR_HELD_LOCKS_DUMP:
		return "locks held in the system";
	case LDR_OTHER_LOCKDEP:
	case LDR_TYPE_NR:
		break;
	}
	return r->header;
}

static void make_title(struct ldr_report *r)
{
	const struct ldr_frame *f = NULL;
	struct strbuf sb = STRBUF_INIT;
	char *base;

	/* limits and dumps are global conditions, not a place in the code */
	if (r->type != LDR_LOCKDEP_LIMIT && r->type != LDR_HELD_LOCKS_DUMP)
		f = report_guilty_frame(r);
	if (r->type == LDR_LOCKDEP_LIMIT)
		strbuf_addf(&sb, "%s too low", what(r));
	else
		strbuf_addstr(&sb, what(r));
	if (f) {
		base = base_name(f->func);
		strbuf_addf(&sb, " in %s", base);
		free(base);
	}
	free(r->title);
	r->title = strbuf_detach(&sb, NULL);
}

static void key_lock(struct strbuf *sb, const struct ldr_lock *l)
{
	strbuf_addch(sb, '\n');
	strbuf_addstr(sb, l->class_name);
	if (l->subclass)
		strbuf_addf(sb, "/%u", l->subclass);
}

static bool leading_role(enum ldr_role role)
{
	return role != LDR_ROLE_CHAIN && role != LDR_ROLE_DEPENDENCY &&
	       role != LDR_ROLE_HELD && role != LDR_ROLE_OTHER;
}

static void make_dedup_key(struct ldr_report *r)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned long long h = 0xcbf29ce484222325ULL;
	char buf[17];
	size_t i, n = 0;

	strbuf_addstr(&sb, ldr_type_name(r->type));
	if (r->type == LDR_CIRCULAR_DEPENDENCY && r->nr_chain) {
		for (i = 0; i < r->nr_chain; i++)
			key_lock(&sb, &r->locks[r->chain[i].lock]);
	} else {
		for (i = 0; i < r->nr_locks; i++)
			if (leading_role(r->locks[i].role)) {
				key_lock(&sb, &r->locks[i]);
				n++;
			}
		for (i = 0; i < r->nr_locks && !n &&
		     r->type != LDR_HELD_LOCKS_DUMP; i++)
			if (r->locks[i].role == LDR_ROLE_HELD)
				key_lock(&sb, &r->locks[i]);
		strbuf_addch(&sb, '\n');
		strbuf_addstr(&sb, r->title);
	}
	for (i = 0; i < sb.len; i++) {
		h ^= (unsigned char)sb.buf[i];
		h *= 0x100000001b3ULL;
	}
	snprintf(buf, sizeof(buf), "%016llx", h);
	free(r->dedup_key);
	r->dedup_key = xstrdup(buf);
	strbuf_release(&sb);
}

void report_finish(struct ldr_report *r)
{
	make_title(r);
	make_dedup_key(r);
}
