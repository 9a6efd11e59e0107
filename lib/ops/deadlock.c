#include "deadlock.h"

#include <stdlib.h>
#include <string.h>

#include "cascade.h"
#include "finalizer_command.h"
#include "node_json.h"
#include "sort.h"

/* How many members are tried as the next breaker, at most: a deadlock is
 * a handful of objects; a huge one gets a good way out, not the least. */
#define TRIES 64

/* Whether dependent d, as the collector's state has it, holds owner o's
 * foreground deletion (a live reference by UID with blockOwnerDeletion
 * that the cycle breaker did not unblock). */
static int blocks(const struct owners_collector *c, uint32_t d, uint32_t o)
{
	const struct owners_node *n = &c->g->nodes[d];
	uint32_t i;

	if (c->node[d].gone)
		return 0;
	for (i = 0; i < n->n_refs; i++) {
		size_t k = c->first_ref[d] + i;

		if (n->refs[i].owner == o && n->refs[i].block_owner_deletion &&
		    !c->ref[k].removed && !c->ref[k].unblocked)
			return 1;
	}
	return 0;
}

/* Whether reference i of n is its first to that owner (an owner named
 * twice is counted once). */
static int first_to_owner(const struct owners_node *n, uint32_t i)
{
	uint32_t j;

	for (j = 0; j < i; j++)
		if (n->refs[j].owner == n->refs[i].owner)
			return 0;
	return 1;
}

/* Where the search keeps its work: per node, the set (in), the blocking
 * dependents in it (cnt); a queue as long as the list. */
struct work {
	const struct owners_collector *c;
	unsigned char *in;
	uint32_t *cnt, *queue;
};

/* Leaves in `in` the largest part of list's nodes (those in `in`) in
 * which every node has a blocking dependent in the part: those whose
 * wait never ends. Returns how many are left. */
static size_t keep_held(struct work *w, const uint32_t *list, size_t n)
{
	const struct owners_graph *g = w->c->g;
	size_t head = 0, tail = 0, left = 0, i;
	uint32_t j;

	for (i = 0; i < n; i++) {
		const struct owners_node *o = &g->nodes[list[i]];

		w->cnt[list[i]] = 0;
		for (j = 0; w->in[list[i]] && j < o->n_dependents; j++)
			w->cnt[list[i]] += w->in[owners_graph_dependents(g, o)[j]] &&
					   blocks(w->c, owners_graph_dependents(g, o)[j], list[i]);
	}
	for (i = 0; i < n; i++)
		if (w->in[list[i]] && !w->cnt[list[i]]) {
			w->in[list[i]] = 0;
			w->queue[tail++] = list[i];
		}
	while (head < tail) {
		uint32_t d = w->queue[head++];
		const struct owners_node *dn = &g->nodes[d];

		for (j = 0; j < dn->n_refs; j++) {
			uint32_t o = dn->refs[j].owner;

			if (o == OWNERS_NO_NODE || !w->in[o] || !first_to_owner(dn, j) ||
			    !blocks(w->c, d, o))
				continue;
			if (!--w->cnt[o]) {
				w->in[o] = 0;
				w->queue[tail++] = o;
			}
		}
	}
	for (i = 0; i < n; i++)
		left += w->in[list[i]];
	return left;
}

/* Objects that can be members: in foreground deletion, not orphaning. */
static int may_hold(const struct owners_collector *c, uint32_t k)
{
	return !c->g->nodes[k].virtual_ && !c->node[k].gone && c->node[k].deleting &&
	       c->node[k].fg && !c->node[k].orphan;
}

/* Labels the members connected to `start` (by blocking references
 * between members) with deadlock `id`, in d->of. */
static void label(struct owners_deadlocks *d, struct work *w, uint32_t start, uint32_t id)
{
	const struct owners_graph *g = w->c->g;
	size_t top = 0;

	d->of[start] = id;
	w->queue[top++] = start;
	while (top) {
		const struct owners_node *n = &g->nodes[w->queue[--top]];
		uint32_t k = (uint32_t)(n - g->nodes), j;

		for (j = 0; j < n->n_dependents; j++) {
			uint32_t dep = owners_graph_dependents(g, n)[j];

			if (w->in[dep] && d->of[dep] == OWNERS_NO_NODE && blocks(w->c, dep, k)) {
				d->of[dep] = id;
				w->queue[top++] = dep;
			}
		}
		for (j = 0; j < n->n_refs; j++) {
			uint32_t o = n->refs[j].owner;

			if (o != OWNERS_NO_NODE && w->in[o] && d->of[o] == OWNERS_NO_NODE &&
			    blocks(w->c, k, o)) {
				d->of[o] = id;
				w->queue[top++] = o;
			}
		}
	}
}

