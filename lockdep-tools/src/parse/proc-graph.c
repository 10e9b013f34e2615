// SPDX-License-Identifier: GPL-2.0
/*
 * The graph export's parser; the format and the invariants are in
 * proc-graph.h. Each line is one record: its first field names it, the
 * header records are checked against the order the format fixes (one
 * step of a small state machine per header line), and the body records
 * are read field by field, single spaces between fields.
 *
 * Header states, each advanced by exactly one record:
 *
 *   H_MAGIC --lockdep_graph--> H_RELEASE --release--> H_BUILD_ID
 *   --build_id--> H_ADDRESSES --addresses--> H_STEXT --stext--> H_BITS
 *   H_BITS --usage_bit / dep_bit--> H_BITS --counts--> H_BODY [header_fn]
 *   H_BODY --end--> H_END
 */
#include <stdlib.h>
#include <string.h>

#include "parse/proc-graph.h"
#include "parse/proc-line.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum graph_state {
	H_MAGIC, H_RELEASE, H_BUILD_ID, H_ADDRESSES, H_STEXT, H_BITS, H_BODY,
	H_END,
};

struct graph_state_s {
	struct proc_reader rd;
	const struct proc_graph_ops *ops;
	void *ctx;
	enum graph_state state;
	bool rejected;
	/* the header, kept for header_fn */
	struct proc_graph_header hdr;
	struct strbuf release, build_id;
	char *usage_names[PROC_GRAPH_MAX_USAGE_BITS];
	char *dep_names[PROC_GRAPH_MAX_DEP_BITS];
	/* the class usage records may follow, or -1 */
	long usage_class;
	/* class indices seen: one bit each */
	unsigned char seen[PROC_GRAPH_MAX_CLASSES / 8];
	/* records of each kind read, for the end check */
	unsigned long long nr_classes, nr_deps, nr_chains, nr_traces;
	/* one record's decoded strings and arrays */
	struct strbuf name;
	unsigned int *classes;
	size_t alloc_classes;
	unsigned long long *addrs;
	size_t alloc_addrs;
};

/* ---- fields ---- */

/* One field: [*p, *p + len) up to the next space; *p moves past the space. */
static bool next_field(const char **p, const char *end, const char **f,
		       size_t *len)
{
	const char *q = *p, *s;

	if (q >= end)
		return false;
	s = memchr(q, ' ', end - q);
	if (!s)
		s = end;
	if (s == q)
		return false;	/* two spaces, or a trailing one */
	*f = q;
	*len = s - q;
	*p = s < end ? s + 1 : end;
	return true;
}

static bool field_ulong(const char **p, const char *end,
			unsigned long long *v)
{
	const char *f, *q;
	size_t len;

	if (!next_field(p, end, &f, &len))
		return false;
	q = f;
	return proc_eat_ulong(&q, f + len, v) && q == f + len;
}

static bool field_long(const char **p, const char *end, long *v)
{
	const char *f, *q;
	size_t len;

	if (!next_field(p, end, &f, &len))
		return false;
	q = f;
	return proc_eat_long(&q, f + len, v) && q == f + len;
}

/* "0x" and 1 to 16 hex digits */
static bool field_hex(const char **p, const char *end, unsigned long long *v)
{
	const char *f, *q;
	size_t len;

	if (!next_field(p, end, &f, &len) || len < 3 || f[0] != '0' ||
	    f[1] != 'x')
		return false;
	q = f;
	return proc_eat_hex(&q, f + len, v) && q == f + len;
}

static bool field_trace(const char **p, const char *end,
			struct proc_graph_trace_ref *t)
{
	const char *f;
	size_t len;

	if (*p < end && **p == '-' && (*p + 1 == end || (*p)[1] == ' ')) {
		t->has = false;
		t->id = 0;
		return next_field(p, end, &f, &len);
	}
	t->has = true;
	return field_ulong(p, end, &t->id);
}

static bool is_odigit(char c)
{
	return c >= '0' && c <= '7';
}

