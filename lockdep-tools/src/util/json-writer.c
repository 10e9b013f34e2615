// SPDX-License-Identifier: GPL-2.0
/* Streaming JSON writer; design and invariants in json-writer.h. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "util/json-writer.h"
#include "util/xalloc.h"

#define JSONW_MAX_DEPTH 64

struct json_writer {
	FILE *out;
	bool pretty;
	unsigned int depth;
	/* Per open container: has it got an element yet, is it an object. */
	bool nonempty[JSONW_MAX_DEPTH];
	bool is_object[JSONW_MAX_DEPTH];
	/* jsonw_name() was called and its value is still due. */
	bool want_value;
};

struct json_writer *jsonw_new(FILE *out, bool pretty)
{
	struct json_writer *w = xcalloc(1, sizeof(*w));

	w->out = out;
	w->pretty = pretty;
	return w;
}

void jsonw_destroy(struct json_writer **w)
{
	if (!*w)
		return;
	assert((*w)->depth == 0);
	fputc('\n', (*w)->out);
	free(*w);
	*w = NULL;
}

static void indent(struct json_writer *w)
{
	unsigned int i;

	if (!w->pretty)
		return;
	fputc('\n', w->out);
	for (i = 0; i < w->depth; i++)
		fputs("  ", w->out);
}

/* Separator and indentation before an array element or an object key. */
static void begin_element(struct json_writer *w)
{
	if (w->depth && w->nonempty[w->depth - 1])
		fputc(',', w->out);
	if (w->depth)
		w->nonempty[w->depth - 1] = true;
	if (w->depth)
		indent(w);
}

static void begin_value(struct json_writer *w)
{
	if (w->want_value) {
		w->want_value = false;
		return;
	}
	assert(!w->depth || !w->is_object[w->depth - 1]);
	begin_element(w);
}

static void write_string(struct json_writer *w, const char *str, size_t len);

void jsonw_name(struct json_writer *w, const char *name)
{
	assert(w->depth && w->is_object[w->depth - 1] && !w->want_value);
	begin_element(w);
	write_string(w, name, strlen(name));
	fputs(w->pretty ? ": " : ":", w->out);
	w->want_value = true;
}

static void start(struct json_writer *w, bool object)
{
	begin_value(w);
	assert(w->depth < JSONW_MAX_DEPTH);
	fputc(object ? '{' : '[', w->out);
	w->nonempty[w->depth] = false;
	w->is_object[w->depth] = object;
	w->depth++;
}

static void end(struct json_writer *w, bool object)
{
	assert(w->depth && w->is_object[w->depth - 1] == object);
	assert(!w->want_value);
	w->depth--;
	if (w->nonempty[w->depth])
		indent(w);
	fputc(object ? '}' : ']', w->out);
}

void jsonw_start_object(struct json_writer *w)
{
	start(w, true);
}

void jsonw_end_object(struct json_writer *w)
{
	end(w, true);
}

void jsonw_start_array(struct json_writer *w)
{
	start(w, false);
}

void jsonw_end_array(struct json_writer *w)
{
	end(w, false);
}

/* Length of the well-formed UTF-8 sequence at s, or 0 if there is none. */
static size_t utf8_len(const unsigned char *s, size_t left)
{
	size_t n, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n > left)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and code points past U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/* Printable ASCII but '"' and '\\': the bytes written as they are. */
static bool plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

/*
 * The quoted, escaped string; no separator handling. A run of plain
 * bytes goes out in one fwrite(), not one call a byte: most strings are
 * a single run.
 */
static void write_string(struct json_writer *w, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n;

	fputc('"', w->out);
	while (i < len) {
		unsigned char c = s[i];

		for (n = i; n < len && plain(s[n]); n++)
			;
		if (n > i) {
			fwrite(s + i, 1, n - i, w->out);
			i = n;
			continue;
		}
		switch (c) {
		case '"':
			fputs("\\\"", w->out);
			break;
		case '\\':
			fputs("\\\\", w->out);
			break;
		case '\n':
			fputs("\\n", w->out);
			break;
		case '\r':
			fputs("\\r", w->out);
			break;
		case '\t':
			fputs("\\t", w->out);
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(w->out, "\\u%04x", c);
				break;
			}
			n = utf8_len(s + i, len - i);
			if (!n) {
				fputs("\\ufffd", w->out);
				break;
			}
			fwrite(s + i, 1, n, w->out);
			i += n;
			continue;
		}
		i++;
	}
	fputc('"', w->out);
}

void jsonw_string_len(struct json_writer *w, const char *s, size_t len)
{
	if (!s) {
		jsonw_null(w);
		return;
	}
	begin_value(w);
	write_string(w, s, len);
}

void jsonw_string(struct json_writer *w, const char *s)
{
	jsonw_string_len(w, s, s ? strlen(s) : 0);
}

void jsonw_uint(struct json_writer *w, unsigned long long v)
{
	begin_value(w);
	fprintf(w->out, "%llu", v);
}

void jsonw_int(struct json_writer *w, long long v)
{
	begin_value(w);
	fprintf(w->out, "%lld", v);
}

void jsonw_bool(struct json_writer *w, bool v)
{
	begin_value(w);
	fputs(v ? "true" : "false", w->out);
}

void jsonw_null(struct json_writer *w)
{
	begin_value(w);
	fputs("null", w->out);
}

void jsonw_hex(struct json_writer *w, unsigned long long v)
{
	begin_value(w);
	fprintf(w->out, "\"0x%llx\"", v);
}

void jsonw_string_field(struct json_writer *w, const char *name, const char *s)
{
	jsonw_name(w, name);
	jsonw_string(w, s);
}

void jsonw_uint_field(struct json_writer *w, const char *name,
		      unsigned long long v)
{
	jsonw_name(w, name);
	jsonw_uint(w, v);
}

void jsonw_int_field(struct json_writer *w, const char *name, long long v)
{
	jsonw_name(w, name);
	jsonw_int(w, v);
}

void jsonw_bool_field(struct json_writer *w, const char *name, bool v)
{
	jsonw_name(w, name);
	jsonw_bool(w, v);
}
