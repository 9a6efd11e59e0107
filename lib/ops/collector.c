#include "collector.h"

#include <stdlib.h>
#include <string.h>

#include "cascade.h"
#include "deadlock.h"

/* ---- names ------------------------------------------------------------ */

const char *owners_collector_handler_name(enum owners_collector_handler h)
{
	switch (h) {
	case OWNERS_COLLECTOR_ATTEMPT_TO_DELETE: return "attemptToDeleteItem";
	case OWNERS_COLLECTOR_DELETING_DEPENDENTS: return "processDeletingDependentsItem";
	case OWNERS_COLLECTOR_ATTEMPT_TO_ORPHAN: return "attemptToOrphan";
	}
	return "attemptToDeleteItem";
}

const char *owners_collector_step_name(enum owners_collector_step_kind k)
{
	switch (k) {
	case OWNERS_COLLECTOR_STEP_NONE: return "none";
	case OWNERS_COLLECTOR_STEP_DELETE: return "delete";
	case OWNERS_COLLECTOR_STEP_STRIP: return "remove-references";
	case OWNERS_COLLECTOR_STEP_UNBLOCK: return "unblock-references";
	case OWNERS_COLLECTOR_STEP_REMOVE_FOREGROUND:
	case OWNERS_COLLECTOR_STEP_REMOVE_ORPHAN: return "remove-finalizer";
	case OWNERS_COLLECTOR_STEP_RELEASE_DEPENDENTS: return "release-dependents";
	case OWNERS_COLLECTOR_STEP_WAIT: return "wait";
	}
	return "none";
}

const char *owners_collector_policy_name(enum owners_collector_policy p)
{
	switch (p) {
	case OWNERS_COLLECTOR_POLICY_BACKGROUND: return "Background";
	case OWNERS_COLLECTOR_POLICY_FOREGROUND: return "Foreground";
	case OWNERS_COLLECTOR_POLICY_ORPHAN: return "Orphan";
	}
	return "Background";
}

const char *owners_collector_wait_name(enum owners_collector_wait_kind k)
{
	switch (k) {
	case OWNERS_COLLECTOR_WAIT_FINALIZERS: return "finalizers";
	case OWNERS_COLLECTOR_WAIT_BLOCKING: return "blocking-dependents";
	case OWNERS_COLLECTOR_WAIT_GIVES_UP: return "gives-up";
	case OWNERS_COLLECTOR_WAIT_UNDECIDED: return "undecided";
	case OWNERS_COLLECTOR_WAIT_OWNER_LIVE: return "owner-exists";
	case OWNERS_COLLECTOR_WAIT_DEADLOCK: return "deadlock";
	}
	return "finalizers";
}

const char *owners_collector_outcome_name(enum owners_collector_outcome_kind f)
{
	switch (f) {
	case OWNERS_COLLECTOR_OUTCOME_KEPT: return "kept";
	case OWNERS_COLLECTOR_OUTCOME_COLLECTED: return "collected";
	case OWNERS_COLLECTOR_OUTCOME_DELETING: return "in-deletion";
	}
	return "kept";
}

int owners_collector_step_acts(const struct owners_collector_step *s)
{
	return s->kind != OWNERS_COLLECTOR_STEP_NONE && s->kind != OWNERS_COLLECTOR_STEP_WAIT;
}

/* ---- state ------------------------------------------------------------ */

void owners_collector_free(struct owners_collector *c)
{
	if (!c)
		return;
	free(c->node);
	free(c->first_ref);
	free(c->ref);
	free(c->ends);
	if (c->deadlocks)
		owners_deadlocks_clear(c->deadlocks);
	free(c->deadlocks);
	free(c);
}

static int alloc_state(struct owners_collector *c, uint32_t n, size_t refs)
{
	size_t r = refs ? refs : 1, k = n ? n : 1;

	c->node = calloc(k, sizeof(*c->node));
	c->first_ref = calloc(k + 1, sizeof(*c->first_ref));
	c->ref = calloc(r, sizeof(*c->ref));
	return c->node && c->first_ref && c->ref ? 0 : OWNERS_ENOMEM;
}

