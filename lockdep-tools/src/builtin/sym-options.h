/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The symboliser's options, declared once for every tool that takes them
 * (lockdep-report, lockdep-collect, lockdep-symbolise), as elfutils'
 * dwfl_standard_argp() does for its tools:
 *
 *   --vmlinux=FILE --modules=DIR [--debug-dir=DIR] --cache=DIR --no-cache
 *
 *   static const struct option longopts[] = {
 *           SYM_LONGOPTS,
 *           ...
 *   };
 *   struct sym_args sa = { 0 };
 *   ...
 *   default:
 *           if (sym_args_parse(&sa, c, optarg))
 *                   break;
 *           return cli_usage();
 */
#ifndef BUILTIN_SYM_OPTIONS_H
#define BUILTIN_SYM_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>

#include "symbolise/symbolise.h"

enum {
	SYM_OPT_VMLINUX = 0x1000,
	SYM_OPT_MODULES,
	SYM_OPT_DEBUG_DIR,
	SYM_OPT_CACHE,
	SYM_OPT_NO_CACHE,
};

#define SYM_LONGOPTS							\
	{ "vmlinux", required_argument, NULL, SYM_OPT_VMLINUX },	\
	{ "modules", required_argument, NULL, SYM_OPT_MODULES },	\
	{ "cache", required_argument, NULL, SYM_OPT_CACHE },		\
	{ "no-cache", no_argument, NULL, SYM_OPT_NO_CACHE }
/* lockdep-collect's too: a vmlinux found by the kernel's build id */
#define SYM_LONGOPT_DEBUG_DIR						\
	{ "debug-dir", required_argument, NULL, SYM_OPT_DEBUG_DIR }

struct sym_args {
	const char *vmlinux, *modules, *debug_dir, *cache;
	bool no_cache;
};

/* Take option @c with @arg if it is one of them: true, else false. */
bool sym_args_parse(struct sym_args *a, int c, const char *arg);

/* Any binary to symbolise against given (--vmlinux or --modules)? */
static inline bool sym_args_any(const struct sym_args *a)
{
	return a->vmlinux || a->modules;
}

/*
 * The symboliser of @a with the rest of @so (build id, KASLR offset):
 * the binaries required, the cache directory of --cache / --no-cache.
 * NULL after an error was printed.
 */
struct symboliser *sym_args_open(const struct sym_args *a,
				 struct symbolise_opts *so);

#endif
