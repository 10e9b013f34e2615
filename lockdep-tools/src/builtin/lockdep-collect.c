/*
 * lockdep-collect: pull a guest's lockdep state through its agent and
 * save it raw and/or into a lockdep database; or store a raw directory,
 * a kernel log, saved /proc files or this machine's state in a database
 * (lockdep-collect(1)).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/sym-options.h"
#include "collect/collect.h"
#include "collect/db-sink.h"
#include "collect/sources.h"
#include "proto/message.h"
#include "store/store.h"
#include "util/cli.h"
#include "util/error.h"
#include "util/strbuf.h"

#define DEFAULT_TIMEOUT_S	120
#define DEFAULT_RUN_TIMEOUT_S	600

static const char usage_text[] =
	"usage: lockdep-collect --socket PATH (--raw-dir DIR | --db FILE)...\n"
	"                       [--timeout SECONDS] [--poweroff] [--trigger NAME]...\n"
	"                       [--follow] [--duration SECONDS] [--console FILE]\n"
	"                       [--run NAME [--run-timeout SECONDS]]\n"
	"       lockdep-collect --db FILE (--raw-dir DIR | --log FILE | --proc-dir DIR\n"
	"                       | --local)\n"
	"   both with: [--label TEXT] [--vmlinux FILE | --debug-dir DIR]\n"
	"              [--modules DIR] [--cache DIR | --no-cache]\n"
	"              [--repro-source FILE [--repro-config FILE]\n"
	"               [--repro-patch FILE]...]\n"
	"\n"
	"Sources (exactly one):\n"
	"    --socket PATH      the guest agent behind this UNIX socket (QEMU chardev)\n"
	"    --raw-dir DIR      without --socket: a raw directory saved earlier\n"
	"    --log FILE         a console log, dmesg, syslog or journal ('-': stdin)\n"
	"    --proc-dir DIR     saved /proc files: lockdep, lockdep_stats, ...\n"
	"    --local            this machine's /proc/lockdep* and /dev/kmsg, read only\n"
	"Destinations:\n"
	"    --raw-dir DIR      with --socket: save the files, kmsg and MANIFEST in DIR\n"
	"    --db FILE          parse and store as a new boot in this database\n"
	"                       (created if needed); prints the boot's id\n"
	"Options:\n"
	"    --label TEXT       a name for the boot in the database\n"
	"    --vmlinux FILE     symbolise the reports' frames against this vmlinux\n"
	"    --debug-dir DIR    without --vmlinux: the one of the kernel's build id\n"
	"                       under DIR (default /usr/lib/debug): .build-id/xx/\n"
	"                       yyyy.debug, boot/vmlinux-RELEASE or lib/modules/\n"
	"                       RELEASE/vmlinux (a -dbg package), named on stderr\n"
	"    --modules DIR      ... and the modules (.ko) found under DIR\n"
	"    --cache DIR        keep their symbol indexes in DIR (default\n"
	"                       $XDG_CACHE_HOME/lockdep-tools, see lockdep-symbolise(1))\n"
	"    --no-cache         read their DWARF every time, write no index\n"
	"    --repro-source FILE  the workload ran this C reproducer (vm/repro.sh):\n"
	"                       store it with the boot, and the verdict (the\n"
	"                       first report while it ran, how long it ran)\n"
	"    --repro-config FILE  ... on a kernel with this config fragment\n"
	"    --repro-patch FILE ... and these patches applied (repeatable)\n"
	"    --timeout SECONDS  wait at most this for the agent to answer HELLO,\n"
	"                       and for each reply or kernel log dump (at most\n"
	"                       64 MiB) after it (default 120)\n"
	"    --poweroff         power the guest off at the end\n"
	"    --trigger NAME     run scenario NAME before the files are read (repeatable)\n"
	"    --run NAME         then run the guest's workload (/workload/run, put\n"
	"                       there by vm/boot.sh -r), stored as NAME, following\n"
	"                       the kernel log until it ends\n"
	"    --run-timeout SECONDS  give up waiting for its end after this\n"
	"                       (default 600; the boot is then partial, the\n"
	"                       workload's output so far kept)\n"
	"    --follow           then keep streaming the kernel log until the guest\n"
	"                       powers off (or for --duration)\n"
	"    --duration SECONDS follow for at most this long (implies --follow)\n"
	"    --console FILE     the guest's console log: tells a power-off from a\n"
	"                       panic or a killed QEMU, and adds to --db the reports\n"
	"                       printed after the agent's last kernel log record\n"
	"    -h, --help         show this help\n"
	"\n"
	"Exit status: 0 everything collected (and stored), 1 partial (something\n"
	"incomplete, required but missing, a trigger or the power-off failed,\n"
	"the guest panicked or went away during a follow, the workload did not\n"
	"end; what arrived is stored, the last line says why) or stored but\n"
	"its id not printed, 2 fatal error (nothing stored in the database),\n"
	"3 everything the kernel offers collected, but it does not offer an\n"
	"optional source (the graph export, the scenario module, ...: a\n"
	"kernel without our series; one line names them), 4 everything\n"
	"collected but the workload failed, 64 usage.\n";

static int parse_timeout(const char *arg, int *out)
{
	unsigned long long v;

	if (cli_parse_uint(arg, INT_MAX / 1000, &v) || !v)
		return -1;
	*out = (int)v;
	return 0;
}

struct collect_args {
	struct collect_agent_opts agent;
	const char *raw_dir, *db, *log, *proc_dir, *label, *run;
	const char *repro_source, *repro_config;
	const char **repro_patches;
	size_t nrepro_patches;
	const struct store_repro *repro;	/* the files read, or NULL */
	struct sym_args sym;
	bool local, agent_only, run_timeout;	/* agent_only: an agent-only option was given */
	const char **triggers;
	size_t ntriggers;
};

