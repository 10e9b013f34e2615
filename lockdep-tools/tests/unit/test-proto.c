// SPDX-License-Identifier: GPL-2.0
/*
 * Agent protocol framing: the decoder on whole, split, truncated,
 * oversized and garbage input; frame I/O over a socketpair; the payload
 * helpers both ends share.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "parse/module-section.h"
#include "proto/allowlist.h"
#include "proto/conn.h"
#include "proto/message.h"
#include "proto/proto.h"

static const uint8_t every_type[] = {
	PROTO_HELLO, PROTO_LIST, PROTO_READ, PROTO_KMSG, PROTO_TRIGGER,
	PROTO_POWEROFF, PROTO_RUN, PROTO_HELLO_REPLY, PROTO_LIST_REPLY, PROTO_DATA,
	PROTO_END, PROTO_RECORD, PROTO_OK, PROTO_STARTED, PROTO_EXITED,
	PROTO_ERROR,
};

/* header + payload in one malloc'd buffer */
static uint8_t *encode(uint8_t type, const void *payload, uint32_t len,
		       size_t *size)
{
	uint8_t *buf = malloc(PROTO_HEADER_SIZE + len + 1);

	assert_non_null(buf);
	proto_header_encode(buf, type, len);
	if (len)
		memcpy(buf + PROTO_HEADER_SIZE, payload, len);
	*size = PROTO_HEADER_SIZE + len;
	return buf;
}

static void test_round_trip_every_type(void **state)
{
	struct proto_decoder d;
	uint8_t payload[400];
	size_t i, size, used;
	uint8_t *buf;

	(void)state;
	for (i = 0; i < sizeof(payload); i++)
		payload[i] = i * 7;	/* every byte value, NULs included */
	proto_decoder_init(&d);
	for (i = 0; i < sizeof(every_type); i++) {
		buf = encode(every_type[i], payload, 1 + i * 20, &size);
		assert_int_equal(proto_decoder_feed(&d, buf, size, &used),
				 PROTO_FEED_FRAME);
		assert_int_equal(used, size);
		assert_int_equal(d.frame.type, every_type[i]);
		assert_int_equal(d.frame.len, 1 + i * 20);
		assert_memory_equal(d.frame.payload, payload, 1 + i * 20);
		assert_non_null(proto_type_name(every_type[i]));
		assert_int_equal(proto_decoder_pending(&d), 0);
		free(buf);
	}
	proto_decoder_release(&d);
}

static void test_byte_by_byte(void **state)
{
	const char text[] = "/proc/lockdep_stats";
	struct proto_decoder d;
	size_t i, size, used;
	uint8_t *buf;

	(void)state;
	buf = encode(PROTO_READ, text, strlen(text), &size);
	proto_decoder_init(&d);
	for (i = 0; i < size - 1; i++) {
		assert_int_equal(proto_decoder_feed(&d, buf + i, 1, &used),
				 PROTO_FEED_MORE);
		assert_int_equal(used, 1);
		assert_int_equal(proto_decoder_pending(&d), i + 1);
	}
	assert_int_equal(proto_decoder_feed(&d, buf + i, 1, &used),
			 PROTO_FEED_FRAME);
	assert_int_equal(d.frame.type, PROTO_READ);
	assert_int_equal(d.frame.len, strlen(text));
	assert_memory_equal(d.frame.payload, text, strlen(text));
	proto_decoder_release(&d);
	free(buf);
}

static void test_two_frames_one_buffer(void **state)
{
	uint8_t buf[2 * PROTO_HEADER_SIZE + 3];
	struct proto_decoder d;
	size_t used;

	(void)state;
	proto_header_encode(buf, PROTO_DATA, 3);
	memcpy(buf + PROTO_HEADER_SIZE, "abc", 3);
	proto_header_encode(buf + PROTO_HEADER_SIZE + 3, PROTO_OK, 0);
	proto_decoder_init(&d);
	assert_int_equal(proto_decoder_feed(&d, buf, sizeof(buf), &used),
			 PROTO_FEED_FRAME);
	assert_int_equal(used, PROTO_HEADER_SIZE + 3);
	assert_int_equal(d.frame.type, PROTO_DATA);
	assert_int_equal(proto_decoder_feed(&d, buf + used, sizeof(buf) - used,
					    &used), PROTO_FEED_FRAME);
	assert_int_equal(used, PROTO_HEADER_SIZE);
	assert_int_equal(d.frame.type, PROTO_OK);
	assert_int_equal(d.frame.len, 0);
	proto_decoder_release(&d);
}

