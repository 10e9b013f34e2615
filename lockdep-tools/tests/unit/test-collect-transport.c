// SPDX-License-Identifier: GPL-2.0
/*
 * lockdep-collect's transport and raw sink end to end, with no VM: against
 * the real agent code serving a UNIX socket (reading this host's /proc),
 * and against scripted agents that misbehave: dying mid-file, cutting a
 * frame, sending oversized or inconsistent replies, skipping kernel log
 * records, answering late, claiming more workload output than 63 bits
 * count.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "agent/agent.h"
#include "collect/collect.h"
#include "collect/transport.h"
#include "proto/allowlist.h"
#include "proto/message.h"

struct fixture {
	char dir[64];
	char sock[96];
	char raw[96];
	pid_t agent;
	struct collect_summary sum;
	int ret;		/* collect_from_agent() */
	int exit_status;	/* what lockdep-collect would exit with */
};

/* A scripted agent runs in the child; it exits non-zero on surprises. */
typedef void (*agent_script)(struct proto_conn *c);

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	strcpy(fx->dir, "/tmp/ldt-collect.XXXXXX");
	assert_non_null(mkdtemp(fx->dir));
	snprintf(fx->sock, sizeof(fx->sock), "%s/agent.sock", fx->dir);
	snprintf(fx->raw, sizeof(fx->raw), "%s/raw", fx->dir);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	char cmd[128];

	collect_summary_release(&fx->sum);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx->dir);
	assert_int_equal(system(cmd), 0);
	free(fx);
	return 0;
}

static void child_check(int cond)
{
	if (!cond)
		_exit(3);
}

/* Start an agent on fx->sock: the real one (@script NULL) or a script. */
static void start_agent(struct fixture *fx, agent_script script)
{
	struct proto_conn c;
	int lfd, fd, ret;

	lfd = agent_listen(fx->sock);
	assert_true(lfd >= 0);
	fx->agent = fork();
	assert_true(fx->agent >= 0);
	if (fx->agent) {
		close(lfd);
		return;
	}
	fd = accept(lfd, NULL, NULL);
	child_check(fd >= 0);
	proto_conn_init(&c, fd);
	if (!script) {
		ret = agent_serve(&c);
		_exit(ret == AGENT_POWEROFF ? 0 : 4);
	}
	script(&c);
	_exit(0);
}

