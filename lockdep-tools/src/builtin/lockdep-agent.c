// SPDX-License-Identifier: GPL-2.0
/*
 * lockdep-agent: the guest side of the lockdep toolkit. Runs under the
 * initramfs /init, serves the host over a virtio-serial port (protocol in
 * lockdep-agent(8)) and exits 0 when the host asks for power-off.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "agent/agent.h"
#include "proto/allowlist.h"
#include "util/cli.h"

static const char usage_text[] =
	"usage: lockdep-agent [--port NAME | --listen PATH] [--workload FILE]\n"
	"                     [--sample-interval MS]\n"
	"\n"
	"    --port NAME      serve the virtio-serial port NAME (default "
	AGENT_DEFAULT_PORT ")\n"
	"    --listen PATH    serve hosts connecting to a UNIX socket at PATH\n"
	"                     instead (testing without a VM)\n"
	"    --workload FILE  what RUN runs (default " AGENT_WORKLOAD_PATH ")\n"
	"    --sample-interval MS\n"
	"                     read /proc/lockdep_stats every MS milliseconds into\n"
	"                     " PROTO_STATS_SERIES_PATH " (default 2000, 0: never)\n"
	"    -h, --help       show this help\n"
	"\n"
	"Exits 0 after POWEROFF, 2 on a fatal error, 64 on bad usage.\n";

/* Serve the virtio port: a host hang-up only means "wait for the next". */
static int agent_run_port(const char *name)
{
	const struct timespec pause = { .tv_nsec = 200 * 1000 * 1000 };
	struct proto_conn c;
	int fd, ret;

	for (;;) {
		fd = agent_port_open(name, AGENT_PORT_WAIT_S);
		if (fd < 0)
			return EXIT_FATAL;
		proto_conn_init(&c, fd);
		/*
		 * A disconnected port reads 0 and polls as POLLHUP at once,
		 * so pause between attempts instead of spinning.
		 */
		while ((ret = agent_serve(&c)) == AGENT_HANGUP) {
			nanosleep(&pause, NULL);
			agent_sample_service();
		}
		proto_conn_release(&c);
		/* closing discards whatever the host had queued */
		close(fd);
		if (ret == AGENT_POWEROFF)
			return EXIT_OK;
		if (ret < 0) {
			fprintf(stderr, "lockdep-agent: fatal: %s\n",
				strerror(-ret));
			return EXIT_FATAL;
		}
	}
}

/* Serve a listening socket, one host connection at a time. */
static int agent_run_listen(const char *path)
{
	struct proto_conn c;
	int lfd, fd, ret;

	lfd = agent_listen(path);
	if (lfd < 0)
		return EXIT_FATAL;
	for (;;) {
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "lockdep-agent: unable to accept on '%s': %s\n",
				path, strerror(errno));
			ret = -errno;
			break;
		}
		proto_conn_init(&c, fd);
		ret = agent_serve(&c);
		proto_conn_release(&c);
		close(fd);
		if (ret == AGENT_POWEROFF || ret < 0)
			break;
	}
	close(lfd);
	unlink(path);
	return ret == AGENT_POWEROFF ? EXIT_OK : EXIT_FATAL;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "port",	required_argument,	NULL, 'p' },
		{ "listen",	required_argument,	NULL, 'l' },
		{ "workload",	required_argument,	NULL, 'w' },
		{ "sample-interval", required_argument,	NULL, 's' },
		{ "help",	no_argument,		NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *port = NULL, *listen_path = NULL;
	unsigned long long ms;
	int opt;

	cli_init(argv[0], usage_text);
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			port = optarg;
			break;
		case 'l':
			listen_path = optarg;
			break;
		case 'w':
			if (!optarg[0] || strlen(optarg) > PROTO_MAX_PATH)
				return cli_usage_error("--workload needs a path of 1 to %d bytes",
						       PROTO_MAX_PATH);
			agent_workload_set_path(optarg);
			break;
		case 's':
			if (cli_parse_uint(optarg, AGENT_SAMPLE_MAX_MS, &ms))
				return cli_usage_error("--sample-interval needs 0 to %d milliseconds, not '%s'",
						       AGENT_SAMPLE_MAX_MS, optarg);
			agent_sample_set_interval(ms);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return cli_help_done();
		default:
			return cli_usage();
		}
	}
	if (optind < argc)
		return cli_usage_error("unexpected argument '%s'", argv[optind]);
	if (port && listen_path)
		return cli_usage_error("--port and --listen cannot be used together");
	/* a vanished host must not kill us: writes then fail with EPIPE */
	signal(SIGPIPE, SIG_IGN);
	agent_sample_start();
	if (listen_path)
		return agent_run_listen(listen_path);
	return agent_run_port(port ? port : AGENT_DEFAULT_PORT);
}