static void test_zero_length_payload(void **state)
{
	uint8_t buf[PROTO_HEADER_SIZE];
	struct proto_decoder d;
	size_t used;

	(void)state;
	proto_header_encode(buf, PROTO_LIST, 0);
	proto_decoder_init(&d);
	assert_int_equal(proto_decoder_feed(&d, buf, 4, &used),
			 PROTO_FEED_MORE);
	assert_int_equal(proto_decoder_feed(&d, buf + 4, 1, &used),
			 PROTO_FEED_FRAME);
	assert_int_equal(d.frame.type, PROTO_LIST);
	assert_int_equal(d.frame.len, 0);
	assert_int_equal(d.payload_cap, 0);
	proto_decoder_release(&d);
}

static void test_oversized_refused(void **state)
{
	uint8_t buf[PROTO_HEADER_SIZE + 8] = { 0 };
	struct proto_decoder d;
	size_t used;

	(void)state;
	proto_header_encode(buf, PROTO_DATA, PROTO_MAX_PAYLOAD + 1);
	proto_decoder_init(&d);
	assert_int_equal(proto_decoder_feed(&d, buf, sizeof(buf), &used),
			 -EMSGSIZE);
	assert_int_equal(used, PROTO_HEADER_SIZE);
	assert_int_equal(d.payload_cap, 0);	/* nothing allocated */
	/* the stream cannot be resynchronised: refused for good */
	assert_int_equal(proto_decoder_feed(&d, buf + used, 8, &used),
			 -EMSGSIZE);
	assert_int_equal(d.payload_cap, 0);
	proto_decoder_release(&d);

	proto_header_encode(buf, PROTO_DATA, UINT32_MAX);
	proto_decoder_init(&d);
	assert_int_equal(proto_decoder_feed(&d, buf, PROTO_HEADER_SIZE, &used),
			 -EMSGSIZE);
	proto_decoder_release(&d);
}

static void test_max_payload_accepted(void **state)
{
	struct proto_decoder d;
	size_t size, used;
	uint8_t *payload, *buf;

	(void)state;
	payload = calloc(1, PROTO_MAX_PAYLOAD);
	assert_non_null(payload);
	payload[PROTO_MAX_PAYLOAD - 1] = 0x5a;
	buf = encode(PROTO_DATA, payload, PROTO_MAX_PAYLOAD, &size);
	proto_decoder_init(&d);
	assert_int_equal(proto_decoder_feed(&d, buf, size, &used),
			 PROTO_FEED_FRAME);
	assert_int_equal(d.frame.len, PROTO_MAX_PAYLOAD);
	assert_int_equal(d.frame.payload[PROTO_MAX_PAYLOAD - 1], 0x5a);
	proto_decoder_release(&d);
	free(buf);
	free(payload);
}

static void test_garbage_type(void **state)
{
	uint8_t buf[PROTO_HEADER_SIZE + 2];
	struct proto_decoder d;
	size_t used;

	(void)state;
	/* framing is intact, so the frame arrives; the type is the reader's */
	proto_header_encode(buf, 0xee, 2);
	buf[5] = 'x';
	buf[6] = 'y';
	proto_decoder_init(&d);
	assert_int_equal(proto_decoder_feed(&d, buf, sizeof(buf), &used),
			 PROTO_FEED_FRAME);
	assert_int_equal(d.frame.type, 0xee);
	assert_null(proto_type_name(0xee));
	assert_null(proto_type_name(0));
	assert_null(proto_type_name(PROTO_REPLY_BASE));
	proto_decoder_release(&d);
}

