// SPDX-License-Identifier: GPL-2.0
/*
 * The lockdep dependency events of trace_pipe (trace-events.h). Every
 * number is scanned by hand with its bound: the text comes from the
 * guest.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "parse/trace-events.h"
#include "util/error.h"
#include "util/line-reader.h"

/* The column of the '-' between the task name and the pid. */
#define COMM_WIDTH	16

struct scan {
	const char *p, *end;
};

static bool eat(struct scan *s, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, lit, n))
		return false;
	s->p += n;
	return true;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static void skip_spaces(struct scan *s)
{
	while (s->p < s->end && *s->p == ' ')
		s->p++;
}

/* Decimal digits, at least one, the value at most @max. */
static bool eat_dec(struct scan *s, uint64_t max, uint64_t *v)
{
	uint64_t n = 0;
	const char *start = s->p;

	while (s->p < s->end && is_digit(*s->p)) {
		if (n > (max - (uint64_t)(*s->p - '0')) / 10)
			return false;
		n = n * 10 + (uint64_t)(*s->p++ - '0');
	}
	*v = n;
	return s->p > start;
}

/* "0x" and 1..@digits hex digits, at most @max. */
static bool eat_hex(struct scan *s, int digits, uint64_t max, uint64_t *v)
{
	const char *start;
	uint64_t n = 0;
	int d;

	if (!eat(s, "0x"))
		return false;
	start = s->p;
	while (s->p < s->end && s->p - start < digits) {
		d = is_digit(*s->p) ? *s->p - '0' :
		    *s->p >= 'a' && *s->p <= 'f' ? *s->p - 'a' + 10 : -1;
		if (d < 0)
			break;
		n = n * 16 + (uint64_t)d;
		s->p++;
	}
	*v = n;
	return s->p > start && n <= max;
}

/* " key=VALUE" (the first field has no blank before it) */
static bool field(struct scan *s, const char *key, bool first, bool hex,
		  uint64_t max, uint32_t *out)
{
	uint64_t v;

	if (!first && !eat(s, " "))
		return false;
	if (!eat(s, key) || !eat(s, "="))
		return false;
	if (!(hex ? eat_hex(s, 8, max, &v) : eat_dec(s, max, &v)))
		return false;
	*out = (uint32_t)v;
	return true;
}

/*
 * lockdep_class's " key=0x%lx subclass=%u version=%d name=%s" after its
 * class field: the key at 64 bits, the version an int that may be
 * negative, the name the rest of the line.
 */
static bool class_fields(struct scan *s, struct trace_event *ev)
{
	uint64_t v;
	bool neg;

	if (!eat(s, " key=") || !eat_hex(s, 16, UINT64_MAX, &ev->key) ||
	    !field(s, "subclass", false, false, UINT32_MAX, &ev->subclass) ||
	    !eat(s, " version="))
		return false;
	neg = eat(s, "-");
	if (!eat_dec(s, neg ? (uint64_t)INT32_MAX + 1 : INT32_MAX, &v))
		return false;
	ev->name_version = neg ? (int32_t)(-(int64_t)v) : (int32_t)v;
	if (!eat(s, " name=") || s->p == s->end ||
	    (size_t)(s->end - s->p) > TRACE_EVENTS_MAX_NAME)
		return false;
	ev->name = s->p;
	ev->name_len = (size_t)(s->end - s->p);
	s->p = s->end;
	return true;
}

static int bad(const char **why, const char *what)
{
	*why = what;
	return TRACE_LINE_BAD;
}

/* "CPU:N [LOST M EVENTS]" */
static int lost_line(struct scan *s, uint64_t *lost)
{
	uint64_t cpu;

	if (!eat_dec(s, UINT32_MAX, &cpu) || !eat(s, " [LOST ") ||
	    !eat_dec(s, UINT64_MAX, lost) || !eat(s, " EVENTS]") ||
	    s->p != s->end)
		return TRACE_LINE_UNKNOWN;
	return TRACE_LINE_LOST;
}

/* "SECONDS.MICROSECONDS: " */
static bool timestamp(struct scan *s, uint64_t *us)
{
	uint64_t sec, usec;
	const char *frac;

	if (!eat_dec(s, UINT64_MAX / 1000000 - 1, &sec) || !eat(s, "."))
		return false;
	frac = s->p;
	if (!eat_dec(s, 999999, &usec) || s->p - frac != 6 || !eat(s, ": "))
		return false;
	*us = sec * 1000000 + usec;
	return true;
}

