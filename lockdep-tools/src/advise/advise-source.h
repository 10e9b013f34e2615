/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The source side of advice: where a lock call is (from a symbolised
 * frame, inline chain aware), what the locking API offers in its place,
 * and the edit of that source line as a unified diff.
 */
#ifndef ADVISE_ADVISE_SOURCE_H
#define ADVISE_ADVISE_SOURCE_H

#include <stdbool.h>

#include "advise/advise.h"
#include "parse/report.h"

/*
 * A call site in a .c file: the innermost location of a frame that is
 * not code inlined from a header (spin_lock() and friends are inline
 * wrappers in include/linux/), and the header function called there.
 */
struct adv_site {
	const char *file;
	unsigned int line;
	const char *function;	/* the function holding the line, or NULL */
	const char *callee;	/* the inline wrapper called there, or NULL */
};

/* The site of the first frame of @f outside the lock primitives. */
bool adv_site_of_frames(const struct ldr_frames *f, struct adv_site *s);

/* What to make of a lock call. */
enum adv_edit {
	ADV_EDIT_NESTED,	/* NAME_nested(ARGS, SUBCLASS) */
	ADV_EDIT_IRQ,		/* NAME_irq(ARGS), and its unlock */
	ADV_EDIT_BH,		/* NAME_bh(ARGS), and its unlock */
	ADV_EDIT_ALLOW_UNORDERED, /* an unlock: a line before it,
				   * lockdep_allow_unordered_unlock(LOCK); */
};

/*
 * Add the change(s) of @edit at @s to @a: the call, and for IRQ/BH the
 * matching unlock after it in the same function. @subclass is for
 * NESTED. With @source_dir the line is read and the change is located
 * (path/old_text/new_text set); without, or when the line does not hold
 * a call that has the variant, the change says what to do in words.
 * Returns false (after a reason) when the API has no such variant.
 */
bool adv_edit_site(struct advice *a, const char *source_dir,
		   const struct adv_site *s, enum adv_edit edit,
		   const char *subclass, const char *why);

/*
 * The unified diff of every change of @a against @source_dir (paths a/
 * and b/ relative to it, as git apply -p1 takes them), or NULL after
 * setting a->no_patch when a change is not located or two conflict.
 */
char *adv_make_patch(struct advice *a, const char *source_dir);

#endif
