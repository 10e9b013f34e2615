// SPDX-License-Identifier: GPL-2.0
/*
 * Rules for nesting: recursive locking (a lock of a class already held)
 * and the out-of-order release of a lock whose class asked the series'
 * unlock order check for it (lockdep_set_class_check_unlock_order()).
 *
 * Recursive locking is a real self-deadlock when the two acquisitions
 * are of one lock instance (the same address), and a false positive of
 * nesting when they are two instances of one class: lockdep validates
 * classes, and the code must say that the second is one level down.
 * Kernels before 4.x print no instance address; then the evidence is
 * incomplete and no annotation is advised.
 */
#include <stdio.h>
#include <string.h>

#include "advise/advise-rules.h"
#include "advise/advise-source.h"
#include "util/xalloc.h"

/* Inode locks have documented subclasses (include/linux/fs.h). */
static bool is_inode_lock(const char *class_name)
{
	return strstr(class_name, "i_mutex") || strstr(class_name, "i_rwsem");
}

/* The highest subclass in use on @cls among the held locks, or -1. */
static int max_subclass(const struct ldr_report *r, const char *cls)
{
	int max = -1;
	size_t i;

	for (i = 0; i < r->nr_locks; i++)
		if (!strcmp(r->locks[i].class_name, cls) &&
		    r->locks[i].role != LDR_ROLE_ACQUIRING &&
		    (int)r->locks[i].subclass > max)
			max = (int)r->locks[i].subclass;
	return max;
}

static bool same_site(const struct adv_site *x, const struct adv_site *y)
{
	return x->line == y->line && !strcmp(x->file, y->file);
}

static void annotate(const struct ldr_report *r, const struct ldr_lock *acq,
		     const struct ldr_lock *held, const char *source_dir,
		     struct advice *a)
{
	struct adv_site sa, sh;
	bool have_a = adv_site_of_frames(&acq->at, &sa) ||
		      (r->backtrace >= 0 &&
		       adv_site_of_frames(&r->stacks[r->backtrace].frames, &sa));
	bool have_h = adv_site_of_frames(&held->at, &sh);
	int used = max_subclass(r, acq->class_name);
	char sub[32];

	if (used > 0)
		advice_reason(a, "subclass%s in use on %s: up to %d",
			      used > 1 ? "es" : "", acq->class_name, used);
	if (!have_a) {
		a->no_patch = xstrdup("the acquisition has no source line: symbolise the report (--vmlinux/--modules, or lockdep-collect --db)");
		advice_choice(a, "at the second acquisition of %s, the _nested() variant with subclass %d",
			      acq->class_name, used + 1);
		return;
	}
	if (have_h && same_site(&sa, &sh)) {
		advice_reason(a, "both acquisitions are at %s:%u: one call site takes several instances (a loop, or recursion), so a constant subclass cannot describe the depth",
			      sa.file, sa.line);
		advice_choice(a, "pass the depth as the subclass (bounded by MAX_LOCKDEP_SUBCLASSES, 8)");
		advice_choice(a, "take an outer lock that serialises the walk and name it: mutex_lock_nest_lock()/spin_lock_nest_lock()");
		a->rule = "recursive-same-site";
		return;
	}
	if (is_inode_lock(acq->class_name) && used == 0 && have_h) {
		advice_reason(a, "inode locks have documented subclasses (include/linux/fs.h, enum inode_i_mutex_lock_class): the held inode is the parent (I_MUTEX_PARENT), the one taken inside it the child (I_MUTEX_CHILD)");
		advice_reason(a, "if both are directories (rename) lock_rename() is the API; if neither is, lock_two_nondirectories()");
		adv_edit_site(a, source_dir, &sh, ADV_EDIT_NESTED, "I_MUTEX_PARENT",
			      "the outer inode: the directory");
		adv_edit_site(a, source_dir, &sa, ADV_EDIT_NESTED, "I_MUTEX_CHILD",
			      "the inner inode: the entry in it");
		return;
	}
	if (used + 1 >= 8) {
		advice_reason(a, "subclass %d would exceed MAX_LOCKDEP_SUBCLASSES (8)", used + 1);
		a->no_patch = xstrdup("no subclass is left");
		return;
	}
	if (used + 1 == 1)
		snprintf(sub, sizeof(sub), "SINGLE_DEPTH_NESTING");
	else
		snprintf(sub, sizeof(sub), "%d", used + 1);
	adv_edit_site(a, source_dir, &sa, ADV_EDIT_NESTED, sub,
		      "the inner lock of the two: one level down");
}

