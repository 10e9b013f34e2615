// SPDX-License-Identifier: GPL-2.0
/*
 * lockdep-report: find, parse and print the lockdep reports in kernel
 * logs (console captures, dmesg, syslog, journal).
 *
 * Reports are printed as they are parsed, so memory stays bounded by
 * the reports in flight, not by the size of the log.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "advise/advise.h"
#include "advise/capacity.h"
#include "builtin/db-options.h"
#include "builtin/sym-options.h"
#include "parse/klog.h"
#include "report/capacity-print.h"
#include "report/report-print.h"
#include "store/store-boot.h"
#include "symbolise/symbolise.h"
#include "util/cli.h"
#include "util/error.h"
#include "util/file-replace.h"
#include "util/json-writer.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum output { OUT_PLAIN, OUT_JSON, OUT_LIST };

struct report_opts {
	enum output output;
	bool pretty;
	int type;		/* -1: all types */
	struct json_writer *json;
	struct symboliser *sym;	/* --vmlinux/--modules, or NULL */
	bool advise;		/* --advise */
	bool syzbot_title;	/* --title=syzbot */
	const char *phase;	/* --phase: before, during or after */
	const char *source;	/* --source=DIR, or NULL */
	const char *patch_dir;	/* --patch-dir=DIR, or NULL */
	int patch_dir_len;	/* ... without its trailing slashes */
	int patch_dirfd;	/* ... opened, or -1 */
	bool write_failed;	/* a patch could not be written there */
	struct store *st;	/* --db: the reports' database */
	bool failed;		/* a read of the database failed */
	unsigned int shown, truncated;
};

static const char usage_line[] =
	"usage: lockdep-report [-j | --json] [-p | --pretty] [-l | --list]\n"
	"                      [-t TYPE | --type=TYPE] [--title=ours|syzbot]\n"
	"                      [--vmlinux=FILE] [--modules=DIR]\n"
	"                      [--cache=DIR | --no-cache]\n"
	"                      [--advise [--source=DIR [--patch-dir=DIR]]] FILE...\n"
	"       lockdep-report --db=FILE [--boot=ID | --all] [-l | --list | --show=ID]\n"
	"                      [-j | --json] [-p | --pretty] [-t TYPE | --type=TYPE]\n"
	"                      [--title=ours|syzbot] [--phase=before|during|after]\n"
	"                      [--advise [--source=DIR [--patch-dir=DIR]]]\n"
	"       lockdep-report --db=FILE --capacity [--boot=ID | --boots=ID,... | --all]\n"
	"                      [-j | --json] [-p | --pretty] [--top=N]\n"
	"                      [--headroom=PERCENT] [--fragment=FILE]\n";

static void print_help(void)
{
	int i;

	fputs(usage_line, stdout);
	fputs("\n"
	      "Find every lockdep report in kernel logs (console, dmesg,\n"
	      "syslog, journal; FILE '-' is standard input) and print it.\n"
	      "\n"
	      "  -j, --json       print a JSON array of reports\n"
	      "  -p, --pretty     pretty-printed JSON (implies --json)\n"
	      "  -l, --list       one line per report: id, type, title\n"
	      "  -t, --type=TYPE  only reports of this type\n"
	      "      --title=ours|syzbot  the title text and --list show: ours\n"
	      "                   (default) or syzkaller's, to search syzbot\n"
	      "                   for (JSON has both)\n"
	      "      --vmlinux=FILE  add file:line and inlined calls to the\n"
	      "                   frames of logs, from this vmlinux\n"
	      "      --modules=DIR  ... and from the modules (.ko) under DIR\n"
	      "      --cache=DIR  keep their symbol indexes in DIR (default\n"
	      "                   $XDG_CACHE_HOME/lockdep-tools, see\n"
	      "                   lockdep-symbolise(1))\n"
	      "      --no-cache   read their DWARF every time, write no index\n"
	      "      --db=FILE    read the reports of a lockdep database\n"
	      "                   (lockdep-collect --db) instead of logs\n"
	      "      --boot=ID    ... of this boot, an id or a label (default:\n"
	      "                   the newest), after the boot, its workload\n"
	      "                   and \"N reports\"\n"
	      "      --all        ... of every boot\n"
	      "      --show=ID    ... only the report with this id\n"
	      "      --phase=before|during|after  ... only the reports that\n"
	      "                   came then, relative to the boot's workload\n"
	      "      --advise     after each report, a verdict (annotate, real\n"
	      "                   deadlock, irq context, locking bug, limit,\n"
	      "                   unsure), the reasons and the change at each\n"
	      "                   site (JSON: an \"advice\" member)\n"
	      "      --source=DIR  ... and a unified diff of the change against\n"
	      "                   the source tree DIR (implies --advise); only\n"
	      "                   regular files beneath DIR are read\n"
	      "      --patch-dir=DIR  ... and write each report's patch as it\n"
	      "                   applies, with the source's bytes, to\n"
	      "                   DIR/report-ID.patch (replaced if there)\n"
	      "      --capacity   instead of reports: what fills each lockdep\n"
	      "                   table (used, max, counted from the export),\n"
	      "                   its top consumers by class, key, module,\n"
	      "                   subsystem and site, the shapes that multiply\n"
	      "                   classes, chains and traces, and the\n"
	      "                   CONFIG_LOCKDEP_*_BITS that hold the workload\n"
	      "      --boots=A,B,...  ... of the union of these boots (all: every\n"
	      "                   boot): each table at its fullest boot\n"
	      "      --top=N      ... the N largest consumers of each grouping\n"
	      "                   (default 3)\n"
	      "      --headroom=PERCENT  ... the share of each table the advice\n"
	      "                   leaves free (default 50, at most 90)\n"
	      "      --fragment=FILE  ... and write the advised options to FILE\n"
	      "                   as a Kconfig fragment (replaced if there)\n"
	      "  -h, --help       show this help\n"
	      "\n"
	      "Types:", stdout);
	for (i = 0; i < LDR_TYPE_NR; i++)
		printf("%s%s", i % 4 ? " " : "\n  ", ldr_type_name(i));
	fputs("\n\n"
	      "Exit status: 0 ok, 1 partial (a report was truncated, or an\n"
	      "input could not be read or only in part), 2 fatal error,\n"
	      "64 usage error.\n",
	      stdout);
}

