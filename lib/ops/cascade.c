#include "cascade.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "sort.h"

const char *owners_cascade_mode_name(enum owners_cascade_mode m)
{
	switch (m) {
	case OWNERS_CASCADE_BACKGROUND: return "background";
	case OWNERS_CASCADE_FOREGROUND: return "foreground";
	case OWNERS_CASCADE_ORPHAN: return "orphan";
	}
	return "?";
}

int owners_cascade_mode_parse(const char *word, enum owners_cascade_mode *m)
{
	static const enum owners_cascade_mode modes[] = { OWNERS_CASCADE_BACKGROUND,
							  OWNERS_CASCADE_FOREGROUND,
							  OWNERS_CASCADE_ORPHAN };
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(word, owners_cascade_mode_name(modes[i]))) {
			*m = modes[i];
			return 0;
		}
	return OWNERS_EINVAL;
}

const char *owners_cascade_policy(enum owners_cascade_mode m)
{
	switch (m) {
	case OWNERS_CASCADE_BACKGROUND: return "Background";
	case OWNERS_CASCADE_FOREGROUND: return "Foreground";
	case OWNERS_CASCADE_ORPHAN: return "Orphan";
	}
	return "Background";
}

const char *owners_action_name(enum owners_action_kind k)
{
	switch (k) {
	case OWNERS_ACT_DELETE: return "delete";
	case OWNERS_ACT_DELETE_FOREGROUND: return "delete (foreground)";
	case OWNERS_ACT_DELETE_ORPHAN: return "delete (orphan)";
	case OWNERS_ACT_REMOVE_FINALIZER: return "remove finalizer";
	case OWNERS_ACT_RELEASE: return "release";
	case OWNERS_ACT_UNBLOCK: return "unblock";
	}
	return "?";
}

void owners_cascade_plan_clear(struct owners_cascade_plan *p)
{
	free(p->actions);
	free(p->waits);
	free(p->member);
	free(p->released);
	free(p->root);
	free(p->orphaning);
	memset(p, 0, sizeof(*p));
}

static int add_action(struct owners_cascade_plan *p, enum owners_action_kind kind, uint32_t node,
		      const char *finalizer, const char *why)
{
	if (OWNERS_GROW(p->actions, p->cap_actions, p->n_actions + 1))
		return OWNERS_ENOMEM;
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
	if (OWNERS_GROW(p->waits, p->cap_waits, p->n_waits + 1))
		return OWNERS_ENOMEM;
	p->waits[p->n_waits].node = node;
	p->waits[p->n_waits].on = on;
	p->waits[p->n_waits].why = why;
	p->n_waits++;
	return 0;
}

static int action_order(const void *a, const void *b, void *ctx)
{
	return owners_graph_node_cmp(ctx, ((const struct owners_action *)a)->node,
				     ((const struct owners_action *)b)->node);
}

static int wait_order(const void *a, const void *b, void *ctx)
{
	return owners_graph_node_cmp(ctx, ((const struct owners_cascade_wait *)a)->node,
				     ((const struct owners_cascade_wait *)b)->node);
}

int owners_cascade_plan_hold(struct owners_cascade_plan *p, size_t i)
{
	uint32_t node = p->actions[i].node;

	memmove(&p->actions[i], &p->actions[i + 1], (p->n_actions - i - 1) * sizeof(*p->actions));
	p->n_actions--;
	return add_wait(p, node, OWNERS_WAIT_ON_OWNERS,
			"an owner missing from the lists is there when read: decided again on the next scan");
}

static int exists(const struct owners_node *n)
{
	return !n->virtual_;
}

static int waiting_on_dependents(const struct owners_node *n)
{
	return exists(n) && n->extras->deleted &&
	       owners_graph_node_has_finalizer(n, OWNERS_FINALIZER_FOREGROUND);
}

static int has_existing_dependents(const struct owners_graph *g, uint32_t node)
{
	const struct owners_node *n = &g->nodes[node];
	uint32_t i;

	for (i = 0; i < n->n_dependents; i++)
		if (exists(&g->nodes[owners_graph_dependents(g, n)[i]]))
			return 1;
	return 0;
}

