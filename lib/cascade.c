#include "cascade.h"

#include <stdlib.h>
#include <string.h>

const char *owners_cascade_mode_name(enum owners_cascade_mode m)
{
	switch (m) {
	case OWNERS_CASCADE_BACKGROUND: return "background";
	case OWNERS_CASCADE_FOREGROUND: return "foreground";
	case OWNERS_CASCADE_ORPHAN: return "orphan";
	}
	return "?";
}

const char *owners_action_name(enum owners_action_kind k)
{
	switch (k) {
	case OWNERS_ACT_DELETE: return "delete";
	case OWNERS_ACT_DELETE_FOREGROUND: return "delete (foreground)";
	case OWNERS_ACT_DELETE_ORPHAN: return "delete (orphan)";
	case OWNERS_ACT_REMOVE_FINALIZER: return "remove finalizer";
	case OWNERS_ACT_RELEASE: return "release";
	}
	return "?";
}

int owners_node_has_finalizer(const struct owners_node *n, const char *f)
{
	uint32_t i;

	for (i = 0; i < n->n_finalizers; i++)
		if (!strcmp(n->finalizers[i], f))
			return 1;
	return 0;
}

void owners_cascade_plan_free(struct owners_cascade_plan *p)
{
	free(p->actions);
	free(p->waits);
	free(p->member);
	free(p->released);
	memset(p, 0, sizeof(*p));
}

static int add_action(struct owners_cascade_plan *p, enum owners_action_kind kind, uint32_t node,
		      const char *finalizer, const char *why)
{
	if (p->n_actions == p->cap_actions) {
		size_t cap = p->cap_actions ? p->cap_actions * 2 : 64;
		struct owners_action *a = realloc(p->actions, cap * sizeof(*a));

		if (!a)
			return OWNERS_ENOMEM;
		p->actions = a;
		p->cap_actions = cap;
	}
	p->actions[p->n_actions].kind = kind;
	p->actions[p->n_actions].node = node;
	p->actions[p->n_actions].finalizer = finalizer;
	p->actions[p->n_actions].why = why;
	p->n_actions++;
	return 0;
}

static int add_wait(struct owners_cascade_plan *p, uint32_t node, enum owners_wait_on on,
		    const char *why)
{
	if (p->n_waits == p->cap_waits) {
		size_t cap = p->cap_waits ? p->cap_waits * 2 : 64;
		struct owners_cascade_wait *w = realloc(p->waits, cap * sizeof(*w));

		if (!w)
			return OWNERS_ENOMEM;
		p->waits = w;
		p->cap_waits = cap;
	}
	p->waits[p->n_waits].node = node;
	p->waits[p->n_waits].on = on;
	p->waits[p->n_waits].why = why;
	p->n_waits++;
	return 0;
}

/* How one reference of a dependent bears on the cascade. */
enum ref_bearing {
	REF_IN_CASCADE, /* its owner is a member */
	REF_DANGLING,   /* its owner is gone the way the GC sees it */
	REF_ALIVE,      /* a live owner, or one we cannot judge: keep */
};

static enum ref_bearing bearing(struct owners_graph *g, const unsigned char *member, uint32_t dep,
				const struct owners_ref *ref)
{
	const struct owners_node *d = &g->nodes[dep];
	enum owners_ref_class c = owners_graph_classify_ref(g, dep, ref);

	/* A cluster-scoped object cannot be owned by a namespaced one: the GC
	 * never acts on such a reference, so neither do we. */
	if (c == OWNERS_REF_INVALID_NAMESPACE && !*d->namespace_)
		return REF_ALIVE;
	if (ref->owner != OWNERS_NO_NODE && member[ref->owner])
		return REF_IN_CASCADE;
	switch (c) {
	case OWNERS_REF_ABSENT:
	case OWNERS_REF_UID_MISMATCH:
	case OWNERS_REF_INVALID_NAMESPACE:
		return REF_DANGLING;
	default:
		return REF_ALIVE;
	}
}

int owners_cascade_ref_in(const struct owners_cascade_plan *p, struct owners_graph *g, uint32_t dep,
			  const struct owners_ref *ref)
{
	return bearing(g, p->member, dep, ref) == REF_IN_CASCADE;
}

/* The GC collects a dependent when none of its owners is alive and at
 * least one is being deleted with it. */
static int collectable(struct owners_graph *g, const unsigned char *member, uint32_t dep)
{
	const struct owners_node *d = &g->nodes[dep];
	uint32_t i;
	int in = 0;

	for (i = 0; i < d->n_refs; i++) {
		enum ref_bearing b = bearing(g, member, dep, &d->refs[i]);

		if (b == REF_ALIVE)
			return 0;
		in |= b == REF_IN_CASCADE;
	}
	return in;
}

static int refers_into(struct owners_graph *g, const unsigned char *member, uint32_t dep)
{
	const struct owners_node *d = &g->nodes[dep];
	uint32_t i;

	for (i = 0; i < d->n_refs; i++)
		if (bearing(g, member, dep, &d->refs[i]) == REF_IN_CASCADE)
			return 1;
	return 0;
}

