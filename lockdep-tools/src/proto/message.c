// SPDX-License-Identifier: GPL-2.0
/*
 * Checks and decoders for payloads both ends interpret. Everything here
 * takes (pointer, length) input that may be hostile.
 */
#include <errno.h>

#include "proto/message.h"

bool proto_scenario_valid(const char *name, size_t len)
{
	size_t i;

	if (!len || len > PROTO_MAX_SCENARIO)
		return false;
	for (i = 0; i < len; i++) {
		char ch = name[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
		      ch == '_' || ch == '-'))
			return false;
	}
	return true;
}

int proto_kmsg_seq(const uint8_t *rec, size_t len, uint64_t *seq)
{
	size_t i = 0;
	uint64_t v = 0;

	while (i < len && rec[i] >= '0' && rec[i] <= '9')
		i++;
	if (!i || i == len || rec[i] != ',')
		return -EINVAL;
	i++;
	if (i == len || rec[i] < '0' || rec[i] > '9')
		return -EINVAL;
	for (; i < len && rec[i] >= '0' && rec[i] <= '9'; i++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -EINVAL;
		v = v * 10 + (rec[i] - '0');
	}
	if (i == len || rec[i] != ',')
		return -EINVAL;
	/*
	 * The kernel escapes newlines in the text, so inside a record a
	 * newline only ever starts a " KEY=value" dictionary line; anything
	 * else would smuggle a second record past the sequence check.
	 */
	for (; i + 1 < len; i++)
		if (rec[i] == '\n' && rec[i + 1] != ' ')
			return -EINVAL;
	*seq = v;
	return 0;
}

void proto_sanitize(char *dst, size_t size, const uint8_t *src, size_t len)
{
	size_t i;

	if (len > size - 1)
		len = size - 1;
	for (i = 0; i < len; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? src[i] : '?';
	dst[len] = '\0';
}

int proto_error_decode(const struct proto_frame *f, int *err, char *msg,
		       size_t size)
{
	if (f->type != PROTO_ERROR || f->len < 4)
		return -EINVAL;
	*err = (int)proto_get_be32(f->payload);
	if (*err <= 0 || *err > PROTO_MAX_ERRNO)
		*err = EPROTO;
	proto_sanitize(msg, size, f->payload + 4, f->len - 4);
	return 0;
}