/* How one reference of a dependent bears on the cascade, classified as the
 * GC's classifyReferences() sees it (owners_graph_resolve_ref(): by name,
 * then UID). Whether it links the dependent to the cascade is a separate
 * question, answered by UID as the GC's graph answers it (linked()). */
enum ref_bearing {
	REF_IN_CASCADE,  /* resolves to a member that the cascade deletes */
	REF_DANGLING,    /* its owner is gone the way the GC sees it */
	REF_WAITING,     /* an owner outside the cascade in foreground deletion:
			    classifyReferences' waitingForDependentsDeletion,
			    no solid owner (the GC deletes a dependent left with
			    none, its cascade reaching it too) */
	REF_ALIVE,       /* a live owner, one this user may not see (the GC
			    can), or a member that orphans its dependents: keep */
	REF_UNTOUCHABLE, /* the GC errors on it and never acts on the object:
			    an unserved kind, a namespaced owner of a
			    cluster-scoped object, an owner it cannot look up */
};

static enum ref_bearing bearing(struct owners_graph *g, const unsigned char *member,
				const unsigned char *orphaning, uint32_t dep,
				const struct owners_ref *ref)
{
	struct owners_ref_resolution res;

	owners_graph_resolve_ref(g, dep, ref, &res);
	switch (res.class_) {
	case OWNERS_REF_UNRESOLVABLE:
		return REF_UNTOUCHABLE;
	case OWNERS_REF_INVALID_NAMESPACE:
		/* A cluster-scoped object with a namespaced owner is an error
		 * to the GC; a namespaced one whose owner lives in another
		 * namespace is simply not found there. */
		return *g->nodes[dep].place->namespace_ ? REF_DANGLING : REF_UNTOUCHABLE;
	case OWNERS_REF_RESOLVED:
		if (member[res.found] && !orphaning[res.found])
			return REF_IN_CASCADE;
		return waiting_on_dependents(&g->nodes[res.found]) ? REF_WAITING : REF_ALIVE;
	case OWNERS_REF_ABSENT:
	case OWNERS_REF_UID_MISMATCH:
		return REF_DANGLING;
	case OWNERS_REF_UNKNOWN:
		/* Blind: its group failed discovery (the GC cannot map it
		 * either) or its list failed: the GC's lookup fails, it acts
		 * on nothing of this object and retries. */
		return res.gc_blind ? REF_UNTOUCHABLE : REF_ALIVE;
	}
	return REF_ALIVE;
}

/* The reference links its dependent to the cascade the way the GC's graph
 * links it: by UID, to a member that does not orphan its dependents. When
 * that member goes (or waits for its dependents) the GC looks at the
 * dependent, whatever the reference's name says. */
static int linked(const unsigned char *member, const unsigned char *orphaning,
		  const struct owners_ref *ref)
{
	return ref->owner != OWNERS_NO_NODE && member[ref->owner] && !orphaning[ref->owner];
}

static int untouchable(struct owners_graph *g, const unsigned char *member,
		       const unsigned char *orphaning, uint32_t dep)
{
	const struct owners_node *d = &g->nodes[dep];
	uint32_t i;

	for (i = 0; i < d->n_refs; i++)
		if (bearing(g, member, orphaning, dep, &d->refs[i]) == REF_UNTOUCHABLE)
			return 1;
	return 0;
}

/* An owner linked to a dependent has done what the GC waits for before it
 * looks at that dependent: it is gone, or it waits for its dependents. */
static int owner_let_go(const struct owners_node *owner)
{
	return !exists(owner) || waiting_on_dependents(owner);
}

int owners_cascade_ref_released(const struct owners_cascade_plan *p, struct owners_graph *g,
				uint32_t dep, const struct owners_ref *ref)
{
	uint32_t o = ref->owner;
	const struct owners_node *owner;

	if (o == OWNERS_NO_NODE || !p->member[o])
		return 0;
	owner = &g->nodes[o];
	/* The GC's orphanDependents(): once the owner is in deletion, every
	 * dependent linked to it by UID loses the reference, whatever its
	 * class, members and objects in deletion included. */
	if (p->orphaning[o])
		return !exists(owner) || owner->extras->deleted;
	/* attemptToDeleteItem() with a solid owner left: the references to
	 * owners that are gone or wait for their dependents (dangling or
	 * waiting) are removed; never on an object in deletion (it returns at
	 * once) nor on one the GC gives up on. */
	if (p->member[dep] || g->nodes[dep].extras->deleted ||
	    untouchable(g, p->member, p->orphaning, dep))
		return 0;
	return owner_let_go(owner);
}

