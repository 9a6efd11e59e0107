/*
 * Two owner graphs compared (see graph_diff.h): every observed object of
 * either side matched by UID, then, for an object on both sides, its
 * deletion, finalizers and references compared, each reference matched by
 * its owner's UID and classified on each side by that side's graph.
 */
#include "graph_diff.h"

#include <stdlib.h>
#include <string.h>

#include "dangling.h"
#include "grow.h"
#include "sort.h"

const char *owners_diff_change_name(enum owners_diff_change c)
{
	switch (c) {
	case OWNERS_DIFF_APPEARED: return "appeared";
	case OWNERS_DIFF_WENT: return "went";
	case OWNERS_DIFF_DELETION_STARTED: return "deletion-started";
	case OWNERS_DIFF_FINALIZER_ADDED: return "finalizer-added";
	case OWNERS_DIFF_FINALIZER_REMOVED: return "finalizer-removed";
	case OWNERS_DIFF_ADOPTED: return "adopted";
	case OWNERS_DIFF_RELEASED: return "released";
	case OWNERS_DIFF_REFERENCE_ADDED: return "reference-added";
	case OWNERS_DIFF_REFERENCE_REMOVED: return "reference-removed";
	case OWNERS_DIFF_CONTROLLER_SET: return "controller-set";
	case OWNERS_DIFF_CONTROLLER_CLEARED: return "controller-cleared";
	case OWNERS_DIFF_WENT_DANGLING: return "went-dangling";
	case OWNERS_DIFF_RESOLVES_AGAIN: return "resolves-again";
	}
	return "unknown";
}

/* One comparison under way: the result, and the object in hand. */
struct differ {
	struct owners_graph_diff *d;
	uint32_t na, nb;        /* the object in A and in B (OWNERS_NO_NODE: not there) */
	int64_t bound;          /* what is not dated happened after this */
	/* Per node of A: B has it, observed (found from B's side, so A's
	 * side need not look it up again). */
	unsigned char *in_b;
};

static int push(struct differ *x, enum owners_diff_change c, uint32_t ref_a, uint32_t ref_b)
{
	struct owners_graph_diff *d = x->d;
	struct owners_diff_item *it;

	if (OWNERS_GROW(d->items, d->cap, d->count + 1))
		return OWNERS_ENOMEM;
	it = &d->items[d->count++];
	memset(it, 0, sizeof(*it));
	it->change = c;
	it->node_a = x->na;
	it->node_b = x->nb;
	it->ref_a = ref_a;
	it->ref_b = ref_b;
	it->class_a = it->class_b = OWNERS_REF_UNKNOWN;
	it->since = x->bound;
	return 0;
}

/* The last change pushed, dated exactly. */
static void dated(struct differ *x, int64_t when)
{
	struct owners_diff_item *it = &x->d->items[x->d->count - 1];

	it->since = when;
	it->since_exact = 1;
}

static int observed(const struct owners_graph *g, uint32_t n)
{
	return n != OWNERS_NO_NODE && !g->nodes[n].virtual_;
}

/* Whether the objects of n's type in n's namespace were seen by side s,
 * as owners_graph_listing_state() says of any version of that type; a
 * type a cluster (or its snapshot) does not serve has no objects there,
 * unless its group failed discovery (then it may have); a type a dump
 * does not hold was not seen there (a dump's types are its objects'). */
static int could_see(const struct owners_graph_diff_side *s, const struct owners_node *n)
{
	const struct owners_graph *g = s->g;
	const struct owners_resource *r = n->place->resource;
	size_t i;
	int served = 0;

	if (!r)
		return 0;
	for (i = 0; i < g->types->count; i++) {
		const struct owners_resource *t = &g->types->items[i];

		if (!owners_resource_same_type(t, r))
			continue;
		served = 1;
		if (owners_graph_listing_state(g, t, n->place->namespace_, NULL) == OWNERS_LISTING_OK)
			return 1;
	}
	return !served && !s->types_from_objects && !owners_resource_group_failed(g->types, n->place->api_version);
}

static int classify(struct owners_graph *g, uint32_t node, uint32_t k, enum owners_ref_class *out)
{
	struct owners_ref_resolution res;
	int rc = owners_graph_resolve_ref(g, node, &g->nodes[node].refs[k], &res);

	*out = res.class_;
	return rc;
}

static uint32_t ref_by_uid(const struct owners_graph *g, const struct owners_node *n,
			   const char *uid, const unsigned char *taken)
{
	uint32_t k;

	for (k = 0; k < n->n_refs; k++)
		if (!(taken && taken[k]) && !strcmp(OWNERS_REF_UID(g, &n->refs[k]), uid))
			return k;
	return OWNERS_DIFF_NO_INDEX;
}