/* How many of dl's members would still be deadlocked with the breakers
 * chosen (cut) and `also` out of foreground deletion. */
static size_t left_without(struct work *w, const struct owners_deadlock *dl, const unsigned char *cut,
			   uint32_t also)
{
	size_t i;

	for (i = 0; i < dl->n_members; i++)
		w->in[dl->members[i]] = !cut[i] && dl->members[i] != also;
	return keep_held(w, dl->members, dl->n_members);
}

/* The next breaker: the member whose going leaves the fewest deadlocked,
 * one without other finalizers on a tie (it goes at once). */
static uint32_t next_breaker(struct work *w, const struct owners_deadlock *dl, const unsigned char *cut,
			     size_t *left)
{
	uint32_t best = OWNERS_NO_NODE;
	size_t i, tries = 0, n;
	int others;

	*left = dl->n_members;
	for (others = 0; others < 2; others++)
		for (i = 0; i < dl->n_members && tries < TRIES && *left; i++) {
			uint32_t m = dl->members[i];

			if (cut[i] || !w->in[m] || (w->c->node[m].others != 0) != others)
				continue;
			tries++;
			if ((n = left_without(w, dl, cut, m)) < *left || best == OWNERS_NO_NODE) {
				*left = n;
				best = i;
			}
			left_without(w, dl, cut, OWNERS_NO_NODE); /* back to the current set */
		}
	return best;
}

static int choose_breakers(struct work *w, struct owners_deadlock *dl)
{
	unsigned char *cut = calloc(dl->n_members, 1);
	size_t left = dl->n_members;

	if (!cut || !(dl->breakers = calloc(dl->n_members, sizeof(*dl->breakers)))) {
		free(cut);
		return OWNERS_ENOMEM;
	}
	left_without(w, dl, cut, OWNERS_NO_NODE);
	while (left) {
		uint32_t i = next_breaker(w, dl, cut, &left);

		if (i == OWNERS_NO_NODE)
			break;
		cut[i] = 1;
		dl->breakers[dl->n_breakers++] = dl->members[i];
		left_without(w, dl, cut, OWNERS_NO_NODE);
	}
	/* the breakers in the graph's order, as the members */
	dl->n_breakers = 0;
	for (size_t i = 0; i < dl->n_members; i++)
		if (cut[i])
			dl->breakers[dl->n_breakers++] = dl->members[i];
	free(cut);
	return 0;
}

static int by_first_member(const void *a, const void *b, void *ctx)
{
	return owners_graph_node_cmp(ctx, ((const struct owners_deadlock *)a)->members[0],
				     ((const struct owners_deadlock *)b)->members[0]);
}

/* The deadlocks' members, once every node is labelled. */
static int collect(struct owners_deadlocks *d, struct work *w, uint32_t count)
{
	uint32_t k, id;

	if (!(d->items = calloc(d->count ? d->count : 1, sizeof(*d->items))))
		return OWNERS_ENOMEM;
	for (k = 0; k < count; k++)
		if (d->of[k] != OWNERS_NO_NODE)
			d->items[d->of[k]].n_members++;
	for (id = 0; id < d->count; id++) {
		d->items[id].members = calloc(d->items[id].n_members, sizeof(uint32_t));
		if (!d->items[id].members)
			return OWNERS_ENOMEM;
		d->items[id].n_members = 0;
	}
	for (k = 0; k < count; k++)
		if (d->of[k] != OWNERS_NO_NODE) {
			struct owners_deadlock *dl = &d->items[d->of[k]];

			dl->members[dl->n_members++] = k;
		}
	/* Members, and the deadlocks, in the node order: the names said, the
	 * breakers chosen among equals, are then those of the cluster's
	 * state, not of the order its objects were listed in. */
	for (id = 0; id < d->count; id++)
		owners_graph_sort_nodes(w->c->g, d->items[id].members, d->items[id].n_members);
	owners_qsort_r(d->items, d->count, sizeof(*d->items), by_first_member, (void *)w->c->g);
	for (id = 0; id < d->count; id++)
		for (k = 0; k < d->items[id].n_members; k++)
			d->of[d->items[id].members[k]] = id;
	for (id = 0; id < d->count; id++)
		if (choose_breakers(w, &d->items[id]))
			return OWNERS_ENOMEM;
	return 0;
}

