// SPDX-License-Identifier: GPL-2.0
/*
 * lockdep-symbolise: kernel stack frames to function, file:line and
 * inline chain, against vmlinux and a modules directory, through the
 * library's symboliser (symbolise/symbolise.h).
 *
 * Frames come from the arguments or, without any, from standard input,
 * one per line. From a pipe or terminal, the answer to each line is
 * flushed before the next line is read, so the tool works as a
 * co-process (addr2line's contract); a regular file is read in batches.
 * Every answer ends with exactly one line that is not an inline frame
 * (plain: does not end in " [inline]"; JSON: one object per line).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "builtin/sym-options.h"
#include "parse/klog-shapes.h"
#include "report/report-print.h"
#include "symbolise/symbolise.h"
#include "util/cli.h"
#include "util/error.h"
#include "util/json-writer.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct sym_cli {
	struct symboliser *sym;
	unsigned int flags;
	bool json;
	unsigned long bad_lines;
};

static const char usage_line[] =
	"usage: lockdep-symbolise [-e FILE | --vmlinux=FILE] [-m DIR | --modules=DIR]\n"
	"                         [--build-id=HEX] [-k OFF | --kaslr-offset=OFF]\n"
	"                         [--pc] [-j | --json] [--cache=DIR | --no-cache]\n"
	"                         [FRAME...]\n";

static void print_help(void)
{
	fputs(usage_line, stdout);
	fputs("\n"
	      "Print function, source file:line and inlined calls of kernel\n"
	      "stack frames, read from the arguments or else from standard\n"
	      "input, one per line (answers are flushed line by line).\n"
	      "A frame is 'func+0x1e/0x2d [module]' as the kernel prints it\n"
	      "(looked up by symbol, no KASLR offset needed), a whole stack\n"
	      "line '[<addr>] func+off/size', or a bare vmlinux address\n"
	      "'0xffffffff81234567' (needs --kaslr-offset).\n"
	      "\n"
	      "  -e, --vmlinux=FILE       vmlinux with symbols and DWARF\n"
	      "  -m, --modules=DIR        search DIR recursively for NAME.ko\n"
	      "      --build-id=HEX       the running kernel's build id; a vmlinux\n"
	      "                           with another one is not used\n"
	      "  -k, --kaslr-offset=OFF   runtime minus link-time _stext, for bare\n"
	      "                           addresses (0 for a kernel without KASLR)\n"
	      "      --pc                 addresses are PCs, not return addresses\n"
	      "                           (default: look up the line at address - 1)\n"
	      "  -j, --json               one JSON object per frame and line\n"
	      "      --cache=DIR          keep each binary's symbol index in DIR\n"
	      "                           (default $XDG_CACHE_HOME/lockdep-tools,\n"
	      "                           else ~/.cache/lockdep-tools)\n"
	      "      --no-cache           read the DWARF every time, write no index\n"
	      "  -h, --help               show this help\n"
	      "\n"
	      "Output: the inlined calls, innermost first, as 'func file:line\n"
	      "[inline]', then the frame with its own file:line ('??:0' if\n"
	      "unknown).\n"
	      "\n"
	      "Exit status: 0 ok, 1 partial (a frame was left unsymbolised or a\n"
	      "line was not a frame), 2 fatal error, 64 usage error.\n",
	      stdout);
}

/* @f's answer appended to @out: its inlined calls, then itself */
static void print_plain(struct strbuf *out, const struct ldr_frame *f)
{
	for (size_t i = 0; i < f->nr_inl; i++) {
		struct ldr_frame in = {
			.func = f->inl[i].func,
			.file = f->inl[i].file,
			.line = f->inl[i].line,
			.inlined = true,
		};

		report_format_frame(out, &in);
		if (!in.file)
			strbuf_add(out, " ??:0", 5);
		strbuf_addch(out, '\n');
	}
	report_format_frame(out, f);
	if (!f->file)
		strbuf_add(out, " ??:0", 5);
	strbuf_addch(out, '\n');
}

/*
 * The strings print_plain() reads of @f, fetched now for later: they lie
 * all over the symboliser's index, and the lookups that fetched them
 * did so a batch ago (a warm run spent a sixth of its time in strlen()
 * waiting for them).
 */
