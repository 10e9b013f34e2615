// SPDX-License-Identifier: GPL-2.0
/*
 * The database sink (db-sink.h): from pushed files and kernel log
 * records to one boot of the store, parsed on the way.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "collect/console.h"
#include "collect/db-graph.h"
#include "collect/db-sink.h"
#include "collect/gunzip.h"
#include "parse/elf-notes.h"
#include "parse/klog.h"
#include "parse/kmsg.h"
#include "parse/module-section.h"
#include "parse/proc-chains.h"
#include "parse/proc-lock-stat.h"
#include "parse/proc-lockdep.h"
#include "parse/proc-stats.h"
#include "parse/selftest.h"
#include "parse/trace-events.h"
#include "proto/allowlist.h"
#include "store/store-series.h"
#include "store/store.h"
#include "symbolise/debuginfo.h"
#include "symbolise/symbolise.h"
#include "util/error.h"
#include "util/line-reader.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* A decompressed kernel config is a few hundred KiB; refuse bombs. */
#define CONFIG_MAX	(64u << 20)

struct db_sink {
	struct collect_sink base;
	struct db_sink_opts o;
	struct store *st;
	int64_t boot_id;
	bool failed, committed;
	char *partial;		/* why the boot is partial, or NULL */
	/* the file being pushed */
	char *input;		/* its name in messages */
	char *next_input;
	struct strbuf file;
	/* the kernel log */
	struct kmsg_parser *kmsg;
	struct klog_parser *klog;
	struct strbuf log;	/* every log line, for the self-test table */
	/* the kmsg sequence number of each log line from kmsg, in order */
	uint64_t *line_seq;
	size_t nline_seq, alloc_line_seq;
	char *release;		/* kernel release, once known */
	char build_id[2 * ELF_NOTES_MAX_BUILD_ID + 1];
	struct symboliser *sym;
	bool sym_tried;
	/* o.debug_dir: the vmlinux found there, and the reports before */
	char *found_vmlinux;
	bool lookup_done;
	struct ldr_report **pending;
	size_t npending, alloc_pending;
	/* the graph export, stored at the end: it joins /proc/lockdep */
	struct strbuf graph;
	char *graph_input;
	/* the dependency events, parsed and stored at the end */
	struct strbuf events;
	/* the agent's lockdep_stats series (its name) and snapshot graph */
	char *series_input;
	bool snapshot_graph;
	unsigned long reports, truncated;
};

static struct db_sink *to_db(struct collect_sink *s)
{
	return (struct db_sink *)s;
}

static int db_fail(struct db_sink *d)
{
	d->failed = true;
	return -EINVAL;
}

/* ---- reports ---- */

/* The symboliser of --vmlinux/--modules, made on first use; or NULL. */
static struct symboliser *db_symboliser(struct db_sink *d)
{
	struct symbolise_opts so = { 0 };
	char *cache_dir;

	if (!d->o.vmlinux && !d->o.modules_dir)
		return NULL;
	if (!d->sym_tried) {
		d->sym_tried = true;
		so.vmlinux = d->o.vmlinux;
		so.modules_dir = d->o.modules_dir;
		so.build_id = d->build_id[0] ? d->build_id : NULL;
		cache_dir = d->o.no_cache ? NULL :
			    symbolise_cache_dir(d->o.cache_dir);
		so.cache_dir = cache_dir;
		d->sym = symboliser_new(&so);
		free(cache_dir);
	}
	return d->sym;
}

static void db_symbolise(struct db_sink *d, struct ldr_report *r)
{
	struct symboliser *sym = db_symboliser(d);

	if (sym)
		symbolise_report(sym, r);
}

static void db_store_report(struct db_sink *d, struct ldr_report *r)
{
	if (!d->failed) {
		db_symbolise(d, r);
		if (store_add_report(d->st, r, NULL))
			db_fail(d);
		d->reports++;
		d->truncated += r->truncated;
		if (!d->release && r->release)
			d->release = xstrdup(r->release);
	}
	report_free(r);
}

/* The build id lookup is done (or cannot be): the reports held for it. */
static void db_flush_pending(struct db_sink *d)
{
	size_t i;

	d->lookup_done = true;
	for (i = 0; i < d->npending; i++)
		db_store_report(d, d->pending[i]);
	free(d->pending);
	d->pending = NULL;
	d->npending = d->alloc_pending = 0;
}

static void db_report(struct ldr_report *r, void *data)
{
	struct db_sink *d = data;

	/* console lines come after every kmsg line: no seq for them */
	if (r->first_line && r->first_line <= d->nline_seq) {
		r->kmsg_seq = d->line_seq[r->first_line - 1];
		r->has_kmsg_seq = true;
	}
	if (d->o.debug_dir && !d->lookup_done && !d->failed) {
		if (d->npending == d->alloc_pending) {
			d->alloc_pending = d->alloc_pending ? 2 * d->alloc_pending : 16;
			d->pending = xrealloc(d->pending, d->alloc_pending *
						    sizeof(*d->pending));
		}
		d->pending[d->npending++] = r;
		return;
	}
	db_store_report(d, r);
}

