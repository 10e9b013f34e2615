// SPDX-License-Identifier: GPL-2.0
/*
 * The trace_pipe parser of the lockdep dependency events: each event's
 * fields, the optional irq-info column, task names with blanks and
 * dashes, LOST lines, other events, a class's name with blanks and
 * hostile bytes, and every bound and malformation
 * refused with the line's number; then the stream captured from our
 * guest (fixtures/6.1/events).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/trace-events.h"

#define FIX "tests/fixtures/6.1/"

static int line(const char *text, struct trace_event *ev, uint64_t *lost)
{
	const char *why = NULL;
	int ret = trace_events_line(text, strlen(text), ev, lost, &why);

	assert_true((ret == TRACE_LINE_BAD) == (why != NULL));
	return ret;
}

static void test_dependency(void **state)
{
	struct trace_event ev;
	uint64_t lost;

	(void)state;
	assert_int_equal(line("     kworker/0:1-12      [000] d..2.     1.234567: lockdep_dependency: from=3 to=7 dep=0xf distance=1 trace=118",
			      &ev, &lost), TRACE_LINE_EVENT);
	assert_int_equal(ev.kind, TRACE_EVENT_DEPENDENCY);
	assert_int_equal(ev.time_us, 1234567);
	assert_int_equal(ev.cpu, 0);
	assert_int_equal(ev.class, 3);
	assert_int_equal(ev.to, 7);
	assert_int_equal(ev.dep, 15);
	assert_int_equal(ev.distance, 1);
	assert_int_equal(ev.trace, 118);
}

static void test_usage_and_zap(void **state)
{
	struct trace_event ev;
	uint64_t lost;

	(void)state;
	/* no irq-info column; a task name with a blank and a dash */
	assert_int_equal(line("     my task-x-a-4242    [013]  12345.000009: lockdep_usage: class=65535 bit=63 trace=4294967295",
			      &ev, &lost), TRACE_LINE_EVENT);
	assert_int_equal(ev.kind, TRACE_EVENT_USAGE);
	assert_int_equal(ev.time_us, 12345000009ull);
	assert_int_equal(ev.cpu, 13);
	assert_int_equal(ev.class, 65535);
	assert_int_equal(ev.bit, 63);
	assert_int_equal(ev.trace, 4294967295u);
	assert_int_equal(line("           <...>-311     [001] d..1.    42.000001: lockdep_class_zapped: class=7",
			      &ev, &lost), TRACE_LINE_EVENT);
	assert_int_equal(ev.kind, TRACE_EVENT_CLASS_ZAPPED);
	assert_int_equal(ev.class, 7);
}

/* lockdep_class: its fields, the name the rest of the line, as it is */
static void test_class(void **state)
{
	static const char hostile[] =
		"     kworker/0:1-12      [001] d..2.     1.000002: lockdep_class: class=65535 key=0x0 subclass=4294967295 version=-2147483648 name= name=\x1b[31m class=1 \xff";
	struct trace_event ev;
	uint64_t lost;

	(void)state;
	assert_int_equal(line("           mount-90      [000] d..2.     1.000001: lockdep_class: class=7 key=0xffffffffc0002010 subclass=1 version=2 name=&(&sb->s_type->i_lock_key)->rlock",
			      &ev, &lost), TRACE_LINE_EVENT);
	assert_int_equal(ev.kind, TRACE_EVENT_CLASS);
	assert_int_equal(ev.time_us, 1000001);
	assert_int_equal(ev.class, 7);
	assert_true(ev.key == 0xffffffffc0002010ull);
	assert_int_equal(ev.subclass, 1);
	assert_int_equal(ev.name_version, 2);
	assert_int_equal(ev.name_len, strlen("&(&sb->s_type->i_lock_key)->rlock"));
	assert_memory_equal(ev.name, "&(&sb->s_type->i_lock_key)->rlock",
			    ev.name_len);
	assert_int_equal(line("     kworker/0:1-12      [000] d..2.     1.000001: lockdep_class: class=0 key=0xffffffff82a1c8d0 subclass=0 version=1 name=(work_completion)(&w->work)",
			      &ev, &lost), TRACE_LINE_EVENT);
	assert_int_equal(ev.name_len, strlen("(work_completion)(&w->work)"));
	assert_memory_equal(ev.name, "(work_completion)(&w->work)", ev.name_len);
	/* every bound at its limit; the name holds what looks like fields */
	assert_int_equal(line(hostile, &ev, &lost), TRACE_LINE_EVENT);
	assert_int_equal(ev.class, 65535);
	assert_true(ev.key == 0);
	assert_int_equal(ev.subclass, 4294967295u);
	assert_int_equal(ev.name_version, INT32_MIN);
	assert_int_equal(ev.name_len, strlen(" name=\x1b[31m class=1 \xff"));
	assert_memory_equal(ev.name, " name=\x1b[31m class=1 \xff", ev.name_len);
}

