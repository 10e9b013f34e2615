// SPDX-License-Identifier: GPL-2.0
/*
 * Building the lock graph (graph.h): nodes merged by key through a hash
 * map, sites interned, edges appended as they come and, in
 * graph_finish(), put in (from, to, boot) order so the same dependency
 * seen by several boots sits in one run and merges into one edge with a
 * boot list. The rows of one boot usually come sorted already (the
 * store's primary key), and those of a second boot whose classes are
 * in the same order as a sorted run after them, merged in one pass;
 * otherwise an in-place counting sort by from and a sort of each node's
 * few out-edges: no comparison sort over a million edges, and no second
 * copy of them. Names and keys live in one pool.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "parse/report.h"
#include "util/hash.h"
#include "util/hindex.h"
#include "util/strbuf.h"
#include "util/strset.h"
#include "util/xalloc.h"

struct graph_map {
	struct hindex index;	/* merge key -> node */
	const char **keys;	/* per node, the merge key (in the pool) */
	char **chunks;		/* the pool: names and keys, never moved */
	size_t nr_chunks, alloc_chunks;
	char *free;		/* the unused tail of the last chunk */
	size_t left;
};

/*
 * A copy of @s in the pool: chunks of 64 KiB, each new one twice the
 * last up to 8 MiB, so one allocation per many names, not per name.
 */
static char *pool_add(struct graph_map *m, const char *s)
{
	size_t len = strlen(s) + 1, size = (size_t)64 << 10;

	if (len > m->left) {
		if (m->nr_chunks)
			size <<= m->nr_chunks < 7 ? m->nr_chunks : 7;
		if (size < len)
			size = len;
		ALLOC_GROW(m->chunks, m->nr_chunks + 1, m->alloc_chunks);
		m->free = m->chunks[m->nr_chunks++] = xrealloc_big(NULL, size);
		m->left = size;
	}
	m->left -= len;
	m->free += len;
	return memcpy(m->free - len, s, len);
}

struct graph *graph_new(void)
{
	struct graph *g = xcalloc(1, sizeof(*g));

	g->map = xcalloc(1, sizeof(*g->map));
	hindex_reserve(&g->map->index, 512);
	return g;
}

static void map_free(struct graph *g)
{
	size_t i;

	if (!g->map)
		return;
	for (i = 0; i < g->map->nr_chunks; i++)
		free(g->map->chunks[i]);
	free(g->map->chunks);
	free(g->map->keys);
	hindex_release(&g->map->index);
	free(g->map);
	g->map = NULL;
}

void graph_free(struct graph *g)
{
	size_t i;

	if (!g)
		return;
	map_free(g);
	for (i = 0; i < g->nr_boots; i++)
		free(g->boots[i].label);
	strset_release(&g->sites);
	free(g->boots);
	free(g->nodes);
	free(g->edges);
	free(g->edge_boots);
	free(g->out);
	free(g->in);
	free(g->in_edge);
	free(g);
}

int graph_add_boot(struct graph *g, int64_t id, const char *label)
{
	ALLOC_GROW(g->boots, g->nr_boots + 1, g->alloc_boots);
	g->boots[g->nr_boots].id = id;
	g->boots[g->nr_boots].label = label ? xstrdup(label) : NULL;
	g->boots[g->nr_boots].no_export = false;
	g->boots[g->nr_boots].no_lockdep = false;
	g->boots[g->nr_boots].nr_ambiguous = 0;
	return (int)g->nr_boots++;
}

/* A new node named @name of merge key @key (in the pool already). */
static struct graph_node *new_node(struct graph *g, const char *key,
				   char *name)
{
	struct graph_node *n;

	if (g->nr_nodes == g->alloc_nodes) {
		ALLOC_GROW_BIG(g->nodes, g->nr_nodes + 1, g->alloc_nodes);
		g->map->keys = xrealloc_big(g->map->keys,
					    g->alloc_nodes * sizeof(char *));
	}
	n = &g->nodes[g->nr_nodes];
	memset(n, 0, sizeof(*n));
	n->last_boot = -1;
	n->name = name;
	g->map->keys[g->nr_nodes++] = key;
	return n;
}