/* Decode [p, end) into sb: "\ooo" is one byte; a lone '\' is malformed. */
static bool unescape(struct strbuf *sb, const char *p, const char *end)
{
	strbuf_reset(sb);
	while (p < end) {
		if (*p != '\\') {
			strbuf_addch(sb, *p++);
			continue;
		}
		if (end - p < 4 || !is_odigit(p[1]) || !is_odigit(p[2]) ||
		    !is_odigit(p[3]) || p[1] > '3')
			return false;
		strbuf_addch(sb, (p[1] - '0') << 6 | (p[2] - '0') << 3 |
				 (p[3] - '0'));
		p += 4;
	}
	return true;
}

static bool class_seen(struct graph_state_s *s, unsigned long long idx)
{
	return idx < PROC_GRAPH_MAX_CLASSES &&
	       (s->seen[idx / 8] & (1u << (idx % 8)));
}

/* Count a record and hand it to ops->fn, if there is one. */
#define DELIVER(s, fn, rec)						\
	((s)->rd.st->records++,						\
	 (s)->ops && (s)->ops->fn ? (s)->ops->fn((rec), (s)->ctx) : 0)

/* ---- header ---- */

static const char *header_magic(struct graph_state_s *s, const char *p,
				const char *end)
{
	unsigned long long v;

	if (!field_ulong(&p, end, &v) || p != end)
		return "malformed lockdep_graph record";
	if (v != PROC_GRAPH_VERSION)
		return "unknown version";
	s->hdr.version = (unsigned int)v;
	s->state = H_RELEASE;
	return NULL;
}

static const char *header_text(struct strbuf *sb, const char *p,
			       const char *end)
{
	if (p >= end)
		return "empty header field";
	strbuf_reset(sb);
	strbuf_add(sb, p, end - p);
	return NULL;
}

static const char *header_bit(struct graph_state_s *s, const char *p,
			      const char *end, bool dep)
{
	unsigned int *nr = dep ? &s->hdr.nr_dep_bits : &s->hdr.nr_usage_bits;
	unsigned int max = dep ? PROC_GRAPH_MAX_DEP_BITS :
				 PROC_GRAPH_MAX_USAGE_BITS;
	char **names = dep ? s->dep_names : s->usage_names;
	unsigned long long bit;
	const char *f;
	size_t len;

	if (dep && !s->hdr.nr_usage_bits)
		return "dep_bit before the usage_bit records";
	if (!dep && s->hdr.nr_dep_bits)
		return "usage_bit after a dep_bit record";
	if (!field_ulong(&p, end, &bit) || !next_field(&p, end, &f, &len) ||
	    p != end)
		return dep ? "malformed dep_bit record" :
			     "malformed usage_bit record";
	if (bit != *nr || bit >= max)
		return "bit out of order";
	names[bit] = xstrndup(f, len);
	(*nr)++;
	return NULL;
}

static const char *header_counts(struct graph_state_s *s, const char *p,
				 const char *end)
{
	struct proc_graph_header *h = &s->hdr;

	if (!h->nr_usage_bits || !h->nr_dep_bits)
		return "counts before the usage_bit and dep_bit records";
	if (!field_ulong(&p, end, &h->nr_classes) ||
	    !field_ulong(&p, end, &h->nr_deps) ||
	    !field_ulong(&p, end, &h->nr_chains) ||
	    !field_ulong(&p, end, &h->nr_traces) || p != end)
		return "malformed counts record";
	return NULL;
}

/*
 * One header record (its name in [w, w + wlen)); NULL when it was one,
 * in its place, else why not. *done is set when the header is complete.
 */
