// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel log lines: prefix stripping and re-joining of wrapped lines.
 * The formats and the joining rules are described in klog-line.h.
 */
#include <ctype.h>
#include <string.h>

#include "parse/klog-line.h"

/* A small cursor over the prefix being matched. */
struct cur {
	const char *s;
	size_t len, i;
};

static bool at_end(const struct cur *c)
{
	return c->i >= c->len;
}

static bool eat(struct cur *c, char ch)
{
	if (at_end(c) || c->s[c->i] != ch)
		return false;
	c->i++;
	return true;
}

static size_t eat_digits(struct cur *c, size_t max)
{
	size_t n = 0;

	while (n < max && !at_end(c) && isdigit((unsigned char)c->s[c->i]))
		c->i++, n++;
	return n;
}

static void eat_spaces(struct cur *c)
{
	while (!at_end(c) && c->s[c->i] == ' ')
		c->i++;
}

static bool eat_alpha(struct cur *c, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (at_end(c) || !isalpha((unsigned char)c->s[c->i++]))
			return false;
	return true;
}

/* hh:mm:ss or hh:mm */
static bool eat_clock(struct cur *c, bool seconds)
{
	if (eat_digits(c, 2) != 2 || !eat(c, ':') || eat_digits(c, 2) != 2)
		return false;
	return !seconds || (eat(c, ':') && eat_digits(c, 2) == 2);
}

/* "host kernel:" (or "kernel:" alone), one optional space after. */
static bool eat_kernel_tag(struct cur *c)
{
	size_t start = c->i;

	while (!at_end(c) && c->s[c->i] != ' ' && c->s[c->i] != ':')
		c->i++;
	if (eat(c, ' ')) {
		if (c->len - c->i < 7 || memcmp(c->s + c->i, "kernel:", 7))
			goto fail;
		c->i += 7;
	} else if (c->i - start != 6 || memcmp(c->s + start, "kernel", 6) ||
		   !eat(c, ':')) {
		goto fail;
	}
	eat(c, ' ');
	return true;
fail:
	c->i = start;
	return false;
}

/* "Jul 22 14:36:40 host kernel: " */
static bool eat_bsd_syslog(struct cur *c)
{
	size_t start = c->i;

	if (!eat_alpha(c, 3) || !eat(c, ' '))
		goto fail;
	eat(c, ' ');
	if (!eat_digits(c, 2) || !eat(c, ' ') || !eat_clock(c, true))
		goto fail;
	if (eat(c, '.'))
		eat_digits(c, 9);
	if (!eat(c, ' ') || !eat_kernel_tag(c))
		goto fail;
	return true;
fail:
	c->i = start;
	return false;
}

/* "2020-12-16T13:30:45.123+01:00 host kernel: " */
static bool eat_iso_syslog(struct cur *c)
{
	size_t start = c->i;

	if (eat_digits(c, 4) != 4 || !eat(c, '-') || eat_digits(c, 2) != 2 ||
	    !eat(c, '-') || eat_digits(c, 2) != 2 || !eat(c, 'T'))
		goto fail;
	while (!at_end(c) && c->s[c->i] != ' ')
		c->i++;
	if (!eat(c, ' ') || !eat_kernel_tag(c))
		goto fail;
	return true;
fail:
	c->i = start;
	return false;
}

/*
 * One bracketed prefix: a time stamp of any dmesg flavour, or a caller
 * tag (copied to caller). Leaves the cursor after ']' on success.
 */
static bool eat_bracket(struct cur *c, char *caller)
{
	size_t start = c->i, t;

	if (!eat(c, '['))
		return false;
	eat_spaces(c);
	t = c->i;
	/* [ T123] / [  C1] */
	if ((eat(c, 'T') || eat(c, 'C')) && eat_digits(c, 10) && eat(c, ']')) {
		size_t n = c->i - 1 - t;

		if (n >= KLOG_CALLER_MAX)
			n = KLOG_CALLER_MAX - 1;
		memcpy(caller, c->s + t, n);
		caller[n] = '\0';
		return true;
	}
	c->i = t;
	/* [   52.511814] [  +0.000012] [ 1.2 <    0.3>] */
	eat(c, '+');
	if (eat_digits(c, 12) && eat(c, '.') && eat_digits(c, 9)) {
		eat_spaces(c);
		if (eat(c, '<')) {
			while (!at_end(c) && c->s[c->i] != '>')
				c->i++;
			if (!eat(c, '>'))
				goto fail;
		}
		if (eat(c, ']'))
			return true;
		goto fail;
	}
	c->i = t;
	/* [Wed Dec 16 13:30:45 2020] */
	if (eat_alpha(c, 3) && eat(c, ' ') && eat_alpha(c, 3) && eat(c, ' ')) {
		eat(c, ' ');
		if (eat_digits(c, 2) && eat(c, ' ') && eat_clock(c, true) &&
		    eat(c, ' ') && eat_digits(c, 4) == 4 && eat(c, ']'))
			return true;
		goto fail;
	}
	c->i = t;
	/* [Dec16 13:30] */
	if (eat_alpha(c, 3) && eat_digits(c, 2) && eat(c, ' ') &&
	    eat_clock(c, false) && eat(c, ']'))
		return true;
fail:
	c->i = start;
	return false;
}