static void db_log_line(const char *line, size_t len, void *data)
{
	struct db_sink *d = data;

	klog_parser_push(d->klog, line, len);
	strbuf_add(&d->log, line, len);
	strbuf_addch(&d->log, '\n');
}

/* A line of a kmsg record: remember its record for the reports. */
static void db_kmsg_line(const char *line, size_t len, void *data)
{
	struct db_sink *d = data;

	if (d->nline_seq == d->alloc_line_seq) {
		d->alloc_line_seq = d->alloc_line_seq ? 2 * d->alloc_line_seq : 1024;
		d->line_seq = xrealloc(d->line_seq,
				       d->alloc_line_seq * sizeof(*d->line_seq));
	}
	d->line_seq[d->nline_seq++] = kmsg_parser_last_seq(d->kmsg);
	db_log_line(line, len, d);
}

int db_sink_kmsg_line(struct collect_sink *s, const char *line, size_t len)
{
	struct db_sink *d = to_db(s);

	if (d->failed)
		return -EINVAL;
	return kmsg_parser_push_line(d->kmsg, line, len) ? db_fail(d) : 0;
}

int db_sink_log_line(struct collect_sink *s, const char *line, size_t len)
{
	struct db_sink *d = to_db(s);

	if (d->failed)
		return -EINVAL;
	db_log_line(line, len, d);
	return 0;
}

/* A console line the agent never sent: after its last record's time. */
static int db_console_line(const char *line, size_t len,
			   unsigned long long usec, void *data)
{
	struct db_sink *d = data;

	if (kmsg_parser_records(d->kmsg) &&
	    usec <= kmsg_parser_last_usec(d->kmsg))
		return 0;
	db_log_line(line, len, d);
	return d->failed ? -1 : 0;
}

int db_sink_console(struct collect_sink *s, const char *path)
{
	struct db_sink *d = to_db(s);
	struct console_verdict v;

	if (d->failed)
		return -1;
	if (console_read(path, &v, db_console_line, d))
		return db_fail(d);
	return 0;
}

static int db_kmsg_record(struct collect_sink *s, const uint8_t *rec,
			  size_t len)
{
	struct db_sink *d = to_db(s);

	if (d->failed)
		return -EINVAL;
	return kmsg_parser_push_record(d->kmsg, rec, len) ? db_fail(d) : 0;
}

/* ---- /proc files ---- */

static int on_class(const struct proc_lockdep_class *c, void *ctx)
{
	return store_add_class(ctx, c);
}

static int on_dep(const struct proc_lockdep_class *from,
		  const struct proc_lockdep_dep *to, void *ctx)
{
	return store_add_dep(ctx, from, to);
}

static int on_chain(const struct proc_lockdep_chain *c, void *ctx)
{
	return store_add_chain(ctx, c);
}

static int on_stat(const struct proc_lockdep_stat *s, void *ctx)
{
	return store_add_stat(ctx, s);
}

static int on_lock_stat(const struct proc_lock_stat_row *r, void *ctx)
{
	return store_add_lock_stat(ctx, r);
}

static int on_point(const struct proc_lock_stat_point *p, void *ctx)
{
	return store_add_lock_stat_point(ctx, p);
}

static int on_selftest(const struct selftest_row *r, void *ctx)
{
	return store_add_selftest_row(ctx, r);
}

static int on_selftest_summary(const struct selftest_summary *s, void *ctx)
{
	return store_add_selftest_summary(ctx, s);
}

/* 2.6.18 to 2.6.29 printed 4 usage characters in another order. */
static unsigned int proc_flags(const struct db_sink *d)
{
	unsigned int minor;

	if (d->release && sscanf(d->release, "2.6.%u", &minor) == 1 &&
	    minor >= 18 && minor <= 29)
		return PROC_PARSE_LEGACY_USAGE;
	return 0;
}

/* The file being received, as a stream: NULL after saying why. */
static FILE *db_file_stream(struct db_sink *d)
{
	FILE *in = fmemopen(d->file.buf, d->file.len, "r");

	if (!in)
		error("unable to read '%s': %s", d->input, strerror(errno));
	return in;
}

