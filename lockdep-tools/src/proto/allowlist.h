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
};

extern const struct proto_allowed proto_allowlist[];
extern const size_t proto_allowlist_len;

/* The entry whose path is exactly @len bytes of @path, or NULL. */
const struct proto_allowed *proto_allowlist_find(const char *path, size_t len);

#endif