/* "kernel: " alone: syslog or the journal after forwarding */
static bool eat_bare_kernel_tag(struct cur *c)
{
	if (c->len - c->i < 7 || memcmp(c->s + c->i, "kernel:", 7))
		return false;
	c->i += 7;
	eat(c, ' ');
	return true;
}

/* "00: ", the CPU number z/VM puts before each line of a console spool */
static bool eat_cpu_prefix(struct cur *c)
{
	size_t start = c->i;

	if (eat_digits(c, 2) == 2 && eat(c, ':') &&
	    (at_end(c) || eat(c, ' ')))
		return true;
	c->i = start;
	return false;
}

/* A "[ 12.345678]" time stamp at s[i]: how a glued line resumes. */
static bool time_stamp_at(const char *s, size_t len, size_t i)
{
	struct cur c = { .s = s, .len = len, .i = i + 1 };

	eat_spaces(&c);
	return eat_digits(&c, 12) && eat(&c, '.') && eat_digits(&c, 9) &&
	       eat(&c, ']') && (at_end(&c) || s[c.i] == ' ' || s[c.i] == '[');
}

/*
 * Console text glued before the kernel's line ("syzkaller login: [ 16.3]
 * INFO: ...", a shell prompt): the offset of the time stamp, or 0.
 */
static size_t glued_stamp(const char *s, size_t len)
{
	const char *q = s;

	while ((q = memchr(q + 1, '[', len - (q + 1 - s))) != NULL)
		if (time_stamp_at(s, len, q - s))
			return q - s;
	return 0;
}

/* The prefixes that can follow each other, from c->i on. */
static void eat_prefixes(struct cur *c_, struct klog_prefix *p)
{
	struct cur c = *c_;
	size_t len = c.len, last;
	bool again = true;

	while (again) {
		last = c.i;
		again = false;
		/* <4> */
		if (eat(&c, '<')) {
			if (eat_digits(&c, 3) && eat(&c, '>')) {
				again = true;
				continue;
			}
			c.i = last;
		}
		if (eat_bsd_syslog(&c) || eat_iso_syslog(&c)) {
			p->syslog = again = true;
			continue;
		}
		if (eat_bracket(&c, p->caller)) {
			/* "[ 1.2] [ T1]" is printed as "[ 1.2][ T1]"; both */
			if (!at_end(&c) && c.s[c.i] == ' ' && c.i + 1 < len &&
			    c.s[c.i + 1] == '[') {
				size_t keep = c.i++;

				if (!eat_bracket(&c, p->caller))
					c.i = keep;
			}
			/* journalctl -o short-monotonic: "[ 1.2] host kernel:" */
			if (eat(&c, ' ')) {
				if (eat_kernel_tag(&c))
					p->syslog = true;
			}
			again = true;
			continue;
		}
	}
	*c_ = c;
}

size_t klog_strip_prefix(const char *s, size_t len, struct klog_prefix *p)
{
	struct cur c = { .s = s, .len = len };

	memset(p, 0, sizeof(*p));
	if (eat_cpu_prefix(&c))
		p->cpu = true;
	if (eat_bare_kernel_tag(&c))
		p->syslog = true;
	eat_prefixes(&c, p);
	if (!c.i && len > 1 && s[0] != '[' && s[0] != ' ' &&
	    (c.i = glued_stamp(s, len)) != 0)
		eat_prefixes(&c, p);
	p->any = c.i > 0;
	return c.i;
}

