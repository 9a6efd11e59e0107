#include "cascade_track.h"

#include <stdlib.h>
#include <string.h>

#include "tree.h"

/* Flags on a seen entry. */
#define SEEN_REPORTED 1   /* its event was reported */
#define SEEN_RELEASED 2   /* it was released, not a member */
#define SEEN_ORPHANING 4  /* a member whose dependents are released: it links nothing */
#define SEEN_ORPHANED 8   /* released from an orphaning member */
/* Above the flags: its depth in the cascade when first seen (the roots
 * 0), which orders the reports of one round. */
#define SEEN_DEPTH_SHIFT 8
#define SEEN_DEPTH_MAX ((1 << 22) - 1)

void owners_cascade_track_init(struct owners_cascade_track *t)
{
	memset(t, 0, sizeof(*t));
	owners_strset_init(&t->seen);
	owners_strset_init(&t->forbidden);
}

void owners_cascade_track_clear(struct owners_cascade_track *t)
{
	owners_strset_clear(&t->seen);
	owners_strset_clear(&t->forbidden);
	free(t->relevant);
	free(t->links);
	memset(t, 0, sizeof(*t));
}

int owners_cascade_track_released_by_orphaning(const struct owners_graph *g,
					       const struct owners_cascade_plan *p, uint32_t n)
{
	const struct owners_node *node = &g->nodes[n];
	uint32_t k;

	for (k = 0; k < node->n_refs; k++) {
		uint32_t o = node->refs[k].owner;

		if (o != OWNERS_NO_NODE && p->member[o] && p->orphaning[o])
			return 1;
	}
	return 0;
}

/* "deployment.apps\tweb\tshop": what an event names, kept once seen (the
 * object may be gone from the next graph). */
static int describe(struct owners_buf *out, const struct owners_node *n)
{
	struct owners_buf type = OWNERS_BUF_INIT;
	int rc = owners_graph_node_type(&type, n);

	if (!rc)
		rc = owners_buf_addf(out, "%s\t%s\t%s", type.ptr, n->name, n->place->namespace_);
	owners_buf_clear(&type);
	return rc;
}

static void report(const struct owners_strset_entry *e, enum owners_cascade_track_event ev,
		   owners_cascade_track_event_fn fn, void *ctx)
{
	char *copy = owners_strdup(e->value), *name, *ns;

	if (!copy)
		return; /* the event is decoration: out of memory loses it, never the run */
	name = strchr(copy, '\t');
	ns = name ? strchr(name + 1, '\t') : NULL;
	if (ns) {
		*name++ = '\0';
		*ns++ = '\0';
		fn(ctx, ev, copy, name, ns);
	}
	free(copy);
}

/* Each node's depth in the cascade: the roots 0, a member or released
 * object one below the shallowest member that owns it (breadth first
 * from the roots through member dependents). *depth is g->count entries,
 * the caller's to free; nodes outside the cascade read SEEN_DEPTH_MAX. */
static int cascade_depths(const struct owners_graph *g, const struct owners_cascade_plan *p, unsigned **depth)
{
	uint32_t *queue = malloc((g->count + 1) * sizeof(*queue));
	size_t head = 0, tail = 0;
	uint32_t n, k;

	*depth = malloc((g->count + 1) * sizeof(**depth));
	if (!queue || !*depth) {
		free(queue);
		free(*depth);
		*depth = NULL;
		return OWNERS_ENOMEM;
	}
	for (n = 0; n < g->count; n++) {
		(*depth)[n] = p->root[n] ? 0 : SEEN_DEPTH_MAX;
		if (p->root[n])
			queue[tail++] = n;
	}
	while (head < tail) {
		const struct owners_node *node = &g->nodes[queue[head]];
		unsigned d = (*depth)[queue[head++]];

		for (k = 0; p->member[node - g->nodes] && k < node->n_dependents; k++) {
			uint32_t dep = owners_graph_dependents(g, node)[k];

			if ((p->member[dep] || p->released[dep]) && (*depth)[dep] == SEEN_DEPTH_MAX) {
				(*depth)[dep] = d + 1 < SEEN_DEPTH_MAX ? d + 1 : SEEN_DEPTH_MAX - 1;
				queue[tail++] = dep;
			}
		}
	}
	free(queue);
	return 0;
}

