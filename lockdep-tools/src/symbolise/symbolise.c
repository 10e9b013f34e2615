// SPDX-License-Identifier: GPL-2.0
/*
 * The symboliser: which binary a frame belongs to, whether that binary
 * can be trusted, and the address to look up (see symbolise.h).
 *
 * Modules are found by name in opts->modules_dir, scanned once on the
 * first module frame. Each binary is opened once, on first use, and kept
 * (or remembered as unusable, so its warning is given once). A module
 * whose layout is known is opened at its load addresses, so that bare
 * addresses in it can be found; a layout learnt after its binary was
 * opened reopens it.
 */
#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "symbolise/binary.h"
#include "symbolise/index.h"
#include "symbolise/symbolise.h"
#include "util/error.h"
#include "util/sort-runs.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct mod_file {
	char *name;		/* normalised: '-' -> '_' */
	char *path;
};

struct mod_binary {
	char *name;		/* normalised */
	bool tried;		/* bin was looked for */
	struct sym_binary *bin;	/* NULL: not yet, missing or mismatched */
	struct sym_layout layout;	/* load addresses; nr 0: unknown */
	char *build_id;		/* the loaded module's, or NULL */
	bool layout_warned;	/* its layout was refused, and said so */
};

struct symboliser {
	struct symbolise_opts opts;	/* strings owned */
	struct sym_binary *vmlinux;	/* NULL: none usable */
	/* vmlinux again, for a second thread (sym_binary_open_twin()) */
	struct sym_binary *twin;
	bool twin_tried;
	bool modules_scanned;
	struct mod_file *files;
	size_t nr_files, alloc_files;
	struct mod_binary *mods;
	size_t nr_mods, alloc_mods;
	/* binaries without a valid index yet (symboliser_free() builds) */
	struct sym_index_job *jobs;
	size_t nr_jobs, alloc_jobs;
	/*
	 * a batch's lookups, kept from batch to batch: a block this large
	 * malloc()ed anew made glibc consolidate the batch's freed
	 * strings each time (a fifth of a warm run's allocator time)
	 */
	struct sym_lookup *todo;
	size_t alloc_todo;
	struct symbolise_stats stats;
};