static const char *header_record(struct graph_state_s *s, const char *w,
				 size_t wlen, const char *p, const char *end,
				 bool *done)
{
	static const char *const names[] = {
		[H_RELEASE] = "release", [H_BUILD_ID] = "build_id",
		[H_ADDRESSES] = "addresses", [H_STEXT] = "stext",
	};
	const char *why;

	*done = false;
	if (s->state >= H_RELEASE && s->state <= H_STEXT &&
	    wlen == strlen(names[s->state]) &&
	    !memcmp(w, names[s->state], wlen)) {
		switch (s->state) {
		case H_RELEASE:
			why = header_text(&s->release, p, end);
			break;
		case H_BUILD_ID:
			why = header_text(&s->build_id, p, end);
			break;
		case H_ADDRESSES:
			if (end - p == 3 && !memcmp(p, "raw", 3))
				s->hdr.addresses_hidden = false;
			else if (end - p == 6 && !memcmp(p, "hidden", 6))
				s->hdr.addresses_hidden = true;
			else
				return "addresses is neither raw nor hidden";
			why = NULL;
			break;
		default:
			why = field_hex(&p, end, &s->hdr.stext) && p == end ?
			      NULL : "malformed stext record";
			break;
		}
		if (!why)
			s->state++;
		return why;
	}
	if (s->state == H_BITS) {
		if (wlen == 9 && !memcmp(w, "usage_bit", 9))
			return header_bit(s, p, end, false);
		if (wlen == 7 && !memcmp(w, "dep_bit", 7))
			return header_bit(s, p, end, true);
		if (wlen == 6 && !memcmp(w, "counts", 6)) {
			why = header_counts(s, p, end);
			if (!why) {
				s->state = H_BODY;
				*done = true;
			}
			return why;
		}
	}
	return "";
}

static int finish_header(struct graph_state_s *s)
{
	unsigned int i;

	s->hdr.release = s->release.buf;
	s->hdr.build_id = s->build_id.buf;
	for (i = 0; i < s->hdr.nr_usage_bits; i++)
		s->hdr.usage_bits[i] = s->usage_names[i];
	for (i = 0; i < s->hdr.nr_dep_bits; i++)
		s->hdr.dep_bits[i] = s->dep_names[i];
	s->hdr.line = s->rd.lineno;
	s->rd.st->notes |= PROC_NOTE_HEADER;
	return s->ops && s->ops->header_fn ?
	       s->ops->header_fn(&s->hdr, s->ctx) : 0;
}

/* ---- body ---- */