/* Run one /proc parser over the file; any malformed line fails the boot. */
static int db_parse_proc(struct db_sink *d, const char *path)
{
	static const struct proc_lockdep_ops lockdep_ops = { on_class, on_dep };
	static const struct proc_stats_ops stats_ops = { on_stat, NULL };
	static const struct proc_chains_ops chains_ops = { on_chain };
	static const struct proc_lock_stat_ops lock_stat_ops = {
		on_lock_stat, on_point };
	struct proc_parse_stats ps = { 0 };
	unsigned long unresolved;
	FILE *in;
	int ret;

	in = db_file_stream(d);
	if (!in)
		return db_fail(d);
	if (!strcmp(path, "/proc/lockdep"))
		ret = proc_lockdep_parse(in, d->input, proc_flags(d),
					 &lockdep_ops, d->st, &ps);
	else if (!strcmp(path, "/proc/lockdep_stats"))
		ret = proc_stats_parse(in, d->input, 0, &stats_ops, d->st, &ps);
	else if (!strcmp(path, "/proc/lockdep_chains"))
		ret = proc_chains_parse(in, d->input, 0, &chains_ops, d->st,
					&ps);
	else
		ret = proc_lock_stat_parse(in, d->input, 0, &lock_stat_ops,
					   d->st, &ps);
	fclose(in);
	if (ret)
		return db_fail(d);
	if (ps.bad) {
		error("'%s' has %lu malformed line%s (see above); nothing stored",
		      d->input, ps.bad, ps.bad == 1 ? "" : "s");
		return db_fail(d);
	}
	if (!strcmp(path, "/proc/lockdep")) {
		if (store_resolve_deps(d->st, &unresolved))
			return db_fail(d);
		if (unresolved)
			warning("%s: %lu dependencies name a class the file does not list",
				d->input, unresolved);
	}
	if (ps.notes & PROC_NOTE_TRUNCATED)
		db_sink_set_partial(&d->base, "a /proc file ends mid-record");
	return 0;
}

/* "Linux version 6.1.0 (...) ..." -> "6.1.0" */
static int db_version(struct db_sink *d)
{
	char release[128];

	strbuf_rtrim(&d->file);
	if (sscanf(d->file.buf, "Linux version %127s", release) != 1) {
		error("%s:1: not a /proc/version line", d->input);
		return db_fail(d);
	}
	free(d->release);
	d->release = xstrdup(release);
	if (store_boot_set(d->st, "kernel_version", d->file.buf))
		return db_fail(d);
	return 0;
}

/* No --vmlinux: the kernel's own, by its build id, said either way. */
static void db_find_vmlinux(struct db_sink *d)
{
	d->found_vmlinux = debuginfo_find_vmlinux(d->o.debug_dir, d->build_id,
						  d->release);
	if (d->found_vmlinux) {
		fprintf(stderr, "lockdep-collect: symbolising against %s (build id %s)\n",
			d->found_vmlinux, d->build_id);
		d->o.vmlinux = d->found_vmlinux;
	} else {
		fprintf(stderr, "lockdep-collect: no vmlinux of build id %s under %s (.build-id/%.2s/%s.debug, boot/vmlinux-%s): reports stored unsymbolised; give --vmlinux\n",
			d->build_id, d->o.debug_dir, d->build_id, d->build_id + 2,
			d->release ? d->release : "RELEASE");
	}
	db_flush_pending(d);
}

static int db_notes(struct db_sink *d)
{
	size_t bad;
	int ret;

	ret = elf_notes_build_id(d->file.buf, d->file.len, d->build_id, &bad);
	if (ret < 0) {
		error("'%s': malformed ELF note at byte %zu", d->input, bad);
		return db_fail(d);
	}
	if (ret == 0 && store_boot_set(d->st, "build_id", d->build_id))
		return db_fail(d);
	if (ret == 0 && d->o.debug_dir && !d->lookup_done)
		db_find_vmlinux(d);
	return 0;
}

static int db_config(struct db_sink *d)
{
	struct strbuf out = STRBUF_INIT;
	const char *why;
	int ret = 0;

	if (gunzip(d->file.buf, d->file.len, CONFIG_MAX, &out, &why)) {
		error("unable to decompress '%s': %s", d->input, why);
		ret = db_fail(d);
	} else if (strlen(out.buf) != out.len) {
		/* stored as text: a NUL would silently end it there */
		error("'%s': a NUL byte at offset %zu of the decompressed config",
		      d->input, strlen(out.buf));
		ret = db_fail(d);
	} else if (store_boot_set(d->st, "config", out.buf)) {
		ret = db_fail(d);
	}
	strbuf_release(&out);
	return ret;
}

/*
 * A module section's load address: the symboliser learns the module's
 * layout, so that graph traces in module code can be named.
 */
static int db_section(struct db_sink *d, const char *module,
		      const char *section)
{
	struct symboliser *sym;
	unsigned long long addr;
	const char *why;

	if (module_section_addr(d->file.buf, d->file.len, &addr, &why)) {
		error("%s:1: %s", d->input, why);
		return db_fail(d);
	}
	sym = db_symboliser(d);
	if (sym)
		symboliser_add_section(sym, module, section, addr);
	return 0;
}