/* Which source; -1 after a usage error was printed. */
enum source { SRC_AGENT, SRC_RAW_DIR, SRC_LOG, SRC_PROC_DIR, SRC_LOCAL };

static int check_args(const struct collect_args *a)
{
	int n = !!a->agent.socket_path + !!a->log + !!a->proc_dir + a->local;

	/* --raw-dir is the source only when there is no agent to save from */
	if (!a->agent.socket_path && a->raw_dir)
		n++;
	if (n != 1)
		return cli_usage_error("%s", n ? "give only one source: --socket, --raw-dir, --log, --proc-dir or --local"
					   : "no source: give --socket, --raw-dir, --log, --proc-dir or --local");
	if (a->agent.socket_path) {
		if (!a->raw_dir && !a->db)
			return cli_usage_error("%s", "--socket needs --raw-dir DIR, --db FILE or both");
		if (a->log || a->proc_dir || a->local)
			return cli_usage_error("%s", "cannot use --socket with another source");
	} else {
		if (!a->db)
			return cli_usage_error("%s", "--raw-dir, --log, --proc-dir and --local need --db FILE");
		if (a->agent_only)
			return cli_usage_error("%s", "--timeout, --poweroff, --trigger, --follow, --duration, --console, --run and --run-timeout need --socket");
	}
	if (a->run_timeout && !a->run)
		return cli_usage_error("%s", "--run-timeout needs --run NAME");
	if (!a->db && (a->label || a->sym.vmlinux || a->sym.modules || a->sym.debug_dir))
		return cli_usage_error("%s", "--label, --vmlinux, --debug-dir and --modules need --db FILE");
	if (a->sym.vmlinux && a->sym.debug_dir)
		return cli_usage_error("%s", "give --vmlinux or --debug-dir, not both");
	if (!a->repro_source && (a->repro_config || a->nrepro_patches))
		return cli_usage_error("%s", "--repro-config and --repro-patch need --repro-source");
	if (a->repro_source && !a->db)
		return cli_usage_error("%s", "--repro-source needs --db FILE");
	if (a->agent.socket_path)
		return SRC_AGENT;
	if (a->raw_dir)
		return SRC_RAW_DIR;
	return a->log ? SRC_LOG : a->proc_dir ? SRC_PROC_DIR : SRC_LOCAL;
}

