// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the /dev/kmsg record parser (src/parse/kmsg.h),
 * fed the input as the lines of a raw directory's kmsg file. Invariants:
 * a line is emitted only for an accepted record, one per line of its
 * unescaped text, never holding '\n', each with the record's timestamp
 * prefix; sequence numbers only grow; line numbers count the lines
 * pushed; the emitted lines hold the record's text, unescaped (compared
 * with a plain unescaping here). An accepted record round-trips: its
 * header with the emitted text escaped as the kernel escapes it is
 * accepted by a fresh parser and emits the same lines.
 */
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "parse/kmsg.h"
#include "util/strbuf.h"

struct emitted {
	struct strbuf all;	/* every line, each ended by '\n' */
	size_t lines;
};

static void on_line(const char *line, size_t len, void *data)
{
	struct emitted *e = data;

	FUZZ_CHECK(!memchr(line, '\n', len));
	strbuf_add(&e->all, line, len);
	strbuf_addch(&e->all, '\n');
	e->lines++;
}

/* As the kernel's printk escapes a record's text for /dev/kmsg. */
static void kernel_escape(struct strbuf *out, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c < 0x20 || c > 0x7e || c == '\\')
			strbuf_addf(out, "\\x%02x", c);
		else
			strbuf_addch(out, c);
	}
}

/*
 * The emitted lines of one record, after their prefix @plen, joined
 * back with '\n' to the record's text.
 */
static void record_text(struct strbuf *text, const struct emitted *e,
			size_t plen)
{
	const char *p = e->all.buf, *end = p + e->all.len, *nl;

	while (p < end) {
		nl = memchr(p, '\n', end - p);
		FUZZ_CHECK(nl && (size_t)(nl - p) >= plen);
		if (text->len || p != e->all.buf)
			strbuf_addch(text, '\n');
		strbuf_add(text, p + plen, nl - p - plen);
		p = nl + 1;
	}
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
		return (c | 0x20) - 'a' + 10;
	return -1;
}

/* The text of a record, unescaped here the plain way, to compare. */
static void reference_text(struct strbuf *out, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (i + 3 < len && s[i] == '\\' && s[i + 1] == 'x' &&
		    hexval(s[i + 2]) >= 0 && hexval(s[i + 3]) >= 0) {
			strbuf_addch(out, hexval(s[i + 2]) << 4 |
				     hexval(s[i + 3]));
			i += 3;
		} else {
			strbuf_addch(out, s[i]);
		}
	}
}

/*
 * The buffers of a record's check, kept from one record (and input) to
 * the next: three allocations a record otherwise.
 */
static struct emitted again = { STRBUF_INIT, 0 };
static struct strbuf rec = STRBUF_INIT, text = STRBUF_INIT;

static void check_round_trip(const char *line, size_t len,
			     const struct emitted *e)
{
	const char *semi = memchr(line, ';', len);
	const char *p = e->all.buf;
	struct kmsg_parser *kp;
	size_t plen;

	strbuf_reset(&again.all);
	again.lines = 0;
	strbuf_reset(&rec);
	strbuf_reset(&text);
	FUZZ_CHECK(semi != NULL);
	/* "[ sec.usec]" and the caller tag "[ T1]" if any, then ' ' */
	plen = (const char *)memchr(p, ']', e->all.len) - p + 1;
	if (p[plen] == '[')
		plen += (const char *)memchr(p + plen, ']', e->all.len - plen) -
			(p + plen) + 1;
	FUZZ_CHECK(p[plen] == ' ');
	record_text(&text, e, plen + 1);
	/* the emitted lines hold the text, unescaped, all of it */
	reference_text(&rec, semi + 1, line + len - semi - 1);
	FUZZ_CHECK(rec.len == text.len && !memcmp(rec.buf, text.buf, text.len));
	strbuf_reset(&rec);
	strbuf_add(&rec, line, semi + 1 - line);
	kernel_escape(&rec, text.buf, text.len);
	kp = kmsg_parser_new("again", on_line, &again);
	FUZZ_CHECK(kmsg_parser_push_line(kp, rec.buf, rec.len) == 0);
	FUZZ_CHECK(again.lines == e->lines && again.all.len == e->all.len &&
		   !memcmp(again.all.buf, e->all.buf, e->all.len));
	kmsg_parser_free(kp);
}

static void check_prefix(const struct emitted *e, unsigned long long usec)
{
	char want[64];
	int n = snprintf(want, sizeof(want), "[%5llu.%06llu]", usec / 1000000,
			 usec % 1000000);
	const char *p = e->all.buf, *end = p + e->all.len;

	while (p < end) {
		FUZZ_CHECK(!strncmp(p, want, n));
		p = memchr(p, '\n', end - p) + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool quiet;
	static struct emitted e = { STRBUF_INIT, 0 };
	const char *s = (const char *)data, *end = s + size, *nl;
	struct kmsg_parser *kp;
	unsigned long lines = 0;
	uint64_t records = 0, seq = 0;
	int ret;

	if (!quiet)
		fuzz_quiet_errors();
	quiet = true;
	kp = kmsg_parser_new("fuzz", on_line, &e);
	for (; s < end; s = nl + 1) {
		nl = memchr(s, '\n', end - s);
		if (!nl)
			nl = end;
		strbuf_reset(&e.all);
		e.lines = 0;
		ret = kmsg_parser_push_line(kp, s, nl - s);
		FUZZ_CHECK(kmsg_parser_lineno(kp) == ++lines);
		FUZZ_CHECK(ret == 0 || ret == -1);
		if (ret || (nl > s && *s == ' ')) {
			/* refused, or a dictionary line: nothing emitted */
			FUZZ_CHECK(!e.lines && kmsg_parser_records(kp) == records);
			continue;
		}
		FUZZ_CHECK(kmsg_parser_records(kp) == ++records);
		FUZZ_CHECK(records == 1 || kmsg_parser_last_seq(kp) > seq);
		seq = kmsg_parser_last_seq(kp);
		FUZZ_CHECK(e.lines >= 1);
		check_prefix(&e, kmsg_parser_last_usec(kp));
		check_round_trip(s, nl - s, &e);
	}
	kmsg_parser_free(kp);
	return 0;
}