static int remember(struct owners_cascade_track *t, const struct owners_graph *g, const struct owners_cascade_plan *p)
{
	struct owners_buf desc = OWNERS_BUF_INIT;
	unsigned *depth = NULL;
	uint32_t n;
	int rc = cascade_depths(g, p, &depth);

	for (n = 0; !rc && n < g->count; n++) {
		const struct owners_node *node = &g->nodes[n];
		struct owners_strset_entry *e;
		int known;

		if (node->virtual_ || (!p->member[n] && !p->released[n]))
			continue;
		owners_buf_reset(&desc);
		known = owners_strset_get(&t->seen, OWNERS_NODE_UID(node)) != NULL;
		if (describe(&desc, node) ||
		    !(e = owners_strset_add(&t->seen, OWNERS_NODE_UID(node), desc.ptr))) {
			rc = OWNERS_ENOMEM;
			break;
		}
		if (!known)
			e->flag |= (int)depth[n] << SEEN_DEPTH_SHIFT;
		if (p->released[n])
			e->flag |= SEEN_RELEASED;
		if (p->member[n] && p->orphaning[n])
			e->flag |= SEEN_ORPHANING;
		if (p->released[n] && owners_cascade_track_released_by_orphaning(g, p, n))
			e->flag |= SEEN_ORPHANED;
	}
	owners_buf_clear(&desc);
	free(depth);
	return rc;
}

/* One report of a round, with where it sorts: in the foreground
 * dependents before their owners (deepest first), otherwise owners first;
 * the UID breaks ties, so that the order never depends on the hash
 * table's. */
struct gone {
	struct owners_strset_entry *e;
	int rank; /* depth, negated in the foreground */
};

static int report_order(const void *a, const void *b)
{
	const struct gone *x = a, *y = b;

	if (x->rank != y->rank)
		return (x->rank > y->rank) - (x->rank < y->rank);
	return strcmp(x->e->key, y->e->key);
}

int owners_cascade_track_round(struct owners_cascade_track *t, const struct owners_graph *g,
			       const struct owners_cascade_plan *p, int complete,
			       owners_cascade_track_event_fn fn, void *ctx)
{
	struct gone *gone;
	size_t i, n_gone = 0;

	if (remember(t, g, p))
		return OWNERS_ENOMEM;
	/* A type that failed to list this round only hides its objects. */
	if (!complete)
		return 0;
	if (!(gone = malloc((t->seen.cap + 1) * sizeof(*gone))))
		return OWNERS_ENOMEM;
	for (i = 0; i < t->seen.cap; i++) {
		struct owners_strset_entry *e = &t->seen.slots[i];
		uint32_t now;

		if (!e->key || (e->flag & SEEN_REPORTED))
			continue;
		now = owners_graph_find_uid(g, e->key);
		if (now == OWNERS_NO_NODE || g->nodes[now].virtual_ ||
		    ((e->flag & SEEN_RELEASED) && !p->released[now] && !p->member[now])) {
			gone[n_gone].e = e;
			gone[n_gone].rank = (e->flag >> SEEN_DEPTH_SHIFT) * (t->foreground ? -1 : 1);
			n_gone++;
		}
	}
	qsort(gone, n_gone, sizeof(*gone), report_order);
	for (i = 0; i < n_gone; i++) {
		struct owners_strset_entry *e = gone[i].e;
		uint32_t now = owners_graph_find_uid(g, e->key);

		e->flag |= SEEN_REPORTED;
		if (now == OWNERS_NO_NODE || g->nodes[now].virtual_) {
			report(e, (e->flag & SEEN_RELEASED) ? OWNERS_EVENT_DELETED_AFTER_RELEASE
							    : OWNERS_EVENT_DELETED, fn, ctx);
			t->deleted++;
		} else {
			report(e, (e->flag & SEEN_ORPHANED) ? OWNERS_EVENT_ORPHANED : OWNERS_EVENT_RELEASED,
			       fn, ctx);
			t->released++;
		}
	}
	free(gone);
	return 0;
}

int owners_cascade_track_links(struct owners_cascade_track *t)
{
	size_t i;

	free(t->links);
	t->links = calloc(t->seen.count + 1, sizeof(*t->links));
	t->n_links = 0;
	if (!t->links)
		return OWNERS_ENOMEM;
	for (i = 0; i < t->seen.cap; i++)
		if (t->seen.slots[i].key && !(t->seen.slots[i].flag & (SEEN_RELEASED | SEEN_ORPHANING)))
			t->links[t->n_links++] = t->seen.slots[i].key;
	return 0;
}

int owners_cascade_track_forbid(struct owners_cascade_track *t, const char *uid)
{
	return owners_strset_add(&t->forbidden, uid, NULL) ? 0 : OWNERS_ENOMEM;
}