static const char *wait_name(const char *f, size_t len)
{
	static const char *const names[] = {
		"inv", "free", "spin", "config", "sleep", "unknown",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (len == strlen(names[i]) && !memcmp(f, names[i], len))
			return names[i];
	return NULL;
}

static const char *body_class(struct graph_state_s *s, const char *p,
			      const char *end, struct proc_graph_class *c)
{
	unsigned long long idx, sub;
	const char *f;
	size_t len;

	memset(c, 0, sizeof(*c));
	if (!field_ulong(&p, end, &idx) || !field_hex(&p, end, &c->key) ||
	    !field_long(&p, end, &c->name_version) ||
	    !field_ulong(&p, end, &sub) ||
	    !field_hex(&p, end, &c->usage_mask))
		return "malformed class record";
	if (idx >= PROC_GRAPH_MAX_CLASSES)
		return "class index out of range";
	if (class_seen(s, idx))
		return "class index listed twice";
	if (sub > 0xffffffffull)
		return "subclass out of range";
	if (!next_field(&p, end, &f, &len) || !(c->wait_inner = wait_name(f, len)) ||
	    !next_field(&p, end, &f, &len) || !(c->wait_outer = wait_name(f, len)))
		return "unknown wait type";
	if (p >= end)
		return "no class name";
	if (!unescape(&s->name, p, end))
		return "bad escape in the class name";
	c->idx = (unsigned int)idx;
	c->subclass = (unsigned int)sub;
	c->name = s->name.buf;
	c->name_len = s->name.len;
	return NULL;
}

static int new_class(struct graph_state_s *s, const char *p, const char *end)
{
	struct proc_graph_class c;
	const char *why = body_class(s, p, end, &c);

	s->usage_class = -1;
	if (why) {
		proc_bad(&s->rd, "%s", why);
		return 0;
	}
	c.line = s->rd.lineno;
	s->seen[c.idx / 8] |= 1u << (c.idx % 8);
	s->usage_class = c.idx;
	s->nr_classes++;
	return DELIVER(s, class_fn, &c);
}

static int new_usage(struct graph_state_s *s, const char *p, const char *end)
{
	struct proc_graph_usage u;
	unsigned long long idx, bit;

	memset(&u, 0, sizeof(u));
	if (!field_ulong(&p, end, &idx) || !field_ulong(&p, end, &bit) ||
	    !field_trace(&p, end, &u.trace) || p != end) {
		proc_bad(&s->rd, "malformed usage record");
		return 0;
	}
	if (s->usage_class < 0 || idx != (unsigned long long)s->usage_class) {
		proc_bad(&s->rd, "usage record outside its class");
		return 0;
	}
	if (bit >= s->hdr.nr_usage_bits) {
		proc_bad(&s->rd, "usage bit the header does not name");
		return 0;
	}
	u.class_idx = (unsigned int)idx;
	u.bit = (unsigned int)bit;
	u.line = s->rd.lineno;
	return DELIVER(s, usage_fn, &u);
}

static int new_dep(struct graph_state_s *s, const char *p, const char *end)
{
	struct proc_graph_dep d;
	unsigned long long from, to, mask, dist;

	memset(&d, 0, sizeof(d));
	if (!field_ulong(&p, end, &from) || !field_ulong(&p, end, &to) ||
	    !field_hex(&p, end, &mask) || !field_ulong(&p, end, &dist) ||
	    !field_trace(&p, end, &d.trace) || p != end) {
		proc_bad(&s->rd, "malformed dep record");
		return 0;
	}
	if (!class_seen(s, from) || !class_seen(s, to)) {
		proc_bad(&s->rd, "dep names a class not listed before");
		return 0;
	}
	if (mask >> s->hdr.nr_dep_bits) {
		proc_bad(&s->rd, "dep bit the header does not name");
		return 0;
	}
	d.from = (unsigned int)from;
	d.to = (unsigned int)to;
	d.dep_mask = (unsigned int)mask;
	d.distance = dist > ~0ul ? ~0ul : (unsigned long)dist;
	d.line = s->rd.lineno;
	s->nr_deps++;
	return DELIVER(s, dep_fn, &d);
}

static int new_chain(struct graph_state_s *s, const char *p, const char *end)
{
	struct proc_graph_chain c;
	unsigned long long irq, depth, idx;
	size_t i;

	memset(&c, 0, sizeof(c));
	if (!field_ulong(&p, end, &c.idx) || !field_ulong(&p, end, &irq) ||
	    !field_ulong(&p, end, &depth) || irq > 3) {
		proc_bad(&s->rd, "malformed chain record");
		return 0;
	}
	/* each index takes at least two bytes of the line */
	if (depth > (size_t)(end - p + 1) / 2) {
		proc_bad(&s->rd, "chain shorter than its depth");
		return 0;
	}
	ALLOC_GROW(s->classes, depth + 1, s->alloc_classes);
	for (i = 0; i < depth; i++) {
		if (!field_ulong(&p, end, &idx)) {
			proc_bad(&s->rd, "chain shorter than its depth");
			return 0;
		}
		if (!class_seen(s, idx)) {
			proc_bad(&s->rd, "chain names a class not listed before");
			return 0;
		}
		s->classes[i] = (unsigned int)idx;
	}
	if (p != end) {
		proc_bad(&s->rd, "chain longer than its depth");
		return 0;
	}
	c.irq_context = (unsigned int)irq;
	c.depth = depth;
	c.classes = s->classes;
	c.line = s->rd.lineno;
	s->nr_chains++;
	return DELIVER(s, chain_fn, &c);
}

static int new_trace(struct graph_state_s *s, const char *p, const char *end)
{
	struct proc_graph_trace t;
	unsigned long long nr;
	size_t i;

	memset(&t, 0, sizeof(t));
	if (!field_ulong(&p, end, &t.id) || !field_ulong(&p, end, &nr)) {
		proc_bad(&s->rd, "malformed trace record");
		return 0;
	}
	/* each address takes at least four bytes ("0x0 ") */
	if (nr > (size_t)(end - p + 1) / 4) {
		proc_bad(&s->rd, "trace shorter than its length");
		return 0;
	}
	ALLOC_GROW(s->addrs, nr + 1, s->alloc_addrs);
	for (i = 0; i < nr; i++)
		if (!field_hex(&p, end, &s->addrs[i])) {
			proc_bad(&s->rd, "malformed trace address");
			return 0;
		}
	if (p != end) {
		proc_bad(&s->rd, "trace longer than its length");
		return 0;
	}
	t.nr = nr;
	t.addrs = s->addrs;
	t.line = s->rd.lineno;
	s->nr_traces++;
	return DELIVER(s, trace_fn, &t);
}

static void end_record(struct graph_state_s *s, const char *p, const char *end)
{
	const struct proc_graph_header *h = &s->hdr;

	if (p != end) {
		proc_bad(&s->rd, "malformed end record");
		return;
	}
	s->state = H_END;
	if (h->nr_classes != s->nr_classes || h->nr_deps != s->nr_deps ||
	    h->nr_chains != s->nr_chains || h->nr_traces != s->nr_traces)
		proc_bad(&s->rd, "counts announced %llu/%llu/%llu/%llu classes/deps/chains/traces, the file has %llu/%llu/%llu/%llu",
			 h->nr_classes, h->nr_deps, h->nr_chains, h->nr_traces,
			 s->nr_classes, s->nr_deps, s->nr_chains,
			 s->nr_traces);
}

/* A body record: its name in [w, w + wlen), its fields in [p, end). */
static int body_record(struct graph_state_s *s, const char *w, size_t wlen,
		       const char *p, const char *end)
{
#define IS(lit) (wlen == sizeof(lit) - 1 && !memcmp(w, lit, wlen))
	if (IS("usage"))
		return new_usage(s, p, end);
	s->usage_class = -1;
	if (IS("class"))
		return new_class(s, p, end);
	if (IS("dep"))
		return new_dep(s, p, end);
	if (IS("chain"))
		return new_chain(s, p, end);
	if (IS("trace"))
		return new_trace(s, p, end);
	if (IS("end")) {
		end_record(s, p, end);
		return 0;
	}
#undef IS
	proc_bad(&s->rd, "unknown record");
	return 0;
}

static int one_line(struct graph_state_s *s)
{
	const char *line = s->rd.line, *end = line + s->rd.len, *p = line;
	const char *w, *why;
	size_t wlen;
	bool done;

	if (!next_field(&p, end, &w, &wlen)) {
		if (s->rd.lineno == 1)
			goto reject;
		if (!proc_is_blank(line, s->rd.len))
			proc_bad(&s->rd, "malformed line");
		return 0;
	}
	if (s->state == H_MAGIC) {
		if (wlen != 13 || memcmp(w, "lockdep_graph", 13))
			goto reject;
		why = header_magic(s, p, end);
		if (why)
			goto reject;
		return 0;
	}
	if (s->state == H_END) {
		proc_bad(&s->rd, "record after end");
		return 0;
	}
	if (s->state < H_BODY) {
		why = header_record(s, w, wlen, p, end, &done);
		if (!why)
			return done ? finish_header(s) : 0;
		proc_bad(&s->rd, "%s", *why ? why :
			 "record before the header is complete");
		return 0;
	}
	return body_record(s, w, wlen, p, end);
reject:
	s->rejected = true;
	if (!(s->rd.flags & PROC_PARSE_QUIET))
		error("%s:%lu: not a lockdep_graph of version %d",
		      s->rd.input, s->rd.lineno, PROC_GRAPH_VERSION);
	return -1;
}

int proc_graph_parse(FILE *in, const char *input, unsigned int flags,
		     const struct proc_graph_ops *ops, void *ctx,
		     struct proc_parse_stats *st)
{
	struct graph_state_s *s = xcalloc(1, sizeof(*s));
	int ret = 0;
	size_t i;

	s->ops = ops;
	s->ctx = ctx;
	s->usage_class = -1;
	strbuf_init(&s->release);
	strbuf_init(&s->build_id);
	strbuf_init(&s->name);
	proc_reader_init(&s->rd, in, input, flags, st);
	while (!ret && proc_reader_next(&s->rd))
		ret = one_line(s);
	if (!s->rejected && s->state != H_END)
		s->rd.st->notes |= PROC_NOTE_TRUNCATED;
	if (proc_reader_finish(&s->rd) && !ret)
		ret = -1;
	strbuf_release(&s->release);
	strbuf_release(&s->build_id);
	strbuf_release(&s->name);
	for (i = 0; i < PROC_GRAPH_MAX_USAGE_BITS; i++)
		free(s->usage_names[i]);
	for (i = 0; i < PROC_GRAPH_MAX_DEP_BITS; i++)
		free(s->dep_names[i]);
	free(s->classes);
	free(s->addrs);
	free(s);
	return ret;
}
