// SPDX-License-Identifier: GPL-2.0
/*
 * RUN: the developer's workload, run once per boot while the host follows
 * the kernel log. The agent stays the only process that talks to the host:
 * the workload's stdout and stderr come through a pipe into a ring of the
 * last PROTO_WORKLOAD_OUTPUT bytes, and its end (seen through a pidfd, so
 * a background job that keeps the pipe open cannot hide it) is told to the
 * host as one EXITED frame in the next KMSG follow. A workload that does
 * not end (a deadlock in the kernel, say) can still be asked for its
 * output so far with OUTPUT: the agent never waits for it.
 *
 * The run's place in the kernel log is a pair of sequence numbers: the
 * first record the kernel could log once the workload was about to start,
 * and the first one after it was reaped. Reports between them happened
 * during the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent/agent.h"
#include "proto/message.h"

/* What the workload may assume; nothing of the agent's own leaks in. */
static char *const workload_env[] = {
	"PATH=/bin:/sbin:/usr/bin:/usr/sbin",
	"HOME=/",
	"TERM=dumb",
	"LANG=C",
	NULL
};

static struct {
	const char *path;
	pid_t pid;		/* 0: not started */
	int pidfd, out;		/* -1 once closed */
	bool exited, reported;
	int status;		/* as waitpid() gives it */
	int64_t start_ms, duration_ms;
	uint64_t end_seq;
	uint8_t ring[PROTO_WORKLOAD_OUTPUT];
	uint64_t total;		/* bytes of output, kept or not */
} wl = { .path = AGENT_WORKLOAD_PATH, .pidfd = -1, .out = -1 };

void agent_workload_set_path(const char *path)
{
	wl.path = path;
}

/*
 * The sequence number the kernel will give its next log record: one past
 * the last record /dev/kmsg holds now. UINT64_MAX when it cannot be read
 * (the host then cannot place reports before or after the run).
 */
static uint64_t kmsg_next_seq(void)
{
	static uint8_t rec[16384];
	uint64_t seq, next = UINT64_MAX;
	ssize_t n;
	int fd;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return next;
	for (;;) {
		n = read(fd, rec, sizeof(rec));
		if (n < 0 && (errno == EINTR || errno == EPIPE))
			continue;
		if (n <= 0)
			break;
		if (!proto_kmsg_seq(rec, n, &seq))
			next = seq + 1;
	}
	close(fd);
	return next;
}

static void output_add(const uint8_t *buf, size_t len)
{
	size_t at;

	for (; len; len--, buf++) {
		at = wl.total++ % sizeof(wl.ring);
		wl.ring[at] = *buf;
	}
}

/* Read what the pipe holds now (it is non-blocking). */
static void output_drain(void)
{
	uint8_t buf[4096];
	ssize_t n;

	while (wl.out >= 0) {
		n = read(wl.out, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {	/* every writer is gone, or the pipe broke */
			close(wl.out);
			wl.out = -1;
			return;
		}
		output_add(buf, n);
	}
}

/* The child: a session of its own, so its leftovers can be killed. */
static void __attribute__((noreturn)) workload_exec(int out, int devnull)
{
	char *argv[] = { (char *)wl.path, NULL };
	char dir[PROTO_MAX_PATH + 8];
	const char *slash = strrchr(wl.path, '/');
	struct stat st;

	setsid();
	signal(SIGPIPE, SIG_DFL);	/* the agent ignores it; exec keeps that */
	dup2(devnull, STDIN_FILENO);
	dup2(out, STDOUT_FILENO);
	dup2(out, STDERR_FILENO);
	/* the files that came with the script, else the script's directory */
	snprintf(dir, sizeof(dir), "%.*s/files",
		 slash ? (int)(slash - wl.path) : 1, slash ? wl.path : ".");
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		dir[strlen(dir) - strlen("/files")] = '\0';
	if (dir[0] && chdir(dir))
		fprintf(stderr, "lockdep-agent: unable to enter %s: %s\n", dir,
			strerror(errno));
	execve(wl.path, argv, workload_env);
	fprintf(stderr, "lockdep-agent: unable to run %s: %s\n", wl.path,
		strerror(errno));
	_exit(127);
}

int agent_run(struct proto_conn *c, const struct proto_frame *req)
{
	uint8_t started[PROTO_STARTED_SIZE];
	int pipefd[2], devnull;
	pid_t pid;

	if (req->len)
		return proto_conn_send_error(c, EINVAL, PROTO_NO_DEADLINE,
					     "RUN takes no payload");
	if (wl.pid)
		return proto_conn_send_error(c, EBUSY, PROTO_NO_DEADLINE,
					     "a workload already ran in this boot");
	if (access(wl.path, X_OK))
		return proto_conn_send_error(c, errno, PROTO_NO_DEADLINE,
					     "no workload to run at %s", wl.path);
	if (pipe2(pipefd, O_CLOEXEC))
		return proto_conn_send_error(c, errno, PROTO_NO_DEADLINE,
					     "unable to create the output pipe");
	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	proto_put_be64(started, kmsg_next_seq());
	wl.start_ms = proto_now_ms();
	pid = fork();
	if (pid == 0)
		workload_exec(pipefd[1], devnull);
	if (devnull >= 0)
		close(devnull);
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		return proto_conn_send_error(c, errno, PROTO_NO_DEADLINE,
					     "unable to start %s", wl.path);
	}
	wl.pid = pid;
	wl.out = pipefd[0];
	fcntl(wl.out, F_SETFL, O_NONBLOCK);
	wl.pidfd = syscall(SYS_pidfd_open, pid, 0);
	if (wl.pidfd < 0)	/* kernels before 5.3: fall back to the pipe */
		fprintf(stderr, "lockdep-agent: pidfd_open: %s; the workload's end is its output's end\n",
			strerror(errno));
	fprintf(stderr, "lockdep-agent: workload %s started (pid %d)\n",
		wl.path, pid);
	return proto_conn_send(c, PROTO_STARTED, started, sizeof(started),
			       PROTO_NO_DEADLINE);
}

