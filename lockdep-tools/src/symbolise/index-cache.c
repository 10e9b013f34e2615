// SPDX-License-Identifier: GPL-2.0
/*
 * The index cache directory: which files may be indexed, where their
 * indexes live, and building them in the background of the first run.
 *
 * The first run of a binary must not be slower than without a cache, so
 * it answers from the DWARF as before and hands the index build to a
 * detached process when the symboliser is freed (its answers are given
 * by then). That process closes every inherited descriptor (a socket or
 * pipe of the caller's would otherwise stay open in it), opens the file
 * afresh and writes the index atomically (index-file.c). Two runs that
 * both miss build it once: the first takes @dir/BUILD_ID.lock (flock,
 * before it forks, so a waiter sees the build as soon as the run ends),
 * the second finds it taken and leaves the build to it.
 *
 * The directory is trusted with answers, so it must be its user's alone
 * (index.h): one owned by another user or writable by a group or others
 * is refused, as ssh and git refuse such files, and the run goes on
 * without a cache; so is a symbolic link in its place, which anyone who
 * may write the directory above could have planted. Its files are opened with O_NOFOLLOW: a link planted
 * as BUILD_ID.lock must not make us create or lock its target.
 */
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "symbolise/binary.h"
#include "symbolise/index.h"
#include "symbolise/symbolise.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

char *sym_index_path(const char *dir, const char *build_id, const char *ext)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s%s", dir, build_id, ext);
	return strbuf_detach(&sb, NULL);
}

char *symbolise_cache_dir(const char *dir)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	struct strbuf sb = STRBUF_INIT;

	if (dir)
		return xstrdup(dir);

	/* the XDG base directory spec: a relative path is to be ignored */
	if (xdg && *xdg == '/')
		strbuf_addf(&sb, "%s/lockdep-tools", xdg);
	else if (home && *home == '/')
		strbuf_addf(&sb, "%s/.cache/lockdep-tools", home);
	else
		return NULL;
	return strbuf_detach(&sb, NULL);
}

bool sym_file_identity(const char *path, char **build_id, bool *own_dwarf,
		       struct sym_elf_identity *ident)
{
	const char *why;
	int fd = sym_open_regular(path, &why);
	const unsigned char *bits;
	Elf_Scn *scn = NULL;
	GElf_Ehdr ehdr;
	size_t shstrndx;
	struct stat st;
	ssize_t len;
	uLong crc;
	Elf *elf;

	*build_id = NULL;
	*own_dwarf = false;
	memset(ident, 0, sizeof(*ident));
	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	elf = dwelf_elf_begin(fd);
	if (!elf || elf_kind(elf) != ELF_K_ELF || fstat(fd, &st) ||
	    !gelf_getehdr(elf, &ehdr) || elf_getshdrstrndx(elf, &shstrndx)) {
		elf_end(elf);
		close(fd);
		return false;
	}
	len = dwelf_elf_gnu_build_id(elf, (const void **)&bits);
	if (len > 0 && len <= ELF_NOTES_MAX_BUILD_ID) {
		*build_id = xmalloc(2 * (size_t)len + 1);
		for (ssize_t i = 0; i < len; i++)
			sprintf(*build_id + 2 * i, "%02x", bits[i]);
	}
	ident->size = (uint64_t)st.st_size;
	crc = crc32_z(0, (const void *)&ehdr, sizeof(ehdr));
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;
		const char *name;

		if (!gelf_getshdr(scn, &shdr))
			continue;
		crc = crc32_z(crc, (const void *)&shdr, sizeof(shdr));
		if (shdr.sh_type == SHT_NOBITS || !shdr.sh_size)
			continue;
		name = elf_strptr(elf, shstrndx, shdr.sh_name);
		if (name && !strcmp(name, ".debug_info"))
			*own_dwarf = true;
	}
	ident->crc = (uint32_t)crc;
	elf_end(elf);
	close(fd);
	return true;
}