static void prefetch_answer(const struct ldr_frame *f)
{
	__builtin_prefetch(f->func);
	__builtin_prefetch(f->file);
	for (size_t i = 0; i < f->nr_inl; i++) {
		__builtin_prefetch(f->inl[i].func);
		__builtin_prefetch(f->inl[i].file);
	}
}

/* How many lines ahead of the one printed prefetch_answer() reads. */
#define PREFETCH_LINES 16

static void print_json(const struct ldr_frame *f)
{
	struct json_writer *w = jsonw_new(stdout, false);

	report_json_frame(w, f);
	jsonw_destroy(&w);
}

/*
 * Lines waiting for their answers: one at a time from a pipe or a
 * terminal (a co-process waits for each answer), a batch from a regular
 * file or the arguments, symbolised in one call. From vmlinux's index
 * (warm) a batch of BATCH_WARM lines stays in the cache from lookup to
 * printing (65,536 made a warm run of 100,000 addresses 59 to 71 ms);
 * from its DWARF (cold) a batch of BATCH_COLD gives each unit's line
 * table many lookups while it is in the cache (4,096 left 3 a unit, and
 * a cold run 453 ms instead of 374: perf stat task-clock, least of 5).
 */
#define BATCH_WARM 4096
#define BATCH_COLD 65536

struct batch {
	struct ldr_frame *frames;
	size_t nr_frames, alloc_frames;
	long *line_frame;	/* per line: its frame, -1 if not a frame */
	size_t nr, alloc;
};

/* One input line: "ffffffff81000000" is read as a bare address too. */
static void add_line(struct sym_cli *c, struct batch *b, const char *input,
		     unsigned long lineno, const char *text)
{
	struct ldr_frame *f;
	struct strbuf hex = STRBUF_INIT;
	const char *p = text + strspn(text, " \t");
	size_t n = 0;
	bool ok;

	while (isxdigit((unsigned char)p[n]))	/* strspn() was 3% of a run */
		n++;

	ALLOC_GROW(b->frames, b->nr_frames + 1, b->alloc_frames);
	ALLOC_GROW(b->line_frame, b->nr + 1, b->alloc);
	f = &b->frames[b->nr_frames];
	if (n && !p[n + strspn(p + n, " \t")] && strncmp(p, "0x", 2)) {
		strbuf_addf(&hex, "0x%.*s", (int)n, p);
		p = hex.buf;
	}
	ok = klog_parse_frame(p, f);
	strbuf_release(&hex);
	if (ok && f->inlined) {	/* "func file:1 [inline]" has no address */
		frame_release(f);
		ok = false;
	}
	if (!ok) {
		error("%s:%lu: not a stack frame: '%s'", input, lineno, text);
		c->bad_lines++;
		b->line_frame[b->nr++] = -1;
		return;
	}
	b->line_frame[b->nr++] = (long)b->nr_frames++;
}

/*
 * The batch's plain answers are put together in one buffer and written
 * at once: a write call per frame was a twentieth of a warm run.
 */
static void flush_batch(struct sym_cli *c, struct batch *b)
{
	static const struct ldr_frame none;
	static struct strbuf out = STRBUF_INIT;

	symbolise_frames(c->sym, b->frames, b->nr_frames, c->flags);
	strbuf_reset(&out);
	for (size_t i = 0; i < b->nr; i++) {
		long k = b->line_frame[i];

		if (i + PREFETCH_LINES < b->nr &&
		    b->line_frame[i + PREFETCH_LINES] >= 0)
			prefetch_answer(&b->frames[b->line_frame[i +
							       PREFETCH_LINES]]);
		if (c->json)
			print_json(k < 0 ? &none : &b->frames[k]);
		else if (k >= 0)
			print_plain(&out, &b->frames[k]);
		else
			strbuf_add(&out, "??:0\n", 5);
	}
	fwrite(out.buf, 1, out.len, stdout);
	for (size_t i = 0; i < b->nr_frames; i++)
		frame_release(&b->frames[i]);
	b->nr = b->nr_frames = 0;
	fflush(stdout);
}

