#include "cascade_track.h"

#include <stdlib.h>
#include <string.h>

#include "tree.h"

/* Flags on a seen entry. */
#define SEEN_REPORTED 1   /* its event was reported */
#define SEEN_RELEASED 2   /* it was released, not a member */
#define SEEN_ORPHANING 4  /* a member whose dependents are released: it links nothing */
#define SEEN_ORPHANED 8   /* released from an orphaning member */

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

int owners_cascade_released_by_orphaning(const struct owners_graph *g,
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
		rc = owners_buf_addf(out, "%s\t%s\t%s", type.ptr, n->name, n->namespace_);
	owners_buf_clear(&type);
	return rc;
}

static void report(const struct owners_strset_entry *e, enum owners_cascade_event ev,
		   owners_cascade_event_fn fn, void *ctx)
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

int owners_cascade_track_round(struct owners_cascade_track *t, const struct owners_graph *g,
			       const struct owners_cascade_plan *p, int complete,
			       owners_cascade_event_fn fn, void *ctx)
{
	struct owners_buf desc = OWNERS_BUF_INIT;
	size_t i;
	uint32_t n;

	for (n = 0; n < g->count; n++) {
		const struct owners_node *node = &g->nodes[n];
		struct owners_strset_entry *e;

		if (node->virtual_ || (!p->member[n] && !p->released[n]))
			continue;
		owners_buf_reset(&desc);
		if (describe(&desc, node) || !(e = owners_strset_add(&t->seen, node->uid, desc.ptr))) {
			owners_buf_clear(&desc);
			return OWNERS_ENOMEM;
		}
		if (p->released[n])
			e->flag |= SEEN_RELEASED;
		if (p->member[n] && p->orphaning[n])
			e->flag |= SEEN_ORPHANING;
		if (p->released[n] && owners_cascade_released_by_orphaning(g, p, n))
			e->flag |= SEEN_ORPHANED;
	}
	owners_buf_clear(&desc);
	/* A type that failed to list this round only hides its objects. */
	if (!complete)
		return 0;
	for (i = 0; i < t->seen.cap; i++) {
		struct owners_strset_entry *e = &t->seen.slots[i];
		uint32_t now;

		if (!e->key || (e->flag & SEEN_REPORTED))
			continue;
		now = owners_graph_find_uid(g, e->key);
		if (now == OWNERS_NO_NODE || g->nodes[now].virtual_) {
			e->flag |= SEEN_REPORTED;
			report(e, (e->flag & SEEN_RELEASED) ? OWNERS_EVENT_DELETED_AFTER_RELEASE
							    : OWNERS_EVENT_DELETED, fn, ctx);
			t->deleted++;
		} else if ((e->flag & SEEN_RELEASED) && !p->released[now] && !p->member[now]) {
			e->flag |= SEEN_REPORTED;
			report(e, (e->flag & SEEN_ORPHANED) ? OWNERS_EVENT_ORPHANED : OWNERS_EVENT_RELEASED,
			       fn, ctx);
			t->released++;
		}
	}
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
		if (!owners_strset_get(&t->forbidden, g->nodes[p->actions[i].node].uid))
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
		if (!g->nodes[n].virtual_ && owners_strset_get(&t->forbidden, g->nodes[n].uid))
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
					if (stuck[node->dependents[k]])
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
		mark_type(t, node->resource);
		for (k = 0; k < node->n_refs; k++) {
			const struct owners_resource *r = NULL;

			if (owners_resource_map_ref(types, node->refs[k].api_version, node->refs[k].kind,
						    &r) == OWNERS_REF_MAPPED)
				mark_type(t, owners_graph_lookup_type(types, r));
		}
		for (k = 0; k < node->n_dependents; k++)
			mark_type(t, g->nodes[node->dependents[k]].resource);
	}
	return 0;
}

int owners_cascade_track_wants(const struct owners_cascade_track *t, const struct owners_resource *r)
{
	if (!t->relevant)
		return 1;
	return r >= t->types && r < t->types + t->n_types && t->relevant[r - t->types];
}

int owners_cascade_probe_candidate(const struct owners_cascade_plan *p, const struct owners_graph *g,
				   uint32_t *node)
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
