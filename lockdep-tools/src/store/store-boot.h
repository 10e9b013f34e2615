/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Naming boots on a command line, the one rule for every tool: a boot is
 * an id, else a label. An id wins over a label that reads as a number.
 * A label that more than one boot carries (two databases merged, each
 * with boot "idle-1") is an error naming the ids: no tool picks one.
 */
#ifndef STORE_STORE_BOOT_H
#define STORE_STORE_BOOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

/* Boots chosen, in the order named, each once, with their labels. */
struct store_boot_set {
	int64_t *ids;
	char **labels;		/* NULL: no label */
	size_t nr, alloc;
};

/* The boot @spec names into *@id: 0, or -1 after an error was printed. */
int store_boot_resolve(struct store *st, const char *spec, int64_t *id);

/*
 * The boots @list names into @set: "ID,ID,..." (ids or labels; a boot
 * named twice is taken once), "all" (every boot, oldest first) if
 * @all_ok, or NULL (the newest boot). 0, or -1 after an error was printed
 * (the database holds no boot, a name matches none or more than one).
 */
int store_boot_select(struct store *st, const char *list, bool all_ok,
		      struct store_boot_set *set);

void store_boot_set_release(struct store_boot_set *set);

#endif
