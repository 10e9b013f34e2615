// SPDX-License-Identifier: GPL-2.0
/*
 * The two requests that touch guest files: READ streams one allow-listed
 * file (or module file, allowlist.h) as DATA frames, TRIGGER writes a
 * scenario name to the test module. A path from the host is opened only
 * when it is byte for byte an allow-list entry, or a module file, whose
 * names have no '/' and are neither "." nor "..".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent/agent.h"
#include "proto/allowlist.h"
#include "proto/message.h"

/* Stream @fd as DATA frames, then END, or ERROR if reading fails. */
static int agent_send_file(struct proto_conn *c, int fd, const char *path)
{
	uint64_t total = 0;
	uint8_t *buf;
	ssize_t n;
	int ret = 0;

	buf = malloc(PROTO_CHUNK);
	if (!buf)
		return proto_conn_send_error(c, ENOMEM, PROTO_NO_DEADLINE,
					     "out of memory reading '%s'",
					     path);
	for (;;) {
		n = read(fd, buf, PROTO_CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = proto_conn_send_error(c, errno,
					PROTO_NO_DEADLINE,
					"unable to read '%s' after %llu bytes",
					path, (unsigned long long)total);
			break;
		}
		if (n == 0) {
			ret = proto_conn_send_end(c, total, PROTO_NO_DEADLINE);
			break;
		}
		ret = proto_conn_send(c, PROTO_DATA, buf, n, PROTO_NO_DEADLINE);
		if (ret)
			break;
		total += n;
	}
	free(buf);
	return ret;
}

int agent_read_file(struct proto_conn *c, const struct proto_frame *req)
{
	const char *payload = (const char *)req->payload;
	const struct proto_allowed *a;
	char module_file[PROTO_MAX_PATH + 1];
	const char *path;
	int fd, ret;

	a = proto_allowlist_find(payload, req->len);
	if (a) {
		path = a->path;
	} else if (proto_module_file_path(payload, req->len)) {
		/* valid, so no NUL inside and at most PROTO_MAX_PATH bytes */
		memcpy(module_file, payload, req->len);
		module_file[req->len] = '\0';
		path = module_file;
	} else {
		return proto_conn_send_error(c, EPERM, PROTO_NO_DEADLINE,
					     "path is not in the allow-list");
	}
	/* an aid to reading the event stream, which needs tracefs too */
	agent_events_mark_read(path);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
	/* the graph export of a kernel of the v2 series, in /proc */
	if (fd < 0 && errno == ENOENT && a && a->fallback) {
		fd = open(a->fallback, O_RDONLY | O_CLOEXEC | O_NOCTTY |
			  O_NOFOLLOW);
		if (fd >= 0 || errno != ENOENT)
			path = a->fallback;
	}
	if (fd < 0)
		return proto_conn_send_error(c, errno, PROTO_NO_DEADLINE,
					     "unable to open '%s'", path);
	ret = agent_send_file(c, fd, path);
	close(fd);
	return ret;
}

int agent_trigger(struct proto_conn *c, const struct proto_frame *req)
{
	ssize_t n;
	int fd, err;

	if (!proto_scenario_valid((const char *)req->payload, req->len))
		return proto_conn_send_error(c, EINVAL, PROTO_NO_DEADLINE,
				"scenario name must be 1-%d characters of [a-z0-9_-]",
				PROTO_MAX_SCENARIO);
	fd = open(AGENT_TRIGGER_PATH, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return proto_conn_send_error(c, errno, PROTO_NO_DEADLINE,
					     "unable to open '%s'",
					     AGENT_TRIGGER_PATH);
	do
		n = write(fd, req->payload, req->len);
	while (n < 0 && errno == EINTR);
	err = n < 0 ? errno : n != (ssize_t)req->len ? EIO : 0;
	close(fd);
	if (err)
		return proto_conn_send_error(c, err, PROTO_NO_DEADLINE,
				"unable to trigger scenario '%.*s'",
				(int)req->len, (const char *)req->payload);
	return proto_conn_send(c, PROTO_OK, NULL, 0, PROTO_NO_DEADLINE);
}
