/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parser of the lockdep dependency events as tracefs' trace_pipe prints
 * them (kernel-patches/ 0009, include/trace/events/lock.h), one a line:
 *
 *   kworker/0:1-12      [000] d..2.     1.234567: lockdep_dependency: from=3 to=7 dep=0xf distance=1 trace=118
 *   kworker/0:1-12      [000] d..2.     1.234570: lockdep_usage: class=7 bit=8 trace=130
 *            rmmod-311  [001] d..1.    42.000001: lockdep_class_zapped: class=7
 *          insmod-312  [000] d..2.    42.100000: lockdep_class: class=7 key=0xffffffffc0002010 subclass=0 version=1 name=&(&sb->s_type->i_lock_key)->rlock
 *   CPU:1 [LOST 12 EVENTS]
 *
 * The task name is right-aligned in 16 columns (the kernel's "%16s-%-7d",
 * a name is at most 15 bytes), so the '-' before the pid is column 16;
 * the irq-info column between the CPU and the time is optional. The time
 * is the trace clock's (the default "local": nanoseconds since boot,
 * printed as seconds and microseconds).
 *
 * Invariants:
 *  (1) A line of one of the four events gives exactly one callback, in
 *      line order, with every field checked against its bound: class
 *      indices below TRACE_EVENTS_MAX_CLASS, dep bits below 16, usage
 *      bits below 64, distance, trace ids and subclass within 32 bits,
 *      a key of at most 16 hex digits, a name version within an int,
 *      and time within 64 bits of microseconds. A class's name is the
 *      rest of its line (the kernel prints it last, blanks and all):
 *      1 to TRACE_EVENTS_MAX_NAME bytes, no NUL; it points into the
 *      caller's buffer.
 *  (2) A LOST line adds its count to st->lost; a line of any other
 *      event or tracer (the pipe is shared: a trace_marker write, the
 *      function tracer's "FUNC <-CALLER") is counted in st->other.
 *  (3) A line not of that shape (the second line of a multi-line
 *      trace_marker write, anything else) is counted in st->unknown,
 *      the first one's number in st->first_unknown: a workload's use
 *      of the trace buffer must not cost the events around it.
 *  (4) A lockdep event's line with a field out of shape or bound, or a
 *      last line without its '\n', is malformed: trace_events_parse()
 *      says so with the input's name and the line number and returns -1
 *      at once, so a caller stores nothing of it.
 */
#ifndef PARSE_TRACE_EVENTS_H
#define PARSE_TRACE_EVENTS_H

#include <stddef.h>
#include <stdint.h>

/* lock_classes[] is indexed by 16 bits in the graph export too. */
#define TRACE_EVENTS_MAX_CLASS	65536u
/* An event fits in a page of the kernel's ring buffer: so does a name. */
#define TRACE_EVENTS_MAX_NAME	4096u

enum trace_event_kind {
	TRACE_EVENT_DEPENDENCY,
	TRACE_EVENT_USAGE,
	TRACE_EVENT_CLASS_ZAPPED,
	/* a class registered (the v3 series on) */
	TRACE_EVENT_CLASS,
};
#define TRACE_EVENT_KINDS	4

struct trace_event {
	enum trace_event_kind kind;
	uint64_t time_us;	/* boot-relative */
	unsigned int cpu;
	uint32_t class;		/* the "from" class of a dependency */
	uint32_t to;		/* dependency only */
	uint32_t dep;		/* dependency only */
	uint32_t distance;	/* dependency only */
	uint32_t bit;		/* usage only */
	uint32_t trace;		/* dependency and usage */
	/* class only: as lockdep_graph's class record has them */
	uint64_t key;
	uint32_t subclass;
	int32_t name_version;
	const char *name;	/* not NUL-terminated: name_len bytes */
	size_t name_len;
	unsigned long line;
};

struct trace_events_stats {
	unsigned long lines, events, other;
	unsigned long unknown, first_unknown;
	uint64_t lost;
};

enum trace_line {
	TRACE_LINE_EVENT,	/* *ev filled in */
	TRACE_LINE_LOST,	/* *lost filled in */
	TRACE_LINE_OTHER,	/* another event's line */
	TRACE_LINE_UNKNOWN,	/* not a trace_pipe event line */
	TRACE_LINE_BAD = -1,	/* a lockdep event's; *why says what is wrong */
};

/* One line without its '\n'; returns enum trace_line. */
int trace_events_line(const char *line, size_t len, struct trace_event *ev,
		      uint64_t *lost, const char **why);

typedef int (*trace_event_fn)(const struct trace_event *ev, void *data);

/*
 * Every line of buf[0..len) in order; @fn's non-zero return stops the
 * parse and is returned. Returns 0, or -1 after an error naming @input
 * and the line (said nowhere for a NULL @input).
 */
int trace_events_parse(const char *buf, size_t len, const char *input,
		       trace_event_fn fn, void *data,
		       struct trace_events_stats *st);

#endif
