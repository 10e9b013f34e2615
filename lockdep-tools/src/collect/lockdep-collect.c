// SPDX-License-Identifier: GPL-2.0
/*
 * lockdep-collect: pull a guest's lockdep state through its agent and
 * save it raw (lockdep-collect(1)).
 */
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/collect.h"
#include "proto/message.h"

#define DEFAULT_TIMEOUT_S	120

static const char usage_text[] =
	"usage: lockdep-collect --socket PATH --raw-dir DIR [--timeout SECONDS]\n"
	"                       [--poweroff] [--trigger NAME]...\n"
	"\n"
	"    --socket PATH      UNIX socket of the agent's virtio port (QEMU chardev)\n"
	"    --raw-dir DIR      save the files, kmsg and MANIFEST into DIR\n"
	"    --timeout SECONDS  wait at most this for the agent to answer HELLO,\n"
	"                       and for each reply after it (default 120)\n"
	"    --poweroff         power the guest off at the end\n"
	"    --trigger NAME     run scenario NAME after the first fetch (repeatable)\n"
	"    -h, --help         show this help\n"
	"\n"
	"Exit status: 0 everything collected, 1 partial (something incomplete,\n"
	"required but missing, a trigger or the power-off failed), 2 fatal\n"
	"error, 64 usage.\n";

static int usage_error(const char *fmt, const char *arg)
{
	fputs("lockdep-collect: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\n", stderr);
	fputs(usage_text, stderr);
	return COLLECT_EXIT_USAGE;
}

static int parse_timeout(const char *arg, int *out)
{
	char *end;
	long v;

	v = strtol(arg, &end, 10);
	if (end == arg || *end || v <= 0 || v > INT_MAX / 1000)
		return -1;
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "socket",	required_argument,	NULL, 's' },
		{ "raw-dir",	required_argument,	NULL, 'r' },
		{ "timeout",	required_argument,	NULL, 't' },
		{ "poweroff",	no_argument,		NULL, 'p' },
		{ "trigger",	required_argument,	NULL, 'T' },
		{ "help",	no_argument,		NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct collect_agent_opts o = { .timeout_s = DEFAULT_TIMEOUT_S };
	struct collect_summary sum;
	struct collect_sink *sink;
	const char **triggers;
	const char *raw_dir = NULL;
	size_t ntriggers = 0;
	int opt, ret, fin;

	triggers = calloc(argc, sizeof(*triggers));
	if (!triggers) {
		fputs("lockdep-collect: error: out of memory\n", stderr);
		return COLLECT_EXIT_FATAL;
	}
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 's':
			o.socket_path = optarg;
			break;
		case 'r':
			raw_dir = optarg;
			break;
		case 't':
			if (parse_timeout(optarg, &o.timeout_s))
				return usage_error("invalid --timeout '%s': expected a positive number of seconds",
						   optarg);
			break;
		case 'p':
			o.poweroff = true;
			break;
		case 'T':
			if (!proto_scenario_valid(optarg, strlen(optarg)))
				return usage_error("invalid --trigger '%s': expected 1-64 characters of [a-z0-9_-]",
						   optarg);
			triggers[ntriggers++] = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return COLLECT_EXIT_OK;
		default:
			fputs(usage_text, stderr);
			return COLLECT_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	if (!o.socket_path || !*o.socket_path)
		return usage_error("%s", "--socket PATH is required");
	if (!raw_dir || !*raw_dir)
		return usage_error("%s", "--raw-dir DIR is required");

	/* a guest that vanishes must show up as EPIPE, not kill us */
	signal(SIGPIPE, SIG_IGN);
	if (collect_summary_init(&sum, triggers, ntriggers)) {
		fputs("lockdep-collect: error: out of memory\n", stderr);
		return COLLECT_EXIT_FATAL;
	}
	sink = raw_sink_new(raw_dir);
	if (!sink) {
		collect_summary_release(&sum);
		return COLLECT_EXIT_FATAL;
	}
	ret = collect_from_agent(&o, &sum, sink);
	fin = sink->ops->finish(sink, &sum);
	sink->ops->free(sink);
	if (fin)
		ret = COLLECT_EXIT_FATAL;
	else if (!ret)
		ret = collect_summary_exit_status(&sum);
	if (ret == COLLECT_EXIT_PARTIAL)
		fprintf(stderr,
			"lockdep-collect: collection is partial, see '%s/MANIFEST'\n",
			raw_dir);
	collect_summary_release(&sum);
	free(triggers);
	return ret;
}
