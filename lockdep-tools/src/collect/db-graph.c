// SPDX-License-Identifier: GPL-2.0
/*
 * The graph export (proto/allowlist.h) into the store (db-graph.h).
 * The parser's records go straight to store/store-export.c; this file
 * adds what needs vmlinux: the KASLR offset (runtime _stext from the
 * header minus link-time _stext of vmlinux), each class key's symbol,
 * and each trace's frames and site.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/db-graph.h"
#include "parse/proc-graph.h"
#include "store/store-export.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Raw addresses a site shows when nothing is symbolised. */
#define SITE_RAW_FRAMES	3

struct graph_ctx {
	struct store *st;
	const char *input;
	const char *build_id;
	struct symboliser *sym;	/* NULL, or with a usable vmlinux */
	struct store_export *x;
	bool kaslr;		/* sym can symbolise this export's addresses */
	unsigned long long kaslr_offset;
	struct ldr_frame *frames;
	size_t alloc_frames;
	struct strbuf site, key;
};

static int on_header(const struct proc_graph_header *h, void *data)
{
	struct graph_ctx *g = data;
	struct store_export_info info = { "unknown", 0, false };

	if (g->x)
		return error("%s:%lu: a second header", g->input, h->line);
	if (g->build_id[0]) {
		info.build_id_checked = strcasecmp(g->build_id, h->build_id) ?
					"different" : "equal";
		if (strcasecmp(g->build_id, h->build_id))
			warning("%s: build id %s differs from the kernel's (%s, /sys/kernel/notes)",
				g->input, h->build_id, g->build_id);
	}
	if (g->sym && !h->addresses_hidden &&
	    strcmp(info.build_id_checked, "different") &&
	    symboliser_vmlinux_symbol(g->sym, "_stext", &info.stext_link)) {
		info.has_stext_link = true;
		g->kaslr = true;
		g->kaslr_offset = h->stext - info.stext_link;
		symboliser_set_kaslr_offset(g->sym, g->kaslr_offset);
	}
	g->x = store_export_begin(g->st, h, &info);
	return g->x ? 0 : -1;
}

static int on_class(const struct proc_graph_class *c, void *data)
{
	struct graph_ctx *g = data;
	struct store_export_key key = { NULL, 0, false };
	unsigned long long off;
	const char *sym;

	if (!g->x)
		return -1;
	/* only a key vmlinux holds has a link-time address */
	if (g->kaslr && c->key) {
		key.link = c->key - g->kaslr_offset;
		sym = symboliser_vmlinux_object(g->sym, key.link, &off);
		if (sym) {
			key.has_link = true;
			strbuf_reset(&g->key);
			strbuf_addstr(&g->key, sym);
			if (off)
				strbuf_addf(&g->key, "+0x%llx", off);
			key.symbol = g->key.buf;
		}
	}
	return store_export_class(g->x, c, &key);
}

static int on_usage(const struct proc_graph_usage *u, void *data)
{
	struct graph_ctx *g = data;

	return g->x ? store_export_usage(g->x, u) : -1;
}

static int on_dep(const struct proc_graph_dep *d, void *data)
{
	struct graph_ctx *g = data;

	int ret = g->x ? store_export_dep(g->x, d) : -1;

	/* the kernel lists each once: a second record is not a replacement */
	if (ret > 0)
		return error("%s:%lu: dependency %u -> %u listed twice",
			     g->input, d->line, d->from, d->to);
	return ret;
}

static int on_chain(const struct proc_graph_chain *c, void *data)
{
	struct graph_ctx *g = data;

	return g->x ? store_export_chain(g->x, c) : -1;
}

/* Is f a frame report_pick_frame() would pass over (lockdep, a lock primitive)? */
static bool innocent(const struct ldr_frame *f)
{
	struct ldr_frames one = { (struct ldr_frame *)f, 1, 1 };

	return f->func && !report_pick_frame(&one);
}