static int read_stdin(struct sym_cli *c, struct batch *b)
{
	struct strbuf line = STRBUF_INIT;
	unsigned long lineno = 0;
	size_t max = 1, cap = 0;
	char *buf = NULL;
	struct stat st;
	ssize_t n;

	if (!fstat(fileno(stdin), &st) && S_ISREG(st.st_mode))
		max = symboliser_vmlinux_indexed(c->sym) ? BATCH_WARM :
							   BATCH_COLD;
	while ((n = getline(&buf, &cap, stdin)) >= 0) {
		strbuf_reset(&line);
		strbuf_add(&line, buf, (size_t)n);
		lineno++;
		strbuf_rtrim(&line);	/* and the newline */
		add_line(c, b, "<stdin>", lineno, line.buf);
		if (b->nr >= max)
			flush_batch(c, b);
	}
	flush_batch(c, b);
	free(buf);
	strbuf_release(&line);
	if (ferror(stdin))
		return error("unable to read standard input: %s",
			     strerror(errno));
	return 0;
}

static bool parse_offset(const char *s, unsigned long long *v)
{
	char *end;
	bool neg = *s == '-';

	errno = 0;
	*v = strtoull(s + neg, &end, 0);
	if (neg)
		*v = -*v;
	return !errno && end != s + neg && !*end;
}

int main(int argc, char **argv)
{
	enum { OPT_BUILD_ID = 256, OPT_PC };
	static const struct option longopts[] = {
		SYM_LONGOPTS,
		{ "build-id", required_argument, NULL, OPT_BUILD_ID },
		{ "kaslr-offset", required_argument, NULL, 'k' },
		{ "pc", no_argument, NULL, OPT_PC },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct symbolise_opts so = { 0 };
	struct sym_args sa = { 0 };
	/* answers printed and dropped batch by batch: borrowed */
	struct sym_cli c = { .flags = SYMBOLISE_BORROW };
	struct batch b = { 0 };
	const struct symbolise_stats *st;
	int ch, ret = EXIT_OK;

	cli_init(argv[0], usage_line);
	/* one thread: stdio need not lock per character (100k lines) */
	__fsetlocking(stdin, FSETLOCKING_BYCALLER);
	__fsetlocking(stdout, FSETLOCKING_BYCALLER);
	while ((ch = getopt_long(argc, argv, "e:m:k:jh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'e':	/* -e and -m: addr2line's letters */
			sa.vmlinux = optarg;
			break;
		case 'm':
			sa.modules = optarg;
			break;
		case OPT_BUILD_ID:
			so.build_id = optarg;
			break;
		case 'k':
			if (!parse_offset(optarg, &so.kaslr_offset)) {
				error("invalid KASLR offset '%s'", optarg);
				return EXIT_USAGE;
			}
			so.has_kaslr_offset = true;
			break;
		case OPT_PC:
			c.flags |= SYMBOLISE_ACTIVATION;
			break;
		case 'j':
			c.json = true;
			break;
		case 'h':
			print_help();
			return cli_help_done();
		default:
			if (sym_args_parse(&sa, ch, optarg))
				break;
			return cli_usage();
		}
	}
	if (!sym_args_any(&sa))
		return cli_usage_error("nothing to symbolise against (use --vmlinux or --modules)");
	c.sym = sym_args_open(&sa, &so);
	if (!c.sym)
		return EXIT_FATAL;
	if (optind < argc) {
		for (int i = optind; i < argc; i++)
			add_line(&c, &b, "<argument>", i - optind + 1, argv[i]);
		flush_batch(&c, &b);
	} else if (read_stdin(&c, &b)) {
		ret = EXIT_FATAL;
	}
	free(b.frames);
	free(b.line_frame);
	st = symboliser_stats(c.sym);
	if (st->symbolised < st->frames || c.bad_lines) {
		struct strbuf sb = STRBUF_INIT;

		symbolise_stats_describe(st, &sb);
		warning("%s", sb.buf);
		strbuf_release(&sb);
		if (ret == EXIT_OK)
			ret = EXIT_PARTIAL;
	}
	symboliser_free(c.sym);
	return cli_exit(ret);
}
