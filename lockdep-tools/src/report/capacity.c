// SPDX-License-Identifier: GPL-2.0
/* What fills lockdep's tables, counted from the export (capacity.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "parse/proc-line.h"
#include "parse/proc-stats.h"
#include "report/capacity.h"
#include "store/store-capacity.h"
#include "store/store-tables.h"
#include "util/error.h"
#include "util/idmap.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *const by_names[CAP_BY_NR] = {
	"class", "key", "module", "subsystem", "site",
};

static const struct {
	const char *key, *text;
} shapes[CAP_SHAPE_NR] = {
	[CAP_SHAPE_ONE_NAME] = { "one_name",
		"many classes of one name (a key per object, per CPU or per subclass)" },
	[CAP_SHAPE_SAME_NAME_CHAINS] = { "same_name_chains",
		"chains holding several classes of one name (their orders multiply)" },
	[CAP_SHAPE_ORDERS] = { "orders",
		"chains of the same classes in different orders" },
	[CAP_SHAPE_TRACE_SITE] = { "trace_site",
		"stack traces stored for one site (one per call path)" },
};

const char *cap_by_name(enum cap_by by)
{
	return by < CAP_BY_NR ? by_names[by] : NULL;
}

const char *cap_shape_key(enum cap_shape s)
{
	return s < CAP_SHAPE_NR ? shapes[s].key : NULL;
}

const char *cap_shape_text(enum cap_shape s)
{
	return s < CAP_SHAPE_NR ? shapes[s].text : NULL;
}

/* The entry of @name in @m, added with no rows if new. */
static uint32_t map_add(struct cap_map *m, const char *name)
{
	uint32_t i = strset_add(&m->names, name);

	if (i >= m->alloc) {
		size_t old = m->alloc;

		m->alloc = old ? old * 2 : 64;
		while (m->alloc <= i)
			m->alloc *= 2;
		m->rows = xrealloc(m->rows, m->alloc * sizeof(*m->rows));
		m->count = xrealloc(m->count, m->alloc * sizeof(*m->count));
		m->extra = xrealloc(m->extra, m->alloc * sizeof(*m->extra));
		memset(m->rows + old, 0, (m->alloc - old) * sizeof(*m->rows));
		memset(m->count + old, 0, (m->alloc - old) * sizeof(*m->count));
		memset(m->extra + old, 0, (m->alloc - old) * sizeof(*m->extra));
	}
	return i;
}

static void map_release(struct cap_map *m)
{
	strset_release(&m->names);
	free(m->rows);
	free(m->count);
	free(m->extra);
	memset(m, 0, sizeof(*m));
}

static unsigned long long umax(unsigned long long a, unsigned long long b)
{
	return a > b ? a : b;
}

/* @src's entries into @dst, each count the larger of the two (invariant 1). */
static void map_fold(struct cap_map *dst, const struct cap_map *src)
{
	size_t i;
	int t;

	for (i = 0; i < src->names.nr; i++) {
		uint32_t j = map_add(dst, strset_str(&src->names, (uint32_t)i));

		for (t = 0; t < CAP_TABLE_NR; t++)
			dst->rows[j][t] = umax(dst->rows[j][t], src->rows[i][t]);
		dst->count[j] = umax(dst->count[j], src->count[i]);
		dst->extra[j] = umax(dst->extra[j], src->extra[i]);
	}
}

static void note(struct capacity *cap, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct capacity *cap, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (cap->nr_notes == cap->alloc_notes) {
		cap->alloc_notes = cap->alloc_notes ? cap->alloc_notes * 2 : 8;
		cap->notes = xrealloc(cap->notes,
				      cap->alloc_notes * sizeof(*cap->notes));
	}
	cap->notes[cap->nr_notes++] = strbuf_detach(&sb, NULL);
}

