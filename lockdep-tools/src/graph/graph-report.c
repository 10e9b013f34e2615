// SPDX-License-Identifier: GPL-2.0
/*
 * The dependency chain of one parsed report as a lock graph, with the
 * site of each link.
 *
 * A circular dependency report prints its chain as "-> #N" .. "-> #0":
 * #0 is the lock being acquired, #N the lock already held, and the
 * stack under "-> #k" is where #k was taken while #k-1 was held
 * (print_circular_bug(): the search went #0 -> #1 -> .. -> #N); the
 * stack under #0 is the new dependency #N -> #0 being added. In the
 * printed order chain[0] = #N .. chain[n-1] = #0, so the edges are
 * chain[j + 1] -> chain[j], each with chain[j]'s stack, and the closing
 * chain[0] -> chain[n - 1] with chain[n - 1]'s.
 *
 * A report without a chain gives each held lock -> the acquired lock,
 * at the acquired lock's "at:" site.
 */
#include <stdio.h>
#include <stdlib.h>

#include "graph/graph-view.h"
#include "parse/report.h"
#include "util/strbuf.h"

static char *frame_site(const struct ldr_frames *f)
{
	const struct ldr_frame *fr = report_pick_frame(f);
	struct strbuf sb = STRBUF_INIT;

	if (!fr)
		return NULL;
	strbuf_addstr(&sb, fr->func);
	if (fr->has_off)
		strbuf_addf(&sb, "+0x%llx/0x%llx", fr->off, fr->size);
	if (fr->module)
		strbuf_addf(&sb, " [%s]", fr->module);
	if (fr->file && fr->line)
		strbuf_addf(&sb, " %s:%u", fr->file, fr->line);
	else if (fr->file)
		strbuf_addf(&sb, " %s", fr->file);
	return strbuf_detach(&sb, NULL);
}

static uint32_t lock_node(struct graph *g, const struct ldr_report *r, int lock)
{
	const struct ldr_lock *l = &r->locks[lock];

	return graph_add_node(g, NULL, l->name, l->usage_bits, 0);
}

static void link_edge(struct graph *g, const struct ldr_report *r,
		      int from_lock, int to_lock, const struct ldr_frames *at)
{
	char *site = at ? frame_site(at) : NULL;

	graph_add_edge(g, lock_node(g, r, from_lock), lock_node(g, r, to_lock),
		       0, -1, -1, site);
	free(site);
}

static const struct ldr_frames *link_frames(const struct ldr_report *r,
					    size_t j)
{
	int s = r->chain[j].stack;

	return s >= 0 ? &r->stacks[s].frames : NULL;
}

struct graph *graph_from_report(const struct ldr_report *r, int64_t boot_id,
				const char *label)
{
	struct graph *g = graph_new();
	size_t j, n = r->nr_chain, i, k;

	graph_add_boot(g, boot_id, label);
	if (n) {
		for (j = 0; j < n; j++)
			if (r->chain[j].lock >= 0)
				lock_node(g, r, r->chain[j].lock);
		for (j = 0; j + 1 < n; j++)
			if (r->chain[j].lock >= 0 && r->chain[j + 1].lock >= 0)
				link_edge(g, r, r->chain[j + 1].lock,
					  r->chain[j].lock, link_frames(r, j));
		if (n > 1 && r->chain[0].lock >= 0 && r->chain[n - 1].lock >= 0)
			link_edge(g, r, r->chain[0].lock, r->chain[n - 1].lock,
				  link_frames(r, n - 1));
	} else {
		for (i = 0; i < r->nr_locks; i++) {
			if (r->locks[i].role != LDR_ROLE_ACQUIRING)
				continue;
			lock_node(g, r, (int)i);
			for (k = 0; k < r->nr_locks; k++)
				if (r->locks[k].role == LDR_ROLE_HOLDING)
					link_edge(g, r, (int)k, (int)i,
						  &r->locks[i].at);
		}
	}
	graph_finish(g);
	return g;
}