static int parse_args(int argc, char **argv, struct collect_args *a)
{
	static const struct option opts[] = {
		{ "socket",	required_argument,	NULL, 's' },
		{ "raw-dir",	required_argument,	NULL, 'r' },
		{ "db",		required_argument,	NULL, 'd' },
		{ "log",	required_argument,	NULL, 'L' },
		{ "proc-dir",	required_argument,	NULL, 'P' },
		{ "local",	no_argument,		NULL, 'l' },
		{ "label",	required_argument,	NULL, 'b' },
		SYM_LONGOPTS,
		SYM_LONGOPT_DEBUG_DIR,
		{ "timeout",	required_argument,	NULL, 't' },
		{ "poweroff",	no_argument,		NULL, 'p' },
		{ "trigger",	required_argument,	NULL, 'T' },
		{ "follow",	no_argument,		NULL, 'f' },
		{ "duration",	required_argument,	NULL, 'D' },
		{ "console",	required_argument,	NULL, 'c' },
		{ "run",	required_argument,	NULL, 'R' },
		{ "run-timeout", required_argument,	NULL, 'W' },
		{ "repro-source", required_argument,	NULL, 'S' },
		{ "repro-config", required_argument,	NULL, 'C' },
		{ "repro-patch", required_argument,	NULL, 'A' },
		{ "help",	no_argument,		NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 's':
			a->agent.socket_path = optarg;
			break;
		case 'r':
			a->raw_dir = optarg;
			break;
		case 'd':
			a->db = optarg;
			break;
		case 'L':
			a->log = optarg;
			break;
		case 'P':
			a->proc_dir = optarg;
			break;
		case 'l':
			a->local = true;
			break;
		case 'b':
			a->label = optarg;
			break;
		case 't':
			if (parse_timeout(optarg, &a->agent.timeout_s))
				return cli_usage_error("invalid --timeout '%s': expected a positive number of seconds",
						   optarg);
			a->agent_only = true;
			break;
		case 'p':
			a->agent.poweroff = a->agent_only = true;
			break;
		case 'T':
			if (!proto_scenario_valid(optarg, strlen(optarg)))
				return cli_usage_error("invalid --trigger '%s': expected 1-64 characters of [a-z0-9_-]",
						   optarg);
			a->triggers[a->ntriggers++] = optarg;
			a->agent_only = true;
			break;
		case 'f':
			a->agent.follow = a->agent_only = true;
			break;
		case 'D':
			if (parse_timeout(optarg, &a->agent.duration_s))
				return cli_usage_error("invalid --duration '%s': expected a positive number of seconds",
						   optarg);
			a->agent.follow = a->agent_only = true;
			break;
		case 'c':
			a->agent.console = optarg;
			a->agent_only = true;
			break;
		case 'R':
			if (!workload_name_valid(optarg, strlen(optarg)))
				return cli_usage_error("invalid --run '%s': expected 1-%d characters of [A-Za-z0-9._+-]",
						       optarg, WORKLOAD_NAME_MAX);
			a->run = optarg;
			a->agent_only = true;
			break;
		case 'W':
			if (parse_timeout(optarg, &a->agent.run_timeout_s))
				return cli_usage_error("invalid --run-timeout '%s': expected a positive number of seconds",
						   optarg);
			a->agent_only = a->run_timeout = true;
			break;
		case 'S':
			a->repro_source = optarg;
			break;
		case 'C':
			a->repro_config = optarg;
			break;
		case 'A':
			a->repro_patches[a->nrepro_patches++] = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return -1;
		default:
			if (sym_args_parse(&a->sym, opt, optarg))
				break;
			return cli_usage();
		}
	}
	if (optind < argc)
		return cli_usage_error("unexpected argument '%s'", argv[optind]);
	return 0;
}

static const char *const source_names[] = {
	[SRC_AGENT] = "socket", [SRC_RAW_DIR] = "raw-dir", [SRC_LOG] = "log",
	[SRC_PROC_DIR] = "proc-dir", [SRC_LOCAL] = "local",
};

