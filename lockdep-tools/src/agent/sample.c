// SPDX-License-Identifier: GPL-2.0
/*
 * The sampler: /proc/lockdep_stats every interval, appended with a
 * header line to the series file the host reads at the end
 * (PROTO_STATS_SERIES_PATH; format in parse/proc-stats.h and
 * lockdep-agent(8)), and a snapshot the moment the kernel logs
 * "BUG: MAX_... too low!": lockdep_stats and the graph export read at
 * once, before the host asks for anything, so that the analysis is of
 * the table that ran out. The agent's own /dev/kmsg reader sees that
 * record whatever the host is doing.
 *
 * The cost is bounded: one read of one small file per interval (the
 * guest's timers do the waiting: every poll() of the agent ends by the
 * next sample's time), and the series stops growing at
 * AGENT_SERIES_MAX bytes (the console says so).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "agent/agent.h"
#include "proto/allowlist.h"

/* lockdep_stats is about 2 KiB; this holds a header and any kernel's. */
#define STATS_MAX	(32u * 1024)
/* A kmsg record is at most ~8 KiB (CONSOLE_EXT_LOG_MAX). */
#define RECORD_MAX	16384
#define SNAPSHOT_TMP	PROTO_SNAPSHOT_GRAPH_PATH ".tmp"

static struct {
	unsigned int interval_ms;	/* 0: no sampling */
	bool on;
	int out;			/* the series file */
	int kmsg;			/* our reader of /dev/kmsg, or -1 */
	unsigned long long seq;		/* the next sample's number */
	/* the last kernel log record our reader has read, if have_kseq */
	unsigned long long kseq;
	bool have_kseq;
	long long next_ms;
	size_t bytes;
	bool snapped, full;
	char buf[STATS_MAX];
	char rec[RECORD_MAX];
} sm = { .interval_ms = AGENT_SAMPLE_DEFAULT_MS, .out = -1, .kmsg = -1 };

void agent_sample_set_interval(unsigned int ms)
{
	sm.interval_ms = ms;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static int write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= w;
	}
	return 0;
}

/*
 * One sample: "@ SEQ TIME_MS KIND ARG" and the file; a periodic one
 * adds the last kernel log record read before it, when there is one
 * (the host places the workload's start by it). A sample that cannot be
 * read is not written, its number skipped: the host sees the gap.
 * Returns 0 or -errno.
 */
