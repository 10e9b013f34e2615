// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the MANIFEST writer (src/collect/manifest.c) and
 * its reader (source_rawdir()). The input's bytes make a collection
 * summary such as the agent client can: a sanitised identity, every
 * file with a status, size and reason, module files, the kernel log's
 * records, first, last and gaps, events, triggers, a workload in any
 * state with any numbers the database counts. manifest_write() writes
 * it, the files it describes are made beside it (the kmsg file with its
 * records, each file with its bytes, workload.out), and source_rawdir()
 * reads the directory back. Invariant: what was written is read, and is
 * read as the summary written, field by field; and written again, it is
 * the same text.
 */
#include <inttypes.h>
#include <stdbool.h>

#include "fuzz-rawdir.h"
#include "proto/message.h"
#include "util/strbuf.h"

/* The input, taken a few bytes at a time; zeros once it runs out. */
struct bytes {
	const uint8_t *p;
	size_t left;
};

static uint64_t take(struct bytes *b, unsigned int n)
{
	uint64_t v = 0;

	while (n--) {
		v = v << 8 | (b->left ? *b->p : 0);
		if (b->left) {
			b->p++;
			b->left--;
		}
	}
	return v;
}

/* A name of 1..@max bytes of @set. */
static void take_name(struct bytes *b, char *out, size_t max, const char *set)
{
	size_t i, n = take(b, 1) % max + 1, k = strlen(set);

	for (i = 0; i < n; i++)
		out[i] = set[take(b, 1) % k];
	out[n] = '\0';
}

/* What the client can give as the reason of an item not complete. */
static int take_err(struct bytes *b)
{
	int v = take(b, 2) % (PROTO_MAX_ERRNO + 1);

	return v ? v : ITEM_UNLISTED;
}

static char *make_bytes(size_t n)
{
	char *s = malloc(n ? n : 1);

	FUZZ_CHECK(s);
	memset(s, 'x', n);
	return s;
}

static void make_files(struct bytes *b, struct collect_summary *sum)
{
	char path[128], name[PROTO_MAX_MODULE_NAME + 1];
	char section[PROTO_MAX_SECTION_NAME + 1], disk[256];
	unsigned int i, modules = take(b, 1) % 4;
	struct file_item *f;
	char *content;
	int err;

	for (i = 0; i < modules; i++) {
		take_name(b, name, 8, "abcdefghijklmnopqrstuvwxyz0123456789_");
		take_name(b, section, 8, "abcdefghijklmnopqrstuvwxyz0123456789_.-");
		if (take(b, 1) & 1)
			snprintf(path, sizeof(path), "%s%s%s%s", PROTO_MODULE_DIR,
				 name, PROTO_SECTIONS_DIR, section);
		else
			snprintf(path, sizeof(path), "%s%s%s", PROTO_MODULE_DIR,
				 name, PROTO_BUILD_ID_NOTE);
		if (proto_module_file_path(path, strlen(path)))
			collect_summary_add_module_file(sum, path, strlen(path),
							&err);
	}
	for (i = 0; i < sum->nfiles; i++) {
		f = &sum->files[i];
		/* missing half the time: fewer files to write per input */
		f->status = take(b, 1) % 4;
		f->status = f->status ? f->status - 1 : ITEM_MISSING;
		f->bytes = f->status == ITEM_MISSING ? 0 : take(b, 1) % 48 +
			   (f->status == ITEM_INCOMPLETE);
		f->err = f->status == ITEM_COMPLETE ? 0 : take_err(b);
		if (f->status == ITEM_MISSING)
			continue;
		snprintf(disk, sizeof(disk), "files%s%s", f->path,
			 f->status == ITEM_INCOMPLETE ? ".incomplete" : "");
		content = make_bytes(f->bytes);
		FUZZ_CHECK(fuzz_dir_put(disk, content, f->bytes));
		free(content);
	}
}

static void make_kmsg(struct bytes *b, struct kmsg_item *k)
{
	struct strbuf recs = STRBUF_INIT;
	uint64_t seq, i, gap;

	k->status = take(b, 1) % 3;
	k->records = k->status == ITEM_MISSING ? 0 : take(b, 1) % 6;
	k->err = k->status == ITEM_COMPLETE ? 0 : take_err(b);
	seq = k->first = k->records ? take(b, 8) >> 2 : 0;
	for (i = 0; i < k->records; i++) {
		gap = i ? take(b, 1) % 4 : 0;
		if (gap) {
			k->gaps = realloc(k->gaps, (k->ngaps + 1) *
						   sizeof(*k->gaps));
			FUZZ_CHECK(k->gaps);
			k->gaps[k->ngaps].from = seq + 1;
			k->gaps[k->ngaps++].to = seq + gap;
			seq += gap;
		}
		if (i)
			seq++;
		strbuf_addf(&recs, "6,%" PRIu64 ",0,-;x\n", seq);
	}
	k->last = seq;
	if (k->status != ITEM_MISSING)
		FUZZ_CHECK(fuzz_dir_put("kmsg", recs.buf, recs.len));
	strbuf_release(&recs);
}

