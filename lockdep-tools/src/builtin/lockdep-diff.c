// SPDX-License-Identifier: GPL-2.0
/*
 * lockdep-diff: compare two collected boots, in one database or in two,
 * and say what changed in lockdep's view of the kernel, including the
 * deadlocks only the two boots together show. --fail-on turns chosen
 * findings into exit status 1 for CI.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "builtin/db-options.h"
#include "diff/diff.h"
#include "store/store-boot.h"
#include "util/cli.h"
#include "util/error.h"
#include "util/xalloc.h"

/* What exit status 1 means here. */
#define EXIT_FAILED_ON EXIT_PARTIAL

static const char usage_line[] =
	"usage: lockdep-diff [--db=FILE] [-j | --json] [-p | --pretty]\n"
	"                    [--fail-on=COND[,COND...]] [--max-cycles=N] A[,A...] B\n";

static void print_help(void)
{
	fputs(usage_line, stdout);
	fputs("\n"
	      "Compare boot A with boot B: classes and dependencies added and\n"
	      "removed, usage changes, new irq-safe -> irq-unsafe paths, new\n"
	      "cycles (those of A and B together that A alone lacks, in\n"
	      "lockdep's words), lockdep_stats deltas and headroom, self-test\n"
	      "cells and reports. A and B are boot ids or labels in --db, or\n"
	      "FILE:ID (FILE:LABEL) for a boot of another database.\n"
	      "\n"
	      "A may be a comma-separated set of baseline boots of one database\n"
	      "(FILE:ID,ID,...): then A has what any of them has, classes and\n"
	      "dependencies seen in only some of them are marked flaky, and\n"
	      "what B added is what no baseline boot ever had; stats and\n"
	      "self-tests are compared with the last baseline boot named.\n"
	      "\n"
	      "      --db=FILE       the database of A and B given without FILE:\n"
	      "  -j, --json          print JSON\n"
	      "  -p, --pretty        pretty-printed JSON (implies --json)\n"
	      "      --fail-on=COND  exit 1 if a condition is met; COND is\n"
	      "                      new-report, new-cycle, new-dependency or\n"
	      "                      headroom=PCT (a limit of B with less than\n"
	      "                      PCT percent left; PCT: digits, a\n"
	      "                      fraction after a point), comma-separated\n"
	      "      --max-cycles=N  list at most N cycles per strongly\n"
	      "                      connected component (default 100, 0: all)\n"
	      "  -h, --help          show this help\n"
	      "\n"
	      "Exit status: 0 no --fail-on condition met, 1 a --fail-on\n"
	      "condition met, 2 error, 64 usage error.\n", stdout);
}

/*
 * A percentage as a person writes one: digits, and a fraction after a
 * point, from 0 to 100. strtod() alone takes "nan" (which no comparison
 * ever meets), "inf", "-0", "+5", " 5", hex and exponents.
 */
static int parse_pct(const char *s, double *pct)
{
	size_t int_digits = strspn(s, "0123456789"), frac_digits = 0;

	if (s[int_digits] == '.')
		frac_digits = strspn(s + int_digits + 1, "0123456789");
	if (!int_digits || s[int_digits + (frac_digits ? frac_digits + 1 : 0)] ||
	    int_digits > 3)
		return -1;
	*pct = strtod(s, NULL);
	return *pct <= 100 ? 0 : -1;
}

static int parse_fail_on(const char *arg, struct diff_fail_on *f)
{
	char *list = xstrdup(arg), *rest = list, *cond;
	double pct;
	int ret = 0;

	/* strsep(), not strtok(): an empty condition is one, and refused */
	while (!ret && (cond = strsep(&rest, ","))) {
		if (!strcmp(cond, "new-report")) {
			f->conditions |= DIFF_FAIL_NEW_REPORT;
		} else if (!strcmp(cond, "new-cycle")) {
			f->conditions |= DIFF_FAIL_NEW_CYCLE;
		} else if (!strcmp(cond, "new-dependency")) {
			f->conditions |= DIFF_FAIL_NEW_DEP;
		} else if (!strncmp(cond, "headroom=", 9)) {
			if (parse_pct(cond + 9, &pct))
				ret = cli_usage_error("invalid --fail-on headroom '%s': expected a percentage from 0 to 100 (digits, a fraction after a point)",
						      cond + 9);
			else if ((f->conditions & DIFF_FAIL_HEADROOM) &&
				 pct != f->headroom_pct)
				ret = cli_usage_error("--fail-on headroom given twice: %g and %g",
						      f->headroom_pct, pct);
			else
				f->headroom_pct = pct;
			f->conditions |= DIFF_FAIL_HEADROOM;
		} else {
			ret = cli_usage_error("%s --fail-on condition '%s'",
					      *cond ? "unknown" : "empty", cond);
		}
	}
	free(list);
	return ret;
}

/* A side: FILE:ID when FILE exists, else ID in --db. */
struct side_spec {
	char *db;
	const char *boot;
};

