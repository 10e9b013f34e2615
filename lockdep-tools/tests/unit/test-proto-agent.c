// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's request loop (agent_serve) in a child process, driven over a
 * socketpair with hand-made frames: every request, every refusal, and the
 * connection staying usable after each refusal. Files come from this
 * host's real /proc.
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
#include <unistd.h>
#include <cmocka.h>

#include "agent/agent.h"
#include "proto/allowlist.h"
#include "proto/message.h"

#define DEADLINE	(proto_now_ms() + 10000)

struct agent_child {
	pid_t pid;
	int fd;
	struct proto_conn conn;
};

static int start_agent(void **state)
{
	struct agent_child *ac = calloc(1, sizeof(*ac));
	struct proto_conn c;
	int sv[2], ret;

	assert_non_null(ac);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	ac->pid = fork();
	assert_true(ac->pid >= 0);
	if (!ac->pid) {
		close(sv[0]);
		proto_conn_init(&c, sv[1]);
		ret = agent_serve(&c);
		proto_conn_release(&c);
		_exit(ret < 0 ? 100 : ret);
	}
	close(sv[1]);
	ac->fd = sv[0];
	proto_conn_init(&ac->conn, ac->fd);
	*state = ac;
	return 0;
}

/* The child's agent_serve() result. */
static int agent_result(struct agent_child *ac)
{
	int status;

	assert_int_equal(waitpid(ac->pid, &status, 0), ac->pid);
	assert_true(WIFEXITED(status));
	ac->pid = 0;
	return WEXITSTATUS(status);
}

static int stop_agent(void **state)
{
	struct agent_child *ac = *state;

	proto_conn_release(&ac->conn);
	close(ac->fd);
	if (ac->pid)
		agent_result(ac);
	free(ac);
	return 0;
}

static void request(struct agent_child *ac, uint8_t type, const void *p,
		    size_t len)
{
	assert_int_equal(proto_conn_send(&ac->conn, type, p, len, DEADLINE), 0);
}

static struct proto_frame reply(struct agent_child *ac)
{
	struct proto_frame f;

	assert_int_equal(proto_conn_recv(&ac->conn, &f, DEADLINE), 1);
	return f;
}

/* Expect an ERROR reply carrying @err. */
static void expect_error(struct agent_child *ac, int err)
{
	struct proto_frame f = reply(ac);
	char msg[PROTO_MAX_ERROR_MSG];
	int got;

	assert_int_equal(f.type, PROTO_ERROR);
	assert_int_equal(proto_error_decode(&f, &got, msg, sizeof(msg)), 0);
	assert_int_equal(got, err);
	assert_true(strlen(msg) > 0);
}

static void hello(struct agent_child *ac, uint32_t version, uint32_t nonce)
{
	uint8_t p[PROTO_HELLO_SIZE];

	proto_put_be32(p, version);
	proto_put_be32(p + 4, nonce);
	request(ac, PROTO_HELLO, p, sizeof(p));
}

static void test_hello(void **state)
{
	struct agent_child *ac = *state;
	struct proto_frame f;

	hello(ac, PROTO_VERSION, 0xdeadbeef);
	f = reply(ac);
	assert_int_equal(f.type, PROTO_HELLO_REPLY);
	assert_true(f.len > PROTO_HELLO_SIZE);
	assert_int_equal(proto_get_be32(f.payload), PROTO_VERSION);
	assert_int_equal(proto_get_be32(f.payload + 4), 0xdeadbeef);
	assert_memory_equal(f.payload + 8, "lockdep-agent 1 ", 16);

	hello(ac, PROTO_VERSION + 1, 1);
	expect_error(ac, EPROTONOSUPPORT);
	request(ac, PROTO_HELLO, "x", 1);
	expect_error(ac, EINVAL);
}