void klog_reader_init(struct klog_reader *rd, klog_line_fn fn, void *data)
{
	memset(rd, 0, sizeof(*rd));
	rd->fn = fn;
	rd->data = data;
	strbuf_init(&rd->pending);
}

void klog_reader_release(struct klog_reader *rd)
{
	strbuf_release(&rd->pending);
}

static bool blank(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isspace((unsigned char)s[i]))
			return false;
	return true;
}

/* A bracketed frame address with nothing after it: "[<c0123>]", "[f+1/2]" */
static bool bare_bracket_frame(const char *tok, size_t n)
{
	size_t i;

	if (n < 3 || tok[0] != '[' || tok[n - 1] != ']')
		return false;
	if (tok[1] == '<')
		return n > 4 && tok[n - 2] == '>';
	for (i = 1; i < n - 1; i++)
		if (tok[i] == '+')
			return memchr(tok + i, '/', n - 1 - i) != NULL;
	return false;
}

/* Rule (2) of klog-line.h: the pending line stopped mid-sentence. */
static bool looks_cut(const struct strbuf *sb)
{
	size_t end = sb->len, start;

	while (end && isspace((unsigned char)sb->buf[end - 1]))
		end--;
	if (end >= 5 && !memcmp(sb->buf + end - 5, ", at:", 5))
		return true;
	start = end;
	while (start && !isspace((unsigned char)sb->buf[start - 1]))
		start--;
	return bare_bracket_frame(sb->buf + start, end - start);
}

/* Lines that close a block never take continuation lines. */
static bool closes_block(const struct strbuf *sb)
{
	const char *s = sb->buf;

	while (isspace((unsigned char)*s))
		s++;
	return !strncmp(s, "</TASK>", 7) || !strncmp(s, "</IRQ>", 6) ||
	       !strncmp(s, "=====", 5);
}

/* A line that starts a report block never continues another one. */
static bool opens_block(const char *s, size_t len)
{
	static const char *const opening[] = {
		"=====", "WARNING: ", "BUG: ", "INFO: ", "[ ",
	};
	size_t i, k;

	while (len && isspace((unsigned char)*s))
		s++, len--;
	for (i = 0; i < sizeof(opening) / sizeof(opening[0]); i++) {
		k = strlen(opening[i]);
		if (len >= k && !memcmp(s, opening[i], k))
			return true;
	}
	return false;
}

static void emit_one(struct klog_reader *rd, const char *s, size_t len)
{
	struct klog_line line = {
		.text = s,
		.len = len,
		.lineno = rd->pending_lineno,
		.caller = rd->pending_prefix.caller,
		.had_nul = rd->pending_nul,
	};

	rd->fn(&line, rd->data);
}

static void emit(struct klog_reader *rd)
{
	struct strbuf *sb = &rd->pending;
	char *s, *hash;

	rd->have_pending = false;
	if (!rd->pending_prefix.syslog) {
		emit_one(rd, sb->buf, sb->len);
		return;
	}
	/*
	 * rsyslog escapes: "#011" is a tab, "#012" ends a line. One pass
	 * that compacts in place: a line of nothing but escapes must not
	 * cost a memmove() of the rest of the line per escape.
	 */
	if (strstr(sb->buf, "#011")) {
		size_t in, out = 0;

		for (in = 0; in < sb->len; in++) {
			if (in + 4 <= sb->len &&
			    !memcmp(sb->buf + in, "#011", 4)) {
				sb->buf[out++] = '\t';
				in += 3;
			} else {
				sb->buf[out++] = sb->buf[in];
			}
		}
		sb->len = out;
		sb->buf[out] = '\0';
	}
	s = sb->buf;
	while ((hash = strstr(s, "#012")) != NULL) {
		*hash = '\0';
		emit_one(rd, s, hash - s);
		s = hash + 4;
	}
	emit_one(rd, s, sb->len - (s - sb->buf));
}

/* struct klog_line promises text without NUL bytes, joined pieces too. */
static void nul_to_qmark(struct klog_reader *rd, char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] == '\0') {
			s[i] = '?';
			rd->pending_nul = true;
		}
}

/*
 * Rule (3) of klog-line.h: a frame cut between its offset and its size
 * ("try_to_wake_up+0xce" / "/0xd88") by a console of fixed width.
 */
