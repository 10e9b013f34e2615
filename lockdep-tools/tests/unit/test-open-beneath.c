// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of util/open-beneath.c: a regular file inside the
 * directory opens (also through a symbolic link that stays inside);
 * "..", an absolute name, a link leading out, a /proc magic link and a
 * FIFO are refused with a reason; a missing file is not a refusal. Both
 * the openat2() path and the check used without it are run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/open-beneath.h"

typedef int (*open_fn)(int dirfd, const char *rel, const char **refused);

struct fixture {
	char top[64];
	char tree[96];
	int dirfd;
};

static void put(const char *path)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs("int x;\n", f);
	fclose(f);
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	char p[256];

	assert_non_null(fx);
	strcpy(fx->top, "/tmp/ldt-beneath-XXXXXX");
	assert_non_null(mkdtemp(fx->top));
	snprintf(fx->tree, sizeof(fx->tree), "%s/tree", fx->top);
	assert_int_equal(mkdir(fx->tree, 0700), 0);
	snprintf(p, sizeof(p), "%s/sub", fx->tree);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/sub/in.c", fx->tree);
	put(p);
	snprintf(p, sizeof(p), "%s/secret.c", fx->top);
	put(p);
	snprintf(p, sizeof(p), "%s/in-link.c", fx->tree);
	assert_int_equal(symlink("sub/in.c", p), 0);
	snprintf(p, sizeof(p), "%s/out-link.c", fx->tree);
	assert_int_equal(symlink("../secret.c", p), 0);
	snprintf(p, sizeof(p), "%s/magic.c", fx->tree);
	assert_int_equal(symlink("/proc/self/exe", p), 0);
	snprintf(p, sizeof(p), "%s/fifo.c", fx->tree);
	assert_int_equal(mkfifo(p, 0600), 0);
	snprintf(p, sizeof(p), "%s/dirlink", fx->tree);
	assert_int_equal(symlink("sub", p), 0);
	fx->dirfd = open(fx->tree, O_PATH | O_DIRECTORY);
	assert_true(fx->dirfd >= 0);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	char cmd[128];

	close(fx->dirfd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx->top);
	assert_int_equal(system(cmd), 0);
	free(fx);
	return 0;
}

static void opens(open_fn fn, int dirfd, const char *rel)
{
	const char *refused = "unset";
	int fd = fn(dirfd, rel, &refused);

	assert_true(fd >= 0);
	assert_null(refused);
	close(fd);
}

static void refuses(open_fn fn, int dirfd, const char *rel, const char *why)
{
	const char *refused = NULL;

	assert_int_equal(fn(dirfd, rel, &refused), -1);
	assert_non_null(refused);
	assert_string_equal(refused, why);
}

static void check_escapes(open_fn fn, struct fixture *fx)
{
	char abs[160];
	const char *refused = "unset";

	opens(fn, fx->dirfd, "sub/in.c");
	opens(fn, fx->dirfd, "in-link.c");
	opens(fn, fx->dirfd, "sub/../sub/in.c");
	refuses(fn, fx->dirfd, "../secret.c", "it leads outside the directory");
	refuses(fn, fx->dirfd, "sub/../../secret.c", "it leads outside the directory");
	refuses(fn, fx->dirfd, "out-link.c", "it leads outside the directory");
	snprintf(abs, sizeof(abs), "%s/secret.c", fx->top);
	refuses(fn, fx->dirfd, abs, "it leads outside the directory");
	assert_int_equal(fn(fx->dirfd, "none.c", &refused), -1);
	assert_null(refused);
}

static void test_openat2(void **state)
{
	struct fixture *fx = *state;
	const char *refused = NULL;

	check_escapes(open_beneath, fx);
	refuses(open_beneath, fx->dirfd, "fifo.c", "it is not a regular file");
	refuses(open_beneath, fx->dirfd, "sub", "it is not a regular file");
	/* ELOOP from openat2(), or outside the tree from the fallback */
	assert_int_equal(open_beneath(fx->dirfd, "magic.c", &refused), -1);
	assert_non_null(refused);
}

static void test_without_openat2(void **state)
{
	struct fixture *fx = *state;

	check_escapes(open_beneath_checked, fx);
	refuses(open_beneath_checked, fx->dirfd, "magic.c",
		"it leads outside the directory");
}

static void strict_refuses(int dirfd, const char *rel, size_t len,
			   const char *why)
{
	struct beneath_refusal r = { 0 };

	assert_int_equal(open_file_strict(dirfd, rel, &r), -1);
	assert_non_null(r.why);
	assert_string_equal(r.why, why);
	assert_int_equal(r.len, len);
}

/* The strict walk: no link at all, not even one that stays inside. */
static void test_strict(void **state)
{
	struct fixture *fx = *state;
	struct beneath_refusal r = { 0 };
	char p[256], buf[16];
	int fd;

	fd = open_file_strict(fx->dirfd, "sub/in.c", &r);
	assert_true(fd >= 0);
	assert_null(r.why);
	close(fd);
	strict_refuses(fx->dirfd, "in-link.c", 9, "is a symbolic link");
	strict_refuses(fx->dirfd, "dirlink/in.c", 7, "is a symbolic link");
	strict_refuses(fx->dirfd, "sub/../sub/in.c", 6, "is not a plain name");
	strict_refuses(fx->dirfd, "sub//in.c", 4, "is not a plain name");
	strict_refuses(fx->dirfd, "fifo.c", 6, "is not a regular file");
	strict_refuses(fx->dirfd, "sub/in.c/x", 8, "is not a directory");
	assert_int_equal(open_file_strict(fx->dirfd, "none/x.c", &r), -1);
	assert_null(r.why);
	assert_int_equal(errno, ENOENT);

	/* directories made on the way, none through a link */
	fd = open_dir_strict(fx->dirfd, "new/a/b", true, &r);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(open_dir_strict(fx->dirfd, "dirlink/x", true, &r), -1);
	assert_string_equal(r.why, "is a symbolic link");
	assert_int_equal(r.len, 7);
	snprintf(p, sizeof(p), "%s/sub/x", fx->tree);
	assert_int_equal(access(p, F_OK), -1);

	/* a planted link is replaced, not written through */
	fd = create_new_at(fx->dirfd, "out-link.c");
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "new\n", 4), 4);
	close(fd);
	snprintf(p, sizeof(p), "%s/secret.c", fx->top);
	fd = open(p, O_RDONLY);
	assert_int_equal(read(fd, buf, sizeof(buf)), 7);
	close(fd);
	assert_memory_equal(buf, "int x;\n", 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_strict, setup, teardown),
		cmocka_unit_test_setup_teardown(test_openat2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_without_openat2, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