static struct collect_sink *make_db_sink(const struct collect_args *a,
					 enum source src)
{
	static char kmsg_input[4200], events_input[4200];
	struct db_sink_opts o = {
		.db_path = a->db, .label = a->label,
		.source = source_names[src], .vmlinux = a->sym.vmlinux,
		.debug_dir = a->sym.vmlinux ? NULL :
			     a->sym.debug_dir ? a->sym.debug_dir : "/usr/lib/debug",
		.modules_dir = a->sym.modules,
		.cache_dir = a->sym.cache, .no_cache = a->sym.no_cache,
		.completeness_from_summary = src == SRC_AGENT ||
					     src == SRC_RAW_DIR ||
					     src == SRC_LOCAL,
		.repro = a->repro,
	};

	switch (src) {
	case SRC_AGENT:
		o.source_path = a->agent.socket_path;
		o.kmsg_input = "guest:/dev/kmsg";
		o.events_input = "guest:/sys/kernel/tracing/trace_pipe";
		break;
	case SRC_RAW_DIR:
		o.source_path = a->raw_dir;
		snprintf(kmsg_input, sizeof(kmsg_input), "%s/kmsg", a->raw_dir);
		o.kmsg_input = kmsg_input;
		snprintf(events_input, sizeof(events_input), "%s/events",
			 a->raw_dir);
		o.events_input = events_input;
		break;
	case SRC_LOG:
		o.source_path = a->log;
		o.kmsg_input = a->log;
		break;
	case SRC_PROC_DIR:
		o.source_path = a->proc_dir;
		o.kmsg_input = "-";
		break;
	case SRC_LOCAL:
		o.kmsg_input = "/dev/kmsg";
		break;
	}
	return db_sink_new(&o);
}

/* What --repro-source and its options name, read before any collection. */
struct repro_files {
	struct strbuf source, fragment, patches, names;
	struct store_repro r;
};

/* The bytes of @path, at most 16 MiB, added to @sb: 0, or -1 said. */
static int read_whole(const char *path, const char *opt, struct strbuf *sb)
{
	char buf[65536];
	FILE *f = fopen(path, "rb");
	size_t n;
	int ret = 0;

	if (!f)
		return error("unable to open %s '%s': %s", opt, path, strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (sb->len + n > 16u << 20) {
			ret = error("%s '%s' is over 16 MiB", opt, path);
			break;
		}
		strbuf_add(sb, buf, n);
	}
	if (!ret && ferror(f))
		ret = error("unable to read %s '%s': %s", opt, path, strerror(errno));
	fclose(f);
	return ret;
}

/* A file's name as stored: its last component. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

static int repro_read(const struct collect_args *a, struct repro_files *f)
{
	size_t i;

	if (read_whole(a->repro_source, "--repro-source", &f->source) ||
	    (a->repro_config &&
	     read_whole(a->repro_config, "--repro-config", &f->fragment)))
		return -1;
	for (i = 0; i < a->nrepro_patches; i++) {
		if (read_whole(a->repro_patches[i], "--repro-patch", &f->patches))
			return -1;
		strbuf_addf(&f->names, "%s%s", i ? "\n" : "",
			    base_name(a->repro_patches[i]));
	}
	f->r = (struct store_repro){
		.source_name = base_name(a->repro_source),
		.source = f->source.buf, .source_len = f->source.len,
		.fragment_name = a->repro_config ? base_name(a->repro_config) : NULL,
		.fragment = a->repro_config ? f->fragment.buf : NULL,
		.fragment_len = f->fragment.len,
		.patch_names = a->nrepro_patches ? f->names.buf : NULL,
		.patches = a->nrepro_patches ? f->patches.buf : NULL,
		.patches_len = f->patches.len,
	};
	return 0;
}

static void repro_release(struct repro_files *f)
{
	strbuf_release(&f->source);
	strbuf_release(&f->fragment);
	strbuf_release(&f->patches);
	strbuf_release(&f->names);
}

/* The sink(s) of this run: raw, database, or both through a tee. */
static struct collect_sink *make_sinks(const struct collect_args *a,
				       enum source src,
				       struct collect_sink **db)
{
	struct collect_sink *raw = NULL;

