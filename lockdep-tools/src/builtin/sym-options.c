// SPDX-License-Identifier: GPL-2.0
/* The symboliser's options (sym-options.h). */
#include <stdlib.h>

#include "builtin/sym-options.h"

bool sym_args_parse(struct sym_args *a, int c, const char *arg)
{
	switch (c) {
	case SYM_OPT_VMLINUX:
		a->vmlinux = arg;
		return true;
	case SYM_OPT_MODULES:
		a->modules = arg;
		return true;
	case SYM_OPT_DEBUG_DIR:
		a->debug_dir = arg;
		return true;
	case SYM_OPT_CACHE:
		a->cache = arg;
		a->no_cache = false;
		return true;
	case SYM_OPT_NO_CACHE:
		a->no_cache = true;
		return true;
	}
	return false;
}

struct symboliser *sym_args_open(const struct sym_args *a,
				 struct symbolise_opts *so)
{
	struct symboliser *sym;
	char *cache_dir = a->no_cache ? NULL : symbolise_cache_dir(a->cache);

	so->vmlinux = a->vmlinux;
	so->modules_dir = a->modules;
	so->vmlinux_required = true;
	so->cache_dir = cache_dir;
	sym = symboliser_new(so);
	free(cache_dir);
	so->cache_dir = NULL;
	return sym;
}