/* One node's finalizers into the GC's flags and the count of the rest. */
static void read_finalizers(struct owners_collector *c, uint32_t k, const struct owners_node *n)
{
	uint32_t i;

	for (i = 0; i < n->extras->n_finalizers; i++) {
		if (!strcmp(n->extras->finalizers[i], OWNERS_FINALIZER_FOREGROUND))
			c->node[k].fg = 1;
		else if (!strcmp(n->extras->finalizers[i], OWNERS_FINALIZER_ORPHAN))
			c->node[k].orphan = 1;
		else
			c->node[k].others = 1;
	}
}

/* c's state as the graph has it, before any pass: what the passes
 * change set back (what the references resolve to is kept). */
static void reset_state(struct owners_collector *c)
{
	const struct owners_graph *g = c->g;
	size_t k = g->count ? g->count : 1, r = c->n_refs, j;
	uint32_t i;

	memset(c->node, 0, k * sizeof(*c->node));
	for (j = 0; j < r; j++) {
		/* what the reference resolved to stays */
		c->ref[j].removed = c->ref[j].unblocked = c->ref[j].drop = 0;
		c->ref[j].held = 0;
	}
	for (i = 0; i < g->count; i++) {
		const struct owners_node *n = &g->nodes[i];

		if (n->virtual_) {
			c->node[i].gone = 1; /* never observed: nothing the GC acts on */
			continue;
		}
		c->node[i].deleting = n->extras->deleted != 0;
		read_finalizers(c, i, n);
	}
}

int owners_collector_new(struct owners_collector **out, struct owners_graph *g)
{
	struct owners_collector *c;
	size_t refs = 0;
	uint32_t k, i;

	*out = NULL;
	if (!g->linked && owners_graph_link(g))
		return OWNERS_ENOMEM;
	for (k = 0; k < g->count; k++)
		refs += g->nodes[k].virtual_ ? 0 : g->nodes[k].n_refs;
	if (!(c = calloc(1, sizeof(*c))))
		return OWNERS_ENOMEM;
	c->g = g;
	c->n_refs = refs;
	if (alloc_state(c, g->count, refs)) {
		owners_collector_free(c);
		return OWNERS_ENOMEM;
	}
	refs = 0;
	for (k = 0; k < g->count; k++) {
		const struct owners_node *n = &g->nodes[k];

		c->first_ref[k] = (uint32_t)refs;
		if (n->virtual_)
			continue;
		for (i = 0; i < n->n_refs; i++, refs++) {
			struct owners_ref_resolution res;

			if (owners_graph_resolve_ref(g, k, &n->refs[i], &res)) {
				owners_collector_free(c);
				return OWNERS_ENOMEM;
			}
			c->ref[refs].cls = (unsigned char)res.class_;
			c->ref[refs].blind = (unsigned char)res.gc_blind;
		}
	}
	c->first_ref[g->count] = (uint32_t)refs;
	/* every reference resolved: what decides from here reads c */
	owners_graph_release_name_index(g);
	reset_state(c);
	*out = c;
	return 0;
}

/* ---- deciding --------------------------------------------------------- */

/* How classifyReferences() sees one reference on the state. */
enum ref_view {
	REF_SOLID,
	REF_DANGLING,
	REF_WAITING,   /* the owner is in foreground deletion */
	REF_GIVES_UP,  /* an error to the GC: it acts on nothing of the object */
	REF_UNDECIDED, /* this user cannot tell */
	REF_LIVE,      /* missing from the scan, there when read */
};

static enum ref_view view_ref(const struct owners_collector *c, uint32_t node, size_t k)
{
	uint32_t f;