static void make_workload(struct bytes *b, struct workload_item *w)
{
	size_t kept;

	w->state = take(b, 1) % 4;
	if (w->state == WORKLOAD_NONE)
		return;
	take_name(b, w->name, WORKLOAD_NAME_MAX,
		  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-");
	if (w->state == WORKLOAD_NOT_STARTED) {
		w->err = take_err(b);
		return;
	}
	w->start_seq = take(b, 1) & 1 ? take(b, 8) : WORKLOAD_SEQ_UNKNOWN;
	/* a running one's output, if it was asked for; always once exited */
	if (w->state == WORKLOAD_EXITED || take(b, 1) & 1) {
		/* more than the agent keeps now and then: 64 KiB to write */
		w->output_total = take(b, 1) % 16 ? take(b, 2) :
				  take(b, 8) >> 1;
		kept = w->output_total < PROTO_WORKLOAD_OUTPUT ?
		       w->output_total : PROTO_WORKLOAD_OUTPUT;
		w->output = (uint8_t *)make_bytes(kept);
		w->output_len = kept;
		FUZZ_CHECK(fuzz_dir_put("workload.out", w->output, kept));
	}
	if (w->state != WORKLOAD_EXITED)
		return;
	w->end_seq = take(b, 1) & 1 ? take(b, 8) : WORKLOAD_SEQ_UNKNOWN;
	w->wait_status = (int)take(b, 4);
	w->duration_ms = take(b, 8) >> 1;
}

static void check_same(const struct collect_summary *a,
		       const struct collect_summary *b)
{
	const struct workload_item *w = &a->workload, *v = &b->workload;
	size_t i;

	FUZZ_CHECK(!strcmp(a->identity, b->identity));
	FUZZ_CHECK(a->nfiles == b->nfiles);
	for (i = 0; i < a->nfiles; i++) {
		FUZZ_CHECK(!strcmp(a->files[i].path, b->files[i].path));
		FUZZ_CHECK(a->files[i].status == b->files[i].status &&
			   a->files[i].bytes == b->files[i].bytes &&
			   a->files[i].err == b->files[i].err);
	}
	FUZZ_CHECK(a->kmsg.status == b->kmsg.status &&
		   a->kmsg.records == b->kmsg.records &&
		   a->kmsg.first == b->kmsg.first &&
		   a->kmsg.last == b->kmsg.last &&
		   a->kmsg.ngaps == b->kmsg.ngaps &&
		   (a->kmsg.status == ITEM_COMPLETE ||
		    a->kmsg.err == b->kmsg.err));
	for (i = 0; i < a->kmsg.ngaps; i++)
		FUZZ_CHECK(a->kmsg.gaps[i].from == b->kmsg.gaps[i].from &&
			   a->kmsg.gaps[i].to == b->kmsg.gaps[i].to);
	FUZZ_CHECK(a->events.offered == b->events.offered &&
		   a->events.bytes == b->events.bytes);
	FUZZ_CHECK(a->ntriggers == b->ntriggers);
	for (i = 0; i < a->ntriggers; i++)
		FUZZ_CHECK(!strcmp(a->triggers[i].name, b->triggers[i].name) &&
			   a->triggers[i].done == b->triggers[i].done &&
			   (a->triggers[i].done ||
			    a->triggers[i].err == b->triggers[i].err));
	FUZZ_CHECK(w->state == v->state);
	if (w->state == WORKLOAD_NONE)
		return;
	FUZZ_CHECK(!strcmp(w->name, v->name) && w->start_seq == v->start_seq &&
		   w->end_seq == v->end_seq && w->output_total == v->output_total &&
		   w->output_len == v->output_len && !w->output == !v->output &&
		   (!w->output_len ||
		    !memcmp(w->output, v->output, w->output_len)));
	if (w->state == WORKLOAD_NOT_STARTED)
		FUZZ_CHECK(w->err == v->err);
	if (w->state == WORKLOAD_EXITED)
		FUZZ_CHECK(w->wait_status == v->wait_status &&
			   w->duration_ms == v->duration_ms);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const scenarios[] = { "ab_ba", "aa", "irq-inversion" };
	struct bytes b = { data, size };
	const char *triggers[3];
	struct collect_summary sum;
	struct rawdir_read r;
	char *text = NULL, ident[80];
	size_t len, i, n;
	FILE *mem;

	fuzz_quiet_errors();
	fuzz_dir_reset(true);
	n = take(&b, 1) % 4;
	for (i = 0; i < n; i++)
		triggers[i] = scenarios[take(&b, 1) % 3];
	FUZZ_CHECK(!collect_summary_init(&sum, triggers, n));
	for (i = 0; i < n; i++) {
		sum.triggers[i].done = take(&b, 1) & 1;
		sum.triggers[i].err = sum.triggers[i].done ? 0 : take_err(&b);
	}
	/* as agent_client_hello() keeps it */
	len = take(&b, 1) % sizeof(ident);
	for (i = 0; i < len; i++)
		ident[i] = take(&b, 1);
	proto_sanitize(sum.identity, sizeof(sum.identity), (uint8_t *)ident,
		       len);
	make_files(&b, &sum);
	make_kmsg(&b, &sum.kmsg);
	sum.events.offered = take(&b, 1) & 1;
	if (sum.events.offered) {
		char *ev = make_bytes(sum.events.bytes = take(&b, 1));

		FUZZ_CHECK(fuzz_dir_put("events", ev, sum.events.bytes));
		free(ev);
	}
	make_workload(&b, &sum.workload);
	mem = open_memstream(&text, &len);
	FUZZ_CHECK(mem && !manifest_write(mem, &sum));
	fclose(mem);
	FUZZ_CHECK(fuzz_dir_put("MANIFEST", text, len));
	fuzz_read_rawdir(&r);
	FUZZ_CHECK(!r.ret);
	check_same(&sum, &r.sum);
	FUZZ_CHECK(r.len == len && !memcmp(r.text, text, len));
	rawdir_read_release(&r);
	collect_summary_release(&sum);
	free(text);
	return 0;
}
