// SPDX-License-Identifier: GPL-2.0
/*
 * The allow-list table and its module files. Lookup is an exact byte
 * comparison, and a module file is matched character by character against
 * fixed parts and names of a closed alphabet: no path normalisation,
 * so "/proc//lockdep", "/proc/../etc/shadow" or
 * "/sys/module/x/sections/../../../etc/shadow" never match.
 */
#include <string.h>

#include "proto/allowlist.h"

const struct proto_allowed proto_allowlist[] = {
	{ "/proc/lockdep",				false, NULL, false },
	{ "/proc/lockdep_stats",			false, NULL, false },
	{ "/proc/lockdep_chains",			false, NULL, false },
	/* CONFIG_LOCK_STAT, which PROVE_LOCKING does not need */
	{ "/proc/lock_stat",				true,  NULL, false },
	{ "/proc/version",				false, NULL, false },
	{ "/proc/cmdline",				false, NULL, false },
	{ "/proc/config.gz",				true,  NULL, false },
	/* raw ELF notes: the host takes the kernel's build id from them */
	{ "/sys/kernel/notes",				false, NULL, false },
	/* added by later patches of kernel-patches/ */
	{ PROTO_GRAPH_PATH,				true,  PROTO_GRAPH_PATH_V2, false },
	{ "/sys/kernel/debug/lockdep_scenarios/list",	true,  NULL, false },
	/* the agent's own, last: the series then runs until they are read */
	{ PROTO_SNAPSHOT_GRAPH_PATH,			true,  NULL, true },
	{ PROTO_STATS_SERIES_PATH,			true,  NULL, true },
};

const size_t proto_allowlist_len =
	sizeof(proto_allowlist) / sizeof(proto_allowlist[0]);

const struct proto_allowed *proto_allowlist_find(const char *path, size_t len)
{
	size_t i;

	for (i = 0; i < proto_allowlist_len; i++)
		if (strlen(proto_allowlist[i].path) == len &&
		    !memcmp(proto_allowlist[i].path, path, len))
			return &proto_allowlist[i];
	return NULL;
}

bool proto_module_name_valid(const char *name, size_t len)
{
	size_t i;

	if (!len || len > PROTO_MAX_MODULE_NAME)
		return false;
	for (i = 0; i < len; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		      (name[i] >= '0' && name[i] <= '9') || name[i] == '_'))
			return false;
	return true;
}

bool proto_section_name_valid(const char *name, size_t len)
{
	size_t i;

	/*
	 * '/' is outside the alphabet, so "." and ".." are the only names
	 * that leave sections/; ".." inside a name is a real section's
	 * (.data..ro_after_init), '-' too (.note.gnu.build-id).
	 */
	if (!len || len > PROTO_MAX_SECTION_NAME || (len == 1 && *name == '.') ||
	    (len == 2 && name[0] == '.' && name[1] == '.'))
		return false;
	for (i = 0; i < len; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		      (name[i] >= '0' && name[i] <= '9') || name[i] == '_' ||
		      name[i] == '.' || name[i] == '-'))
			return false;
	return true;
}

bool proto_module_section_path(const char *path, size_t len, char *module,
			       char *section)
{
	const size_t dir = strlen(PROTO_MODULE_DIR);
	const size_t mid = strlen(PROTO_SECTIONS_DIR);
	const char *name, *sec, *end;

	if (len <= dir || memcmp(path, PROTO_MODULE_DIR, dir))
		return false;
	end = path + len;
	name = path + dir;
	sec = memchr(name, '/', end - name);
	if (!sec || (size_t)(end - sec) <= mid ||
	    memcmp(sec, PROTO_SECTIONS_DIR, mid) ||
	    !proto_module_name_valid(name, sec - name) ||
	    !proto_section_name_valid(sec + mid, end - sec - mid))
		return false;
	if (module) {
		memcpy(module, name, sec - name);
		module[sec - name] = '\0';
	}
	if (section) {
		memcpy(section, sec + mid, end - sec - mid);
		section[end - sec - mid] = '\0';
	}
	return true;
}

bool proto_module_build_id_path(const char *path, size_t len, char *module)
{
	const size_t dir = strlen(PROTO_MODULE_DIR);
	const size_t note = strlen(PROTO_BUILD_ID_NOTE);
	size_t n;

	if (len <= dir + note || memcmp(path, PROTO_MODULE_DIR, dir) ||
	    memcmp(path + len - note, PROTO_BUILD_ID_NOTE, note))
		return false;
	n = len - dir - note;
	if (!proto_module_name_valid(path + dir, n))
		return false;
	if (module) {
		memcpy(module, path + dir, n);
		module[n] = '\0';
	}
	return true;
}

bool proto_module_file_path(const char *path, size_t len)
{
	return proto_module_section_path(path, len, NULL, NULL) ||
	       proto_module_build_id_path(path, len, NULL);
}
