// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/lockdep_stats parser; the format and the invariants are in
 * proc-stats.h. The label ends at the first ':' that is followed by
 * blanks and a digit, so a label of a future kernel with a colon in it
 * still parses.
 */
#include <stdlib.h>
#include <string.h>

#include "parse/proc-line.h"
#include "parse/proc-stats.h"

/*
 * Every label lockdep_stats_show() has printed, 2.6.17 to 6.12 (6.12's
 * are 6.1's), and the two our series adds (kernel-patches/: "reports
 * printed", "duplicate reports suppressed"), sorted for bsearch().
 */
static const char *const known_labels[] = {
	"all direct dependencies",
	"chain lookup hits",
	"chain lookup misses",
	"combined max dependencies",
	"cyclic checks",
	"cyclic-check recursions",
	"debug_locks",
	"dependency chain hlocks",
	"dependency chain hlocks lost",
	"dependency chain hlocks used",
	"dependency chains",
	"direct dependencies",
	"duplicate reports suppressed",
	"find-mask backwards checks",
	"find-mask backwards recursions",
	"find-mask forwards checks",
	"find-mask forwards recursions",
	"hardirq off events",
	"hardirq on events",
	"hardirq-read-safe locks",
	"hardirq-read-unsafe locks",
	"hardirq-safe locks",
	"hardirq-unsafe locks",
	"in-hardirq chains",
	"in-process chains",
	"in-softirq chains",
	"indirect dependencies",
	"irq-read-safe locks",
	"irq-read-unsafe locks",
	"irq-safe locks",
	"irq-unsafe locks",
	"large chain blocks",
	"lock-classes",
	"max bfs queue depth",
	"max lock class index",
	"max locking depth",
	"max recursion depth",
	"number of stack hash chains",
	"number of stack traces",
	"redundant checks",
	"redundant hardirq offs",
	"redundant hardirq ons",
	"redundant links",
	"redundant softirq offs",
	"redundant softirq ons",
	"reports printed",
	"softirq off events",
	"softirq on events",
	"softirq-read-safe locks",
	"softirq-read-unsafe locks",
	"softirq-safe locks",
	"softirq-unsafe locks",
	"stack-trace entries",
	"uncategorized locks",
	"unused locks",
	"zapped classes",
	"zapped lock chains",
};

struct label_key {
	const char *s;
	size_t len;
};

static int cmp_label(const void *k, const void *e)
{
	const struct label_key *key = k;
	const char *label = *(const char *const *)e;
	size_t n = strlen(label);
	int c = memcmp(key->s, label, key->len < n ? key->len : n);

	if (c)
		return c;
	return key->len < n ? -1 : key->len > n;
}

bool proc_lockdep_stat_known(const char *label, size_t len)
{
	struct label_key key = { label, len };

	return bsearch(&key, known_labels,
		       sizeof(known_labels) / sizeof(known_labels[0]),
		       sizeof(known_labels[0]), cmp_label) != NULL;
}

/* The ':' ending the label: followed by blanks and a digit. */
static const char *label_end(const char *p, const char *end)
{
	const char *q;

	for (; p < end; p++) {
		if (*p != ':')
			continue;
		q = p + 1;
		proc_skip_blanks(&q, end);
		if (q < end && *q >= '0' && *q <= '9')
			return p;
	}
	return NULL;
}

static const char *parse_stat(char *line, size_t len,
			      struct proc_lockdep_stat *s)
{
	const char *p = line, *end = line + len, *colon, *q;

	memset(s, 0, sizeof(*s));
	proc_skip_blanks(&p, end);
	colon = label_end(p, end);
	if (!colon)
		return "no 'label: number'";
	q = colon;
	while (q > p && (q[-1] == ' ' || q[-1] == '\t'))
		q--;
	if (q == p)
		return "empty label";
	s->label = p;
	s->label_len = q - p;
	p = colon + 1;
	proc_skip_blanks(&p, end);
	if (!proc_eat_ulong(&p, end, &s->value))
		return "value out of range";
	proc_skip_blanks(&p, end);
	if (proc_eat(&p, end, "[max:")) {
		proc_skip_blanks(&p, end);
		if (!proc_eat_ulong(&p, end, &s->max) ||
		    !proc_eat(&p, end, "]"))
			return "bad '[max: N]'";
		s->has_max = true;
		proc_skip_blanks(&p, end);
	}
	if (p != end)
		return "trailing text after the value";
	line[s->label_len + (s->label - line)] = '\0';
	s->known = proc_lockdep_stat_known(s->label, s->label_len);
	return NULL;
}

/* "@ SEQ TIME_MS periodic|snapshot ARG [KMSG_SEQ]" (proc-stats.h) */
static const char *parse_header(const char *p, const char *end,
				struct proc_stats_sample *h)
{
	memset(h, 0, sizeof(*h));
	p++;
	proc_skip_blanks(&p, end);
	if (!proc_eat_ulong(&p, end, &h->seq))
		return "sample header: no sample number";
	proc_skip_blanks(&p, end);
	if (!proc_eat_ulong(&p, end, &h->time_ms))
		return "sample header: no time";
	proc_skip_blanks(&p, end);
	if (proc_eat(&p, end, "periodic"))
		h->kind = PROC_STATS_PERIODIC;
	else if (proc_eat(&p, end, "snapshot"))
		h->kind = PROC_STATS_SNAPSHOT;
	else
		return "sample header: kind is neither 'periodic' nor 'snapshot'";
	if (p == end || (*p != ' ' && *p != '\t'))
		return "sample header: no interval or sequence number";
	proc_skip_blanks(&p, end);
	if (!proc_eat_ulong(&p, end, &h->arg))
		return "sample header: no interval or sequence number";
	proc_skip_blanks(&p, end);
	if (p != end && h->kind == PROC_STATS_PERIODIC) {
		if (!proc_eat_ulong(&p, end, &h->kmsg_seq))
			return "sample header: a kernel log sequence number is not a number";
		h->has_kmsg_seq = true;
		proc_skip_blanks(&p, end);
	}
	return p == end ? NULL : "sample header: trailing text";
}

int proc_stats_parse(FILE *in, const char *input, unsigned int flags,
		     const struct proc_stats_ops *ops, void *ctx,
		     struct proc_parse_stats *st)
{
	struct proc_reader rd;
	struct proc_lockdep_stat s;
	struct proc_stats_sample h;
	bool series = flags & PROC_PARSE_STATS_SERIES, in_sample = false;
	const char *why, *p;
	int ret = 0;

	proc_reader_init(&rd, in, input, flags, st);
	while (!ret && proc_reader_next(&rd)) {
		if (proc_is_blank(rd.line, rd.len))
			continue;
		p = rd.line;
		proc_skip_blanks(&p, rd.line + rd.len);
		if (series && *p == '@') {
			why = parse_header(p, rd.line + rd.len, &h);
			if (why) {
				proc_bad(&rd, "%s", why);
				continue;
			}
			h.line = rd.lineno;
			in_sample = true;
			if (ops && ops->sample_fn)
				ret = ops->sample_fn(&h, ctx);
			continue;
		}
		if (series && !in_sample) {
			proc_bad(&rd, "a line before the first sample header");
			continue;
		}
		why = parse_stat(rd.line, rd.len, &s);
		if (why) {
			proc_bad(&rd, "%s", why);
			continue;
		}
		s.line = rd.lineno;
		rd.st->records++;
		if (ops && ops->stat_fn)
			ret = ops->stat_fn(&s, ctx);
	}
	if (proc_reader_finish(&rd) && !ret)
		ret = -1;
	return ret;
}