static void test_list(void **state)
{
	struct agent_child *ac = *state;
	struct proto_frame f;
	char expect[4096] = "";
	const char *p, *nl;
	size_t i;

	for (i = 0; i < proto_allowlist_len; i++) {
		strcat(expect, proto_allowlist[i].path);
		strcat(expect, "\n");
	}
	request(ac, PROTO_LIST, NULL, 0);
	f = reply(ac);
	assert_int_equal(f.type, PROTO_LIST_REPLY);
	assert_true(f.len >= strlen(expect));
	assert_memory_equal(f.payload, expect, strlen(expect));
	/* then this host's module files, if it has modules */
	for (p = (const char *)f.payload + strlen(expect);
	     p < (const char *)f.payload + f.len; p = nl + 1) {
		nl = memchr(p, '\n', (const char *)f.payload + f.len - p);
		assert_non_null(nl);
		assert_true(proto_module_file_path(p, nl - p));
	}
	request(ac, PROTO_LIST, "x", 1);
	expect_error(ac, EINVAL);
}

/* READ @path; returns its bytes (malloc'd) or NULL with *@err set. */
static char *read_file(struct agent_child *ac, const char *path,
		       size_t *size, int *err)
{
	char msg[PROTO_MAX_ERROR_MSG];
	struct proto_frame f;
	char *buf = NULL;

	*size = 0;
	request(ac, PROTO_READ, path, strlen(path));
	for (;;) {
		f = reply(ac);
		if (f.type == PROTO_ERROR) {
			assert_int_equal(proto_error_decode(&f, err, msg,
							    sizeof(msg)), 0);
			free(buf);
			return NULL;
		}
		if (f.type == PROTO_END)
			break;
		assert_int_equal(f.type, PROTO_DATA);
		assert_true(f.len <= PROTO_CHUNK);
		buf = realloc(buf, *size + f.len + 1);
		assert_non_null(buf);
		memcpy(buf + *size, f.payload, f.len);
		*size += f.len;
	}
	assert_int_equal(f.len, PROTO_END_SIZE);
	assert_int_equal(proto_get_be64(f.payload), *size);
	return buf ? buf : strdup("");
}

static void test_read_real_proc(void **state)
{
	struct agent_child *ac = *state;
	char expect[4096];
	size_t size;
	FILE *fp;
	char *got;
	size_t n;
	int err;

	fp = fopen("/proc/version", "r");
	assert_non_null(fp);
	n = fread(expect, 1, sizeof(expect), fp);
	fclose(fp);
	got = read_file(ac, "/proc/version", &size, &err);
	assert_non_null(got);
	assert_int_equal(size, n);
	assert_memory_equal(got, expect, n);
	free(got);

	/* this host's kernel has no lockdep: the agent says ENOENT */
	if (access("/proc/lockdep", F_OK)) {
		assert_null(read_file(ac, "/proc/lockdep", &size, &err));
		assert_int_equal(err, ENOENT);
	}
}

static void test_read_refused(void **state)
{
	static const char *const refused[] = {
		"/etc/passwd", "/proc//version", "/proc/version/",
		"/proc/../proc/version", "proc/version", "",
		"/sys/module/x/sections/../../../../etc/passwd",
		"/sys/module/../../etc/sections/passwd",
		"/sys/module/x/sections/.text/../../../../../etc/passwd",
	};
	struct agent_child *ac = *state;
	size_t i, size;
	int err;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		assert_null(read_file(ac, refused[i], &size, &err));
		assert_int_equal(err, EPERM);
	}
	/* a path with a NUL after an allowed prefix */
	request(ac, PROTO_READ, "/proc/version\0x", 15);
	expect_error(ac, EPERM);
	request(ac, PROTO_READ, "/sys/module/x/sections/.text\0/x", 30);
	expect_error(ac, EPERM);
	/* the pattern is allowed: a module that is not loaded is ENOENT */
	assert_null(read_file(ac, "/sys/module/no_such_module_here/sections/.text",
			      &size, &err));
	assert_int_equal(err, ENOENT);
}

static void test_unknown_type_keeps_connection(void **state)
{
	struct agent_child *ac = *state;
	struct proto_frame f;

	request(ac, 0xee, "junk", 4);
	expect_error(ac, EOPNOTSUPP);
	request(ac, PROTO_DATA, "junk", 4);	/* a reply is no request */
	expect_error(ac, EOPNOTSUPP);
	request(ac, 0, NULL, 0);
	expect_error(ac, EOPNOTSUPP);
	request(ac, PROTO_LIST, NULL, 0);
	f = reply(ac);
	assert_int_equal(f.type, PROTO_LIST_REPLY);
}

