/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lockdep-collect's sources. Each one fills a collect_summary and pushes
 * what it gets into a sink; today there is one, the guest agent.
 */
#ifndef LDT_COLLECT_H
#define LDT_COLLECT_H

#include <stdbool.h>
#include <stdint.h>

#include "collect/sink.h"
#include "collect/summary.h"
#include "util/cli.h"

struct collect_agent_opts {
	const char *socket_path;
	int timeout_s;		/* connect + handshake, and each reply */
	bool poweroff;
	/* after the triggers, stream the kernel log (KMSG follow) */
	bool follow;
	int duration_s;		/* ... for this long; 0: until the guest goes */
	const char *console;	/* the guest's console log, or NULL */
	int run_timeout_s;	/* how long the workload (--run) may take */
};

/* One short progress line on stderr, with the seconds since @t0_ms. */
void collect_progress(int64_t t0_ms, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Fetch everything from the agent: HELLO, LIST, READ of every offered
 * allow-listed file, a KMSG dump, each trigger in @sum (with a KMSG dump
 * after it), the workload named in @sum (RUN, then a KMSG follow until it
 * ends), a KMSG follow if asked (a guest that powers off ends it
 * without error, and then no POWEROFF is sent), and POWEROFF if asked. Returns 0 when the run went as far as
 * it could (@sum says how complete it is), EXIT_PARTIAL when the
 * power-off asked for did not happen either, or EXIT_FATAL when
 * nothing could be collected or saving failed; errors are printed.
 */
int collect_from_agent(const struct collect_agent_opts *o,
		       struct collect_summary *sum, struct collect_sink *sink);

#endif
