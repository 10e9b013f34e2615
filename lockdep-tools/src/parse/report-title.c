// SPDX-License-Identifier: GPL-2.0
/*
 * Titles and dedup keys of reports.
 *
 * Title: "<what> in <function>", and syzbot_title, the same in the exact
 * words of syzkaller's dashboard ("WARNING: held lock freed in f",
 * "possible deadlock in f"), so that a title pasted into a search of
 * syzbot, lore or a bug tracker finds the same bug.
 *
 * The function is picked per report type, in syzkaller's manner: each
 * type has an ordered list of places to look (sources[] below), and the
 * first place that has a frame that can be the culprit names it:
 *  - the "at:" site of the lock the report is about (the acquiring lock
 *    of a circular, recursive or inversion report, the lock freed, the
 *    first lock held at exit or on return to user space, the lock
 *    released), then the holding lock, then the first chain entry;
 *  - the stack under "... which became X-irq-safe at:" for irq-safe ->
 *    irq-unsafe order;
 *  - the backtrace for inconsistent lock state, nested lock not taken,
 *    suspicious RCU usage, invalid wait context and lockdep's own
 *    warnings.
 * Headers of the bracketed "[ INFO: ... ]" era keep the rule syzkaller
 * applies to them: the acquiring lock's "at:" comes first there.
 * A place whose frames are all innocent (a backtrace cut to "..." or to
 * the syscall entry) passes the turn to the next place, ending with any
 * lock's "at:" site.
 *
 * A frame can be the culprit unless it is unreliable ("?"), inlined into
 * the frame after it ("[inline]": syzbot names the real function, which
 * that next frame is), a bare address, or innocent[]: stack dumping of
 * every architecture, syscall entry stubs, lockdep and the lock
 * primitives, timers and completions, the allocator and the free paths,
 * user copies, tracing and fault injection; workqueue machinery that
 * takes pseudo-locks too, unless no place names another function. Some
 * types pass over more (extra_innocent()).
 * Compiler suffixes (".cold", ".isra.0", ".part.0", ".constprop.0") are
 * dropped and C++ and Rust symbols demangled.
 *
 * syzbot_title follows syzkaller's own rules instead (syz_spec_of()):
 * no fallback from one place to the next, "<what> in corrupted" when
 * the frames it gathers are all innocent or missing (a report cut or
 * interleaved), the header when the line its pattern needs is missing,
 * the "at:" function as printed where its pattern captures one, and a
 * syscall wrapper prefix ("__se_sys_", "__x64_") taken off a gathered
 * frame. Neither title looks at a frame's symbolised inline chain:
 * syzkaller titles the raw output before it symbolises, and its frame
 * pattern wants "+0x" or "." after the name, which "[inline]" lines
 * lack, so the function is the one the address lies in as built.
 *
 * Dedup key: 16 hex digits of the 64-bit FNV-1a hash of
 *   "<type>\n<lock>\n<lock>...\n<title>"
 * where the locks are, for a circular dependency, the chain in printed
 * order, otherwise the locks with a leading role (acquiring, holding,
 * releasing, expected, contending, freed, nest-lock, irq-safe,
 * irq-unsafe; else the held ones), and <title> is left out for circular
 * dependencies (the chain is the bug). Lock names keep their
 * "/subclass" but lose the "#version" suffix: versions number
 * same-named classes in registration order, which differs between boots
 * and machines, while subclasses are fixed in the source.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <libiberty/demangle.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/report.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * Frames that are never the culprit (glob patterns on the base name).
 *
 * syzkaller's skip list (pkg/report/linux.go) is followed where it names
 * the culprit better: every printk frame, the printk_safe flush included
 * (it prints on behalf of the function that panicked), and iput(), which
 * takes i_lock for whichever function dropped the last reference (a
 * filesystem's fill_super unwinding). Ours deliberately differs in two
 * ways. The patterns are globs on the whole name, not substrings, so a
 * function that merely contains "alloc_page" or "string" in its name
 * (btrfs_alloc_page_array) can still be the culprit. And one list serves
 * every report type, where syzkaller takes the "at:" function as printed
 * for recursive locking, irq inversion and held lock freed reports, lock
 * primitives included: ours names the code that called the primitive.
 */