/*
 * Write @a's patch to DIR/report-@id.patch as the bytes it holds (the
 * text output escapes them for a terminal), replacing what is there
 * (util/file-replace.h: a planted link is replaced, not followed).
 */
static void write_patch(struct report_opts *o, unsigned int id,
			struct advice *a)
{
	struct strbuf name = STRBUF_INIT, path = STRBUF_INIT;

	strbuf_addf(&name, "report-%u.patch", id);
	strbuf_addf(&path, "%.*s/%s", o->patch_dir_len, o->patch_dir, name.buf);
	if (file_replace_at(o->patch_dirfd, name.buf, a->patch,
			    strlen(a->patch))) {
		error("unable to write '%s': %s", path.buf, strerror(errno));
		o->write_failed = true;
		strbuf_release(&path);
	} else {
		a->patch_file = strbuf_detach(&path, NULL);
	}
	strbuf_release(&name);
}

static void show(struct ldr_report *r, void *data)
{
	struct report_opts *o = data;

	if (r->truncated) {
		warning("%s:%lu: report %u (%s) is truncated", r->input,
			r->first_line, r->id, ldr_type_name(r->type));
		o->truncated++;
	}
	if (o->type < 0 || (int)r->type == o->type) {
		struct store_workload w;
		struct store_stats_snapshot snap;
		struct report_workload rw = { .w = NULL };
		struct advice a;

		if (o->st) {
			int found = store_report_workload(o->st, r->id, &w,
							  rw.phase,
							  sizeof(rw.phase));

			if (found < 0)
				o->failed = true;
			if (found > 0)
				rw.w = &w;
		}
		if (o->phase && strcmp(rw.phase, o->phase)) {
			if (rw.w)
				store_workload_release(&w);
			report_free(r);
			return;
		}
		/* a "too low" report and the tables at that moment */
		if (o->st && r->type == LDR_LOCKDEP_LIMIT) {
			int found = store_report_snapshot(o->st, r->id, &snap);

			if (found < 0)
				o->failed = true;
			rw.limit = found >= 0;
			if (found > 0)
				rw.snapshot = &snap;
		}
		if (o->sym)
			symbolise_report(o->sym, r);
		if (o->advise)
			advise_report(r, o->source, &a);
		if (o->advise && a.patch && o->patch_dirfd >= 0)
			write_patch(o, r->id, &a);
		if (o->syzbot_title && o->output != OUT_JSON)
			report_title_as_syzbot(r);
		switch (o->output) {
		case OUT_JSON:
			report_print_json(o->json, r, o->advise ? &a : NULL,
					  o->st ? &rw : NULL);
			break;
		case OUT_LIST:
			report_print_list(stdout, r);
			break;
		case OUT_PLAIN:
			report_print_plain(stdout, r);
			if (rw.w)
				report_print_workload(stdout, &rw);
			if (rw.limit)
				report_print_snapshot(stdout, rw.snapshot);
			if (o->advise)
				report_print_advice(stdout, &a);
			break;
		}
		if (o->advise)
			advice_release(&a);
		if (rw.w)
			store_workload_release(&w);
		if (rw.snapshot)
			store_stats_snapshot_release(&snap);
		o->shown++;
	}
	report_free(r);
}

