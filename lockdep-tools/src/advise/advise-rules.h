/* SPDX-License-Identifier: GPL-2.0 */
/* The rules of advise_report() that look at sites, and their helpers. */
#ifndef ADVISE_ADVISE_RULES_H
#define ADVISE_ADVISE_RULES_H

#include "advise/advise.h"

void advice_set(struct advice *a, enum adv_verdict v, const char *rule, bool sure);
/* The first lock of @r with @role, or NULL. */
const struct ldr_lock *adv_lock_of(const struct ldr_report *r,
				   enum ldr_role role);

/* advise-nesting.c */
void adv_recursive(const struct ldr_report *r, const char *source_dir,
		   struct advice *a);
void adv_unlock_order(const struct ldr_report *r, const char *source_dir,
		      struct advice *a);
/* advise-irq.c: inconsistent lock state, irq-safe -> unsafe, inversion */
void adv_irq(const struct ldr_report *r, const char *source_dir,
	     struct advice *a);

#endif