static void test_conn_round_trip(void **state)
{
	struct proto_conn a, b;
	struct proto_frame f;
	int sv[2];
	size_t i;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	proto_conn_init(&a, sv[0]);
	proto_conn_init(&b, sv[1]);
	for (i = 0; i < sizeof(every_type); i++)
		assert_int_equal(proto_conn_send(&a, every_type[i], "payload",
						 i % 8, PROTO_NO_DEADLINE), 0);
	assert_int_equal(proto_conn_send_end(&a, 0x0102030405060708ull,
					     PROTO_NO_DEADLINE), 0);
	for (i = 0; i < sizeof(every_type); i++) {
		assert_int_equal(proto_conn_recv(&b, &f, PROTO_NO_DEADLINE), 1);
		assert_int_equal(f.type, every_type[i]);
		assert_int_equal(f.len, i % 8);
		assert_memory_equal(f.payload, "payload", i % 8);
	}
	assert_int_equal(proto_conn_recv(&b, &f, PROTO_NO_DEADLINE), 1);
	assert_int_equal(f.type, PROTO_END);
	assert_int_equal(f.len, PROTO_END_SIZE);
	assert_true(proto_get_be64(f.payload) == 0x0102030405060708ull);
	/* nothing more: the deadline ends the wait */
	assert_int_equal(proto_conn_recv(&b, &f, proto_now_ms() + 50),
			 -ETIMEDOUT);
	assert_int_equal(proto_conn_send(&a, PROTO_DATA, "", PROTO_MAX_PAYLOAD + 1,
					 PROTO_NO_DEADLINE), -EMSGSIZE);
	close(sv[0]);
	assert_int_equal(proto_conn_recv(&b, &f, PROTO_NO_DEADLINE), 0);
	proto_conn_release(&a);
	proto_conn_release(&b);
	close(sv[1]);
}

static void test_conn_truncated(void **state)
{
	uint8_t buf[PROTO_HEADER_SIZE + 4];
	struct proto_conn c;
	struct proto_frame f;
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	proto_header_encode(buf, PROTO_DATA, 100);
	memcpy(buf + PROTO_HEADER_SIZE, "abcd", 4);
	assert_int_equal(write(sv[0], buf, sizeof(buf)), sizeof(buf));
	close(sv[0]);
	proto_conn_init(&c, sv[1]);
	assert_int_equal(proto_conn_recv(&c, &f, PROTO_NO_DEADLINE),
			 -ECONNRESET);
	proto_conn_release(&c);
	close(sv[1]);

	/* cut inside the header */
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(write(sv[0], buf, 3), 3);
	close(sv[0]);
	proto_conn_init(&c, sv[1]);
	assert_int_equal(proto_conn_recv(&c, &f, PROTO_NO_DEADLINE),
			 -ECONNRESET);
	proto_conn_release(&c);
	close(sv[1]);
}

static void test_conn_error_reply(void **state)
{
	struct proto_conn a, b;
	struct proto_frame f;
	char msg[64];
	int sv[2], err;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	proto_conn_init(&a, sv[0]);
	proto_conn_init(&b, sv[1]);
	assert_int_equal(proto_conn_send_error(&a, ENOENT, PROTO_NO_DEADLINE,
					       "no '%s'\n", "x"), 0);
	assert_int_equal(proto_conn_recv(&b, &f, PROTO_NO_DEADLINE), 1);
	assert_int_equal(proto_error_decode(&f, &err, msg, sizeof(msg)), 0);
	assert_int_equal(err, ENOENT);
	assert_string_equal(msg, "no 'x'?");
	proto_conn_release(&a);
	proto_conn_release(&b);
	close(sv[0]);
	close(sv[1]);
}

static void test_error_decode_hostile(void **state)
{
	uint8_t p[8] = { 0xff, 0xff, 0xff, 0xff, 'a', 0, '\x1b', 'b' };
	struct proto_frame f = { .type = PROTO_ERROR, .len = 8, .payload = p };
	char msg[3];
	int err;

	(void)state;
	assert_int_equal(proto_error_decode(&f, &err, msg, sizeof(msg)), 0);
	assert_int_equal(err, EPROTO);		/* not a Linux errno */
	assert_string_equal(msg, "a?");		/* sanitised and bounded */
	f.len = 3;
	assert_int_equal(proto_error_decode(&f, &err, msg, sizeof(msg)),
			 -EINVAL);
	f.len = 8;
	f.type = PROTO_DATA;
	assert_int_equal(proto_error_decode(&f, &err, msg, sizeof(msg)),
			 -EINVAL);
}