/* A module's build id: its .ko must be of that build to be used. */
static int db_module_build_id(struct db_sink *d, const char *module)
{
	char hex[2 * ELF_NOTES_MAX_BUILD_ID + 1];
	struct symboliser *sym;
	size_t bad;
	int ret;

	ret = elf_notes_build_id(d->file.buf, d->file.len, hex, &bad);
	if (ret < 0) {
		error("'%s': malformed ELF note at byte %zu", d->input, bad);
		return db_fail(d);
	}
	sym = db_symboliser(d);
	if (ret == 0 && sym)
		symboliser_set_module_build_id(sym, module, hex);
	return 0;
}

/*
 * /proc/cmdline: text held to the rule of every input's lines
 * (LINE_READER_MAX), and stored whole: a NUL would cut it.
 */
static int db_cmdline(struct db_sink *d)
{
	const char *p = d->file.buf, *end, *nl;
	unsigned long lineno = 1;

	strbuf_rtrim(&d->file);
	end = d->file.buf + d->file.len;
	for (; (nl = memchr(p, '\n', (size_t)(end - p))); p = nl + 1, lineno++)
		if ((size_t)(nl - p) > LINE_READER_MAX)
			break;
	if ((size_t)((nl ? nl : end) - p) > LINE_READER_MAX)
		error("%s:%lu: a line longer than 1 MiB", d->input, lineno);
	else if (strlen(d->file.buf) != d->file.len)
		error("%s:1: a NUL byte at offset %zu", d->input,
		      strlen(d->file.buf));
	else
		return store_boot_set(d->st, "cmdline", d->file.buf) ?
		       db_fail(d) : 0;
	return db_fail(d);
}

/* ---- the lockdep_stats series ---- */

/* One line of the sample before, to compare the next one with. */
struct series_line {
	char *name;
	unsigned long long value;
};

/*
 * What the series says about itself, told once it is read: samples
 * lost (a number skipped), numbers or times going back, counters going
 * back, lines no kernel we know prints. Nothing of it stops the store.
 */
struct series_check {
	struct db_sink *d;
	unsigned int samples, lines;	/* so far; lines of this sample */
	bool have_prev;
	struct proc_stats_sample prev;
	struct series_line *was, *now;
	size_t nwas, nnow, alloc_was, alloc_now;
	unsigned long lost, back_seq, back_time, back_counters, unknown;
	char first_back[256], first_unknown[160], first_gap[160];
};

static void series_line_free(struct series_line *l, size_t n)
{
	while (n)
		free(l[--n].name);
}

/* The sample just ended becomes the one to compare with. */
static void series_turn(struct series_check *c)
{
	struct series_line *t = c->was;
	size_t a = c->alloc_was;

	series_line_free(c->was, c->nwas);
	c->was = c->now;
	c->nwas = c->nnow;
	c->alloc_was = c->alloc_now;
	c->now = t;
	c->alloc_now = a;
	c->nnow = 0;
}

static int on_sample(const struct proc_stats_sample *h, void *ctx)
{
	struct series_check *c = ctx;
	struct db_sink *d = c->d;

	if (c->samples)
		series_turn(c);
	if (c->have_prev && h->seq > c->prev.seq + 1) {
		c->lost += h->seq - c->prev.seq - 1;
		if (!c->first_gap[0])
			snprintf(c->first_gap, sizeof(c->first_gap),
				 "samples %llu to %llu (line %lu)",
				 c->prev.seq + 1, h->seq - 1, h->line);
	}
	if (c->have_prev && h->seq <= c->prev.seq)
		c->back_seq++;
	if (c->have_prev && h->time_ms < c->prev.time_ms)
		c->back_time++;
	c->prev = *h;
	c->have_prev = true;
	c->lines = 0;
	return store_add_stats_sample(d->st, c->samples++, h);
}

/*
 * Lines that are not counts of anything that only grows: classes leave
 * "unused" and "uncategorized" as they are used, debug_locks goes to 0.
 * The tables shrink too, but only when classes are zapped: said.
 */
static bool moves_both_ways(const char *label)
{
	return !strcmp(label, "unused locks") ||
	       !strcmp(label, "uncategorized locks") ||
	       !strcmp(label, "debug_locks");
}

static int on_sample_stat(const struct proc_lockdep_stat *s, void *ctx)
{
	struct series_check *c = ctx;
	struct series_line *l;
	size_t i;

	if (!s->known && !c->unknown++)
		snprintf(c->first_unknown, sizeof(c->first_unknown),
			 "'%.100s' (line %lu)", s->label, s->line);
	for (i = 0; i < c->nwas; i++) {
		if (strcmp(c->was[i].name, s->label))
			continue;
		if (s->value < c->was[i].value && !moves_both_ways(s->label) &&
		    !c->back_counters++)
			snprintf(c->first_back, sizeof(c->first_back),
				 "'%.100s' %llu -> %llu at sample %llu (line %lu)",
				 s->label, c->was[i].value, s->value,
				 c->prev.seq, s->line);
		break;
	}
	if (c->nnow == c->alloc_now) {
		c->alloc_now = c->alloc_now ? 2 * c->alloc_now : 64;
		c->now = xrealloc(c->now, c->alloc_now * sizeof(*c->now));
	}
	l = &c->now[c->nnow++];
	l->name = xstrdup(s->label);
	l->value = s->value;
	return store_add_stats_sample_value(c->d->st, c->samples - 1,
					    c->lines++, s);
}

