// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of util/file-replace.c: the bytes land whole (NUL, CR and
 * all); a file or a symbolic link at the name is replaced, the link's
 * target untouched; a directory at the name is an error; no temporary
 * file is left either way, even when someone holds the first temporary
 * name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file-replace.h"

struct fixture {
	char dir[64];
	int dirfd;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	strcpy(fx->dir, "/tmp/ldt-replace-XXXXXX");
	assert_non_null(mkdtemp(fx->dir));
	fx->dirfd = open(fx->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(fx->dirfd >= 0);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	char cmd[128];

	close(fx->dirfd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx->dir);
	assert_int_equal(system(cmd), 0);
	free(fx);
	return 0;
}

/* The bytes of @name in the fixture's directory, in @buf. */
static size_t slurp(struct fixture *fx, const char *name, char *buf, size_t size)
{
	int fd = openat(fx->dirfd, name, O_RDONLY | O_NOFOLLOW);
	ssize_t n;

	assert_true(fd >= 0);
	n = read(fd, buf, size);
	assert_true(n >= 0);
	close(fd);
	return (size_t)n;
}

/* How many entries the directory has: no temporary file left behind. */
static int entries(struct fixture *fx)
{
	DIR *d = opendir(fx->dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void test_bytes_whole(void **state)
{
	static const char data[] = "a\0b\r\n\f\033[31m\xe9\n";
	struct fixture *fx = *state;
	char buf[64];

	assert_int_equal(file_replace_at(fx->dirfd, "p", data, sizeof(data) - 1), 0);
	assert_int_equal(slurp(fx, "p", buf, sizeof(buf)), sizeof(data) - 1);
	assert_memory_equal(buf, data, sizeof(data) - 1);
	assert_int_equal(file_replace_at(fx->dirfd, "p", "new", 3), 0);
	assert_int_equal(slurp(fx, "p", buf, sizeof(buf)), 3);
	assert_int_equal(entries(fx), 1);
}

static void test_link_replaced(void **state)
{
	struct fixture *fx = *state;
	char buf[64], path[128];
	struct stat st;

	assert_int_equal(file_replace_at(fx->dirfd, "victim", "mine", 4), 0);
	assert_int_equal(symlinkat("victim", fx->dirfd, "p"), 0);
	assert_int_equal(file_replace_at(fx->dirfd, "p", "patch", 5), 0);
	assert_int_equal(fstatat(fx->dirfd, "p", &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(slurp(fx, "victim", buf, sizeof(buf)), 4);
	assert_memory_equal(buf, "mine", 4);
	/* a link someone put at our first temporary name is left alone */
	snprintf(path, sizeof(path), ".q.%ld.0", (long)getpid());
	assert_int_equal(symlinkat("victim", fx->dirfd, path), 0);
	assert_int_equal(file_replace_at(fx->dirfd, "q", "patch", 5), 0);
	assert_int_equal(slurp(fx, "victim", buf, sizeof(buf)), 4);
	assert_int_equal(slurp(fx, "q", buf, sizeof(buf)), 5);
	assert_int_equal(entries(fx), 4);
}

static void test_directory_refused(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(mkdirat(fx->dirfd, "p", 0700), 0);
	errno = 0;
	assert_int_equal(file_replace_at(fx->dirfd, "p", "x", 1), -1);
	assert_int_not_equal(errno, 0);
	assert_int_equal(entries(fx), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_bytes_whole, setup, teardown),
		cmocka_unit_test_setup_teardown(test_link_replaced, setup, teardown),
		cmocka_unit_test_setup_teardown(test_directory_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
