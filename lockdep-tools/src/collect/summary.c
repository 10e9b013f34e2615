// SPDX-License-Identifier: GPL-2.0
/*
 * Bookkeeping of one collection (see summary.h for its invariants).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/wait.h>

#include "collect/summary.h"
#include "proto/allowlist.h"
#include "util/cli.h"

int collect_summary_init(struct collect_summary *sum,
			 const char *const *triggers, size_t ntriggers)
{
	size_t i;

	memset(sum, 0, sizeof(*sum));
	sum->files = calloc(proto_allowlist_len, sizeof(*sum->files));
	sum->triggers = calloc(ntriggers ? ntriggers : 1,
			       sizeof(*sum->triggers));
	if (!sum->files || !sum->triggers) {
		collect_summary_release(sum);
		return -ENOMEM;
	}
	sum->nfiles = proto_allowlist_len;
	for (i = 0; i < sum->nfiles; i++) {
		sum->files[i].path = proto_allowlist[i].path;
		sum->files[i].required = !proto_allowlist[i].optional;
		sum->files[i].err = ENOTCONN;
	}
	sum->ntriggers = ntriggers;
	for (i = 0; i < ntriggers; i++) {
		sum->triggers[i].name = triggers[i];
		sum->triggers[i].err = ENOTCONN;
	}
	sum->kmsg.err = ENOTCONN;
	sum->workload.start_seq = sum->workload.end_seq = WORKLOAD_SEQ_UNKNOWN;
	return 0;
}

bool workload_name_valid(const char *name, size_t len)
{
	size_t i;

	if (!len || len > WORKLOAD_NAME_MAX)
		return false;
	for (i = 0; i < len; i++) {
		char ch = name[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' ||
		      ch == '+' || ch == '-'))
			return false;
	}
	return true;
}

void workload_status_text(const struct workload_item *w, char *buf,
			  size_t size)
{
	if (WIFEXITED(w->wait_status))
		snprintf(buf, size, "exit status %d", WEXITSTATUS(w->wait_status));
	else if (WIFSIGNALED(w->wait_status))
		snprintf(buf, size, "killed by signal %d",
			 WTERMSIG(w->wait_status));
	else
		snprintf(buf, size, "wait status 0x%x",
			 (unsigned int)w->wait_status);
}

struct file_item *collect_summary_add_module_file(struct collect_summary *sum,
						  const char *path, size_t len,
						  int *err)
{
	struct file_item *files, *it;
	size_t i;

	for (i = proto_allowlist_len; i < sum->nfiles; i++) {
		if (strlen(sum->files[i].path) == len &&
		    !memcmp(sum->files[i].path, path, len)) {
			*err = -EEXIST;
			return NULL;
		}
	}
	if (sum->nfiles - proto_allowlist_len >= PROTO_MAX_MODULE_FILES) {
		*err = -E2BIG;
		return NULL;
	}
	files = realloc(sum->files, (sum->nfiles + 1) * sizeof(*files));
	if (!files) {
		*err = -ENOMEM;
		return NULL;
	}
	sum->files = files;
	it = &files[sum->nfiles];
	memset(it, 0, sizeof(*it));
	it->path = strndup(path, len);
	if (!it->path) {
		*err = -ENOMEM;
		return NULL;
	}
	it->err = ENOTCONN;
	sum->nfiles++;
	return it;
}

void collect_summary_release(struct collect_summary *sum)
{
	size_t i;

	for (i = proto_allowlist_len; i < sum->nfiles; i++)
		free((char *)sum->files[i].path);
	free(sum->files);
	free(sum->triggers);
	free(sum->kmsg.gaps);
	free(sum->workload.output);
	memset(sum, 0, sizeof(*sum));
}

int collect_summary_kmsg_seq(struct collect_summary *sum, uint64_t seq)
{
	struct kmsg_item *k = &sum->kmsg;
	struct kmsg_gap *g;

	if (k->records && seq <= k->last)
		return -EPROTO;
	if (k->records && seq != k->last + 1) {
		g = realloc(k->gaps, (k->ngaps + 1) * sizeof(*g));
		if (!g)
			return -ENOMEM;
		k->gaps = g;
		g[k->ngaps].from = k->last + 1;
		g[k->ngaps].to = seq - 1;
		k->ngaps++;
	}
	if (!k->records)
		k->first = seq;
	k->last = seq;
	k->records++;
	return 0;
}

bool collect_summary_why_partial(const struct collect_summary *sum,
				 char *why, size_t size)
{
	const struct file_item *f;
	char buf[32];
	size_t i;

	if (sum->end_reason[0]) {
		snprintf(why, size, "%s", sum->end_reason);
		return true;
	}
	if (sum->workload.state == WORKLOAD_NOT_STARTED) {
		snprintf(why, size, "workload '%s' did not start (%s)",
			 sum->workload.name,
			 item_err_name(sum->workload.err, buf, sizeof(buf)));
		return true;
	}
	if (sum->workload.state == WORKLOAD_RUNNING) {
		snprintf(why, size, "workload '%s' did not end: its exit status %s",
			 sum->workload.name, sum->workload.output ?
			 "is missing (its output so far is kept)" :
			 "and output are missing");
		return true;
	}
	for (i = 0; i < sum->nfiles; i++) {
		f = &sum->files[i];
		if (f->status == ITEM_INCOMPLETE ||
		    (f->status == ITEM_MISSING && f->required)) {
			snprintf(why, size, "%s'%s' is %s (%s)",
				 f->required ? "required " : "", f->path,
				 item_status_name(f->status),
				 item_err_name(f->err, buf, sizeof(buf)));
			return true;
		}
	}
	for (i = 0; i < sum->ntriggers; i++)
		if (!sum->triggers[i].done && sum->triggers[i].err != ENOENT) {
			snprintf(why, size, "trigger '%s' failed (%s)",
				 sum->triggers[i].name,
				 item_err_name(sum->triggers[i].err, buf,
					       sizeof(buf)));
			return true;
		}
	if (sum->kmsg.status == ITEM_COMPLETE)
		return false;
	snprintf(why, size, "the kernel log is %s (%s)",
		 item_status_name(sum->kmsg.status),
		 item_err_name(sum->kmsg.err, buf, sizeof(buf)));
	return true;
}

bool file_item_not_offered(const struct file_item *it)
{
	return it->status == ITEM_MISSING && !it->required &&
	       (it->err == ENOENT || it->err == ITEM_UNLISTED);
}

/* The files of lockdep (CONFIG_LOCKDEP), /proc/lockdep first. */
static const char *const lockdep_files[] = {
	"/proc/lockdep", "/proc/lockdep_stats", "/proc/lockdep_chains",
	"/proc/lock_stat",
};
#define NR_REQUIRED_LOCKDEP_FILES	3