/*
 * Returns 0, -1 when nothing of @path could be read, or 1 when reading
 * failed after some of its reports were delivered (a line over 1 MiB):
 * those were printed, so the input was read in part.
 */
static int parse_file(const char *path, unsigned int *next_id,
		      struct report_opts *o)
{
	bool is_stdin = !strcmp(path, "-");
	FILE *in = is_stdin ? stdin : fopen(path, "r");
	unsigned int first_id = *next_id;
	int ret;

	if (!in)
		return error("unable to open '%s': %s", path, strerror(errno));
	ret = klog_parse_stream(in, path, next_id, show, o);
	if (!is_stdin)
		fclose(in);
	if (ret && *next_id != first_id)
		return 1;
	return ret;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static int parse_id(const char *arg, int64_t *out)
{
	unsigned long long v;

	if (cli_parse_uint(arg, INT64_MAX, &v) || !v)
		return -1;
	*out = (int64_t)v;
	return 0;
}

/* Print the reports of a database: a boot's, every boot's, or one. */
static int report_db(const char *db, const char *boot_arg, bool all,
		     int64_t show_id, bool list, bool json,
		     struct report_opts *o, int nfiles)
{
	struct ldr_report *r;
	struct store *st;
	bool found = true, explicit_boot = boot_arg;
	int64_t boot = 0;
	int ret = 0;

	if (nfiles || (json && list) ||
	    (show_id && (list || boot_arg || all)) || (boot_arg && all))
		return cli_usage_error("%s", nfiles ?
				       "cannot use --db with input files" :
				       "cannot use --show with --list, --boot or --all, --json with --list, or --boot with --all");
	st = store_open(db, STORE_READ_ONLY);
	if (!st)
		return EXIT_FATAL;
	if (boot_arg && store_boot_resolve(st, boot_arg, &boot)) {
		store_close(st);
		return EXIT_FATAL;
	} else if (!show_id && !all && !boot_arg) {
		boot = store_boot_latest(st);
		if (boot == 0)
			warning("'%s' holds no boot yet", db);
	}
	o->output = json ? OUT_JSON : list ? OUT_LIST : OUT_PLAIN;
	o->st = st;
	if (json) {
		o->json = jsonw_new(stdout, o->pretty);
		jsonw_start_array(o->json);
	}
	if (show_id) {
		r = store_report_load(st, show_id, &found);
		if (r)
			show(r, o);
		else if (!found)
			ret = error("no report %" PRId64 " in '%s'", show_id, db);
		else
			ret = -1;
	} else if (boot >= 0) {
		/* a boot named: what it was, even with no report */
		if (explicit_boot && o->output == OUT_PLAIN)
			ret = report_print_boot(stdout, st, boot);
		if (!ret)
			ret = store_report_foreach(st, boot, show, o);
	} else {
		ret = -1;
	}
	if (json) {
		jsonw_end_array(o->json);
		jsonw_destroy(&o->json);
	}
	store_close(st);
	if (o->failed || o->write_failed)
		ret = -1;
	return cli_exit(ret ? EXIT_FATAL :
			o->truncated ? EXIT_PARTIAL : EXIT_OK);
}

/* What lockdep-report --capacity was asked. */
struct capacity_opts {
	const char *boots;	/* --boots, --all ("all"), or NULL */
	size_t top;
	unsigned int headroom;
	const char *fragment;	/* --fragment=FILE, or NULL */
	bool json, pretty;
};

static int write_fragment(const char *path, const struct capacity *cap,
			  unsigned int headroom,
			  const struct cap_option_advice opts[CAP_OPT_NR])
{
	const char *slash = strrchr(path, '/');
	char *buf = NULL, *dir;
	size_t len = 0;
	FILE *mem;
	int dirfd, ret = -1;

	/* file_replace_at() writes a name within a directory */
	dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) :
		xstrdup(".");
	dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	mem = dirfd >= 0 ? open_memstream(&buf, &len) : NULL;
	if (mem) {
		report_capacity_fragment(mem, cap, headroom, opts);
		fclose(mem);
		ret = file_replace_at(dirfd, slash ? slash + 1 : path, buf, len);
	}
	if (ret)
		error("unable to write '%s': %s", path, strerror(errno));
	if (dirfd >= 0)
		close(dirfd);
	free(buf);
	return ret;
}