static int agent_exit(struct fixture *fx)
{
	int status;

	assert_int_equal(waitpid(fx->agent, &status, 0), fx->agent);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* Run a collection into fx->raw the way lockdep-collect's main does. */
static void collect(struct fixture *fx, int timeout_s, bool poweroff,
		    const char *const *triggers, size_t ntriggers)
{
	struct collect_agent_opts o = {
		.socket_path = fx->sock,
		.timeout_s = timeout_s,
		.poweroff = poweroff,
	};
	struct collect_sink *sink;

	assert_int_equal(collect_summary_init(&fx->sum, triggers, ntriggers), 0);
	sink = raw_sink_new(fx->raw);
	assert_non_null(sink);
	fx->ret = collect_from_agent(&o, &fx->sum, sink);
	assert_int_equal(sink->ops->finish(sink, &fx->sum), 0);
	sink->ops->free(sink);
	fx->exit_status = fx->ret ? fx->ret :
			  collect_summary_exit_status(&fx->sum);
}

/* Contents of fx->raw/@name, NUL-terminated; NULL if it does not exist. */
static char *raw_file(struct fixture *fx, const char *name, size_t *size)
{
	char path[256];
	char *buf;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", fx->raw, name);
	fp = fopen(path, "r");
	if (!fp)
		return NULL;
	buf = malloc(1 << 20);
	assert_non_null(buf);
	*size = fread(buf, 1, (1 << 20) - 1, fp);
	buf[*size] = '\0';
	fclose(fp);
	return buf;
}

static void assert_manifest_has(struct fixture *fx, const char *line)
{
	char *m, want[512];
	size_t size;

	m = raw_file(fx, "MANIFEST", &size);
	assert_non_null(m);
	snprintf(want, sizeof(want), "\n%s\n", line);
	if (!strstr(m, want))
		fail_msg("MANIFEST lacks '%s':\n%s", line, m);
	free(m);
}

static void assert_no_raw_file(struct fixture *fx, const char *name)
{
	size_t size;
	char *p = raw_file(fx, name, &size);

	if (p)
		fail_msg("'%s' should not exist", name);
}

/* --- the real agent --------------------------------------------------- */

static void test_real_agent(void **state)
{
	static const char *const triggers[] = { "ab_ba" };
	struct fixture *fx = *state;
	char line[128], expect[4096];
	size_t n, size;
	FILE *fp;
	char *got;

	fp = fopen("/proc/version", "r");
	assert_non_null(fp);
	n = fread(expect, 1, sizeof(expect), fp);
	fclose(fp);

	start_agent(fx, NULL);
	collect(fx, 10, true, triggers, 1);
	assert_int_equal(agent_exit(fx), 0);	/* POWEROFF reached it */
	assert_int_equal(fx->ret, 0);

	snprintf(line, sizeof(line), "file complete /proc/version %zu", n);
	assert_manifest_has(fx, line);
	got = raw_file(fx, "files/proc/version", &size);
	assert_non_null(got);
	assert_int_equal(size, n);
	assert_memory_equal(got, expect, n);
	free(got);
	assert_no_raw_file(fx, "files/proc/version.part");

	/*
	 * no lockdep in this host's kernel, no test module either: what it
	 * does not offer (partial only for an unreadable kernel log)
	 */
	if (access("/proc/lockdep", F_OK)) {
		assert_manifest_has(fx, "file missing /proc/lockdep 0 ENOENT");
		assert_no_raw_file(fx, "files/proc/lockdep");
		assert_true(fx->sum.no_lockdep);
		assert_int_equal(fx->exit_status, access("/dev/kmsg", R_OK) ?
				 EXIT_PARTIAL : EXIT_NOT_OFFERED);
	}
	if (access(AGENT_TRIGGER_PATH, F_OK))
		assert_manifest_has(fx, "trigger failed ab_ba ENOENT");

	if (!access("/dev/kmsg", R_OK)) {
		assert_int_equal(fx->sum.kmsg.status, ITEM_COMPLETE);
		assert_true(fx->sum.kmsg.records > 0);
		got = raw_file(fx, "kmsg", &size);
		assert_non_null(got);
		assert_true(size > 0 && got[size - 1] == '\n');
		free(got);
	}
}

/* --- scripted agents -------------------------------------------------- */

static struct proto_frame expect_request(struct proto_conn *c, uint8_t type)
{
	struct proto_frame f;

	child_check(proto_conn_recv(c, &f, proto_now_ms() + 10000) == 1);
	child_check(f.type == type);
	return f;
}

static void send_frame(struct proto_conn *c, uint8_t type, const void *p,
		       size_t len)
{
	child_check(!proto_conn_send(c, type, p, len, PROTO_NO_DEADLINE));
}

static void answer_hello(struct proto_conn *c, const struct proto_frame *f)
{
	uint8_t p[PROTO_HELLO_SIZE + 6];

	child_check(f->len == PROTO_HELLO_SIZE);
	memcpy(p, f->payload, PROTO_HELLO_SIZE);	/* version, nonce */
	memcpy(p + PROTO_HELLO_SIZE, "fake\x1b!", 6);
	send_frame(c, PROTO_HELLO_REPLY, p, sizeof(p));
}

static void script_hello(struct proto_conn *c)
{
	struct proto_frame f = expect_request(c, PROTO_HELLO);

	answer_hello(c, &f);
}

static void script_list(struct proto_conn *c, const char *list)
{
	expect_request(c, PROTO_LIST);
	send_frame(c, PROTO_LIST_REPLY, list, strlen(list));
}

/* The kernel log dump after the files: nothing new. */
static void script_last_kmsg(struct proto_conn *c)
{
	expect_request(c, PROTO_KMSG);
	child_check(!proto_conn_send_end(c, 0, PROTO_NO_DEADLINE));
}

/* HELLO, an empty kernel log, then a LIST offering @list. */
static void script_start(struct proto_conn *c, const char *list)
{
	script_hello(c);
	expect_request(c, PROTO_KMSG);
	child_check(!proto_conn_send_end(c, 0, PROTO_NO_DEADLINE));
	script_list(c, list);
}

static void script_dies_mid_file(struct proto_conn *c)
{
	char data[100];

	script_start(c, "/proc/version\n/proc/cmdline\n");
	expect_request(c, PROTO_READ);
	memset(data, 'x', sizeof(data));
	send_frame(c, PROTO_DATA, data, sizeof(data));
	/* and the guest is gone */
}

static void test_agent_dies_mid_file(void **state)
{
	struct fixture *fx = *state;
	size_t size;
	char *got;

	start_agent(fx, script_dies_mid_file);
	collect(fx, 10, true, NULL, 0);
	assert_int_equal(agent_exit(fx), 0);
	/* --poweroff could not be done */
	assert_int_equal(fx->ret, EXIT_PARTIAL);
	assert_int_equal(fx->exit_status, EXIT_PARTIAL);
	assert_manifest_has(fx, "agent fake?!");
	assert_manifest_has(fx, "file incomplete /proc/version 100 EPIPE");
	assert_manifest_has(fx, "file missing /proc/cmdline 0 ENOTCONN");
	assert_manifest_has(fx, "file missing /proc/lockdep 0 unlisted");
	assert_manifest_has(fx, "kmsg complete 0 - - -");
	got = raw_file(fx, "files/proc/version.incomplete", &size);
	assert_non_null(got);
	assert_int_equal(size, 100);
	free(got);
	assert_no_raw_file(fx, "files/proc/version");
	assert_no_raw_file(fx, "files/proc/version.part");
	/* the kernel log came whole before the files: it is kept */
	got = raw_file(fx, "kmsg", &size);
	assert_non_null(got);
	assert_int_equal(size, 0);
	free(got);
}

static void script_cuts_frame(struct proto_conn *c)
{
	uint8_t header[PROTO_HEADER_SIZE];
	char data[100];

	script_start(c, "/proc/version\n");
	expect_request(c, PROTO_READ);
	memset(data, 'y', sizeof(data));
	send_frame(c, PROTO_DATA, data, sizeof(data));
	proto_header_encode(header, PROTO_DATA, 50);
	child_check(write(c->fd, header, sizeof(header)) == sizeof(header));
	child_check(write(c->fd, data, 10) == 10);
}

static void test_agent_cuts_frame(void **state)
{
	struct fixture *fx = *state;

	start_agent(fx, script_cuts_frame);
	collect(fx, 10, false, NULL, 0);
	assert_int_equal(agent_exit(fx), 0);
	assert_int_equal(fx->exit_status, EXIT_PARTIAL);
	assert_manifest_has(fx, "file incomplete /proc/version 100 ECONNRESET");
}

static void script_oversized(struct proto_conn *c)
{
	uint8_t header[PROTO_HEADER_SIZE];

	script_start(c, "/proc/version\n");
	expect_request(c, PROTO_READ);
	proto_header_encode(header, PROTO_DATA, 0xfffffff0u);
	child_check(write(c->fd, header, sizeof(header)) == sizeof(header));
	/* stay connected: the host must drop us, not wait for 4 GiB */
	expect_request(c, 0xff);
}

static void test_agent_oversized_frame(void **state)
{
	struct fixture *fx = *state;

	start_agent(fx, script_oversized);
	collect(fx, 10, false, NULL, 0);
	assert_int_equal(agent_exit(fx), 3);	/* it saw the host go */
	assert_int_equal(fx->exit_status, EXIT_PARTIAL);
	assert_manifest_has(fx, "file missing /proc/version 0 EMSGSIZE");
}

static void script_lies_about_size(struct proto_conn *c)
{
	script_start(c, "/proc/version\n");
	expect_request(c, PROTO_READ);
	send_frame(c, PROTO_DATA, "abc", 3);
	child_check(!proto_conn_send_end(c, 4, PROTO_NO_DEADLINE));
}

static void test_agent_end_mismatch(void **state)
{
	struct fixture *fx = *state;

	start_agent(fx, script_lies_about_size);
	collect(fx, 10, false, NULL, 0);
	agent_exit(fx);
	assert_int_equal(fx->exit_status, EXIT_PARTIAL);
	assert_manifest_has(fx, "file incomplete /proc/version 3 EPROTO");
	assert_no_raw_file(fx, "files/proc/version");
}

static void send_record(struct proto_conn *c, const char *rec)
{
	send_frame(c, PROTO_RECORD, rec, strlen(rec));
}

#define EVENT_1 "     kworker/0:1-12      [000] d..2.     1.234567: lockdep_usage: class=1 bit=8 trace=3\n"
#define EVENT_2 "     kworker/0:1-12      [000] d..2.     2.000000: lockdep_class_zapped: class=1\n"

/*
 * Offers a foreign path, has an empty file, a kernel log with a gap, and
 * dependency events in the first dump and the last.
 */
static void script_gap(struct proto_conn *c)
{
	struct proto_frame f;
	int i;

	script_hello(c);
	f = expect_request(c, PROTO_KMSG);
	child_check(f.len == PROTO_KMSG_SIZE &&
		    f.payload[0] == (PROTO_KMSG_DUMP | PROTO_KMSG_EVENTS) &&
		    proto_get_be64(f.payload + 1) == 0);
	/* the events are on: an empty EVENTS first, then lines */
	send_frame(c, PROTO_EVENTS, NULL, 0);
	send_frame(c, PROTO_EVENTS, EVENT_1, strlen(EVENT_1));
	send_record(c, "6,5,100,-;first\n");
	send_record(c, "6,6,101,-;second, no newline");
	send_record(c, "6,9,102,-;after a gap\n SUBSYSTEM=x\n");
	child_check(!proto_conn_send_end(c, 3, PROTO_NO_DEADLINE));
	/* the trigger, then the next dump asks for what follows 9 */
	f = expect_request(c, PROTO_TRIGGER);
	child_check(f.len == 5 && !memcmp(f.payload, "ab_ba", 5));
	send_frame(c, PROTO_OK, NULL, 0);
	f = expect_request(c, PROTO_KMSG);
	child_check(proto_get_be64(f.payload + 1) == 10);
	for (i = 0; i < 2; i++)
		send_record(c, i ? "4,11,200,-;b\n" : "4,10,200,-;a\n");
	child_check(!proto_conn_send_end(c, 2, PROTO_NO_DEADLINE));
	/* the files come after the triggers */
	script_list(c, "/etc/shadow\n/proc/../etc/shadow\n/proc/version");
	f = expect_request(c, PROTO_READ);
	child_check(f.len == 13 && !memcmp(f.payload, "/proc/version", 13));
	child_check(!proto_conn_send_end(c, 0, PROTO_NO_DEADLINE));
	/* the last dump: the events of the meantime */
	expect_request(c, PROTO_KMSG);
	send_frame(c, PROTO_EVENTS, EVENT_2, strlen(EVENT_2));
	child_check(!proto_conn_send_end(c, 0, PROTO_NO_DEADLINE));
	expect_request(c, PROTO_POWEROFF);
	send_frame(c, PROTO_OK, NULL, 0);
}

static void test_kmsg_gap_and_foreign_paths(void **state)
{
	static const char *const triggers[] = { "ab_ba" };
	static const char kmsg[] =
		"6,5,100,-;first\n"
		"6,6,101,-;second, no newline\n"
		"6,9,102,-;after a gap\n SUBSYSTEM=x\n"
		"4,10,200,-;a\n"
		"4,11,200,-;b\n";
	struct fixture *fx = *state;
	size_t size;
	char *got;

	start_agent(fx, script_gap);
	collect(fx, 10, true, triggers, 1);
	assert_int_equal(agent_exit(fx), 0);
	assert_int_equal(fx->ret, 0);
	assert_manifest_has(fx, "file complete /proc/version 0");
	assert_manifest_has(fx, "kmsg complete 5 5 11 7-8");
	assert_manifest_has(fx, "trigger done ab_ba");
	got = raw_file(fx, "files/proc/version", &size);
	assert_non_null(got);
	assert_int_equal(size, 0);
	free(got);
	got = raw_file(fx, "kmsg", &size);
	assert_non_null(got);
	assert_string_equal(got, kmsg);
	free(got);
	got = raw_file(fx, "events", &size);
	assert_non_null(got);
	assert_string_equal(got, EVENT_1 EVENT_2);
	free(got);
	assert_manifest_has(fx, "events 169");
	/* required files were not offered: partial */
	assert_int_equal(fx->exit_status, EXIT_PARTIAL);
}

/*
 * Offers module files among hostile look-alikes and a repeat:
 * only the valid ones are read, once each, in the order offered.
 */
static void script_sections(struct proto_conn *c)
{
	static const char text[] = "0xffffffffc0200000\n";
	struct proto_frame f;
	int err;

	script_start(c, "/proc/version\n"
		     "/sys/module/test_mod/notes/.note.gnu.build-id\n"
		     "/sys/module/test_mod/notes/.note.Linux\n"
		     "/sys/module/test_mod/sections/.text\n"
		     "/sys/module/test_mod/sections/../../../../etc/shadow\n"
		     "/sys/module/Test/sections/.text\n"
		     "/sys/module/test_mod/sections/.text\n"
		     "/sys/module/test_mod/sections/.data\n");
	f = expect_request(c, PROTO_READ);
	child_check(f.len == 13 && !memcmp(f.payload, "/proc/version", 13));
	child_check(!proto_conn_send_end(c, 0, PROTO_NO_DEADLINE));
	f = expect_request(c, PROTO_READ);
	child_check(f.len == 45 &&
		    !memcmp(f.payload, "/sys/module/test_mod/notes/.note.gnu.build-id", 45));
	child_check(!proto_conn_send_end(c, 0, PROTO_NO_DEADLINE));
	f = expect_request(c, PROTO_READ);
	child_check(f.len == 35 &&
		    !memcmp(f.payload, "/sys/module/test_mod/sections/.text", 35));
	send_frame(c, PROTO_DATA, text, sizeof(text) - 1);
	child_check(!proto_conn_send_end(c, sizeof(text) - 1,
					 PROTO_NO_DEADLINE));
	f = expect_request(c, PROTO_READ);
	child_check(f.len == 35 &&
		    !memcmp(f.payload, "/sys/module/test_mod/sections/.data", 35));
	err = ENOENT;
	child_check(!proto_conn_send_error(c, err, PROTO_NO_DEADLINE, "gone"));
	script_last_kmsg(c);
	expect_request(c, PROTO_POWEROFF);
	send_frame(c, PROTO_OK, NULL, 0);
}

static void test_module_sections(void **state)
{
	struct fixture *fx = *state;
	size_t size;
	char *got;

	start_agent(fx, script_sections);
	collect(fx, 10, true, NULL, 0);
	assert_int_equal(agent_exit(fx), 0);
	assert_int_equal(fx->ret, 0);
	assert_manifest_has(fx, "file complete /sys/module/test_mod/sections/.text 19");
	assert_manifest_has(fx, "file missing /sys/module/test_mod/sections/.data 0 ENOENT");
	got = raw_file(fx, "files/sys/module/test_mod/sections/.text", &size);
	assert_non_null(got);
	assert_string_equal(got, "0xffffffffc0200000\n");
	free(got);
	assert_no_raw_file(fx, "files/sys/module/test_mod/sections/.data");
	got = raw_file(fx, "MANIFEST", &size);
	assert_non_null(got);
	assert_null(strstr(got, "shadow"));
	assert_null(strstr(got, "/Test/"));
	assert_null(strstr(got, ".note.Linux"));
	/* no EVENTS frame: a kernel without the events */
	assert_null(strstr(got, "\nevents "));
	free(got);
	assert_no_raw_file(fx, "events");
	assert_manifest_has(fx, "file complete /sys/module/test_mod/notes/.note.gnu.build-id 0");
	assert_int_equal(fx->sum.nfiles, proto_allowlist_len + 3);
}

static void script_kmsg_backwards(struct proto_conn *c)
{
	script_hello(c);
	expect_request(c, PROTO_KMSG);
	send_record(c, "6,5,100,-;a\n");
	send_record(c, "6,5,100,-;a again\n");
	expect_request(c, 0xff);
}

static void test_kmsg_backwards(void **state)
{
	struct fixture *fx = *state;

	start_agent(fx, script_kmsg_backwards);
	collect(fx, 10, false, NULL, 0);
	agent_exit(fx);
	assert_int_equal(fx->exit_status, EXIT_PARTIAL);
	assert_manifest_has(fx, "kmsg incomplete 1 5 5 - EPROTO");
}

/* Boots slowly: answers the first HELLO only after the second came. */
static void script_late_hello(struct proto_conn *c)
{
	struct proto_frame first, second, foreign;
	uint8_t old[PROTO_HELLO_SIZE], foreign_p[PROTO_HELLO_SIZE];

	first = expect_request(c, PROTO_HELLO);
	memcpy(old, first.payload, sizeof(old));
	second = expect_request(c, PROTO_HELLO);
	child_check(memcmp(old + 4, second.payload + 4, 4));
	/* left over from an earlier host: a frame, a reply to its HELLO */
	send_frame(c, PROTO_DATA, "stale", 5);
	foreign = first;
	memcpy(foreign_p, old, sizeof(foreign_p));
	foreign_p[4] ^= 0x80;
	foreign.payload = foreign_p;
	answer_hello(c, &foreign);
	/* the first one is taken, the reply to the second must be dropped */
	first.payload = old;
	answer_hello(c, &first);
	answer_hello(c, &second);
	expect_request(c, PROTO_KMSG);
	child_check(!proto_conn_send_end(c, 0, PROTO_NO_DEADLINE));
	expect_request(c, PROTO_LIST);
	send_frame(c, PROTO_LIST_REPLY, NULL, 0);
	script_last_kmsg(c);
}

static void test_late_hello(void **state)
{
	struct fixture *fx = *state;

	start_agent(fx, script_late_hello);
	collect(fx, 10, false, NULL, 0);
	assert_int_equal(agent_exit(fx), 0);
	assert_int_equal(fx->ret, 0);
	assert_manifest_has(fx, "kmsg complete 0 - - -");
}

static void script_refuses(struct proto_conn *c)
{
	int i;

	for (i = 0; i < 2; i++) {
		expect_request(c, PROTO_HELLO);
		child_check(!proto_conn_send_error(c, EPROTONOSUPPORT,
						   PROTO_NO_DEADLINE,
						   "version %d", 9));
	}
	/* the host gives up at its deadline */
	expect_request(c, 0xff);
}

static void test_agent_refuses_hello(void **state)
{
	struct fixture *fx = *state;

	start_agent(fx, script_refuses);
	collect(fx, 2, false, NULL, 0);
	agent_exit(fx);
	assert_int_equal(fx->exit_status, EXIT_FATAL);
	assert_int_equal(fx->sum.identity[0], '\0');
}

static void script_silent(struct proto_conn *c)
{
	expect_request(c, PROTO_HELLO);
	expect_request(c, PROTO_HELLO);
	/* the host gives up and closes */
	expect_request(c, 0xff);
}

static void test_agent_never_answers(void **state)
{
	struct fixture *fx = *state;

	start_agent(fx, script_silent);
	collect(fx, 2, false, NULL, 0);
	assert_int_equal(agent_exit(fx), 3);
	assert_int_equal(fx->exit_status, EXIT_FATAL);
	assert_manifest_has(fx, "file missing /proc/version 0 ENOTCONN");
}

/*
 * A kernel log dump that never ends: records of 4 KiB, one every
 * @pause_ms, until the collector hangs up.
 */
static void endless_dump(struct proto_conn *c, long pause_ms)
{
	const struct timespec pause = { .tv_nsec = pause_ms * 1000000L };
	char rec[4096];
	uint64_t seq;
	int n;

	script_hello(c);
	expect_request(c, PROTO_KMSG);
	for (seq = 0;; seq++) {
		n = snprintf(rec, sizeof(rec), "6,%llu,0,-;",
			     (unsigned long long)seq);
		memset(rec + n, 'x', sizeof(rec) - n - 1);
		rec[sizeof(rec) - 1] = '\n';
		if (proto_conn_send(c, PROTO_RECORD, rec, sizeof(rec),
				    proto_now_ms() + 10000))
			_exit(0);
		if (pause_ms)
			nanosleep(&pause, NULL);
	}
}

static void script_endless_dump(struct proto_conn *c)
{
	endless_dump(c, 0);
}

static void script_slow_endless_dump(struct proto_conn *c)
{
	endless_dump(c, 100);
}

/* The kmsg line says incomplete for @reason, and kmsg kept records. */
static void assert_kmsg_cut(struct fixture *fx, const char *reason)
{
	char *m, *line, path[256], want[64];
	struct stat st;
	size_t size;

	m = raw_file(fx, "MANIFEST", &size);
	assert_non_null(m);
	line = strstr(m, "\nkmsg incomplete ");
	if (!line)
		fail_msg("no incomplete kmsg line in:\n%s", m);
	snprintf(want, sizeof(want), " %s\n", reason);
	if (!strstr(line, want) || strstr(line, want) > strchr(line + 1, '\n'))
		fail_msg("the kmsg line does not end with '%s':\n%s", reason, m);
	free(m);
	snprintf(path, sizeof(path), "%s/kmsg", fx->raw);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size > 0);
}