static char *opt_strdup(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* Build ids compare case-insensitively, as hex. */
static bool same_build_id(const char *a, const char *b)
{
	return !strcasecmp(a, b);
}

/* b from its DWARF, where an index would help: index it at the end */
static struct sym_binary *want_index(struct symboliser *s,
				     struct sym_binary *b)
{
	size_t i;

	if (!b || !b->index_wanted)
		return b;
	for (i = 0; i < s->nr_jobs; i++)
		if (!strcmp(s->jobs[i].build_id, b->build_id))
			return b;
	ALLOC_GROW(s->jobs, s->nr_jobs + 1, s->alloc_jobs);
	s->jobs[s->nr_jobs].path = xstrdup(b->path);
	s->jobs[s->nr_jobs].build_id = xstrdup(b->build_id);
	s->nr_jobs++;
	return b;
}

/* s->vmlinux, if usable; -1 when a required one cannot be read. */
static int open_vmlinux(struct symboliser *s)
{
	const char *path = s->opts.vmlinux, *err = NULL;
	struct sym_binary *b = sym_binary_open(path, s->opts.cache_dir, &err);

	if (!b) {
		if (s->opts.vmlinux_required)
			return error("unable to open vmlinux '%s': %s", path,
				     err);
		if (!s->opts.quiet)
			warning("unable to open vmlinux '%s': %s; kernel frames stay unsymbolised",
				path, err);
		return 0;
	}
	if (s->opts.build_id && (!b->build_id ||
				 !same_build_id(b->build_id, s->opts.build_id))) {
		if (!s->opts.quiet)
			warning("vmlinux '%s' has build id %s, the kernel %s; kernel frames stay unsymbolised",
				path, b->build_id ? b->build_id : "(none)",
				s->opts.build_id);
		sym_binary_free(b);
		return 0;
	}
	if (!sym_binary_has_dwarf(b) && !s->opts.quiet)
		warning("vmlinux '%s' has no DWARF: functions only, no file:line",
			path);
	s->vmlinux = want_index(s, b);
	return 0;
}

/*
 * Whether the cache directory may be used (index.h): if not, say why
 * (unless quiet) and forget it. A missing one is made before a build.
 */
static bool cache_dir_usable(struct symboliser *s)
{
	char *why = sym_cache_dir_refused(s->opts.cache_dir);

	if (!why)
		return true;
	if (!s->opts.quiet)
		warning("cache directory '%s' %s: not used, symbolising without a cache",
			s->opts.cache_dir, why);
	free(why);
	free((char *)s->opts.cache_dir);
	s->opts.cache_dir = NULL;
	return false;
}

struct symboliser *symboliser_new(const struct symbolise_opts *opts)
{
	struct symboliser *s = xcalloc(1, sizeof(*s));

	s->opts = *opts;
	s->opts.vmlinux = opt_strdup(opts->vmlinux);
	s->opts.modules_dir = opt_strdup(opts->modules_dir);
	s->opts.build_id = opt_strdup(opts->build_id);
	s->opts.cache_dir = opt_strdup(opts->cache_dir);
	if (s->opts.cache_dir)
		cache_dir_usable(s);
	if (s->opts.vmlinux && open_vmlinux(s)) {
		symboliser_free(s);
		return NULL;
	}
	return s;
}

static void build_indexes(struct symboliser *s)
{
	bool made = s->nr_jobs && sym_cache_dir_make(s->opts.cache_dir);

	if (s->nr_jobs && !made && !s->opts.quiet)
		warning("unable to create cache directory '%s': %s",
			s->opts.cache_dir, strerror(errno));
	/* looked at again: it may have been made since symboliser_new() */
	if (made && cache_dir_usable(s))
		sym_index_build_background(s->opts.cache_dir, s->jobs,
					   s->nr_jobs);
	for (size_t i = 0; i < s->nr_jobs; i++) {
		free(s->jobs[i].path);
		free(s->jobs[i].build_id);
	}
	free(s->jobs);
}

void symboliser_free(struct symboliser *s)
{
	size_t i;

	if (!s)
		return;
	sym_binary_free(s->vmlinux);
	sym_binary_free(s->twin);
	for (i = 0; i < s->nr_files; i++) {
		free(s->files[i].name);
		free(s->files[i].path);
	}
	free(s->files);
	for (i = 0; i < s->nr_mods; i++) {
		free(s->mods[i].name);
		sym_binary_free(s->mods[i].bin);
		sym_layout_release(&s->mods[i].layout);
		free(s->mods[i].build_id);
	}
	free(s->mods);
	free(s->todo);
	/* last: the DWARF is unmapped, so the fork copies little */
	build_indexes(s);
	free((char *)s->opts.vmlinux);
	free((char *)s->opts.modules_dir);
	free((char *)s->opts.build_id);
	free((char *)s->opts.cache_dir);
	free(s);
}

bool symboliser_has_vmlinux(const struct symboliser *s)
{
	return s->vmlinux != NULL;
}

bool symboliser_vmlinux_indexed(const struct symboliser *s)
{
	return s->vmlinux && s->vmlinux->index;
}

const struct symbolise_stats *symboliser_stats(const struct symboliser *s)
{
	return &s->stats;
}

bool symboliser_vmlinux_symbol(struct symboliser *s, const char *name,
			       unsigned long long *addr)
{
	return s->vmlinux && sym_binary_lookup(s->vmlinux, name, addr);
}

const char *symboliser_vmlinux_object(struct symboliser *s,
				      unsigned long long addr,
				      unsigned long long *off)
{
	return s->vmlinux ? sym_binary_object_at(s->vmlinux, addr, off) : NULL;
}

void symboliser_set_kaslr_offset(struct symboliser *s,
				 unsigned long long offset)
{
	s->opts.kaslr_offset = offset;
	s->opts.has_kaslr_offset = true;
}

static char *module_name(const char *s, size_t n)
{
	char *name = xstrndup(s, n);

	for (char *p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	return name;
}

/* nftw() has no closure argument; the scan is short and not reentrant. */
static struct symboliser *scanning;

static int scan_one(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	static const char *const exts[] = { ".ko", ".ko.xz", ".ko.zst",
					    ".ko.gz" };
	const char *base = path + ftw->base;
	size_t n = strlen(base);

	(void)st;
	if (type != FTW_F)
		return 0;
	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		size_t e = strlen(exts[i]);
		struct symboliser *s = scanning;

		if (n > e && !strcmp(base + n - e, exts[i])) {
			ALLOC_GROW(s->files, s->nr_files + 1, s->alloc_files);
			s->files[s->nr_files].name = module_name(base, n - e);
			s->files[s->nr_files].path = xstrdup(path);
			s->nr_files++;
			break;
		}
	}
	return 0;
}

static void scan_modules(struct symboliser *s)
{
	s->modules_scanned = true;
	if (!s->opts.modules_dir)
		return;
	scanning = s;
	if (nftw(s->opts.modules_dir, scan_one, 16, FTW_PHYS) && !s->opts.quiet)
		warning("unable to scan modules directory '%s'",
			s->opts.modules_dir);
	scanning = NULL;
}

/*
 * @path opened at m's load addresses, or NULL when they cannot be used
 * (warned about once per module): the caller then opens it by name, so
 * its "func+off/size [module]" frames are symbolised as without a
 * layout and only its bare addresses stay raw.
 */
static struct sym_binary *open_loaded(struct symboliser *s,
				      struct mod_binary *m, const char *path)
{
	const char *err = NULL;
	struct sym_binary *b = sym_binary_open_loaded(path, m->name,
						      &m->layout, &err);

	if (!b && !m->layout_warned && !s->opts.quiet)
		warning("module '%s': %s; its bare addresses stay raw",
			m->name, err);
	if (!b)
		m->layout_warned = true;
	return b;
}

/*
 * The file of module m: build id equal to the frame's when it printed
 * one, else to the loaded module's when known; among candidates, one
 * with DWARF first. Opened at m's load addresses when they are known
 * and usable, else by name.
 */
static struct sym_binary *open_module(struct symboliser *s,
				      struct mod_binary *m,
				      const char *build_id)
{
	const char *name = m->name;

	if (!build_id)
		build_id = m->build_id;
	struct sym_binary *best = NULL;
	const char *why = "no such file";
	bool found = false;

	for (size_t i = 0; i < s->nr_files; i++) {
		struct sym_binary *b;
		const char *err = NULL;

		if (strcmp(s->files[i].name, name))
			continue;
		found = true;
		b = m->layout.nr ? open_loaded(s, m, s->files[i].path) : NULL;
		if (!b)
			b = sym_binary_open(s->files[i].path,
					    s->opts.cache_dir, &err);
		if (!b) {
			why = err;
			continue;
		}
		if (build_id && (!b->build_id ||
				 !same_build_id(b->build_id, build_id))) {
			why = "build id differs";
			sym_binary_free(b);
			continue;
		}
		if (!best || (!sym_binary_has_dwarf(best) &&
			      sym_binary_has_dwarf(b))) {
			sym_binary_free(best);
			best = b;
		} else {
			sym_binary_free(b);
		}
	}
	if (!best && !s->opts.quiet)
		warning("module '%s' %s in '%s' (%s); its frames stay unsymbolised",
			name, found ? "unusable" : "not found",
			s->opts.modules_dir, why);
	return want_index(s, best);
}

/* The entry of module @name (any spelling), added if new. */
static struct mod_binary *module_entry(struct symboliser *s, const char *name)
{
	char *norm = module_name(name, strlen(name));
	size_t i;

	for (i = 0; i < s->nr_mods; i++)
		if (!strcmp(s->mods[i].name, norm))
			break;
	if (i == s->nr_mods) {
		ALLOC_GROW(s->mods, s->nr_mods + 1, s->alloc_mods);
		memset(&s->mods[i], 0, sizeof(s->mods[i]));
		s->mods[i].name = norm;
		s->nr_mods++;
	} else {
		free(norm);
	}
	return &s->mods[i];
}

static struct sym_binary *module_open(struct symboliser *s,
				      struct mod_binary *m,
				      const char *build_id)
{
	if (!m->tried) {
		if (!s->modules_scanned)
			scan_modules(s);
		m->tried = true;
		m->bin = open_module(s, m, build_id);
	}
	return m->bin;
}

static struct sym_binary *module_binary(struct symboliser *s,
					const struct ldr_frame *f)
{
	if (!s->opts.modules_dir)
		return NULL;
	return module_open(s, module_entry(s, f->module), f->build_id);
}

void symboliser_add_section(struct symboliser *s, const char *module,
			    const char *section, unsigned long long addr)
{
	struct mod_binary *m = module_entry(s, module);
	struct sym_section *sec;

	sec = (struct sym_section *)sym_layout_find(&m->layout, section);
	if (!sec) {
		ALLOC_GROW(m->layout.v, m->layout.nr + 1, m->layout.alloc);
		sec = &m->layout.v[m->layout.nr++];
		sec->name = xstrdup(section);
	}
	sec->addr = addr;
	/* opened before its layout was known: at other addresses */
	sym_binary_free(m->bin);
	m->bin = NULL;
	m->tried = false;
}

void symboliser_set_module_build_id(struct symboliser *s, const char *module,
				    const char *build_id)
{
	struct mod_binary *m = module_entry(s, module);

	free(m->build_id);
	m->build_id = xstrdup(build_id);
	/* opened before: possibly a file of another build */
	sym_binary_free(m->bin);
	m->bin = NULL;
	m->tried = false;
}

/*
 * The module whose loaded sections hold the run-time address @addr:
 * one of those with a known layout, if exactly one does. When several
 * do, NULL with *@ambiguous set.
 */
static struct mod_binary *module_at(struct symboliser *s,
				    unsigned long long addr, bool *ambiguous)
{
	struct mod_binary *found = NULL;

	*ambiguous = false;
	if (!s->opts.modules_dir)
		return NULL;
	for (size_t i = 0; i < s->nr_mods; i++) {
		struct mod_binary *m = &s->mods[i];

		if (!m->layout.nr || !module_open(s, m, NULL) ||
		    !sym_binary_loaded_at(m->bin, addr))
			continue;
		if (found) {	/* a stale (freed init) range overlaps */
			*ambiguous = true;
			return NULL;
		}
		found = m;
	}
	return found;
}

/* Counts why f could not be symbolised; returns false. */
static bool fail(size_t *counter)
{
	(*counter)++;
	return false;
}

/*
 * The binary a bare run-time address is in, and the address in it:
 * vmlinux (with the KASLR offset), else a module whose layout is known,
 * named in *@module (else NULL). NULL (counted) if neither holds it,
 * or if several modules do.
 */
static struct sym_binary *bare_binary(struct symboliser *s,
				      const struct ldr_frame *f,
				      unsigned long long *addr,
				      const struct sym_entry **e,
				      const char **module)
{
	struct mod_binary *m;
	bool ambiguous;

	*module = NULL;
	if (s->vmlinux && s->opts.has_kaslr_offset) {
		*addr = f->addr - s->opts.kaslr_offset;
		*e = sym_binary_at(s->vmlinux, *addr);
		if (*e)
			return s->vmlinux;
	}
	m = module_at(s, f->addr, &ambiguous);
	if (ambiguous) {
		fail(&s->stats.ambiguous);
		return NULL;
	}
	if (m) {
		*addr = f->addr;
		*e = sym_binary_at(m->bin, *addr);
		*module = m->name;
		if (*e)
			return m->bin;
	}
	if (!s->vmlinux && !m)
		fail(&s->stats.no_binary);
	else if (!s->opts.has_kaslr_offset && !m)
		fail(&s->stats.no_offset);
	else
		fail(&s->stats.no_symbol);
	return NULL;
}

/*
 * Which binary f is in and the address to look its line up at; fills
 * func/off/size (and the module) of a bare address. False (counted) if
 * f stays as it is.
 */
static bool resolve(struct symboliser *s, struct ldr_frame *f,
		    unsigned int flags, struct sym_lookup *l)
{
	struct sym_binary *b;
	unsigned long long addr, off;

	if (!f->func && !f->has_addr)
		return fail(&s->stats.no_address);
	if (f->has_addr && !f->module && !(f->func && f->has_off)) {
		const struct sym_entry *e;
		const char *module;

		b = bare_binary(s, f, &addr, &e, &module);
		if (!b)
			return false;
		if (f->func && strcmp(f->func, e->name))
			return fail(&s->stats.no_symbol);
		if (module)
			f->module = xstrdup(module);
		off = addr - e->addr;
		if (!f->func) {
			f->func = sym_answer_string(flags & SYMBOLISE_BORROW,
						    e->name);
			f->func_borrowed = flags & SYMBOLISE_BORROW;
			f->off = off;
			f->size = e->span;
			f->has_off = true;
		}
		goto found;
	}
	b = f->module ? module_binary(s, f) : s->vmlinux;
	if (!b)
		return fail(&s->stats.no_binary);
	if (f->func && f->has_off) {
		switch (sym_binary_find(b, f->func, f->off, f->size, &addr)) {
		case SYM_FOUND:
			break;
		case SYM_NONE:
			return fail(&s->stats.no_symbol);
		case SYM_BAD_SIZE:
			return fail(&s->stats.bad_size);
		case SYM_AMBIGUOUS:
			return fail(&s->stats.ambiguous);
		}
		off = f->off;
	} else {
		return fail(&s->stats.no_address);
	}
found:
	/* a return address: the call is the byte before it */
	if (!(flags & SYMBOLISE_ACTIVATION) && off)
		addr--;
	l->bin = b;
	l->pc = addr;
	l->f = f;
	l->borrow = flags & SYMBOLISE_BORROW;
	return true;
}

static bool lookup_before(const void *a, const void *b)
{
	const struct sym_lookup *x = a, *y = b;

	if (x->bin != y->bin)
		return x->bin < y->bin;
	if (x->pc != y->pc)
		return x->pc < y->pc;
	return x->f < y->f;
}

/* Lookups [0, nr) of v on @bin, or each on its own binary when NULL. */
struct lookups {
	struct sym_binary *bin;
	struct sym_lookup *v;
	size_t nr, with_line;
};

static void *look_up(void *data)
{
	struct lookups *l = data;

	if (!l->bin) {
		l->with_line += sym_binary_sources(l->v, l->nr);
		return NULL;
	}
	for (size_t i = 0; i < l->nr; i++)
		if (sym_binary_source(l->bin, l->v[i].pc, l->v[i].f,
				      l->v[i].borrow))
			l->with_line++;
	return NULL;
}

/*
 * A batch with this many lookups in vmlinux's DWARF (a cold run over a
 * file of addresses) is shared with a second thread: reading the DWARF
 * of the units is nearly all of such a run.
 */
#define TWIN_MIN 1024

/* The offset of the unit holding @pc in @b's DWARF (0: none). */
static unsigned long long unit_of(struct sym_binary *b, unsigned long long pc)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(b->mod, pc, &bias);

	return cu ? dwarf_dieoffset(cu) : 0;
}

