// SPDX-License-Identifier: GPL-2.0
/*
 * Writing the lockdep state of a boot: the records of the /proc parsers
 * (classes, dependencies, chains, stats, lock_stat) and of the self-test
 * table parser.
 *
 * /proc/lockdep names a dependency's target by key before that class's
 * own line may have been read, so dependencies wait in memory (an id and
 * a key each) until store_resolve_deps(); a class map from key (or, for
 * the rare class printed without one, name) to the classes row id
 * serves both that and the chains.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/proc-chains.h"
#include "parse/proc-lock-stat.h"
#include "parse/proc-lockdep.h"
#include "parse/proc-stats.h"
#include "parse/selftest.h"
#include "store/identity.h"
#include "store/store-int.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/hindex.h"
#include "util/xalloc.h"

struct pending_dep {
	int64_t from;
	char *to;		/* ident of the target */
};

struct class_map {
	char **idents;		/* "k<hex key>" or "n<name>" */
	int64_t *ids;		/* each ident's classes row */
	size_t nr, alloc;
	struct hindex index;
	struct pending_dep *deps;
	size_t nr_deps, alloc_deps;
};

static char *class_ident(bool has_key, unsigned long long key,
			 const char *name, size_t len)
{
	size_t i;
	char *s;

	if (has_key) {
		s = xmalloc(20);
		snprintf(s, 20, "k%llx", key);
		return s;
	}
	/* a name may hold a NUL: escape it (and '\\') to keep keys apart */
	s = xmalloc(2 * len + 2);
	s[0] = 'n';
	for (i = 1; len--; name++) {
		if (*name == '\\' || !*name)
			s[i++] = '\\';
		s[i++] = *name ? *name : '0';
	}
	s[i] = '\0';
	return s;
}

/* The number of @ident (hash @h) in @m, or HINDEX_NONE. */
static uint32_t map_find(const struct class_map *m, const char *ident,
			 uint64_t h)
{
	struct hindex_probe p;
	uint32_t i;

	for (i = hindex_first(&m->index, h, &p); i != HINDEX_NONE;
	     i = hindex_next(&m->index, &p))
		if (!strcmp(m->idents[i], ident))
			break;
	return i;
}

/* Takes @ident; the first class of an ident wins (keys are unique). */
static void map_put(struct class_map *m, char *ident, int64_t id)
{
	uint64_t h = str_hash(ident);

	if (map_find(m, ident, h) != HINDEX_NONE) {
		free(ident);
		return;
	}
	ALLOC_GROW(m->idents, m->nr + 1, m->alloc);
	m->ids = xrealloc(m->ids, m->alloc * sizeof(*m->ids));
	m->idents[m->nr] = ident;
	m->ids[m->nr] = id;
	hindex_add(&m->index, h, (uint32_t)m->nr++);
}

static int64_t map_get(struct class_map *m, const char *ident)
{
	uint32_t i = map_find(m, ident, str_hash(ident));

	return i != HINDEX_NONE ? m->ids[i] : 0;
}

static struct class_map *classes(struct store *st)
{
	if (!st->classes)
		st->classes = xcalloc(1, sizeof(*st->classes));
	return st->classes;
}

void store_classes_reset(struct store *st)
{
	struct class_map *m = st->classes;
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nr; i++)
		free(m->idents[i]);
	for (i = 0; i < m->nr_deps; i++)
		free(m->deps[i].to);
	free(m->idents);
	free(m->ids);
	hindex_release(&m->index);
	free(m->deps);
	free(m);
	st->classes = NULL;
}

static void bind_name(sqlite3_stmt *s, int i, const char *name, size_t len)
{
	sqlite3_bind_text(s, i, name, len, SQLITE_STATIC);
}

int store_add_class(struct store *st, const struct proc_lockdep_class *c)
{
	sqlite3_stmt *s;
	char *identity;

	if (store_need_boot(st, "add a class"))
		return -1;
	if (!(s = store_stmt(st, ST_CLASS_INSERT)))
		return -1;
	sqlite3_bind_int64(s, 1, st->boot_id);
	store_bind_addr(s, 2, c->key, c->has_key);
	bind_name(s, 3, c->name, c->name_len);
	if (c->has_ops)
		sqlite3_bind_int64(s, 4, c->ops);
	if (c->has_deps) {
		sqlite3_bind_int64(s, 5, c->fd);
		sqlite3_bind_int64(s, 6, c->bd);
	}
	if (c->usage) {
		sqlite3_bind_text(s, 7, c->usage, c->usage_len, SQLITE_STATIC);
		sqlite3_bind_int64(s, 8, c->usage_bits);
	}
	if (c->wait_outer >= 0)
		sqlite3_bind_int(s, 9, c->wait_outer);
	if (c->wait_inner >= 0)
		sqlite3_bind_int(s, 10, c->wait_inner);
	identity = store_class_identity(c->name, c->class_len, c->subclass);
	/* byte for byte: the class name may hold a NUL, the suffix cannot */
	sqlite3_bind_text(s, 11, identity,
			  c->class_len + strlen(identity + c->class_len), free);
	if (store_step_done(st, s, "add a class"))
		return -1;
	map_put(classes(st), class_ident(c->has_key, c->key, c->name,
					 c->name_len),
		sqlite3_last_insert_rowid(st->db));
	return 0;
}

