/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Growable NUL-terminated byte strings (after git's strbuf).
 *
 * Invariants: buf is never NULL once initialised (it points at a static
 * empty string until the first addition), buf[len] == '\0', len < alloc
 * whenever alloc != 0. Content may hold NUL bytes; len is authoritative.
 */
#ifndef UTIL_STRBUF_H
#define UTIL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

extern char strbuf_empty[];
#define STRBUF_INIT { .buf = strbuf_empty }

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
/* Give the buffer to the caller (free() it); sb is left empty. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_reset(struct strbuf *sb);
void strbuf_grow(struct strbuf *sb, size_t extra);

/*
 * Inline: the printers append a dozen short pieces a line, and for a
 * piece of constant length the copy is then a move or two, not two
 * calls (a tenth of a warm lockdep-symbolise run's instructions).
 */
static inline void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (sb->len + len >= sb->alloc)
		strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
__attribute__((format(printf, 2, 3)))
void strbuf_addf(struct strbuf *sb, const char *fmt, ...);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Drop trailing white space (including CR). */
void strbuf_rtrim(struct strbuf *sb);

#endif
