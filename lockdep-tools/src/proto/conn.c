// SPDX-License-Identifier: GPL-2.0
/*
 * Frame I/O over a file descriptor. Works with blocking and non-blocking
 * descriptors alike: every wait is a poll() bounded by the deadline, and
 * EAGAIN just means "poll again".
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "proto/conn.h"

int64_t proto_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void proto_conn_init(struct proto_conn *c, int fd)
{
	c->fd = fd;
	c->in_pos = 0;
	c->in_len = 0;
	proto_decoder_init(&c->dec);
}

void proto_conn_release(struct proto_conn *c)
{
	proto_decoder_release(&c->dec);
	c->fd = -1;
}

bool proto_conn_buffered(const struct proto_conn *c)
{
	return c->in_pos < c->in_len;
}

/* Wait for @events on @fd until @deadline_ms: 0 when ready, or -errno. */
static int conn_wait(int fd, short events, int64_t deadline_ms)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	int64_t left;
	int n;

	for (;;) {
		left = -1;
		if (deadline_ms != PROTO_NO_DEADLINE) {
			left = deadline_ms - proto_now_ms();
			if (left <= 0)
				return -ETIMEDOUT;
		}
		n = poll(&pfd, 1, left > INT32_MAX ? INT32_MAX : (int)left);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

int proto_conn_recv(struct proto_conn *c, struct proto_frame *f,
		    int64_t deadline_ms)
{
	size_t used;
	ssize_t n;
	int ret;

	for (;;) {
		if (proto_conn_buffered(c)) {
			ret = proto_decoder_feed(&c->dec, c->in + c->in_pos,
						 c->in_len - c->in_pos, &used);
			c->in_pos += used;
			if (ret < 0)
				return ret;
			if (ret == PROTO_FEED_FRAME) {
				*f = c->dec.frame;
				return 1;
			}
		}
		ret = conn_wait(c->fd, POLLIN, deadline_ms);
		if (ret)
			return ret;
		n = read(c->fd, c->in, sizeof(c->in));
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		if (n == 0)
			return proto_decoder_pending(&c->dec) ? -ECONNRESET : 0;
		c->in_pos = 0;
		c->in_len = n;
	}
}

static int conn_write_all(struct proto_conn *c, const uint8_t *p, size_t len,
			  int64_t deadline_ms)
{
	ssize_t n;
	int ret;

	while (len) {
		n = write(c->fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				return -errno;
			ret = conn_wait(c->fd, POLLOUT, deadline_ms);
			if (ret)
				return ret;
			continue;
		}
		p += n;
		len -= n;
	}
	return 0;
}

int proto_conn_send(struct proto_conn *c, uint8_t type, const void *payload,
		    size_t len, int64_t deadline_ms)
{
	uint8_t header[PROTO_HEADER_SIZE];
	int ret;

	if (len > PROTO_MAX_PAYLOAD)
		return -EMSGSIZE;
	proto_header_encode(header, type, len);
	ret = conn_write_all(c, header, sizeof(header), deadline_ms);
	if (!ret && len)
		ret = conn_write_all(c, payload, len, deadline_ms);
	return ret;
}

int proto_conn_send_error(struct proto_conn *c, int err, int64_t deadline_ms,
			  const char *fmt, ...)
{
	uint8_t buf[4 + PROTO_MAX_ERROR_MSG];
	va_list ap;
	int n;

	proto_put_be32(buf, err);
	va_start(ap, fmt);
	n = vsnprintf((char *)buf + 4, PROTO_MAX_ERROR_MSG, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if (n >= PROTO_MAX_ERROR_MSG)
		n = PROTO_MAX_ERROR_MSG - 1;
	return proto_conn_send(c, PROTO_ERROR, buf, 4 + n, deadline_ms);
}

int proto_conn_send_end(struct proto_conn *c, uint64_t total,
			int64_t deadline_ms)
{
	uint8_t buf[PROTO_END_SIZE];

	proto_put_be64(buf, total);
	return proto_conn_send(c, PROTO_END, buf, sizeof(buf), deadline_ms);
}