static void test_trigger(void **state)
{
	struct agent_child *ac = *state;

	request(ac, PROTO_TRIGGER, "Bad Name", 8);
	expect_error(ac, EINVAL);
	request(ac, PROTO_TRIGGER, "", 0);
	expect_error(ac, EINVAL);
	/* no test module on this host: the trigger file is not there */
	if (access(AGENT_TRIGGER_PATH, F_OK)) {
		request(ac, PROTO_TRIGGER, "ab_ba", 5);
		expect_error(ac, ENOENT);
	}
}

/* Read a KMSG reply: returns the number of records, checks END. */
static uint64_t kmsg_records(struct agent_child *ac, uint64_t *first)
{
	struct proto_frame f;
	uint64_t n = 0, seq, last = 0;

	for (;;) {
		f = reply(ac);
		if (f.type == PROTO_END)
			break;
		assert_int_equal(f.type, PROTO_RECORD);
		assert_int_equal(proto_kmsg_seq(f.payload, f.len, &seq), 0);
		if (n)
			assert_true(seq > last);
		else
			*first = seq;
		last = seq;
		n++;
	}
	assert_int_equal(f.len, PROTO_END_SIZE);
	assert_int_equal(proto_get_be64(f.payload), n);
	return n;
}

static void kmsg(struct agent_child *ac, uint8_t mode, uint64_t from)
{
	uint8_t p[PROTO_KMSG_SIZE];

	p[0] = mode;
	proto_put_be64(p + 1, from);
	request(ac, PROTO_KMSG, p, sizeof(p));
}

static void test_kmsg_dump_and_follow(void **state)
{
	struct agent_child *ac = *state;
	uint64_t all, some, first, first2;
	struct proto_frame f;

	if (access("/dev/kmsg", R_OK)) {
		skip();
		return;
	}
	kmsg(ac, PROTO_KMSG_DUMP, 0);
	all = kmsg_records(ac, &first);
	assert_true(all > 1);
	/* from a later sequence number: fewer records, none before it */
	kmsg(ac, PROTO_KMSG_DUMP, first + 1);
	some = kmsg_records(ac, &first2);
	assert_true(some < all);
	assert_true(first2 >= first + 1);

	/* follow ends, with END, as soon as the host sends a request */
	kmsg(ac, PROTO_KMSG_FOLLOW, 0);
	request(ac, PROTO_LIST, NULL, 0);
	assert_true(kmsg_records(ac, &first) >= all);
	f = reply(ac);
	assert_int_equal(f.type, PROTO_LIST_REPLY);

	kmsg(ac, 7, 0);
	expect_error(ac, EINVAL);
	request(ac, PROTO_KMSG, "d", 1);
	expect_error(ac, EINVAL);
}

static void test_poweroff(void **state)
{
	struct agent_child *ac = *state;
	struct proto_frame f;

	request(ac, PROTO_POWEROFF, "x", 1);
	expect_error(ac, EINVAL);
	request(ac, PROTO_POWEROFF, NULL, 0);
	f = reply(ac);
	assert_int_equal(f.type, PROTO_OK);
	assert_int_equal(f.len, 0);
	assert_int_equal(agent_result(ac), AGENT_POWEROFF);
}

/*
 * RUN once: STARTED, then EBUSY; the end comes as EXITED inside the next
 * KMSG follow, with the exit status and the output. OUTPUT gives the
 * output too, and before RUN there is none to give.
 */
