/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The allow-list: the only guest files the agent ever reads. The host uses
 * the same table to decide which offered paths it accepts and which ones
 * must be there for a collection to count as complete.
 */
#ifndef LDT_PROTO_ALLOWLIST_H
#define LDT_PROTO_ALLOWLIST_H

#include <stdbool.h>
#include <stddef.h>

struct proto_allowed {
	const char *path;
	/* absent on some kernels (config, or a patch not applied yet) */
	bool optional;
	/*
	 * Where an older kernel had the same file: the agent reads it when
	 * @path does not exist, the host takes it as @path (a raw
	 * directory of older tools names it so). NULL for most.
	 */
	const char *fallback;
	/*
	 * A file the agent writes itself (its lockdep_stats series and
	 * snapshot): absent when it made none, which is never "not offered".
	 */
	bool by_agent;
};

/*
 * The graph export of our kernel series: in debugfs from its v3 on (no
 * ABI: the version on its first line says what a reader gets), a /proc
 * file in the v2 series.
 */
#define PROTO_GRAPH_PATH	"/sys/kernel/debug/lockdep/graph"
#define PROTO_GRAPH_PATH_V2	"/proc/lockdep_graph"

/*
 * What the agent's sampler writes (lockdep-agent(8)): /proc/lockdep_stats
 * every few seconds as one series file, and the graph export copied the
 * moment a "BUG: MAX_... too low!" record arrives.
 */
#define PROTO_SAMPLE_DIR		"/run/lockdep"
#define PROTO_STATS_SERIES_PATH		PROTO_SAMPLE_DIR "/stats"
#define PROTO_SNAPSHOT_GRAPH_PATH	PROTO_SAMPLE_DIR "/snapshot-graph"

extern const struct proto_allowed proto_allowlist[];
extern const size_t proto_allowlist_len;

/* The entry whose path is exactly @len bytes of @path, or NULL. */
const struct proto_allowed *proto_allowlist_find(const char *path, size_t len);

/*
 * Beyond the table, the module files: /sys/module/NAME/sections/SECTION,
 * the address the kernel loaded a section of a module at, and
 * /sys/module/NAME/notes/.note.gnu.build-id, the module's build id (the
 * host symbolises module code with them, from a .ko of that build).
 * Always optional: the agent lists those of the loaded modules.
 */
#define PROTO_MODULE_DIR	"/sys/module/"
#define PROTO_SECTIONS_DIR	"/sections/"
#define PROTO_BUILD_ID_NOTE	"/notes/.note.gnu.build-id"
/* MODULE_NAME_LEN - 1 on 64-bit kernels */
#define PROTO_MAX_MODULE_NAME	55
#define PROTO_MAX_SECTION_NAME	64
/* at most this many module files are listed or accepted per boot */
#define PROTO_MAX_MODULE_FILES	4096

/* A module name: 1-55 characters of [a-z0-9_]. */
bool proto_module_name_valid(const char *name, size_t len);
/* A section name: 1-64 characters of [-.a-z0-9_], neither "." nor "..". */
bool proto_section_name_valid(const char *name, size_t len);

/*
 * True when @path[0..@len) is exactly /sys/module/NAME/sections/SECTION
 * with a valid NAME and SECTION: byte for byte, so no other '/', no
 * "." or ".." component, no NUL. The names are then copied, NUL-terminated, to @module
 * (PROTO_MAX_MODULE_NAME + 1 bytes) and @section (PROTO_MAX_SECTION_NAME
 * + 1 bytes) unless those are NULL.
 */
bool proto_module_section_path(const char *path, size_t len, char *module,
			       char *section);

/*
 * True when @path[0..@len) is exactly /sys/module/NAME/notes/.note.gnu.
 * build-id with a valid NAME, then copied to @module as above.
 */
bool proto_module_build_id_path(const char *path, size_t len, char *module);

/* Either of the module files above. */
bool proto_module_file_path(const char *path, size_t len);

#endif