int store_add_dep(struct store *st, const struct proc_lockdep_class *from,
		  const struct proc_lockdep_dep *to)
{
	struct class_map *m = classes(st);
	char *ident;
	int64_t id;

	if (store_need_boot(st, "add a dependency"))
		return -1;
	ident = class_ident(from->has_key, from->key, from->name,
			    from->name_len);
	id = map_get(m, ident);
	free(ident);
	if (!id)
		return error("unable to add a dependency in '%s': class '%s' was not added",
			     st->path, from->name);
	ALLOC_GROW(m->deps, m->nr_deps + 1, m->alloc_deps);
	m->deps[m->nr_deps].from = id;
	m->deps[m->nr_deps++].to = class_ident(to->has_key, to->key, to->name,
					       to->name_len);
	return 0;
}

int store_resolve_deps(struct store *st, unsigned long *unresolved)
{
	struct class_map *m = classes(st);
	sqlite3_stmt *s;
	int64_t to;
	size_t i;
	int ret = 0;

	*unresolved = 0;
	if (store_need_boot(st, "add a dependency"))
		return -1;
	for (i = 0; !ret && i < m->nr_deps; i++) {
		to = map_get(m, m->deps[i].to);
		if (!to) {
			(*unresolved)++;
			continue;
		}
		if (!(s = store_stmt(st, ST_DEP_INSERT)))
			return -1;
		sqlite3_bind_int64(s, 1, st->boot_id);
		sqlite3_bind_int64(s, 2, m->deps[i].from);
		sqlite3_bind_int64(s, 3, to);
		ret = store_step_done(st, s, "add a dependency");
	}
	for (i = 0; i < m->nr_deps; i++)
		free(m->deps[i].to);
	m->nr_deps = 0;
	return ret;
}

int store_add_chain(struct store *st, const struct proc_lockdep_chain *c)
{
	const struct proc_chain_class *cl;
	sqlite3_stmt *s;
	int64_t chain, id;
	char *ident;
	size_t i;

	if (store_need_boot(st, "add a chain"))
		return -1;
	if (!(s = store_stmt(st, ST_CHAIN_ROW_INSERT)))
		return -1;
	sqlite3_bind_int64(s, 1, st->boot_id);
	sqlite3_bind_int64(s, 2, st->nr_chains++);
	sqlite3_bind_int(s, 3, c->irq_context);
	if (store_step_done(st, s, "add a chain"))
		return -1;
	chain = sqlite3_last_insert_rowid(st->db);
	for (i = 0; i < c->nr_classes; i++) {
		cl = &c->classes[i];
		if (!(s = store_stmt(st, ST_CHAIN_CLASS_INSERT)))
			return -1;
		sqlite3_bind_int64(s, 1, chain);
		sqlite3_bind_int64(s, 2, i);
		store_bind_addr(s, 3, cl->key, cl->has_key);
		bind_name(s, 4, cl->name, cl->name_len);
		ident = class_ident(cl->has_key, cl->key, cl->name,
				    cl->name_len);
		id = map_get(classes(st), ident);
		free(ident);
		if (id)
			sqlite3_bind_int64(s, 5, id);
		if (store_step_done(st, s, "add a chain class"))
			return -1;
	}
	return 0;
}

int store_add_stat(struct store *st, const struct proc_lockdep_stat *p)
{
	sqlite3_stmt *s;

	if (store_need_boot(st, "add a statistic"))
		return -1;
	if (!(s = store_stmt(st, ST_STAT_INSERT)))
		return -1;
	sqlite3_bind_int64(s, 1, st->boot_id);
	sqlite3_bind_int64(s, 2, st->nr_stats++);
	bind_name(s, 3, p->label, p->label_len);
	store_bind_u64(s, 4, p->value);
	if (p->has_max)
		store_bind_u64(s, 5, p->max);
	return store_step_done(st, s, "add a statistic");
}

/* Nanoseconds as the microseconds lock_stat prints. */
static void bind_us(sqlite3_stmt *s, int i, unsigned long long ns)
{
	sqlite3_bind_double(s, i, ns / 1000.0);
}

