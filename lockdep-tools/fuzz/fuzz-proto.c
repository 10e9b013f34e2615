// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the agent protocol frame decoder
 * (src/proto/proto.h) and, on every frame's payload, the decoders of
 * message.h, the module file paths of allowlist.h and the
 * section address parser (parse/module-section.h). The first byte of the
 * input picks the size of the pieces the rest is fed in, as a virtio port
 * or socket would split it.
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "parse/module-section.h"
#include "proto/allowlist.h"
#include "proto/message.h"
#include "proto/proto.h"

/* A READ path (the module files) and a section file's text. */
static void check_section(const struct proto_frame *f)
{
	char module[PROTO_MAX_MODULE_NAME + 1];
	char section[PROTO_MAX_SECTION_NAME + 1];
	unsigned long long addr;
	const char *why = NULL;

	if (proto_module_section_path((const char *)f->payload, f->len, module,
				      section)) {
		FUZZ_CHECK(!memchr(f->payload, '\0', f->len));
		/* one file in sections/: no '/', no "." or ".." component */
		FUZZ_CHECK(!strchr(module, '/') && !strchr(section, '/'));
		FUZZ_CHECK(strcmp(section, ".") && strcmp(section, ".."));
		FUZZ_CHECK(strlen(module) + strlen(section) +
			   strlen(PROTO_MODULE_DIR PROTO_SECTIONS_DIR) == f->len);
	}
	if (proto_module_build_id_path((const char *)f->payload, f->len,
				       module))
		FUZZ_CHECK(strlen(module) + strlen(PROTO_MODULE_DIR
						   PROTO_BUILD_ID_NOTE) ==
			   f->len);
	if (module_section_addr((const char *)f->payload, f->len, &addr, &why))
		FUZZ_CHECK(why != NULL);
}

static void check_frame(const struct proto_frame *f)
{
	char msg[PROTO_MAX_ERROR_MSG + 1];
	unsigned int sum = 0;
	uint64_t seq;
	uint32_t i;
	int err;

	FUZZ_CHECK(f->len <= PROTO_MAX_PAYLOAD);
	FUZZ_CHECK(f->len == 0 || f->payload != NULL);
	for (i = 0; i < f->len; i++)	/* every payload byte is readable */
		sum += f->payload[i];
	(void)sum;
	if (f->type == PROTO_ERROR && !proto_error_decode(f, &err, msg,
							  sizeof(msg)))
		FUZZ_CHECK(err > 0 && err <= PROTO_MAX_ERRNO);
	if (f->type == PROTO_RECORD)
		(void)proto_kmsg_seq(f->payload, f->len, &seq);
	proto_sanitize(msg, sizeof(msg), f->payload, f->len);
	FUZZ_CHECK(strlen(msg) < sizeof(msg));
	(void)proto_type_name(f->type);
	(void)proto_scenario_valid((const char *)f->payload, f->len);
	check_section(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proto_decoder d;
	size_t piece, off = 1, n, used;
	int ret, stalled = 0;

	if (!size)
		return 0;
	piece = data[0] ? data[0] : 4096;
	proto_decoder_init(&d);
	while (off < size) {
		n = size - off < piece ? size - off : piece;
		ret = proto_decoder_feed(&d, data + off, n, &used);
		FUZZ_CHECK(used <= n);
		if (ret == -EMSGSIZE)
			break;	/* the stream cannot be resynchronised */
		FUZZ_CHECK(ret == PROTO_FEED_MORE || ret == PROTO_FEED_FRAME);
		if (ret == PROTO_FEED_FRAME)
			check_frame(&d.frame);
		else
			FUZZ_CHECK(used == n);
		/* a frame may end without consuming; twice in a row is a hang */
		stalled = used ? 0 : stalled + 1;
		FUZZ_CHECK(stalled < 2);
		off += used;
	}
	proto_decoder_release(&d);
	return 0;
}