/* The GC collects a dependent linked to the cascade when none of its
 * owners is alive: every reference dangles or points into the cascade. */
static int collectable(struct owners_graph *g, const unsigned char *member,
		       const unsigned char *orphaning, uint32_t dep)
{
	const struct owners_node *d = &g->nodes[dep];
	uint32_t i;
	int in = 0;

	for (i = 0; i < d->n_refs; i++) {
		enum ref_bearing b = bearing(g, member, orphaning, dep, &d->refs[i]);

		if (b == REF_ALIVE || b == REF_UNTOUCHABLE)
			return 0;
		in |= linked(member, orphaning, &d->refs[i]);
	}
	return in;
}

enum owners_cascade_kept owners_cascade_why_kept(const struct owners_cascade_plan *p,
						 struct owners_graph *g, uint32_t node,
						 const struct owners_ref **ref)
{
	const struct owners_node *n = &g->nodes[node];
	uint32_t i;

	*ref = NULL;
	if (!exists(n))
		return OWNERS_KEPT_GONE;
	if (p->member[node])
		return OWNERS_KEPT_NOT;
	/* the GC's own reasons first: it never acts on such an object */
	for (i = 0; i < n->n_refs; i++)
		if (bearing(g, p->member, p->orphaning, node, &n->refs[i]) == REF_UNTOUCHABLE) {
			*ref = &n->refs[i];
			return OWNERS_KEPT_UNRESOLVABLE;
		}
	for (i = 0; i < n->n_refs; i++) {
		uint32_t o = n->refs[i].owner;

		if (bearing(g, p->member, p->orphaning, node, &n->refs[i]) != REF_ALIVE)
			continue;
		*ref = &n->refs[i];
		return o != OWNERS_NO_NODE && p->member[o] && p->orphaning[o] ? OWNERS_KEPT_ORPHANED
									      : OWNERS_KEPT_ANOTHER_OWNER;
	}
	return OWNERS_KEPT_OWNER_KEPT;
}

/* Every owner linking a member to the cascade is gone or waiting for its
 * dependents: then the GC looks at it, and deletes it. */
static int owners_released_it(struct owners_graph *g, const struct owners_cascade_plan *p,
			      uint32_t node)
{
	const struct owners_node *n = &g->nodes[node];
	uint32_t i;

	for (i = 0; i < n->n_refs; i++)
		if (linked(p->member, p->orphaning, &n->refs[i]) &&
		    !owner_let_go(&g->nodes[n->refs[i].owner]))
			return 0;
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
		const struct owners_node *d = &g->nodes[owners_graph_dependents(g, n)[i]];

		if (member[owners_graph_dependents(g, n)[i]] && exists(d) && !d->extras->deleted)
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
		if (member[owners_graph_dependents(g, n)[i]] &&
		    exists(&g->nodes[owners_graph_dependents(g, n)[i]]))
			return 1;
	return 0;
}

/* Whether dependent d holds back node's deletion: the GC's
 * blockingDependents(), by UID, whatever d's state or its reference's
 * name. */
static int blocks(const struct owners_node *d, uint32_t node)
{
	uint32_t k;

	if (!exists(d))
		return 0;
	for (k = 0; k < d->n_refs; k++)
		if (d->refs[k].owner == node && d->refs[k].block_owner_deletion)
			return 1;
	return 0;
}

/* A dependent the cascade will never remove or release, so that it would
 * hold an owner in foreground deletion for as long as it exists: one the
 * GC never acts on, or one in deletion held by someone else's finalizer. */
static int holds_for_good(struct owners_graph *g, const struct owners_cascade_plan *p, uint32_t dep)
{
	const struct owners_node *d = &g->nodes[dep];

	return (d->extras->deleted && !waiting_on_dependents(d)) ||
	       untouchable(g, p->member, p->orphaning, dep);
}

/* Dependents that still hold this owner. Only with break_cycles (--force)
 * does a member that waits for its own dependents and sits on a cycle with
 * the owner not count: the GC itself breaks a cycle only by unblocking a
 * dependent before it deletes it (see needs_unblock()); a cycle whose
 * members are all in foreground deletion already, or an object that
 * blocks its own deletion, holds the GC forever. */