static int exists(const struct owners_node *n)
{
	return !n->virtual_;
}

static int waiting_on_dependents(const struct owners_node *n)
{
	return exists(n) && n->deleted && owners_node_has_finalizer(n, OWNERS_FINALIZER_FOREGROUND);
}

/* Every reference of a member that points into the cascade has an owner
 * that is gone (background) or gone or waiting for its dependents
 * (foreground): then the GC deletes it. */
static int owners_released_it(struct owners_graph *g, const unsigned char *member, uint32_t node,
			      int foreground)
{
	const struct owners_node *n = &g->nodes[node];
	uint32_t i;

	for (i = 0; i < n->n_refs; i++) {
		const struct owners_ref *ref = &n->refs[i];
		const struct owners_node *o;

		if (ref->owner == OWNERS_NO_NODE || !member[ref->owner])
			continue;
		o = &g->nodes[ref->owner];
		if (!exists(o))
			continue;
		if (foreground && waiting_on_dependents(o))
			continue;
		return 0;
	}
	return 1;
}

/* Every dependent in the cascade has been deleted (is in deletion or
 * gone): nothing more needs this object as a link to its root. */
static int member_dependents_deleted(const struct owners_graph *g, const unsigned char *member,
				     uint32_t node)
{
	const struct owners_node *n = &g->nodes[node];
	uint32_t i;

	for (i = 0; i < n->n_dependents; i++) {
		const struct owners_node *d = &g->nodes[n->dependents[i]];

		if (member[n->dependents[i]] && exists(d) && !d->deleted)
			return 0;
	}
	return 1;
}

int owners_cascade_has_member_dependents(const struct owners_graph *g, const unsigned char *member,
					 uint32_t node)
{
	const struct owners_node *n = &g->nodes[node];
	uint32_t i;

	for (i = 0; i < n->n_dependents; i++)
		if (member[n->dependents[i]] && exists(&g->nodes[n->dependents[i]]))
			return 1;
	return 0;
}

/* Dependents that still hold this owner: they reference it with
 * blockOwnerDeletion. A member that waits for its own dependents and sits
 * on a cycle with the owner does not block it (the GC unblocks such
 * references to break cycles). */
static size_t blocking_dependents(struct owners_graph *g, const unsigned char *member,
				  const unsigned char *on_cycle, uint32_t node)
{
	const struct owners_node *n = &g->nodes[node];
	size_t count = 0;
	uint32_t i, k;

	for (i = 0; i < n->n_dependents; i++) {
		uint32_t dep = n->dependents[i];
		const struct owners_node *d = &g->nodes[dep];
		int blocks = 0;

		if (!exists(d))
			continue;
		for (k = 0; k < d->n_refs; k++)
			if (d->refs[k].owner == node && d->refs[k].block_owner_deletion)
				blocks = 1;
		if (!blocks)
			continue;
		if (member[dep] && waiting_on_dependents(d) && on_cycle[dep] && on_cycle[node])
			continue;
		count++;
	}
	return count;
}

static int plan_member(struct owners_cascade_plan *p, struct owners_graph *g,
		       const unsigned char *is_root, const unsigned char *on_cycle, uint32_t i,
		       const struct owners_cascade_options *o)
{
	const struct owners_node *n = &g->nodes[i];
	int fg = o->mode == OWNERS_CASCADE_FOREGROUND;

	if (!exists(n))
		return 0;
	p->members_left++;
	if (o->mode == OWNERS_CASCADE_ORPHAN) {
		if (!n->deleted)
			return add_action(p, OWNERS_ACT_DELETE_ORPHAN, i, NULL, "root: enters deletion, dependents are kept");
		if (owners_node_has_finalizer(n, OWNERS_FINALIZER_ORPHAN)) {
			uint32_t k;

			for (k = 0; k < n->n_dependents; k++)
				if (exists(&g->nodes[n->dependents[k]]))
					return add_wait(p, i, OWNERS_WAIT_ON_DEPENDENTS,
							"waiting for its dependents to be released");
			return add_action(p, OWNERS_ACT_REMOVE_FINALIZER, i, OWNERS_FINALIZER_ORPHAN,
					  "every dependent is released");
		}
		return add_wait(p, i, OWNERS_WAIT_ON_OTHERS, "in deletion: waiting for its finalizers");
	}
	if (!n->deleted) {
		/* Owners "waiting for dependents" count as gone in both modes:
		 * below the root every level holds until the next is deleted. */
		if (!is_root[i] && !owners_released_it(g, p->member, i, 1))
			return add_wait(p, i, OWNERS_WAIT_ON_OWNERS,
					fg ? "waiting for its owners to enter deletion"
					   : "waiting for its owners to be gone");
		if (is_root[i] && !fg)
			return add_action(p, OWNERS_ACT_DELETE, i, NULL, "root");
		if (owners_cascade_has_member_dependents(g, p->member, i))
			return add_action(p, OWNERS_ACT_DELETE_FOREGROUND, i, NULL,
					  is_root[i] ? "root: enters deletion, goes when its dependents are gone"
						     : "owners deleted: enters deletion, goes after its dependents");
		return add_action(p, OWNERS_ACT_DELETE, i, NULL,
				  is_root[i] ? "root" : "all owners deleted");
	}
	if (owners_node_has_finalizer(n, OWNERS_FINALIZER_FOREGROUND)) {
		if (blocking_dependents(g, p->member, on_cycle, i))
			return add_wait(p, i, OWNERS_WAIT_ON_DEPENDENTS,
					"waiting for dependents that block its deletion");
		if (!member_dependents_deleted(g, p->member, i))
			return add_wait(p, i, OWNERS_WAIT_ON_DEPENDENTS,
					"waiting for its dependents to enter deletion");
		return add_action(p, OWNERS_ACT_REMOVE_FINALIZER, i, OWNERS_FINALIZER_FOREGROUND,
				  "no dependent blocks it any more");
	}
	return add_wait(p, i, OWNERS_WAIT_ON_OTHERS, "in deletion: waiting for its finalizers");
}