/*
 * Whether the unit at DIE offset @unit is the second thread's: a hash,
 * so that each thread gets units of every size and part of the kernel
 * (shares by offset left one thread 579 ms of work and the other 211),
 * a little more than half to the second thread, as this one also reads
 * the input and prints. The same unit goes to the same thread in every
 * batch, so each unit's DWARF is read once.
 */
static bool twin_unit(unsigned long long unit)
{
	return (unit * 0x9e3779b97f4a7c15ull) >> 32 < 0x8ccccccdull; /* 55% */
}

/*
 * Shares vmlinux's DWARF lookups [lo, hi) of @todo between the threads
 * by unit (twin_unit()): this thread's first, in order, then the second
 * thread's; returns where its share starts. By unit, not by address: a
 * kernel unit's code lies in several places (.text, .init.text,
 * .text.unlikely...), and shares by address had both threads read most
 * units.
 */
static size_t twin_share(struct symboliser *s, struct sym_lookup *todo,
			 size_t lo, size_t hi)
{
	size_t n = hi - lo, k = lo, mid;
	bool *twin = xmalloc(n * sizeof(*twin));
	struct sym_lookup *copy = xmalloc(n * sizeof(*copy));

	for (size_t i = 0; i < n; i++)
		twin[i] = twin_unit(unit_of(s->vmlinux, todo[lo + i].pc));
	memcpy(copy, todo + lo, n * sizeof(*copy));
	for (size_t i = 0; i < n; i++)
		if (!twin[i])
			todo[k++] = copy[i];
	mid = k;
	for (size_t i = 0; i < n; i++)
		if (twin[i])
			todo[k++] = copy[i];
	free(twin);
	free(copy);
	return mid;
}

