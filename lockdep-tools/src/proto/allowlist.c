// SPDX-License-Identifier: GPL-2.0
/*
 * The allow-list table. Lookup is an exact byte comparison: no path
 * normalisation, so "/proc//lockdep" or "/proc/../etc/shadow" never match.
 */
#include <string.h>

#include "proto/allowlist.h"

const struct proto_allowed proto_allowlist[] = {
	{ "/proc/lockdep",				false },
	{ "/proc/lockdep_stats",			false },
	{ "/proc/lockdep_chains",			false },
	{ "/proc/lock_stat",				false },
	{ "/proc/version",				false },
	{ "/proc/cmdline",				false },
	{ "/proc/config.gz",				true },
	/* raw ELF notes: the host takes the kernel's build id from them */
	{ "/sys/kernel/notes",				false },
	/* added by later patches of kernel-patches/ */
	{ "/proc/lockdep_graph",			true },
	{ "/sys/kernel/debug/lockdep_scenarios/list",	true },
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