/* Each thing the series says about itself, plainly, once. */
static void series_tell(const struct series_check *c, const char *input)
{
	if (c->lost)
		warning("'%s': %lu sample%s missing, the agent could not read them (the first: %s)",
			input, c->lost, c->lost == 1 ? " is" : "s are",
			c->first_gap);
	if (c->back_seq)
		warning("'%s': the sample number goes back %lu time%s: the series is damaged; stored as read",
			input, c->back_seq, c->back_seq == 1 ? "" : "s");
	if (c->back_time)
		warning("'%s': the time goes back %lu time%s: stored as read",
			input, c->back_time, c->back_time == 1 ? "" : "s");
	if (c->back_counters)
		warning("'%s': %lu counter%s went back from one sample to the next (the first: %s): classes zapped or a counter reset; stored as read",
			input, c->back_counters,
			c->back_counters == 1 ? "" : "s", c->first_back);
	if (c->unknown)
		warning("'%s': %lu line%s with a label no kernel we know prints (the first: %s): kept",
			input, c->unknown, c->unknown == 1 ? "" : "s",
			c->first_unknown);
}

/* The agent's series file: every sample and line, or nothing stored. */
static int db_series(struct db_sink *d)
{
	static const struct proc_stats_ops ops = { on_sample_stat, on_sample };
	struct series_check c = { .d = d };
	struct proc_parse_stats ps = { 0 };
	FILE *in;
	int ret;

	in = db_file_stream(d);
	if (!in)
		return db_fail(d);
	ret = proc_stats_parse(in, d->input, PROC_PARSE_STATS_SERIES, &ops,
			       &c, &ps);
	fclose(in);
	series_line_free(c.was, c.nwas);
	series_line_free(c.now, c.nnow);
	free(c.was);
	free(c.now);
	if (ret)
		return db_fail(d);
	if (ps.bad) {
		error("'%s' has %lu malformed line%s (see above); nothing stored",
		      d->input, ps.bad, ps.bad == 1 ? "" : "s");
		return db_fail(d);
	}
	series_tell(&c, d->input);
	free(d->series_input);
	d->series_input = xstrdup(d->input);
	return 0;
}

/* After the reports: each snapshot and its report, or what is missing. */
static int db_snapshots(struct db_sink *d)
{
	unsigned long unlinked, unsnapped;

	if (store_link_stats_snapshots(d->st, d->snapshot_graph ?
				       PROTO_SNAPSHOT_GRAPH_PATH : NULL,
				       &unlinked, &unsnapped))
		return db_fail(d);
	if (unlinked)
		warning("%lu lockdep_stats snapshot%s of '%s' name%s a kernel log record with no \"too low\" report: stored without one",
			unlinked, unlinked == 1 ? "" : "s", d->series_input,
			unlinked == 1 ? "s" : "");
	/* without a series, the agent took none: lockdep-report says so */
	if (unsnapped && d->series_input)
		warning("%lu \"too low\" report%s of this boot %s no snapshot of lockdep_stats and the graph export in '%s'",
			unsnapped, unsnapped == 1 ? "" : "s",
			unsnapped == 1 ? "has" : "have", d->series_input);
	return 0;
}

/* A complete file: to its parser. */
static int db_parse_file(struct db_sink *d, const char *path)
{
	char module[PROTO_MAX_MODULE_NAME + 1];
	char section[PROTO_MAX_SECTION_NAME + 1];

	if (!strcmp(path, "/proc/lockdep") ||
	    !strcmp(path, "/proc/lockdep_stats") ||
	    !strcmp(path, "/proc/lockdep_chains") ||
	    !strcmp(path, "/proc/lock_stat"))
		return db_parse_proc(d, path);
	if (!strcmp(path, "/proc/version"))
		return db_version(d);
	if (!strcmp(path, "/proc/cmdline"))
		return db_cmdline(d);
	if (!strcmp(path, "/proc/config.gz"))
		return db_config(d);
	if (!strcmp(path, "/sys/kernel/notes"))
		return db_notes(d);
	if (!strcmp(path, PROTO_STATS_SERIES_PATH))
		return db_series(d);
	if (!strcmp(path, PROTO_SNAPSHOT_GRAPH_PATH)) {
		/* kept in files, as it came: the snapshot names it */
		d->snapshot_graph = true;
		return 0;
	}
	if (!strcmp(path, PROTO_GRAPH_PATH)) {
		strbuf_reset(&d->graph);
		strbuf_add(&d->graph, d->file.buf, d->file.len);
		free(d->graph_input);
		d->graph_input = xstrdup(d->input);
		return 0;
	}
	if (proto_module_section_path(path, strlen(path), module, section))
		return db_section(d, module, section);
	if (proto_module_build_id_path(path, strlen(path), module))
		return db_module_build_id(d, module);
	/* the scenario list: kept in files only */
	return 0;
}