static const char *const innocent[] = {
	/* stack dumping and report printing, every architecture */
	"dump_stack*", "__dump_stack", "show_stack", "show_trace*",
	"dump_trace", "dump_backtrace*", "unwind_backtrace", "c_backtrace",
	"walk_stackframe", "arch_stack_walk", "print_*", "printk*", "_printk",
	"__printk*", "vprintk*", "__warn*", "warn_slowpath*", "report_bug",
	"handle_bug", "exc_invalid_op", "asm_exc_invalid_op", "do_error_trap",
	"panic",
	/* the trap of a WARN() (x86 before 5.8, arm64) */
	"fixup_bug", "do_trap*", "do_invalid_op", "invalid_op", "bug_handler",
	"brk_handler", "call_*break_hook", "do_debug_exception", "el1_dbg",
	/* syscall entry stubs */
	"entry_SYSCALL*", "entry_SYSENTER*", "entry_INT80*", "do_syscall_*",
	"do_fast_syscall_*", "__do_fast_syscall_*", "do_int80_syscall_*",
	"x64_sys_call", "x32_sys_call", "ia32_sys_call", "system_call*",
	"syscall_call", "sysenter_*", "sysc_*", "tracesys*",
	"ret_fast_syscall", "ret_from_syscall", "vector_swi",
	"el0_svc*", "do_el0_svc*", "el0t_*", "el0_sync*", "invoke_syscall",
	"__invoke_syscall", "syscall_exit_to_user_mode*",
	"__syscall_exit_to_user_mode*", "exit_to_user_mode*",
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
	"reacquire_held_locks", "assign_lock_key", "check_release_order",
	"touch_wq_lockdep_map", "touch_work_lockdep_map",
	/* lock primitives */
	"_raw_spin_*", "__raw_spin_*", "raw_spin_*", "do_raw_spin_*",
	"_raw_read_*", "__raw_read_*", "do_raw_read_*",
	"_raw_write_*", "__raw_write_*", "do_raw_write_*",
	"_spin_*", "_read_*", "_write_*", "spin_lock*", "spin_unlock*",
	"spin_trylock*", "read_lock*", "read_unlock*", "write_lock*",
	"write_unlock*", "queued_spin_*", "queued_read_*", "queued_write_*",
	"native_queued_*", "__pv_queued_*", "rt_spin_*",
	"_atomic_dec_and_lock*", "atomic_dec_and_*lock*",
	"mutex_lock*", "mutex_unlock*", "mutex_trylock*", "__mutex_*",
	"ww_mutex_*", "__ww_mutex_*", "rt_mutex_*", "__rt_mutex_*",
	"down", "down_*", "__down*", "up", "up_read", "up_write", "__up*",
	"downgrade_write", "rwsem_*", "__rwsem_*", "percpu_down_*",
	"percpu_up_*", "__percpu_down_*", "__percpu_up_*", "percpu_rwsem_*",
	"ldsem_*", "__ldsem_*", "osq_lock", "osq_unlock",
	"rcu_read_lock*", "rcu_read_unlock*", "rcu_lock_acquire",
	"rcu_lock_release", "srcu_read_lock*", "__srcu_read_lock*",
	"lock_sock*", "__lock_sock", "release_sock", "local_bh_*",
	"__local_bh_*", "_local_bh_*", "seqcount_lockdep_reader_access",
	"__might_fault", "might_fault", "__might_sleep", "___might_sleep",
	"__might_resched", "fs_reclaim_*", "__fs_reclaim_*",
	"class_*_constructor", "class_*_destructor", "console_lock",
	"console_trylock", "console_unlock",
	/* timers and completions */
	"del_timer*", "__del_timer*", "timer_delete*", "try_to_del_timer*",
	"complete", "complete_all", "wait_for_completion*",
	"__wait_for_common", "wait_for_common*",
	/* the allocator and freeing memory */
	"kmem_cache_alloc*", "__kmem_cache_alloc*", "kmalloc*", "__kmalloc*",
	"kzalloc*", "kcalloc*", "kvmalloc*", "__kvmalloc*", "krealloc*",
	"vmalloc*", "__vmalloc*", "slab_alloc*", "__slab_alloc*",
	"___slab_alloc", "alloc_pages*", "__alloc_pages*",
	"kfree", "kfree_*", "kvfree", "vfree*", "kmem_cache_free*",
	"__kmem_cache_free", "slab_free*", "__slab_free", "free_pages*",
	"__free_pages*", "debug_check_no_obj_freed",
	/* the last reference to an inode: the caller let go of it */
	"iput", "iput_final",
	/* user copies, tracing, fault injection */
	"_copy_to_user", "_copy_from_user", "copy_to_user*",
	"copy_from_user*", "__copy_to_user*", "__copy_from_user*",
	"raw_copy_*", "perf_trace_*", "trace_event_raw_event_*",
	"should_fail*", "__should_fail*", "fail_dump",
};

