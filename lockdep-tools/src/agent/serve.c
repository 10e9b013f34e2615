// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's request loop: one request in, one whole reply out, in order.
 * A malformed or unknown request costs an ERROR reply and nothing else;
 * only a broken stream (oversized length, close mid-frame, I/O error)
 * ends the connection.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "agent/agent.h"
#include "proto/allowlist.h"

static int agent_hello(struct proto_conn *c, const struct proto_frame *req)
{
	uint8_t buf[PROTO_HELLO_SIZE + PROTO_MAX_IDENTITY];
	struct utsname uts;
	uint32_t version;
	int n;

	if (req->len != PROTO_HELLO_SIZE)
		return proto_conn_send_error(c, EINVAL, PROTO_NO_DEADLINE,
				"HELLO payload is %u bytes, expected %d",
				req->len, PROTO_HELLO_SIZE);
	version = proto_get_be32(req->payload);
	if (version != PROTO_VERSION)
		return proto_conn_send_error(c, EPROTONOSUPPORT,
				PROTO_NO_DEADLINE,
				"protocol version %u not supported, agent speaks %d",
				version, PROTO_VERSION);
	if (uname(&uts))
		memset(&uts, 0, sizeof(uts));
	proto_put_be32(buf, PROTO_VERSION);
	memcpy(buf + 4, req->payload + 4, 4);	/* the host's nonce */
	n = snprintf((char *)buf + PROTO_HELLO_SIZE, PROTO_MAX_IDENTITY,
		     "lockdep-agent %d %s %s %s", PROTO_VERSION, uts.sysname,
		     uts.release, uts.machine);
	if (n >= PROTO_MAX_IDENTITY)
		n = PROTO_MAX_IDENTITY - 1;
	return proto_conn_send(c, PROTO_HELLO_REPLY, buf, PROTO_HELLO_SIZE + n,
			       PROTO_NO_DEADLINE);
}

/* Append @n bytes of @s and a newline to the LIST reply in @buf. */
static int list_add(char **buf, size_t *len, size_t *cap, const char *s,
		    size_t n)
{
	char *p;

	if (*len + n + 1 > PROTO_MAX_PAYLOAD)
		return -EOVERFLOW;
	if (*len + n + 1 > *cap) {
		*cap = *cap ? 2 * *cap : 4096;
		if (*cap > PROTO_MAX_PAYLOAD)
			*cap = PROTO_MAX_PAYLOAD;
		p = realloc(*buf, *cap);
		if (!p)
			return -ENOMEM;
		*buf = p;
	}
	memcpy(*buf + *len, s, n);
	(*buf)[*len + n] = '\n';
	*len += n + 1;
	return 0;
}

/* One more module file @path[0..@n), if it exists and there is room. */
static int list_module_file(char **buf, size_t *len, size_t *cap,
			    const char *path, int n, size_t *files)
{
	if (n < 0 || n > PROTO_MAX_PATH || !proto_module_file_path(path, n) ||
	    access(path, F_OK))
		return 0;
	if ((*files)++ == PROTO_MAX_MODULE_FILES)
		return -EOVERFLOW;
	return list_add(buf, len, cap, path, n);
}

/*
 * The module files of the loaded modules (allowlist.h): each one's build
 * id note, then its section files, each valid for the pattern.
 */
static int list_module_files(char **buf, size_t *len, size_t *cap)
{
	char path[PROTO_MAX_PATH + 1];
	struct dirent *m, *e;
	DIR *mods, *secs;
	size_t files = 0;
	int n, ret = 0;

	mods = opendir(PROTO_MODULE_DIR);
	if (!mods)	/* no sysfs, or no modules: nothing to offer */
		return 0;
	while (!ret && (m = readdir(mods))) {
		if (!proto_module_name_valid(m->d_name, strlen(m->d_name)))
			continue;
		snprintf(path, sizeof(path), "%s%s%s", PROTO_MODULE_DIR,
			 m->d_name, PROTO_SECTIONS_DIR);
		secs = opendir(path);
		if (!secs)	/* built in: no sections */
			continue;
		n = snprintf(path, sizeof(path), "%s%s%s", PROTO_MODULE_DIR,
			     m->d_name, PROTO_BUILD_ID_NOTE);
		ret = list_module_file(buf, len, cap, path, n, &files);
		while (!ret && (e = readdir(secs))) {
			n = snprintf(path, sizeof(path), "%s%s%s%s",
				     PROTO_MODULE_DIR, m->d_name,
				     PROTO_SECTIONS_DIR, e->d_name);
			ret = list_module_file(buf, len, cap, path, n, &files);
		}
		closedir(secs);
	}
	closedir(mods);
	return ret;
}

/* Does the kernel have allow-list entry @a, where it is or where it was? */
static bool offered(const struct proto_allowed *a)
{
	if (!access(a->path, F_OK) || errno != ENOENT)
		return true;
	return a->fallback && (!access(a->fallback, F_OK) || errno != ENOENT);
}

/*
 * On the guest's console, once per agent: the allow-listed files this
 * kernel does not have (a kernel without our series has no graph
 * export). The LIST reply still names them all: the host asks, gets
 * ENOENT, and says the same once (lockdep-collect(1)).
 */