static void add_frame(struct strbuf *sb, const struct ldr_frame *f)
{
	strbuf_addf(sb, "%s+0x%llx/0x%llx", f->func, f->off, f->size);
	if (f->module)
		strbuf_addf(sb, " [%s]", f->module);
	if (f->file) {
		strbuf_addf(sb, " (%s", f->file);
		if (f->line)
			strbuf_addf(sb, ":%u", f->line);
		strbuf_addch(sb, ')');
	}
}

void db_graph_site(struct strbuf *sb, const struct ldr_frame *v, size_t nr,
		   bool symbolised, unsigned long long trace_id)
{
	size_t i, k;

	if (!symbolised) {
		for (i = 0; i < nr && i < SITE_RAW_FRAMES; i++)
			strbuf_addf(sb, "0x%llx ", v[i].addr);
		strbuf_addf(sb, "(trace %llu, not symbolised)", trace_id);
		return;
	}
	for (i = 0; i < nr && innocent(&v[i]); i++)
		;
	if (i == nr) {
		strbuf_addf(sb, "trace %llu: no frame past the lock primitives",
			    trace_id);
		return;
	}
	if (v[i].func) {
		add_frame(sb, &v[i]);
		return;
	}
	strbuf_addf(sb, "0x%llx (not in vmlinux)", v[i].addr);
	for (k = i + 1; k < nr && !v[k].func; k++)
		;
	if (k < nr) {
		strbuf_addstr(sb, " from ");
		add_frame(sb, &v[k]);
	}
}

static void release_frames(struct graph_ctx *g, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		frame_release(&g->frames[i]);
}

static int on_trace(const struct proc_graph_trace *t, void *data)
{
	struct graph_ctx *g = data;
	size_t i;
	int ret;

	if (!g->x)
		return -1;
	ALLOC_GROW(g->frames, t->nr + 1, g->alloc_frames);
	memset(g->frames, 0, (t->nr + 1) * sizeof(*g->frames));
	for (i = 0; i < t->nr; i++) {
		g->frames[i].addr = t->addrs[i];
		g->frames[i].has_addr = true;
	}
	if (g->kaslr)
		symbolise_frames(g->sym, g->frames, t->nr, 0);
	strbuf_reset(&g->site);
	db_graph_site(&g->site, g->frames, t->nr, g->kaslr, t->id);
	ret = store_export_trace(g->x, t, g->frames, g->site.buf);
	release_frames(g, t->nr);
	if (ret > 0)
		return error("%s:%lu: trace %llu listed twice", g->input,
			     t->line, t->id);
	return ret;
}

int db_graph_store(struct store *st, const char *input, const char *buf,
		   size_t len, const char *build_id, struct symboliser *sym,
		   bool *truncated)
{
	static const struct proc_graph_ops ops = {
		on_header, on_class, on_usage, on_dep, on_chain, on_trace,
	};
	struct graph_ctx g = { .st = st, .input = input, .build_id = build_id };
	struct proc_parse_stats ps = { 0 };
	FILE *in;
	int ret;

	if (sym && symboliser_has_vmlinux(sym))
		g.sym = sym;
	strbuf_init(&g.site);
	strbuf_init(&g.key);
	*truncated = false;
	if (!len) {
		warning("'%s' is empty; no graph stored", input);
		*truncated = true;
		return 0;
	}
	in = fmemopen((void *)buf, len, "r");
	if (!in)
		return error("unable to read '%s': %s", input, strerror(errno));
	ret = proc_graph_parse(in, input, 0, &ops, &g, &ps);
	fclose(in);
	if (!ret && ps.bad)
		ret = error("'%s' has %lu malformed line%s (see above); nothing stored",
			    input, ps.bad, ps.bad == 1 ? "" : "s");
	if (!ret && !g.x) {
		/* cut before its counts line: nothing of it to store */
		warning("'%s' ends inside its header; no graph stored", input);
		*truncated = true;
		ret = 0;
	} else if (!ret) {
		*truncated = (ps.notes & PROC_NOTE_TRUNCATED) != 0;
		ret = store_export_end(g.x, !*truncated);
	} else {
		store_export_free(g.x);
	}
	free(g.frames);
	strbuf_release(&g.site);
	strbuf_release(&g.key);
	return ret ? -1 : 0;
}