static void test_run(void **state)
{
	struct agent_child *ac = *state;
	uint8_t stop[PROTO_KMSG_SIZE] = { PROTO_KMSG_DUMP };
	uint8_t follow[PROTO_KMSG_SIZE] = { PROTO_KMSG_FOLLOW };
	static const char out[] = "workload output\n";
	struct proto_frame f;
	bool exited = false;

	request(ac, PROTO_RUN, "x", 1);
	expect_error(ac, EINVAL);
	request(ac, PROTO_OUTPUT, NULL, 0);
	expect_error(ac, ENOENT);
	request(ac, PROTO_RUN, NULL, 0);
	f = reply(ac);
	assert_int_equal(f.type, PROTO_STARTED);
	assert_int_equal(f.len, PROTO_STARTED_SIZE);
	request(ac, PROTO_RUN, NULL, 0);
	expect_error(ac, EBUSY);
	/* from past every record: only EXITED can come */
	proto_put_be64(follow + 1, UINT64_MAX);
	request(ac, PROTO_KMSG, follow, sizeof(follow));
	while (!exited) {
		f = reply(ac);
		if (f.type == PROTO_RECORD)
			continue;
		assert_int_equal(f.type, PROTO_EXITED);
		assert_int_equal(f.len, PROTO_EXITED_HEADER + strlen(out));
		assert_int_equal(proto_get_be32(f.payload), 7 << 8);
		assert_int_equal(proto_get_be64(f.payload + 20), strlen(out));
		assert_memory_equal(f.payload + PROTO_EXITED_HEADER, out,
				    strlen(out));
		exited = true;
	}
	proto_put_be64(stop + 1, UINT64_MAX);
	request(ac, PROTO_KMSG, stop, sizeof(stop));
	f = reply(ac);
	assert_int_equal(f.type, PROTO_END);
	f = reply(ac);
	assert_int_equal(f.type, PROTO_END);
	request(ac, PROTO_OUTPUT, "x", 1);
	expect_error(ac, EINVAL);
	request(ac, PROTO_OUTPUT, NULL, 0);
	f = reply(ac);
	assert_int_equal(f.type, PROTO_OUTPUT_REPLY);
	assert_int_equal(f.len, PROTO_OUTPUT_HEADER + strlen(out));
	assert_int_equal(proto_get_be64(f.payload), strlen(out));
	assert_memory_equal(f.payload + PROTO_OUTPUT_HEADER, out, strlen(out));
}

static void test_oversized_drops(void **state)
{
	struct agent_child *ac = *state;
	uint8_t header[PROTO_HEADER_SIZE];
	struct proto_frame f;

	proto_header_encode(header, PROTO_READ, PROTO_MAX_PAYLOAD + 1);
	assert_int_equal(write(ac->fd, header, sizeof(header)),
			 sizeof(header));
	expect_error(ac, EMSGSIZE);
	assert_int_equal(agent_result(ac), AGENT_DROP);
	assert_int_equal(proto_conn_recv(&ac->conn, &f, DEADLINE), 0);
}

static void test_truncated_request_drops(void **state)
{
	struct agent_child *ac = *state;
	uint8_t frame[PROTO_HEADER_SIZE + 3];

	proto_header_encode(frame, PROTO_READ, 13);
	memcpy(frame + PROTO_HEADER_SIZE, "/pr", 3);
	assert_int_equal(write(ac->fd, frame, sizeof(frame)), sizeof(frame));
	shutdown(ac->fd, SHUT_WR);
	assert_int_equal(agent_result(ac), AGENT_DROP);
}

static void test_hangup(void **state)
{
	struct agent_child *ac = *state;

	shutdown(ac->fd, SHUT_WR);
	assert_int_equal(agent_result(ac), AGENT_HANGUP);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, start_agent, stop_agent)
	const struct CMUnitTest tests[] = {
		T(test_hello),
		T(test_list),
		T(test_read_real_proc),
		T(test_read_refused),
		T(test_unknown_type_keeps_connection),
		T(test_trigger),
		T(test_kmsg_dump_and_follow),
		T(test_poweroff),
		T(test_run),
		T(test_oversized_drops),
		T(test_truncated_request_drops),
		T(test_hangup),
	};
#undef T

	char dir[] = "/tmp/ldt-agent-run.XXXXXX", script[64];
	FILE *fp;
	int ret;

	/* the workload of test_run, set before the agents are forked */
	if (!mkdtemp(dir))
		return 1;
	snprintf(script, sizeof(script), "%s/run", dir);
	fp = fopen(script, "w");
	if (!fp)
		return 1;
	fputs("#!/bin/sh\necho workload output\nexit 7\n", fp);
	fclose(fp);
	chmod(script, 0755);
	agent_workload_set_path(script);
	/* as in the tools: a peer that went away is EPIPE, not a signal */
	signal(SIGPIPE, SIG_IGN);
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(script);
	rmdir(dir);
	return ret;
}