static void test_scenario_names(void **state)
{
	char name[PROTO_MAX_SCENARIO + 2];

	(void)state;
	assert_true(proto_scenario_valid("ab_ba-2", 7));
	assert_false(proto_scenario_valid("", 0));
	assert_false(proto_scenario_valid("AB", 2));
	assert_false(proto_scenario_valid("a b", 3));
	assert_false(proto_scenario_valid("../x", 4));
	assert_false(proto_scenario_valid("a\n", 2));
	assert_false(proto_scenario_valid("a\0b", 3));
	memset(name, 'a', sizeof(name));
	assert_true(proto_scenario_valid(name, PROTO_MAX_SCENARIO));
	assert_false(proto_scenario_valid(name, PROTO_MAX_SCENARIO + 1));
}

static void test_kmsg_seq(void **state)
{
	const char *ok = "6,1234,5678,-;hello\n SUBSYSTEM=x\n";
	const char *bad[] = {
		"", "6", "6,", "6,,1;x", ",12,0,-;x", "6,12", "6,x,0,-;x",
		"6,99999999999999999999999,0,-;x",
		/* a second record smuggled into the first */
		"6,12,0,-;x\n6,13,0,-;y\n",
	};
	uint64_t seq = 0;
	size_t i;

	(void)state;
	assert_int_equal(proto_kmsg_seq((const uint8_t *)ok, strlen(ok), &seq),
			 0);
	assert_true(seq == 1234);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(proto_kmsg_seq((const uint8_t *)bad[i],
						strlen(bad[i]), &seq), -EINVAL);
}

/* The allow-list's one pattern: /sys/module/NAME/sections/SECTION. */
static void test_module_section_paths(void **state)
{
	static const char *const refused[] = {
		"/sys/module/x/sections/../../../etc/shadow",
		"/sys/module/../sections/.text",
		"/sys/module/x/sections/..",
		"/sys/module/x/sections/.",
		"/sys/module/x/sections/.text/",
		"/sys/module/x/sections/a/b",
		"/sys/module/x/sections/../x",
		"/sys/module/x/sections/.data/../../y",
		"/sys/module/x/sections/",
		"/sys/module/x/sections",
		"/sys/module//sections/.text",
		"/sys/module/x//sections/.text",
		"/sys/module/x/notes/.text",
		"/sys/module/X/sections/.text",
		"/sys/module/x-y/sections/.text",
		"/sys/module/x/sections/.note.Linux",
		"/sys/module/x/sections/a b",
		"/sys/module/x/sections/.text\n",
		"/sys//module/x/sections/.text",
		"sys/module/x/sections/.text",
		"/proc/module/x/sections/.text",
		"",
	};
	static const char *const kept[] = {
		".data..ro_after_init",
		".data..read_mostly",
		".data..percpu",
		".note.gnu.build-id",
	};
	char module[PROTO_MAX_MODULE_NAME + 1];
	char section[PROTO_MAX_SECTION_NAME + 1];
	char path[512], name[PROTO_MAX_SECTION_NAME + 2];
	const char *ok = "/sys/module/test_lockdep_scenarios/sections/.rodata.str1.1";
	size_t i;

	(void)state;
	assert_true(proto_module_section_path(ok, strlen(ok), module, section));
	assert_string_equal(module, "test_lockdep_scenarios");
	assert_string_equal(section, ".rodata.str1.1");
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (proto_module_section_path(refused[i], strlen(refused[i]),
					      module, section))
			fail_msg("'%s' was accepted", refused[i]);
	/* real section names: ".." and '-' inside a name are no traversal */
	for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		snprintf(path, sizeof(path), "/sys/module/x/sections/%s",
			 kept[i]);
		if (!proto_module_section_path(path, strlen(path), module,
					       section))
			fail_msg("'%s' was refused", path);
		assert_string_equal(section, kept[i]);
	}
	/* a NUL inside, after a valid prefix */
	assert_false(proto_module_section_path("/sys/module/x/sections/.t\0xt",
					       28, NULL, NULL));
	/* the length limits: 55 for the module, 64 for the section */
	memset(name, 'a', sizeof(name));
	snprintf(path, sizeof(path), "/sys/module/%.55s/sections/%.64s", name,
		 name);
	assert_true(proto_module_section_path(path, strlen(path), module,
					      section));
	assert_int_equal(strlen(module), PROTO_MAX_MODULE_NAME);
	assert_int_equal(strlen(section), PROTO_MAX_SECTION_NAME);
	snprintf(path, sizeof(path), "/sys/module/%.56s/sections/.text", name);
	assert_false(proto_module_section_path(path, strlen(path), NULL, NULL));
	snprintf(path, sizeof(path), "/sys/module/x/sections/%.65s", name);
	assert_false(proto_module_section_path(path, strlen(path), NULL, NULL));
	/* never the table's paths: those are matched exactly, elsewhere */
	assert_false(proto_module_section_path("/proc/lockdep", 13, NULL, NULL));
	assert_false(proto_module_file_path("/proc/lockdep", 13));
}

