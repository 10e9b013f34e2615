// SPDX-License-Identifier: GPL-2.0
/*
 * Symbols of any kind in a kernel binary: the address of a named symbol
 * (_stext, to turn runtime addresses into link-time ones) and the data
 * object holding an address (a static lock_class_key, or the structure
 * that embeds one). elf-index.c indexes code only; these lookups are
 * rare (once per lock class) and go straight to libdwfl.
 */
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <string.h>

#include "symbolise/binary.h"

bool sym_binary_lookup(struct sym_binary *b, const char *name,
		       unsigned long long *addr)
{
	Dwfl_Module *mod = sym_binary_module(b);
	int n = mod ? dwfl_module_getsymtab(mod) : 0;

	for (int k = 1; k < n; k++) {
		GElf_Sym sym;
		GElf_Addr a;
		const char *s = dwfl_module_getsym_info(mod, k, &sym, &a,
							NULL, NULL, NULL);

		if (s && !strcmp(s, name) && sym.st_shndx != SHN_UNDEF) {
			*addr = a;
			return true;
		}
	}
	return false;
}

const char *sym_binary_object_at(struct sym_binary *b,
				 unsigned long long addr,
				 unsigned long long *off)
{
	Dwfl_Module *mod = sym_binary_module(b);
	GElf_Off o = 0;
	GElf_Sym sym;
	const char *name = mod ? dwfl_module_addrinfo(mod, addr, &o, &sym,
						      NULL, NULL, NULL) : NULL;

	/* a sized symbol that holds addr, not merely the one before it */
	if (!name || !*name || !sym.st_size || o >= sym.st_size)
		return NULL;
	*off = o;
	return name;
}