static int take_sample(const char *kind, unsigned long long arg)
{
	size_t len;
	ssize_t n;
	int fd, err;

	if (sm.full)
		return 0;
	len = snprintf(sm.buf, sizeof(sm.buf), "@ %llu %lld %s %llu",
		       sm.seq++, now_ms(), kind, arg);
	if (!strcmp(kind, "periodic") && sm.have_kseq)
		len += snprintf(sm.buf + len, sizeof(sm.buf) - len, " %llu",
				sm.kseq);
	sm.buf[len++] = '\n';
	fd = open("/proc/lockdep_stats", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		n = read(fd, sm.buf + len, sizeof(sm.buf) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	err = n < 0 ? errno : len == sizeof(sm.buf) ? EFBIG : 0;
	close(fd);
	if (err)
		return -err;
	if (sm.bytes + len > AGENT_SERIES_MAX) {
		sm.full = true;
		fprintf(stderr, "lockdep-agent: the lockdep_stats series reached %u bytes: no more samples\n",
			AGENT_SERIES_MAX);
		return 0;
	}
	sm.bytes += len;
	return write_all(sm.out, sm.buf, len);
}

/* The graph export, copied whole, then renamed into place. */
static void copy_graph(void)
{
	int in, out, err = 0;
	ssize_t n;

	in = open(PROTO_GRAPH_PATH, O_RDONLY | O_CLOEXEC);
	if (in < 0 && errno == ENOENT)
		in = open(PROTO_GRAPH_PATH_V2, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		fprintf(stderr, "lockdep-agent: snapshot: no graph export to copy: %s\n",
			strerror(errno));
		return;
	}
	out = open(SNAPSHOT_TMP, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		   0600);
	if (out < 0)
		err = errno;
	while (!err) {
		n = read(in, sm.rec, sizeof(sm.rec));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = errno;
		if (n <= 0)
			break;
		err = -write_all(out, sm.rec, n);
	}
	close(in);
	if (out >= 0 && close(out) && !err)
		err = errno;
	if (!err && rename(SNAPSHOT_TMP, PROTO_SNAPSHOT_GRAPH_PATH))
		err = errno;
	if (err) {
		unlink(SNAPSHOT_TMP);
		fprintf(stderr, "lockdep-agent: snapshot: unable to copy the graph export: %s\n",
			strerror(err));
	}
}

/* "pri,seq,ts,flags;BUG: MAX_... too low!" */
static bool too_low(const char *rec, size_t n)
{
	const char *msg = memchr(rec, ';', n), *nl;
	static const char bug[] = "BUG: MAX_", low[] = " too low!";
	size_t len;

	if (!msg)
		return false;
	msg++;
	nl = memchr(msg, '\n', rec + n - msg);
	len = (nl ? nl : rec + n) - msg;
	return len > strlen(bug) + strlen(low) &&
	       !memcmp(msg, bug, strlen(bug)) &&
	       !memcmp(msg + len - strlen(low), low, strlen(low));
}

/* Every record readable now; the first "too low" one takes the snapshot. */
static void scan_kmsg(void)
{
	unsigned long long seq;
	ssize_t n;
	int err;

	while (sm.kmsg >= 0) {
		n = read(sm.kmsg, sm.rec, sizeof(sm.rec) - 1);
		if (n < 0 && (errno == EINTR || errno == EPIPE))
			continue;
		if (n <= 0)
			return;
		sm.rec[n] = '\0';
		if (sscanf(sm.rec, "%*u,%llu,", &seq) != 1)
			continue;
		sm.kseq = seq;
		sm.have_kseq = true;
		if (sm.snapped || !too_low(sm.rec, n))
			continue;
		/* lockdep is off from here on: one snapshot is all there is */
		sm.snapped = true;
		err = take_sample("snapshot", seq);
		if (err)
			fprintf(stderr, "lockdep-agent: snapshot: unable to read /proc/lockdep_stats: %s\n",
				strerror(-err));
		copy_graph();
		close(sm.kmsg);
		sm.kmsg = -1;
		sm.have_kseq = false;	/* no longer read: not said */
	}
}

void agent_sample_start(void)
{
	/* a kernel without lockdep has nothing to sample (LIST says so) */
	if (!sm.interval_ms || access("/proc/lockdep_stats", R_OK))
		return;
	/* an initramfs has no /run until someone makes it */
	if ((mkdir("/run", 0755) && errno != EEXIST) ||
	    (mkdir(PROTO_SAMPLE_DIR, 0700) && errno != EEXIST)) {
		fprintf(stderr, "lockdep-agent: unable to make '%s': %s: no lockdep_stats samples\n",
			PROTO_SAMPLE_DIR, strerror(errno));
		return;
	}
	sm.out = open(PROTO_STATS_SERIES_PATH,
		      O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
	if (sm.out < 0) {
		fprintf(stderr, "lockdep-agent: unable to open '%s': %s: no lockdep_stats samples\n",
			PROTO_STATS_SERIES_PATH, strerror(errno));
		return;
	}
	sm.kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	sm.on = true;
	sm.next_ms = now_ms();
	agent_sample_service();
}

int agent_sample_pollfds(struct pollfd *pfd)
{
	if (!sm.on || sm.kmsg < 0)
		return 0;
	pfd[0] = (struct pollfd){ .fd = sm.kmsg, .events = POLLIN };
	return 1;
}

int agent_sample_timeout(int timeout_ms)
{
	long long left;

	if (!sm.on)
		return timeout_ms;
	left = sm.next_ms - now_ms();
	if (left < 0)
		left = 0;
	return timeout_ms < 0 || left < timeout_ms ? (int)left : timeout_ms;
}

void agent_sample_service(void)
{
	long long t;
	int err;

	if (!sm.on)
		return;
	scan_kmsg();
	t = now_ms();
	if (t < sm.next_ms)
		return;
	err = take_sample("periodic", sm.interval_ms);
	if (err) {
		/* no lockdep, or a series file we cannot write: said once */
		fprintf(stderr, "lockdep-agent: unable to sample /proc/lockdep_stats: %s: no more samples\n",
			strerror(-err));
		sm.on = false;
		return;
	}
	/* a late wake-up starts the next interval from now, not behind */
	sm.next_ms += sm.interval_ms;
	if (sm.next_ms <= t)
		sm.next_ms = t + sm.interval_ms;
}