	if (c->ref[k].held)
		return c->ref[k].held == 1 ? REF_LIVE : REF_UNDECIDED;
	switch ((enum owners_ref_class)c->ref[k].cls) {
	case OWNERS_REF_RESOLVED:
		f = owners_collector_found(c, node, k);
		if (f == OWNERS_NO_NODE || c->node[f].gone)
			return REF_DANGLING;
		return c->node[f].deleting && c->node[f].fg ? REF_WAITING : REF_SOLID;
	case OWNERS_REF_ABSENT:
	case OWNERS_REF_UID_MISMATCH:
		return REF_DANGLING;
	case OWNERS_REF_INVALID_NAMESPACE:
		/* namespacedOwnerOfClusterScopedObjectErr for a cluster-scoped
		 * object; a namespaced one's owner is looked for in its own
		 * namespace only, and not found there. */
		return *c->g->nodes[node].place->namespace_ ? REF_DANGLING : REF_GIVES_UP;
	case OWNERS_REF_UNRESOLVABLE:
		return REF_GIVES_UP;
	case OWNERS_REF_UNKNOWN: return c->ref[k].blind ? REF_GIVES_UP : REF_UNDECIDED;
	}
	return REF_UNDECIDED;
}

/* The reference of dependent dep that points at owner by UID and is still
 * there, or -1. */
static long live_ref_to(const struct owners_collector *c, uint32_t dep, uint32_t owner)
{
	const struct owners_node *d = &c->g->nodes[dep];
	uint32_t i;

	for (i = 0; i < d->n_refs; i++)
		if (d->refs[i].owner == owner && !c->ref[c->first_ref[dep] + i].removed)
			return (long)i;
	return -1;
}

struct dependents_count {
	uint32_t existing, blocking;
	uint32_t deleting_dependents; /* the first one in foreground deletion, or OWNERS_NO_NODE */
};

static void count_dependents(const struct owners_collector *c, uint32_t node, struct dependents_count *out)
{
	const struct owners_node *n = &c->g->nodes[node];
	uint32_t j;

	memset(out, 0, sizeof(*out));
	out->deleting_dependents = OWNERS_NO_NODE;
	for (j = 0; j < n->n_dependents; j++) {
		uint32_t dep = owners_graph_dependents(c->g, n)[j];
		const struct owners_node *d = &c->g->nodes[dep];
		uint32_t i;
		int any = 0, blocks = 0;

		/* owners_graph_link() lists each dependent once */
		if (c->node[dep].gone)
			continue;
		for (i = 0; i < d->n_refs; i++) {
			size_t k = c->first_ref[dep] + i;

			if (d->refs[i].owner != node || c->ref[k].removed)
				continue;
			any = 1;
			blocks |= d->refs[i].block_owner_deletion && !c->ref[k].unblocked;
		}
		if (!any)
			continue;
		out->existing++;
		out->blocking += (uint32_t)blocks;
		if (c->node[dep].deleting && c->node[dep].fg &&
		    out->deleting_dependents == OWNERS_NO_NODE)
			out->deleting_dependents = dep;
	}
}

/* attemptToOrphan: every dependent loses its references to node. */
static void decide_orphan(struct owners_collector *c, uint32_t node, struct owners_collector_step *s)
{
	const struct owners_node *n = &c->g->nodes[node];
	uint32_t j, released = 0;

	s->handler = OWNERS_COLLECTOR_ATTEMPT_TO_ORPHAN;
	for (j = 0; j < n->n_dependents; j++) {
		uint32_t dep = owners_graph_dependents(c->g, n)[j];
		const struct owners_node *d = &c->g->nodes[dep];
		uint32_t i;
		int any = 0;

		/* owners_graph_link() lists each dependent once */
		if (c->node[dep].gone)
			continue;
		for (i = 0; i < d->n_refs; i++) {
			size_t k = c->first_ref[dep] + i;

			if (d->refs[i].owner == node && !c->ref[k].removed) {
				c->ref[k].drop = 1;
				any = 1;
			}
		}
		if (any) {
			c->node[dep].release = 1;
			released++;
		}
	}
	s->kind = released ? OWNERS_COLLECTOR_STEP_RELEASE_DEPENDENTS : OWNERS_COLLECTOR_STEP_REMOVE_ORPHAN;
	s->count = released;
}