/*
 * Workqueue machinery that takes pseudo-locks ("(wq_completion)x"): the
 * culprit is its caller, but when no frame of the report names another
 * function (a fragment that stops at a flush's "at:"), the flush is a
 * better name than none, and the one syzkaller gives it.
 */
static const char *const pseudo_lock_takers[] = {
	"flush_workqueue", "__flush_workqueue", "drain_workqueue",
	"destroy_workqueue", "process_one_work", "flush_work",
	"__flush_work", "start_flush_work", "__cancel_work*",
	"cancel_work_sync", "cancel_delayed_work_sync",
};

/* Where to look for the culprit; see sources_of(). */
enum source {
	SRC_END,
	SRC_AT_ACQUIRING,
	SRC_AT_HOLDING,
	SRC_AT_RELEASING,
	SRC_AT_CONTENDING,
	SRC_AT_FREED,
	SRC_AT_HELD,		/* the first lock of the held list */
	SRC_CHAIN,		/* the stacks of the "-> #N" entries, in order */
	SRC_IRQ_SAFE_STACK,	/* "... which became X-irq-safe at:" */
	SRC_IRQ_UNSAFE_STACK,	/* "... which became X-irq-unsafe at:" */
	SRC_BACKTRACE,
	SRC_AT_ANY,		/* any lock's "at:", by main_roles[] */
};

#define MAX_SOURCES 5

/* Order of preference for the lock whose "at:" names the culprit. */
static const enum ldr_role main_roles[] = {
	LDR_ROLE_ACQUIRING, LDR_ROLE_RELEASING, LDR_ROLE_CONTENDING,
	LDR_ROLE_FREED, LDR_ROLE_HOLDING, LDR_ROLE_IRQ_UNSAFE,
	LDR_ROLE_EXPECTED, LDR_ROLE_NEST_LOCK, LDR_ROLE_IRQ_SAFE,
	LDR_ROLE_HELD,
};

/* The places to look, in order, for r's type (SRC_AT_ANY ends each). */
static void sources_of(const struct ldr_report *r, enum source *s)
{
	static const struct {
		enum ldr_type type;
		enum source src[MAX_SOURCES - 1];
	} table[] = {
		{ LDR_CIRCULAR_DEPENDENCY,
		  { SRC_AT_ACQUIRING, SRC_AT_HOLDING, SRC_CHAIN, SRC_BACKTRACE } },
		{ LDR_RECURSIVE_LOCKING, { SRC_AT_ACQUIRING, SRC_BACKTRACE } },
		{ LDR_IRQ_LOCK_INVERSION, { SRC_AT_ACQUIRING, SRC_BACKTRACE } },
		{ LDR_INCONSISTENT_LOCK_STATE,
		  { SRC_BACKTRACE, SRC_AT_ACQUIRING } },
		{ LDR_IRQ_SAFE_UNSAFE_ORDER,
		  { SRC_IRQ_SAFE_STACK, SRC_AT_ACQUIRING, SRC_BACKTRACE } },
		{ LDR_BAD_UNLOCK_BALANCE, { SRC_AT_RELEASING, SRC_BACKTRACE } },
		{ LDR_BAD_UNLOCK_ORDER, { SRC_AT_RELEASING, SRC_BACKTRACE } },
		{ LDR_BAD_CONTENTION, { SRC_AT_CONTENDING, SRC_BACKTRACE } },
		{ LDR_HELD_LOCK_FREED,
		  { SRC_AT_FREED, SRC_AT_HELD, SRC_BACKTRACE } },
		{ LDR_LOCKS_HELD_AT_EXIT, { SRC_AT_HELD, SRC_BACKTRACE } },
		{ LDR_LOCK_HELD_RETURNING_TO_USER,
		  { SRC_AT_HELD, SRC_BACKTRACE } },
		{ LDR_NESTED_LOCK_NOT_TAKEN,
		  { SRC_BACKTRACE, SRC_AT_ACQUIRING } },
		{ LDR_SUSPICIOUS_RCU_USAGE, { SRC_BACKTRACE } },
		{ LDR_INVALID_WAIT_CONTEXT,
		  { SRC_BACKTRACE, SRC_AT_ACQUIRING } },
		{ LDR_NON_STATIC_KEY, { SRC_BACKTRACE } },
		{ LDR_CHAIN_KEY_COLLISION, { SRC_BACKTRACE } },
		{ LDR_OTHER_LOCKDEP, { SRC_BACKTRACE } },
	};
	size_t i, k = 0;

	memset(s, 0, MAX_SOURCES * sizeof(*s));
	/* limits and dumps are global conditions, not a place in the code */
	if (r->type == LDR_LOCKDEP_LIMIT || r->type == LDR_HELD_LOCKS_DUMP)
		return;
	/* syzkaller's rules for the bracketed era: the acquiring "at:" */
	if (r->old_format && (r->type == LDR_INCONSISTENT_LOCK_STATE ||
			      r->type == LDR_IRQ_SAFE_UNSAFE_ORDER))
		s[k++] = SRC_AT_ACQUIRING;
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].type == r->type)
			break;
	if (i < sizeof(table) / sizeof(table[0]))
		for (size_t j = 0; j < MAX_SOURCES - 1 && table[i].src[j] &&
				   k < MAX_SOURCES - 1; j++)
			s[k++] = table[i].src[j];
	s[k] = SRC_AT_ANY;
}