static int split_spec(char *arg, const char *db, struct side_spec *s)
{
	char *colon = strrchr(arg, ':');
	struct stat sb;

	if (colon && colon > arg && colon[1]) {
		*colon = '\0';
		if (!stat(arg, &sb) && S_ISREG(sb.st_mode)) {
			s->db = arg;
			s->boot = colon + 1;
			return 0;
		}
		*colon = ':';
	}
	if (!db)
		return cli_usage_error("boot '%s' needs --db=FILE, or FILE:ID of an existing database",
				       arg);
	s->db = (char *)db;
	s->boot = arg;
	return 0;
}

/* Side A's boots: "ID", or "ID,ID,..." (ids or labels), each once. */
static int resolve_baseline(struct store *st, const struct side_spec *spec,
			    int64_t **ids, size_t *nr)
{
	struct store_boot_set set = { 0 };

	if (store_boot_select(st, spec->boot, false, &set))
		return -1;
	*ids = set.ids;		/* taken over; the labels are not needed */
	*nr = set.nr;
	set.ids = NULL;
	store_boot_set_release(&set);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		DB_LONGOPTS, OUT_LONGOPTS,
		{ "fail-on", required_argument, NULL, 'F' },
		{ "max-cycles", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct diff_fail_on fail_on = { 0 };
	struct diff_opts opts = { .max_cycles = 100 };
	struct side_spec spec[DIFF_SIDES];
	struct store *st[DIFF_SIDES] = { NULL, NULL };
	int64_t id[DIFF_SIDES], *base = NULL;
	size_t nr_base = 0;
	struct out_args out = { 0 };
	struct db_args dba = { 0 };
	unsigned int failed = 0;
	struct diff d;
	unsigned long long count;
	int c, s, ret = EXIT_FATAL;

	cli_init(argv[0], usage_line);
	while ((c = getopt_long(argc, argv, OUT_SHORTOPTS "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'F':
			if (parse_fail_on(optarg, &fail_on))
				return EXIT_USAGE;
			break;
		case 'M':
			if (cli_parse_uint(optarg, SIZE_MAX, &count))
				return cli_usage_error("invalid --max-cycles '%s': expected a count",
						       optarg);
			opts.max_cycles = (size_t)count;
			break;
		case 'h':
			print_help();
			return cli_help_done();
		default:
			if (db_args_parse(&dba, c, optarg) ||
			    out_args_parse(&out, c))
				break;
			return cli_usage();
		}
	}
	if (argc - optind != 2)
		return cli_usage_error("expected two boots, A and B");
	for (s = 0; s < DIFF_SIDES; s++)
		if (split_spec(argv[optind + s], dba.db, &spec[s]))
			return EXIT_USAGE;

	for (s = 0; s < DIFF_SIDES; s++) {
		/* one database: one connection, one page cache */
		if (s == DIFF_B && !strcmp(spec[DIFF_A].db, spec[DIFF_B].db)) {
			st[s] = st[DIFF_A];
			break;
		}
		st[s] = store_open(spec[s].db, STORE_READ_ONLY);
		if (!st[s])
			goto out;
	}
	if (resolve_baseline(st[DIFF_A], &spec[DIFF_A], &base, &nr_base) ||
	    store_boot_resolve(st[DIFF_B], spec[DIFF_B].boot, &id[DIFF_B]))
		goto out;
	id[DIFF_A] = base[nr_base - 1];
	if (diff_compute(&d, st[DIFF_A], spec[DIFF_A].db, base, nr_base,
			 st[DIFF_B], spec[DIFF_B].db, id[DIFF_B], &opts)) {
		diff_release(&d);
		goto out;
	}
	for (s = 0; s < DIFF_SIDES; s++)
		if (d.boot[s].dropped_deps)
			warning("'%s': boot %lld: %zu dependencies name a class of another boot; left out",
				spec[s].db, (long long)id[s],
				d.boot[s].dropped_deps);
	if (out.json)
		diff_print_json(&d, &fail_on, stdout, out.pretty);
	else
		diff_print_plain(&d, stdout);
	failed = diff_failed(&d, &fail_on);
	if (failed & DIFF_FAIL_NEW_REPORT)
		error("--fail-on new-report: %zu new reports", d.reports_new);
	if (failed & DIFF_FAIL_NEW_CYCLE)
		error("--fail-on new-cycle: %zu new cycles", d.nr_new_cycles);
	if (failed & DIFF_FAIL_NEW_DEP)
		error("--fail-on new-dependency: %zu new dependencies",
		      d.deps_added);
	if (failed & DIFF_FAIL_HEADROOM)
		error("--fail-on headroom=%g: a lockdep limit of B has less headroom",
		      fail_on.headroom_pct);
	diff_release(&d);
	ret = failed ? EXIT_FAILED_ON : EXIT_OK;
out:
	free(base);
	store_close(st[DIFF_A]);
	if (st[DIFF_B] != st[DIFF_A])
		store_close(st[DIFF_B]);
	return cli_exit(ret);
}