static int find(struct owners_deadlocks *out, struct work *w, uint32_t *all, uint32_t n)
{
	uint32_t count = w->c->g->count, k;

	for (k = 0; k < count; k++)
		out->of[k] = OWNERS_NO_NODE;
	for (k = 0; k < n; k++)
		w->in[all[k]] = 1;
	if (!keep_held(w, all, n))
		return 0;
	for (k = 0; k < count; k++)
		if (w->in[k] && out->of[k] == OWNERS_NO_NODE)
			label(out, w, k, (uint32_t)out->count++);
	return collect(out, w, count);
}

int owners_deadlocks_find(struct owners_deadlocks *out, const struct owners_collector *c)
{
	size_t k = c->g->count ? c->g->count : 1;
	uint32_t i, n = 0, *all = NULL;
	struct work w = { c, NULL, NULL, NULL };
	int rc = OWNERS_ENOMEM;

	memset(out, 0, sizeof(*out));
	/* Only objects in foreground deletion can be members: none, as in
	 * most clusters, and the search needs no memory (its work is 13
	 * bytes an object, at the dry run's peak). */
	for (i = 0; i < c->g->count; i++)
		n += (uint32_t)may_hold(c, i);
	if (!n)
		return 0;
	if ((all = calloc(n, sizeof(*all)))) {
		n = 0;
		for (i = 0; i < c->g->count; i++)
			if (may_hold(c, i))
				all[n++] = i;
	}
	w.in = calloc(k, 1);
	w.cnt = calloc(k, sizeof(uint32_t));
	w.queue = calloc(k, sizeof(uint32_t));
	if (w.in && w.cnt && w.queue && all && (out->of = calloc(k, sizeof(*out->of))))
		rc = find(out, &w, all, n);
	if (!rc && !out->count) {
		/* none, as nearly always: no node's deadlock to keep (4 bytes an
		 * object; owners_deadlocks_of() reads a missing map as none) */
		free(out->of);
		out->of = NULL;
	}
	free(w.in);
	free(w.cnt);
	free(w.queue);
	free(all);
	if (rc)
		owners_deadlocks_clear(out);
	return rc;
}

void owners_deadlocks_clear(struct owners_deadlocks *d)
{
	size_t i;

	for (i = 0; d->items && i < d->count; i++) {
		free(d->items[i].members);
		free(d->items[i].breakers);
	}
	free(d->items);
	free(d->of);
	memset(d, 0, sizeof(*d));
}

const struct owners_deadlock *owners_deadlocks_of(const struct owners_deadlocks *d, uint32_t node)
{
	if (!d || !d->of || node == OWNERS_NO_NODE || d->of[node] == OWNERS_NO_NODE)
		return NULL;
	return &d->items[d->of[node]];
}

void owners_deadlocks_mark(const struct owners_deadlocks *d, struct owners_collector_step *steps)
{
	size_t i, j;

	for (i = 0; i < d->count; i++)
		for (j = 0; j < d->items[i].n_members; j++) {
			struct owners_collector_step *s = &steps[d->items[i].members[j]];

			if (s->kind == OWNERS_COLLECTOR_STEP_WAIT && s->wait == OWNERS_COLLECTOR_WAIT_BLOCKING)
				s->wait = OWNERS_COLLECTOR_WAIT_DEADLOCK;
		}
}

int owners_deadlocks_attach(struct owners_collector *c, struct owners_collector_step *steps)
{
	struct owners_deadlocks *d = calloc(1, sizeof(*d));

	if (!d || owners_deadlocks_find(d, c)) {
		free(d);
		return OWNERS_ENOMEM;
	}
	if (c->deadlocks) {
		owners_deadlocks_clear(c->deadlocks);
		free(c->deadlocks);
	}
	c->deadlocks = d;
	if (steps)
		owners_deadlocks_mark(d, steps);
	return 0;
}