/* B's references of an object that appeared: only those that dangle. */
static int appeared_refs(struct differ *x)
{
	struct owners_graph *gb = x->d->b.g;
	enum owners_ref_class c;
	uint32_t k;
	int rc = 0;

	for (k = 0; !rc && k < gb->nodes[x->nb].n_refs; k++) {
		if ((rc = classify(gb, x->nb, k, &c)) || !owners_dangling_fixable(c))
			continue;
		if (!(rc = push(x, OWNERS_DIFF_WENT_DANGLING, OWNERS_DIFF_NO_INDEX, k)))
			x->d->items[x->d->count - 1].class_b = c;
	}
	return rc;
}

/* A reference on both sides: its controller flag, and whether it went
 * dangling or resolves again. */
static int same_ref(struct differ *x, uint32_t ka, uint32_t kb)
{
	struct owners_graph *ga = x->d->a.g, *gb = x->d->b.g;
	const struct owners_ref *ra = &ga->nodes[x->na].refs[ka], *rb = &gb->nodes[x->nb].refs[kb];
	enum owners_ref_class ca, cb;
	enum owners_diff_change c;
	int rc = 0;

	if (ra->controller != rb->controller)
		rc = push(x, rb->controller ? OWNERS_DIFF_CONTROLLER_SET : OWNERS_DIFF_CONTROLLER_CLEARED,
			  ka, kb);
	if (rc || (rc = classify(ga, x->na, ka, &ca)) || (rc = classify(gb, x->nb, kb, &cb)))
		return rc;
	if (owners_dangling_fixable(cb) && !owners_dangling_fixable(ca))
		c = OWNERS_DIFF_WENT_DANGLING;
	else if (owners_dangling_fixable(ca) && cb == OWNERS_REF_RESOLVED)
		c = OWNERS_DIFF_RESOLVES_AGAIN;
	else
		return 0;
	if ((rc = push(x, c, ka, kb)))
		return rc;
	x->d->items[x->d->count - 1].class_a = ca;
	x->d->items[x->d->count - 1].class_b = cb;
	return 0;
}

/* The references of an object on both sides, matched by the owner's UID
 * (each once: an object naming one owner twice has two references). */
static int compare_refs(struct differ *x)
{
	struct owners_graph *ga = x->d->a.g, *gb = x->d->b.g;
	const struct owners_node *a = &ga->nodes[x->na], *b = &gb->nodes[x->nb];
	/* Which of A's references are matched; an object rarely has many. */
	unsigned char few[16] = { 0 }, *taken = a->n_refs <= sizeof(few) ? few : calloc(a->n_refs, 1);
	enum owners_ref_class c;
	uint32_t k, ka;
	int rc = 0;

	if (!taken)
		return OWNERS_ENOMEM;
	for (k = 0; !rc && k < b->n_refs; k++) {
		ka = ref_by_uid(ga, a, OWNERS_REF_UID(gb, &b->refs[k]), taken);
		if (ka != OWNERS_DIFF_NO_INDEX) {
			taken[ka] = 1;
			rc = same_ref(x, ka, k);
			continue;
		}
		rc = push(x, b->refs[k].controller ? OWNERS_DIFF_ADOPTED : OWNERS_DIFF_REFERENCE_ADDED,
			  OWNERS_DIFF_NO_INDEX, k);
		if (!rc && !(rc = classify(gb, x->nb, k, &c)))
			x->d->items[x->d->count - 1].class_b = c;
	}
	for (k = 0; !rc && k < a->n_refs; k++) {
		if (taken[k])
			continue;
		rc = push(x, a->refs[k].controller ? OWNERS_DIFF_RELEASED : OWNERS_DIFF_REFERENCE_REMOVED, k,
			  OWNERS_DIFF_NO_INDEX);
		if (!rc && !(rc = classify(ga, x->na, k, &c)))
			x->d->items[x->d->count - 1].class_a = c;
	}
	if (taken != few)
		free(taken);
	return rc;
}

/* Finalizers in one side's object and not in the other's. */
static int finalizers_only_in(struct differ *x, const struct owners_node *in,
			      const struct owners_node *not_in, enum owners_diff_change c)
{
	uint32_t k;
	int rc = 0;

	for (k = 0; !rc && k < in->extras->n_finalizers; k++)
		if (!owners_graph_node_has_finalizer(not_in, in->extras->finalizers[k]) &&
		    !(rc = push(x, c, OWNERS_DIFF_NO_INDEX, OWNERS_DIFF_NO_INDEX)))
			x->d->items[x->d->count - 1].finalizer = in->extras->finalizers[k];
	return rc;
}