void graph_reserve(struct graph *g, uint64_t nodes, uint64_t edges)
{
	size_t n = g->nr_nodes + (nodes < GRAPH_RESERVE_MAX ? nodes :
				  GRAPH_RESERVE_MAX);
	size_t e = g->nr_edges + (edges < GRAPH_RESERVE_MAX ? edges :
				  GRAPH_RESERVE_MAX);

	if (n > g->alloc_nodes) {
		g->alloc_nodes = n;
		g->nodes = xrealloc_big(g->nodes, n * sizeof(*g->nodes));
		g->map->keys = xrealloc_big(g->map->keys, n * sizeof(char *));
	}
	if (e > g->alloc_edges) {
		g->alloc_edges = e;
		g->edges = xrealloc_big(g->edges, e * sizeof(*g->edges));
	}
}

static uint32_t count_node(struct graph *g, struct graph_node *n,
			   unsigned int usage_bits, int boot)
{
	n->usage_bits |= usage_bits;
	if (boot >= 0 && boot != n->last_boot) {
		n->nr_boots++;
		n->last_boot = boot;
	}
	return (uint32_t)(n - g->nodes);
}

uint32_t graph_add_node(struct graph *g, const char *key, const char *name,
			unsigned int usage_bits, int boot)
{
	struct hindex_probe p;
	struct graph_node *n;
	uint64_t h;
	uint32_t i;
	char *k;

	assert(!g->unkeyed);
	if (!key)
		key = name;
	h = str_hash(key);
	for (i = hindex_first(&g->map->index, h, &p); i != HINDEX_NONE;
	     i = hindex_next(&g->map->index, &p))
		if (!strcmp(g->map->keys[i], key))
			return count_node(g, &g->nodes[i], usage_bits, boot);
	k = pool_add(g->map, key);
	n = new_node(g, k, strcmp(key, name) ? pool_add(g->map, name) : k);
	hindex_add(&g->map->index, h, (uint32_t)(g->nr_nodes - 1));
	return count_node(g, n, usage_bits, boot);
}

uint32_t graph_append_node(struct graph *g, const char *name,
			   unsigned int usage_bits, int boot)
{
	char *k;

	assert(g->unkeyed || !g->nr_nodes);
	g->unkeyed = true;
	k = pool_add(g->map, name);
	return count_node(g, new_node(g, k, k), usage_bits, boot);
}

/* Row order of graph_finish(): (from, to, boot), no boot last. */
static int row_cmp(const struct graph_edge *a, const struct graph_edge *b)
{
	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	if (a->to != b->to)
		return a->to < b->to ? -1 : 1;
	return (a->boots > b->boots) - (a->boots < b->boots);
}

void graph_add_edge(struct graph *g, uint32_t from, uint32_t to, int boot,
		    int dep_bits, int distance, const char *site)
{
	struct graph_edge *e;

	ALLOC_GROW_BIG(g->edges, g->nr_edges + 1, g->alloc_edges);
	e = &g->edges[g->nr_edges++];
	e->from = from;
	e->to = to;
	e->dep_bits = (int8_t)(dep_bits < 0 ? -1 : dep_bits & 0xf);
	/* lockdep's distance is at most MAX_LOCK_DEPTH (48) */
	e->distance = (int16_t)(distance < 0 ? -1 :
				distance > INT16_MAX ? INT16_MAX : distance);
	e->boots = boot >= 0 ? (uint32_t)boot : UINT32_MAX;
	e->nr_boots = boot >= 0;
	e->site = site ? strset_add(&g->sites, site) + 1 : 0;
	e->site_boot = site ? boot : -1;
	/* where the rows break their order: graph_finish() reads this */
	if (g->nr_edges > 1 && row_cmp(e - 1, e) > 0 && !g->breaks++)
		g->run2 = g->nr_edges - 1;
	if (!g->breaks && (g->nr_edges == 1 || e->boots > g->run1_boot))
		g->run1_boot = e->boots;
	else if (g->breaks && e->boots != g->edges[g->run2].boots)
		g->run2_mixed = true;
}