/*
 * The lookups [0, nr) of @todo, sorted: part of vmlinux's DWARF lookups
 * by a second thread on s->twin (twin_share()), the rest here. Both
 * give the same answers: the same file, checked by build id.
 */
static size_t look_up_all(struct symboliser *s, struct sym_lookup *todo,
			  size_t nr)
{
	struct sym_binary *vm = s->vmlinux;
	struct lookups mine = { .v = todo, .nr = nr }, twin = { 0 };
	size_t lo = 0, hi;
	pthread_t tid;
	bool twinned = false;

	while (lo < nr && todo[lo].bin != vm)
		lo++;
	for (hi = lo; hi < nr && todo[hi].bin == vm; hi++)
		;
	if (hi - lo >= TWIN_MIN && vm && vm->dwarf && !vm->index) {
		if (!s->twin_tried)
			s->twin = sym_binary_open_twin(vm);
		s->twin_tried = true;
	}
	if (hi - lo >= TWIN_MIN && s->twin) {
		size_t mid = twin_share(s, todo, lo, hi);

		twin = (struct lookups){ s->twin, todo + mid, hi - mid, 0 };
		twinned = !pthread_create(&tid, NULL, look_up, &twin);
		if (twinned) {	/* here: [0, mid) and [hi, nr) */
			mine.nr = mid;
			look_up(&mine);
			mine = (struct lookups){ .v = todo + hi, .nr = nr - hi,
						 .with_line = mine.with_line };
		}
	}
	look_up(&mine);
	if (twinned)
		pthread_join(tid, NULL);
	return mine.with_line + twin.with_line;
}