static int lockdep_file(const char *path)
{
	size_t k;

	for (k = 0; k < sizeof(lockdep_files) / sizeof(*lockdep_files); k++)
		if (!strcmp(path, lockdep_files[k]))
			return (int)k;
	return -1;
}

bool collect_summary_no_lockdep(struct collect_summary *sum)
{
	const struct file_item *f;
	bool none = true;
	size_t i;
	int k;

	/* no /proc/lockdep for want of it, and nothing else of lockdep */
	for (i = 0; i < proto_allowlist_len; i++) {
		f = &sum->files[i];
		k = lockdep_file(f->path);
		if (k == 0 && (f->status != ITEM_MISSING ||
			       (f->err != ENOENT && f->err != ITEM_UNLISTED)))
			none = false;
		if (k > 0 && f->status != ITEM_MISSING)
			none = false;
	}
	sum->no_lockdep = none;
	for (i = 0; i < proto_allowlist_len; i++) {
		k = lockdep_file(sum->files[i].path);
		if (k >= 0 && k < NR_REQUIRED_LOCKDEP_FILES)
			sum->files[i].required = !none;
	}
	return none;
}

/* ", PREFIXNAMESUFFIX" (no comma first) at @what + *@len, cut to @size */
static void add_item(char *what, size_t size, size_t *len, const char *prefix,
		     const char *name, const char *suffix)
{
	int n;

	if (*len >= size)
		return;
	n = snprintf(what + *len, size - *len, "%s%s%s%s", *len ? ", " : "",
		     prefix, name, suffix);
	*len = n < 0 ? size : *len + n;
}

bool collect_summary_not_offered(const struct collect_summary *sum,
				 char *what, size_t size)
{
	size_t i, len = 0;

	what[0] = '\0';
	for (i = 0; i < sum->nfiles; i++)
		if (file_item_not_offered(&sum->files[i]) &&
		    !(i < proto_allowlist_len && proto_allowlist[i].by_agent))
			add_item(what, size, &len, "", sum->files[i].path, "");
	for (i = 0; i < sum->ntriggers; i++)
		if (!sum->triggers[i].done && sum->triggers[i].err == ENOENT) {
			add_item(what, size, &len, "trigger ",
				 sum->triggers[i].name, " (no scenario module)");
		}
	return len > 0;
}

int collect_summary_exit_status(const struct collect_summary *sum)
{
	char why[COLLECT_WHY_MAX];

	if (collect_summary_why_partial(sum, why, sizeof(why)))
		return EXIT_PARTIAL;
	if (sum->workload.state == WORKLOAD_EXITED &&
	    sum->workload.wait_status)
		return COLLECT_EXIT_WORKLOAD_FAILED;
	if (collect_summary_not_offered(sum, why, sizeof(why)))
		return EXIT_NOT_OFFERED;
	return EXIT_OK;
}

const char *item_status_name(enum item_status st)
{
	if (st == ITEM_COMPLETE)
		return "complete";
	return st == ITEM_INCOMPLETE ? "incomplete" : "missing";
}

const char *item_err_name(int err, char *buf, size_t size)
{
	const char *name;

	if (err == ITEM_UNLISTED)
		return "unlisted";
	name = err > 0 ? strerrorname_np(err) : NULL;
	if (name)
		return name;
	snprintf(buf, size, "errno-%d", err);
	return buf;
}
