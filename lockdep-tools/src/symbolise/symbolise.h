/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbolisation of kernel stack frames against vmlinux and module (.ko)
 * files with elfutils (libdwfl/libdw/libelf): function, source file:line
 * and the chain of inlined calls at each frame, as addr2line -fi prints
 * them, without running addr2line.
 *
 * Two kinds of input frame (struct ldr_frame, parse/report.h):
 *  - "func+off/size [module]": the symbol func is looked up by name in
 *    the ELF symbol table of vmlinux or of the module, its size checked
 *    against the printed size, and the address taken as sym + off. This
 *    needs no KASLR offset and no module load address.
 *  - a bare address (func NULL, has_addr): an address at run time. In
 *    vmlinux the link-time address is addr - kaslr_offset (runtime minus
 *    link-time _stext), used when the caller gives the offset. Else it
 *    is looked for in the modules whose load addresses the caller gave
 *    (symboliser_add_section(): /sys/module/NAME/sections/ of the
 *    guest); libdwfl relocates the module's .ko to them, and the frame
 *    gets the module's name. An address no binary holds stays bare.
 *
 * Return addresses: stack traces hold return addresses, which point
 * after the call. Unless SYMBOLISE_ACTIVATION is given, the line and the
 * inline chain are looked up at address - 1 (the call instruction), the
 * rule of elfutils' stack and libdwfl's dwfl_frame_pc(); a frame at
 * offset 0 is looked up as is. func/off/size are never changed.
 *
 * Invariants:
 *  (1) Each binary (vmlinux, each module) is opened once per symboliser,
 *      on first use; its symbol index and per-CU inline maps are built
 *      once and kept until symboliser_free().
 *  (2) A frame is either symbolised from a binary whose identity was
 *      checked (build id equal to the expected one when one is known,
 *      and the symbol's size consistent with the printed size), or left
 *      exactly as it was. Wrong answers are worse than none.
 *  (3) A missing or mismatched vmlinux or module is warned about once
 *      (util/error.h warning()), never per frame; a vmlinux_required that
 *      cannot be read is an error instead, and there is no symboliser.
 */
#ifndef SYMBOLISE_SYMBOLISE_H
#define SYMBOLISE_SYMBOLISE_H

#include <stdbool.h>
#include <stddef.h>

#include "parse/report.h"

struct symbolise_opts {
	/* vmlinux with symbols (and DWARF for file:line), or NULL */
	const char *vmlinux;
	/*
	 * Directory searched recursively for modules: NAME.ko (also .ko.xz,
	 * .ko.zst, .ko.gz), '-' and '_' equivalent. When several files
	 * have the name, the one with DWARF wins (installed modules are
	 * often stripped; a kernel build tree has the unstripped ones).
	 */
	const char *modules_dir;
	/* GNU build id of the running kernel in hex (/sys/kernel/notes), or NULL */
	const char *build_id;
	/* for bare addresses: runtime minus link-time _stext */
	unsigned long long kaslr_offset;
	bool has_kaslr_offset;
	/* no warnings on stderr (the counts are still in the stats) */
	bool quiet;
	/*
	 * Directory of the symbol index cache (see symboliser_new()), or
	 * NULL for none (the tools: symbolise_cache_dir(), or NULL with
	 * --no-cache).
	 */
	const char *cache_dir;
	/*
	 * The user named this vmlinux: one that cannot be read (missing,
	 * not an ELF file) is an error, not a warning. A build id other
	 * than build_id is still only warned about.
	 */
	bool vmlinux_required;
};

/* Why frames were left as they were, counted per symboliser. */
struct symbolise_stats {
	size_t frames;		/* frames seen */
	size_t symbolised;	/* got at least a function or file:line */
	size_t with_line;	/* ... and a file:line */
	size_t no_binary;	/* vmlinux or module file missing or mismatched */
	size_t no_symbol;	/* func not in the binary's symbol table */
	size_t bad_size;	/* size or offset inconsistent with the symbol */
	size_t ambiguous;	/* several symbols of that name and size, or
				 * several modules' sections at an address */
	size_t no_offset;	/* bare address without a KASLR offset */
	size_t no_address;	/* neither func+off nor an address */
};

enum symbolise_flags {
	/* the addresses are PCs (e.g. an oops' RIP), not return addresses */
	SYMBOLISE_ACTIVATION = 1u << 0,
	/* replace results a frame already has (e.g. parsed from the log) */
	SYMBOLISE_OVERWRITE = 1u << 1,
	/*
	 * the answers' file and inline chain, and the function found for a
	 * bare address, are the symboliser's strings, not copies
	 * (ldr_frame.source_borrowed, func_borrowed): valid until
	 * symboliser_free(), or until the binary they came from is opened
	 * again (symboliser_add_section(), symboliser_set_module_build_id());
	 * for a tool that prints the answers and drops them
	 */
	SYMBOLISE_BORROW = 1u << 2,
};

struct symboliser;

/*
 * A vmlinux that cannot be opened or whose build id differs from
 * opts->build_id is warned about here and its frames stay as they are.
 * NULL only with opts->vmlinux_required, after error() said why the
 * vmlinux cannot be read. The strings in opts are copied.
 *
 * With opts->cache_dir, a vmlinux or module (opened by name, not at its
 * load addresses) that has a build id and DWARF of its own is read from
 * its index in cache_dir (BUILD_ID.idx) when a valid one is there: the
 * same answers without reading the DWARF. One that is missing, of
 * another build or damaged is (re)built by symboliser_free().
 */
struct symboliser *symboliser_new(const struct symbolise_opts *opts);

/*
 * Frees s. The indexes s found missing are built in a detached
 * background process, which holds cache_dir/BUILD_ID.lock (flock) while
 * it works; this returns at once. A cache_dir that cannot be created is
 * warned about (unless quiet).
 */
void symboliser_free(struct symboliser *s);

/*
 * The cache directory for a tool's --cache=@dir (NULL: not given), as
 * symbolise_opts.cache_dir wants it (allocated): @dir, else
 * $XDG_CACHE_HOME/lockdep-tools, else $HOME/.cache/lockdep-tools; NULL
 * when neither variable is an absolute path.
 */
char *symbolise_cache_dir(const char *dir);

/*
 * True when vmlinux was opened and matches: bare addresses and vmlinux
 * frames can be symbolised.
 */
bool symboliser_has_vmlinux(const struct symboliser *s);

/*
 * True when vmlinux is answered from its index (a warm run), not from
 * its DWARF: a tool sizes its batches by it (lockdep-symbolise).
 */
bool symboliser_vmlinux_indexed(const struct symboliser *s);

/*
 * Symbolise nr frames in place (a batch: all frames of one binary share
 * its caches). A symbolised frame gets file/line (the location in func
 * itself), inl/nr_inl (the inlined calls, innermost first) and, for a
 * bare address, func/off/size/has_off. Frames that already have a file
 * or an inline chain are skipped unless SYMBOLISE_OVERWRITE. Returns
 * the number of frames symbolised.
 */
size_t symbolise_frames(struct symboliser *s, struct ldr_frame *v, size_t nr,
			unsigned int flags);

/* Every frame of a report: stacks, "at:" locations, irq events. */
size_t symbolise_report(struct symboliser *s, struct ldr_report *r);

const struct symbolise_stats *symboliser_stats(const struct symboliser *s);

/*
 * For addresses that are not frames (the graph export's class keys) and
 * a KASLR offset learnt after symboliser_new():
 *  - symboliser_vmlinux_symbol(): the link-time address of vmlinux
 *    symbol @name ("_stext"); false without a usable vmlinux or symbol.
 *  - symboliser_vmlinux_object(): the vmlinux symbol holding the
 *    link-time address @addr (e.g. "ext4_fs_type", or "__key.12" for a
 *    static lock_class_key), @addr's offset in it to *@off; NULL if no
 *    sized symbol holds it. The name lives as long as the symboliser.
 *  - symboliser_set_kaslr_offset(): from now on bare addresses are
 *    runtime addresses with this offset (see symbolise_opts).
 */
bool symboliser_vmlinux_symbol(struct symboliser *s, const char *name,
			       unsigned long long *addr);
const char *symboliser_vmlinux_object(struct symboliser *s,
				      unsigned long long addr,
				      unsigned long long *off);
void symboliser_set_kaslr_offset(struct symboliser *s,
				 unsigned long long offset);

/*
 * Module @module's section @section was loaded at the run-time address
 * @addr (the content of /sys/module/@module/sections/@section). Sections
 * a module's layout does not name count as not loaded; a module that was
 * already opened is opened again, at these addresses, on next use. A
 * layout with a loaded section at 0 (kptr_restrict=2 hides them) or two
 * overlapping is refused, with a warning: the module's bare addresses
 * stay raw, its func+off frames are symbolised by name as before.
 */
void symboliser_add_section(struct symboliser *s, const char *module,
			    const char *section, unsigned long long addr);

/*
 * Module @module was built with GNU build id @build_id (hex, from
 * /sys/module/@module/notes/.note.gnu.build-id): only a .ko with that
 * build id is used for it (a frame's own "[module build-id]" still wins).
 * A module already opened is looked for again on next use.
 */
void symboliser_set_module_build_id(struct symboliser *s, const char *module,
				    const char *build_id);

struct strbuf;
/*
 * "N of M frames symbolised (L with file:line); K no such symbol; ..."
 * appended to sb: the line the tools print when frames were left.
 */
void symbolise_stats_describe(const struct symbolise_stats *st,
			      struct strbuf *sb);

#endif
