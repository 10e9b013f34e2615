/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The union of a database's boots, kept by lockdep-merge (schema version
 * 15: the invariants U1 to U5 are in schema.c and lockdep-db(5)). Each
 * distinct class and dependency of the boots is a row once; each boot's
 * membership is a pack of ids into them. The graph of every boot then
 * reads a few thousand rows and the packs instead of a million rows and
 * every boot's classes, and a merge adds to it in time proportional to
 * the boots it adds.
 *
 * The union is a cache of the rows, never trusted over them: it is read
 * only while its state row says it is the union of exactly the boots
 * asked for, stamped under the schema cookie of now (the triggers that
 * drop it on any change of those rows were there all along), and only
 * after every pack decoded and every id in it was found.
 */
#ifndef STORE_STORE_UNION_H
#define STORE_STORE_UNION_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

/*
 * What a writer keeps of the union between its transactions (a merger's
 * sources): read from the tables once, then kept in step with them.
 */
struct store_union;
struct store_union *store_union_new(void);
void store_union_free(struct store_union *u);

/*
 * After a merge's copy, in its transaction: add to the union the boots
 * it lacks, in id order; build it anew from every boot when it is not
 * kept (a migration, a change the triggers saw) or when a boot added
 * holds twice an identity the union has as one node. A boot whose
 * dependencies name another boot's classes cannot be in a union of
 * boots: the union is then marked not kept (state kept = 0) until a
 * change drops that mark. A boot it joins that has no dependency pack
 * gets one, written from the same read of its rows (dep-pack.h). 0, or
 * -1 after an error was printed (and the transaction is to be rolled
 * back).
 */
int store_union_update(struct store *st, struct store_union *u);

struct store_union_node {
	const char *identity;	/* the identity it merges, or NULL: */
	int64_t class_id;	/* ... the one class it is */
	const char *name;	/* as printed (the first class's) */
	unsigned int usage_bits;	/* OR of every boot's */
	uint32_t boots;		/* the boots that have it */
};

struct store_union_reader {
	/* each node in the graph's order (its classes' first id) */
	int (*node)(const struct store_union_node *n, void *data);
	/* boot @boots[@idx]: how many of its classes are nodes of their own */
	int (*boot)(size_t idx, uint64_t own_nodes, void *data);
	/*
	 * each dependency of each boot, boot by boot in @boots' order:
	 * nodes as ordinals of node()'s calls, the union's dep_bits and
	 * distance (-1: unknown), its site on the row of the boot it
	 * came from (else NULL)
	 */
	int (*edge)(uint32_t from, uint32_t to, size_t idx, int dep_bits,
		    int distance, const char *site, void *data);
	void *data;
};

/*
 * The graph of the @nr boots from the union, if it is kept and is the
 * union of exactly them: 1 after every callback ran (a non-zero return
 * of one stops and is returned), 0 having called none (no such union, or
 * a damaged one, said in a warning: read the boots' rows), -1 after an
 * error was printed.
 */
int store_union_read(struct store *st, const int64_t *boots, size_t nr,
		     const struct store_union_reader *r);

#endif