	*db = NULL;
	if (src == SRC_AGENT && a->raw_dir) {
		raw = raw_sink_new(a->raw_dir);
		if (!raw)
			return NULL;
	}
	if (a->db) {
		*db = make_db_sink(a, src);
		if (!*db) {
			if (raw)
				raw->ops->free(raw);
			return NULL;
		}
	}
	if (raw && *db)
		return tee_sink_new(raw, *db);
	return raw ? raw : *db;
}

static int run_source(const struct collect_args *a, enum source src,
		      struct collect_summary *sum, struct collect_sink *sink,
		      char ***names)
{
	switch (src) {
	case SRC_AGENT:
		return collect_from_agent(&a->agent, sum, sink);
	case SRC_RAW_DIR:
		return source_rawdir(a->raw_dir, sum, sink, names) ?
		       EXIT_FATAL : 0;
	case SRC_LOG:
		return source_log(a->log, sink) ? EXIT_FATAL : 0;
	case SRC_PROC_DIR:
		return source_procdir(a->proc_dir, sum, sink) ?
		       EXIT_FATAL : 0;
	case SRC_LOCAL:
		return source_local(sum, sink) ? EXIT_FATAL : 0;
	}
	return EXIT_FATAL;
}

/*
 * The status says what happened to the data: 2 only when no boot was
 * stored. The id that could not be printed (a full disk, a closed pipe)
 * does not unstore its boot.
 */
static int exit_status(int ret, bool stored)
{
	if (!fflush(stdout) && !ferror(stdout))
		return ret;
	if (!stored)
		return EXIT_FATAL;
	fprintf(stderr, "lockdep-collect: error: unable to write the boot's id to standard output: %s\n",
		strerror(errno));
	return ret == EXIT_OK ? EXIT_PARTIAL : ret;
}

/* "collection is partial: WHY[, see 'DIR/MANIFEST']" */
static void say_partial(const struct collect_args *a, enum source src,
			const struct collect_summary *sum,
			const struct collect_sink *db)
{
	char why[COLLECT_WHY_MAX] = "";
	const char *db_why = db ? db_sink_partial_reason(db) : NULL;
	bool has_sum = src == SRC_AGENT || src == SRC_RAW_DIR ||
		       src == SRC_LOCAL;

	/* the summary's reason first; else the database's (a cut file) */
	if ((!has_sum || !collect_summary_why_partial(sum, why, sizeof(why))) &&
	    db_why)
		snprintf(why, sizeof(why), "%s", db_why);
	if (a->raw_dir && src == SRC_AGENT)
		warning("collection is partial: %s, see '%s/MANIFEST'",
			why[0] ? why : "see above", a->raw_dir);
	else
		warning("collection is partial: %s", why[0] ? why : "see above");
}

