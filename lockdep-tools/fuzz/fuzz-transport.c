// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the host side of the agent protocol
 * (src/collect/transport.h): the input is all the agent says, written
 * into one end of a socket pair that is then closed for writing; the
 * client runs a whole collection on the other end as session.c does
 * (HELLO, LIST, READ of every file offered, KMSG dump, TRIGGER, RUN,
 * OUTPUT, KMSG follow, POWEROFF), stopping at the first call that ends
 * the connection, into a sink that checks the call order.
 *
 * Invariants: a file's bytes are what its DATA frames carried, its
 * status agrees with them (complete: the END's count; incomplete: some;
 * missing: none); kernel log records reach the sink with growing
 * sequence numbers, each the one the kmsg parser reads in it, and the
 * summary counts them, their first, last and gaps (gaps between records,
 * in order); events bytes add up; the identity and the agent's error
 * text are sanitised, NUL-terminated; module files are valid paths, once
 * each, within the limit; workload numbers within what the database
 * counts; a failed call says why.
 *
 * The first HELLO nonce is the one random number of a collection: here
 * getrandom() gives 1 (defined below, it takes the libc one's place), so
 * an input can answer it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>

#include "fuzz.h"
#include "collect/transport.h"
#include "parse/kmsg.h"
#include "proto/allowlist.h"
#include "proto/message.h"

ssize_t getrandom(void *buf, size_t len, unsigned int flags)
{
	(void)flags;
	memset(buf, 0, len);
	if (len)
		*(uint8_t *)buf = 1;	/* little-endian 1 as a uint32_t */
	return len;
}

struct check_sink {
	struct collect_sink sink;
	const struct file_item *in_file;
	uint64_t file_bytes, records, first, last, events;
	struct kmsg_parser *kmsg;
	uint64_t *seqs;		/* of each record, to check the gaps */
};

static int cs_file_begin(struct collect_sink *s, const struct file_item *it)
{
	struct check_sink *c = (struct check_sink *)s;

	FUZZ_CHECK(!c->in_file);
	c->in_file = it;
	c->file_bytes = 0;
	return 0;
}

static int cs_file_data(struct collect_sink *s, const void *buf, size_t len)
{
	struct check_sink *c = (struct check_sink *)s;

	FUZZ_CHECK(c->in_file && len <= PROTO_MAX_PAYLOAD && (len == 0 || buf));
	c->file_bytes += len;
	return 0;
}

static int cs_file_end(struct collect_sink *s, const struct file_item *it)
{
	struct check_sink *c = (struct check_sink *)s;

	FUZZ_CHECK(c->in_file == it && it->bytes == c->file_bytes);
	FUZZ_CHECK(it->status != ITEM_COMPLETE || it->err == 0);
	FUZZ_CHECK(it->status != ITEM_INCOMPLETE || it->bytes > 0);
	FUZZ_CHECK(it->status != ITEM_MISSING || it->bytes == 0);
	FUZZ_CHECK(it->bytes <= AGENT_MAX_FILE);
	c->in_file = NULL;
	return 0;
}

static void cs_line(const char *line, size_t len, void *data)
{
	(void)line;
	(void)len;
	(void)data;
}

static int cs_kmsg_record(struct collect_sink *s, const uint8_t *rec,
			  size_t len)
{
	struct check_sink *c = (struct check_sink *)s;
	uint64_t seq;

	FUZZ_CHECK(!c->in_file);
	FUZZ_CHECK(!proto_kmsg_seq(rec, len, &seq));
	FUZZ_CHECK(!c->records || seq > c->last);
	/* the parser behind the sink reads the same number, if it reads it */
	if (!kmsg_parser_push_record(c->kmsg, rec, len))
		FUZZ_CHECK(kmsg_parser_last_seq(c->kmsg) == seq);
	if (!c->records)
		c->first = seq;
	c->seqs = realloc(c->seqs, (c->records + 1) * sizeof(*c->seqs));
	FUZZ_CHECK(c->seqs);
	c->seqs[c->records++] = seq;
	c->last = seq;
	return 0;
}

static int cs_events_data(struct collect_sink *s, const void *buf,
			  size_t len)
{
	struct check_sink *c = (struct check_sink *)s;

	FUZZ_CHECK(!c->in_file && len && buf);
	c->events += len;
	return 0;
}

static const struct collect_sink_ops check_ops = {
	.file_begin = cs_file_begin,
	.file_data = cs_file_data,
	.file_end = cs_file_end,
	.kmsg_record = cs_kmsg_record,
	.events_data = cs_events_data,
};

static void check_text(const char *s, size_t size)
{
	const char *nul = memchr(s, '\0', size);

	FUZZ_CHECK(nul);
	for (; s < nul; s++)
		FUZZ_CHECK(*s >= 0x20 && *s <= 0x7e);
}

static void check_call(const struct agent_client *cl, int ret)
{
	FUZZ_CHECK(ret <= 0);
	FUZZ_CHECK(memchr(cl->why, '\0', sizeof(cl->why)));
	FUZZ_CHECK(!ret || cl->why[0]);
	check_text(cl->agent_msg, sizeof(cl->agent_msg));
}

static void check_summary(const struct collect_summary *sum,
			  const struct check_sink *c)
{
	const struct kmsg_item *k = &sum->kmsg;
	const struct workload_item *w = &sum->workload;
	size_t i, j, r = 1;

	check_text(sum->identity, sizeof(sum->identity));
	FUZZ_CHECK(k->records == c->records && sum->events.bytes == c->events);
	FUZZ_CHECK(!k->records || (k->first == c->first && k->last == c->last));
	/* each gap is the hole between two records that arrived in turn */
	for (i = 0; i < k->ngaps; i++) {
		while (r < c->records && c->seqs[r] == c->seqs[r - 1] + 1)
			r++;
		FUZZ_CHECK(r < c->records);
		FUZZ_CHECK(k->gaps[i].from == c->seqs[r - 1] + 1 &&
			   k->gaps[i].to == c->seqs[r] - 1);
		r++;
	}
	while (r < c->records && c->seqs[r] == c->seqs[r - 1] + 1)
		r++;
	FUZZ_CHECK(r >= c->records);
	FUZZ_CHECK(sum->nfiles <= proto_allowlist_len + PROTO_MAX_MODULE_FILES);
	for (i = proto_allowlist_len; i < sum->nfiles; i++) {
		FUZZ_CHECK(proto_module_file_path(sum->files[i].path,
						  strlen(sum->files[i].path)));
		for (j = 0; j < i; j++)
			FUZZ_CHECK(strcmp(sum->files[i].path,
					  sum->files[j].path));
	}
	FUZZ_CHECK(w->output_len <= PROTO_WORKLOAD_OUTPUT &&
		   w->output_len <= w->output_total &&
		   w->output_total <= INT64_MAX && w->duration_ms <= INT64_MAX);
	FUZZ_CHECK(!w->output_len || w->output);
}

/* What session.c does with a connection, step by step. */
static void collection(struct agent_client *cl, struct collect_summary *sum,
		       struct check_sink *c)
{
	struct collect_sink *sink = &c->sink;
	bool offered[64] = { false };
	size_t i;
	int ret;

	FUZZ_CHECK(proto_allowlist_len <= 64);
	ret = agent_client_hello(cl, sum, proto_now_ms() + 10000);
	check_call(cl, ret);
	if (ret)
		return;
	ret = agent_client_list(cl, sum, offered);
	check_call(cl, ret);
	for (i = 0; !ret && i < sum->nfiles; i++) {
		if (i < proto_allowlist_len && !offered[i])
			continue;
		ret = agent_client_read(cl, &sum->files[i], sink);
		check_call(cl, ret);
	}
	if (ret)
		return;
	ret = agent_client_kmsg(cl, sum, sink);
	check_call(cl, ret);
	if (!ret)
		ret = agent_client_trigger(cl, &sum->triggers[0]);
	check_call(cl, ret);
	if (!ret)
		ret = agent_client_run(cl, &sum->workload);
	check_call(cl, ret);
	if (!ret && sum->workload.state == WORKLOAD_RUNNING)
		ret = agent_client_output(cl, &sum->workload);
	check_call(cl, ret);
	if (!ret)
		ret = agent_client_kmsg_follow(cl, sum, sink, 0);
	check_call(cl, ret);
	if (!ret)
		check_call(cl, agent_client_poweroff(cl));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const triggers[] = { "ab_ba" };
	struct check_sink c = { .sink.ops = &check_ops };
	struct collect_summary sum;
	struct agent_client cl;
	int sv[2];

	fuzz_quiet_errors();
	FUZZ_CHECK(!socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
	/* the whole of what the agent says, then its end */
	FUZZ_CHECK(!size || write(sv[1], data, size) == (ssize_t)size);
	FUZZ_CHECK(!shutdown(sv[1], SHUT_WR));
	FUZZ_CHECK(!fcntl(sv[0], F_SETFL, O_NONBLOCK));
	memset(&cl, 0, sizeof(cl));
	cl.fd = sv[0];
	cl.timeout_ms = 10000;
	proto_conn_init(&cl.conn, sv[0]);
	FUZZ_CHECK(!collect_summary_init(&sum, triggers, 1));
	c.kmsg = kmsg_parser_new("fuzz", cs_line, NULL);
	collection(&cl, &sum, &c);
	FUZZ_CHECK(!c.in_file);
	check_summary(&sum, &c);
	agent_client_close(&cl);
	close(sv[1]);
	kmsg_parser_free(c.kmsg);
	free(c.seqs);
	collect_summary_release(&sum);
	return 0;
}