static size_t blocking_dependents(struct owners_graph *g, const struct owners_cascade_plan *p,
				  const unsigned char *on_cycle, uint32_t node, int break_cycles,
				  int *self)
{
	const struct owners_node *n = &g->nodes[node];
	size_t count = 0;
	uint32_t i;

	*self = 0;
	for (i = 0; i < n->n_dependents; i++) {
		uint32_t dep = owners_graph_dependents(g, n)[i];
		const struct owners_node *d = &g->nodes[dep];

		if (!blocks(d, node))
			continue;
		if (break_cycles && p->member[dep] && waiting_on_dependents(d) && on_cycle[dep] &&
		    on_cycle[node])
			continue;
		*self |= dep == node;
		count++;
	}
	return count;
}

/* The GC's cycle breaker (attemptToDeleteItem): an object about to be
 * deleted because an owner waits for its dependents, one of whose own
 * dependents is itself waiting for its dependents, first has every
 * blockOwnerDeletion of its references set to false, then is deleted in
 * the foreground. */
static int needs_unblock(struct owners_graph *g, const struct owners_cascade_plan *p, uint32_t node)
{
	const struct owners_node *n = &g->nodes[node];
	uint32_t i;
	int waiting_owner = 0, blocking = 0, deleting_dependent = 0;

	for (i = 0; i < n->n_refs; i++) {
		const struct owners_ref *ref = &n->refs[i];

		blocking |= ref->block_owner_deletion;
		waiting_owner |= linked(p->member, p->orphaning, ref) &&
				 waiting_on_dependents(&g->nodes[ref->owner]) &&
				 bearing(g, p->member, p->orphaning, node, ref) == REF_IN_CASCADE;
	}
	for (i = 0; blocking && waiting_owner && i < n->n_dependents; i++)
		deleting_dependent |=
			waiting_on_dependents(&g->nodes[owners_graph_dependents(g, n)[i]]);
	return deleting_dependent;
}

/* Whether node, were it in the cascade, would be deleted with policy
 * Orphan, as the GC decides: a root in orphan mode; an object already in
 * deletion that holds the orphan finalizer; an object created with it, for
 * the GC honours it (attemptToDeleteItem), except in a foreground cascade
 * when it has dependents of its own: with an owner waiting for its
 * dependents the GC deletes it with Foreground whatever it carries. */
static int orphans_dependents(const struct owners_graph *g, uint32_t node, int root,
			      enum owners_cascade_mode mode)
{
	const struct owners_node *n = &g->nodes[node];

	if (root && (mode == OWNERS_CASCADE_ORPHAN || !n->extras->deleted))
		return mode == OWNERS_CASCADE_ORPHAN;
	if (!owners_graph_node_has_finalizer(n, OWNERS_FINALIZER_ORPHAN) ||
	    owners_graph_node_has_finalizer(n, OWNERS_FINALIZER_FOREGROUND))
		return 0;
	if (n->extras->deleted)
		return 1;
	return !(mode == OWNERS_CASCADE_FOREGROUND && has_existing_dependents(g, node));
}

/* A finalizer other than the GC's own two (orphan, foregroundDeletion):
 * someone else's, which may keep the object in deletion for good. */
static int holds_own_finalizer(const struct owners_node *n)
{
	uint32_t i;

	for (i = 0; i < n->extras->n_finalizers; i++)
		if (strcmp(n->extras->finalizers[i], OWNERS_FINALIZER_ORPHAN) &&
		    strcmp(n->extras->finalizers[i], OWNERS_FINALIZER_FOREGROUND))
			return 1;
	return 0;
}

/* Whether a member enters deletion with foregroundDeletion: it carries that
 * finalizer already (the GC honours it); in a foreground cascade, it has
 * dependents at all (the GC's Foreground for an object whose owner waits
 * for its dependents; a root in foreground mode likewise); or, owners' own
 * device for crash safety, it holds members below it (so a rerun finds
 * them from the root) — but only where no dependent would then hold it for
 * good, since the GC would delete it in the background, where
 * blockOwnerDeletion plays no part. */
