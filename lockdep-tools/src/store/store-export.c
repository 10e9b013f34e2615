// SPDX-License-Identifier: GPL-2.0
/*
 * Writing the graph export into a boot (store-export.h). The export's
 * class indices map to classes.id through one array indexed by them
 * (PROC_GRAPH_MAX_CLASSES entries, 0 for none); its statements are
 * prepared once per export and finalized with it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/identity.h"
#include "store/store-export.h"
#include "store/store-int.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum export_stmt {
	X_HEADER, X_FIND_CLASS, X_UPDATE_CLASS, X_INSERT_CLASS, X_USAGE,
	X_DEP, X_CHAIN, X_CHAIN_CLASS, X_TRACE, X_FRAME, X_END, X_NR
};

static const char *const export_sql[X_NR] = {
	[X_HEADER] =
		"INSERT INTO graph_exports (boot_id, version, release, build_id,"
		" build_id_checked, addresses, stext, stext_link, kaslr_offset,"
		" usage_bit_names, dep_bit_names, classes, deps, chains, traces,"
		" complete) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
		" ?, 0)",
	[X_FIND_CLASS] =
		"SELECT id FROM classes WHERE boot_id = ? AND name = ?"
		" AND graph_idx IS NULL ORDER BY id LIMIT 1",
	/* /proc/lockdep's usage and wait types stay when it printed them */
	[X_UPDATE_CLASS] =
		"UPDATE classes SET graph_idx = ?2, name_version = ?3,"
		" subclass = ?4, usage_mask = ?5,"
		" usage_bits = coalesce(usage_bits, ?6),"
		" wait_inner = coalesce(wait_inner, ?7),"
		" wait_outer = coalesce(wait_outer, ?8), key_addr = ?9,"
		" key_offset = ?10, key_link = ?11, key_symbol = ?12,"
		" identity = ?13 WHERE id = ?1",
	[X_INSERT_CLASS] =
		"INSERT INTO classes (boot_id, graph_idx, name_version,"
		" subclass, usage_mask, usage_bits, wait_inner, wait_outer,"
		" key_addr, key_offset, key_link, key_symbol, identity, name)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,"
		" ?13, ?14)",
	[X_USAGE] =
		"INSERT INTO class_usage (class_id, bit, name, trace_id)"
		" VALUES (?, ?, ?, ?)",
	[X_DEP] =
		"INSERT INTO dependencies (boot_id, from_class, to_class,"
		" dep_bits, distance, trace_id) VALUES (?, ?, ?, ?, ?, ?)"
		" ON CONFLICT (from_class, to_class) DO UPDATE SET"
		" dep_bits = excluded.dep_bits, distance = excluded.distance,"
		" trace_id = excluded.trace_id"
		/* only a row of /proc/lockdep's, never one of the export's */
		" WHERE dependencies.distance IS NULL",
	[X_CHAIN] =
		"INSERT INTO graph_chains (boot_id, idx, irq_context, depth)"
		" VALUES (?, ?, ?, ?)",
	[X_CHAIN_CLASS] =
		"INSERT INTO graph_chain_classes (boot_id, chain_idx, pos,"
		" class_id) VALUES (?, ?, ?, ?)",
	[X_TRACE] =
		"INSERT INTO traces (boot_id, id, nr, site) VALUES (?, ?, ?, ?)"
		" ON CONFLICT DO NOTHING",
	[X_FRAME] =
		"INSERT INTO trace_frames (boot_id, trace_id, idx, addr, func,"
		" off, size, file, line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[X_END] =
		"UPDATE graph_exports SET complete = ? WHERE boot_id = ?",
};

struct store_export {
	struct store *st;
	sqlite3_stmt *stmt[X_NR];
	int64_t *class_ids;	/* by export index; 0: none */
	bool has_addrs;		/* addresses raw: stext and keys are real */
	unsigned long long stext;
	/* header bit names */
	char *usage_names[PROC_GRAPH_MAX_USAGE_BITS];
	unsigned int nr_usage;
	unsigned int usage_ldr[PROC_GRAPH_MAX_USAGE_BITS];	/* LDR_USAGE_* */
	unsigned int dep_bits[PROC_GRAPH_MAX_DEP_BITS];	/* SR=1 ER=2 SN=4 EN=8 */
};

