/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The database sink's part for the graph export: parse it,
 * symbolise its class keys and stack traces against vmlinux when there
 * is one, and store it (store/store-export.h).
 *
 * Acquisition sites: a trace's site is its first frame past lockdep's
 * own machinery and the lock primitives (report_pick_frame()'s rules:
 * lock_acquire, _raw_spin_lock, mutex_lock_nested, ... are skipped), as
 * lockdep prints a location: "func+0xoff/0xsize", " [module]" for module
 * code (named when the boot's /sys/module/NAME/sections/ files and the
 * module's .ko were there), then " (file:line)" when DWARF gave one. A
 * frame nothing names (module code without them) stops the walk:
 * "0x<address> (not in vmlinux) from func+0xoff/0xsize" with the first
 * frame after it that is named. Without vmlinux, or with
 * hidden addresses, the site is the raw start of the trace:
 * "0x<address> 0x<address> 0x<address> (trace <id>, not symbolised)".
 */
#ifndef LDT_COLLECT_DB_GRAPH_H
#define LDT_COLLECT_DB_GRAPH_H

#include <stdbool.h>
#include <stddef.h>

#include "store/store.h"
#include "symbolise/symbolise.h"

/*
 * Store the export @buf[0..@len) (named @input in messages) in the open
 * boot of @st. @build_id is the kernel's, from /sys/kernel/notes ("" if
 * unknown); @sym a symboliser, or NULL. Returns 0 (*@truncated: the
 * export has no end record), or -1 after printing why; a malformed line
 * is such an error, and the caller then rolls the boot back.
 */
int db_graph_store(struct store *st, const char *input, const char *buf,
		   size_t len, const char *build_id, struct symboliser *sym,
		   bool *truncated);

/*
 * The site of @nr symbolised frames (see above) appended to @sb; @sym
 * says whether they could be symbolised at all.
 */
struct strbuf;
void db_graph_site(struct strbuf *sb, const struct ldr_frame *v, size_t nr,
		   bool symbolised, unsigned long long trace_id);

#endif