/*
 * The bare addresses of @v (nr at most SYM_PREFETCH_MAX) that
 * bare_binary() will look for in vmlinux, fetched ahead
 * (sym_binary_prefetch()).
 */
static void prefetch_bare(struct symboliser *s, const struct ldr_frame *v,
			  size_t nr)
{
	uint64_t addr[SYM_PREFETCH_MAX];
	size_t n = 0;

	if (!s->vmlinux || !s->opts.has_kaslr_offset)
		return;
	for (size_t i = 0; i < nr; i++)
		if (v[i].has_addr && !v[i].module && !v[i].func)
			addr[n++] = v[i].addr - s->opts.kaslr_offset;
	if (n)
		sym_binary_prefetch(s->vmlinux, addr, n);
}

/*
 * Lines are looked up in address order, binary by binary: each unit's
 * map and line table is then used while it is in the cache. An index
 * has no units to keep warm: frames that all go to indexes (a warm run)
 * are not sorted.
 */
size_t symbolise_frames(struct symboliser *s, struct ldr_frame *v, size_t nr,
			unsigned int flags)
{
	struct sym_lookup *todo;
	size_t n = 0;
	bool sort = false;

	ALLOC_GROW(s->todo, nr, s->alloc_todo);
	todo = s->todo;

	for (size_t i = 0; i < nr; i++) {
		struct ldr_frame *f = &v[i];

		/*
		 * the next SYM_PREFETCH_MAX frames' symbols fetched now, used
		 * by resolve() while in the cache (fetched all before the
		 * first was resolved, a batch's first ones were gone again)
		 */
		if (i % SYM_PREFETCH_MAX == 0)
			prefetch_bare(s, f, nr - i < SYM_PREFETCH_MAX ?
				      nr - i : SYM_PREFETCH_MAX);
		if (f->inlined)	/* a printed inline frame: no address */
			continue;
		s->stats.frames++;
		if ((f->file || f->nr_inl) && !(flags & SYMBOLISE_OVERWRITE))
			continue;
		if (resolve(s, f, flags, &todo[n]))
			sort |= !todo[n++].bin->index;
	}
	/* a stack's frames, or addresses taken in order, come in runs */
	if (sort)
		sort_runs(todo, n, sizeof(*todo), lookup_before);
	/* unsorted: all on indexes, none on vmlinux's DWARF to share */
	s->stats.with_line += look_up_all(s, todo, n);
	s->stats.symbolised += n;
	return n;
}