/* A name fits in a ring buffer page: 4096 bytes, not one more. */
static void test_class_name_bound(void **state)
{
	static const char head[] =
		"     kworker/0:1-12      [000] d..2.     1.000001: lockdep_class: class=1 key=0x1 subclass=0 version=1 name=";
	const size_t n = sizeof(head) - 1;
	char buf[sizeof(head) + TRACE_EVENTS_MAX_NAME + 1];
	struct trace_event ev;
	uint64_t lost;
	const char *why;

	(void)state;
	memcpy(buf, head, n);
	memset(buf + n, 'a', TRACE_EVENTS_MAX_NAME + 1);
	assert_int_equal(trace_events_line(buf, n + TRACE_EVENTS_MAX_NAME, &ev,
					   &lost, &why), TRACE_LINE_EVENT);
	assert_int_equal(ev.name_len, TRACE_EVENTS_MAX_NAME);
	assert_int_equal(trace_events_line(buf, n + TRACE_EVENTS_MAX_NAME + 1,
					   &ev, &lost, &why), TRACE_LINE_BAD);
}

static void test_lost_and_other(void **state)
{
	struct trace_event ev;
	uint64_t lost = 0;

	(void)state;
	assert_int_equal(line("CPU:1 [LOST 12 EVENTS]", &ev, &lost),
			 TRACE_LINE_LOST);
	assert_int_equal(lost, 12);
	assert_int_equal(line("          <idle>-0       [001] d.h2.     3.000000: sched_waking: comm=x pid=1",
			      &ev, &lost), TRACE_LINE_OTHER);
}

static void test_refused(void **state)
{
	static const char *const bad[] = {
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_usage: class=65536 bit=1 trace=1",
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_usage: class=1 bit=64 trace=1",
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_usage: class=1 bit=1 trace=4294967296",
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_usage: class=1 bit=1 trace=1 x",
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_usage: class=1 bit=1",
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_usage: class=-1 bit=1 trace=1",
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_dependency: from=1 to=2 dep=0x10 distance=1 trace=1",
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_dependency: from=1 to=2 dep=3 distance=1 trace=1",
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_dependency: to=2 from=1 dep=0x3 distance=1 trace=1",
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_class_zapped: class=",
		/* lockdep_class: a name missing or empty, each field out of bound or order */
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_class: class=1 key=0x1 subclass=0 version=1 name=",
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_class: class=1 key=0x1 subclass=0 version=1",
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_class: class=1 key=0x1 subclass=0 version=1 x",
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_class: class=65536 key=0x1 subclass=0 version=1 name=a",
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_class: class=1 key=0x10000000000000000 subclass=0 version=1 name=a",
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_class: class=1 key=1 subclass=0 version=1 name=a",
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_class: class=1 key=0x1 subclass=4294967296 version=1 name=a",
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_class: class=1 key=0x1 subclass=0 version=2147483648 name=a",
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_class: class=1 key=0x1 subclass=0 version=-2147483649 name=a",
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_class: class=1 key=0x1 subclass=0 version=- name=a",
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_class: class=1 subclass=0 key=0x1 version=1 name=a",
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_class: class=1 key=0x1 subclass=0 name=a",
	};
	struct trace_event ev;
	uint64_t lost;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (line(bad[i], &ev, &lost) != TRACE_LINE_BAD)
			fail_msg("accepted: '%s'", bad[i]);
	}
}

