// SPDX-License-Identifier: GPL-2.0
/*
 * Offline sources made of files: a directory of saved /proc files, and
 * the pushing of one file from disk that every offline source shares.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect/db-sink.h"
#include "collect/sources.h"
#include "proto/allowlist.h"
#include "util/error.h"
#include "util/strbuf.h"

int source_open(const char *path, bool *refused)
{
	struct stat st;
	int fd;

	*refused = false;
	/* O_NONBLOCK: a FIFO opens at once, to be refused below */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ELOOP) {
		*refused = true;
		error("'%s' is a symbolic link: refused", path);
		return -1;
	}
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		*refused = true;
		error("'%s' is not a regular file: refused", path);
		close(fd);
		return -1;
	}
	return fd;
}

int source_push_file(struct collect_sink *sink, struct file_item *it,
		     const char *disk_path, enum item_status as, int err)
{
	bool refused;
	int fd;

	it->bytes = 0;
	fd = source_open(disk_path, &refused);
	if (refused)
		return -1;
	if (fd < 0) {
		it->status = ITEM_MISSING;
		it->err = errno;
		db_sink_name_next(sink, disk_path);
		if (sink->ops->file_begin(sink, it) ||
		    sink->ops->file_end(sink, it))
			return -1;
		return 1;
	}
	return source_push_fd(sink, it, fd, disk_path, as, err);
}

/*
 * read() straight into one buffer, no stream: a small file is two calls,
 * where fdopen() and fread() made five (a raw directory has dozens).
 */
int source_push_fd(struct collect_sink *sink, struct file_item *it, int fd,
		   const char *disk_path, enum item_status as, int err)
{
	char buf[65536];
	ssize_t n;
	int ret = 0;

	it->bytes = 0;
	db_sink_name_next(sink, disk_path);
	if (sink->ops->file_begin(sink, it)) {
		close(fd);
		return -1;
	}
	while (!ret) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0)
				ret = error("unable to read '%s': %s",
					    disk_path, strerror(errno));
			break;
		}
		it->bytes += (size_t)n;
		ret = sink->ops->file_data(sink, buf, (size_t)n);
	}
	close(fd);
	if (ret)
		return -1;
	it->status = as;
	it->err = as == ITEM_COMPLETE ? 0 : err;
	return sink->ops->file_end(sink, it) ? -1 : 0;
}

static struct file_item *find_item(struct collect_summary *sum,
				   const char *path)
{
	size_t i;

	for (i = 0; i < sum->nfiles; i++)
		if (!strcmp(sum->files[i].path, path))
			return &sum->files[i];
	return NULL;
}

/* /proc/version first: the kernel release decides how to read the rest. */
static const char *const procdir_files[] = {
	"version", "cmdline", "config.gz", "lockdep", "lockdep_stats",
	"lockdep_chains", "lock_stat",
};

int source_procdir(const char *dir, struct collect_summary *sum,
		   struct collect_sink *sink)
{
	struct strbuf lacking = STRBUF_INIT;	/* the files missing or empty */
	char disk[4096], guest[64];
	struct file_item *it;
	bool found_extra = false;
	int found = 0, ret;
	size_t i;

	for (i = 0; i < sizeof(procdir_files) / sizeof(*procdir_files); i++) {
		snprintf(guest, sizeof(guest), "/proc/%s", procdir_files[i]);
		it = find_item(sum, guest);
		if ((size_t)snprintf(disk, sizeof(disk), "%s/%s", dir,
				     procdir_files[i]) >= sizeof(disk))
			return error("path '%s/%s' is too long", dir,
				     procdir_files[i]);
		/*
		 * version, cmdline and config.gz are extras a copy may lack:
		 * their absence says nothing of the kernel (not "missing",
		 * not "not offered"), so it is not recorded.
		 */
		if (i < 3 && access(disk, F_OK) && errno == ENOENT)
			continue;
		ret = source_push_file(sink, it, disk, ITEM_COMPLETE, 0);
		if (ret < 0)
			goto fail;
		if (i < 3) {
			found_extra |= !ret;
			continue;
		}
		if (ret)
			continue;
		/* a copy that trusted /proc's st_size of 0 (tar, rsync) */
		if (!it->bytes) {
			warning("'%s' is empty, which %s never is: it counts as missing",
				disk, guest);
			strbuf_addf(&lacking, "%s'%s' is empty",
				    lacking.len ? ", " : "", disk);
		} else {
			found++;
		}
	}
	/*
	 * lock_stat is not offered without CONFIG_LOCK_STAT, none of them
	 * without lockdep (which then makes none of them required), which
	 * leaves the version
	 */
	collect_summary_no_lockdep(sum);
	for (i = 3; i < sizeof(procdir_files) / sizeof(*procdir_files); i++) {
		snprintf(guest, sizeof(guest), "/proc/%s", procdir_files[i]);
		it = find_item(sum, guest);
		if (it->status == ITEM_MISSING && it->required)
			strbuf_addf(&lacking, "%s'%s/%s' is missing",
				    lacking.len ? ", " : "", dir,
				    procdir_files[i]);
	}
	if (!found && !(sum->no_lockdep && found_extra)) {
		error("'%s' holds none of lockdep, lockdep_stats, lockdep_chains, lock_stat (or only empty ones)",
		      dir);
		goto fail;
	}
	/*
	 * The graph export of our kernel series, when the dump has it: a
	 * directory without it is of a kernel that does not offer it. Its
	 * name is the v2 series' /proc one, for a saved debugfs copy too.
	 */
	snprintf(disk, sizeof(disk), "%s/lockdep_graph", dir);
	it = find_item(sum, PROTO_GRAPH_PATH);
	if (source_push_file(sink, it, disk, ITEM_COMPLETE, 0) < 0)
		goto fail;
	if (lacking.len)
		db_sink_set_partial(sink, lacking.buf);
	strbuf_release(&lacking);
	return 0;
fail:
	strbuf_release(&lacking);
	return -1;
}