static int row_qsort_cmp(const void *a, const void *b)
{
	return row_cmp(a, b);
}

/*
 * Sort the rows in place: a counting sort by from that swaps each row
 * into its node's bucket (no second array of edges), then each bucket,
 * a node's out-edges, by (to, boot). @next: nr_nodes + 1 scratch.
 */
static void sort_rows(struct graph *g, uint32_t *next)
{
	struct graph_edge *e = g->edges, tmp;
	size_t n = g->nr_nodes, i;
	uint32_t *end = xmalloc((n + 1) * sizeof(*end));
	uint32_t k, sum = 0, c, dst, start;

	memset(next, 0, (n + 1) * sizeof(*next));
	for (i = 0; i < g->nr_edges; i++)
		next[e[i].from]++;
	for (k = 0; k < n; k++) {
		c = next[k];
		next[k] = sum;
		sum += c;
		end[k] = sum;
	}
	/* next[k]: the first row of bucket k not known to belong there */
	for (k = 0; k < n; k++)
		while (next[k] < end[k]) {
			c = e[next[k]].from;
			if (c == k) {
				next[k]++;
				continue;
			}
			dst = next[c]++;
			tmp = e[dst];
			e[dst] = e[next[k]];
			e[next[k]] = tmp;
		}
	for (k = 0, start = 0; k < n; start = end[k++])
		if (end[k] - start > 1)
			qsort(e + start, end[k] - start, sizeof(*e),
			      row_qsort_cmp);
	free(end);
}

static void merge_into(struct graph_edge *a, const struct graph_edge *b)
{
	if (b->dep_bits >= 0)
		a->dep_bits = a->dep_bits < 0 ? b->dep_bits :
			      a->dep_bits | b->dep_bits;
	if (b->distance >= 0 && (a->distance < 0 || b->distance < a->distance))
		a->distance = b->distance;
	if (!a->site && b->site) {
		a->site = b->site;
		a->site_boot = b->site_boot;
	}
}

/* A row's flag, in nr_boots while building: also seen by the last boot. */
#define ROW_ALSO_LAST 2

static bool same_pair(const struct graph_edge *a, const struct graph_edge *b)
{
	return a->from == b->from && a->to == b->to;
}

static bool pair_less(const struct graph_edge *a, const struct graph_edge *b)
{
	return a->from != b->from ? a->from < b->from : a->to < b->to;
}

/*
 * Two sorted runs of rows, the second all of one boot that comes after
 * every boot of the first (a diff's B after A, rows in the store's key
 * order): merge them in linear time instead of sorting. A row of the
 * second run whose pair the first has is folded into the first's last
 * row of that pair, flagged ROW_ALSO_LAST (merge_into() is associative,
 * so the result is the one of the sorted rows); the rows the first run
 * lacks are set apart and merged back from the end, in place. Returns
 * false, having changed nothing, if the rows are not of that shape.
 */
static bool merge_runs(struct graph *g)
{
	struct graph_edge *e = g->edges, *fresh = NULL;
	size_t r = g->run2, n = g->nr_edges, i = 0, j, k = 0, alloc = 0, w;
	uint32_t last = e[n - 1].boots;

	if (g->breaks != 1 || g->run2_mixed || last == UINT32_MAX ||
	    g->run1_boot >= last)
		return false;
	for (j = r; j < n; j++) {
		while (i < r && pair_less(&e[i], &e[j]))
			i++;
		if (i < r && same_pair(&e[i], &e[j])) {
			while (i + 1 < r && same_pair(&e[i + 1], &e[j]))
				i++;
			merge_into(&e[i], &e[j]);
			e[i].nr_boots |= ROW_ALSO_LAST;
		} else {
			ALLOC_GROW(fresh, k + 1, alloc);
			fresh[k++] = e[j];
		}
	}
	g->nr_edges = r + k;
	for (w = r + k, i = r; k; )
		e[--w] = i && pair_less(&fresh[k - 1], &e[i - 1]) ?
			 e[--i] : fresh[--k];
	free(fresh);
	return true;
}