static int db_file_begin(struct collect_sink *s, const struct file_item *it)
{
	struct db_sink *d = to_db(s);

	strbuf_reset(&d->file);
	free(d->input);
	if (d->next_input) {
		d->input = d->next_input;
		d->next_input = NULL;
	} else {
		d->input = xmalloc(strlen(it->path) + 8);
		sprintf(d->input, "guest:%s", it->path);
	}
	return d->failed ? -EINVAL : 0;
}

static int db_file_data(struct collect_sink *s, const void *buf, size_t len)
{
	struct db_sink *d = to_db(s);

	strbuf_add(&d->file, buf, len);
	return d->failed ? -EINVAL : 0;
}

static int db_file_end(struct collect_sink *s, const struct file_item *it)
{
	struct db_sink *d = to_db(s);
	char buf[32];

	if (d->failed)
		return -EINVAL;
	if (store_add_file(d->st, it->path, item_status_name(it->status),
			   it->bytes, it->status == ITEM_COMPLETE ? NULL :
			   item_err_name(it->err, buf, sizeof(buf)),
			   it->status == ITEM_MISSING ? NULL : d->file.buf,
			   d->file.len))
		return db_fail(d);
	if (it->status == ITEM_COMPLETE)
		return db_parse_file(d, it->path);
	return 0;
}

static int db_events_data(struct collect_sink *s, const void *buf, size_t len)
{
	struct db_sink *d = to_db(s);

	strbuf_add(&d->events, buf, len);
	return d->failed ? -EINVAL : 0;
}

/* ---- the end ---- */

static int db_selftest(struct db_sink *d)
{
	static const struct selftest_ops ops = { on_selftest,
						 on_selftest_summary };
	struct proc_parse_stats ps = { 0 };
	FILE *in;

	if (!d->log.len)
		return 0;
	in = fmemopen(d->log.buf, d->log.len, "r");
	if (!in) {
		error("unable to read the kernel log: %s", strerror(errno));
		return db_fail(d);
	}
	if (selftest_parse(in, d->o.kmsg_input, 0, &ops, d->st, &ps)) {
		fclose(in);
		return db_fail(d);
	}
	fclose(in);
	if (ps.bad) {
		error("the self-test table of '%s' has %lu malformed line%s (see above); nothing stored",
		      d->o.kmsg_input, ps.bad, ps.bad == 1 ? "" : "s");
		return db_fail(d);
	}
	return 0;
}

static int on_event(const struct trace_event *ev, void *data)
{
	return store_add_dependency_event(data, ev);
}

/* The dependency events, whole or not at all. */
static int db_events(struct db_sink *d)
{
	struct trace_events_stats st;

	if (trace_events_parse(d->events.buf, d->events.len,
			       d->o.events_input, on_event, d->st, &st) ||
	    store_add_event_stream(d->st, &st))
		return db_fail(d);
	if (st.unknown)
		warning("'%s': %lu line%s that %s no trace event (the first is line %lu): counted as other lines, the events around stored",
			d->o.events_input, st.unknown, st.unknown == 1 ? "" : "s",
			st.unknown == 1 ? "is" : "are", st.first_unknown);
	if (st.lost)
		warning("'%s': the kernel lost %llu dependency events (its trace buffer was full): the stream misses them",
			d->o.events_input, (unsigned long long)st.lost);
	return 0;
}

/* After every file: the export joins /proc/lockdep and checks the notes. */
static int db_graph(struct db_sink *d)
{
	bool truncated;

	if (db_graph_store(d->st, d->graph_input, d->graph.buf, d->graph.len,
			   d->build_id, db_symboliser(d), &truncated))
		return db_fail(d);
	if (truncated) {
		warning("'%s' has no end record: it was cut; stored as far as it goes",
			d->graph_input);
		db_sink_set_partial(&d->base, PROTO_GRAPH_PATH " ends mid-record");
	}
	return 0;
}

static int db_manifest(struct db_sink *d, const struct collect_summary *sum)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp;
	int ret;

	fp = open_memstream(&text, &len);
	if (!fp)
		return db_fail(d);
	manifest_write(fp, sum);
	fclose(fp);
	ret = store_boot_set(d->st, "manifest", text);
	free(text);
	if (!ret && sum->identity[0])
		ret = store_boot_set(d->st, "agent", sum->identity);
	return ret ? db_fail(d) : 0;
}