static void test_endless_kmsg_dump(void **state)
{
	struct fixture *fx = *state;

	start_agent(fx, script_endless_dump);
	collect(fx, 10, false, NULL, 0);
	assert_int_equal(agent_exit(fx), 0);
	assert_int_equal(fx->exit_status, EXIT_PARTIAL);
	assert_true(fx->sum.kmsg.records * 4096 > KMSG_DUMP_MAX);
	assert_true(fx->sum.kmsg.records * 4096 <= KMSG_DUMP_MAX + 4096);
	assert_kmsg_cut(fx, "EFBIG");
}

static void test_slow_endless_kmsg_dump(void **state)
{
	struct fixture *fx = *state;
	int64_t t0 = proto_now_ms();

	start_agent(fx, script_slow_endless_dump);
	collect(fx, 1, false, NULL, 0);
	assert_int_equal(agent_exit(fx), 0);
	assert_true(proto_now_ms() - t0 < 5000);
	assert_int_equal(fx->exit_status, EXIT_PARTIAL);
	assert_kmsg_cut(fx, "ETIME");
}

/*
 * A workload still running at --run-timeout, whose OUTPUT_REPLY claims
 * 2^64 - 1 bytes of output: more than the database counts.
 */
static void script_output_claims_2_64(struct proto_conn *c)
{
	static uint8_t reply[PROTO_OUTPUT_HEADER + PROTO_WORKLOAD_OUTPUT];
	uint8_t seq[PROTO_STARTED_SIZE] = { 0 };
	struct proto_frame f;

	script_hello(c);
	script_last_kmsg(c);
	expect_request(c, PROTO_RUN);
	send_frame(c, PROTO_STARTED, seq, sizeof(seq));
	expect_request(c, PROTO_KMSG);		/* the follow */
	expect_request(c, PROTO_KMSG);		/* its stop at the timeout */
	child_check(!proto_conn_send_end(c, 0, PROTO_NO_DEADLINE));
	child_check(!proto_conn_send_end(c, 0, PROTO_NO_DEADLINE));
	expect_request(c, PROTO_OUTPUT);
	proto_put_be64(reply, UINT64_MAX);
	memset(reply + PROTO_OUTPUT_HEADER, 'o', PROTO_WORKLOAD_OUTPUT);
	send_frame(c, PROTO_OUTPUT_REPLY, reply, sizeof(reply));
	/* whatever the host asks next, until it goes */
	while (proto_conn_recv(c, &f, proto_now_ms() + 10000) == 1)
		;
}