static int compare_object(struct differ *x)
{
	const struct owners_node *a = &x->d->a.g->nodes[x->na], *b = &x->d->b.g->nodes[x->nb];
	int rc = 0;

	if (b->extras->deleted && !a->extras->deleted &&
	    !(rc = push(x, OWNERS_DIFF_DELETION_STARTED, OWNERS_DIFF_NO_INDEX,
			OWNERS_DIFF_NO_INDEX)))
		dated(x, b->extras->deleted);
	if (!rc)
		rc = finalizers_only_in(x, b, a, OWNERS_DIFF_FINALIZER_ADDED);
	if (!rc)
		rc = finalizers_only_in(x, a, b, OWNERS_DIFF_FINALIZER_REMOVED);
	return rc ? rc : compare_refs(x);
}

/* The group of an apiVersion ("" the core group's): one kind's objects
 * are tallied together whatever version each side serves. */
static size_t group_len(const char *api_version)
{
	const char *slash = api_version ? strchr(api_version, '/') : NULL;

	return slash ? (size_t)(slash - api_version) : 0;
}

static int same_kind(const struct owners_diff_unseen *u, const struct owners_node *n)
{
	size_t g = group_len(u->api_version);

	return !strcmp(u->kind, n->place->kind) && g == group_len(n->place->api_version) &&
	       (!g || !strncmp(u->api_version, n->place->api_version, g));
}

/* Counts node n, of the side other than the one that could not see it. */
static int tally_unseen(struct owners_graph_diff *d, const struct owners_node *n, int in_a)
{
	size_t i;

	if (in_a)
		d->unseen_in_a++;
	else
		d->unseen_in_b++;
	for (i = 0; i < d->n_unseen && !same_kind(&d->unseen[i], n); i++)
		;
	if (i == d->n_unseen) {
		if (OWNERS_GROW(d->unseen, d->cap_unseen, d->n_unseen + 1))
			return OWNERS_ENOMEM;
		memset(&d->unseen[i], 0, sizeof(d->unseen[i]));
		d->unseen[i].api_version = n->place->api_version ? n->place->api_version : "";
		d->unseen[i].kind = n->place->kind ? n->place->kind : "";
		d->n_unseen++;
	}
	if (in_a)
		d->unseen[i].in_a++;
	else
		d->unseen[i].in_b++;
	return 0;
}

static int unseen_order(const void *pa, const void *pb, void *ctx)
{
	const struct owners_diff_unseen *a = pa, *b = pb;
	size_t ga = group_len(a->api_version), gb = group_len(b->api_version);
	int c = strcmp(a->kind, b->kind);

	(void)ctx;
	if (c)
		return c;
	c = strncmp(a->api_version, b->api_version, ga < gb ? ga : gb);
	return c ? c : (ga > gb) - (ga < gb);
}

/* An object of B: compared with A's, or new (where A could see it). */
static int diff_b_object(struct differ *x, owners_graph_diff_want_fn want, void *want_ctx)
{
	struct owners_graph_diff *d = x->d;
	const struct owners_node *b = &d->b.g->nodes[x->nb];
	int rc;

	x->na = owners_graph_find_uid(d->a.g, OWNERS_NODE_UID(b));
	if (!observed(d->a.g, x->na))
		x->na = OWNERS_NO_NODE;
	else
		x->in_b[x->na] = 1;
	if (want && !want(want_ctx, d->b.g, x->nb) &&
	    (x->na == OWNERS_NO_NODE || !want(want_ctx, d->a.g, x->na)))
		return 0;
	x->bound = d->a.now && b->created > d->a.now ? b->created : d->a.now;
	if (x->na != OWNERS_NO_NODE)
		return compare_object(x);
	if (!could_see(&d->a, b))
		return tally_unseen(d, b, 1);
	if ((rc = push(x, OWNERS_DIFF_APPEARED, OWNERS_DIFF_NO_INDEX, OWNERS_DIFF_NO_INDEX)))
		return rc;
	if (b->created)
		dated(x, b->created);
	if (b->extras->deleted && !(rc = push(x, OWNERS_DIFF_DELETION_STARTED, OWNERS_DIFF_NO_INDEX,
					      OWNERS_DIFF_NO_INDEX)))
		dated(x, b->extras->deleted);
	return rc ? rc : appeared_refs(x);
}