/* processDeletingDependentsItem. */
static void decide_deleting_dependents(struct owners_collector *c, uint32_t node, struct owners_collector_step *s)
{
	struct dependents_count d;

	s->handler = OWNERS_COLLECTOR_DELETING_DEPENDENTS;
	count_dependents(c, node, &d);
	if (d.blocking) {
		s->kind = OWNERS_COLLECTOR_STEP_WAIT;
		s->wait = OWNERS_COLLECTOR_WAIT_BLOCKING;
		s->count = d.blocking;
		return;
	}
	s->kind = OWNERS_COLLECTOR_STEP_REMOVE_FOREGROUND;
}

/* The references classifyReferences() sorts, and the first of each kind. */
struct ref_sort {
	uint32_t solid, waiting, undecided, gives_up, went, live; /* reference indexes or OWNERS_NO_NODE */
	uint32_t n_dangling, n_waiting, n_live;
};

static void sort_refs(const struct owners_collector *c, uint32_t node, struct ref_sort *r)
{
	const struct owners_node *n = &c->g->nodes[node];
	uint32_t i;

	memset(r, 0, sizeof(*r));
	r->solid = r->waiting = r->undecided = r->gives_up = r->went = r->live = OWNERS_NO_NODE;
	for (i = 0; i < n->n_refs; i++) {
		size_t k = c->first_ref[node] + i;

		if (c->ref[k].removed)
			continue;
		r->n_live++;
		switch (view_ref(c, node, k)) {
		case REF_SOLID:
			if (r->solid == OWNERS_NO_NODE)
				r->solid = i;
			break;
		case REF_DANGLING:
			r->n_dangling++;
			/* an owner that resolved when scanned and has gone since */
			if (r->went == OWNERS_NO_NODE &&
			    owners_collector_found(c, node, k) != OWNERS_NO_NODE)
				r->went = i;
			break;
		case REF_WAITING:
			r->n_waiting++;
			if (r->waiting == OWNERS_NO_NODE)
				r->waiting = i;
			break;
		case REF_GIVES_UP:
			if (r->gives_up == OWNERS_NO_NODE)
				r->gives_up = i;
			break;
		case REF_UNDECIDED:
			if (r->undecided == OWNERS_NO_NODE)
				r->undecided = i;
			break;
		case REF_LIVE:
			if (r->live == OWNERS_NO_NODE)
				r->live = i;
			break;
		}
	}
}

/* The STRIP of attemptToDeleteItem with a solid owner: every dangling
 * reference and every one to an owner in foreground deletion. */
static uint32_t mark_strip(struct owners_collector *c, uint32_t node)
{
	const struct owners_node *n = &c->g->nodes[node];
	uint32_t i, marked = 0;

	for (i = 0; i < n->n_refs; i++) {
		size_t k = c->first_ref[node] + i;
		enum ref_view v;

		if (c->ref[k].removed)
			continue;
		v = view_ref(c, node, k);
		if (v == REF_DANGLING || v == REF_WAITING) {
			c->ref[k].drop = 1;
			marked++;
		}
	}
	if (marked)
		c->node[node].release = 1;
	return marked;
}

/* Whether owner, in foreground deletion, still has a dependent that
 * blocks it (else its handler ends its wait this pass). */
static int owner_still_waits(const struct owners_collector *c, uint32_t owner)
{
	struct dependents_count d;

	count_dependents(c, owner, &d);
	return d.blocking > 0;
}

/* Whether the cycle breaker's patch on node ended the wait of one of its
 * owners in foreground deletion (no blocking dependent left): the GC's
 * retry finds that owner out of foreground deletion. Each owner is looked
 * at, by its node (not the index of the reference to it). */
static int ended_an_owners_wait(const struct owners_collector *c, uint32_t node)
{
	const struct owners_node *n = &c->g->nodes[node];
	uint32_t i;

	for (i = 0; i < n->n_refs; i++) {
		size_t k = c->first_ref[node] + i;
		uint32_t owner = owners_collector_found(c, node, k);

		if (!c->ref[k].removed && owner != OWNERS_NO_NODE &&
		    view_ref(c, node, k) == REF_WAITING && !owner_still_waits(c, owner))
			return 1;
	}
	return 0;
}