static void say_not_offered(void)
{
	static bool said;
	bool any = false;
	size_t i;

	if (said)
		return;
	said = true;
	for (i = 0; i < proto_allowlist_len; i++) {
		if (offered(&proto_allowlist[i]) || proto_allowlist[i].by_agent)
			continue;
		fprintf(stderr, "%s%s", any ? ", " :
			"lockdep-agent: this kernel does not offer: ",
			proto_allowlist[i].path);
		any = true;
	}
	if (any)
		fputc('\n', stderr);
}

static int agent_list(struct proto_conn *c, const struct proto_frame *req)
{
	size_t i, len = 0, cap = 0;
	char *buf = NULL;
	int ret = 0;

	if (req->len)
		return proto_conn_send_error(c, EINVAL, PROTO_NO_DEADLINE,
					     "LIST takes no payload");
	say_not_offered();
	for (i = 0; !ret && i < proto_allowlist_len; i++)
		ret = list_add(&buf, &len, &cap, proto_allowlist[i].path,
			       strlen(proto_allowlist[i].path));
	if (!ret)
		ret = list_module_files(&buf, &len, &cap);
	if (ret == -EOVERFLOW)
		fprintf(stderr,
			"lockdep-agent: more than %d module files, listing the first\n",
			PROTO_MAX_MODULE_FILES);
	if (ret == -ENOMEM)
		ret = proto_conn_send_error(c, ENOMEM, PROTO_NO_DEADLINE,
					    "out of memory listing files");
	else
		ret = proto_conn_send(c, PROTO_LIST_REPLY, buf, len,
				      PROTO_NO_DEADLINE);
	free(buf);
	return ret;
}

static int agent_handle(struct proto_conn *c, const struct proto_frame *req)
{
	const char *name;

	switch (req->type) {
	case PROTO_HELLO:
		return agent_hello(c, req);
	case PROTO_LIST:
		return agent_list(c, req);
	case PROTO_READ:
		return agent_read_file(c, req);
	case PROTO_KMSG:
		return agent_kmsg(c, req);
	case PROTO_TRIGGER:
		return agent_trigger(c, req);
	case PROTO_RUN:
		return agent_run(c, req);
	case PROTO_OUTPUT:
		return agent_workload_output(c, req);
	case PROTO_POWEROFF:
		if (req->len)
			return proto_conn_send_error(c, EINVAL,
					PROTO_NO_DEADLINE,
					"POWEROFF takes no payload");
		return proto_conn_send(c, PROTO_OK, NULL, 0,
				       PROTO_NO_DEADLINE);
	}
	name = proto_type_name(req->type);
	if (name)
		return proto_conn_send_error(c, EOPNOTSUPP, PROTO_NO_DEADLINE,
					     "%s is a reply, not a request",
					     name);
	return proto_conn_send_error(c, EOPNOTSUPP, PROTO_NO_DEADLINE,
				     "unknown request type 0x%02x", req->type);
}

/*
 * Between requests, a running workload's output is still read (a full
 * pipe would stop it) and its end noticed, and lockdep_stats sampled.
 * Returns when a request waits.
 */
static void wait_request(struct proto_conn *c)
{
	struct pollfd pfd[1 + AGENT_WORKLOAD_FDS + AGENT_SAMPLE_FDS];
	int n, timeout;

	while (!proto_conn_buffered(c)) {
		pfd[0] = (struct pollfd){ .fd = c->fd, .events = POLLIN };
		n = 1 + agent_workload_pollfds(pfd + 1);
		n += agent_sample_pollfds(pfd + n);
		timeout = agent_sample_timeout(-1);
		if (n == 1 && timeout < 0)
			return;
		if (poll(pfd, n, timeout) < 0 && errno != EINTR)
			return;
		agent_workload_service();
		agent_sample_service();
		if (pfd[0].revents)
			return;
	}
}

int agent_serve(struct proto_conn *c)
{
	struct proto_frame f;
	int ret;

	for (;;) {
		wait_request(c);
		ret = proto_conn_recv(c, &f, PROTO_NO_DEADLINE);
		if (ret == 0)
			return AGENT_HANGUP;
		if (ret == -ENOMEM)
			return ret;
		if (ret == -EMSGSIZE) {
			fprintf(stderr,
				"lockdep-agent: refusing a frame of %u bytes (limit %u), dropping the connection\n",
				proto_get_be32(c->dec.header),
				PROTO_MAX_PAYLOAD);
			proto_conn_send_error(c, EMSGSIZE, PROTO_NO_DEADLINE,
					"frame of %u bytes exceeds the limit of %u",
					proto_get_be32(c->dec.header),
					PROTO_MAX_PAYLOAD);
			return AGENT_DROP;
		}
		if (ret == -ECONNRESET) {
			fputs("lockdep-agent: the host closed the connection mid-frame, dropping it\n",
			      stderr);
			return AGENT_DROP;
		}
		if (ret < 0) {
			fprintf(stderr,
				"lockdep-agent: unable to read a request: %s, dropping the connection\n",
				strerror(-ret));
			return AGENT_DROP;
		}
		ret = agent_handle(c, &f);
		if (ret) {
			fprintf(stderr,
				"lockdep-agent: unable to send a reply: %s, dropping the connection\n",
				strerror(-ret));
			return AGENT_DROP;
		}
		if (f.type == PROTO_POWEROFF && !f.len)
			return AGENT_POWEROFF;
	}
}