int store_add_lock_stat(struct store *st, const struct proc_lock_stat_row *r)
{
	sqlite3_stmt *s;

	if (store_need_boot(st, "add a lock_stat row"))
		return -1;
	if (!(s = store_stmt(st, ST_LOCK_STAT_INSERT)))
		return -1;
	sqlite3_bind_int64(s, 1, st->boot_id);
	sqlite3_bind_int64(s, 2, st->nr_lock_stat++);
	bind_name(s, 3, r->name, r->name_len);
	sqlite3_bind_int(s, 4, r->rw == 'R');
	if (r->has_bounces) {
		store_bind_u64(s, 5, r->con_bounces);
		store_bind_u64(s, 11, r->acq_bounces);
	}
	store_bind_u64(s, 6, r->contentions);
	bind_us(s, 7, r->wait.min);
	bind_us(s, 8, r->wait.max);
	bind_us(s, 9, r->wait.total);
	store_bind_u64(s, 12, r->acquisitions);
	bind_us(s, 13, r->hold.min);
	bind_us(s, 14, r->hold.max);
	bind_us(s, 15, r->hold.total);
	if (r->has_avg) {
		bind_us(s, 10, r->wait.avg);
		bind_us(s, 16, r->hold.avg);
	}
	return store_step_done(st, s, "add a lock_stat row");
}

int store_add_lock_stat_point(struct store *st,
			      const struct proc_lock_stat_point *p)
{
	sqlite3_stmt *s;

	if (store_need_boot(st, "add a lock_stat point"))
		return -1;
	if (!(s = store_stmt(st, ST_LOCK_POINT_INSERT)))
		return -1;
	sqlite3_bind_int64(s, 1, st->boot_id);
	sqlite3_bind_int64(s, 2, st->nr_points++);
	sqlite3_bind_int64(s, 3, p->class_seq);
	store_bind_text(s, 4, p->kind == PROC_POINT_CONTENTION ?
			"contention" : "contending");
	bind_name(s, 5, p->name, p->name_len);
	store_bind_u64(s, 6, p->count);
	store_bind_addr(s, 7, p->addr, p->has_addr);
	if (p->symbol)
		bind_name(s, 8, p->symbol, p->symbol_len);
	return store_step_done(st, s, "add a lock_stat point");
}

int store_add_selftest_row(struct store *st, const struct selftest_row *r)
{
	const struct selftest_cell *c;
	char column[32];
	sqlite3_stmt *s;
	size_t i;

	if (store_need_boot(st, "add a self-test row"))
		return -1;
	for (i = 0; i < r->nr_cells; i++) {
		c = &r->cells[i];
		if (c->result == SELFTEST_NONE)
			continue;
		if (!(s = store_stmt(st, ST_SELFTEST_INSERT)))
			return -1;
		snprintf(column, sizeof(column), "column %u", c->column + 1);
		sqlite3_bind_int64(s, 1, st->boot_id);
		sqlite3_bind_int64(s, 2, st->nr_selftest++);
		store_bind_text(s, 3, r->section);
		bind_name(s, 4, r->name, r->name_len);
		sqlite3_bind_text(s, 5, c->column_name ? c->column_name :
				  column, -1, SQLITE_TRANSIENT);
		store_bind_text(s, 6, selftest_result_name(c->result));
		if (store_step_done(st, s, "add a self-test cell"))
			return -1;
	}
	return 0;
}

static const char *const outcome_names[] = {
	[SELFTEST_ALL_PASSED]		= "all-passed",
	[SELFTEST_EXPECTED_FAILURES]	= "expected-failures",
	[SELFTEST_ALL_FAILED_EXPECTED]	= "all-failed-expected",
	[SELFTEST_UNEXPECTED_FAILURES]	= "unexpected-failures",
};

int store_add_selftest_summary(struct store *st,
			       const struct selftest_summary *p)
{
	sqlite3_stmt *s;

	if (store_need_boot(st, "add a self-test summary"))
		return -1;
	if ((unsigned int)p->outcome >= sizeof(outcome_names) /
					sizeof(*outcome_names))
		return error("unable to add a self-test summary in '%s': unknown outcome %d",
			     st->path, p->outcome);
	if (!(s = store_stmt(st, ST_SELFTEST_SUMMARY_INSERT)))
		return -1;
	sqlite3_bind_int64(s, 1, st->boot_id);
	store_bind_text(s, 2, outcome_names[p->outcome]);
	sqlite3_bind_int64(s, 3, p->failures);
	sqlite3_bind_int64(s, 4, p->total);
	return store_step_done(st, s, "add a self-test summary");
}