/* Not a trace_pipe event line: kept as unknown, never an error. */
static void test_unknown(void **state)
{
	static const char *const unknown[] = {
		"",
		"garbage",
		"second line of a trace_marker write",
		"CPU:1 [LOST 12 EVENTS] and more",
		"CPU:1 [LOST 99999999999999999999 EVENTS]",
		/* the '-' not in column 16 */
		"kworker/0:1-12      [000] d..2.     1.234567: lockdep_usage: class=1 bit=1 trace=1",
		"     kworker/0:1-12      [000] d..2.     1.23456: lockdep_usage: class=1 bit=1 trace=1",
		"     kworker/0:1-12      [000] d..2.     1.234567 lockdep_usage: class=1 bit=1 trace=1",
		"     kworker/0:1-12      000] d..2.     1.234567: lockdep_usage: class=1 bit=1 trace=1",
		"     kworker/0:1-12      [000] d..2. 99999999999999999999.000000: lockdep_class_zapped: class=1",
	};
	struct trace_event ev;
	uint64_t lost;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		if (line(unknown[i], &ev, &lost) != TRACE_LINE_UNKNOWN)
			fail_msg("not unknown: '%s'", unknown[i]);
	}
	/* the function tracer's lines, and an event with no fields */
	assert_int_equal(line("          <idle>-0       [000] d..2.     1.234567: do_idle <-cpu_startup_entry",
			      &ev, &lost), TRACE_LINE_OTHER);
	assert_int_equal(line("     kworker/0:1-12      [000] d..2.     1.234567: : x",
			      &ev, &lost), TRACE_LINE_OTHER);
}

struct counts {
	unsigned long n[TRACE_EVENT_KINDS];
};

static int count(const struct trace_event *ev, void *data)
{
	struct counts *c = data;

	c->n[ev->kind]++;
	return 0;
}

static void test_parse_stops_at_bad_line(void **state)
{
	static const char text[] =
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_class_zapped: class=1\n"
		"CPU:0 [LOST 3 EVENTS]\n"
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_class_zapped: class=x\n"
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_class_zapped: class=2\n";
	struct trace_events_stats st;
	struct counts c = { { 0 } };

	(void)state;
	assert_int_equal(trace_events_parse(text, sizeof(text) - 1, "t", count,
					    &c, &st), -1);
	assert_int_equal(st.lines, 3);
	assert_int_equal(st.lost, 3);
	assert_int_equal(c.n[TRACE_EVENT_CLASS_ZAPPED], 1);
	/* a cut last line */
	assert_int_equal(trace_events_parse(text, 40, "t", count, &c, &st), -1);
	assert_int_equal(st.lines, 1);
}

/* A workload's trace lines among the events: counted, the events kept. */
static void test_parse_keeps_events_around_unknown(void **state)
{
	static const char text[] =
		"     kworker/0:1-12      [000] d..2.     1.234567: lockdep_class_zapped: class=1\n"
		"          <idle>-0       [000] d..2.     1.234568: do_idle <-cpu_startup_entry\n"
		"              sh-80      [000] .....     1.234569: tracing_mark_write: first line\n"
		"second line\n"
		"\n"
		"     kworker/0:1-12      [000] d..2.     1.234570: lockdep_class_zapped: class=2\n";
	struct trace_events_stats st;
	struct counts c = { { 0 } };

	(void)state;
	assert_int_equal(trace_events_parse(text, sizeof(text) - 1, "t", count,
					    &c, &st), 0);
	assert_int_equal(st.lines, 6);
	assert_int_equal(st.events, 2);
	assert_int_equal(st.other, 2);
	assert_int_equal(st.unknown, 2);
	assert_int_equal(st.first_unknown, 4);
	assert_int_equal(c.n[TRACE_EVENT_CLASS_ZAPPED], 2);
}

/* The stream captured from our guest (vm/regen-fixtures.sh): all of it. */
static void test_fixture(void **state)
{
	struct trace_events_stats st;
	struct counts c = { { 0 } };
	unsigned long lines = 0;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f;

	(void)state;
	f = fopen(FIX "events", "r");
	assert_non_null(f);
	buf = malloc(1 << 24);
	assert_non_null(buf);
	len = fread(buf, 1, 1 << 24, f);
	fclose(f);
	assert_true(len > 0 && len < (1 << 24));
	for (i = 0; i < len; i++)
		lines += buf[i] == '\n';
	assert_int_equal(trace_events_parse(buf, len, FIX "events", count, &c,
					    &st), 0);
	assert_int_equal(st.lines, lines);
	assert_int_equal(st.events, lines);
	assert_int_equal(st.lost, 0);
	assert_int_equal(st.other, 0);
	assert_true(c.n[TRACE_EVENT_DEPENDENCY] > 100);
	assert_true(c.n[TRACE_EVENT_USAGE] > 100);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dependency),
		cmocka_unit_test(test_usage_and_zap),
		cmocka_unit_test(test_class),
		cmocka_unit_test(test_class_name_bound),
		cmocka_unit_test(test_lost_and_other),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_parse_keeps_events_around_unknown),
		cmocka_unit_test(test_parse_stops_at_bad_line),
		cmocka_unit_test(test_fixture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