/* ---- in words ---------------------------------------------------------- */

static int names(struct owners_buf *out, const struct owners_graph *g, const uint32_t *v, size_t n,
		 const char *sep)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < n; i++) {
		rc = owners_buf_adds(out, i ? sep : "");
		if (!rc)
			rc = owners_graph_node_name(out, &g->nodes[v[i]]);
	}
	return rc;
}

int owners_deadlock_members_text(struct owners_buf *out, const struct owners_graph *g,
				 const struct owners_deadlock *d)
{
	return names(out, g, d->members, d->n_members, ", ");
}

/* Appends node's name to c, as a word. */
static int add_node_word(struct owners_command_line *c, const struct owners_node *n)
{
	struct owners_buf name = OWNERS_BUF_INIT;
	int rc = owners_graph_node_name(&name, n);

	rc = rc ? rc : owners_command_line_add(c, name.ptr, (const char *)NULL);
	owners_buf_clear(&name);
	return rc;
}

int owners_deadlock_command(struct owners_buf *out, const char *program, const struct owners_graph *g,
			    const struct owners_deadlock *d)
{
	size_t i, j;
	int rc = 0;

	/* one command per namespace, its breakers in the graph's order */
	for (i = 0; !rc && i < d->n_breakers; i++) {
		const char *ns = g->nodes[d->breakers[i]].place->namespace_;
		struct owners_command_line cmd = OWNERS_COMMAND_LINE_INIT;

		for (j = 0; j < i && strcmp(g->nodes[d->breakers[j]].place->namespace_, ns); j++)
			;
		if (j < i)
			continue;
		rc = owners_finalizer_command_start(&cmd);
		for (j = i; !rc && j < d->n_breakers; j++)
			if (!strcmp(g->nodes[d->breakers[j]].place->namespace_, ns))
				rc = add_node_word(&cmd, &g->nodes[d->breakers[j]]);
		rc = rc ? rc : owners_finalizer_command_finish(&cmd, ns, OWNERS_FINALIZER_FOREGROUND, NULL);
		if (!rc && i)
			rc = owners_buf_adds(out, " && ");
		rc = rc ? rc : owners_command_line_spell(out, program, &cmd);
		owners_command_line_clear(&cmd);
	}
	return rc;
}

int owners_deadlock_describe(struct owners_buf *out, const struct owners_graph *g,
			     const struct owners_deadlock *d)
{
	int rc = owners_buf_adds(out, "deadlock: ");

	if (!rc)
		rc = owners_deadlock_members_text(out, g, d);
	if (!rc)
		rc = owners_buf_adds(out, d->n_members == 1
						  ? " blocks its own foreground deletion"
						  : " are all in foreground deletion, each blocked by another of them");
	return rc ? rc : owners_buf_adds(out, ": the garbage collector never ends it");
}

int owners_deadlock_explain(struct owners_buf *out, const char *program, const struct owners_graph *g,
			    const struct owners_deadlock *d)
{
	int rc = owners_deadlock_describe(out, g, d);

	if (!rc)
		rc = owners_buf_adds(out, "; to end it, run: ");
	return rc ? rc : owners_deadlock_command(out, program, g, d);
}

int owners_deadlock_json(struct owners_json_gen *j, const struct owners_graph *g,
			 const struct owners_deadlock *d)
{
	struct owners_buf cmd = OWNERS_BUF_INIT;
	size_t i;
	int rc;

	owners_json_gen_string(j, "deadlock");
	owners_json_gen_map_open(j);
	owners_json_gen_string(j, "members");
	owners_json_gen_array_open(j);
	for (i = 0; i < d->n_members; i++) {
		owners_json_gen_map_open(j);
		owners_node_json_identity(j, &g->nodes[d->members[i]]);
		owners_json_gen_map_close(j);
	}
	owners_json_gen_array_close(j);
	if (!(rc = owners_deadlock_command(&cmd, NULL, g, d)))
		owners_json_gen_kv(j, "command", cmd.ptr);
	owners_buf_clear(&cmd);
	owners_json_gen_map_close(j);
	return rc;
}