static int db_workload(struct db_sink *d, const struct workload_item *w)
{
	static const enum store_workload_state state[] = {
		[WORKLOAD_NOT_STARTED] = STORE_WORKLOAD_NOT_STARTED,
		[WORKLOAD_RUNNING] = STORE_WORKLOAD_RUNNING,
		[WORKLOAD_EXITED] = STORE_WORKLOAD_EXITED,
	};
	struct store_workload sw = {
		.name = w->name,
		.state = state[w->state],
		.exit_code = WIFEXITED(w->wait_status) ?
			     WEXITSTATUS(w->wait_status) : -1,
		.signal = WIFSIGNALED(w->wait_status) ?
			  WTERMSIG(w->wait_status) : 0,
		.duration_ms = (long long)w->duration_ms,
		.has_start_seq = w->start_seq <= INT64_MAX,
		.start_seq = (long long)w->start_seq,
		.has_end_seq = w->end_seq <= INT64_MAX,
		.end_seq = (long long)w->end_seq,
		.output = w->output,
		.output_len = w->output_len,
		.output_bytes = (long long)w->output_total,
	};
	char buf[32], why[64];

	if (w->state == WORKLOAD_NOT_STARTED) {
		snprintf(why, sizeof(why), "%s",
			 item_err_name(w->err, buf, sizeof(buf)));
		sw.error = why;
	}
	return store_add_workload(d->st, &sw) ? db_fail(d) : 0;
}

static int db_finish(struct collect_sink *s, const struct collect_summary *sum)
{
	struct db_sink *d = to_db(s);
	char why[COLLECT_WHY_MAX];

	if (d->o.completeness_from_summary &&
	    collect_summary_why_partial(sum, why, sizeof(why)))
		db_sink_set_partial(s, why);
	if (!d->failed && d->partial &&
	    store_boot_set(d->st, "partial_reason", d->partial))
		db_fail(d);
	if (!d->failed && collect_summary_not_offered(sum, why, sizeof(why)) &&
	    store_boot_set(d->st, "not_offered", why))
		db_fail(d);
	if (!d->failed) {
		klog_parser_finish(d->klog);
		/* no build id came: the reports held for it, as they are */
		db_flush_pending(d);
		db_selftest(d);
	}
	if (!d->failed && d->graph_input)
		db_graph(d);
	if (!d->failed)
		db_snapshots(d);
	if (!d->failed && sum->events.offered && d->o.events_input)
		db_events(d);
	if (!d->failed && d->release &&
	    store_boot_set(d->st, "kernel_release", d->release))
		db_fail(d);
	if (!d->failed && d->o.completeness_from_summary)
		db_manifest(d, sum);
	if (!d->failed && sum->workload.state != WORKLOAD_NONE)
		db_workload(d, &sum->workload);
	/* after the reports and the workload: its verdict is drawn from them */
	if (!d->failed && d->o.repro && store_add_repro(d->st, d->o.repro))
		db_fail(d);
	if (d->failed) {
		store_boot_abort(d->st);
		error("nothing was stored in '%s'", d->o.db_path);
		return -EINVAL;
	}
	if (store_boot_commit(d->st, d->partial ? "partial" : "complete"))
		return -EIO;
	d->committed = true;
	return 0;
}

static void db_free(struct collect_sink *s)
{
	struct db_sink *d = to_db(s);

	store_close(d->st);	/* rolls back a boot not committed */
	kmsg_parser_free(d->kmsg);
	klog_parser_free(d->klog);
	symboliser_free(d->sym);
	while (d->npending)
		report_free(d->pending[--d->npending]);
	free(d->pending);
	free(d->found_vmlinux);
	strbuf_release(&d->file);
	strbuf_release(&d->log);
	strbuf_release(&d->graph);
	strbuf_release(&d->events);
	free(d->graph_input);
	free(d->series_input);
	free(d->input);
	free(d->next_input);
	free(d->release);
	free(d->partial);
	free(d->line_seq);
	free(d);
}

static const struct collect_sink_ops db_sink_ops = {
	.file_begin	= db_file_begin,
	.file_data	= db_file_data,
	.file_end	= db_file_end,
	.kmsg_record	= db_kmsg_record,
	.events_data	= db_events_data,
	.finish		= db_finish,
	.free		= db_free,
};

struct collect_sink *db_sink_new(const struct db_sink_opts *o)
{
	struct store_boot b = { o->label, o->source, o->source_path };
	struct db_sink *d;
	struct store *st;

	st = store_open(o->db_path, 0);
	if (!st)
		return NULL;
	d = xcalloc(1, sizeof(*d));
	d->base.ops = &db_sink_ops;
	d->o = *o;
	d->st = st;
	strbuf_init(&d->file);
	strbuf_init(&d->log);
	strbuf_init(&d->graph);
	strbuf_init(&d->events);
	d->kmsg = kmsg_parser_new(o->kmsg_input, db_kmsg_line, d);
	d->klog = klog_parser_new(o->kmsg_input, 1, db_report, d);
	if (store_boot_begin(st, &b, &d->boot_id)) {
		db_free(&d->base);
		return NULL;
	}
	return &d->base;
}

