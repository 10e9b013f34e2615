// SPDX-License-Identifier: GPL-2.0
/*
 * lockdep-graph: draw the lock graph of a lockdep database as Graphviz
 * dot (or SVG, PNG, PDF through dot), write it as the explorer's HTML
 * page (graph-html.c), or list its cycles and irq-safe -> irq-unsafe
 * paths as text or JSON.
 *
 * The graph of one boot, or the union of several boots, is loaded once
 * (graph-load.c); a selection marks what to draw (graph-select.c); the
 * writers do the rest. A cycle in the union of boots that no boot saw
 * whole is a deadlock no single boot reported: lockdep found each half
 * in a different boot.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "advise/advise.h"
#include "builtin/db-options.h"
#include "graph/graph-path.h"
#include "graph/graph-view.h"
#include "parse/report.h"
#include "store/store-boot.h"
#include "store/store-graph.h"
#include "util/cli.h"
#include "util/error.h"
#include "util/json-writer.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum selection { SEL_ALL, SEL_CYCLES, SEL_IRQ, SEL_CLASS, SEL_REPORT, SEL_PATH };

struct graph_opts {
	struct db_args d;	/* --db, --boot, --boots */
	struct out_args out;	/* --json, --pretty */
	const char *output, *format, *class;
	const char *path_to;	/* --path: class is its A */
	enum selection sel;
	unsigned int radius;
	int64_t report;
	size_t max_cycles, max_nodes;
	bool list, sites, verbose, html;
};

/* A picture that fits a screen: a star of 15 classes is about 1100
 * pixels tall (fs_reclaim of the 6.1 fixture boot) */
#define MAX_NODES	15
#define MAX_NODES_STR	"15"

static const char usage_line[] =
	"usage: lockdep-graph --db=FILE [--boot=ID | --boots=ID,ID... | --boots=all]\n"
	"                     [--cycles | --irq | --class=NAME [--radius=K]\n"
	"                      | --report=ID | --path A B]\n"
	"                     [-o FILE] [-T svg|png|pdf|html] [--sites] [-l | --list]\n"
	"                     [-j | --json] [-p | --pretty] [--max-cycles=N]\n"
	"                     [--max-nodes=N] [-v]\n";

static void print_help(void)
{
	fputs(usage_line, stdout);
	fputs("\n"
	      "Draw the lock graph of a lockdep database (lockdep-collect --db):\n"
	      "classes as nodes, \"A held when B was taken\" as edges A -> B.\n"
	      "\n"
	      "  --db=FILE        the database\n"
	      "  --boot=ID        the graph of this boot (id or label; default:\n"
	      "                   the newest)\n"
	      "  --boots=A,B,...  the union of these boots, each edge coloured by\n"
	      "                   the boots that saw it\n"
	      "  --boots=all      the union of every boot in the database (a\n"
	      "                   fleet merged with lockdep-merge)\n"
	      "Selections (default: the whole graph):\n"
	      "  --cycles         every strongly connected component, a shortest\n"
	      "                   cycle through each of its edges in bold\n"
	      "  --irq            shortest paths from irq-safe to irq-unsafe classes\n"
	      "  --class=NAME     the classes within --radius edges of NAME\n"
	      "  --radius=K       ... K edges, either direction (default 1)\n"
	      "  --report=ID      the dependency chain of report ID, with sites\n"
	      "  --path A B       why A is taken before B: the shortest paths of\n"
	      "                   dependencies from A to B, each with its site,\n"
	      "                   stack and first-seen time, as text (the\n"
	      "                   default), --json, or drawn with -T\n"
	      "Output:\n"
	      "  -o, --output=FILE  write here instead of standard output\n"
	      "  -T, --format=FMT   run dot -T FMT (svg, png or pdf) on the graph;\n"
	      "                   html: the explorer, one self-contained page of\n"
	      "                   the whole graph (--class: the class it opens on)\n"
	      "      --sites      label edges with their sites (always in tooltips)\n"
	      "  -l, --list       the cycles (or --irq paths) as text, in\n"
	      "                   lockdep's words, instead of a graph\n"
	      "  -j, --json       the same as JSON\n"
	      "  -p, --pretty     pretty-printed JSON (implies --json)\n"
	      "      --max-cycles=N  at most N cycles per component (default\n"
	      "                   1000, 0: no limit)\n"
	      "      --max-nodes=N  draw at most N classes (default " MAX_NODES_STR ",\n"
	      "                   0: no limit): those on cycles and irq paths,\n"
	      "                   then those most lock chains use; the rest\n"
	      "                   folded into boxes that count them\n"
	      "  -v, --verbose    time and peak memory of each step on stderr\n"
	      "  -h, --help       show this help\n"
	      "\n"
	      "Exit status: 0 ok, 1 partial (--max-cycles left dependencies of\n"
	      "a cycle on no listed cycle), 2 fatal error, 64 usage error.\n",
	      stdout);
}