static int enters_foreground(struct owners_graph *g, const struct owners_cascade_plan *p,
			     uint32_t node, enum owners_cascade_mode mode)
{
	const struct owners_node *n = &g->nodes[node];
	uint32_t i;

	if (p->root[node] && mode == OWNERS_CASCADE_BACKGROUND)
		return 0;
	if (mode == OWNERS_CASCADE_FOREGROUND && has_existing_dependents(g, node))
		return 1;
	if (!p->root[node] && owners_graph_node_has_finalizer(n, OWNERS_FINALIZER_FOREGROUND))
		return 1;
	if (!owners_cascade_has_member_dependents(g, p->member, node))
		return 0;
	/* The device never where the GC's background deletion would leave the
	 * object in deletion on a finalizer of its own: its dependents then
	 * have a solid owner until it is gone, and the GC keeps them. */
	if (holds_own_finalizer(n))
		return 0;
	for (i = 0; i < n->n_dependents; i++)
		if (blocks(&g->nodes[owners_graph_dependents(g, n)[i]], node) &&
		    holds_for_good(g, p, owners_graph_dependents(g, n)[i]))
			return 0;
	return 1;
}

int owners_cascade_member_patched(const struct owners_cascade_plan *p, struct owners_graph *g,
				  uint32_t node, enum owners_cascade_mode mode)
{
	return p->member[node] && (p->orphaning[node] || enters_foreground(g, p, node, mode) ||
				   needs_unblock(g, p, node));
}

/* A member in deletion with the orphan finalizer: the GC's
 * attemptToOrphan(), release every dependent (planned with the released
 * objects), then take the finalizer off. */
static int plan_orphaning(struct owners_cascade_plan *p, struct owners_graph *g, uint32_t i)
{
	const struct owners_node *n = &g->nodes[i];

	if (!n->extras->deleted)
		return add_action(p, OWNERS_ACT_DELETE_ORPHAN, i, NULL,
				  p->root[i] ? "root: enters deletion, dependents are kept"
					     : "carries the orphan finalizer: enters deletion, its dependents are kept");
	if (!owners_graph_node_has_finalizer(n, OWNERS_FINALIZER_ORPHAN))
		return add_wait(p, i, OWNERS_WAIT_ON_OTHERS, "in deletion: waiting for its finalizers");
	if (has_existing_dependents(g, i))
		return add_wait(p, i, OWNERS_WAIT_ON_DEPENDENTS, "waiting for its dependents to be released");
	return add_action(p, OWNERS_ACT_REMOVE_FINALIZER, i, OWNERS_FINALIZER_ORPHAN,
			  "every dependent is released");
}

static int plan_member(struct owners_cascade_plan *p, struct owners_graph *g,
		       const unsigned char *on_cycle, uint32_t i, const struct owners_cascade_options *o)
{
	const struct owners_node *n = &g->nodes[i];
	int fg = o->mode == OWNERS_CASCADE_FOREGROUND;

	if (!n->extras->deleted && !p->root[i] && !owners_released_it(g, p, i))
		/* Owners "waiting for dependents" count as gone in every mode:
		 * below the root each level holds until the next is deleted. */
		return add_wait(p, i, OWNERS_WAIT_ON_OWNERS,
				fg ? "waiting for its owners to enter deletion"
				   : "waiting for its owners to be gone");
	if (p->orphaning[i])
		return plan_orphaning(p, g, i);
	if (!n->extras->deleted) {
		if (needs_unblock(g, p, i))
			return add_action(p, OWNERS_ACT_UNBLOCK, i, NULL,
					  "its owner and one of its dependents both wait for their dependents: "
					  "its references stop blocking (the garbage collector's cycle rule)");
		if (enters_foreground(g, p, i, o->mode))
			return add_action(p, OWNERS_ACT_DELETE_FOREGROUND, i, NULL,
					  p->root[i] ? "root: enters deletion, goes when its dependents are gone"
						     : "owners deleted: enters deletion, goes after its dependents");
		return add_action(p, OWNERS_ACT_DELETE, i, NULL, p->root[i] ? "root" : "all owners deleted");
	}
	if (owners_graph_node_has_finalizer(n, OWNERS_FINALIZER_FOREGROUND)) {
		int self = 0;
		size_t blocking = blocking_dependents(g, p, on_cycle, i, o->break_cycles, &self);

		if (blocking == 1 && self)
			return add_wait(p, i, OWNERS_WAIT_ON_OTHERS,
					"waiting for itself: it lists itself as an owner with blockOwnerDeletion, "
					"so the garbage collector never finishes it (--force breaks the wait)");
		if (blocking)
			return add_wait(p, i, OWNERS_WAIT_ON_DEPENDENTS,
					self ? "waiting for dependents that block its deletion, itself among them "
					       "(--force breaks the wait)"
					     : "waiting for dependents that block its deletion");
		if (!member_dependents_deleted(g, p->member, i))
			return add_wait(p, i, OWNERS_WAIT_ON_DEPENDENTS,
					"waiting for its dependents to enter deletion");
		return add_action(p, OWNERS_ACT_REMOVE_FINALIZER, i, OWNERS_FINALIZER_FOREGROUND,
				  "no dependent blocks it any more");
	}
	return add_wait(p, i, OWNERS_WAIT_ON_OTHERS, "in deletion: waiting for its finalizers");
}

