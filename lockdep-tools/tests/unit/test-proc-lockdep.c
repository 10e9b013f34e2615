// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/lockdep parser: the real file of our 6.1 guest, the hand-written
 * older forms of tests/fixtures/old (see README.proc there), hostile
 * names and garbage.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/proc-lockdep.h"
#include "parse/proc-stats.h"
#include "parse/report.h"

#define FIX "tests/fixtures/"

struct cls {
	char *name;
	size_t name_len, class_len;
	char usage[16];
	unsigned int usage_bits, version, subclass;
	long ops, fd, bd;
	bool has_key, has_ops, has_deps;
	unsigned long long key;
	int wait_outer, wait_inner;
	size_t nr_deps;
	unsigned long line;
};

struct got {
	struct cls *c;
	size_t nr, alloc;
	char *first_dep_to;	/* of the first class with dependencies */
	unsigned long long first_dep_key;
	int stop_at;		/* class number whose callback returns 7, or -1 */
};

static int on_class(const struct proc_lockdep_class *c, void *ctx)
{
	struct got *g = ctx;
	struct cls *k;

	if (g->nr == g->alloc) {
		g->alloc = g->alloc ? 2 * g->alloc : 64;
		g->c = realloc(g->c, g->alloc * sizeof(*g->c));
		assert_non_null(g->c);
	}
	k = &g->c[g->nr++];
	memset(k, 0, sizeof(*k));
	assert_int_equal(c->name[c->name_len], '\0');
	k->name = malloc(c->name_len + 1);
	memcpy(k->name, c->name, c->name_len + 1);
	k->name_len = c->name_len;
	k->class_len = c->class_len;
	if (c->usage) {
		assert_true(c->usage_len < sizeof(k->usage));
		memcpy(k->usage, c->usage, c->usage_len);
	}
	k->usage_bits = c->usage_bits;
	k->version = c->version;
	k->subclass = c->subclass;
	k->ops = c->ops;
	k->fd = c->fd;
	k->bd = c->bd;
	k->has_key = c->has_key;
	k->has_ops = c->has_ops;
	k->has_deps = c->has_deps;
	k->key = c->key;
	k->wait_outer = c->wait_outer;
	k->wait_inner = c->wait_inner;
	k->line = c->line;
	return g->stop_at == (int)g->nr ? 7 : 0;
}

static int on_dep(const struct proc_lockdep_class *from,
		  const struct proc_lockdep_dep *to, void *ctx)
{
	struct got *g = ctx;
	struct cls *k = &g->c[g->nr - 1];

	/* invariant (1): from is the class just delivered, unchanged */
	assert_int_equal(from->name_len, k->name_len);
	assert_memory_equal(from->name, k->name, k->name_len);
	assert_int_equal(from->line, k->line);
	assert_true(to->line > from->line);
	if (!g->first_dep_to) {
		g->first_dep_to = strndup(to->name, to->name_len);
		g->first_dep_key = to->key;
	}
	k->nr_deps++;
	return 0;
}

static const struct proc_lockdep_ops ops = { on_class, on_dep };

static int parse_file(const char *path, unsigned int flags, struct got *g,
		      struct proc_parse_stats *st)
{
	FILE *f = fopen(path, "r");
	int ret;

	assert_non_null(f);
	memset(g, 0, sizeof(*g));
	g->stop_at = -1;
	ret = proc_lockdep_parse(f, path, flags, &ops, g, st);
	fclose(f);
	return ret;
}

static int parse_buf(const char *buf, size_t len, unsigned int flags,
		     struct got *g, struct proc_parse_stats *st)
{
	FILE *f = fmemopen((void *)buf, len, "r");
	int ret;

	assert_non_null(f);
	if (!g->stop_at)
		g->stop_at = -1;
	ret = proc_lockdep_parse(f, "mem", flags | PROC_PARSE_QUIET, &ops, g,
				 st);
	fclose(f);
	return ret;
}

static void release(struct got *g)
{
	size_t i;

	for (i = 0; i < g->nr; i++)
		free(g->c[i].name);
	free(g->c);
	free(g->first_dep_to);
	memset(g, 0, sizeof(*g));
}

static const struct cls *find(const struct got *g, const char *name)
{
	size_t i;

	for (i = 0; i < g->nr; i++)
		if (!strcmp(g->c[i].name, name))
			return &g->c[i];
	fail_msg("no class '%s'", name);
	return NULL;
}

struct stat_pick {
	const char *label;
	unsigned long long value;
};

static int pick_stat(const struct proc_lockdep_stat *s, void *ctx)
{
	struct stat_pick *p = ctx;

	if (!strcmp(s->label, p->label))
		p->value = s->value;
	return 0;
}

