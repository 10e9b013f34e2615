/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Streaming JSON writer (in the manner of bpftool's json_writer).
 *
 * The writer keeps a small stack of open containers and adds the commas,
 * colons and (with pretty output) the indentation itself; callers only
 * say what comes next. Strings are escaped for JSON and made valid UTF-8:
 * control characters become \uXXXX and every byte that is not part of a
 * well-formed UTF-8 sequence becomes U+FFFD, so hostile input (lock names
 * from a guest, garbage in a log) always yields parseable output.
 *
 * Invariants: (1) a value is written only where one is allowed: in an
 * array, or in an object right after jsonw_name(); (2) every start has a
 * matching end before jsonw_destroy(). Violations are caught by assert().
 *
 * Write errors are not reported here: the caller checks ferror() on the
 * stream once at the end, as the tools do for stdout.
 */
#ifndef UTIL_JSON_WRITER_H
#define UTIL_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct json_writer;

struct json_writer *jsonw_new(FILE *out, bool pretty);
/* Ends the output with a newline; the stream is not closed. */
void jsonw_destroy(struct json_writer **w);

void jsonw_start_object(struct json_writer *w);
void jsonw_end_object(struct json_writer *w);
void jsonw_start_array(struct json_writer *w);
void jsonw_end_array(struct json_writer *w);
/* The key of the next value in an object. */
void jsonw_name(struct json_writer *w, const char *name);

/* A NULL string is written as null. */
void jsonw_string(struct json_writer *w, const char *s);
void jsonw_string_len(struct json_writer *w, const char *s, size_t len);
void jsonw_uint(struct json_writer *w, unsigned long long v);
void jsonw_int(struct json_writer *w, long long v);
void jsonw_bool(struct json_writer *w, bool v);
void jsonw_null(struct json_writer *w);
/* A 64-bit address as a "0x..." string (JSON numbers lose precision). */
void jsonw_hex(struct json_writer *w, unsigned long long v);

void jsonw_string_field(struct json_writer *w, const char *name, const char *s);
void jsonw_uint_field(struct json_writer *w, const char *name,
		      unsigned long long v);
void jsonw_int_field(struct json_writer *w, const char *name, long long v);
void jsonw_bool_field(struct json_writer *w, const char *name, bool v);

#endif
