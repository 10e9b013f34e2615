/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copying the boots of another lockdep database into this one
 * (lockdep-merge(1)): a fleet of boots collected in parallel, each into
 * its own file, becomes one database for lockdep-graph --boots all and
 * lockdep-diff against many baseline boots.
 *
 * Guarantees:
 *  (1) A boot is known by its uuid (boots.uuid, lockdep-db(5)), which the
 *      copy keeps: a boot the database already holds is not copied again,
 *      so merging a file twice adds nothing. Uuids compare as lowercase
 *      hex without dashes or blanks (32 digits, else refused), and are
 *      copied so. A boot without a uuid, or with that of
 *      another boot (another collection time, label, source or kernel),
 *      is refused with a warning: it has no identity of its own.
 *  (2) Each source file is one write transaction: all of its new boots,
 *      or (after an error, a damaged file) none of them.
 *  (3) The transaction is BEGIN IMMEDIATE under the store's busy timeout,
 *      like a collection's (store.h): merges and collectors writing the
 *      same database wait for each other instead of failing or mixing.
 *  (4) Row ids are renumbered past the database's own; every column that
 *      refers to a renumbered id (found from the schema's foreign keys,
 *      not listed here) moves with it, so a table added by a later
 *      migration is copied without a change here.
 *  (5) A source is only read: ATTACHed read-only, and without locks
 *      where store_open() reads it so (a directory we may not write).
 *  (6) A source adds only rows of the boots it copies: a row that names
 *      no boot of the source (boot_id 0, a boot deleted without its
 *      rows, a class of no boot) is skipped and counted, never shifted
 *      onto a row the database holds.
 */
#ifndef STORE_STORE_MERGE_H
#define STORE_STORE_MERGE_H

#include <stddef.h>

#include "store/store.h"

struct store_merge_result {
	size_t boots;		/* boots in the source */
	size_t added;		/* ... copied (the others were there) */
	size_t refused;		/* ... not copied, each named in a warning:
				 * no uuid, or another boot's */
	size_t skipped;		/* rows of no boot of the source (a warning
				 * per table) */
};

/*
 * What a merge into @st reads of its schema once: NULL after an error
 * line (@st read-only, a boot open). @st stays the caller's; free the
 * merger before closing it.
 */
struct store_merger *store_merger_new(struct store *st);
void store_merger_free(struct store_merger *m);

/*
 * Copy the boots of database @path that the merger's database lacks. 0,
 * or -1 after one error line naming @path; the database is then as
 * before.
 */
int store_merge(struct store_merger *m, const char *path,
		struct store_merge_result *r);

#endif