/* One class of the export, as one boot's count sees it. */
struct cls {
	char *group[CAP_BY_SITE];	/* its name in each class grouping */
	char *base;			/* the name without #version/subclass */
	unsigned int version;
	unsigned long long rows[CAP_TABLE_NR];
};

/* One boot being counted. */
struct boot_count {
	struct capacity *cap;	/* this boot's own */
	int64_t boot;
	struct cls *cls;
	size_t nr_cls, alloc_cls;
	struct idmap ids;	/* classes.id -> cls[] */
	/* the chain being read */
	unsigned long long chain;
	unsigned int depth;
	uint32_t *members;
	size_t nr_members, alloc_members;
	/* chains by their set of classes (sorted ids) */
	struct strset sets, orders;
	unsigned long long *set_chains, *set_hlocks, *set_orders;
	char **set_names;
	size_t alloc_sets;
	/* classes by "base#version", for the distinct keys of a name */
	struct strset keys;
};

/* The module in "func+0x1/0x2 [mod] (file:line)", else "vmlinux". */
static char *site_module(const char *site)
{
	const char *b, *e;

	if (!site)
		return xstrdup("(no site)");
	b = strstr(site, " [");
	e = b ? strchr(b + 2, ']') : NULL;
	if (!b || !e || e == b + 2)
		return xstrdup("vmlinux");
	return xstrndup(b + 2, (size_t)(e - b - 2));
}

/* The directory of the file in "... (dir/file.c:123)", else why none. */
static char *site_subsystem(const char *site)
{
	const char *b, *e, *slash;

	if (!site)
		return xstrdup("(no site)");
	b = strrchr(site, '(');
	e = b ? strrchr(b, ':') : NULL;
	if (!b || !e)
		return xstrdup("(no file: the site is not symbolised)");
	for (slash = e; slash > b && *slash != '/'; slash--)
		;
	if (slash == b)
		return xstrndup(b + 1, (size_t)(e - b - 1));
	return xstrndup(b + 1, (size_t)(slash - b - 1));
}

static int stat_row(const struct store_stat_row *r, void *data)
{
	struct capacity *cap = data;
	int t = cap_table_by_stat(r->name);
	struct cap_stat *o;

	if (!strcmp(r->name, "debug_locks"))
		cap->lockdep_off |= r->value == 0;
	if (t >= 0) {
		if (cap->has_stat[t])
			return 0;	/* printed twice: the first counts */
		cap->has_stat[t] = true;
		cap->used[t] = r->value;
		if (r->has_max)
			cap->max[t] = r->max;
		return 0;
	}
	/* a line of a newer kernel, or a limit we have no table for */
	if (!r->has_max && proc_lockdep_stat_known(r->name, strlen(r->name)))
		return 0;
	ALLOC_GROW(cap->other, cap->nr_other + 1, cap->alloc_other);
	o = &cap->other[cap->nr_other++];
	o->name = xstrdup(r->name);
	o->value = r->value;
	o->max = r->max;
	o->has_max = r->has_max;
	return 0;
}

static char *key_group(const struct store_cap_class *c, const char *base)
{
	struct strbuf sb = STRBUF_INIT;

	if (!c->key_symbol)
		return xstrdup("(no key symbol: allocated, in a module, or not symbolised)");
	strbuf_addstr(&sb, c->key_symbol);
	/* a function's static key: one symbol name in many functions */
	if (!strncmp(c->key_symbol, "__key", 5))
		strbuf_addf(&sb, " of %s", base);
	return strbuf_detach(&sb, NULL);
}