static bool frame_split(const struct strbuf *sb, const char *s, size_t len)
{
	size_t end = sb->len;

	if (len < 3 || memcmp(s, "/0x", 3))
		return false;
	while (end && isxdigit((unsigned char)sb->buf[end - 1]))
		end--;
	return end < sb->len && end >= 3 &&
	       !memcmp(sb->buf + end - 3, "+0x", 3);
}

/* "fs/btrfs/inode.c:3523" or "[inline]": the tail of a syzbot frame */
static bool frame_tail(const char *s, size_t len)
{
	size_t n = 0, colon = 0;

	if (len >= 8 && !memcmp(s, "[inline]", 8))
		return true;
	while (n < len && !isspace((unsigned char)s[n])) {
		if (s[n] == ':')
			colon = n;
		n++;
	}
	if (!colon || colon + 1 == n || !memchr(s, '/', colon) ||
	    !memchr(s, '.', colon))
		return false;
	for (size_t i = colon + 1; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

/*
 * Rule (2b): the pending line is a frame or an "at:" site that lost its
 * source location (and "[inline]") to the mail client's wrapping: its
 * last word is "func+0x1/0x2", a source location, or a lone symbol
 * that is the whole line or follows "at:" or a "[<address>]".
 */
static bool lost_frame_tail(const struct strbuf *sb)
{
	size_t end = sb->len, start;
	const char *w;

	while (end && isspace((unsigned char)sb->buf[end - 1]))
		end--;
	start = end;
	while (start && !isspace((unsigned char)sb->buf[start - 1]))
		start--;
	if (start == end)
		return false;
	w = sb->buf + start;
	if (memmem(w, end - start, "+0x", 3) && memchr(w, '/', end - start))
		return true;
	if (frame_tail(w, end - start))
		return true;
	for (size_t i = start; i < end; i++)
		if (!isalnum((unsigned char)sb->buf[i]) && sb->buf[i] != '_' &&
		    sb->buf[i] != '.')
			return false;
	while (start && isspace((unsigned char)sb->buf[start - 1]))
		start--;
	return !start || sb->buf[start - 1] == ']' ||
	       (start >= 3 && !memcmp(sb->buf + start - 3, "at:", 3));
}

static void join(struct klog_reader *rd, const char *s, size_t len)
{
	struct strbuf *sb = &rd->pending;

	while (len && isspace((unsigned char)*s))
		s++, len--;
	if (!len || sb->len + len >= KLOG_LINE_MAX)
		return;
	if (blank(sb->buf, sb->len))
		strbuf_reset(sb);
	else if (!isspace((unsigned char)sb->buf[sb->len - 1]) &&
		 !frame_split(sb, s, len))
		strbuf_addch(sb, ' ');
	strbuf_add(sb, s, len);
	nul_to_qmark(rd, sb->buf + sb->len - len, len);
}

void klog_reader_push(struct klog_reader *rd, const char *s, size_t len,
		      unsigned long lineno)
{
	struct klog_prefix p;
	size_t off;

	if (len && s[len - 1] == '\r')
		len--;
	off = klog_strip_prefix(s, len, &p);
	if (rd->have_pending && p.any &&
	    !strcmp(p.caller, rd->pending_prefix.caller) &&
	    frame_split(&rd->pending, s + off, len - off)) {
		join(rd, s + off, len - off);
		return;
	}
	if (rd->have_pending && !p.any) {
		bool cont;

		if (rd->pending_prefix.any)
			cont = !closes_block(&rd->pending) &&
			       !opens_block(s, len) &&
			       rd->pending_joins < KLOG_MAX_JOINS;
		else
			cont = len && (((isalnum((unsigned char)s[0]) ||
					 s[0] == '_' || s[0] == '[') &&
					looks_cut(&rd->pending)) ||
				       frame_split(&rd->pending, s, len) ||
				       (frame_tail(s, len) &&
					lost_frame_tail(&rd->pending)));
		if (cont) {
			join(rd, s, len);
			rd->pending_joins++;
			return;
		}
	}
	if (rd->have_pending)
		emit(rd);
	strbuf_reset(&rd->pending);
	strbuf_add(&rd->pending, s + off, len - off);
	rd->pending_nul = false;
	nul_to_qmark(rd, rd->pending.buf, rd->pending.len);
	rd->pending_prefix = p;
	rd->pending_lineno = lineno;
	rd->pending_joins = 0;
	rd->have_pending = true;
}

void klog_reader_flush(struct klog_reader *rd)
{
	if (rd->have_pending)
		emit(rd);
}
