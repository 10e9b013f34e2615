// SPDX-License-Identifier: GPL-2.0
/*
 * Plain-text printer: a summary block, then the report's parts in the
 * order and words lockdep itself uses, so a kernel developer reads it
 * like the original splat, minus the log noise.
 */
#include <string.h>

#include "report/report-print.h"
#include "util/strbuf.h"
#include "util/term-text.h"

/* "%llx" or "%u" without a format to parse */
static void add_number(struct strbuf *sb, unsigned long long v,
		       unsigned int base)
{
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	strbuf_add(sb, p, (size_t)(buf + sizeof(buf) - p));
}

static void add_text(struct strbuf *sb, const char *s)
{
	term_text_add(sb, s, strlen(s));
}

/*
 * The frame is put together in memory and written at once: printed
 * piece by piece through stdio (fprintf, a write per piece), it was
 * half of a warm lockdep-symbolise run, which prints a frame or three
 * per address (and now appends them to a batch's buffer, written once:
 * report_format_frame()). The buffer is kept: the tools print from one
 * thread.
 */
void report_print_frame(FILE *out, const struct ldr_frame *f)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_reset(&sb);
	report_format_frame(&sb, f);
	fwrite(sb.buf, 1, sb.len, out);
}

void report_format_frame(struct strbuf *sb, const struct ldr_frame *f)
{
	if (f->unreliable)
		strbuf_add(sb, "? ", 2);
	if (f->func) {
		add_text(sb, f->func);
		if (f->has_off) {
			strbuf_add(sb, "+0x", 3);
			add_number(sb, f->off, 16);
			strbuf_add(sb, "/0x", 3);
			add_number(sb, f->size, 16);
		}
	} else {
		strbuf_add(sb, "0x", 2);
		add_number(sb, f->addr, 16);
	}
	if (f->module) {
		strbuf_add(sb, " [", 2);
		add_text(sb, f->module);
		if (f->build_id) {
			strbuf_add(sb, " ", 1);
			add_text(sb, f->build_id);
		}
		strbuf_add(sb, "]", 1);
	}
	if (f->file) {
		strbuf_add(sb, " ", 1);
		add_text(sb, f->file);
		strbuf_add(sb, ":", 1);
		add_number(sb, f->line, 10);
	}
	if (f->inlined)
		strbuf_add(sb, " [inline]", 9);
}

static void frames(FILE *out, const struct ldr_frames *fr, const char *indent)
{
	size_t i;

	for (i = 0; i < fr->nr; i++) {
		const struct ldr_frame *f = &fr->v[i];

		/* symbolised inlined calls first, as syzkaller prints them */
		for (size_t k = 0; k < f->nr_inl; k++) {
			fprintf(out, "%s%s", indent, f->unreliable ? "? " : "");
			term_text_fputs(out, f->inl[k].func);
			fputc(' ', out);
			term_text_fputs(out, f->inl[k].file ? f->inl[k].file : "??");
			fprintf(out, ":%u [inline]\n", f->inl[k].line);
		}
		fputs(indent, out);
		report_print_frame(out, f);
		fputc('\n', out);
	}
}

static void lock_name(FILE *out, const struct ldr_lock *l)
{
	fputc('(', out);
	term_text_fputs(out, l->name);
	fputc(')', out);
	if (l->usage) {
		fputc('{', out);
		term_text_fputs(out, l->usage);
		fputc('}', out);
	}
	if (l->wait_outer >= 0)
		fprintf(out, "-{%d:%d}", l->wait_outer, l->wait_inner);
}

static void lock_line(FILE *out, const struct ldr_lock *l)
{
	fprintf(out, "  %-11s", ldr_role_name(l->role));
	if (l->index >= 0)
		fprintf(out, "#%d: ", l->index);
	lock_name(out, l);
	if (l->holder) {
		fputs(" held by ", out);
		term_text_fputs(out, l->holder);
	}
	if (l->at.nr) {
		fputs(", at: ", out);
		report_print_frame(out, &l->at.v[l->at.nr - 1]);
	}
	fputc('\n', out);
}

static void field(FILE *out, const char *name, const char *value)
{
	if (!value)
		return;
	fprintf(out, "  %-9s", name);
	term_text_fputs(out, value);
	fputc('\n', out);
}