/* ---- -v: time and memory of each step ---- */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_time(const struct rusage *ru)
{
	return ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 +
	       ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
}

/* Wall and CPU time since the last step (the CPU time is what a busy
 * machine does not inflate), and the peak RSS so far. */
static void step(const struct graph_opts *o, const char *what, double *t,
		 double *cpu)
{
	struct rusage ru;
	double t1, c1;

	if (!o->verbose)
		return;
	t1 = now();
	getrusage(RUSAGE_SELF, &ru);
	c1 = cpu_time(&ru);
	fprintf(stderr, "lockdep-graph: %-8s %8.3f s  cpu %8.3f s  peak %ld KiB\n",
		what, t1 - *t, c1 - *cpu, ru.ru_maxrss);
	*t = t1;
	*cpu = c1;
}

/* ---- output ---- */

/*
 * Where the dot text goes: the output file or stdout, or the stdin of
 * "dot -T FMT [-o FILE]". Returns the stream, *@pid the child or 0.
 */
static FILE *open_output(const struct graph_opts *o, pid_t *pid)
{
	int fds[2];
	FILE *f;

	*pid = 0;
	if (!o->format) {
		if (!o->output)
			return stdout;
		f = fopen(o->output, "w");
		if (!f)
			error("unable to open '%s': %s", o->output,
			      strerror(errno));
		return f;
	}
	if (pipe(fds)) {
		error("unable to create a pipe to dot: %s", strerror(errno));
		return NULL;
	}
	*pid = fork();
	if (*pid < 0) {
		error("unable to run 'dot': %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	if (!*pid) {
		char fmt[32];

		snprintf(fmt, sizeof(fmt), "-T%s", o->format);
		dup2(fds[0], 0);
		close(fds[0]);
		close(fds[1]);
		if (o->output)
			execlp("dot", "dot", fmt, "-o", o->output, (char *)NULL);
		else
			execlp("dot", "dot", fmt, (char *)NULL);
		fprintf(stderr, "%s: error: unable to run 'dot': %s (install graphviz)\n",
			error_prog(), strerror(errno));
		_exit(127);
	}
	close(fds[0]);
	f = fdopen(fds[1], "w");
	if (!f)
		error("unable to write to dot: %s", strerror(errno));
	return f;
}

static int close_output(const struct graph_opts *o, FILE *f, pid_t pid,
			int write_ret)
{
	int status, ret = write_ret;

	if (f == stdout) {
		if (fflush(stdout) || ferror(stdout))
			ret = -1;
	} else if (fclose(f)) {
		ret = -1;
	}
	if (ret && !pid)
		error("unable to write '%s': %s", o->output ? o->output :
		      "standard output", strerror(errno));
	if (!pid)
		return ret;
	if (waitpid(pid, &status, 0) < 0)
		return error("unable to wait for dot: %s", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 127)
			error("dot -T%s failed (status %d)", o->format,
			      WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return -1;
	}
	return ret;
}

static void json_head(struct json_writer *w, const struct graph_opts *o,
		      const struct graph *g)
{
	size_t b, i;

	jsonw_string_field(w, "db", o->d.db);
	jsonw_name(w, "boots");
	jsonw_start_array(w);
	for (b = 0; b < g->nr_boots; b++) {
		jsonw_start_object(w);
		jsonw_int_field(w, "id", g->boots[b].id);
		jsonw_name(w, "label");
		if (g->boots[b].label)
			jsonw_string(w, g->boots[b].label);
		else
			jsonw_null(w);
		jsonw_bool_field(w, "graph_export", !g->boots[b].no_export);
		jsonw_bool_field(w, "lockdep", !g->boots[b].no_lockdep);
		jsonw_uint_field(w, "ambiguous_classes", g->boots[b].nr_ambiguous);
		jsonw_name(w, "missing");
		jsonw_start_array(w);
		for (i = 0; g->boots[b].no_export && i < GRAPH_NR_MISSING; i++)
			jsonw_string(w, graph_missing_json[i]);
		jsonw_end_array(w);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_uint_field(w, "classes", g->nr_nodes);
	jsonw_uint_field(w, "dependencies", g->nr_edges);
}

/* ---- the run ---- */

static int check_opts(struct graph_opts *o, int nsel)
{
	if (!o->d.db)
		return cli_usage_error("--db is required");
	if (nsel > 1)
		return cli_usage_error("use one of --cycles, --irq, --class, --report and --path");
	if (o->d.boot && o->d.boots)
		return cli_usage_error("cannot use --boot with --boots");
	if (o->sel == SEL_REPORT && (o->d.boot || o->d.boots))
		return cli_usage_error("cannot use --report with --boot or --boots");
	if (o->radius && o->sel != SEL_CLASS)
		return cli_usage_error("--radius needs --class");
	if (o->list && o->out.json)
		return cli_usage_error("cannot use --list with --json");
	if ((o->list || o->out.json) && o->format)
		return cli_usage_error("cannot use -T with --list or --json");
	if ((o->list || o->out.json) && o->sel == SEL_ALL)
		o->sel = SEL_CYCLES;
	if ((o->list || o->out.json) && o->sel != SEL_CYCLES && o->sel != SEL_IRQ &&
	    o->sel != SEL_PATH)
		return cli_usage_error("--list and --json take --cycles, --irq or --path");
	if (o->format && !strcmp(o->format, "html")) {
		o->html = true;
		o->format = NULL;	/* written here, not by dot */
		if (o->sel != SEL_ALL && o->sel != SEL_CLASS)
			return cli_usage_error("-T html takes --class or no selection");
	}
	if (o->format && strcmp(o->format, "svg") && strcmp(o->format, "png") &&
	    strcmp(o->format, "pdf"))
		return cli_usage_error("unknown format (svg, png, pdf or html) '%s'", o->format);
	if (o->sel == SEL_CLASS && !o->radius)
		o->radius = 1;
	return 0;
}

static struct graph *load_report(struct store *st, const struct graph_opts *o,
				 struct strbuf *title, struct strbuf *note)
{
	struct advice a;
	struct ldr_report *r;
	struct graph *g;
	int64_t boot = 0;
	char *label = NULL;
	bool found;

	r = store_report_load(st, o->report, &found);
	if (!r) {
		if (!found)
			error("no report %" PRId64 " in '%s'", o->report, o->d.db);
		return NULL;
	}
	if (store_graph_report_boot(st, o->report, &boot, &label) < 0) {
		report_free(r);
		return NULL;
	}
	g = graph_from_report(r, boot, label);
	free(label);
	advise_report(r, NULL, &a);
	advice_summary(note, &a);
	advice_release(&a);
	strbuf_addf(title, "report %" PRId64 ": ", o->report);
	graph_text_add(title, r->title);
	if (!g->nr_nodes) {
		error("report %" PRId64 " in '%s' names no lock to draw",
		      o->report, o->d.db);
		graph_free(g);
		g = NULL;
	}
	report_free(r);
	return g;
}

static void boots_title(struct strbuf *t, const struct graph *g)
{
	char buf[128];
	size_t b;

	for (b = 0; b < g->nr_boots; b++) {
		strbuf_addstr(t, b ? (b + 1 == g->nr_boots ? " and " : ", ") :
			      g->nr_boots > 1 ? "union of " : "");
		graph_text_add(t, graph_boot_str(g, (int)b, buf, sizeof(buf)));
	}
}

/*
 * A line for each boot that has no graph export, saying what its
 * graph lacks, and for each with classes not merged across boots for
 * their ambiguous identity; @sb is left empty when there is neither.
 */
static void missing_lines(struct strbuf *sb, const struct graph *g, bool wrap)
{
	char buf[128];
	size_t b;

	for (b = 0; b < g->nr_boots; b++) {
		if (!g->boots[b].no_export)
			continue;
		if (sb->len)
			strbuf_addch(sb, '\n');
		graph_missing_line(sb, graph_boot_str(g, (int)b, buf,
						      sizeof(buf)), wrap,
				   g->boots[b].no_lockdep);
	}
	for (b = 0; b < g->nr_boots; b++) {
		if (!g->boots[b].nr_ambiguous)
			continue;
		if (sb->len)
			strbuf_addch(sb, '\n');
		strbuf_addf(sb, "%s: %zu classes of ambiguous names (shared by several classes of a boot, no key symbol):%snot merged across boots",
			    graph_boot_str(g, (int)b, buf, sizeof(buf)),
			    g->boots[b].nr_ambiguous, wrap ? "\n" : " ");
	}
}

/* Is the output a picture that --max-nodes bounds? */
static bool bounded(const struct graph_opts *o)
{
	if (o->list || o->out.json || o->sel == SEL_REPORT || o->sel == SEL_PATH ||
	    o->html)
		return false;
	return o->max_nodes;
}

static void bound_title(struct strbuf *t, const struct graph_view *v,
			size_t max)
{
	if (v->drawn == v->selected)
		return;
	strbuf_addf(t, " (%zu of %zu classes drawn, --max-nodes=%zu", v->drawn,
		    v->selected, max);
	if (v->apart)
		strbuf_addf(t, "; %zu more not shown", v->apart);
	if (v->loose)
		strbuf_addf(t, "; %zu dependenc%s between neighbours not drawn",
			    v->loose, v->loose == 1 ? "y" : "ies");
	strbuf_addch(t, ')');
}

static void path_title(struct strbuf *t, const struct graph_paths *p,
		       const struct graph_opts *o)
{
	strbuf_addstr(t, p->len ? ": shortest path from " : ": no path from ");
	graph_text_add(t, o->class);
	strbuf_addstr(t, " to ");
	graph_text_add(t, o->path_to);
	if (p->len)
		strbuf_addf(t, ", %zu dependenc%s", p->len,
			    p->len == 1 ? "y" : "ies");
	if (p->nr < p->total)
		strbuf_addf(t, " (%zu of the shortest drawn)", p->nr);
}

static int run(struct graph_opts *o)
{
	struct store_boot_set boots = { 0 };
	struct strbuf title = STRBUF_INIT, note = STRBUF_INIT;
	struct strbuf where = STRBUF_INIT;
	struct graph_view view = { 0 };
	struct graph_scc scc = { 0 };
	struct graph_cycles cy = { 0 };
	struct graph_irq_paths irq = { 0 };
	struct graph_paths paths = { 0 };
	struct graph_html *html = NULL;
	struct graph *g = NULL;
	uint32_t *uses = NULL;
	struct store *st;
	struct json_writer *w;
	double t = now(), cpu = 0;
	FILE *out;
	pid_t pid;
	int ret = EXIT_FATAL, wr;
	bool text;

	st = store_open(o->d.db, STORE_READ_ONLY);
	if (!st)
		return EXIT_FATAL;
	if (o->sel == SEL_REPORT) {
		g = load_report(st, o, &title, &note);
	} else if (!store_boot_select(st, o->d.boots ? o->d.boots :
				      o->d.boot, o->d.boots, &boots)) {
		/* a bounded picture ranks what it draws by chain uses */
		g = graph_load_uses(st, boots.ids, boots.labels, boots.nr,
				    bounded(o) ? &uses : NULL);
		if (g)
			boots_title(&title, g);
	}
	if (g && o->html)	/* stacks, first-seen times and reports */
		html = graph_html_load(st, g, o->max_cycles);
	if (!g || (o->html && !html))
		goto out;
	step(o, "load", &t, &cpu);

	graph_view_init(&view, g);
	view.sites = o->sites || o->sel == SEL_REPORT;
	switch (o->sel) {
	case SEL_ALL:
	case SEL_REPORT:
		graph_select_all(g, &view);
		break;
	case SEL_CYCLES:
		graph_scc(g, &scc);
		step(o, "scc", &t, &cpu);
		graph_cycles(g, &scc, o->max_cycles, &cy);
		step(o, "cycles", &t, &cpu);
		graph_select_cycles(g, &scc, &cy, &view);
		strbuf_addf(&title, ": %zu cycle%s", cy.nr,
			    cy.nr == 1 ? "" : "s");
		if (cy.uncovered)
			warning("%zu dependencies of cyclic components are on no listed cycle (--max-cycles=%zu)",
				cy.uncovered, o->max_cycles);
		break;
	case SEL_IRQ:
		graph_irq_paths(g, &irq);
		step(o, "irq", &t, &cpu);
		graph_select_irq(g, &irq, &view);
		strbuf_addf(&title, ": %zu irq-safe -> irq-unsafe path%s",
			    irq.nr, irq.nr == 1 ? "" : "s");
		break;
	case SEL_CLASS:
		if (!graph_select_radius(g, o->class, o->radius, &view)) {
			error("no class '%s' in %s", o->class, title.buf);
			goto out;
		}
		strbuf_addf(&title, ": radius %u around ", o->radius);
		graph_text_add(&title, o->class);
		break;
	case SEL_PATH:
		if (graph_find_paths(g, o->class, o->path_to, &paths, title.buf) ||
		    graph_path_details(st, g, &paths))
			goto out;
		step(o, "path", &t, &cpu);
		graph_select_paths(g, &paths, &view);
		view.sites = true;
		view.bold_key = "on a shortest path";
		strbuf_addstr(&where, title.buf);
		path_title(&title, &paths, o);
		break;
	}
	store_close(st);
	st = NULL;
	if (bounded(o)) {
		graph_view_bound(g, &view, o->max_nodes, uses);
		step(o, "bound", &t, &cpu);
		bound_title(&title, &view, o->max_nodes);
	}
	view.title = title.buf;
	text = o->list || o->out.json || (o->sel == SEL_PATH && !o->format);
	if (o->sel != SEL_REPORT)
		missing_lines(&note, g, !text);
	view.note = note.len ? note.buf : NULL;

	if (o->html) {
		out = open_output(o, &pid);
		if (!out)
			goto out;
		wr = graph_html_write(out, html, &view);
	} else if (text) {
		out = open_output(o, &pid);
		if (!out)
			goto out;
		if (o->out.json) {
			w = jsonw_new(out, o->out.pretty);
			jsonw_start_object(w);
			json_head(w, o, g);
			if (o->sel == SEL_CYCLES)
				graph_json_cycles(w, g, &scc, &cy);
			else if (o->sel == SEL_PATH)
				graph_json_paths(w, g, &paths, o->class,
						 o->path_to);
			else
				graph_json_irq_paths(w, g, &irq);
			jsonw_end_object(w);
			jsonw_destroy(&w);
		} else {
			if (note.len)
				fprintf(out, "%s\n", note.buf);
			if (o->sel == SEL_CYCLES)
				graph_print_cycles(out, g, &cy);
			else if (o->sel == SEL_PATH)
				graph_print_paths(out, g, &paths, o->class,
						  o->path_to, where.buf);
			else
				graph_print_irq_paths(out, g, &irq);
		}
		wr = ferror(out) ? -1 : 0;
	} else {
		out = open_output(o, &pid);
		if (!out)
			goto out;
		wr = graph_write_dot(out, g, &view);
	}
	if (close_output(o, out, pid, wr))
		goto out;
	step(o, "write", &t, &cpu);
	ret = cy.uncovered ? EXIT_PARTIAL : EXIT_OK;
out:
	if (st)
		store_close(st);
	graph_paths_release(&paths);
	graph_html_free(html);
	graph_cycles_release(&cy);
	graph_scc_release(&scc);
	graph_irq_paths_release(&irq);
	graph_view_release(&view);
	graph_free(g);
	free(uses);
	store_boot_set_release(&boots);
	strbuf_release(&title);
	strbuf_release(&note);
	strbuf_release(&where);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		DB_LONGOPTS, BOOT_LONGOPT, BOOTS_LONGOPT, OUT_LONGOPTS,
		{ "cycles", no_argument, NULL, 'C' },
		{ "irq", no_argument, NULL, 'I' },
		{ "class", required_argument, NULL, 'N' },
		{ "radius", required_argument, NULL, 'R' },
		{ "report", required_argument, NULL, 'P' },
		{ "path", required_argument, NULL, 'A' },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'T' },
		{ "sites", no_argument, NULL, 'S' },
		{ "list", no_argument, NULL, 'l' },
		{ "max-cycles", required_argument, NULL, 'M' },
		{ "max-nodes", required_argument, NULL, 'X' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct graph_opts o = { .max_cycles = 1000, .max_nodes = MAX_NODES };
	unsigned long long v;
	int c, nsel = 0, ret;

	cli_init(argv[0], usage_line);
	while ((c = getopt_long(argc, argv, "o:T:l" OUT_SHORTOPTS "vh",
				longopts, NULL)) != -1) {
		switch (c) {
		case 'C':
			o.sel = SEL_CYCLES;
			nsel++;
			break;
		case 'I':
			o.sel = SEL_IRQ;
			nsel++;
			break;
		case 'N':
			o.sel = SEL_CLASS;
			o.class = optarg;
			nsel++;
			break;
		case 'R':
			if (cli_parse_uint(optarg, 1000000, &v) || !v)
				return cli_usage_error("invalid --radius: expected a positive number, not '%s'", optarg);
			o.radius = (unsigned int)v;
			break;
		case 'P':
			if (cli_parse_uint(optarg, INT64_MAX, &v) || !v)
				return cli_usage_error("invalid --report: expected a positive id, not '%s'", optarg);
			o.report = (int64_t)v;
			o.sel = SEL_REPORT;
			nsel++;
			break;
		case 'A':
			/* --path A B: B is the next word */
			if (optind >= argc || !strncmp(argv[optind], "--", 2))
				return cli_usage_error("--path needs two classes: --path A B");
			o.sel = SEL_PATH;
			o.class = optarg;
			o.path_to = argv[optind++];
			nsel++;
			break;
		case 'M':
			if (cli_parse_uint(optarg, SIZE_MAX, &v))
				return cli_usage_error("invalid --max-cycles: expected a number, not '%s'", optarg);
			o.max_cycles = (size_t)v;
			break;
		case 'X':
			if (cli_parse_uint(optarg, UINT32_MAX, &v))
				return cli_usage_error("invalid --max-nodes: expected a number, not '%s'", optarg);
			o.max_nodes = (size_t)v;
			break;
		case 'o':
			o.output = optarg;
			break;
		case 'T':
			o.format = optarg;
			break;
		case 'S':
			o.sites = true;
			break;
		case 'l':
			o.list = true;
			break;
		case 'v':
			o.verbose = true;
			break;
		case 'h':
			print_help();
			return cli_help_done();
		default:
			if (db_args_parse(&o.d, c, optarg) ||
			    out_args_parse(&o.out, c))
				break;
			return cli_usage();
		}
	}
	if (optind < argc)
		return cli_usage_error("unexpected argument '%s'", argv[optind]);
	ret = check_opts(&o, nsel);
	if (ret)
		return ret;
	signal(SIGPIPE, SIG_IGN);	/* a dot that died is an error, not a kill */
	return run(&o);
}