static int class_row(const struct store_cap_class *c, void *data)
{
	struct boot_count *bc = data;
	struct cls *k;
	unsigned int subclass;
	size_t len;

	ALLOC_GROW(bc->cls, bc->nr_cls + 1, bc->alloc_cls);
	k = &bc->cls[bc->nr_cls];
	memset(k, 0, sizeof(*k));
	len = proc_split_name(c->name, strlen(c->name), &k->version, &subclass);
	k->base = xstrndup(c->name, len);
	k->group[CAP_BY_CLASS] = xstrdup(c->name);
	k->group[CAP_BY_KEY] = key_group(c, k->base);
	k->group[CAP_BY_MODULE] = site_module(c->site);
	k->group[CAP_BY_SUBSYSTEM] = site_subsystem(c->site);
	k->rows[CAP_CLASSES] = 1;
	k->rows[CAP_LIST_ENTRIES] = c->deps;
	bc->cap->deps += c->deps;
	idmap_add(&bc->ids, c->id, (uint32_t)bc->nr_cls);
	bc->nr_cls++;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static void set_add(struct boot_count *bc, const char *set, const char *order,
		    unsigned long long hlocks)
{
	uint32_t i = strset_add(&bc->sets, set);
	size_t old = bc->alloc_sets, before;

	if (i >= bc->alloc_sets) {
		bc->alloc_sets = old ? old * 2 : 256;
		bc->set_chains = xrealloc(bc->set_chains, bc->alloc_sets * sizeof(*bc->set_chains));
		bc->set_hlocks = xrealloc(bc->set_hlocks, bc->alloc_sets * sizeof(*bc->set_hlocks));
		bc->set_orders = xrealloc(bc->set_orders, bc->alloc_sets * sizeof(*bc->set_orders));
		bc->set_names = xrealloc(bc->set_names, bc->alloc_sets * sizeof(*bc->set_names));
		memset(bc->set_chains + old, 0, (bc->alloc_sets - old) * sizeof(*bc->set_chains));
		memset(bc->set_hlocks + old, 0, (bc->alloc_sets - old) * sizeof(*bc->set_hlocks));
		memset(bc->set_orders + old, 0, (bc->alloc_sets - old) * sizeof(*bc->set_orders));
		memset(bc->set_names + old, 0, (bc->alloc_sets - old) * sizeof(*bc->set_names));
	}
	bc->set_chains[i]++;
	bc->set_hlocks[i] += hlocks;
	before = bc->orders.nr;
	strset_add(&bc->orders, order);
	if (bc->orders.nr > before)
		bc->set_orders[i]++;
	if (!bc->set_names[i]) {
		struct strbuf sb = STRBUF_INIT;
		uint32_t *ids = xmalloc(bc->nr_members * sizeof(*ids));
		size_t j;

		memcpy(ids, bc->members, bc->nr_members * sizeof(*ids));
		qsort(ids, bc->nr_members, sizeof(*ids), cmp_u32);
		for (j = 0; j < bc->nr_members; j++)
			strbuf_addf(&sb, "%s%s", j ? ", " : "",
				    bc->cls[ids[j]].group[CAP_BY_CLASS]);
		bc->set_names[i] = strbuf_detach(&sb, NULL);
		free(ids);
	}
}

/* The chain in bc->members is complete: charge it. */
static void chain_end(struct boot_count *bc)
{
	unsigned long long hlocks = bc->nr_members < 2 ? 2 : bc->nr_members;
	struct capacity *cap = bc->cap;
	struct strbuf set = STRBUF_INIT, order = STRBUF_INIT;
	uint32_t *sorted;
	size_t i, j;

	if (!bc->nr_members)
		return;
	bc->cls[bc->members[bc->nr_members - 1]].rows[CAP_CHAINS]++;
	for (i = 0; i < bc->nr_members; i++)
		bc->cls[bc->members[i]].rows[CAP_CHAIN_HLOCKS]++;
	if (bc->nr_members < 2)
		bc->cls[bc->members[0]].rows[CAP_CHAIN_HLOCKS]++;
	/* each name held more than once in it, once */
	for (i = 0; i < bc->nr_members; i++) {
		const char *base = bc->cls[bc->members[i]].base;
		bool first = true, again = false;
		uint32_t m;

		for (j = 0; j < bc->nr_members; j++) {
			if (j < i && !strcmp(bc->cls[bc->members[j]].base, base))
				first = false;
			if (j > i && !strcmp(bc->cls[bc->members[j]].base, base))
				again = true;
		}
		if (!first || !again)
			continue;
		m = map_add(&cap->shapes[CAP_SHAPE_SAME_NAME_CHAINS], base);
		cap->shapes[CAP_SHAPE_SAME_NAME_CHAINS].count[m]++;
		cap->shapes[CAP_SHAPE_SAME_NAME_CHAINS].rows[m][CAP_CHAINS]++;
		cap->shapes[CAP_SHAPE_SAME_NAME_CHAINS].rows[m][CAP_CHAIN_HLOCKS] += hlocks;
	}
	if (bc->nr_members >= 2) {
		sorted = xmalloc(bc->nr_members * sizeof(*sorted));
		memcpy(sorted, bc->members, bc->nr_members * sizeof(*sorted));
		qsort(sorted, bc->nr_members, sizeof(*sorted), cmp_u32);
		for (i = 0; i < bc->nr_members; i++) {
			strbuf_addf(&set, "%" PRIu32 ",", sorted[i]);
			strbuf_addf(&order, "%" PRIu32 ",", bc->members[i]);
		}
		free(sorted);
		set_add(bc, set.buf, order.buf, hlocks);
		strbuf_release(&set);
		strbuf_release(&order);
	}
	bc->nr_members = 0;
}

static int chain_row(const struct store_cap_chain_class *c, void *data)
{
	struct boot_count *bc = data;
	uint32_t k = idmap_get(&bc->ids, c->class_id);

	if (bc->nr_members && c->chain != bc->chain)
		chain_end(bc);
	bc->chain = c->chain;
	if (k == UINT32_MAX)
		return 0;	/* not an export class: cannot be (store-export.h) */
	ALLOC_GROW(bc->members, bc->nr_members + 1, bc->alloc_members);
	bc->members[bc->nr_members++] = k;
	return 0;
}

static int trace_row(const struct store_cap_trace *t, void *data)
{
	struct boot_count *bc = data;
	struct capacity *cap = bc->cap;
	/* struct lock_trace: hash_entry, hash, nr_entries: 3 longs */
	unsigned long long entries = (unsigned long long)t->nr + 3;
	uint32_t k = t->class_id ? idmap_get(&bc->ids, t->class_id) : UINT32_MAX;
	const char *site = t->site ? t->site : "(no site)";
	uint32_t m;
	int by;

	if (k != UINT32_MAX) {
		bc->cls[k].rows[CAP_STACK_TRACE] += entries;
	} else {
		/* kept for a class zapped since: no row refers to it */
		for (by = 0; by < CAP_BY_SITE; by++) {
			m = map_add(&cap->by[by], "(no referrer: its classes were zapped)");
			cap->by[by].rows[m][CAP_STACK_TRACE] += entries;
			cap->by[by].count[m]++;
		}
	}
	m = map_add(&cap->by[CAP_BY_SITE], site);
	cap->by[CAP_BY_SITE].rows[m][CAP_STACK_TRACE] += entries;
	cap->by[CAP_BY_SITE].count[m]++;
	cap->by[CAP_BY_SITE].extra[m] += t->refs;
	cap->counted[CAP_STACK_TRACE] += entries;
	return 0;
}

/* The classes' rows into the groupings, the counts and the shapes. */
static void charge_classes(struct boot_count *bc)
{
	struct capacity *cap = bc->cap;
	size_t i;
	uint32_t m;
	int by, t;

	for (i = 0; i < bc->nr_cls; i++) {
		struct cls *k = &bc->cls[i];
		struct strbuf key = STRBUF_INIT;
		size_t before = bc->keys.nr;

		for (by = 0; by < CAP_BY_SITE; by++) {
			m = map_add(&cap->by[by], k->group[by]);
			for (t = 0; t < CAP_TABLE_NR; t++)
				cap->by[by].rows[m][t] += k->rows[t];
			cap->by[by].count[m]++;
		}
		for (t = 0; t < CAP_STACK_TRACE; t++)
			cap->counted[t] += k->rows[t];
		m = map_add(&cap->shapes[CAP_SHAPE_ONE_NAME], k->base);
		for (t = 0; t < CAP_TABLE_NR; t++)
			cap->shapes[CAP_SHAPE_ONE_NAME].rows[m][t] += k->rows[t];
		cap->shapes[CAP_SHAPE_ONE_NAME].count[m]++;
		strbuf_addf(&key, "%s#%u", k->base, k->version);
		strset_add(&bc->keys, key.buf);
		if (bc->keys.nr > before)
			cap->shapes[CAP_SHAPE_ONE_NAME].extra[m]++;
		strbuf_release(&key);
	}
	for (i = 0; i < bc->sets.nr; i++) {
		if (bc->set_orders[i] < 2)
			continue;
		m = map_add(&cap->shapes[CAP_SHAPE_ORDERS], bc->set_names[i]);
		cap->shapes[CAP_SHAPE_ORDERS].count[m] = bc->set_chains[i];
		cap->shapes[CAP_SHAPE_ORDERS].extra[m] = bc->set_orders[i];
		cap->shapes[CAP_SHAPE_ORDERS].rows[m][CAP_CHAINS] = bc->set_chains[i];
		cap->shapes[CAP_SHAPE_ORDERS].rows[m][CAP_CHAIN_HLOCKS] = bc->set_hlocks[i];
	}
	for (i = 0; i < cap->by[CAP_BY_SITE].names.nr; i++) {
		m = map_add(&cap->shapes[CAP_SHAPE_TRACE_SITE],
			    strset_str(&cap->by[CAP_BY_SITE].names, (uint32_t)i));
		cap->shapes[CAP_SHAPE_TRACE_SITE].count[m] = cap->by[CAP_BY_SITE].count[i];
		cap->shapes[CAP_SHAPE_TRACE_SITE].extra[m] = cap->by[CAP_BY_SITE].extra[i];
		cap->shapes[CAP_SHAPE_TRACE_SITE].rows[m][CAP_STACK_TRACE] =
			cap->by[CAP_BY_SITE].rows[i][CAP_STACK_TRACE];
	}
}

static void boot_count_release(struct boot_count *bc)
{
	size_t i;
	int by;

	for (i = 0; i < bc->nr_cls; i++) {
		for (by = 0; by < CAP_BY_SITE; by++)
			free(bc->cls[i].group[by]);
		free(bc->cls[i].base);
	}
	free(bc->cls);
	idmap_release(&bc->ids);
	free(bc->members);
	for (i = 0; i < bc->sets.nr; i++)
		free(bc->set_names[i]);
	strset_release(&bc->sets);
	strset_release(&bc->orders);
	strset_release(&bc->keys);
	free(bc->set_chains);
	free(bc->set_hlocks);
	free(bc->set_orders);
	free(bc->set_names);
}

struct limit_reports {
	struct capacity *cap;
	int64_t boot;
};

static int limit_row(const struct store_report_key_row *r, void *data)
{
	struct limit_reports *l = data;

	if (r->type && !strcmp(r->type, "lockdep-limit") &&
	    !l->cap->from_snapshot)
		note(l->cap, "boot %" PRId64 " reported \"%s\": no snapshot of that moment is stored, so the tables counted are those at the end of the boot, after lockdep turned itself off",
		     l->boot, r->title ? r->title : "");
	return 0;
}

static int growth_row(const struct store_cap_growth *g, void *data)
{
	struct capacity *cap = data;
	int t = cap_table_by_stat(g->name);

	if (t < 0 || g->last_ms <= g->first_ms)
		return 0;
	cap->has_growth[t] = true;
	cap->growth_per_min[t] = ((double)g->last - (double)g->first) *
		60000.0 / (double)(g->last_ms - g->first_ms);
	cap->span_ms = g->last_ms - g->first_ms;
	cap->samples = g->samples;
	return 0;
}

struct snapshot_ctx {
	struct capacity *cap;
	int64_t boot;
	bool said;
};

/* The snapshot's line of a table replaces lockdep_stats' of the end. */
static int snapshot_row(const struct store_cap_snapshot *s, void *data)
{
	struct snapshot_ctx *x = data;
	int t = cap_table_by_stat(s->name);

	if (!x->said) {
		note(x->cap, "boot %" PRId64 ": used and max are the snapshot the agent took at %lld.%03lld s, when report %" PRId64 " (\"%s\") fired; the export's rows are of the end of the boot",
		     x->boot, s->time_ms / 1000, s->time_ms % 1000, s->report_id,
		     s->title ? s->title : "no report names it");
		x->said = true;
		x->cap->from_snapshot = true;
	}
	if (t >= 0) {
		x->cap->has_stat[t] = true;
		x->cap->used[t] = s->value;
		if (s->has_max)
			x->cap->max[t] = s->max;
	}
	if (!strcmp(s->name, "debug_locks"))
		x->cap->lockdep_off |= s->value == 0;
	return 0;
}

/* A boot whose lockdep turned off: its projection, or why none. */
static int project_boot(struct store *st, int64_t boot, struct capacity *cap)
{
	char *why_not;

	if (capacity_project(st, boot, &cap->proj, &why_not))
		return -1;
	if (why_not)
		note(cap, "boot %" PRId64 ": its counts are not projected to its whole workload: %s",
		     boot, why_not);
	free(why_not);
	return 0;
}

/* Count one boot into @cap (zeroed). */
static int count_boot(struct store *st, int64_t boot, struct capacity *cap)
{
	struct boot_count bc = { .cap = cap, .boot = boot };
	struct limit_reports lr = { .cap = cap, .boot = boot };
	bool complete;
	long long hash_bits;
	int ret, t;

	struct snapshot_ctx sx = { .cap = cap, .boot = boot };

	if (store_stat_foreach(st, boot, stat_row, cap) ||
	    store_capacity_snapshot(st, boot, snapshot_row, &sx) ||
	    store_capacity_growth(st, boot, growth_row, cap) ||
	    store_report_key_foreach(st, boot, limit_row, &lr))
		return -1;
	if (!cap->has_stat[CAP_CLASSES])
		note(cap, "boot %" PRId64 " has no lockdep_stats: the used counts are the export's, the limits are not known", boot);
	if (cap->lockdep_off && project_boot(st, boot, cap))
		return -1;
	ret = store_capacity_config(st, boot, "LOCKDEP_STACK_TRACE_HASH_BITS",
				    &hash_bits);
	if (ret < 0)
		return -1;
	if (ret && hash_bits >= 0 && hash_bits < 40)
		cap->max[CAP_STACK_HASH] = 1ULL << hash_bits;
	ret = store_capacity_export(st, boot, &complete);
	if (ret < 0)
		return -1;
	if (!ret) {
		note(cap, "boot %" PRId64 " has no graph export (a kernel without our series): its consumers are not counted", boot);
		return 0;
	}
	if (!complete)
		note(cap, "the graph export of boot %" PRId64 " is cut: its counts are a lower bound", boot);
	ret = store_capacity_classes(st, boot, class_row, &bc);
	if (!ret) {
		idmap_build(&bc.ids);
		ret = store_capacity_chains(st, boot, chain_row, &bc);
	}
	if (!ret) {
		chain_end(&bc);
		ret = store_capacity_traces(st, boot, trace_row, &bc);
	}
	if (!ret) {
		charge_classes(&bc);
		cap->deps /= 2;
		for (t = 0; t < CAP_STACK_HASH; t++) {
			cap->has_counted[t] = true;
			if (cap->has_stat[t] && cap->counted[t] != cap->used[t])
				note(cap, "boot %" PRId64 ": the export counts %llu %s, lockdep_stats %llu: read at different moments, or the export cut; the shares are of the export's rows",
				     boot, cap->counted[t], cap_tables[t].text,
				     cap->used[t]);
		}
		for (t = 0; t < CAP_TABLE_NR; t++)
			if (!cap->has_stat[t] && cap->has_counted[t])
				cap->used[t] = cap->counted[t];
	}
	boot_count_release(&bc);
	return ret ? -1 : 0;
}

static void fold(struct capacity *dst, struct capacity *src)
{
	size_t i;
	int t;

	for (t = 0; t < CAP_TABLE_NR; t++) {
		dst->used[t] = umax(dst->used[t], src->used[t]);
		dst->max[t] = umax(dst->max[t], src->max[t]);
		dst->has_stat[t] |= src->has_stat[t];
		dst->counted[t] = umax(dst->counted[t], src->counted[t]);
		dst->has_counted[t] |= src->has_counted[t];
	}
	dst->deps = umax(dst->deps, src->deps);
	if (src->proj.has && !dst->proj.has)
		dst->proj = src->proj;
	else if (src->proj.has)
		for (t = 0; t < CAP_TABLE_NR; t++) {
			if (!src->proj.has_table[t])
				continue;
			dst->proj.need[t] = umax(dst->proj.need[t],
						 src->proj.need[t]);
			dst->proj.has_table[t] = true;
		}
	dst->lockdep_off |= src->lockdep_off;
	dst->from_snapshot |= src->from_snapshot;
	for (t = 0; t < CAP_TABLE_NR; t++) {
		if (!src->has_growth[t] || (dst->has_growth[t] &&
		    dst->growth_per_min[t] >= src->growth_per_min[t]))
			continue;
		dst->has_growth[t] = true;
		dst->growth_per_min[t] = src->growth_per_min[t];
		dst->span_ms = src->span_ms;
		dst->samples = src->samples;
	}
	for (t = 0; t < CAP_BY_NR; t++)
		map_fold(&dst->by[t], &src->by[t]);
	for (t = 0; t < CAP_SHAPE_NR; t++)
		map_fold(&dst->shapes[t], &src->shapes[t]);
	for (i = 0; i < src->nr_other; i++) {
		struct cap_stat *o = src->other + i, *d = NULL;
		size_t j;

		for (j = 0; j < dst->nr_other && !d; j++)
			if (!strcmp(dst->other[j].name, o->name))
				d = &dst->other[j];
		if (!d) {
			ALLOC_GROW(dst->other, dst->nr_other + 1, dst->alloc_other);
			d = &dst->other[dst->nr_other++];
			*d = *o;
			o->name = NULL;		/* moved */
			continue;
		}
		d->value = umax(d->value, o->value);
		d->max = umax(d->max, o->max);
		d->has_max |= o->has_max;
	}
	for (i = 0; i < src->nr_notes; i++)
		note(dst, "%s", src->notes[i]);
}

int capacity_load(struct store *st, const int64_t *boots, size_t nr,
		  struct capacity *cap)
{
	size_t i;

	memset(cap, 0, sizeof(*cap));
	cap->boots = xmalloc(nr * sizeof(*cap->boots));
	memcpy(cap->boots, boots, nr * sizeof(*cap->boots));
	cap->nr_boots = nr;
	for (i = 0; i < nr; i++) {
		struct capacity one = { 0 };
		int ret = count_boot(st, boots[i], &one);

		if (!ret)
			fold(cap, &one);
		capacity_release(&one);
		if (ret)
			return -1;
	}
	return 0;
}

void capacity_release(struct capacity *cap)
{
	size_t i;
	int t;

	free(cap->boots);
	for (t = 0; t < CAP_BY_NR; t++)
		map_release(&cap->by[t]);
	for (t = 0; t < CAP_SHAPE_NR; t++)
		map_release(&cap->shapes[t]);
	for (i = 0; i < cap->nr_other; i++)
		free(cap->other[i].name);
	free(cap->other);
	for (i = 0; i < cap->nr_notes; i++)
		free(cap->notes[i]);
	free(cap->notes);
	memset(cap, 0, sizeof(*cap));
}

/* Ordering for cap_map_top(): more rows first, then by name. */
struct top_ctx {
	const struct cap_map *m;
	enum cap_table t;
};

static int before(const struct top_ctx *c, uint32_t a, uint32_t b)
{
	unsigned long long x = c->m->rows[a][c->t], y = c->m->rows[b][c->t];

	if (x != y)
		return x > y;
	return strcmp(strset_str(&c->m->names, a),
		      strset_str(&c->m->names, b)) < 0;
}

size_t cap_map_top(const struct cap_map *m, enum cap_table t, uint32_t *out,
		   size_t n)
{
	struct top_ctx c = { .m = m, .t = t };
	size_t have = 0, j;
	uint32_t i;

	for (i = 0; i < m->names.nr; i++) {
		if (!m->rows[i][t])
			continue;
		/* insertion into the n best so far */
		for (j = have; j > 0 && before(&c, i, out[j - 1]); j--)
			if (j < n)
				out[j] = out[j - 1];
		if (j < n) {
			out[j] = i;
			if (have < n)
				have++;
		}
	}
	return have;
}

int capacity_fullest(const struct capacity *cap)
{
	int t, best = -1;

	/* the hash chains are a speed, not a limit: never full */
	for (t = 0; t < CAP_STACK_HASH; t++) {
		if (!cap->max[t] || !cap->has_stat[t])
			continue;
		if (best < 0 || cap->used[t] * cap->max[best] >
		    cap->used[best] * cap->max[t])
			best = t;
	}
	return best;
}

double capacity_full_in_s(const struct capacity *cap, int t)
{
	if (!cap->has_growth[t] || cap->growth_per_min[t] <= 0 ||
	    !cap->max[t] || cap->used[t] >= cap->max[t])
		return cap->used[t] >= cap->max[t] && cap->max[t] ? 0 : -1;
	return (double)(cap->max[t] - cap->used[t]) * 60.0 /
		cap->growth_per_min[t];
}

void capacity_usage(const struct capacity *cap, struct cap_usage *u,
		    char *words[CAP_TABLE_NR])
{
	int t;

	memset(u, 0, sizeof(*u));
	u->lower_bound = cap->lockdep_off;
	u->has_projection = cap->proj.has;
	for (t = 0; t < CAP_TABLE_NR; t++) {
		const struct cap_map *m = &cap->shapes[CAP_SHAPE_ONE_NAME];
		uint32_t top;

		words[t] = NULL;
		u->used[t] = cap->used[t];
		if (cap->proj.has && cap->proj.has_table[t]) {
			u->measured[t] = cap->used[t];
			u->used[t] = umax(cap->used[t], cap->proj.need[t]);
			u->projected[t] = true;
		}
		u->max[t] = cap->max[t];
		u->has[t] = cap->has_stat[t] || cap->has_counted[t];
		u->has_growth[t] = cap->has_growth[t];
		u->growth_per_min[t] = cap->growth_per_min[t];
		u->full_in_s[t] = capacity_full_in_s(cap, t);
		if (!cap->has_counted[t] || !cap->counted[t])
			continue;
		/* a name of many classes that holds a third of the table */
		if (cap_map_top(m, t, &top, 1) &&
		    m->count[top] > 1 &&
		    m->rows[top][t] * 3 >= cap->counted[t]) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "%s (%llu classes)",
				    strset_str(&m->names, top), m->count[top]);
			words[t] = strbuf_detach(&sb, NULL);
			u->dominant[t] = words[t];
			u->dominant_pct[t] = (unsigned int)
				(m->rows[top][t] * 100 / cap->counted[t]);
		}
	}
}