static int fields(struct scan *s, struct trace_event *ev, const char **why)
{
	bool ok;

	switch (ev->kind) {
	case TRACE_EVENT_DEPENDENCY:
		ok = field(s, "from", true, false, TRACE_EVENTS_MAX_CLASS - 1,
			   &ev->class) &&
		     field(s, "to", false, false, TRACE_EVENTS_MAX_CLASS - 1,
			   &ev->to) &&
		     field(s, "dep", false, true, 15, &ev->dep) &&
		     field(s, "distance", false, false, UINT32_MAX,
			   &ev->distance) &&
		     field(s, "trace", false, false, UINT32_MAX, &ev->trace);
		if (!ok)
			return bad(why, "expected 'from=N to=N dep=0xN distance=N trace=N' with class indices below 65536 and dep below 0x10");
		break;
	case TRACE_EVENT_USAGE:
		ok = field(s, "class", true, false, TRACE_EVENTS_MAX_CLASS - 1,
			   &ev->class) &&
		     field(s, "bit", false, false, 63, &ev->bit) &&
		     field(s, "trace", false, false, UINT32_MAX, &ev->trace);
		if (!ok)
			return bad(why, "expected 'class=N bit=N trace=N' with a class index below 65536 and a bit below 64");
		break;
	case TRACE_EVENT_CLASS_ZAPPED:
		if (!field(s, "class", true, false, TRACE_EVENTS_MAX_CLASS - 1,
			   &ev->class))
			return bad(why, "expected 'class=N' with a class index below 65536");
		break;
	case TRACE_EVENT_CLASS:
		if (!field(s, "class", true, false, TRACE_EVENTS_MAX_CLASS - 1,
			   &ev->class) || !class_fields(s, ev))
			return bad(why, "expected 'class=N key=0xN subclass=N version=N name=NAME' with a class index below 65536 and a name of 1-4096 bytes");
		break;
	}
	if (s->p != s->end)
		return bad(why, "unexpected text after the event's fields");
	return TRACE_LINE_EVENT;
}

int trace_events_line(const char *line, size_t len, struct trace_event *ev,
		      uint64_t *lost, const char **why)
{
	static const struct { const char *name; enum trace_event_kind kind; }
	names[] = {
		{ "lockdep_dependency: ", TRACE_EVENT_DEPENDENCY },
		{ "lockdep_usage: ", TRACE_EVENT_USAGE },
		{ "lockdep_class_zapped: ", TRACE_EVENT_CLASS_ZAPPED },
		{ "lockdep_class: ", TRACE_EVENT_CLASS },
	};
	struct scan s = { line, line + len };
	uint64_t v;
	size_t i;

	*why = NULL;
	if (eat(&s, "CPU:") && lost_line(&s, lost) == TRACE_LINE_LOST)
		return TRACE_LINE_LOST;
	/* the text of a multi-line trace_marker write, or anything else */
	if (len <= COMM_WIDTH || line[COMM_WIDTH] != '-' ||
	    memchr(line, '\0', len))
		return TRACE_LINE_UNKNOWN;
	s.p = line + COMM_WIDTH + 1;
	memset(ev, 0, sizeof(*ev));
	if (!eat_dec(&s, UINT32_MAX, &v))
		return TRACE_LINE_UNKNOWN;
	skip_spaces(&s);
	if (!eat(&s, "[") || !eat_dec(&s, UINT32_MAX, &v) || !eat(&s, "] "))
		return TRACE_LINE_UNKNOWN;
	ev->cpu = (unsigned int)v;
	/* the irq-info column, when the trace option prints it */
	if (s.p < s.end && !is_digit(*s.p)) {
		while (s.p < s.end && *s.p != ' ')
			s.p++;
	}
	skip_spaces(&s);
	if (!timestamp(&s, &ev->time_us))
		return TRACE_LINE_UNKNOWN;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (eat(&s, names[i].name)) {
			ev->kind = names[i].kind;
			return fields(&s, ev, why);
		}
	}
	/* another event's "NAME: ", or the function tracer's "FUNC <-CALLER" */
	return TRACE_LINE_OTHER;
}

/* error() naming @input and the line, or nothing for a NULL @input */
__attribute__((format(printf, 3, 4)))
static int bad_line(const char *input, unsigned long line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (!input)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return error("%s:%lu: %s", input, line, msg);
}

int trace_events_parse(const char *buf, size_t len, const char *input,
		       trace_event_fn fn, void *data,
		       struct trace_events_stats *st)
{
	const char *p = buf, *end = buf + len, *nl, *why;
	struct trace_event ev;
	uint64_t lost;
	int ret;

	memset(st, 0, sizeof(*st));
	while (p < end) {
		st->lines++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return bad_line(input, st->lines,
					"the last line has no end: the stream was cut");
		if ((size_t)(nl - p) > LINE_READER_MAX)
			return bad_line(input, st->lines,
					"a line longer than 1 MiB");
		switch (trace_events_line(p, (size_t)(nl - p), &ev, &lost,
					  &why)) {
		case TRACE_LINE_EVENT:
			ev.line = st->lines;
			st->events++;
			ret = fn(&ev, data);
			if (ret)
				return ret;
			break;
		case TRACE_LINE_LOST:
			if (__builtin_add_overflow(st->lost, lost, &st->lost))
				return bad_line(input, st->lines,
						"more lost events than 64 bits count");
			break;
		case TRACE_LINE_OTHER:
			st->other++;
			break;
		case TRACE_LINE_UNKNOWN:
			if (!st->unknown++)
				st->first_unknown = st->lines;
			break;
		default:
			return bad_line(input, st->lines,
					"malformed dependency event: %s", why);
		}
		p = nl + 1;
	}
	return 0;
}
