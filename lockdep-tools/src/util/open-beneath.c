// SPDX-License-Identifier: GPL-2.0
/*
 * Opening a file beneath a directory. openat2() resolves the whole name
 * in the kernel, so a symbolic link swapped in between a check and the
 * open cannot lead out; the fallback checks where the opened file
 * really is, which the same swap cannot fool either.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/open-beneath.h"

#define OUTSIDE "it leads outside the directory"

/* O_NONBLOCK: a FIFO planted in the tree must not block the open. */
#define OPEN_FLAGS (O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)

static int fd_path(int fd, char *buf, size_t size)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, size - 1);
	if (n < 0 || (size_t)n >= size - 1)
		return -1;
	buf[n] = '\0';
	return 0;
}

int open_beneath_checked(int dirfd, const char *rel, const char **refused)
{
	char dir[PATH_MAX], file[PATH_MAX];
	size_t n;
	int fd;

	*refused = NULL;
	fd = openat(dirfd, rel, OPEN_FLAGS);
	if (fd < 0)
		return -1;
	/* without /proc nothing can be checked: refuse rather than trust */
	if (fd_path(dirfd, dir, sizeof(dir)) || fd_path(fd, file, sizeof(file))) {
		close(fd);
		*refused = "its place cannot be checked without /proc";
		return -1;
	}
	n = strlen(dir);
	if (n == 1)	/* the directory is "/" */
		n = 0;
	if (strncmp(file, dir, n) || file[n] != '/') {
		close(fd);
		*refused = OUTSIDE;
		return -1;
	}
	return fd;
}

static int open_resolved(int dirfd, const char *rel, const char **refused)
{
	struct open_how how = {
		.flags = OPEN_FLAGS,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	int fd, tries;

	*refused = NULL;
	/* EAGAIN: a rename or mount raced the lookup; it is safe to retry */
	for (tries = 0; tries < 8; tries++) {
		fd = (int)syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));
		if (fd >= 0 || errno != EAGAIN)
			break;
	}
	if (fd >= 0)
		return fd;
	if (errno == ENOSYS)
		return open_beneath_checked(dirfd, rel, refused);
	if (errno == EXDEV)
		*refused = OUTSIDE;
	else if (errno == ELOOP)
		*refused = "it is a magic link or a loop of symbolic links";
	return -1;
}

int open_beneath(int dirfd, const char *rel, const char **refused)
{
	struct stat st;
	int err, fd = open_resolved(dirfd, rel, refused);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st)) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	if (S_ISREG(st.st_mode))
		return fd;
	close(fd);
	*refused = "it is not a regular file";
	return -1;
}

/* Why the name @comp in @dirfd could not be opened as a directory. */
static const char *not_dir_reason(int dirfd, const char *comp)
{
	struct stat st;

	if (fstatat(dirfd, comp, &st, AT_SYMLINK_NOFOLLOW))
		return NULL;
	return S_ISLNK(st.st_mode) ? "is a symbolic link" : "is not a directory";
}

/* A name of a component: not empty, ".", ".." or too long. */
static bool plain_name(const char *p, size_t n)
{
	return n && n <= NAME_MAX &&
	       !(p[0] == '.' && (n == 1 || (n == 2 && p[1] == '.')));
}

/*
 * One component of @rel at a time, each opened with O_NOFOLLOW from the
 * descriptor of the one before: a link swapped in at any point cannot
 * be followed, with or without openat2().
 */
int open_dir_strict(int dirfd, const char *rel, bool create,
		    struct beneath_refusal *r)
{
	const char *p = rel, *end;
	char comp[NAME_MAX + 1];
	size_t n;
	int fd, next, err;

	r->why = NULL;
	fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	/* "" is the directory itself; "a/" has an empty last component */
	while (fd >= 0 && (*p || p != rel)) {
		end = strchrnul(p, '/');
		n = (size_t)(end - p);
		r->len = (size_t)(end - rel);
		if (!plain_name(p, n)) {
			r->why = "is not a plain name";
			break;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			      O_CLOEXEC);
		if (next < 0 && errno == ENOENT && create &&
		    (!mkdirat(fd, comp, 0777) || errno == EEXIST))
			next = openat(fd, comp, O_RDONLY | O_DIRECTORY |
				      O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 && (errno == ENOTDIR || errno == ELOOP)) {
			r->why = not_dir_reason(fd, comp);
			if (!r->why)
				r->why = "is not a directory";
		}
		err = errno;
		close(fd);
		errno = err;
		fd = next;
		if (fd < 0)
			return -1;
		if (!*end)
			break;
		p = end + 1;
	}
	if (r->why) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static bool plain_names(const char *rel)
{
	const char *p = rel, *end;

	for (;;) {
		end = strchrnul(p, '/');
		if (!plain_name(p, (size_t)(end - p)))
			return false;
		if (!*end)
			return true;
		p = end + 1;
	}
}

/*
 * The strict walk's rules in one openat2(): beneath @dirfd, no symbolic
 * link followed, none as the last name either. -1 with errno otherwise
 * (ENOSYS without openat2(), ELOOP at a link, ENOTDIR, ...).
 */
static int open_no_links(int dirfd, const char *rel)
{
	struct open_how how = {
		.flags = OPEN_FLAGS | O_NOFOLLOW,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS,
	};

	return (int)syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));
}

static int walk_file_strict(int dirfd, const char *rel,
			    struct beneath_refusal *r)
{
	const char *slash = strrchr(rel, '/'), *name = slash ? slash + 1 : rel;
	char dir[PATH_MAX];
	struct stat st;
	int dfd = dirfd, fd, err;

	r->why = NULL;
	if (slash) {
		if ((size_t)(slash - rel) >= sizeof(dir)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(dir, rel, (size_t)(slash - rel));
		dir[slash - rel] = '\0';
		dfd = open_dir_strict(dirfd, dir, false, r);
		if (dfd < 0)
			return -1;
	}
	r->len = strlen(rel);
	fd = openat(dfd, name, OPEN_FLAGS | O_NOFOLLOW);
	err = errno;
	if (fd < 0 && err == ELOOP)
		r->why = "is a symbolic link";
	else if (fd >= 0 && fstat(fd, &st))
		r->why = "cannot be checked (fstat failed)";
	else if (fd >= 0 && !S_ISREG(st.st_mode))
		r->why = "is not a regular file";
	if (slash)
		close(dfd);
	if (r->why && fd >= 0)
		close(fd);
	errno = err;
	return r->why ? -1 : fd;
}

/*
 * openat2() first: one system call, where the walk makes two for each
 * directory on the way (a raw directory's files are three to six deep).
 * It opens what the walk would and nothing else: the names are checked
 * first, and a link anywhere fails it. Whatever it fails on but a
 * missing file, the walk does again, and says which name it refused.
 */
int open_file_strict(int dirfd, const char *rel, struct beneath_refusal *r)
{
	struct stat st;
	int fd, err;

	r->why = NULL;
	if (!plain_names(rel))
		return walk_file_strict(dirfd, rel, r);
	fd = open_no_links(dirfd, rel);
	if (fd < 0 && errno == ENOENT)
		return -1;
	if (fd < 0)
		return walk_file_strict(dirfd, rel, r);
	if (!fstat(fd, &st) && S_ISREG(st.st_mode))
		return fd;
	err = errno;
	close(fd);
	errno = err;
	return walk_file_strict(dirfd, rel, r);
}

int create_new_at(int dirfd, const char *name)
{
	if (unlinkat(dirfd, name, 0) && errno != ENOENT)
		return -1;
	return openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		      O_CLOEXEC, 0666);
}
