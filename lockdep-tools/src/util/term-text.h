/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Untrusted text (lock names, frames, log lines, file names from the
 * guest) made safe for a terminal: every byte a terminal could act on is
 * written as the four characters "\xNN". Those are the C0 controls but
 * tab, DEL, the C1 controls U+0080..U+009F in UTF-8 (c2 80..c2 9f: c2 9b
 * is a CSI), the bidirectional controls (U+061C, U+200E, U+200F,
 * U+202A..U+202E, U+2066..U+2069: they reorder what a reader sees) and
 * any byte that is not part of well-formed UTF-8 (a lone 9b is a CSI to
 * a terminal in an 8-bit mode). Well-formed UTF-8 text otherwise passes
 * unchanged.
 */
#ifndef UTIL_TERM_TEXT_H
#define UTIL_TERM_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/strbuf.h"

/* Append the @len bytes at @s to @sb, escaped. */
void term_text_add(struct strbuf *sb, const char *s, size_t len);
/* Write the string @s (NULL: nothing) to @out, escaped. */
void term_text_fputs(FILE *out, const char *s);
/* Whether escaping changes the @len bytes at @s. */
bool term_text_changes(const char *s, size_t len);

#endif