/* Why the GC leaves alone an object linked to the cascade: said in the plan
 * (a wait) so that an owner held by it is explained. */
static const char *left_alone(struct owners_graph *g, uint32_t i)
{
	const struct owners_node *n = &g->nodes[i];
	uint32_t k;

	for (k = 0; k < n->n_refs; k++) {
		struct owners_ref_resolution res;

		owners_graph_resolve_ref(g, i, &n->refs[k], &res);
		if (res.class_ == OWNERS_REF_UNKNOWN && res.gc_blind && g->types->built_from_objects)
			return "kept: an owner is of a kind or in a list the file does not hold (a dump has no "
			       "discovery), so what the garbage collector does with this object cannot be told";
		if (res.class_ == OWNERS_REF_UNKNOWN && res.gc_blind)
			return "kept: an owner's type cannot be looked up (its API group failed discovery or "
			       "its list failed), so the garbage collector leaves this object alone";
		if (res.class_ == OWNERS_REF_UNRESOLVABLE)
			return "kept: an owner reference names a kind the server does not serve, so the "
			       "garbage collector never acts on this object";
		if (res.class_ == OWNERS_REF_INVALID_NAMESPACE && !*n->place->namespace_)
			return "kept: a cluster-scoped object with a namespaced owner, which the garbage "
			       "collector never acts on";
	}
	return NULL;
}

static int linked_to_cascade(const struct owners_graph *g, const struct owners_cascade_plan *p, uint32_t i)
{
	const struct owners_node *n = &g->nodes[i];
	uint32_t k;

	for (k = 0; k < n->n_refs; k++)
		if (linked(p->member, p->orphaning, &n->refs[k]))
			return 1;
	return 0;
}

/* An object that loses references: to an orphaning member (any object),
 * or into the cascade while another owner keeps it (a non-member). Each
 * reference goes only once its owner is in deletion or gone, read back
 * from the cluster, never assumed: a refused or interrupted DELETE of the
 * owner leaves every reference as it was. Returns 1 when it has such
 * references, with the action or wait added. */
static int plan_release(struct owners_cascade_plan *p, struct owners_graph *g, uint32_t i, int *rc)
{
	const struct owners_node *n = &g->nodes[i];
	int pending = 0, ready = 0;
	uint32_t k;

	for (k = 0; k < n->n_refs; k++) {
		const struct owners_ref *ref = &n->refs[k];
		uint32_t o = ref->owner;

		if (o == OWNERS_NO_NODE || !p->member[o])
			continue;
		if (owners_cascade_ref_released(p, g, i, ref))
			ready = 1;
		else if (p->orphaning[o] || (!p->member[i] && !n->extras->deleted &&
					     linked(p->member, p->orphaning, ref) &&
					     !untouchable(g, p->member, p->orphaning, i)))
			pending = 1;
	}
	if (!ready && !pending)
		return 0;
	if (ready)
		*rc = add_action(p, OWNERS_ACT_RELEASE, i, NULL,
				 p->member[i] ? "its owner orphans it: reference removed"
				 : "kept: its owner is in deletion or gone, its reference is removed");
	else if (!p->member[i])
		*rc = add_wait(p, i, OWNERS_WAIT_ON_OWNERS,
			       "kept: waiting for its owner to enter deletion before its reference is removed");
	return !p->member[i] || ready;
}