static void test_real_6_1(void **state)
{
	struct stat_pick classes = { "lock-classes", 0 };
	struct proc_stats_ops sops = { pick_stat, NULL };
	struct proc_parse_stats st;
	const struct cls *c;
	size_t i, deps = 0;
	struct got g;
	FILE *f;

	(void)state;
	assert_int_equal(parse_file(FIX "6.1/lockdep", 0, &g, &st), 0);
	assert_int_equal(st.bad, 0);
	assert_int_equal(st.notes, PROC_NOTE_HEADER);
	/* every class the kernel counted is there */
	f = fopen(FIX "6.1/lockdep_stats", "r");
	assert_non_null(f);
	assert_int_equal(proc_stats_parse(f, "stats", 0, &sops, &classes,
					  NULL), 0);
	fclose(f);
	assert_int_equal(g.nr, classes.value);
	for (i = 0; i < g.nr; i++) {
		c = &g.c[i];
		assert_true(c->has_deps);
		assert_false(c->has_ops);
		assert_false(c->has_key);	/* (____ptrval____) */
		assert_int_equal(strlen(c->usage), 4);
		assert_int_equal(c->wait_outer, -1);
		/* FD counts the class itself and every class after it */
		assert_true((size_t)c->fd >= c->nr_deps + 1);
		deps += c->nr_deps;
	}
	assert_int_equal(st.records, g.nr + deps);
	c = find(&g, "(console_sem).lock");
	assert_int_equal(c->fd, 1);
	assert_int_equal(c->bd, 15);
	assert_int_equal(c->usage_bits, 0);
	c = find(&g, "console_lock");
	assert_string_equal(c->usage, "+.+.");
	assert_int_equal(c->usage_bits, LDR_USAGE_ON(LDR_HARDIRQ) |
					LDR_USAGE_ON(LDR_SOFTIRQ));
	assert_int_equal(c->nr_deps, 10);
	assert_string_equal(g.first_dep_to, "resource_lock");
	release(&g);
}

static void test_2_6_17(void **state)
{
	struct proc_parse_stats st;
	const struct cls *c;
	struct got g;

	(void)state;
	assert_int_equal(parse_file(FIX "old/lockdep-2.6.17",
				    PROC_PARSE_LEGACY_USAGE, &g, &st), 0);
	assert_int_equal(st.bad, 0);
	assert_int_equal(st.notes, 0);	/* no header, not truncated */
	assert_int_equal(g.nr, 5);
	c = &g.c[0];
	assert_true(c->has_key && c->has_ops && c->has_deps);
	assert_int_equal(c->key, 0xc03a1f40);
	assert_int_equal(c->ops, 312);
	/* old order: hardirq, softirq, hardirq-read, softirq-read; '+' = in */
	assert_int_equal(c->usage_bits, LDR_USAGE_IN(LDR_HARDIRQ) |
					LDR_USAGE_ON(LDR_SOFTIRQ));
	c = find(&g, "&q->lock/1");
	assert_int_equal(c->subclass, 1);
	assert_int_equal(c->class_len, strlen("&q->lock"));
	c = find(&g, "rtc_lock");
	assert_int_equal(c->usage_bits, LDR_USAGE_IN(LDR_HARDIRQ) |
					LDR_USAGE_ON(LDR_HARDIRQ));
	release(&g);
}

static void test_2_6_27_and_3_10(void **state)
{
	struct proc_parse_stats st;
	const struct cls *c;
	struct got g;

	(void)state;
	assert_int_equal(parse_file(FIX "old/lockdep-2.6.27",
				    PROC_PARSE_LEGACY_USAGE, &g, &st), 0);
	assert_int_equal(st.bad, 0);
	assert_int_equal(st.notes, PROC_NOTE_HEADER);
	assert_int_equal(g.nr, 3);
	assert_int_equal(st.records, 6);
	c = find(&g, "&type->s_umount_key#15");
	assert_int_equal(c->version, 15);
	assert_int_equal(c->class_len, strlen("&type->s_umount_key"));
	assert_int_equal(c->nr_deps, 2);
	assert_int_equal(c->key, 0xffffffff80682f30ULL);
	assert_string_equal(g.first_dep_to, "sb_lock");
	assert_int_equal(g.first_dep_key, 0xffffffff8065e6c8ULL);
	c = find(&g, "&ifa->lock");
	assert_int_equal(c->usage_bits,
			 LDR_USAGE_IN(LDR_HARDIRQ) | LDR_USAGE_ON(LDR_SOFTIRQ) |
			 LDR_USAGE_IN_READ(LDR_HARDIRQ) |
			 LDR_USAGE_ON_READ(LDR_HARDIRQ) |
			 LDR_USAGE_ON_READ(LDR_SOFTIRQ));
	release(&g);

	assert_int_equal(parse_file(FIX "old/lockdep-3.10", 0, &g, &st), 0);
	assert_int_equal(st.bad, 0);
	assert_int_equal(g.nr, 3);
	c = find(&g, "css_set_lock");
	assert_string_equal(c->usage, "-.-...");
	assert_int_equal(c->usage_bits, LDR_USAGE_IN(LDR_HARDIRQ) |
					LDR_USAGE_IN(LDR_SOFTIRQ));
	c = find(&g, "cgroup_mutex");
	assert_int_equal(c->usage_bits, LDR_USAGE_ON(LDR_HARDIRQ) |
			 LDR_USAGE_ON(LDR_SOFTIRQ) |
			 LDR_USAGE_ON(LDR_RECLAIM_FS));
	c = find(&g, "&sb->s_type->i_mutex_key#2/1");
	assert_int_equal(c->version, 2);
	assert_int_equal(c->subclass, 1);
	release(&g);

	assert_int_equal(parse_file(FIX "old/lockdep-noprove-4.9", 0, &g,
				    &st), 0);
	assert_int_equal(st.bad, 0);
	assert_int_equal(g.nr, 2);
	assert_false(g.c[0].has_deps);
	assert_string_equal(g.c[0].usage, "");
	assert_string_equal(g.c[1].name, "(null)");
	release(&g);
}

