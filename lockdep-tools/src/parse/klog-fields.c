// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel log parser: the kernel release, taint flags, task, pid and CPU
 * that lockdep reports print in their version and "CPU:" lines.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "parse/klog-ctx.h"
#include "util/xalloc.h"

/* "comm/123" -> task and pid of the report, if not known yet. */
void klog_set_task(struct ldr_report *r, const char *s, size_t n)
{
	const char *slash = NULL;
	size_t i;
	char *end;
	long pid;

	for (i = n; i > 0; i--) {
		if (s[i - 1] == '/') {
			slash = s + i - 1;
			break;
		}
	}
	if (r->task || !slash || slash == s || slash + 1 == s + n ||
	    !isdigit((unsigned char)slash[1]))
		return;
	pid = strtol(slash + 1, &end, 10);
	if (end != s + n)
		return;
	r->task = xstrndup(s, slash - s);
	r->pid = pid;
}

/* "Not tainted 6.1.0 #1" / "Tainted: G   W   6.1.0 #1": taint, release */
static void taint_and_release(struct ldr_report *r, const char *s)
{
	const char *t, *flags;
	size_t n;

	if ((t = strstr(s, "Not tainted")) != NULL) {
		if (!r->taint)
			r->taint = xstrdup("");
		t = skip_blanks(t + 11);
	} else if ((t = strstr(s, "Tainted: ")) != NULL) {
		flags = t += 9;
		while (*t && !isdigit((unsigned char)*t))
			t++;
		n = t - flags;
		while (n && flags[n - 1] == ' ')
			n--;
		if (!r->taint)
			r->taint = xstrndup(flags, n);
	} else {
		return;
	}
	if (!r->release && isdigit((unsigned char)*t))
		r->release = xstrndup(t, strcspn(t, " "));
}

/* "6.1.0-rc1 #4 Not tainted" printed right under the header */
bool klog_version_line(struct ldr_report *r, const char *t)
{
	size_t n = strcspn(t, " ");

	if (r->release || !isdigit((unsigned char)t[0]) || !memchr(t, '.', n) ||
	    (t[n] && strncmp(t + n, " #", 2)))
		return false;
	r->release = xstrndup(t, n);
	taint_and_release(r, t + n);
	return true;
}

/* "CPU: 1 PID: 6505 Comm: a.out Not tainted 6.1.119 #4" and variants */
void klog_cpu_line(struct ldr_report *r, const char *t)
{
	const char *q, *comm, *stop;
	const char *const stops[] = { " Not tainted", " Tainted: ", " Kdump: " };
	size_t i, n;

	if (r->cpu < 0 && isdigit((unsigned char)t[5]))
		r->cpu = strtol(t + 5, NULL, 10);
	if ((q = strstr(t, "PID: ")) != NULL && r->pid < 0)
		r->pid = strtol(q + 5, NULL, 10);
	if ((comm = strstr(t, "Comm: ")) != NULL && !r->task) {
		comm += 6;
		n = strlen(comm);
		for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
			if ((stop = strstr(comm, stops[i])) &&
			    (size_t)(stop - comm) < n)
				n = stop - comm;
		r->task = xstrndup(comm, n);
	}
	taint_and_release(r, t);
}

/* "Pid: 684, comm: modprobe Not tainted 3.1.0 #1" (x86 before 3.x) */
void klog_pid_line(struct ldr_report *r, const char *t)
{
	const char *comm = strstr(t, ", comm: ");
	size_t n;

	if (r->pid < 0)
		r->pid = strtol(t + 5, NULL, 10);
	if (comm && !r->task) {
		comm += 8;
		n = strcspn(comm, " ");
		r->task = xstrndup(comm, n);
	}
	taint_and_release(r, t);
}