static int any_blocking_ref(const struct owners_collector *c, uint32_t node)
{
	const struct owners_node *n = &c->g->nodes[node];
	uint32_t i;

	for (i = 0; i < n->n_refs; i++) {
		size_t k = c->first_ref[node] + i;

		if (!c->ref[k].removed && n->refs[i].block_owner_deletion && !c->ref[k].unblocked)
			return 1;
	}
	return 0;
}

static uint32_t owner_of(const struct owners_collector *c, uint32_t node, uint32_t ref)
{
	return ref == OWNERS_NO_NODE ? OWNERS_NO_NODE
				     : owners_collector_found(c, node, c->first_ref[node] + ref);
}

/* attemptToDeleteItem on an object not in deletion. */
static void decide_attempt(struct owners_collector *c, uint32_t node, struct owners_collector_step *s)
{
	struct ref_sort r;
	struct dependents_count d;

	s->handler = OWNERS_COLLECTOR_ATTEMPT_TO_DELETE;
	sort_refs(c, node, &r);
	if (!r.n_live)
		return; /* no owner: not garbage */
	if (r.gives_up != OWNERS_NO_NODE) {
		s->kind = OWNERS_COLLECTOR_STEP_WAIT;
		s->wait = OWNERS_COLLECTOR_WAIT_GIVES_UP;
		s->ref = r.gives_up;
		return;
	}
	if (r.solid != OWNERS_NO_NODE) {
		s->owner = owner_of(c, node, r.solid);
		if (r.n_dangling + r.n_waiting) {
			s->kind = OWNERS_COLLECTOR_STEP_STRIP;
			s->count = mark_strip(c, node);
		}
		return;
	}
	/* An owner the scan missed is there: the GC, reading it, finds it
	 * solid. Owners has no node for it to decide with; the next scan has. */
	if (r.live != OWNERS_NO_NODE) {
		s->kind = OWNERS_COLLECTOR_STEP_WAIT;
		s->wait = OWNERS_COLLECTOR_WAIT_OWNER_LIVE;
		s->ref = r.live;
		return;
	}
	if (r.undecided != OWNERS_NO_NODE) {
		s->kind = OWNERS_COLLECTOR_STEP_WAIT;
		s->wait = OWNERS_COLLECTOR_WAIT_UNDECIDED;
		s->ref = r.undecided;
		return;
	}
	s->kind = OWNERS_COLLECTOR_STEP_DELETE;
	s->owner = owner_of(c, node, r.went);
	if (r.waiting != OWNERS_NO_NODE) {
		s->owner = owner_of(c, node, r.waiting);
		count_dependents(c, node, &d);
		if (d.existing) {
			s->for_waiting_owner = 1;
			s->policy = OWNERS_COLLECTOR_POLICY_FOREGROUND;
			/* The cycle breaker: a dependent already waits for this
			 * object's dependents while this one waits for it. */
			if (d.deleting_dependents != OWNERS_NO_NODE && any_blocking_ref(c, node)) {
				s->kind = OWNERS_COLLECTOR_STEP_UNBLOCK;
				s->owner = d.deleting_dependents;
				return;
			}
			/* After it: the GC's own delete, sent with the
			 * resourceVersion read before its unblocking patch,
			 * conflicts; the owner, whose wait that patch ended, is
			 * handled before the retry, leaves foreground deletion, and
			 * the object is then kept by it. */
			if (c->node[node].retried && ended_an_owners_wait(c, node))
				s->kind = OWNERS_COLLECTOR_STEP_NONE;
			return;
		}
	}
	s->policy = c->node[node].orphan ? OWNERS_COLLECTOR_POLICY_ORPHAN
		    : c->node[node].fg   ? OWNERS_COLLECTOR_POLICY_FOREGROUND
					 : OWNERS_COLLECTOR_POLICY_BACKGROUND;
}

static void decide(struct owners_collector *c, uint32_t node, struct owners_collector_step *s)
{
	memset(s, 0, sizeof(*s));
	s->owner = OWNERS_NO_NODE;
	s->ref = OWNERS_NO_NODE;
	if (c->node[node].gone)
		return;
	if (!c->node[node].deleting) {
		decide_attempt(c, node, s);
		return;
	}
	if (c->node[node].orphan) {
		decide_orphan(c, node, s);
		return;
	}
	if (c->node[node].fg) {
		decide_deleting_dependents(c, node, s);
		return;
	}
	/* In deletion, not for its dependents: the GC returns at once. */
	s->handler = OWNERS_COLLECTOR_ATTEMPT_TO_DELETE;
	s->kind = OWNERS_COLLECTOR_STEP_WAIT;
	s->wait = OWNERS_COLLECTOR_WAIT_FINALIZERS;
}

