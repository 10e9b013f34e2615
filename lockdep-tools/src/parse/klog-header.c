// SPDX-License-Identifier: GPL-2.0
/*
 * Lockdep report headers, 2.6.18 to 6.x, and the report type each one
 * starts. Old kernels bracket the header ("[ INFO: ... ]", "[ BUG: ... ]"),
 * 4.15+ prefix it with "WARNING: "/"BUG: "; the words between are the
 * same, so the table below matches them after the decoration is gone.
 * A WARN() in lockdep.c is a report too, with or without the
 * DEBUG_LOCKS_WARN_ON() line before it.
 */
#include <string.h>

#include "parse/klog-shapes.h"
#include "util/xalloc.h"

struct header_rule {
	const char *text;	/* prefix of the undecorated header */
	enum ldr_type type;
};

static const struct header_rule rules[] = {
	{ "possible circular locking dependency detected", LDR_CIRCULAR_DEPENDENCY },
	{ "possible recursive locking detected", LDR_RECURSIVE_LOCKING },
	{ "inconsistent lock state", LDR_INCONSISTENT_LOCK_STATE },
	{ "possible irq lock inversion dependency detected", LDR_IRQ_LOCK_INVERSION },
	{ "bad unlock balance detected", LDR_BAD_UNLOCK_BALANCE },
	{ "bad unlock ordering detected", LDR_BAD_UNLOCK_ORDER },
	{ "bad unlock order detected", LDR_BAD_UNLOCK_ORDER },
	{ "held lock freed", LDR_HELD_LOCK_FREED },
	{ "lock held at task exit time", LDR_LOCKS_HELD_AT_EXIT },
	{ "lock held when returning to user space", LDR_LOCK_HELD_RETURNING_TO_USER },
	{ "Nested lock was not taken", LDR_NESTED_LOCK_NOT_TAKEN },
	{ "suspicious RCU usage", LDR_SUSPICIOUS_RCU_USAGE },
	{ "suspicious rcu_dereference_check() usage", LDR_SUSPICIOUS_RCU_USAGE },
	{ "Invalid wait context", LDR_INVALID_WAIT_CONTEXT },
	{ "trying to register non-static key", LDR_NON_STATIC_KEY },
	{ "chain_key collision", LDR_CHAIN_KEY_COLLISION },
	{ "bad contention detected", LDR_BAD_CONTENTION },
	{ "looking up invalid subclass", LDR_OTHER_LOCKDEP },
};

/* Headers printed without any WARNING/BUG/INFO decoration. */
static const struct header_rule bare_rules[] = {
	{ "Showing all locks held in the system:", LDR_HELD_LOCKS_DUMP },
	{ "DEBUG_LOCKS_WARN_ON(", LDR_OTHER_LOCKDEP },
	{ "lockdep bfs error:", LDR_OTHER_LOCKDEP },
};

static bool starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && !memcmp(s, prefix, k);
}

static bool ends(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && !memcmp(s + n - k, suffix, k);
}

/* "HARDIRQ-safe -> HARDIRQ-unsafe lock order detected" */
static bool irq_order(const char *s, size_t n, struct klog_header *h)
{
	const char *safe = memchr(s, '-', n);

	if (!safe || !ends(s, n, "-unsafe lock order detected") ||
	    !starts(safe, n - (safe - s), "-safe -> "))
		return false;
	h->type = LDR_IRQ_SAFE_UNSAFE_ORDER;
	h->detail = xstrndup(s, safe - s);
	return true;
}

/*
 * "WARNING: CPU: 0 PID: 1 at kernel/locking/lockdep.c:232 hlock_class"
 * (and "WARNING: at kernel/lockdep.c:2323 f()" of 2.6 and 3.x): a WARN()
 * in lockdep is a lockdep bug report of its own.
 */
bool klog_lockdep_warning(const char *s)
{
	const char *at;

	if (strncmp(s, "WARNING: ", 9) || !(at = strstr(s, " at ")))
		return false;
	at += 4;
	at += strcspn(at, " :");
	return (at - s >= 24 && !memcmp(at - 24, "kernel/locking/lockdep.c", 24)) ||
	       (at - s >= 16 && !memcmp(at - 16, "kernel/lockdep.c", 16));
}

bool klog_parse_header(const char *s, struct klog_header *h)
{
	size_t n, i;
	bool bug = false;

	memset(h, 0, sizeof(*h));
	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	for (i = 0; i < sizeof(bare_rules) / sizeof(bare_rules[0]); i++) {
		if (starts(s, n, bare_rules[i].text)) {
			h->type = bare_rules[i].type;
			return true;
		}
	}
	if (klog_lockdep_warning(s)) {
		h->type = LDR_OTHER_LOCKDEP;
		return true;
	}
	if (starts(s, n, "[ ") && ends(s, n, " ]")) {
		h->old_format = true;
		s += 2;
		n -= 4;
	}
	if (starts(s, n, "WARNING: ")) {
		s += 9, n -= 9;
	} else if (starts(s, n, "BUG: ")) {
		s += 5, n -= 5;
		bug = true;
	} else if (starts(s, n, "INFO: ")) {
		s += 6, n -= 6;
	} else {
		return false;
	}
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		if (starts(s, n, rules[i].text)) {
			h->type = rules[i].type;
			return true;
		}
	}
	if (irq_order(s, n, h))
		return true;
	/* "%s/%d still has locks held!" */
	if (ends(s, n, " still has locks held!")) {
		h->type = LDR_LOCKS_HELD_AT_EXIT;
		h->detail = xstrndup(s, n - strlen(" still has locks held!"));
		return true;
	}
	/* "BUG: MAX_LOCKDEP_ENTRIES too low!" */
	if (bug && starts(s, n, "MAX_") && (ends(s, n, " too low!") ||
					     ends(s, n, " too low"))) {
		h->type = LDR_LOCKDEP_LIMIT;
		h->detail = xstrndup(s, strcspn(s, " "));
		return true;
	}
	return false;
}