/* lockdep-report --capacity: the tables of a boot or a union of boots. */
static int report_capacity(const char *db, const char *boot_arg,
			   const struct capacity_opts *co)
{
	struct store_boot_set set = { 0 };
	struct cap_option_advice opts[CAP_OPT_NR];
	char *words[CAP_TABLE_NR];
	struct cap_usage u;
	struct capacity cap;
	struct advice a;
	struct store *st;
	int ret, t;

	st = store_open(db, STORE_READ_ONLY);
	if (!st)
		return EXIT_FATAL;
	ret = store_boot_select(st, boot_arg ? boot_arg : co->boots, true, &set);
	if (!ret)
		ret = capacity_load(st, set.ids, set.nr, &cap);
	store_boot_set_release(&set);
	store_close(st);
	if (ret)
		return EXIT_FATAL;
	capacity_usage(&cap, &u, words);
	advise_capacity(&u, co->headroom, opts, &a);
	if (co->json) {
		struct json_writer *w = jsonw_new(stdout, co->pretty);

		report_json_capacity(w, &cap, co->top, &a, opts);
		jsonw_destroy(&w);
	} else {
		report_print_capacity(stdout, &cap, co->top, &a);
	}
	if (co->fragment)
		ret = write_fragment(co->fragment, &cap, co->headroom, opts);
	advice_release(&a);
	for (t = 0; t < CAP_TABLE_NR; t++)
		free(words[t]);
	capacity_release(&cap);
	return cli_exit(ret ? EXIT_FATAL : EXIT_OK);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		OUT_LONGOPTS,
		{ "list", no_argument, NULL, 'l' },
		{ "type", required_argument, NULL, 't' },
		{ "title", required_argument, NULL, 'T' },
		DB_LONGOPTS, BOOT_LONGOPT, BOOTS_LONGOPT,
		{ "capacity", no_argument, NULL, 'C' },
		{ "top", required_argument, NULL, 'N' },
		{ "headroom", required_argument, NULL, 'H' },
		{ "fragment", required_argument, NULL, 'F' },
		{ "all", no_argument, NULL, 'A' },
		{ "show", required_argument, NULL, 'S' },
		{ "phase", required_argument, NULL, 'W' },
		SYM_LONGOPTS,
		{ "advise", no_argument, NULL, 'a' },
		{ "source", required_argument, NULL, 's' },
		{ "patch-dir", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts o = { .output = OUT_PLAIN, .type = -1,
				 .patch_dirfd = -1 };
	unsigned int next_id = 1, failed = 0, read_in_part = 0;
	bool list = false, all = false, title = false;
	struct out_args out = { 0 };
	struct db_args d = { 0 };
	struct symbolise_opts so = { 0 };
	struct sym_args sa = { 0 };
	struct capacity_opts co = { .top = 3, .headroom = 50 };
	bool capacity = false, cap_only = false;
	unsigned long long num;
	int64_t show_id = 0;
	int c, i, ret;

	cli_init(argv[0], usage_line);
	while ((c = getopt_long(argc, argv, OUT_SHORTOPTS "lt:h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'l':
			list = true;
			break;
		case 't':
			o.type = ldr_type_from_name(optarg);
			if (o.type < 0) {
				error("unknown report type '%s' (see --help)",
				      optarg);
				return EXIT_USAGE;
			}
			break;
		case 'T':
			if (strcmp(optarg, "ours") && strcmp(optarg, "syzbot")) {
				error("unknown --title '%s': expected ours or syzbot",
				      optarg);
				return EXIT_USAGE;
			}
			o.syzbot_title = !strcmp(optarg, "syzbot");
			title = true;
			break;
		case 'S':
			if (parse_id(optarg, &show_id)) {
				error("invalid --show '%s': expected a positive id",
				      optarg);
				return EXIT_USAGE;
			}
			break;
		case 'A':
			all = true;
			break;
		case 'W':
			if (strcmp(optarg, "before") && strcmp(optarg, "during") &&
			    strcmp(optarg, "after")) {
				error("unknown --phase '%s': expected before, during or after",
				      optarg);
				return EXIT_USAGE;
			}
			o.phase = optarg;
			break;
		case 'C':
			capacity = true;
			break;
		case 'N':
			if (cli_parse_uint(optarg, 1000, &num) || !num) {
				error("invalid --top '%s': expected 1 to 1000", optarg);
				return EXIT_USAGE;
			}
			co.top = (size_t)num;
			cap_only = true;
			break;
		case 'H':
			if (cli_parse_uint(optarg, 90, &num)) {
				error("invalid --headroom '%s': expected a percentage, 0 to 90", optarg);
				return EXIT_USAGE;
			}
			co.headroom = (unsigned int)num;
			cap_only = true;
			break;
		case 'F':
			co.fragment = optarg;
			cap_only = true;
			break;
		case 'P':
			o.patch_dir = optarg;
			break;
		case 's':
			o.source = optarg;
			/* fall through */
		case 'a':
			o.advise = true;
			break;
		case 'h':
			print_help();
			return cli_help_done();
		default:
			if (sym_args_parse(&sa, c, optarg) ||
			    db_args_parse(&d, c, optarg) ||
			    out_args_parse(&out, c))
				break;
			return cli_usage();
		}
	}
	o.pretty = out.pretty;
	if ((cap_only || d.boots) && !capacity)
		return cli_usage_error("--top, --headroom, --fragment and --boots need --capacity");
	if (capacity) {
		if (!d.db)
			return cli_usage_error("--capacity needs --db: the tables are a boot's, as stored");
		if (list || show_id || o.advise || title || o.type >= 0 ||
		    sym_args_any(&sa) || optind < argc)
			return cli_usage_error("--capacity takes only --db, --boot, --boots, --all, --json, --pretty, --top, --headroom and --fragment");
		if (!!d.boot + !!d.boots + all > 1)
			return cli_usage_error("use one of --boot, --boots and --all");
		co.boots = all ? "all" : d.boots;
		co.json = out.json;
		co.pretty = out.pretty;
		return report_capacity(d.db, d.boot, &co);
	}
	if (out.json && list)
		return cli_usage_error("cannot use --json and --list together");
	if (out.json && title)
		return cli_usage_error("--title applies to text and --list: --json carries both title and syzbot_title");
	if (o.advise && list)
		return cli_usage_error("cannot use --advise with --list");
	if (o.source && !is_dir(o.source)) {
		error("--source '%s' is not a directory", o.source);
		return EXIT_USAGE;
	}
	if (o.patch_dir && !o.source)
		return cli_usage_error("--patch-dir needs --source: a patch is made against a source tree");
	if (o.patch_dir) {
		size_t len = strlen(o.patch_dir);

		o.patch_dirfd = open(o.patch_dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (o.patch_dirfd < 0) {
			error("--patch-dir '%s' is not a directory", o.patch_dir);
			return EXIT_USAGE;
		}
		/* "pd/" names its files pd/report-1.patch, "/" /report-1.patch */
		while (len && o.patch_dir[len - 1] == '/')
			len--;
		o.patch_dir_len = (int)len;
	}
	if (d.db && sym_args_any(&sa))
		return cli_usage_error("--vmlinux and --modules apply to log files, not --db "
				       "(lockdep-collect --db symbolises what it stores)");
	if (d.db)
		return report_db(d.db, d.boot, all, show_id, list, out.json, &o,
				 argc - optind);
	if (d.boot || all || show_id || o.phase)
		return cli_usage_error("--boot, --all, --show and --phase need --db");
	if (optind == argc)
		return cli_usage_error("no input file (use '-' for standard input)");
	if (sym_args_any(&sa)) {
		o.sym = sym_args_open(&sa, &so);
		if (!o.sym)
			return EXIT_FATAL;
	}
	o.output = out.json ? OUT_JSON : list ? OUT_LIST : OUT_PLAIN;
	if (out.json) {
		o.json = jsonw_new(stdout, o.pretty);
		jsonw_start_array(o.json);
	}
	for (i = optind; i < argc; i++) {
		ret = parse_file(argv[i], &next_id, &o);
		if (ret < 0)
			failed++;
		else if (ret)
			read_in_part++;
	}
	if (o.sym) {	/* say what was left, as lockdep-symbolise does */
		const struct symbolise_stats *st = symboliser_stats(o.sym);
		struct strbuf sb = STRBUF_INIT;

		if (st->symbolised < st->frames) {
			symbolise_stats_describe(st, &sb);
			warning("%s", sb.buf);
		}
		strbuf_release(&sb);
		symboliser_free(o.sym);
	}
	if (out.json) {
		jsonw_end_array(o.json);
		jsonw_destroy(&o.json);
	}
	if (failed == (unsigned int)(argc - optind) || o.write_failed)
		return cli_exit(EXIT_FATAL);
	return cli_exit(failed || read_in_part || o.truncated ? EXIT_PARTIAL :
			EXIT_OK);
}
