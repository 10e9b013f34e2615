// SPDX-License-Identifier: GPL-2.0
/*
 * The local source: this machine's own lockdep state, read only, the way
 * the agent reads a guest's: the allow-listed files from their paths and
 * the kernel log from /dev/kmsg (non-blocking, from the oldest record
 * still buffered). A kernel built without lockdep has none of the
 * /proc files; that is said once and the boot is partial.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "collect/sources.h"
#include "proto/allowlist.h"
#include "proto/message.h"
#include "util/error.h"

/* A record is at most ~8 KiB (CONSOLE_EXT_LOG_MAX) */
#define KMSG_RECORD_MAX	16384

static int local_kmsg(struct collect_summary *sum, struct collect_sink *sink)
{
	struct kmsg_item *k = &sum->kmsg;
	char rec[KMSG_RECORD_MAX];
	uint64_t seq;
	ssize_t n;
	int fd, ret;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		k->err = errno;
		warning("unable to open '/dev/kmsg': %s%s", strerror(errno),
			errno == EPERM || errno == EACCES ?
			" (kernel.dmesg_restrict is set: run as root or with CAP_SYSLOG)" : "");
		return 0;
	}
	for (;;) {
		n = read(fd, rec, sizeof(rec));
		if (n < 0 && (errno == EINTR || errno == EPIPE))
			continue;	/* EPIPE: overwritten, the gap shows it */
		if (n < 0 && errno != EAGAIN) {
			k->err = errno;
			k->status = k->records ? ITEM_INCOMPLETE : ITEM_MISSING;
			close(fd);
			return error("unable to read '/dev/kmsg': %s",
				     strerror(errno));
		}
		if (n <= 0)
			break;
		if (proto_kmsg_seq((const uint8_t *)rec, n, &seq) ||
		    collect_summary_kmsg_seq(sum, seq)) {
			close(fd);
			return error("'/dev/kmsg': malformed record %llu",
				     (unsigned long long)k->records + 1);
		}
		ret = sink->ops->kmsg_record(sink, (const uint8_t *)rec, n);
		if (ret) {
			close(fd);
			return -1;
		}
	}
	close(fd);
	k->status = ITEM_COMPLETE;
	return 0;
}

int source_local(struct collect_summary *sum, struct collect_sink *sink)
{
	const char *path;
	struct file_item *it;
	size_t i;

	for (i = 0; i < sum->nfiles; i++) {
		it = &sum->files[i];
		path = it->path;
		/* as the agent does: a v2 kernel's graph export is in /proc */
		if (i < proto_allowlist_len && proto_allowlist[i].fallback &&
		    access(path, F_OK) && errno == ENOENT)
			path = proto_allowlist[i].fallback;
		if (source_push_file(sink, it, path, ITEM_COMPLETE, 0) < 0)
			return -1;
	}
	return local_kmsg(sum, sink);
}