int agent_workload_pollfds(struct pollfd *pfd)
{
	int n = 0;

	if (!wl.pid || wl.exited)
		return 0;
	if (wl.out >= 0)
		pfd[n++] = (struct pollfd){ .fd = wl.out, .events = POLLIN };
	if (wl.pidfd >= 0)
		pfd[n++] = (struct pollfd){ .fd = wl.pidfd, .events = POLLIN };
	return n;
}

/* Reap the workload if it has ended; kill what it left running. */
static void workload_reap(void)
{
	if (waitpid(wl.pid, &wl.status, WNOHANG) != wl.pid)
		return;
	wl.exited = true;
	wl.duration_ms = proto_now_ms() - wl.start_ms;
	kill(-wl.pid, SIGKILL);	/* its session's leftovers, if any */
	output_drain();
	if (wl.out >= 0)
		close(wl.out);
	if (wl.pidfd >= 0)
		close(wl.pidfd);
	wl.out = wl.pidfd = -1;
	wl.end_seq = kmsg_next_seq();
	fprintf(stderr, "lockdep-agent: workload %s ended (status 0x%x) after %lld ms\n",
		wl.path, wl.status, (long long)wl.duration_ms);
}

void agent_workload_service(void)
{
	if (!wl.pid || wl.exited)
		return;
	output_drain();
	/* without a pidfd, the end of the output stands for the end */
	if (wl.pidfd >= 0 || wl.out < 0)
		workload_reap();
}

static size_t output_kept(void)
{
	return wl.total < sizeof(wl.ring) ? wl.total : sizeof(wl.ring);
}

/* The kept output, oldest byte first, to @dst (output_kept() bytes). */
static void output_copy(uint8_t *dst)
{
	size_t head = wl.total % sizeof(wl.ring);

	if (wl.total > sizeof(wl.ring)) {
		memcpy(dst, wl.ring + head, sizeof(wl.ring) - head);
		memcpy(dst + sizeof(wl.ring) - head, wl.ring, head);
	} else {
		memcpy(dst, wl.ring, output_kept());
	}
}

int agent_workload_report(struct proto_conn *c)
{
	uint8_t *buf;
	int ret;

	if (!wl.exited || wl.reported)
		return 0;
	buf = malloc(PROTO_EXITED_HEADER + output_kept());
	if (!buf)
		return -ENOMEM;
	proto_put_be32(buf, (uint32_t)wl.status);
	proto_put_be64(buf + 4, (uint64_t)wl.duration_ms);
	proto_put_be64(buf + 12, wl.end_seq);
	proto_put_be64(buf + 20, wl.total);
	output_copy(buf + PROTO_EXITED_HEADER);
	ret = proto_conn_send(c, PROTO_EXITED, buf,
			      PROTO_EXITED_HEADER + output_kept(),
			      PROTO_NO_DEADLINE);
	free(buf);
	if (!ret)
		wl.reported = true;
	return ret;
}

int agent_workload_output(struct proto_conn *c, const struct proto_frame *req)
{
	uint8_t *buf;
	int ret;

	if (req->len)
		return proto_conn_send_error(c, EINVAL, PROTO_NO_DEADLINE,
					     "OUTPUT takes no payload");
	if (!wl.pid)
		return proto_conn_send_error(c, ENOENT, PROTO_NO_DEADLINE,
					     "no workload ran in this boot");
	output_drain();
	buf = malloc(PROTO_OUTPUT_HEADER + output_kept());
	if (!buf)
		return proto_conn_send_error(c, ENOMEM, PROTO_NO_DEADLINE,
					     "out of memory for the output");
	proto_put_be64(buf, wl.total);
	output_copy(buf + PROTO_OUTPUT_HEADER);
	ret = proto_conn_send(c, PROTO_OUTPUT_REPLY, buf,
			      PROTO_OUTPUT_HEADER + output_kept(),
			      PROTO_NO_DEADLINE);
	free(buf);
	return ret;
}