char *sym_cache_dir_refused(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;

	/*
	 * lstat: a link is not followed. Whoever may write the directory
	 * that holds it (a shared, sticky $XDG_CACHE_HOME) may have planted
	 * it, pointing at a directory of ours: we would fill that with
	 * index and lock files, and trust the indexes found there.
	 */
	if (lstat(dir, &st))
		return NULL;	/* not there: sym_cache_dir_make() makes it */
	if (S_ISLNK(st.st_mode))
		strbuf_addstr(&sb, "is a symbolic link");
	else if (!S_ISDIR(st.st_mode))
		strbuf_addstr(&sb, "is not a directory");
	else if (st.st_uid != geteuid())
		strbuf_addf(&sb, "is owned by uid %u, not by this user (uid %u)",
			    (unsigned int)st.st_uid, (unsigned int)geteuid());
	else if (st.st_mode & (S_IWGRP | S_IWOTH))
		strbuf_addf(&sb, "may be written by %s (mode %04o)",
			    st.st_mode & S_IWOTH ? "others" : "its group",
			    (unsigned int)(st.st_mode & 07777));
	else
		return NULL;
	return strbuf_detach(&sb, NULL);
}

bool sym_cache_dir_make(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	bool ok = true;

	if (!*dir) {
		errno = ENOENT;
		return false;
	}
	strbuf_addstr(&sb, dir);
	for (char *p = sb.buf + 1; ok; p++) {
		char c = *p;

		if (c && c != '/')
			continue;
		*p = '\0';
		/* the cache itself for its user alone: sym_cache_dir_refused() */
		ok = !mkdir(sb.buf, c ? 0777 : 0700) || errno == EEXIST;
		*p = c;
		if (!c)
			break;
	}
	strbuf_release(&sb);
	return ok;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* In the detached process: everything but stdio (to /dev/null) and @keep. */
static void close_inherited(int *keep, size_t nr)
{
	int fd = open("/dev/null", O_RDWR), low = 3;

	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	qsort(keep, nr, sizeof(*keep), cmp_int);
	for (size_t i = 0; i <= nr; i++) {
		int high = i < nr ? keep[i] - 1 : ~0;

		if (high >= low)
			close_range((unsigned int)low, (unsigned int)high, 0);
		if (i < nr)
			low = keep[i] + 1;
	}
}

static void build_jobs(const char *dir, const struct sym_index_job *jobs,
		       const bool *locked, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		struct sym_elf_identity elf;
		struct sym_index *ix;
		struct sym_binary *b;
		bool built, own_dwarf;
		const char *err;
		char *id;

		if (!locked[i])
			continue;
		/* built meanwhile by a run that held the lock before us */
		if (!sym_file_identity(jobs[i].path, &id, &own_dwarf, &elf))
			continue;
		free(id);
		ix = sym_index_open(dir, jobs[i].build_id, &elf);
		built = ix != NULL;
		sym_index_close(ix);
		if (built)
			continue;
		b = sym_binary_open(jobs[i].path, NULL, &err);
		if (b && b->build_id && !strcmp(b->build_id, jobs[i].build_id))
			sym_index_build(b, dir);
		sym_binary_free(b);
	}
}

void sym_index_build_background(const char *dir,
				const struct sym_index_job *jobs, size_t nr)
{
	int *fds = xcalloc(nr + 1, sizeof(*fds));
	bool *locked = xcalloc(nr + 1, sizeof(*locked));
	size_t nr_locked = 0;
	pid_t pid;

	for (size_t i = 0; i < nr; i++) {
		char *lock = sym_index_path(dir, jobs[i].build_id, ".lock");
		int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
			      0666);

		free(lock);
		if (fd < 0)
			continue;
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			close(fd);	/* being built by another process */
			continue;
		}
		locked[i] = true;
		fds[nr_locked++] = fd;
	}
	/* a child that forks the builder and exits: nothing to reap later */
	pid = nr_locked ? fork() : -1;
	if (pid == 0) {
		if (fork() == 0) {
			setsid();
			close_inherited(fds, nr_locked);
			build_jobs(dir, jobs, locked, nr);
		}
		_exit(0);
	}
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	for (size_t i = 0; i < nr_locked; i++)
		close(fds[i]);
	free(fds);
	free(locked);
}
