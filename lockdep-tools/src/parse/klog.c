// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel log parser: contexts and report boundaries.
 *
 * Each PRINTK_CALLER tag gets its own context (klog-ctx.h), so reports
 * printed at the same time by two tasks or CPUs do not mix; an untagged
 * log has one. This file decides where a report starts (a header, with
 * the banner printed just before it), where it ends (end_report()) and
 * whether it was complete; the lines in between go to klog-section.c.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parse/klog-ctx.h"
#include "parse/klog-shapes.h"
#include "parse/klog.h"
#include "util/line-reader.h"
#include "util/xalloc.h"

struct klog_parser {
	char *input;
	klog_report_fn fn;
	void *data;
	struct klog_reader rd;
	struct ctx *ctx;
	size_t nr_ctx, alloc_ctx;
	unsigned int next_id;
	unsigned long lineno;
};

/* ---- contexts ---- */

static struct ctx *ctx_find(struct klog_parser *p, const char *caller)
{
	size_t i;

	for (i = 0; i < p->nr_ctx; i++)
		if (!strcmp(p->ctx[i].caller, caller))
			return &p->ctx[i];
	return NULL;
}

static struct ctx *ctx_add(struct klog_parser *p, const char *caller)
{
	struct ctx *c;

	ALLOC_GROW(p->ctx, p->nr_ctx + 1, p->alloc_ctx);
	c = &p->ctx[p->nr_ctx++];
	memset(c, 0, sizeof(*c));
	snprintf(c->caller, sizeof(c->caller), "%s", caller);
	return c;
}

static void drop_banner(struct ctx *c)
{
	free(c->banner);
	c->banner = NULL;
}

/* Invariant (1): forget a context once it holds nothing. */
static void ctx_tidy(struct klog_parser *p, struct ctx *c)
{
	size_t i = c - p->ctx;

	if (c->rep || c->banner)
		return;
	free(c->holder);
	p->ctx[i] = p->ctx[--p->nr_ctx];
}

static void reset_state(struct ctx *c)
{
	c->sec = SEC_HEAD;
	c->role = -1;
	c->target = T_NONE;
	c->last_lock = c->irq_lock = c->dep_lock = -1;
	free(c->holder);
	c->holder = NULL;
	c->held_announced = -1;
	c->held_seen = 0;
	c->scenario_col = 0;
	c->bt_frames = 0;
	c->task_open = c->task_closed = c->complete = c->other_task = false;
	c->cut = false;
	c->unknown_run = 0;
}




























/* ---- report boundaries ---- */

static bool banner_line(const char *t)
{
	size_t n = strspn(t, "=");

	return n >= 8 && !t[n + strspn(t + n, " ")];
}

/* Other kernel reports that cut a lockdep report short. */
static bool foreign_line(const char *t)
{
	static const char *const starts_of[] = {
		"Unable to handle kernel ", "BUG: unable to handle",
		"BUG: kernel NULL pointer", "BUG: KASAN:", "BUG: KFENCE:",
		"BUG: soft lockup", "BUG: sleeping function called",
		"BUG: scheduling while atomic", "BUG: workqueue lockup",
		"general protection fault", "Internal error: Oops",
		"Oops: ", "Kernel panic - not syncing", "kernel BUG at ",
		"------------[ cut here ]------------", "WARNING: CPU: ",
		"INFO: task ", "INFO: rcu_", "rcu: INFO: ", "watchdog: BUG: ",
	};
	/*
	 * Messages that print a stack of their own, anywhere on the line
	 * (the failing task's comm may come first): without caller tags,
	 * their stack would be taken for the report's (syzkaller too calls
	 * a report they land in interleaved).
	 */
	static const char *const with_stack[] = {
		"FAULT_INJECTION: forcing a failure",
		"FAULT_FLAG_ALLOW_RETRY missing", "vmalloc: allocation failure:",
	};
	size_t i;

	for (i = 0; i < sizeof(starts_of) / sizeof(starts_of[0]); i++)
		if (starts(t, starts_of[i]))
			return true;
	for (i = 0; i < sizeof(with_stack) / sizeof(with_stack[0]); i++)
		if (strstr(t, with_stack[i]))
			return true;
	return false;
}