size_t symbolise_report(struct symboliser *s, struct ldr_report *r)
{
	size_t done = 0, i;

	for (i = 0; i < r->nr_stacks; i++)
		done += symbolise_frames(s, r->stacks[i].frames.v,
					 r->stacks[i].frames.nr, 0);
	for (i = 0; i < r->nr_locks; i++)
		done += symbolise_frames(s, r->locks[i].at.v,
					 r->locks[i].at.nr, 0);
	for (i = 0; i < r->nr_irq_events; i++)
		done += symbolise_frames(s, r->irq_events[i].frames.v,
					 r->irq_events[i].frames.nr, 0);
	return done;
}

void symbolise_stats_describe(const struct symbolise_stats *st,
			      struct strbuf *sb)
{
	const struct {
		const char *what;
		size_t n;
	} why[] = {
		{ "binary missing or mismatched", st->no_binary },
		{ "no such symbol", st->no_symbol },
		{ "size mismatch", st->bad_size },
		{ "ambiguous symbol", st->ambiguous },
		{ "no KASLR offset", st->no_offset },
		{ "no address", st->no_address },
	};

	strbuf_addf(sb, "%zu of %zu frames symbolised (%zu with file:line)",
		    st->symbolised, st->frames, st->with_line);
	for (size_t i = 0; i < sizeof(why) / sizeof(why[0]); i++)
		if (why[i].n)
			strbuf_addf(sb, "; %zu %s", why[i].n, why[i].what);
}
