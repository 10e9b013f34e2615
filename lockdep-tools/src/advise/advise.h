/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Advice on one parsed lockdep report: is it a false positive that a
 * nesting or irq annotation fixes, or a real bug that an annotation would
 * only hide, and what is the change, at which source line.
 *
 * advise_report() reads only the report (symbolised frames give the
 * file:line of each site); with a source directory it also reads the
 * files named there and writes a unified diff of the change. The rules
 * are listed in lockdep-report(1), "ADVICE"; each advice names the rule
 * that gave it.
 *
 * Invariants:
 *  (1) verdict ADV_ANNOTATE is given only when the report shows the
 *      locks involved are distinct instances (or, for the out-of-order
 *      unlock, that the release order is the only complaint); a report
 *      that proves a real deadlock, or does not show enough, never gets
 *      an annotation.
 *  (2) A patch is made only when every change has a site, the source
 *      line holds the call the change replaces, and no choice is left to
 *      the developer; otherwise no_patch says why.
 *  (3) Strings are never NULL except where a field says "or NULL".
 */
#ifndef ADVISE_ADVISE_H
#define ADVISE_ADVISE_H

#include <stdbool.h>
#include <stddef.h>

#include "parse/report.h"

enum adv_verdict {
	ADV_ANNOTATE,		/* false positive of lock nesting */
	ADV_DEADLOCK,		/* real deadlock */
	ADV_IRQ_CONTEXT,	/* irq context mismatch */
	ADV_LOCKING_BUG,	/* double unlock, freed while held, ... */
	ADV_LIMIT,		/* a lockdep table is full */
	ADV_UNSURE,		/* the report does not show enough */
	ADV_CAPACITY,		/* the tables' sizes for a workload (capacity.h) */
	ADV_VERDICT_NR
};

/* "annotate", "deadlock", ... (JSON "verdict"); NULL if out of range. */
const char *adv_verdict_key(enum adv_verdict v);
/* The verdict in a kernel developer's words. */
const char *adv_verdict_text(enum adv_verdict v);

/* One call to replace, at one source line. */
struct adv_change {
	char *file;		/* as symbolised, or NULL if unknown */
	unsigned int line;	/* 0 if unknown */
	char *function;		/* the function holding the line, or NULL */
	char *current;		/* "spin_lock(&x)", or the call's name only */
	char *proposed;		/* "spin_lock_nested(&x, SINGLE_DEPTH_NESTING)" */
	char *why;
	/* Found in the source directory (patchable), else NULL: */
	char *path;		/* relative to the source directory */
	char *old_text;		/* the whole line as it is */
	char *new_text;		/* the whole line as proposed, or the
				 * line(s) put before it, each ending in
				 * a newline, then the line as it is */
};

struct advice {
	enum adv_verdict verdict;
	const char *rule;	/* the rule's name in lockdep-report(1) */
	bool sure;		/* false: the evidence is incomplete */
	char **reasons;		/* drawn from the report */
	size_t nr_reasons;
	struct adv_change *changes;
	size_t nr_changes;
	char **choices;		/* left to the developer: no patch */
	size_t nr_choices;
	char *patch;		/* unified diff against the source, or NULL */
	char *no_patch;		/* why there is no patch, or NULL */
	char *patch_file;	/* where lockdep-report --patch-dir wrote
				 * the patch, or NULL */
};

/*
 * Fill @a for @r. @source_dir (or NULL) is the tree the report's file
 * names are relative to (a kernel tree); with it, the changes are looked
 * up there and a patch is made when invariant (2) allows. Never fails:
 * what cannot be decided is said in the advice.
 */
void advise_report(const struct ldr_report *r, const char *source_dir,
		   struct advice *a);
void advice_release(struct advice *a);

struct strbuf;
/* The verdict, the rule and each change, a line each (a picture's note). */
void advice_summary(struct strbuf *sb, const struct advice *a);

/* Builders for the rules (advise-*.c). */
__attribute__((format(printf, 2, 3)))
void advice_reason(struct advice *a, const char *fmt, ...);
__attribute__((format(printf, 2, 3)))
void advice_choice(struct advice *a, const char *fmt, ...);
struct adv_change *advice_add_change(struct advice *a);

#endif