static void summary(FILE *out, const struct ldr_report *r)
{
	fprintf(out, "report %u: %s: ", r->id, ldr_type_name(r->type));
	term_text_fputs(out, r->title);
	fputc('\n', out);
	field(out, "header:", r->header);
	field(out, "message:", r->message);
	if (r->release || r->taint) {
		fputs("  kernel:  ", out);
		term_text_fputs(out, r->release ? r->release : "?");
		if (r->taint && *r->taint) {
			fputs(", tainted: ", out);
			term_text_fputs(out, r->taint);
		} else if (r->taint) {
			fputs(", not tainted", out);
		}
		fputc('\n', out);
	}
	if (r->task || r->pid >= 0 || r->cpu >= 0) {
		fputs("  task:    ", out);
		term_text_fputs(out, r->task ? r->task : "?");
		if (r->pid >= 0)
			fprintf(out, "/%ld", r->pid);
		if (r->cpu >= 0)
			fprintf(out, " on CPU %ld", r->cpu);
		if (r->irq_context) {
			fputs(" [", out);
			term_text_fputs(out, r->irq_context);
			fputc(']', out);
		}
		fputc('\n', out);
	}
	fputs("  input:   ", out);
	term_text_fputs(out, r->input);
	fprintf(out, ":%lu-%lu%s\n", r->first_line, r->last_line,
		r->truncated ? " (truncated)" : "");
	field(out, "dedup:", r->dedup_key);
}

void report_print_plain(FILE *out, const struct ldr_report *r)
{
	size_t i;

	summary(out, r);
	if (r->nr_locks) {
		fputs("\nlocks:\n", out);
		for (i = 0; i < r->nr_locks; i++)
			if (r->locks[i].role != LDR_ROLE_CHAIN &&
			    r->locks[i].role != LDR_ROLE_DEPENDENCY)
				lock_line(out, &r->locks[i]);
	}
	if (r->nr_chain) {
		fputs("\nthe existing dependency chain (in reverse order) is:\n",
		      out);
		for (i = 0; i < r->nr_chain; i++) {
			const struct ldr_lock *l = &r->locks[r->chain[i].lock];

			fprintf(out, "\n-> #%d ", l->index);
			lock_name(out, l);
			fputs(":\n", out);
			frames(out, &r->stacks[r->chain[i].stack].frames,
			       "       ");
		}
	}
	if (r->nr_chain_summary) {
		fputs("\nChain exists of:\n  ", out);
		for (i = 0; i < r->nr_chain_summary; i++) {
			if (i)
				fputs(" --> ", out);
			term_text_fputs(out, r->chain_summary[i]);
		}
		fputc('\n', out);
	}
	if (r->nr_scenario) {
		fputs("\n Possible unsafe locking scenario:\n\n", out);
		fputs("       CPU0                    CPU1\n", out);
		fputs("       ----                    ----\n", out);
		for (i = 0; i < r->nr_scenario; i++) {
			fputs(r->scenario[i].cpu ?
			      "                               " : "  ", out);
			term_text_fputs(out, r->scenario[i].text);
			fputc('\n', out);
		}
	}
	if (r->has_irq_event_stamp || r->nr_irq_events) {
		fputc('\n', out);
		if (r->has_irq_event_stamp)
			fprintf(out, "irq event stamp: %llu\n",
				r->irq_event_stamp);
		for (i = 0; i < r->nr_irq_events; i++) {
			const struct ldr_irq_event *ev = &r->irq_events[i];

			fprintf(out, "%s at (%llu):\n", ev->what, ev->stamp);
			frames(out, &ev->frames, "  ");
		}
	}
	for (i = 0; i < r->nr_stacks; i++) {
		const struct ldr_stack *s = &r->stacks[i];

		if ((int)i == r->backtrace || !strncmp(s->label, "chain #", 7))
			continue;
		fputc('\n', out);
		term_text_fputs(out, s->label);
		if (s->lock >= 0) {
			fputs(" of ", out);
			lock_name(out, &r->locks[s->lock]);
		}
		fputs(":\n", out);
		frames(out, &s->frames, "  ");
	}
	if (r->backtrace >= 0) {
		fputs("\nstack backtrace:\n", out);
		frames(out, &r->stacks[r->backtrace].frames, "  ");
	}
	for (i = 0; i < r->nr_notes; i++) {
		fputs(i ? "  " : "\nnotes:\n  ", out);
		term_text_fputs(out, r->notes[i]);
		fputc('\n', out);
	}
	fputc('\n', out);
}

void report_print_list(FILE *out, const struct ldr_report *r)
{
	fprintf(out, "%u %-27s ", r->id, ldr_type_name(r->type));
	term_text_fputs(out, r->title);
	if (r->truncated)
		fputs(" (truncated)", out);
	fputc('\n', out);
}