int owners_cascade_plan_make(struct owners_cascade_plan *out, struct owners_graph *g,
			     const char *const *root_uids, size_t n_roots,
			     const char *const *link_uids, size_t n_links,
			     const struct owners_cascade_options *o)
{
	unsigned char *is_root = NULL, *on_cycle = NULL;
	uint32_t *work = NULL, top = 0, i, k;
	size_t r;
	int rc = OWNERS_ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!g->linked && owners_graph_link(g))
		return OWNERS_ENOMEM;
	out->member = calloc(g->count + 1, 1);
	out->released = calloc(g->count + 1, 1);
	is_root = calloc(g->count + 1, 1);
	on_cycle = calloc(g->count + 1, 1);
	work = malloc(((size_t)g->count + 1) * sizeof(*work));
	if (!out->member || !out->released || !is_root || !on_cycle || !work)
		goto out;
	for (r = 0; r < n_roots; r++) {
		uint32_t n = owners_graph_find_uid(g, root_uids[r]);

		/* A root no longer in the graph at all is gone and nothing
		 * refers to it: its part of the cascade is finished. */
		if (n == OWNERS_NO_NODE || out->member[n])
			continue;
		out->member[n] = is_root[n] = 1;
		work[top++] = n;
	}
	for (r = 0; r < n_links && o->mode != OWNERS_CASCADE_ORPHAN; r++) {
		uint32_t n = owners_graph_find_uid(g, link_uids[r]);

		if (n == OWNERS_NO_NODE || out->member[n] || !g->nodes[n].virtual_)
			continue;
		out->member[n] = 1;
		work[top++] = n;
	}
	/* Grow the cascade: each new member may complete a dependent's set of
	 * owners, so its dependents are looked at again. Orphan mode deletes
	 * the roots alone. */
	while (top && o->mode != OWNERS_CASCADE_ORPHAN) {
		const struct owners_node *n = &g->nodes[work[--top]];

		for (k = 0; k < n->n_dependents; k++) {
			uint32_t d = n->dependents[k];

			if (out->member[d] || g->nodes[d].virtual_ || !collectable(g, out->member, d))
				continue;
			out->member[d] = 1;
			work[top++] = d;
		}
	}
	if (owners_graph_find_cycles(g, on_cycle) == OWNERS_CYCLES_ENOMEM)
		goto out; /* rc is OWNERS_ENOMEM */
	for (i = 0; i < g->count; i++) {
		if (out->member[i]) {
			if ((rc = plan_member(out, g, is_root, on_cycle, i, o)))
				goto out;
			continue;
		}
		if (g->nodes[i].virtual_ || !refers_into(g, out->member, i))
			continue;
		out->released[i] = 1;
		/* Orphan: release once the root is in deletion (its controller
		 * has stopped), as the GC does after the orphan finalizer. */
		if (o->mode == OWNERS_CASCADE_ORPHAN) {
			const struct owners_node *d = &g->nodes[i];
			int ready = 1;

			for (k = 0; k < d->n_refs; k++) {
				uint32_t ow = d->refs[k].owner;

				if (ow != OWNERS_NO_NODE && out->member[ow] && exists(&g->nodes[ow]) &&
				    !g->nodes[ow].deleted)
					ready = 0;
			}
			out->released_left++;
			rc = ready ? add_action(out, OWNERS_ACT_RELEASE, i, NULL, "dependent of the root: kept, reference removed")
				   : add_wait(out, i, OWNERS_WAIT_ON_OWNERS,
					    "waiting for the root to enter deletion");
		} else {
			out->released_left++;
			rc = add_action(out, OWNERS_ACT_RELEASE, i, NULL, "has another live owner: kept, reference removed");
		}
		if (rc)
			goto out;
	}
	out->done = !out->members_left && !out->released_left;
	rc = 0;
out:
	free(is_root);
	free(on_cycle);
	free(work);
	if (rc)
		owners_cascade_plan_free(out);
	return rc;
}