static void test_hostile_names(void **state)
{
	static const char in[] =
		"0000000012345678 FD:    1 BD:    1 ....: a\"b'c\\d: e\x01\x1b[31m\t\n"
		"\n"
		"00000000abcdef01 FD:    2 BD:    1 -.-.-{2:3}: x\0y\n"
		" -> [0000000012345678] a\"b'c\\d: e\x01\x1b[31m\t\n"
		"\n";
	static char longer[20100];
	struct proc_parse_stats st;
	struct got g = { 0 };
	size_t n;

	(void)state;
	assert_int_equal(parse_buf(in, sizeof(in) - 1, 0, &g, &st), 0);
	assert_int_equal(st.bad, 0);
	assert_int_equal(g.nr, 2);
	assert_string_equal(g.c[0].name, "a\"b'c\\d: e\x01\x1b[31m\t");
	assert_int_equal(g.c[1].name_len, 3);
	assert_memory_equal(g.c[1].name, "x\0y", 3);
	assert_int_equal(g.c[1].wait_outer, 2);
	assert_int_equal(g.c[1].wait_inner, 3);
	assert_string_equal(g.c[1].usage, "-.-.");
	assert_string_equal(g.first_dep_to, "a\"b'c\\d: e\x01\x1b[31m\t");
	release(&g);

	n = snprintf(longer, sizeof(longer), "ffff FD: 1 BD: 1 ....: ");
	memset(longer + n, 'L', 20000);
	longer[n + 20000] = '\n';
	assert_int_equal(parse_buf(longer, n + 20001, 0, &g, &st), 0);
	assert_int_equal(g.nr, 1);
	assert_int_equal(g.c[0].name_len, 20000);
	release(&g);
}

static void test_garbage(void **state)
{
	static const char in[] =
		" -> [00000000deadbeef] orphan\n"		/* 1: no class */
		"zzzz FD: 1 BD: 1 ....: bad key\n"		/* 2 */
		"00000000 FD: x BD: 1 ....: bad fd\n"		/* 3 */
		"00000000 FD: 1 BD: 1 ....:\n"			/* 4: no name */
		"00000000 FD: 1 BD: 1 .... name without colon\n"/* 5 */
		"00000000 FD: 1 BD: 1 ..-{9: name\n"		/* 6: bad wait */
		"   indented junk\n"				/* 7 */
		"00000000 FD: 1 BD: 1 ....: good\n"		/* 8 */
		" -> [zz] bad dep\n"				/* 9 */
		" -> [00000001] \n"				/* 10 */
		" -> [00000001] fine\n"				/* 11 */
		"\n"
		"00000000 FD: 99999999999999999999 BD: 1 ....: overflow\n";
	struct proc_parse_stats st;
	struct got g = { 0 };

	(void)state;
	assert_int_equal(parse_buf(in, sizeof(in) - 1, 0, &g, &st), 0);
	assert_int_equal(g.nr, 1);
	assert_string_equal(g.c[0].name, "good");
	assert_int_equal(g.c[0].nr_deps, 1);
	assert_int_equal(st.bad, 10);
	assert_int_equal(st.lines, 13);
	assert_int_equal(st.records, 2);
	release(&g);
}

static void test_stop_and_truncated(void **state)
{
	static const char in[] =
		"all lock classes:\n"
		"00000001 FD: 2 BD: 1 ....: a\n"
		" -> [00000002] b\n"
		"\n"
		"00000002 FD: 2 BD: 1 ....: b\n"
		" -> [00000003] c\n";
	struct proc_parse_stats st;
	struct got g = { 0 };

	(void)state;
	assert_int_equal(parse_buf(in, sizeof(in) - 1, 0, &g, &st), 0);
	assert_int_equal(st.notes, PROC_NOTE_HEADER | PROC_NOTE_TRUNCATED);
	release(&g);
	g.stop_at = 1;
	assert_int_equal(parse_buf(in, sizeof(in) - 1, 0, &g, &st), 7);
	assert_int_equal(g.nr, 1);
	assert_int_equal(g.c[0].nr_deps, 0);
	release(&g);
	/* no callbacks at all: counted, dropped */
	{
		FILE *f = fmemopen((void *)in, sizeof(in) - 1, "r");

		assert_int_equal(proc_lockdep_parse(f, "mem", 0, NULL, NULL,
						    &st), 0);
		assert_int_equal(st.records, 4);
		fclose(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_6_1),
		cmocka_unit_test(test_2_6_17),
		cmocka_unit_test(test_2_6_27_and_3_10),
		cmocka_unit_test(test_hostile_names),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_stop_and_truncated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