void db_sink_name_next(struct collect_sink *s, const char *input)
{
	struct db_sink *d = to_db(s);

	free(d->next_input);
	d->next_input = xstrdup(input);
}

void db_sink_set_partial(struct collect_sink *s, const char *why)
{
	struct db_sink *d = to_db(s);

	if (!d->partial)
		d->partial = xstrdup(why);
}

bool db_sink_partial(const struct collect_sink *s)
{
	return ((const struct db_sink *)s)->partial != NULL;
}

const char *db_sink_partial_reason(const struct collect_sink *s)
{
	return ((const struct db_sink *)s)->partial;
}

void db_sink_abort(struct collect_sink *s)
{
	to_db(s)->failed = true;
}

int64_t db_sink_boot_id(const struct collect_sink *s)
{
	return ((const struct db_sink *)s)->boot_id;
}

void db_sink_counts(const struct collect_sink *s, unsigned long *reports,
		    unsigned long *truncated)
{
	const struct db_sink *d = (const struct db_sink *)s;

	*reports = d->reports;
	*truncated = d->truncated;
}

bool db_sink_committed(const struct collect_sink *s)
{
	return ((const struct db_sink *)s)->committed;
}

/* ---- tee ---- */

/*
 * @a (the raw directory) gets everything and its errors end the run; a
 * failure of @b (the database) is kept for finish() and @b gets nothing
 * more, so the raw copy is whole even when the database refuses the input.
 */
struct tee_sink {
	struct collect_sink base;
	struct collect_sink *a, *b;
	int b_err;
};

static struct tee_sink *to_tee(struct collect_sink *s)
{
	return (struct tee_sink *)s;
}

static int tee_b(struct tee_sink *t, int err)
{
	if (err && !t->b_err)
		t->b_err = err;
	return 0;
}

static int tee_file_begin(struct collect_sink *s, const struct file_item *it)
{
	struct tee_sink *t = to_tee(s);
	int ret = t->a->ops->file_begin(t->a, it);

	if (!ret && !t->b_err)
		tee_b(t, t->b->ops->file_begin(t->b, it));
	return ret;
}

static int tee_file_data(struct collect_sink *s, const void *buf, size_t len)
{
	struct tee_sink *t = to_tee(s);
	int ret = t->a->ops->file_data(t->a, buf, len);

	if (!ret && !t->b_err)
		tee_b(t, t->b->ops->file_data(t->b, buf, len));
	return ret;
}

static int tee_file_end(struct collect_sink *s, const struct file_item *it)
{
	struct tee_sink *t = to_tee(s);
	int ret = t->a->ops->file_end(t->a, it);

	if (!ret && !t->b_err)
		tee_b(t, t->b->ops->file_end(t->b, it));
	return ret;
}

static int tee_kmsg_record(struct collect_sink *s, const uint8_t *rec,
			   size_t len)
{
	struct tee_sink *t = to_tee(s);
	int ret = t->a->ops->kmsg_record(t->a, rec, len);

	if (!ret && !t->b_err)
		tee_b(t, t->b->ops->kmsg_record(t->b, rec, len));
	return ret;
}

static int tee_events_data(struct collect_sink *s, const void *buf, size_t len)
{
	struct tee_sink *t = to_tee(s);
	int ret = t->a->ops->events_data(t->a, buf, len);

	if (!ret && !t->b_err)
		tee_b(t, t->b->ops->events_data(t->b, buf, len));
	return ret;
}

/* Both finish, whatever happened: the database rolls back on its own. */
static int tee_finish(struct collect_sink *s, const struct collect_summary *sum)
{
	struct tee_sink *t = to_tee(s);
	int a = t->a->ops->finish(t->a, sum);
	int b = t->b->ops->finish(t->b, sum);

	return a ?: b;
}

static void tee_free(struct collect_sink *s)
{
	struct tee_sink *t = to_tee(s);

	t->a->ops->free(t->a);
	t->b->ops->free(t->b);
	free(t);
}

static const struct collect_sink_ops tee_sink_ops = {
	.file_begin	= tee_file_begin,
	.file_data	= tee_file_data,
	.file_end	= tee_file_end,
	.kmsg_record	= tee_kmsg_record,
	.events_data	= tee_events_data,
	.finish		= tee_finish,
	.free		= tee_free,
};

struct collect_sink *tee_sink_new(struct collect_sink *a,
				  struct collect_sink *b)
{
	struct tee_sink *t = xcalloc(1, sizeof(*t));

	t->base.ops = &tee_sink_ops;
	t->a = a;
	t->b = b;
	return &t->base;
}