/* Frames some types pass over besides innocent[] (syzkaller does too). */
static const char *const *extra_innocent(enum ldr_type type)
{
	/* held lock freed is found while freeing: destructors free */
	static const char *const freeing[] = {
		"*destruct*", "*free*", "*_put", NULL,
	};
	static const char *const rcu[] = { "*rcu*", "*kmem*", "*slab*", NULL };
	static const char *const key[] = {
		"*lock*", "*stack*", "*IRQ*", NULL,
	};

	switch (type) {
	case LDR_HELD_LOCK_FREED:
		return freeing;
	case LDR_SUSPICIOUS_RCU_USAGE:
		return rcu;
	case LDR_NON_STATIC_KEY:
		return key;
	default:
		return NULL;
	}
}

/*
 * The function name without compiler suffixes, demangled if it is a C++
 * or Rust symbol (libiberty, without parameters: syzkaller's form,
 * "kbase::JobSlot::softStop"); caller frees.
 */
static char *base_name(const char *func)
{
	char *base = xstrndup(func, strcspn(func, "."));
	char *plain;

	if (base[0] != '_' || (base[1] != 'Z' && base[1] != 'R'))
		return base;
	plain = cplus_demangle(base, DMGL_AUTO);
	if (!plain)
		return base;
	free(base);
	return plain;
}

static bool matches_any(const char *base, const char *const *pat, size_t n)
{
	size_t i;

	for (i = 0; pat && (n ? i < n : pat[i] != NULL); i++)
		if (!fnmatch(pat[i], base, 0))
			return true;
	return false;
}

/* What one pass over a report's frames passes over besides innocent[]. */
struct skip {
	const char *const *extra;	/* the type's own, or NULL */
	bool takers;			/* pseudo_lock_takers[] */
};

static bool is_innocent(const char *func, const struct skip *skip)
{
	char *base = base_name(func);
	bool res = matches_any(base, innocent,
			       sizeof(innocent) / sizeof(innocent[0])) ||
		   matches_any(base, skip->extra, 0) ||
		   (skip->takers &&
		    matches_any(base, pseudo_lock_takers,
				sizeof(pseudo_lock_takers) /
				sizeof(pseudo_lock_takers[0])));

	free(base);
	return res;
}

const struct ldr_frame *report_pick_frame(const struct ldr_frames *f)
{
	static const struct skip skip = { .takers = true };
	size_t i;

	for (i = 0; i < f->nr; i++)
		if (f->v[i].func && !f->v[i].unreliable &&
		    !is_innocent(f->v[i].func, &skip))
			return &f->v[i];
	return NULL;
}

/* The first frame that can be the culprit; inlined ones never are. */
static const struct ldr_frame *culprit(const struct ldr_frames *f,
				       const struct skip *skip)
{
	size_t i;

	for (i = 0; i < f->nr; i++)
		if (f->v[i].func && !f->v[i].unreliable && !f->v[i].inlined &&
		    !is_innocent(f->v[i].func, skip))
			return &f->v[i];
	return NULL;
}