void owners_collector_plan(struct owners_collector *c, struct owners_collector_step *steps)
{
	size_t i;
	uint32_t k;

	for (i = 0; i < c->n_refs; i++)
		c->ref[i].drop = 0;
	for (k = 0; k < c->g->count; k++)
		c->node[k].release = 0;
	for (k = 0; k < c->g->count; k++)
		decide(c, k, &steps[k]);
}

int owners_collector_ref_dangles(const struct owners_collector *c, uint32_t node, uint32_t i)
{
	size_t k = c->first_ref[node] + i;

	return i < c->g->nodes[node].n_refs && !c->ref[k].removed &&
	       view_ref(c, node, k) == REF_DANGLING;
}

void owners_collector_hold(struct owners_collector *c, uint32_t node, uint32_t i, int there)
{
	if (i < c->g->nodes[node].n_refs)
		c->ref[c->first_ref[node] + i].held = there ? 1 : 2;
}

int owners_collector_drops(const struct owners_collector *c, uint32_t node, const struct owners_ref *ref)
{
	const struct owners_node *n = &c->g->nodes[node];

	if (ref < n->refs || ref >= n->refs + n->n_refs)
		return 0;
	return c->ref[c->first_ref[node] + (uint32_t)(ref - n->refs)].drop;
}

void owners_collector_retry(struct owners_collector *c, uint32_t node)
{
	c->node[node].retried = 1;
}

/* ---- the apiserver's answers ------------------------------------------ */

/* An object in deletion with no finalizer left is removed. */
static void maybe_gone(struct owners_collector *c, uint32_t node)
{
	if (c->node[node].deleting && !c->node[node].fg && !c->node[node].orphan &&
	    !c->node[node].others)
		c->node[node].gone = 1;
}

void owners_collector_apply(struct owners_collector *c, uint32_t node, const struct owners_collector_step *s)
{
	const struct owners_node *n = &c->g->nodes[node];
	uint32_t i, j;

	switch (s->kind) {
	case OWNERS_COLLECTOR_STEP_NONE:
	case OWNERS_COLLECTOR_STEP_WAIT:
		return;
	case OWNERS_COLLECTOR_STEP_DELETE:
		/* deletionFinalizersForGarbageCollection(): the policy's
		 * finalizer on, the other one off */
		c->node[node].fg = s->policy == OWNERS_COLLECTOR_POLICY_FOREGROUND;
		c->node[node].orphan = s->policy == OWNERS_COLLECTOR_POLICY_ORPHAN;
		c->node[node].deleting = 1;
		maybe_gone(c, node);
		return;
	case OWNERS_COLLECTOR_STEP_STRIP:
		for (i = 0; i < n->n_refs; i++)
			if (c->ref[c->first_ref[node] + i].drop)
				c->ref[c->first_ref[node] + i].removed = 1;
		return;
	case OWNERS_COLLECTOR_STEP_UNBLOCK:
		for (i = 0; i < n->n_refs; i++)
			c->ref[c->first_ref[node] + i].unblocked = 1;
		/* the GC's delete after the patch conflicts: the next pass
		 * is its retry, as owners_collector_retry() says of a pass
		 * after a rescan */
		c->node[node].retried = 1;
		return;
	case OWNERS_COLLECTOR_STEP_REMOVE_FOREGROUND:
		c->node[node].fg = 0;
		maybe_gone(c, node);
		return;
	case OWNERS_COLLECTOR_STEP_REMOVE_ORPHAN:
		c->node[node].orphan = 0;
		maybe_gone(c, node);
		return;
	case OWNERS_COLLECTOR_STEP_RELEASE_DEPENDENTS:
		for (j = 0; j < n->n_dependents; j++) {
			uint32_t dep = owners_graph_dependents(c->g, n)[j];
			long r;

			while (!c->node[dep].gone && (r = live_ref_to(c, dep, node)) >= 0)
				c->ref[c->first_ref[dep] + (uint32_t)r].removed = 1;
		}
		return;
	}
}