static sqlite3_stmt *stmt(struct store_export *x, enum export_stmt which)
{
	sqlite3_stmt *s = x->stmt[which];

	if (!s) {
		if (sqlite3_prepare_v2(x->st->db, export_sql[which], -1, &s,
				       NULL)) {
			store_fail(x->st, "unable to prepare a statement for");
			return NULL;
		}
		x->stmt[which] = s;
	}
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return s;
}

void store_export_free(struct store_export *x)
{
	unsigned int i;

	if (!x)
		return;
	for (i = 0; i < X_NR; i++)
		sqlite3_finalize(x->stmt[i]);
	for (i = 0; i < x->nr_usage; i++)
		free(x->usage_names[i]);
	free(x->class_ids);
	free(x);
}

/* A usage bit name of the export as the LDR_USAGE_* bit of report.h. */
static unsigned int usage_ldr(const char *name)
{
	static const struct {
		const char *name;
		unsigned int bit;
	} map[] = {
		{ "USED_IN_HARDIRQ", LDR_USAGE_IN(LDR_HARDIRQ) },
		{ "USED_IN_HARDIRQ_READ", LDR_USAGE_IN_READ(LDR_HARDIRQ) },
		{ "ENABLED_HARDIRQ", LDR_USAGE_ON(LDR_HARDIRQ) },
		{ "ENABLED_HARDIRQ_READ", LDR_USAGE_ON_READ(LDR_HARDIRQ) },
		{ "USED_IN_SOFTIRQ", LDR_USAGE_IN(LDR_SOFTIRQ) },
		{ "USED_IN_SOFTIRQ_READ", LDR_USAGE_IN_READ(LDR_SOFTIRQ) },
		{ "ENABLED_SOFTIRQ", LDR_USAGE_ON(LDR_SOFTIRQ) },
		{ "ENABLED_SOFTIRQ_READ", LDR_USAGE_ON_READ(LDR_SOFTIRQ) },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i].name, name))
			return map[i].bit;
	return 0;
}

/* The dep bit names of the export as graph.h's GRAPH_DEP_* bits. */
static unsigned int dep_bit(const char *name)
{
	static const char *const names[] = { "SR", "ER", "SN", "EN" };
	unsigned int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(names[i], name))
			return 1u << i;
	return 0;
}