/*
 * A line that cuts the report before its backtrace with a trace of the
 * same task at the same moment: the panic that panic_on_warn makes of a
 * WARN() (4.x-5.x panic before printing the warning's own stack), or a
 * fault in lockdep as it printed the report. Only where the log tells
 * the task: a caller tag, or a pid to compare with the "CPU:" line.
 */
static bool cut_by_own_trace(const struct ctx *c, const char *t)
{
	static const char *const faults[] = {
		"general protection fault", "BUG: kernel NULL pointer",
		"BUG: unable to handle", "Unable to handle kernel ",
	};
	size_t i;

	if (c->bt_frames || c->cut || (!c->caller[0] && c->rep->pid < 0))
		return false;
	if (starts(t, "Kernel panic - not syncing") &&
	    strstr(t, "panic_on_warn set"))
		return true;
	for (i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		if (starts(t, faults[i]))
			return true;
	return false;
}

static void end_report(struct klog_parser *p, struct ctx *c)
{
	struct ldr_report *r = c->rep;
	bool complete = c->complete;

	if (c->sec == SEC_BACKTRACE && c->bt_frames &&
	    !(c->task_open && !c->task_closed))
		complete = true;
	if (r->type == LDR_LOCK_HELD_RETURNING_TO_USER &&
	    c->held_announced > 0 && c->held_seen >= (size_t)c->held_announced)
		complete = true;
	r->truncated = !complete || c->cut;
	report_finish(r);
	r->id = p->next_id++;
	c->rep = NULL;
	reset_state(c);
	p->fn(r, p->data);
}

static void start_report(struct klog_parser *p, struct ctx *c,
			 const struct klog_header *h, const struct klog_line *line)
{
	struct ldr_report *r = report_new(h->type, p->input);
	const char *t = skip_blanks(line->text);

	c->rep = r;
	reset_state(c);
	r->old_format = h->old_format;
	report_set(&r->header, t);
	if (starts(t, "WARNING: CPU: "))
		klog_cpu_line(r, t + 9);
	if (c->banner)
		report_add_raw(r, c->banner_lineno, c->banner);
	drop_banner(c);
	report_add_raw(r, line->lineno, line->text);
	switch (h->type) {
	case LDR_LOCKDEP_LIMIT:
		report_set(&r->message, h->detail);
		break;
	case LDR_IRQ_SAFE_UNSAFE_ORDER:
		report_set(&r->irq_class, h->detail);
		break;
	case LDR_LOCKS_HELD_AT_EXIT:
		if (h->detail)
			klog_set_task(r, h->detail, strlen(h->detail));
		break;
	default:
		break;
	}
}

/*
 * DEBUG_LOCKS_WARN_ON(x) and "lockdep bfs error" are WARN()s: the
 * "WARNING: CPU: ... at kernel/locking/lockdep.c" line after them is
 * theirs, not a new report.
 */
static bool warning_of(const struct ctx *c, const char *t)
{
	const struct ldr_report *r = c->rep;

	return r && r->type == LDR_OTHER_LOCKDEP && c->sec == SEC_HEAD &&
	       !r->message && klog_lockdep_warning(t) &&
	       (starts(r->header, "DEBUG_LOCKS_WARN_ON(") ||
		starts(r->header, "lockdep bfs error"));
}

/*
 * A header, also one a stray NUL byte (now '?') was inserted into: a
 * serial console's noise must not make a whole report vanish.
 */
static bool header_line(const struct klog_line *line, const char *t,
			struct klog_header *h)
{
	char *clean, *out;
	const char *in;
	bool ret;

	if (klog_parse_header(t, h))
		return true;
	if (!line->had_nul)
		return false;
	clean = out = xstrdup(t);
	for (in = t; *in; in++)
		if (*in != '?')
			*out++ = *in;
	*out = '\0';
	ret = klog_parse_header(clean, h);
	free(clean);
	return ret;
}

static void handle_line(const struct klog_line *line, void *data)
{
	struct klog_parser *p = data;
	struct ctx *c = ctx_find(p, line->caller);
	const char *t = skip_blanks(line->text);
	struct klog_header h;
	enum verdict v;

	if (header_line(line, t, &h)) {
		if (c && warning_of(c, t)) {
			report_set(&c->rep->message, t);
			if (starts(t, "WARNING: CPU: "))
				klog_cpu_line(c->rep, t + 9);
			report_add_raw(c->rep, line->lineno, line->text);
			free(h.detail);
			return;
		}
		if (!c)
			c = ctx_add(p, line->caller);
		if (c->rep)
			end_report(p, c);
		start_report(p, c, &h, line);
		free(h.detail);
		return;
	}
	if (banner_line(t)) {
		if (!c)
			c = ctx_add(p, line->caller);
		if (c->rep && (c->sec == SEC_BACKTRACE ||
			       c->rep->type == LDR_HELD_LOCKS_DUMP)) {
			/* " =======" closes old traces and the locks dump */
			report_add_raw(c->rep, line->lineno, line->text);
			c->complete = c->bt_frames ||
				      c->rep->type == LDR_HELD_LOCKS_DUMP;
			end_report(p, c);
			if (line->text[0] == ' ')
				goto out;
		}
		if (c->banner && c->rep)
			report_add_raw(c->rep, c->banner_lineno, c->banner);
		drop_banner(c);
		c->banner = xstrdup(line->text);
		c->banner_lineno = line->lineno;
		c->banner_age = 0;
		return;
	}
	if (!c)
		return;
	if (!c->rep) {
		if (++c->banner_age > MAX_BANNER_AGE)
			drop_banner(c);
		goto out;
	}
	if (c->banner) {
		report_add_raw(c->rep, c->banner_lineno, c->banner);
		drop_banner(c);
	}
	if (foreign_line(t)) {
		/* "Oops: ..." after "BUG: unable to handle ...": one fault */
		if (c->cut && c->sec != SEC_BACKTRACE) {
			report_add_raw(c->rep, line->lineno, line->text);
		} else if (cut_by_own_trace(c, t)) {
			klog_cut_report(c, t);
			report_add_raw(c->rep, line->lineno, line->text);
		} else {
			end_report(p, c);
		}
		goto out;
	}
	c->lineno = line->lineno;
	v = klog_report_line(c, line->text);
	if (v == V_NOT_MINE) {
		end_report(p, c);
		goto out;
	}
	if (v != V_UNKNOWN)
		c->unknown_run = 0;
	report_add_raw(c->rep, line->lineno, line->text);
	if (v == V_TAKEN_END) {
		c->complete = true;
		end_report(p, c);
	}
out:
	ctx_tidy(p, c);
}

/* ---- public interface ---- */

struct klog_parser *klog_parser_new(const char *input, unsigned int first_id,
				    klog_report_fn fn, void *data)
{
	struct klog_parser *p = xcalloc(1, sizeof(*p));

	p->input = xstrdup(input);
	p->fn = fn;
	p->data = data;
	p->next_id = first_id;
	klog_reader_init(&p->rd, handle_line, p);
	return p;
}

void klog_parser_push(struct klog_parser *p, const char *s, size_t len)
{
	klog_reader_push(&p->rd, s, len, ++p->lineno);
}

void klog_parser_finish(struct klog_parser *p)
{
	size_t i;

	klog_reader_flush(&p->rd);
	for (i = 0; i < p->nr_ctx; i++) {
		if (p->ctx[i].rep)
			end_report(p, &p->ctx[i]);
		drop_banner(&p->ctx[i]);
		free(p->ctx[i].holder);
		p->ctx[i].holder = NULL;
	}
	p->nr_ctx = 0;
}

unsigned int klog_parser_next_id(const struct klog_parser *p)
{
	return p->next_id;
}

void klog_parser_free(struct klog_parser *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nr_ctx; i++) {
		report_free(p->ctx[i].rep);
		free(p->ctx[i].banner);
		free(p->ctx[i].holder);
	}
	free(p->ctx);
	klog_reader_release(&p->rd);
	free(p->input);
	free(p);
}

int klog_parse_stream(FILE *in, const char *input, unsigned int *next_id,
		      klog_report_fn fn, void *data)
{
	struct klog_parser *p = klog_parser_new(input, *next_id, fn, data);
	struct line_reader lr;
	int ret;

	line_reader_init(&lr, in, input);
	while ((ret = line_reader_next(&lr)) > 0)
		klog_parser_push(p, lr.line, lr.len);
	line_reader_release(&lr);
	klog_parser_finish(p);
	*next_id = klog_parser_next_id(p);
	klog_parser_free(p);
	return ret;
}