/* Append @boot to the boot list of edge @e unless it ends with it. */
static void add_boot(struct graph_edge *e, uint32_t *pool, size_t *nr_pool,
		     uint32_t boot)
{
	if (boot == UINT32_MAX || (e->nr_boots && pool[*nr_pool - 1] == boot))
		return;
	pool[(*nr_pool)++] = boot;
	e->nr_boots++;
}

void graph_finish(struct graph *g)
{
	struct graph_edge *e = g->edges;
	uint32_t *count, *pool, boot, last = 0;
	size_t i, nr = 0, nr_pool = 0, n = g->nr_nodes;
	bool also;

	count = xmalloc((n + 1) * sizeof(*count));
	/* one boot list entry per row at most (merge_runs() folds rows) */
	pool = xrealloc_big(NULL, (g->nr_edges ? g->nr_edges : 1) *
			    sizeof(*pool));
	if (g->nr_edges)
		last = e[g->nr_edges - 1].boots;
	if (g->breaks && !merge_runs(g))
		sort_rows(g, count);
	g->out = xcalloc(n + 1, sizeof(*g->out));
	g->in = xcalloc(n + 1, sizeof(*g->in));
	for (i = 0; i < g->nr_edges; i++) {
		boot = e[i].boots;
		also = e[i].nr_boots & ROW_ALSO_LAST;
		if (nr && same_pair(&e[nr - 1], &e[i])) {
			merge_into(&e[nr - 1], &e[i]);
		} else {
			e[nr] = e[i];
			e[nr].boots = (uint32_t)nr_pool;
			e[nr].nr_boots = 0;
			g->out[e[nr].from + 1]++;
			g->in[e[nr].to + 1]++;
			nr++;
		}
		/* rows are in boot order: a repeat is the previous entry */
		add_boot(&e[nr - 1], pool, &nr_pool, boot);
		if (also)
			add_boot(&e[nr - 1], pool, &nr_pool, last);
	}
	g->nr_edges = nr;
	g->alloc_edges = nr ? nr : 1;
	g->edges = xrealloc(g->edges, g->alloc_edges * sizeof(*g->edges));
	g->edge_boots = xrealloc(pool, (nr_pool ? nr_pool : 1) * sizeof(*pool));

	g->in_edge = xrealloc_big(NULL, (nr ? nr : 1) * sizeof(*g->in_edge));
	for (i = 0; i < n; i++) {
		g->out[i + 1] += g->out[i];
		g->in[i + 1] += g->in[i];
	}
	memcpy(count, g->in, (n + 1) * sizeof(*count));
	for (i = 0; i < nr; i++)
		g->in_edge[count[g->edges[i].to]++] = (uint32_t)i;
	free(count);
	g->finished = true;
}

bool graph_edge_has_boot(const struct graph *g, const struct graph_edge *e,
			 uint32_t boot)
{
	const uint32_t *b = graph_edge_boots(g, e);
	uint32_t lo = 0, hi = e->nr_boots, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (b[mid] == boot)
			return true;
		if (b[mid] < boot)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

uint32_t graph_find_edge(const struct graph *g, uint32_t from, uint32_t to)
{
	uint32_t lo = g->out[from], hi = g->out[from + 1], mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (g->edges[mid].to == to)
			return mid;
		if (g->edges[mid].to < to)
			lo = mid + 1;
		else
			hi = mid;
	}
	return UINT32_MAX;
}

const char *graph_node_key(const struct graph *g, uint32_t n)
{
	return g->map->keys[n];
}

uint32_t graph_find_node(const struct graph *g, const char *name)
{
	size_t i;

	for (i = 0; i < g->nr_nodes; i++)
		if (!strcmp(g->nodes[i].name, name))
			return (uint32_t)i;
	return UINT32_MAX;
}