static const struct ldr_frame *at_of_role(const struct ldr_report *r,
					  enum ldr_role role,
					  const struct skip *skip)
{
	const struct ldr_frame *f;
	size_t i;

	for (i = 0; i < r->nr_locks; i++)
		if (r->locks[i].role == role &&
		    (f = culprit(&r->locks[i].at, skip)))
			return f;
	return NULL;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static const struct ldr_frame *from_source(const struct ldr_report *r,
					   enum source src,
					   const struct skip *skip)
{
	const struct ldr_frame *f = NULL;
	size_t i;

	switch (src) {
	case SRC_AT_ACQUIRING:
		return at_of_role(r, LDR_ROLE_ACQUIRING, skip);
	case SRC_AT_HOLDING:
		return at_of_role(r, LDR_ROLE_HOLDING, skip);
	case SRC_AT_RELEASING:
		return at_of_role(r, LDR_ROLE_RELEASING, skip);
	case SRC_AT_CONTENDING:
		return at_of_role(r, LDR_ROLE_CONTENDING, skip);
	case SRC_AT_FREED:
		return at_of_role(r, LDR_ROLE_FREED, skip);
	case SRC_AT_HELD:
		for (i = 0; i < r->nr_locks; i++)
			if (r->locks[i].role == LDR_ROLE_HELD)
				return culprit(&r->locks[i].at, skip);
		return NULL;
	case SRC_CHAIN:
		for (i = 0; i < r->nr_chain && !f; i++)
			if (r->chain[i].stack >= 0)
				f = culprit(&r->stacks[r->chain[i].stack].frames,
					    skip);
		return f;
	case SRC_IRQ_SAFE_STACK:
	case SRC_IRQ_UNSAFE_STACK:
		for (i = 0; i < r->nr_stacks; i++)
			if (ends_with(r->stacks[i].label,
				      src == SRC_IRQ_SAFE_STACK ? "-irq-safe" :
				      "-irq-unsafe"))
				return culprit(&r->stacks[i].frames, skip);
		return NULL;
	case SRC_BACKTRACE:
		return r->backtrace >= 0 ?
		       culprit(&r->stacks[r->backtrace].frames, skip) : NULL;
	case SRC_AT_ANY:
		for (i = 0; i < sizeof(main_roles) / sizeof(main_roles[0]) &&
			    !f; i++)
			f = at_of_role(r, main_roles[i], skip);
		return f;
	case SRC_END:
		break;
	}
	return NULL;
}

const struct ldr_frame *report_guilty_frame(const struct ldr_report *r)
{
	struct skip skip = { extra_innocent(r->type), true };
	enum source src[MAX_SOURCES];
	const struct ldr_frame *f = NULL;
	size_t i;

	sources_of(r, src);
	for (i = 0; i < MAX_SOURCES && src[i] != SRC_END && !f; i++)
		f = from_source(r, src[i], &skip);
	/* nothing else named: a pseudo-lock taker is better than none */
	skip.takers = false;
	for (i = 0; i < MAX_SOURCES && src[i] != SRC_END && !f; i++)
		f = from_source(r, src[i], &skip);
	return f;
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* A WARN() in lockdep.c, or DEBUG_LOCKS_WARN_ON() that printed one. */
static bool lockdep_warning(const struct ldr_report *r)
{
	return starts_with(r->header, "DEBUG_LOCKS_WARN_ON(") ||
	       starts_with(r->header, "lockdep bfs error") ||
	       (starts_with(r->header, "WARNING:") &&
		strstr(r->header, "lockdep.c"));
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
		return lockdep_warning(r) ? "locking bug" : r->header;
	case LDR_TYPE_NR:
		break;
	}
	return r->header;
}

static void make_title(struct ldr_report *r)
{
	const struct ldr_frame *f = report_guilty_frame(r);
	struct strbuf sb = STRBUF_INIT;
	char *base;

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

/*
 * syzkaller takes one of these off a frame it gathered (not off a
 * function its pattern captured): the one that leaves the shortest name
 * ("__se_sys_bpf" loses "__se_sys_": "bpf").
 */
static const char *const syscall_prefixes[] = {
	"SYSC_", "SyS_", "sys_", "__x64_", "__ia32_", "__arm64_",
	"____sys_", "___sys_", "__sys_", "__se_", "__se_sys_", "__do_sys_",
	"compat_SYSC_", "compat_SyS_", "ksys_",
};

static const char *without_syscall_prefix(const char *name)
{
	const char *best = name;
	size_t i, n;

	for (i = 0; i < sizeof(syscall_prefixes) / sizeof(*syscall_prefixes);
	     i++) {
		n = strlen(syscall_prefixes[i]);
		if (!strncmp(name, syscall_prefixes[i], n) && name + n > best)
			best = name + n;
	}
	return best;
}

/* "WARNING", "BUG" or "INFO" of the header, or dflt. */
static const char *decoration(const struct ldr_report *r, const char *dflt)
{
	static const char *const words[] = { "WARNING", "BUG", "INFO" };
	const char *h = r->header;
	size_t i;

	if (starts_with(h, "[ "))
		h += 2;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (starts_with(h, words[i]) && h[strlen(words[i])] == ':')
			return words[i];
	return dflt;
}

/*
 * The header as syzkaller titles a report it has no pattern for, or
 * whose pattern did not match: the line from "BUG:", "WARNING:" or
 * "INFO:" on, so the bracketed era keeps its closing " ]"; a header
 * without one of those words loses only the brackets. Caller frees.
 */
static char *bare_header(const struct ldr_report *r)
{
	const char *h = r->header;
	size_t n;

	if (!starts_with(h, "[ "))
		return xstrdup(h);
	if (strcmp(decoration(r, ""), ""))
		return xstrdup(h + 2);
	h += 2;
	n = strlen(h);
	if (n >= 2 && !strcmp(h + n - 2, " ]"))
		n -= 2;
	return xstrndup(h, n);
}

/* The warning line of a lockdep WARN(): the header or the line after it. */
static const char *warning_line(const struct ldr_report *r)
{
	if (starts_with(r->header, "WARNING:"))
		return r->header;
	if (r->message && starts_with(r->message, "WARNING:"))
		return r->message;
	return NULL;
}

/* syzkaller's "%s in %s" format for r, or NULL for the bare header. */
static const char *syzbot_format(const struct ldr_report *r, char *buf,
				 size_t len)
{
	const char *w, *site;

	switch (r->type) {
	case LDR_CIRCULAR_DEPENDENCY:
	case LDR_RECURSIVE_LOCKING:
	case LDR_IRQ_SAFE_UNSAFE_ORDER:
	case LDR_IRQ_LOCK_INVERSION:
	case LDR_INCONSISTENT_LOCK_STATE:
		return what(r);
	case LDR_BAD_UNLOCK_BALANCE:
	case LDR_HELD_LOCK_FREED:
	case LDR_LOCKS_HELD_AT_EXIT:
	case LDR_LOCK_HELD_RETURNING_TO_USER:
		snprintf(buf, len, "%s: %s", decoration(r, "BUG"), what(r));
		return buf;
	case LDR_NESTED_LOCK_NOT_TAKEN:
	case LDR_SUSPICIOUS_RCU_USAGE:
		snprintf(buf, len, "%s: %s", decoration(r, "WARNING"),
			 what(r));
		return buf;
	case LDR_NON_STATIC_KEY:
		return "INFO: trying to register non-static key";
	case LDR_INVALID_WAIT_CONTEXT:
		return "WARNING: locking bug";
	case LDR_OTHER_LOCKDEP:
		if (!lockdep_warning(r))
			return NULL;
		/* syzkaller's test: "lock_" after lockdep.c on the line */
		w = warning_line(r);
		site = w ? strstr(w, "lockdep.c") : NULL;
		if (site && !strstr(site, "lock_"))
			return "WARNING";
		return "WARNING: locking bug";
	default:
		return NULL;
	}
}

/*
 * How syzkaller finds the function of r's type (pkg/report/linux.go,
 * restated):
 *  - SYZ_SITE: its pattern for the report captures the function of the
 *    first "at:" site printed from the anchor lock on, as printed: no
 *    frame is passed over and no prefix taken off, and an inlined site
 *    (no "+0x") does not count. In the bracketed era the site must carry
 *    its "[<address>]". No such site: the title is the bare header (the
 *    report matched syzkaller's header but not its pattern).
 *  - SYZ_FRAMES: it gathers the frames of src[] in order and the first
 *    that is not innocent names the function; when there is none, the
 *    function is "corrupted" (a report cut before its stack, or
 *    interleaved with another report so that its stack is missing).
 *    Some types first need a line (need) or get the bare header.
 *  - SYZ_HEADER: syzkaller has no pattern for it: the bare header.
 */
enum syz_rule { SYZ_HEADER, SYZ_SITE, SYZ_FRAMES };
enum syz_need {
	NEED_NOTHING,
	NEED_ACQUIRE_LINE,	/* "is trying to acquire lock" */
	NEED_ACQUIRING_SITE,	/* the acquiring lock's "at: f+0x" */
	NEED_SOURCE,		/* a "file.c:123" line */
};

struct syz_spec {
	enum syz_rule rule;
	int anchor;		/* SYZ_SITE: an ldr_role, or -1 for any lock */
	bool needs_address;	/* SYZ_SITE: "[<...>]" before the function */
	enum syz_need need;	/* SYZ_FRAMES */
	enum source src[MAX_SOURCES];
};

static struct syz_spec syz_site_rule(int anchor, bool needs_address)
{
	return (struct syz_spec){ .rule = SYZ_SITE, .anchor = anchor,
				  .needs_address = needs_address };
}

static struct syz_spec syz_header_rule(void)
{
	return (struct syz_spec){ .rule = SYZ_HEADER };
}

static struct syz_spec syz_spec_of(const struct ldr_report *r)
{
	bool old = r->old_format;
	struct syz_spec s = { .rule = SYZ_FRAMES, .anchor = -1 };

	switch (r->type) {
	case LDR_CIRCULAR_DEPENDENCY:
		if (old)
			return syz_site_rule(LDR_ROLE_ACQUIRING, true);
		s.need = NEED_ACQUIRE_LINE;
		s.src[0] = SRC_AT_ACQUIRING;
		s.src[1] = SRC_AT_HOLDING;
		s.src[2] = SRC_CHAIN;
		return s;
	case LDR_RECURSIVE_LOCKING:
	case LDR_IRQ_LOCK_INVERSION:
		return syz_site_rule(LDR_ROLE_ACQUIRING, old);
	case LDR_INCONSISTENT_LOCK_STATE:
		if (old)
			return syz_site_rule(LDR_ROLE_ACQUIRING, true);
		s.need = NEED_ACQUIRING_SITE;
		s.src[0] = SRC_BACKTRACE;
		return s;
	case LDR_IRQ_SAFE_UNSAFE_ORDER:
		/* the bracketed era has a pattern for SOFTIRQ only */
		if (old && (!r->irq_class || strcmp(r->irq_class, "SOFTIRQ")))
			return syz_header_rule();
		if (old)
			return syz_site_rule(LDR_ROLE_ACQUIRING, true);
		s.src[0] = SRC_IRQ_SAFE_STACK;
		s.src[1] = SRC_IRQ_UNSAFE_STACK;
		return s;
	case LDR_HELD_LOCK_FREED:
	case LDR_LOCKS_HELD_AT_EXIT:
		/* "BUG:": the first "[<pc>] f+0x" line; "WARNING:": "at:" */
		return syz_site_rule(-1, !strcmp(decoration(r, "BUG"), "BUG"));
	case LDR_LOCK_HELD_RETURNING_TO_USER:
		return syz_site_rule(LDR_ROLE_HELD, false);
	case LDR_BAD_UNLOCK_BALANCE:
		s.src[0] = SRC_AT_RELEASING;
		s.src[1] = SRC_BACKTRACE;
		return s;
	case LDR_SUSPICIOUS_RCU_USAGE:
		s.need = NEED_SOURCE;
		/* fall through */
	case LDR_NESTED_LOCK_NOT_TAKEN:
	case LDR_INVALID_WAIT_CONTEXT:
	case LDR_NON_STATIC_KEY:
	case LDR_OTHER_LOCKDEP:
		s.src[0] = SRC_BACKTRACE;
		return s;
	default:
		return syz_header_rule();
	}
}

/* The first site syzkaller's pattern captures (see SYZ_SITE), or NULL. */
static const struct ldr_frame *syz_site(const struct ldr_report *r,
					const struct syz_spec *s)
{
	size_t i = 0, j;

	if (s->anchor >= 0)
		while (i < r->nr_locks && (int)r->locks[i].role != s->anchor)
			i++;
	for (; i < r->nr_locks; i++)
		for (j = 0; j < r->locks[i].at.nr; j++) {
			const struct ldr_frame *f = &r->locks[i].at.v[j];

			if (f->func && f->has_off &&
			    (!s->needs_address || f->has_addr))
				return f;
		}
	return NULL;
}

/* Does a lock of this role have an "at: f+0x" site? */
static bool has_site(const struct ldr_report *r, enum ldr_role role)
{
	size_t i, j;

	for (i = 0; i < r->nr_locks; i++)
		for (j = 0; r->locks[i].role == role && j < r->locks[i].at.nr;
		     j++)
			if (r->locks[i].at.v[j].func &&
			    r->locks[i].at.v[j].has_off)
				return true;
	return false;
}

/* Does t name a source line, "dir/file.c:123" (syzkaller's {{SRC}})? */
static bool names_source_line(const char *t)
{
	const char *p, *q;

	for (p = strchr(t, ':'); p; p = strchr(p + 1, ':')) {
		if (p[1] < '0' || p[1] > '9')
			continue;
		for (q = p; q > t && q[-1] >= 'a' && q[-1] <= 'z'; q--)
			;
		if (q == p || q == t || q[-1] != '.' || q - 1 == t)
			continue;
		q -= 2;
		if (isalnum((unsigned char)*q) || strchr("-_/.", *q))
			return true;
	}
	return false;
}

static bool names_acquire(const char *t)
{
	return strstr(t, "is trying to acquire lock") != NULL;
}

/* Is there a line after the header that pred likes? */
static bool line_after_header(const struct ldr_report *r,
			      bool (*pred)(const char *))
{
	bool after = false;
	size_t i;

	for (i = 0; i < r->nr_raw; i++) {
		if (after && pred(r->raw[i].text))
			return true;
		if (strstr(r->raw[i].text, r->header))
			after = true;
	}
	return false;
}

static bool syz_needs_met(const struct ldr_report *r, enum syz_need need)
{
	switch (need) {
	case NEED_ACQUIRE_LINE:
		return line_after_header(r, names_acquire);
	case NEED_ACQUIRING_SITE:
		return has_site(r, LDR_ROLE_ACQUIRING);
	case NEED_SOURCE:
		return line_after_header(r, names_source_line);
	case NEED_NOTHING:
		break;
	}
	return true;
}

/* The first frame of s's places that is not innocent, or NULL. */
static const struct ldr_frame *syz_frame(const struct ldr_report *r,
					 const struct syz_spec *s)
{
	const struct skip skip = { extra_innocent(r->type), true };
	const struct ldr_frame *f = NULL;
	size_t i;

	for (i = 0; i < MAX_SOURCES && s->src[i] != SRC_END && !f; i++)
		f = from_source(r, s->src[i], &skip);
	return f;
}

/*
 * What syzkaller does to every title last: tabs become spaces, other
 * control bytes and bytes outside ASCII go, runs of spaces shrink to
 * one, at most 120 bytes are kept (a cut or interleaved line can be very
 * long) and the ends are trimmed. In place.
 */
static void syz_sanitize(char *t)
{
	const size_t max_len = 120;
	char prev = ' ', *out = t;
	size_t i;

	for (i = 0; t[i] && i < max_len; i++) {
		char ch = t[i] == '\t' ? ' ' : t[i];

		if ((unsigned char)ch < 0x20 || (unsigned char)ch >= 0x7f)
			continue;
		if (ch == ' ' && prev == ' ')
			continue;
		*out++ = ch;
		prev = ch;
	}
	while (out > t && out[-1] == ' ')
		out--;
	*out = '\0';
}

void report_make_syzbot_title(struct ldr_report *r)
{
	struct strbuf sb = STRBUF_INIT;
	const struct ldr_frame *f = NULL;
	struct syz_spec s;
	const char *fmt;
	char buf[128], *base;

	free(r->syzbot_title);
	r->syzbot_title = NULL;
	/* the dump belongs to the report that asked for it (a hung task) */
	if (r->type == LDR_HELD_LOCKS_DUMP)
		return;
	fmt = syzbot_format(r, buf, sizeof(buf));
	s = syz_spec_of(r);
	if (fmt && s.rule == SYZ_SITE)
		f = syz_site(r, &s);
	else if (fmt && s.rule == SYZ_FRAMES && syz_needs_met(r, s.need))
		f = syz_frame(r, &s);
	else
		s.rule = SYZ_HEADER;
	if (f) {
		base = base_name(f->func);
		strbuf_addf(&sb, "%s in %s", fmt, s.rule == SYZ_SITE ? base :
			    without_syscall_prefix(base));
		free(base);
		r->syzbot_title = strbuf_detach(&sb, NULL);
	} else if (s.rule == SYZ_FRAMES) {
		strbuf_addf(&sb, "%s in corrupted", fmt);
		r->syzbot_title = strbuf_detach(&sb, NULL);
	} else {
		r->syzbot_title = bare_header(r);
	}
	syz_sanitize(r->syzbot_title);
}

void report_title_as_syzbot(struct ldr_report *r)
{
	if (!r->syzbot_title)
		return;
	free(r->title);
	r->title = r->syzbot_title;
	r->syzbot_title = NULL;
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
	snprintf(buf, sizeof(buf), "%016llx",
		 (unsigned long long)fnv1a(sb.buf, sb.len));
	free(r->dedup_key);
	r->dedup_key = xstrdup(buf);
	strbuf_release(&sb);
}

void report_finish(struct ldr_report *r)
{
	make_title(r);
	report_make_syzbot_title(r);
	make_dedup_key(r);
}