void adv_recursive(const struct ldr_report *r, const char *source_dir,
		   struct advice *a)
{
	const struct ldr_lock *acq = adv_lock_of(r, LDR_ROLE_ACQUIRING);
	const struct ldr_lock *held = adv_lock_of(r, LDR_ROLE_HOLDING);

	if (!acq || !held) {
		advice_set(a, ADV_UNSURE, "recursive-no-address", false);
		advice_reason(a, "the report does not name both the lock acquired and the lock held");
		return;
	}
	if (acq->has_addr && held->has_addr && acq->addr == held->addr) {
		advice_set(a, ADV_DEADLOCK, "recursive-same-instance", true);
		advice_reason(a, "both acquisitions are of one lock instance, %llx (%s): the task would wait for itself, a real self-deadlock; never annotate it",
			      acq->addr, acq->name);
		advice_choice(a, "do not take %s again while it is held: release it first, or call a variant of the inner code that expects it held",
			      acq->class_name);
		a->no_patch = xstrdup("a real deadlock: no annotation");
		return;
	}
	if (!acq->has_addr || !held->has_addr) {
		const struct ldr_frame *fa = report_pick_frame(&acq->at);
		const struct ldr_frame *fh = report_pick_frame(&held->at);
		struct adv_site sa, sh;

		advice_set(a, ADV_UNSURE, "recursive-no-address", false);
		advice_reason(a, "the report prints no lock addresses (a kernel before 4.x): one instance taken twice (a real self-deadlock) cannot be told from two instances of class %s (a missing nesting annotation)",
			      acq->class_name);
		if (adv_site_of_frames(&acq->at, &sa) && adv_site_of_frames(&held->at, &sh) &&
		    !same_site(&sa, &sh))
			advice_reason(a, "the two acquisitions are at different sites (%s:%u, %s:%u): two instances is likely, but not shown",
				      sa.file, sa.line, sh.file, sh.line);
		else if (fa && fh && strcmp(fa->func, fh->func))
			advice_reason(a, "the two acquisitions are in different functions (%s, %s): two instances is likely, but not shown",
				      fa->func, fh->func);
		advice_choice(a, "if the two are one object: a real self-deadlock, do not take it again");
		advice_choice(a, "if they are two objects, one inside the other: the _nested() variant with subclass SINGLE_DEPTH_NESTING at the inner acquisition");
		a->no_patch = xstrdup("the evidence does not rule out a real deadlock");
		return;
	}
	advice_set(a, ADV_ANNOTATE, "recursive-two-instances", true);
	advice_reason(a, "two instances of class %s: %llx is held and %llx is being taken; lockdep validates classes, so it cannot tell them apart without a nesting annotation",
		      acq->class_name, held->addr, acq->addr);
	annotate(r, acq, held, source_dir, a);
}

void adv_unlock_order(const struct ldr_report *r, const char *source_dir,
		      struct advice *a)
{
	const struct ldr_lock *rel = adv_lock_of(r, LDR_ROLE_RELEASING);
	const struct ldr_lock *later = adv_lock_of(r, LDR_ROLE_EXPECTED);
	const struct ldr_frames *bt = r->backtrace >= 0 ?
				      &r->stacks[r->backtrace].frames : NULL;
	struct adv_site s;

	advice_set(a, ADV_ANNOTATE, "unlock-order", true);
	advice_reason(a, "%s is released while %s, taken after it, is still held: legal, and no deadlock, but its class asked for the unlock order check, which wants out-of-order releases said",
		      rel ? rel->name : "a lock", later ? later->name : "another lock");
	advice_reason(a, "if the code does not mean it, swap the two releases instead");
	if (!adv_site_of_frames(bt, &s)) {
		advice_choice(a, "right before the release, lockdep_allow_unordered_unlock() on the lock released (%s)",
			      rel ? rel->name : "the lock");
		a->no_patch = xstrdup("the release has no source line: symbolise the report");
		return;
	}
	adv_edit_site(a, source_dir, &s, ADV_EDIT_ALLOW_UNORDERED, NULL,
		      "the release out of nesting order, on purpose: said on the line before it");
}