/* get_usage_char() of kernel/locking/lockdep.c, per state and read side */
const char *graph_usage_str(unsigned int bits, char *buf)
{
	int states = bits & (0xfu << (LDR_RECLAIM_FS * 4)) ? 3 : 2;
	int s, read, k = 0;
	bool in, on;

	for (s = 0; s < states; s++)
		for (read = 0; read < 2; read++) {
			in = bits & (read ? LDR_USAGE_IN_READ(s) : LDR_USAGE_IN(s));
			on = bits & (read ? LDR_USAGE_ON_READ(s) : LDR_USAGE_ON(s));
			buf[k++] = in && on ? '?' : in ? '-' : on ? '+' : '.';
		}
	buf[k] = '\0';
	return buf;
}

const char *graph_dep_str(int dep_bits, char *buf)
{
	static const char *const names[] = { "SR", "ER", "SN", "EN" };
	int i, k = 0;

	buf[0] = '\0';
	if (dep_bits < 0)
		return buf;
	for (i = 3; i >= 0; i--)
		if (dep_bits & (1 << i)) {
			if (k)
				buf[k++] = ',';
			memcpy(buf + k, names[i], 3);
			k += 2;
		}
	return buf;
}

/*
 * /proc/lockdep names a class's dependencies at distance 1 and nothing
 * about them; the export adds the rest (lockdep-db(5) dependencies).
 */
const char *const graph_missing_json[GRAPH_NR_MISSING] = {
	"sites", "trace_ids", "dependency_kinds", "distant_dependencies",
	"usage_traces",
};
const char *const graph_missing_text[GRAPH_NR_MISSING] = {
	"sites", "trace ids", "dependency kinds", "dependencies at distance > 1",
	"usage traces",
};

void graph_missing_line(struct strbuf *sb, const char *boot, bool wrap,
			bool no_lockdep)
{
	const char *brk = wrap ? "\n" : " ";
	size_t i;

	graph_text_add(sb, boot);
	if (no_lockdep) {
		strbuf_addf(sb, " has no lock graph:%sthis kernel has no lockdep (no /proc/lockdep:%sCONFIG_PROVE_LOCKING is off)",
			    brk, brk);
		return;
	}
	strbuf_addf(sb, " has no graph export:%sdependencies from /proc/lockdep alone,%swithout ",
		    brk, brk);
	for (i = 0; i < GRAPH_NR_MISSING; i++)
		strbuf_addf(sb, "%s%s", i == 3 ? wrap ? ",\n" : ", " : i ?
			    i + 1 < GRAPH_NR_MISSING ? ", " : " or " : "",
			    graph_missing_text[i]);
}

const char *graph_boot_str(const struct graph *g, int boot, char *buf,
			   size_t len)
{
	const struct graph_boot *b;

	if (boot < 0 || (size_t)boot >= g->nr_boots) {
		snprintf(buf, len, "no boot");
		return buf;
	}
	b = &g->boots[boot];
	if (b->label)
		snprintf(buf, len, "boot %lld (%s)", (long long)b->id, b->label);
	else
		snprintf(buf, len, "boot %lld", (long long)b->id);
	return buf;
}

void graph_text_add(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c >= 0x7f)
			strbuf_addf(sb, "\\x%02x", c);
		else
			strbuf_addch(sb, c);
	}
}

/*
 * As check_irq_usage() pairs them (exclusive_mask()): a class used in an
 * irq context of @state, written or read, must not reach one taken,
 * written or read, with that irq enabled. (Lockdep then spares some
 * read-read paths by their dependency bits; /proc/lockdep does not print
 * those bits, so this is the conservative reading.)
 */
bool graph_irq_safe(unsigned int bits, int state)
{
	return bits & (LDR_USAGE_IN(state) | LDR_USAGE_IN_READ(state));
}

bool graph_irq_unsafe(unsigned int bits, int state)
{
	return bits & (LDR_USAGE_ON(state) | LDR_USAGE_ON_READ(state));
}
