// SPDX-License-Identifier: GPL-2.0
/*
 * JSON printer: one object per report with every parsed field. The keys
 * are documented in lockdep-report(1); absent optional values are null.
 */
#include "report/report-print.h"

/*
 * The one JSON shape of a frame, lockdep-report's and lockdep-symbolise's
 * (lockdep-report(1) documents it): every key always there, null for what
 * is not known, so that a script reads both tools' frames alike.
 */
void report_json_frame(struct json_writer *w, const struct ldr_frame *f)
{
	jsonw_start_object(w);
	jsonw_string_field(w, "func", f->func);
	jsonw_name(w, "off");
	f->has_off ? jsonw_uint(w, f->off) : jsonw_null(w);
	jsonw_name(w, "size");
	f->has_off ? jsonw_uint(w, f->size) : jsonw_null(w);
	jsonw_name(w, "addr");
	f->has_addr ? jsonw_hex(w, f->addr) : jsonw_null(w);
	jsonw_string_field(w, "module", f->module);
	jsonw_string_field(w, "build_id", f->build_id);
	jsonw_string_field(w, "file", f->file);
	jsonw_name(w, "line");
	f->file ? jsonw_uint(w, f->line) : jsonw_null(w);
	jsonw_bool_field(w, "unreliable", f->unreliable);
	jsonw_bool_field(w, "inline", f->inlined);
	jsonw_name(w, "inlined");	/* innermost call first */
	jsonw_start_array(w);
	for (size_t i = 0; i < f->nr_inl; i++) {
		jsonw_start_object(w);
		jsonw_string_field(w, "func", f->inl[i].func);
		jsonw_string_field(w, "file", f->inl[i].file);
		jsonw_uint_field(w, "line", f->inl[i].line);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_end_object(w);
}

static void frames_json(struct json_writer *w, const char *name,
			const struct ldr_frames *fr)
{
	size_t i;

	jsonw_name(w, name);
	jsonw_start_array(w);
	for (i = 0; fr && i < fr->nr; i++)
		report_json_frame(w, &fr->v[i]);
	jsonw_end_array(w);
}

static void lock_json(struct json_writer *w, const struct ldr_lock *l)
{
	unsigned int bit;

	jsonw_start_object(w);
	jsonw_string_field(w, "role", ldr_role_name(l->role));
	jsonw_string_field(w, "name", l->name);
	jsonw_string_field(w, "class", l->class_name);
	jsonw_uint_field(w, "version", l->version);
	jsonw_uint_field(w, "subclass", l->subclass);
	jsonw_string_field(w, "usage", l->usage);
	jsonw_name(w, "usage_bits");
	jsonw_start_array(w);
	for (bit = 0; bit < LDR_USAGE_BITS; bit++)
		if (l->usage_bits & (1u << bit))
			jsonw_string(w, ldr_usage_bit_name(bit));
	jsonw_end_array(w);
	jsonw_name(w, "wait_type");
	if (l->wait_outer >= 0) {
		jsonw_start_object(w);
		jsonw_int_field(w, "outer", l->wait_outer);
		jsonw_int_field(w, "inner", l->wait_inner);
		jsonw_end_object(w);
	} else {
		jsonw_null(w);
	}
	jsonw_name(w, "addr");
	if (l->has_addr)
		jsonw_hex(w, l->addr);
	else
		jsonw_null(w);
	jsonw_name(w, "index");
	if (l->index >= 0)
		jsonw_int(w, l->index);
	else
		jsonw_null(w);
	jsonw_string_field(w, "holder", l->holder);
	jsonw_uint_field(w, "line", l->line);
	frames_json(w, "at", &l->at);
	jsonw_end_object(w);
}

void report_json_strings(struct json_writer *w, const char *name,
			 char *const *v, size_t n)
{
	size_t i;

	jsonw_name(w, name);
	jsonw_start_array(w);
	for (i = 0; i < n; i++)
		jsonw_string(w, v[i]);
	jsonw_end_array(w);
}

static void opt_long(struct json_writer *w, const char *name, long v)
{
	jsonw_name(w, name);
	if (v >= 0)
		jsonw_int(w, v);
	else
		jsonw_null(w);
}

void report_print_json(struct json_writer *w, const struct ldr_report *r,
		       const struct advice *a, const struct report_workload *rw)
{
	size_t i;

	jsonw_start_object(w);
	jsonw_uint_field(w, "id", r->id);
	jsonw_string_field(w, "type", ldr_type_name(r->type));
	jsonw_string_field(w, "title", r->title);
	jsonw_string_field(w, "syzbot_title", r->syzbot_title);
	jsonw_string_field(w, "header", r->header);
	jsonw_string_field(w, "message", r->message);
	jsonw_string_field(w, "dedup_key", r->dedup_key);
	jsonw_bool_field(w, "truncated", r->truncated);
	jsonw_string_field(w, "input", r->input);
	jsonw_uint_field(w, "first_line", r->first_line);
	jsonw_uint_field(w, "last_line", r->last_line);
	jsonw_string_field(w, "release", r->release);
	jsonw_string_field(w, "taint", r->taint);
	jsonw_string_field(w, "task", r->task);
	opt_long(w, "pid", r->pid);
	opt_long(w, "cpu", r->cpu);
	jsonw_string_field(w, "irq_context", r->irq_context);
	jsonw_string_field(w, "irq_class", r->irq_class);
	jsonw_string_field(w, "hardware", r->hardware);

	jsonw_name(w, "locks");
	jsonw_start_array(w);
	for (i = 0; i < r->nr_locks; i++)
		lock_json(w, &r->locks[i]);
	jsonw_end_array(w);

	jsonw_name(w, "chain");
	jsonw_start_array(w);
	for (i = 0; i < r->nr_chain; i++)
		jsonw_string(w, r->locks[r->chain[i].lock].name);
	jsonw_end_array(w);
	report_json_strings(w, "chain_summary", r->chain_summary,
			    r->nr_chain_summary);

	jsonw_name(w, "scenario");
	jsonw_start_array(w);
	for (i = 0; i < r->nr_scenario; i++) {
		jsonw_start_object(w);
		jsonw_uint_field(w, "cpu", r->scenario[i].cpu);
		jsonw_string_field(w, "text", r->scenario[i].text);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);

	jsonw_name(w, "irq_event_stamp");
	if (r->has_irq_event_stamp)
		jsonw_uint(w, r->irq_event_stamp);
	else
		jsonw_null(w);
	jsonw_name(w, "irq_events");
	jsonw_start_array(w);
	for (i = 0; i < r->nr_irq_events; i++) {
		jsonw_start_object(w);
		jsonw_string_field(w, "what", r->irq_events[i].what);
		jsonw_uint_field(w, "stamp", r->irq_events[i].stamp);
		frames_json(w, "frames", &r->irq_events[i].frames);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);

	frames_json(w, "frames", r->backtrace >= 0 ?
		    &r->stacks[r->backtrace].frames : NULL);
	jsonw_name(w, "stacks");
	jsonw_start_array(w);
	for (i = 0; i < r->nr_stacks; i++) {
		jsonw_start_object(w);
		jsonw_string_field(w, "label", r->stacks[i].label);
		jsonw_name(w, "lock");
		if (r->stacks[i].lock >= 0)
			jsonw_int(w, r->stacks[i].lock);
		else
			jsonw_null(w);
		frames_json(w, "frames", &r->stacks[i].frames);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	report_json_strings(w, "notes", r->notes, r->nr_notes);

	jsonw_name(w, "raw");
	jsonw_start_array(w);
	for (i = 0; i < r->nr_raw; i++) {
		jsonw_start_object(w);
		jsonw_uint_field(w, "line", r->raw[i].lineno);
		jsonw_string_field(w, "text", r->raw[i].text);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_uint_field(w, "raw_dropped", r->raw_dropped);
	if (a)
		report_json_advice(w, a);
	if (rw && rw->w)
		report_json_workload(w, rw);
	if (rw && rw->limit)
		report_json_snapshot(w, rw->snapshot);
	jsonw_end_object(w);
}
