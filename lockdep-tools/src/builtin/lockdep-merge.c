// SPDX-License-Identifier: GPL-2.0
/*
 * lockdep-merge: copy the boots of other lockdep databases into one
 * (lockdep-merge(1)), for a fleet of boots collected in parallel, each
 * into its own database. The store does the work (store-merge.h); this
 * is the command line and the one line per source.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "store/store-merge.h"
#include "util/cli.h"
#include "util/error.h"
#include "util/term-text.h"

static const char usage_line[] =
	"usage: lockdep-merge --db=FILE [-q | --quiet] SOURCE.db...\n";

static void print_help(void)
{
	fputs(usage_line, stdout);
	fputs("\n"
	      "Copy every boot of each SOURCE database into --db (created if\n"
	      "needed), keeping each boot's identity (its uuid): a boot the\n"
	      "database already has is skipped, so merging twice adds nothing.\n"
	      "Each SOURCE is one transaction: all of its new boots or, if it\n"
	      "is damaged or unreadable, none; the next SOURCE is still merged.\n"
	      "Collectors may write --db at the same time: each waits for the\n"
	      "other's transaction.\n"
	      "\n"
	      "      --db=FILE   the database to merge into\n"
	      "  -q, --quiet     no line per source\n"
	      "  -h, --help      show this help\n"
	      "\n"
	      "Prints per source: \"SOURCE: N boots, M added\".\n"
	      "A SOURCE is only read; one that is --db itself is refused, and\n"
	      "so is a boot without a uuid of 32 hex digits or with another\n"
	      "boot's (uuids compare and are stored lowercase, without\n"
	      "dashes or blanks), each named on standard error.\n"
	      "\n"
	      "A source adds only rows of its own boots: a row naming no boot\n"
	      "of it (boot_id 0, a boot deleted without its rows) is skipped,\n"
	      "counted on standard error.\n"
	      "\n"
	      "Exit status: 0 every source merged, 1 partial: some source,\n"
	      "boot or row (named on standard error) refused, skipped or\n"
	      "failed, the others merged, or standard output failed after\n"
	      "the merge, 2 the database or every source failed, 64 usage\n"
	      "error.\n",
	      stdout);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'D' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct store_merge_result r;
	const char *db = NULL;
	struct store_merger *m;
	struct store *st;
	bool quiet = false, partial = false;
	int c, i, ret, failed = 0;

	cli_init(argv[0], usage_line);
	while ((c = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'D':
			db = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			print_help();
			return cli_help_done();
		default:
			return cli_usage();
		}
	}
	if (!db)
		return cli_usage_error("--db is required");
	if (optind == argc)
		return cli_usage_error("no source database to merge");
	/* a file size limit must fail the source's write (and say so), not kill us */
	signal(SIGXFSZ, SIG_IGN);
	st = store_open(db, 0);
	if (!st)
		return EXIT_FATAL;
	m = store_merger_new(st);
	if (!m) {
		store_close(st);
		return EXIT_FATAL;
	}
	for (i = optind; i < argc; i++) {
		if (store_merge(m, argv[i], &r)) {
			failed++;
			continue;
		}
		partial |= r.refused > 0 || r.skipped > 0;
		if (quiet)
			continue;
		/* a file name may hold anything a terminal acts on */
		term_text_fputs(stdout, argv[i]);
		printf(": %zu boot%s, %zu added\n", r.boots,
		       r.boots == 1 ? "" : "s", r.added);
	}
	store_merger_free(m);
	store_close(st);
	/* as lockdep-report(1) with inputs it cannot read: partial */
	ret = !failed ? (partial ? EXIT_PARTIAL : EXIT_OK) :
	      failed < argc - optind ? EXIT_PARTIAL : EXIT_FATAL;
	/* what was merged stays merged: only the lines are lost */
	if (ret != EXIT_FATAL && (fflush(stdout) || ferror(stdout))) {
		error("unable to write output (%s); every source was merged%s",
		      strerror(errno), ret == EXIT_OK ? "" :
		      " but those named above");
		return EXIT_PARTIAL;
	}
	return cli_exit(ret);
}
