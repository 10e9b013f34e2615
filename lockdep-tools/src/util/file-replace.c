// SPDX-License-Identifier: GPL-2.0
/* Replacing a file in a directory; see file-replace.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "util/file-replace.h"
#include "util/strbuf.h"

/*
 * A temporary name of our own next to @name: O_EXCL refuses one that
 * exists (a file or link someone put there), so the next is tried.
 */
static int create_temp(int dirfd, const char *name, struct strbuf *tmp)
{
	unsigned int attempt;
	int fd = -1;

	for (attempt = 0; fd < 0 && attempt < 100; attempt++) {
		strbuf_reset(tmp);
		strbuf_addf(tmp, ".%s.%ld.%u", name, (long)getpid(), attempt);
		fd = openat(dirfd, tmp->buf,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	return fd;
}

int file_replace_at(int dirfd, const char *name, const void *data, size_t len)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *p = data;
	size_t off = 0;
	ssize_t n;
	int fd, err = 0;

	fd = create_temp(dirfd, name, &tmp);
	if (fd < 0) {
		err = errno;
		strbuf_release(&tmp);
		errno = err;
		return -1;
	}
	while (!err && off < len) {
		n = write(fd, p + off, len - off);
		if (n < 0 && errno != EINTR)
			err = errno;
		else if (n > 0)
			off += (size_t)n;
	}
	if (close(fd) && !err)
		err = errno;
	if (!err && renameat(dirfd, tmp.buf, dirfd, name))
		err = errno;
	if (err)
		unlinkat(dirfd, tmp.buf, 0);
	strbuf_release(&tmp);
	errno = err;
	return err ? -1 : 0;
}