static void test_output_claims_2_64(void **state)
{
	struct fixture *fx = *state;
	struct collect_agent_opts o = {
		.socket_path = fx->sock,
		.timeout_s = 10,
		.run_timeout_s = 1,
	};
	struct collect_sink *sink;

	start_agent(fx, script_output_claims_2_64);
	assert_int_equal(collect_summary_init(&fx->sum, NULL, 0), 0);
	snprintf(fx->sum.workload.name, sizeof(fx->sum.workload.name), "w.sh");
	sink = raw_sink_new(fx->raw);
	assert_non_null(sink);
	fx->ret = collect_from_agent(&o, &fx->sum, sink);
	assert_int_equal(sink->ops->finish(sink, &fx->sum), 0);
	sink->ops->free(sink);
	assert_int_equal(agent_exit(fx), 0);
	fx->exit_status = fx->ret ? fx->ret :
			  collect_summary_exit_status(&fx->sum);
	assert_int_equal(fx->exit_status, EXIT_PARTIAL);
	assert_true(fx->sum.workload.output_total <= INT64_MAX);
	assert_null(fx->sum.workload.output);
	assert_manifest_has(fx, "workload running w.sh 0 - - - -");
}

/*
 * A workload's EXITED frame claiming a run of 2^64 - 1 ms: refused, and
 * the workload left as it was, not with that number (stored as a
 * negative duration) or the frame's output.
 */