int main(int argc, char **argv)
{
	struct collect_args a = {
		.agent.timeout_s = DEFAULT_TIMEOUT_S,
		.agent.run_timeout_s = DEFAULT_RUN_TIMEOUT_S,
	};
	struct collect_sink *sink, *db;
	struct collect_summary sum = { 0 };
	struct repro_files repro = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
				     STRBUF_INIT, { 0 } };
	unsigned long reports, truncated;
	char what[COLLECT_WHY_MAX], **names = NULL;
	int src, ret, fin;
	bool stored = false;
	size_t i;

	cli_init(argv[0], usage_text);
	a.triggers = calloc(argc, sizeof(*a.triggers));
	a.repro_patches = calloc(argc, sizeof(*a.repro_patches));
	if (!a.triggers || !a.repro_patches) {
		fputs("lockdep-collect: error: out of memory\n", stderr);
		free(a.triggers);
		free(a.repro_patches);
		return EXIT_FATAL;
	}
	ret = parse_args(argc, argv, &a);
	src = ret ? ret : check_args(&a);
	if (ret || src == EXIT_USAGE) {
		free(a.triggers);
		free(a.repro_patches);
		if (ret >= 0)
			return EXIT_USAGE;
		return cli_help_done();	/* --help */
	}
	if (a.repro_source) {
		if (repro_read(&a, &repro)) {
			repro_release(&repro);
			free(a.triggers);
			free(a.repro_patches);
			return EXIT_FATAL;
		}
		a.repro = &repro.r;
	}

	/* a guest that vanishes must show up as EPIPE, not kill us */
	signal(SIGPIPE, SIG_IGN);
	/* a file size limit must fail a write (and say so), not kill us */
	signal(SIGXFSZ, SIG_IGN);
	/* the raw directory source fills the summary from its MANIFEST */
	if (src != SRC_RAW_DIR &&
	    collect_summary_init(&sum, a.triggers, a.ntriggers)) {
		fputs("lockdep-collect: error: out of memory\n", stderr);
		repro_release(&repro);
		free(a.triggers);
		free(a.repro_patches);
		return EXIT_FATAL;
	}
	if (a.run)
		snprintf(sum.workload.name, sizeof(sum.workload.name), "%s",
			 a.run);
	sink = make_sinks(&a, src, &db);
	if (!sink) {
		collect_summary_release(&sum);
		repro_release(&repro);
		free(a.triggers);
		free(a.repro_patches);
		return EXIT_FATAL;
	}
	ret = run_source(&a, src, &sum, sink, &names);
	if (ret != EXIT_FATAL)
		collect_summary_no_lockdep(&sum);
	/* what the kernel printed that the agent never sent */
	if (ret != EXIT_FATAL && db && a.agent.console &&
	    db_sink_console(db, a.agent.console))
		ret = EXIT_FATAL;
	/* nothing collected, or bad input: the database gets nothing */
	if (ret == EXIT_FATAL && db)
		db_sink_abort(db);
	fin = sink->ops->finish(sink, &sum);
	/* the raw copy failed, but the boot is stored (see exit_status()) */
	if (fin && db && db_sink_committed(db))
		ret = EXIT_PARTIAL;
	else if (fin)
		ret = EXIT_FATAL;
	else if (!ret && (src == SRC_AGENT || src == SRC_RAW_DIR ||
			  src == SRC_LOCAL))
		ret = collect_summary_exit_status(&sum);
	/* saved /proc files: the directory is what the kernel offered */
	else if (!ret && src == SRC_PROC_DIR &&
		 collect_summary_not_offered(&sum, what, sizeof(what)))
		ret = EXIT_NOT_OFFERED;
	/* what arrived but was cut inside (an export without its end) */
	if ((ret == EXIT_OK || ret == EXIT_NOT_OFFERED) && db &&
	    db_sink_partial(db))
		ret = EXIT_PARTIAL;
	if (db && db_sink_committed(db)) {
		stored = true;
		db_sink_counts(db, &reports, &truncated);
		fprintf(stderr, "lockdep-collect: boot %" PRId64 " stored in '%s': %lu report%s (%lu truncated)\n",
			db_sink_boot_id(db), a.db, reports,
			reports == 1 ? "" : "s", truncated);
		printf("%" PRId64 "\n", db_sink_boot_id(db));
	}
	if (ret != EXIT_FATAL && sum.no_lockdep)
		fputs("lockdep-collect: this kernel has no lockdep (no /proc/lockdep: CONFIG_PROVE_LOCKING is off): kernel log, reports of other kinds and the workload are stored\n",
		      stderr);
	if (ret != EXIT_FATAL && collect_summary_not_offered(&sum, what,
							     sizeof(what)))
		fprintf(stderr, "lockdep-collect: this kernel does not offer: %s\n",
			what);
	if (ret == EXIT_PARTIAL)
		say_partial(&a, src, &sum, db);
	sink->ops->free(sink);
	collect_summary_release(&sum);
	for (i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
	repro_release(&repro);
	free(a.triggers);
	free(a.repro_patches);
	return exit_status(ret, stored);
}