/* An object of A that B does not have: gone (where B could see it). */
static int diff_a_object(struct differ *x, owners_graph_diff_want_fn want, void *want_ctx)
{
	struct owners_graph_diff *d = x->d;
	const struct owners_node *a = &d->a.g->nodes[x->na];

	if (x->in_b[x->na] || observed(d->b.g, owners_graph_find_uid(d->b.g, OWNERS_NODE_UID(a))) ||
	    (want && !want(want_ctx, d->a.g, x->na)))
		return 0;
	if (!could_see(&d->b, a))
		return tally_unseen(d, a, 0);
	x->nb = OWNERS_NO_NODE;
	x->bound = d->a.now;
	return push(x, OWNERS_DIFF_WENT, OWNERS_DIFF_NO_INDEX, OWNERS_DIFF_NO_INDEX);
}

/* ---- order ------------------------------------------------------------ */

/* apiVersions compared by their API group alone ("" for the core group's
 * "v1"): one kind's objects together whatever version each side serves. */
static int group_cmp(const char *x, const char *y)
{
	const char *sx = strchr(x, '/'), *sy = strchr(y, '/');
	size_t lx = sx ? (size_t)(sx - x) : 0, ly = sy ? (size_t)(sy - y) : 0;
	int c = strncmp(x, y, lx < ly ? lx : ly);

	return c ? c : (lx > ly) - (lx < ly);
}

static int by_object_then_change(const void *pa, const void *pb, void *ctx)
{
	const struct owners_graph_diff *d = ctx;
	const struct owners_diff_item *p = pa, *q = pb;
	const struct owners_node *x = owners_graph_diff_object(d, p, NULL);
	const struct owners_node *y = owners_graph_diff_object(d, q, NULL);
	int c;

	if ((c = strcmp(x->place->kind, y->place->kind)) ||
	    (c = group_cmp(x->place->api_version, y->place->api_version)) ||
	    (c = strcmp(x->place->namespace_, y->place->namespace_)) ||
	    (c = strcmp(x->name, y->name)) || (c = strcmp(OWNERS_NODE_UID(x), OWNERS_NODE_UID(y))))
		return c;
	if (p->change != q->change)
		return (int)p->change - (int)q->change;
	if (p->ref_b != q->ref_b)
		return p->ref_b < q->ref_b ? -1 : 1;
	return (p->ref_a > q->ref_a) - (p->ref_a < q->ref_a);
}

/* ---- the whole ---------------------------------------------------------- */

int owners_graph_diff_run(struct owners_graph_diff *out, const struct owners_graph_diff_side *a,
			  const struct owners_graph_diff_side *b, owners_graph_diff_want_fn want,
			  void *want_ctx)
{
	struct differ x;
	uint32_t i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->a = *a;
	out->b = *b;
	if ((!a->g->linked && owners_graph_link(a->g)) || (!b->g->linked && owners_graph_link(b->g)))
		return OWNERS_ENOMEM;
	memset(&x, 0, sizeof(x));
	x.d = out;
	if (!(x.in_b = calloc(a->g->count + 1, 1)))
		return OWNERS_ENOMEM;
	for (i = 0; !rc && i < b->g->count; i++) {
		x.nb = i;
		if (observed(b->g, i))
			rc = diff_b_object(&x, want, want_ctx);
	}
	for (i = 0; !rc && i < a->g->count; i++) {
		x.na = i;
		if (observed(a->g, i))
			rc = diff_a_object(&x, want, want_ctx);
	}
	free(x.in_b);
	if (rc) {
		owners_graph_diff_clear(out);
		return rc;
	}
	owners_qsort_r(out->items, out->count, sizeof(*out->items), by_object_then_change, out);
	owners_qsort_r(out->unseen, out->n_unseen, sizeof(*out->unseen), unseen_order, NULL);
	return 0;
}

void owners_graph_diff_clear(struct owners_graph_diff *d)
{
	free(d->items);
	free(d->unseen);
	memset(d, 0, sizeof(*d));
}

const struct owners_node *owners_graph_diff_object(const struct owners_graph_diff *d,
						   const struct owners_diff_item *it,
						   const struct owners_graph **g)
{
	const struct owners_graph *in = it->node_b != OWNERS_NO_NODE ? d->b.g : d->a.g;

	if (g)
		*g = in;
	return &in->nodes[it->node_b != OWNERS_NO_NODE ? it->node_b : it->node_a];
}

const struct owners_ref *owners_graph_diff_ref(const struct owners_graph_diff *d,
					       const struct owners_graph **g,
					       const struct owners_diff_item *it)
{
	if (g)
		*g = it->ref_b != OWNERS_DIFF_NO_INDEX ? d->b.g : d->a.g;
	if (it->ref_b != OWNERS_DIFF_NO_INDEX)
		return &d->b.g->nodes[it->node_b].refs[it->ref_b];
	if (it->ref_a != OWNERS_DIFF_NO_INDEX)
		return &d->a.g->nodes[it->node_a].refs[it->ref_a];
	return NULL;
}