static void script_exited_claims_2_64(struct proto_conn *c)
{
	uint8_t exited[PROTO_EXITED_HEADER + 3] = { 0 };
	uint8_t seq[PROTO_STARTED_SIZE] = { 0 };
	struct proto_frame f;

	script_hello(c);
	script_last_kmsg(c);
	expect_request(c, PROTO_RUN);
	send_frame(c, PROTO_STARTED, seq, sizeof(seq));
	expect_request(c, PROTO_KMSG);		/* the follow */
	proto_put_be64(exited + 4, UINT64_MAX);	/* duration */
	proto_put_be64(exited + 20, 3);		/* output bytes */
	memcpy(exited + PROTO_EXITED_HEADER, "out", 3);
	send_frame(c, PROTO_EXITED, exited, sizeof(exited));
	while (proto_conn_recv(c, &f, proto_now_ms() + 10000) == 1)
		;
}

static void test_exited_claims_2_64(void **state)
{
	struct fixture *fx = *state;
	struct collect_agent_opts o = {
		.socket_path = fx->sock,
		.timeout_s = 10,
		.run_timeout_s = 10,
	};
	struct collect_sink *sink;

	start_agent(fx, script_exited_claims_2_64);
	assert_int_equal(collect_summary_init(&fx->sum, NULL, 0), 0);
	snprintf(fx->sum.workload.name, sizeof(fx->sum.workload.name), "w.sh");
	sink = raw_sink_new(fx->raw);
	assert_non_null(sink);
	fx->ret = collect_from_agent(&o, &fx->sum, sink);
	assert_int_equal(sink->ops->finish(sink, &fx->sum), 0);
	sink->ops->free(sink);
	assert_int_equal(agent_exit(fx), 0);
	assert_int_equal(fx->sum.workload.state, WORKLOAD_RUNNING);
	assert_int_equal(fx->sum.workload.duration_ms, 0);
	assert_int_equal(fx->sum.workload.output_total, 0);
	assert_null(fx->sum.workload.output);
}

static void test_no_socket(void **state)
{
	struct fixture *fx = *state;
	int64_t t0 = proto_now_ms();

	collect(fx, 1, false, NULL, 0);
	assert_int_equal(fx->exit_status, EXIT_FATAL);
	assert_true(proto_now_ms() - t0 >= 1000);	/* it retried */
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_real_agent),
		T(test_agent_dies_mid_file),
		T(test_agent_cuts_frame),
		T(test_agent_oversized_frame),
		T(test_agent_end_mismatch),
		T(test_kmsg_gap_and_foreign_paths),
		T(test_module_sections),
		T(test_kmsg_backwards),
		T(test_late_hello),
		T(test_agent_refuses_hello),
		T(test_agent_never_answers),
		T(test_endless_kmsg_dump),
		T(test_slow_endless_kmsg_dump),
		T(test_no_socket),
		T(test_output_claims_2_64),
		T(test_exited_claims_2_64),
	};
#undef T

	/* as in the tools: a peer that went away is EPIPE, not a signal */
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