/* The wait type names as the numbers "-{outer:inner}" prints. */
static int wait_number(const char *name)
{
	static const char *const names[] = {
		"inv", "free", "spin", "config", "sleep",
	};
	int i;

	for (i = 0; i < 5; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

static void join_names(struct strbuf *sb, const char *const *v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		strbuf_addf(sb, "%s%s", i ? " " : "", v[i]);
}

struct store_export *store_export_begin(struct store *st,
					const struct proc_graph_header *h,
					const struct store_export_info *info)
{
	struct store_export *x;
	struct strbuf names = STRBUF_INIT;
	sqlite3_stmt *s;
	unsigned int i;

	if (store_need_boot(st, "add a graph export"))
		return NULL;
	x = xcalloc(1, sizeof(*x));
	x->st = st;
	x->class_ids = xcalloc(PROC_GRAPH_MAX_CLASSES, sizeof(*x->class_ids));
	x->has_addrs = !h->addresses_hidden;
	x->stext = h->stext;
	for (i = 0; i < h->nr_usage_bits; i++) {
		x->usage_names[i] = xstrdup(h->usage_bits[i]);
		x->usage_ldr[i] = usage_ldr(h->usage_bits[i]);
	}
	x->nr_usage = h->nr_usage_bits;
	for (i = 0; i < h->nr_dep_bits; i++)
		x->dep_bits[i] = dep_bit(h->dep_bits[i]);
	if (!(s = stmt(x, X_HEADER)))
		goto fail;
	sqlite3_bind_int64(s, 1, st->boot_id);
	sqlite3_bind_int(s, 2, h->version);
	store_bind_text(s, 3, h->release);
	store_bind_text(s, 4, h->build_id);
	store_bind_text(s, 5, info->build_id_checked);
	store_bind_text(s, 6, h->addresses_hidden ? "hidden" : "raw");
	store_bind_addr(s, 7, h->stext, x->has_addrs);
	store_bind_addr(s, 8, info->stext_link, info->has_stext_link);
	store_bind_addr(s, 9, h->stext - info->stext_link,
			info->has_stext_link && x->has_addrs);
	join_names(&names, h->usage_bits, h->nr_usage_bits);
	sqlite3_bind_text(s, 10, names.buf, -1, SQLITE_TRANSIENT);
	strbuf_reset(&names);
	join_names(&names, h->dep_bits, h->nr_dep_bits);
	sqlite3_bind_text(s, 11, names.buf, -1, SQLITE_TRANSIENT);
	store_bind_u64(s, 12, h->nr_classes);
	store_bind_u64(s, 13, h->nr_deps);
	store_bind_u64(s, 14, h->nr_chains);
	store_bind_u64(s, 15, h->nr_traces);
	strbuf_release(&names);
	if (store_step_done(st, s, "add a graph export"))
		goto fail;
	return x;
fail:
	store_export_free(x);
	return NULL;
}

static void bind_trace(sqlite3_stmt *s, int i,
		       const struct proc_graph_trace_ref *t)
{
	if (t->has)
		store_bind_u64(s, i, t->id);
}

static int64_t class_id(struct store_export *x, unsigned int idx)
{
	int64_t id = idx < PROC_GRAPH_MAX_CLASSES ? x->class_ids[idx] : 0;

	if (!id)
		error("unable to add the graph export to '%s': class index %u was not added",
		      x->st->path, idx);
	return id;
}

/* What /proc/lockdep prints for the class: name#version/subclass. */
static void printed_name(struct strbuf *sb, const struct proc_graph_class *c)
{
	strbuf_add(sb, c->name, c->name_len);
	if (c->name_version > 1)
		strbuf_addf(sb, "#%ld", c->name_version);
	if (c->subclass)
		strbuf_addf(sb, "/%u", c->subclass);
}

static int64_t find_class(struct store_export *x, const struct strbuf *name)
{
	sqlite3_stmt *s = stmt(x, X_FIND_CLASS);
	int rc;

	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, x->st->boot_id);
	sqlite3_bind_text(s, 2, name->buf, name->len, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		return sqlite3_column_int64(s, 0);
	if (rc != SQLITE_DONE)
		return store_fail(x->st, "unable to read");
	return 0;
}

int store_export_class(struct store_export *x,
		       const struct proc_graph_class *c,
		       const struct store_export_key *key)
{
	struct strbuf name = STRBUF_INIT;
	unsigned int bits = 0, i;
	sqlite3_stmt *s;
	int64_t id;
	char *identity;
	int ret = -1;

	printed_name(&name, c);
	id = find_class(x, &name);
	if (id < 0 || !(s = stmt(x, id ? X_UPDATE_CLASS : X_INSERT_CLASS)))
		goto out;
	for (i = 0; i < x->nr_usage; i++)
		if (c->usage_mask & (1ull << i))
			bits |= x->usage_ldr[i];
	if (key && key->symbol)
		identity = store_class_identity_key(c->name, c->name_len,
						    c->subclass, key->symbol);
	else
		identity = store_class_identity(c->name, c->name_len,
						c->subclass);
	sqlite3_bind_int64(s, 1, id ? id : x->st->boot_id);
	sqlite3_bind_int(s, 2, c->idx);
	sqlite3_bind_int64(s, 3, c->name_version);
	sqlite3_bind_int64(s, 4, c->subclass);
	store_bind_u64(s, 5, c->usage_mask);
	sqlite3_bind_int(s, 6, bits);
	if (wait_number(c->wait_inner) >= 0)
		sqlite3_bind_int(s, 7, wait_number(c->wait_inner));
	if (wait_number(c->wait_outer) >= 0)
		sqlite3_bind_int(s, 8, wait_number(c->wait_outer));
	store_bind_addr(s, 9, c->key, x->has_addrs);
	/* two's complement: the signed distance from _stext */
	if (x->has_addrs)
		sqlite3_bind_int64(s, 10, (int64_t)(c->key - x->stext));
	if (key)
		store_bind_addr(s, 11, key->link, key->has_link);
	if (key && key->symbol)
		store_bind_text(s, 12, key->symbol);
	/* byte for byte: a NUL can only be in the name, never after it */
	sqlite3_bind_text(s, 13, identity,
			  c->name_len + strlen(identity + c->name_len), free);
	if (!id)
		sqlite3_bind_text(s, 14, name.buf, name.len, SQLITE_STATIC);
	if (store_step_done(x->st, s, "add a graph class"))
		goto out;
	x->class_ids[c->idx] = id ? id : sqlite3_last_insert_rowid(x->st->db);
	ret = 0;
out:
	strbuf_release(&name);
	return ret;
}

int store_export_usage(struct store_export *x,
		       const struct proc_graph_usage *u)
{
	int64_t id = class_id(x, u->class_idx);
	sqlite3_stmt *s;

	if (!id || !(s = stmt(x, X_USAGE)))
		return -1;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int(s, 2, u->bit);
	store_bind_text(s, 3, u->bit < x->nr_usage ? x->usage_names[u->bit] :
			"?");
	bind_trace(s, 4, &u->trace);
	return store_step_done(x->st, s, "add a class usage");
}

int store_export_dep(struct store_export *x, const struct proc_graph_dep *d)
{
	int64_t from = class_id(x, d->from), to;
	unsigned int bits = 0, i;
	sqlite3_stmt *s;

	if (!from || !(to = class_id(x, d->to)) || !(s = stmt(x, X_DEP)))
		return -1;
	for (i = 0; i < PROC_GRAPH_MAX_DEP_BITS; i++)
		if (d->dep_mask & (1u << i))
			bits |= x->dep_bits[i];
	sqlite3_bind_int64(s, 1, x->st->boot_id);
	sqlite3_bind_int64(s, 2, from);
	sqlite3_bind_int64(s, 3, to);
	sqlite3_bind_int(s, 4, bits);
	store_bind_u64(s, 5, d->distance);
	bind_trace(s, 6, &d->trace);
	if (store_step_done(x->st, s, "add a graph dependency"))
		return -1;
	return sqlite3_changes(x->st->db) ? 0 : 1;
}

int store_export_chain(struct store_export *x,
		       const struct proc_graph_chain *c)
{
	sqlite3_stmt *s;
	int64_t id;
	size_t i;

	if (!(s = stmt(x, X_CHAIN)))
		return -1;
	sqlite3_bind_int64(s, 1, x->st->boot_id);
	store_bind_u64(s, 2, c->idx);
	sqlite3_bind_int(s, 3, c->irq_context);
	sqlite3_bind_int64(s, 4, c->depth);
	if (store_step_done(x->st, s, "add a graph chain"))
		return -1;
	for (i = 0; i < c->depth; i++) {
		if (!(id = class_id(x, c->classes[i])) ||
		    !(s = stmt(x, X_CHAIN_CLASS)))
			return -1;
		sqlite3_bind_int64(s, 1, x->st->boot_id);
		store_bind_u64(s, 2, c->idx);
		sqlite3_bind_int64(s, 3, i);
		sqlite3_bind_int64(s, 4, id);
		if (store_step_done(x->st, s, "add a graph chain class"))
			return -1;
	}
	return 0;
}

int store_export_trace(struct store_export *x,
		       const struct proc_graph_trace *t,
		       const struct ldr_frame *frames, const char *site)
{
	const struct ldr_frame *f;
	sqlite3_stmt *s;
	size_t i;

	if (!(s = stmt(x, X_TRACE)))
		return -1;
	sqlite3_bind_int64(s, 1, x->st->boot_id);
	store_bind_u64(s, 2, t->id);
	sqlite3_bind_int64(s, 3, t->nr);
	store_bind_text(s, 4, site);
	if (store_step_done(x->st, s, "add a trace"))
		return -1;
	if (!sqlite3_changes(x->st->db))
		return 1;	/* its id was taken: the caller names the line */
	for (i = 0; i < t->nr; i++) {
		if (!(s = stmt(x, X_FRAME)))
			return -1;
		sqlite3_bind_int64(s, 1, x->st->boot_id);
		store_bind_u64(s, 2, t->id);
		sqlite3_bind_int64(s, 3, i);
		store_bind_addr(s, 4, t->addrs[i], true);
		f = frames ? &frames[i] : NULL;
		if (f && f->func) {
			store_bind_text(s, 5, f->func);
			if (f->has_off) {
				store_bind_u64(s, 6, f->off);
				store_bind_u64(s, 7, f->size);
			}
		}
		if (f && f->file) {
			store_bind_text(s, 8, f->file);
			if (f->line)
				sqlite3_bind_int(s, 9, f->line);
		}
		if (store_step_done(x->st, s, "add a trace frame"))
			return -1;
	}
	return 0;
}

int store_export_end(struct store_export *x, bool complete)
{
	sqlite3_stmt *s = stmt(x, X_END);
	int ret = -1;

	if (s) {
		sqlite3_bind_int(s, 1, complete);
		sqlite3_bind_int64(s, 2, x->st->boot_id);
		ret = store_step_done(x->st, s, "add a graph export");
	}
	store_export_free(x);
	return ret;
}
