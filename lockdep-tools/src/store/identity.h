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
 * The identity stored is (2) when the boot has the graph export and its
 * key was symbolised against vmlinux (lockdep-collect --vmlinux), else
 * (3). (1) is stored beside it, in classes.key_offset, for joins within
 * one build. (3) is the name as /proc/lockdep prints it without the
 * "#N" version suffix, which counts registrations of the same name and
 * so depends on registration order:
 *
 *   "&sb->s_type->i_lock_key#3"    ->  "&sb->s_type->i_lock_key"
 *   "&sb->s_type->i_mutex_key#3/1" ->  "&sb->s_type->i_mutex_key/1"
 *
 * Two classes of one name (the i_lock_key of two file systems) therefore
 * share an identity: joins on it see them as one class. Readers that
 * must tell them apart count the classes of an identity in a boot (the
 * class_identities view); lockdep-diff(1) merges them and says so.
 *
 * (2) appends "@" and the vmlinux symbol holding the key, with the key's
 * offset in it: static keys live in .data/.bss, alone ("__key.12", the
 * compiler's name for a function's static key) or inside a structure
 * ("ext4_fs_type+0x38"), and that symbol is the same in every build of
 * the same source, unlike the address:
 *
 *   "&sb->s_type->i_lock_key"  ->  "&sb->s_type->i_lock_key@ext4_fs_type+0x38"
 *
 * which tells the i_lock_key of ext4 from that of tmpfs. Keys in modules
 * or allocated memory have no vmlinux symbol and keep (3). Boots to be
 * joined must be stored alike: with the export and --vmlinux, or not.
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

/*
 * The key identity (2): the name+subclass identity, "@", @key_symbol
 * ("sym" or "sym+0xoff", as the store keeps it in classes.key_symbol).
 */
char *store_class_identity_key(const char *class_name, size_t class_len,
			       unsigned int subclass, const char *key_symbol);

#endif