/* ---- settling --------------------------------------------------------- */

static void record_fates(const struct owners_collector *c, struct owners_collector_outcome *fates)
{
	uint32_t k, i;

	for (k = 0; k < c->g->count; k++) {
		const struct owners_node *n = &c->g->nodes[k];

		if (n->virtual_) {
			fates[k].kind = OWNERS_COLLECTOR_OUTCOME_COLLECTED; /* never there */
			continue;
		}
		if (c->node[k].gone)
			fates[k].kind = OWNERS_COLLECTOR_OUTCOME_COLLECTED;
		else
			fates[k].kind = c->node[k].deleting ? OWNERS_COLLECTOR_OUTCOME_DELETING
							    : OWNERS_COLLECTOR_OUTCOME_KEPT;
		fates[k].refs_removed = 0;
		for (i = 0; i < n->n_refs; i++)
			fates[k].refs_removed += c->ref[c->first_ref[k] + i].removed;
	}
}

/* The passes run on c itself (its state changed as they go), with steps
 * (g->count of them) to plan in. */
static void settle_on(struct owners_collector *c, struct owners_collector_step *steps,
		      struct owners_collector_outcome *fates, unsigned max_passes, unsigned *passes)
{
	const struct owners_graph *g = c->g;
	unsigned pass = 0;
	uint32_t k;

	for (k = 0; k < g->count; k++) {
		fates[k].pass = 0;
		fates[k].through = OWNERS_NO_NODE;
	}
	/* Every pass removes a reference, a finalizer or an object, or puts
	 * one in deletion: there are fewer passes than those things. */
	for (;;) {
		int acted = 0;

		if (max_passes && pass >= max_passes)
			break;
		owners_collector_plan(c, steps);
		for (k = 0; k < g->count; k++) {
			if (!owners_collector_step_acts(&steps[k]))
				continue;
			acted = 1;
			if (steps[k].kind == OWNERS_COLLECTOR_STEP_DELETE && fates[k].through == OWNERS_NO_NODE)
				fates[k].through = steps[k].owner;
		}
		if (!acted)
			break;
		pass++;
		for (k = 0; k < g->count; k++)
			owners_collector_apply(c, k, &steps[k]);
		for (k = 0; k < g->count; k++)
			if (c->node[k].gone && !fates[k].pass && !g->nodes[k].virtual_)
				fates[k].pass = pass < 0xffffff ? pass : 0xffffff; /* (24 bits) */
	}
	record_fates(c, fates);
	*passes = pass;
}

int owners_collector_settle(struct owners_graph *g, struct owners_collector_outcome *fates, unsigned max_passes,
			    unsigned *passes)
{
	struct owners_collector *c = NULL;
	struct owners_collector_step *steps = NULL;
	int rc;

	*passes = 0;
	if ((rc = owners_collector_new(&c, g)))
		return rc;
	if (!(steps = calloc(g->count ? g->count : 1, sizeof(*steps)))) {
		owners_collector_free(c);
		return OWNERS_ENOMEM;
	}
	settle_on(c, steps, fates, max_passes, passes);
	free(steps);
	owners_collector_free(c);
	return 0;
}

int owners_collector_foresee(struct owners_collector *c, struct owners_collector_step *steps)
{
	struct owners_collector_step *own = NULL;

	if (!c->ends && !(c->ends = calloc(c->g->count + 1, sizeof(*c->ends))))
		return OWNERS_ENOMEM;
	if (!steps && !(steps = own = calloc(c->g->count + 1, sizeof(*steps))))
		return OWNERS_ENOMEM;
	/* On c itself, then set back: a second collector would hold a copy
	 * of every object's state and resolve every reference again. */
	settle_on(c, steps, c->ends, 0, &c->passes);
	reset_state(c);
	free(own);
	return 0;
}