/* The other module file: exactly one note per module. */
static void test_module_build_id_paths(void **state)
{
	static const char *const refused[] = {
		"/sys/module/x/notes/.note.Linux",
		"/sys/module/x/notes/.note.gnu.build-id/",
		"/sys/module/x/notes/../notes/.note.gnu.build-id",
		"/sys/module/x/y/notes/.note.gnu.build-id",
		"/sys/module/../notes/.note.gnu.build-id",
		"/sys/module//notes/.note.gnu.build-id",
		"/sys/module/notes/.note.gnu.build-id",
		"/sys/module/X/notes/.note.gnu.build-id",
		"/sys/module/x/sections/.note.gnu.build-id/notes/.note.gnu.build-id",
	};
	char module[PROTO_MAX_MODULE_NAME + 1];
	const char *ok = "/sys/module/test_lockdep_scenarios/notes/.note.gnu.build-id";
	size_t i;

	(void)state;
	assert_true(proto_module_build_id_path(ok, strlen(ok), module));
	assert_string_equal(module, "test_lockdep_scenarios");
	assert_true(proto_module_file_path(ok, strlen(ok)));
	assert_false(proto_module_section_path(ok, strlen(ok), NULL, NULL));
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (proto_module_file_path(refused[i], strlen(refused[i])))
			fail_msg("'%s' was accepted", refused[i]);
}

/* A section file's content, as the guest sends it: one address. */
static void test_module_section_addr(void **state)
{
	static const char *const bad[] = {
		"", "\n", "0x", "0x\n", "ffffffffc0200000", "0xg", "garbage",
		"0xffffffffc0200000 0xffffffffc0201000",
		"0xffffffffc0200000\n0x1\n", "0xffffffffc0200000\n\n",
		" 0x1", "0x1 ", "-0x1", "+0x1", "0x-1",
		"0x1ffffffffc0200000",			/* 17 digits */
		"0x00000000000000000001",		/* 20 digits */
	};
	unsigned long long addr = 0;
	const char *why = NULL;
	size_t i;

	(void)state;
	assert_int_equal(module_section_addr("0xffffffffc0200000\n", 19, &addr,
					     &why), 0);
	assert_true(addr == 0xffffffffc0200000ULL);
	assert_int_equal(module_section_addr("0xABCdef", 8, &addr, &why), 0);
	assert_true(addr == 0xabcdefULL);
	assert_int_equal(module_section_addr("0x0000000000000000", 18, &addr,
					     &why), 0);
	assert_true(addr == 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		if (module_section_addr(bad[i], strlen(bad[i]), &addr, &why))
			assert_non_null(why);
		else
			fail_msg("'%s' was accepted", bad[i]);
	}
	/* a NUL inside */
	assert_int_equal(module_section_addr("0x1\0002", 5, &addr, &why), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_every_type),
		cmocka_unit_test(test_byte_by_byte),
		cmocka_unit_test(test_two_frames_one_buffer),
		cmocka_unit_test(test_zero_length_payload),
		cmocka_unit_test(test_oversized_refused),
		cmocka_unit_test(test_max_payload_accepted),
		cmocka_unit_test(test_garbage_type),
		cmocka_unit_test(test_conn_round_trip),
		cmocka_unit_test(test_conn_truncated),
		cmocka_unit_test(test_conn_error_reply),
		cmocka_unit_test(test_error_decode_hostile),
		cmocka_unit_test(test_scenario_names),
		cmocka_unit_test(test_kmsg_seq),
		cmocka_unit_test(test_module_section_paths),
		cmocka_unit_test(test_module_build_id_paths),
		cmocka_unit_test(test_module_section_addr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
