/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The identity of a lock class that survives a reboot (lockdep-db(5),
 * classes.identity), so that "the same class in boot A and boot B" is a
 * plain join on one column.
 *
 * What a boot tells about a class, best first:
 *  (1) within one kernel build: the offset of its lock_class_key from the
 *      KASLR base, or the key's symbol (the graph export of our kernel
 *      series gives the key; /proc/lockdep of 6.1 hashes it);
 *  (2) across builds: the symbolised key plus name and subclass;
 *  (3) always: the name and the subclass.
 * Only (3) is computed today: no boot stored yet carries a usable key
 * (6.1 prints "(____ptrval____)" or a per-boot hash). It is the name as
 * /proc/lockdep prints it without the "#N" version suffix, which counts
 * registrations of the same name and so depends on registration order:
 *
 *   "&sb->s_type->i_lock_key#3"    ->  "&sb->s_type->i_lock_key"
 *   "&sb->s_type->i_mutex_key#3/1" ->  "&sb->s_type->i_mutex_key/1"
 *
 * Two classes of one name (the i_lock_key of two file systems) therefore
 * share an identity: joins on it see them as one class. Readers that
 * must tell them apart count the classes of an identity in a boot (the
 * class_identities view); lockdep-diff(1) merges them and says so.
 */
#ifndef STORE_IDENTITY_H
#define STORE_IDENTITY_H

#include <stddef.h>

/*
 * The name+subclass identity of a class: @class_len bytes of @class_name
 * (the name without its "#version" and "/subclass" suffixes, as the
 * parsers split it) and "/@subclass" when @subclass is not 0. Returns a
 * string the caller frees.
 */
char *store_class_identity(const char *class_name, size_t class_len,
			   unsigned int subclass);

#endif