int owners_cascade_plan_make(struct owners_cascade_plan *out, struct owners_graph *g,
			     const struct owners_cascade_seeds *s,
			     const struct owners_cascade_options *o)
{
	unsigned char *on_cycle = NULL;
	uint32_t *work = NULL, top = 0, i, k;
	size_t r;
	int rc = OWNERS_ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!g->linked && owners_graph_link(g))
		return OWNERS_ENOMEM;
	out->member = calloc(g->count + 1, 1);
	out->released = calloc(g->count + 1, 1);
	out->root = calloc(g->count + 1, 1);
	out->orphaning = calloc(g->count + 1, 1);
	on_cycle = calloc(g->count + 1, 1);
	work = malloc(((size_t)g->count + 1) * sizeof(*work));
	if (!out->member || !out->released || !out->root || !out->orphaning || !on_cycle || !work)
		goto out;
	for (r = 0; r < s->n_roots; r++) {
		uint32_t n = owners_graph_find_uid(g, s->roots[r]);

		/* A root no longer in the graph at all is gone and nothing
		 * refers to it: its part of the cascade is finished. */
		if (n == OWNERS_NO_NODE || out->member[n])
			continue;
		out->member[n] = out->root[n] = 1;
		work[top++] = n;
	}
	/* Who would orphan its dependents, decided before membership grows
	 * (it depends on the object alone): references to such an owner keep
	 * their dependents out of the cascade. */
	for (i = 0; i < g->count; i++)
		out->orphaning[i] = orphans_dependents(g, i, out->root[i], o->mode);
	for (r = 0; r < s->n_links && o->mode != OWNERS_CASCADE_ORPHAN; r++) {
		uint32_t n = owners_graph_find_uid(g, s->links[r]);

		if (n == OWNERS_NO_NODE || out->member[n] || !g->nodes[n].virtual_)
			continue;
		out->member[n] = 1;
		work[top++] = n;
	}
	/* Grow the cascade: each new member may complete a dependent's set of
	 * owners, so its dependents are looked at again. A member that orphans
	 * its dependents (a root in orphan mode among them) brings none in. */
	while (top) {
		uint32_t m = work[--top];
		const struct owners_node *n = &g->nodes[m];

		if (out->orphaning[m])
			continue;
		for (k = 0; k < n->n_dependents; k++) {
			uint32_t d = owners_graph_dependents(g, n)[k];

			if (out->member[d] || g->nodes[d].virtual_ ||
			    !collectable(g, out->member, out->orphaning, d))
				continue;
			out->member[d] = 1;
			work[top++] = d;
		}
	}
	if (owners_graph_find_cycles(g, on_cycle) == OWNERS_CYCLES_ENOMEM)
		goto out; /* rc is OWNERS_ENOMEM */
	rc = 0;
	for (i = 0; i < g->count && !rc; i++) {
		int releasing;

		if (g->nodes[i].virtual_)
			continue;
		releasing = plan_release(out, g, i, &rc);
		if (out->member[i]) {
			out->members_left++;
			/* One change per object and round: its release first. */
			if (!releasing && !rc)
				rc = plan_member(out, g, on_cycle, i, o);
		} else if (releasing) {
			out->released[i] = 1;
			out->released_left++;
		} else if (!rc && linked_to_cascade(g, out, i)) {
			const char *why = left_alone(g, i);

			if (why)
				rc = add_wait(out, i, OWNERS_WAIT_ON_OTHERS, why);
		}
	}
	if (rc)
		goto out;
	/* actions and waits in the node order, not the order the objects
	 * were listed in: what is said (progress, what is left) and done
	 * first is the same whatever the lists' order */
	owners_cascade_actions_sort(g, out->actions, out->n_actions);
	owners_qsort_r(out->waits, out->n_waits, sizeof(*out->waits), wait_order, g);
	out->done = !out->members_left && !out->released_left;
out:
	free(on_cycle);
	free(work);
	if (rc)
		owners_cascade_plan_clear(out);
	return rc;
}

void owners_cascade_actions_sort(const struct owners_graph *g, struct owners_action *actions, size_t n)
{
	owners_qsort_r(actions, n, sizeof(*actions), action_order, (void *)g);
}