void owners_cascade_track_drop_forbidden(const struct owners_cascade_track *t,
					 const struct owners_graph *g, struct owners_cascade_plan *p)
{
	size_t i, k = 0;

	for (i = 0; i < p->n_actions; i++)
		if (!owners_strset_get(&t->forbidden,
				       OWNERS_NODE_UID(&g->nodes[p->actions[i].node])))
			p->actions[k++] = p->actions[i];
	p->n_actions = k;
}

int owners_cascade_track_hung(const struct owners_cascade_track *t, const struct owners_graph *g,
			      const struct owners_cascade_plan *p)
{
	unsigned char *stuck = calloc(g->count + 1, 1);
	int changed = 1, all = 1;
	uint32_t n, k;
	size_t i;

	if (!stuck)
		return 0; /* cannot tell: keep waiting, the deadline ends it */
	for (n = 0; n < g->count; n++)
		if (!g->nodes[n].virtual_ &&
		    owners_strset_get(&t->forbidden, OWNERS_NODE_UID(&g->nodes[n])))
			stuck[n] = 1;
	while (changed) {
		changed = 0;
		for (i = 0; i < p->n_waits; i++) {
			const struct owners_cascade_wait *w = &p->waits[i];
			const struct owners_node *node = &g->nodes[w->node];

			if (stuck[w->node])
				continue;
			if (w->on == OWNERS_WAIT_ON_OWNERS) {
				for (k = 0; k < node->n_refs; k++)
					if (node->refs[k].owner != OWNERS_NO_NODE && stuck[node->refs[k].owner])
						stuck[w->node] = 1;
			} else if (w->on == OWNERS_WAIT_ON_DEPENDENTS) {
				for (k = 0; k < node->n_dependents; k++)
					if (stuck[owners_graph_dependents(g, node)[k]])
						stuck[w->node] = 1;
			}
			changed |= stuck[w->node];
		}
	}
	for (i = 0; i < p->n_waits; i++)
		all &= stuck[p->waits[i].node];
	free(stuck);
	return all;
}

static void mark_type(struct owners_cascade_track *t, const struct owners_resource *r)
{
	if (r && r >= t->types && r < t->types + t->n_types)
		t->relevant[r - t->types] = 1;
}

int owners_cascade_track_choose_types(struct owners_cascade_track *t, const struct owners_graph *g,
				      const struct owners_cascade_plan *p,
				      const struct owners_resource_table *types)
{
	uint32_t n, k;

	free(t->relevant);
	t->types = types->items;
	t->n_types = types->count;
	t->relevant = calloc(types->count + 1, 1);
	if (!t->relevant)
		return OWNERS_ENOMEM;
	for (n = 0; n < g->count; n++) {
		const struct owners_node *node = &g->nodes[n];

		if (!p->member[n] && !p->released[n])
			continue;
		mark_type(t, node->place->resource);
		for (k = 0; k < node->n_refs; k++) {
			const struct owners_resource *r = NULL;

			if (owners_resource_map_ref(types, node->refs[k].type->api_version, node->refs[k].type->kind,
						    &r) == OWNERS_REF_MAPPED)
				mark_type(t, owners_graph_lookup_type(types, r));
		}
		for (k = 0; k < node->n_dependents; k++)
			mark_type(t, g->nodes[owners_graph_dependents(g, node)[k]].place->resource);
	}
	return 0;
}

int owners_cascade_track_wants(const struct owners_cascade_track *t, const struct owners_resource *r)
{
	if (!t->relevant)
		return 1;
	return r >= t->types && r < t->types + t->n_types && t->relevant[r - t->types];
}

int owners_cascade_track_probe_candidate(const struct owners_cascade_plan *p,
					 const struct owners_graph *g, uint32_t *node)
{
	size_t i;

	for (i = 0; i < p->n_actions; i++) {
		const struct owners_action *a = &p->actions[i];
		const char *fin = a->kind == OWNERS_ACT_DELETE_FOREGROUND ? OWNERS_FINALIZER_FOREGROUND
				  : a->kind == OWNERS_ACT_DELETE_ORPHAN   ? OWNERS_FINALIZER_ORPHAN
									  : NULL;

		if (!fin || g->nodes[a->node].virtual_ || owners_graph_node_has_finalizer(&g->nodes[a->node], fin))
			continue;
		*node = a->node;
		return 1;
	}
	return 0;
}
