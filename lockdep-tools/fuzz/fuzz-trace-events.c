// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness of the dependency event parser (src/parse/trace-events.h). */
#include "fuzz.h"
#include "parse/trace-events.h"

static int on_event(const struct trace_event *ev, void *ctx)
{
	unsigned long *events = ctx;

	FUZZ_CHECK(ev->kind <= TRACE_EVENT_CLASS_ZAPPED);
	FUZZ_CHECK(ev->class < TRACE_EVENTS_MAX_CLASS);
	FUZZ_CHECK(ev->to < TRACE_EVENTS_MAX_CLASS && ev->dep < 16 &&
		   ev->bit < 64);
	FUZZ_CHECK(ev->kind == TRACE_EVENT_DEPENDENCY ||
		   (!ev->to && !ev->dep && !ev->distance));
	(*events)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace_events_stats st;
	unsigned long events = 0;
	int ret;

	ret = trace_events_parse((const char *)data, size, NULL, on_event,
				 &events, &st);
	FUZZ_CHECK(ret == 0 || ret == -1);
	FUZZ_CHECK(st.events == events);
	FUZZ_CHECK(st.events + st.other <= st.lines);
	FUZZ_CHECK(ret == -1 || size == 0 || data[size - 1] == '\n');
	return 0;
}
