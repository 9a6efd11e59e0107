#include "why.h"

#include <stdlib.h>
#include <string.h>

#include "dangling.h"
#include "grow.h"

const char *owners_why_verdict_name(enum owners_why_verdict v)
{
	switch (v) {
	case OWNERS_WHY_KEPT: return "kept";
	case OWNERS_WHY_COLLECTED: return "collected";
	case OWNERS_WHY_NEVER: return "never-collected";
	case OWNERS_WHY_WAITING: return "waiting";
	case OWNERS_WHY_BLIND: return "blind";
	case OWNERS_WHY_DEADLOCK: return "deadlock";
	}
	return "blind";
}

const char *owners_why_outcome_name(enum owners_why_outcome o)
{
	switch (o) {
	case OWNERS_WHY_OUTCOME_COLLECTED: return "collected";
	case OWNERS_WHY_OUTCOME_RELEASED: return "released";
	case OWNERS_WHY_OUTCOME_KEPT: return "kept";
	}
	return "kept";
}

const char *owners_why_deletion(const struct owners_node *n)
{
	if (!n->extras->deleted)
		return NULL;
	if (owners_graph_node_has_finalizer(n, OWNERS_FINALIZER_FOREGROUND))
		return "foreground";
	if (owners_graph_node_has_finalizer(n, OWNERS_FINALIZER_ORPHAN))
		return "orphan";
	return "background";
}

const char *owners_why_owner_state(const struct owners_graph *g, const struct owners_why_owner *o)
{
	if (o->class_ != OWNERS_REF_RESOLVED)
		return owners_ref_class_name(o->class_);
	return g->nodes[o->node].extras->deleted ? "in-deletion" : "live";
}

/* ---- finalizers: who removes them -------------------------------------------- */

struct known_finalizer {
	const char *name;
	int spec;
	const char *remover;
	const char *waits_for;
};

/* The finalizers whose controller ships with Kubernetes. Anything else
 * belongs to an operator owners knows nothing about. */
static const struct known_finalizer known[] = {
	{ OWNERS_FINALIZER_FOREGROUND, 0, "the garbage collector",
	  "the dependents that block owner deletion (blockOwnerDeletion) to be deleted" },
	{ OWNERS_FINALIZER_ORPHAN, 0, "the garbage collector",
	  "every dependent to be released (its ownerReference to this object removed)" },
	{ OWNERS_FINALIZER_NAMESPACE, 1, "the namespace controller",
	  "the namespace to be empty: every object in it deleted" },
	{ OWNERS_FINALIZER_PVC, 0, "the pvc-protection controller",
	  "the claim to be deleted and no scheduled pod to mount it" },
	{ OWNERS_FINALIZER_PV, 0, "the pv-protection controller",
	  "the volume to be deleted and no longer bound to a claim" },
	{ "batch.kubernetes.io/job-tracking", 0, "the job controller",
	  "the Job to count the pod's end (or the pod's Job to be gone)" },
	{ "service.kubernetes.io/load-balancer-cleanup", 0, "the service controller (cloud provider)",
	  "the cloud load balancer of the Service to be deleted" },
};

void owners_why_finalizer_known(const char *name, int spec, const char **remover,
				const char **waits_for)
{
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (known[i].spec == spec && !strcmp(known[i].name, name)) {
			*remover = known[i].remover;
			*waits_for = known[i].waits_for;
			return;
		}
	*remover = NULL;
	*waits_for = spec ? "its system to finalize the namespace (the finalize subresource)"
			  : "its controller to finish its cleanup";
}

static int explain_finalizers(struct owners_why *w, const struct owners_graph *g,
			      const struct owners_stuck_report *stuck)
{
	const struct owners_node *n = &g->nodes[w->node];
	const struct owners_stuck_item *it = stuck ? owners_stuck_item_of(stuck, w->node) : NULL;
	size_t i, count = it ? it->n_finalizers : n->extras->n_finalizers;

	if (!count)
		return 0;
	if (!(w->finalizers = calloc(count, sizeof(*w->finalizers))))
		return OWNERS_ENOMEM;
	for (i = 0; i < count; i++) {
		struct owners_why_finalizer *f = &w->finalizers[i];

		f->name = it ? it->finalizers[i].name : n->extras->finalizers[i];
		f->spec = it ? it->finalizers[i].spec : 0;
		f->now = it ? &it->finalizers[i] : NULL;
		owners_why_finalizer_known(f->name, f->spec, &f->remover, &f->waits_for);
	}
	w->n_finalizers = count;
	return 0;
}

/* ---- owners, up to the roots --------------------------------------------------- */

/* classifyReferences(): a resolved owner in foreground deletion is
 * "waiting for dependents deletion", not solid. */
static int is_solid(const struct owners_graph *g, uint32_t owner)
{
	const struct owners_node *o = &g->nodes[owner];

	return !(o->extras->deleted &&
		 owners_graph_node_has_finalizer(o, OWNERS_FINALIZER_FOREGROUND));
}

static int push_owner(struct owners_why *w, const struct owners_why_owner *o)
{
	if (OWNERS_GROW(w->owners, w->cap_owners, w->n_owners + 1))
		return OWNERS_ENOMEM;
	w->owners[w->n_owners++] = *o;
	return 0;
}

/* Breadth first from the object: every reference, and above each owner
 * that resolves its own references; an owner met twice (shared, or on a
 * cycle) is walked once. */
static int walk_owners(struct owners_why *w, struct owners_graph *g)
{
	unsigned char *seen = calloc(g->count ? g->count : 1, 1);
	size_t next = 0;
	uint32_t dep = w->node, k;
	unsigned depth = 1;
	int rc = 0;

	if (!seen)
		return OWNERS_ENOMEM;
	seen[dep] = 1;
	for (;;) {
		for (k = 0; !rc && k < g->nodes[dep].n_refs; k++) {
			const struct owners_ref *ref = &g->nodes[dep].refs[k];
			struct owners_ref_resolution res;
			struct owners_why_owner o;

			owners_graph_resolve_ref(g, dep, ref, &res);
			memset(&o, 0, sizeof(o));
			o.dependent = dep;
			o.ref = k;
			o.depth = depth;
			o.class_ = res.class_;
			o.gc_blind = res.class_ == OWNERS_REF_UNKNOWN && res.gc_blind;
			o.node = res.class_ == OWNERS_REF_RESOLVED && res.found != OWNERS_NO_NODE ? res.found
												  : ref->owner;
			if (res.class_ == OWNERS_REF_RESOLVED) {
				o.solid = is_solid(g, o.node);
				o.blocks = ref->block_owner_deletion;
			}
			rc = push_owner(w, &o);
		}
		if (rc)
			break;
		/* the next owner to walk above: resolved and not walked yet */
		while (next < w->n_owners && (w->owners[next].class_ != OWNERS_REF_RESOLVED ||
					      w->owners[next].node == OWNERS_NO_NODE ||
					      seen[w->owners[next].node]))
			next++;
		if (next == w->n_owners)
			break;
		dep = w->owners[next].node;
		depth = w->owners[next].depth + 1;
		seen[dep] = 1;
		next++;
	}
	free(seen);
	return rc;
}

/* ---- the verdict ------------------------------------------------------------- */

static int set_rule(struct owners_why *w, enum owners_why_verdict v, uint32_t because,
		    const char *rule)
{
	w->verdict = v;
	w->because = because;
	return (w->rule = owners_strdup(rule)) ? 0 : OWNERS_ENOMEM;
}

static int decide_in_deletion(struct owners_why *w, const struct owners_node *n)
{
	const char *how = owners_why_deletion(n);

	if (!strcmp(how, "foreground"))
		return set_rule(w, OWNERS_WHY_WAITING, OWNERS_NO_NODE,
				"in foreground deletion: the garbage collector removes foregroundDeletion "
				"once no dependent blocks owner deletion (processDeletingDependentsItem)");
	if (!strcmp(how, "orphan"))
		return set_rule(w, OWNERS_WHY_WAITING, OWNERS_NO_NODE,
				"orphaning: the garbage collector removes the orphan finalizer once every "
				"dependent is released (orphanDependents)");
	if (n->extras->n_finalizers || w->n_finalizers)
		return set_rule(w, OWNERS_WHY_WAITING, OWNERS_NO_NODE,
				"in deletion: the object goes when its last finalizer is removed, "
				"each by its own controller");
	return set_rule(w, OWNERS_WHY_WAITING, OWNERS_NO_NODE,
			"in deletion with no finalizers left: the API server removes it (a pod waits "
			"for its grace period)");
}

/* An object in foreground deletion may be in a deadlock: then nothing
 * ends its wait. */
static int decide_deadlock(struct owners_why *w, struct owners_graph *g)
{
	struct owners_collector *c = NULL;
	int rc;

	if ((rc = owners_collector_new(&c, g)) || (rc = owners_deadlocks_find(&w->deadlocks, c))) {
		owners_collector_free(c);
		return rc;
	}
	owners_collector_free(c);
	if (!(w->deadlock = owners_deadlocks_of(&w->deadlocks, w->node)))
		return 0;
	free(w->rule);
	w->rule = NULL;
	return set_rule(w, OWNERS_WHY_DEADLOCK, OWNERS_NO_NODE,
			"in foreground deletion, blocked by dependents that are themselves in foreground "
			"deletion and blocked in turn: processDeletingDependentsItem removes "
			"foregroundDeletion only once no dependent blocks, and the cycle breaker acts only "
			"on objects not yet in deletion, so the garbage collector never ends it");
}

/* attemptToDeleteItem() on a live object, its own references only. */
static int decide_live(struct owners_why *w, const struct owners_graph *g)
{
	const struct owners_node *n = &g->nodes[w->node];
	uint32_t i, first_solid = OWNERS_NO_NODE, first_unknown = OWNERS_NO_NODE;

	if (!n->n_refs)
		return set_rule(w, OWNERS_WHY_KEPT, OWNERS_NO_NODE,
				"no ownerReferences: the garbage collector only collects dependents");
	/* classifyReferences() looks the references up in order and gives up
	 * on the object at the first it cannot look up. */
	for (i = 0; i < w->n_owners && w->owners[i].depth == 1; i++) {
		const struct owners_why_owner *o = &w->owners[i];

		if (o->gc_blind)
			return set_rule(w, OWNERS_WHY_BLIND, i,
					"the garbage collector cannot look this owner up either (its API "
					"group failed discovery, or its list failed): classifyReferences "
					"fails and nothing happens to the object while that lasts");
		if (owners_dangling_gc_gives_up(o->class_, !*n->place->namespace_))
			return set_rule(w, OWNERS_WHY_NEVER, i,
					o->class_ == OWNERS_REF_UNRESOLVABLE
						? "the reference's apiVersion/kind is not served: the garbage "
						  "collector cannot map it, retries forever and never deletes "
						  "the object, whatever its other owners do"
						: "a cluster-scoped object cannot have a namespaced owner: the "
						  "garbage collector reports OwnerRefInvalidNamespace and never "
						  "deletes the object");
		if (o->solid && first_solid == OWNERS_NO_NODE)
			first_solid = i;
		if (o->class_ == OWNERS_REF_UNKNOWN && first_unknown == OWNERS_NO_NODE)
			first_unknown = i;
	}
	if (first_solid != OWNERS_NO_NODE)
		return set_rule(w, OWNERS_WHY_KEPT, first_solid,
				"a solid owner (found where it must be, with the UID referenced, not "
				"waiting for its dependents' deletion) keeps the object "
				"(attemptToDeleteItem)");
	if (first_unknown != OWNERS_NO_NODE)
		return set_rule(w, OWNERS_WHY_BLIND, first_unknown,
				"this user may not list the owner's type; the garbage collector can: "
				"the object is kept if that owner exists with the UID referenced, and "
				"collected if it does not");
	return set_rule(w, OWNERS_WHY_COLLECTED, OWNERS_NO_NODE,
			"no solid owner: every owner is absent, of another UID, only in another "
			"namespace, or waiting for its dependents' deletion, so the garbage "
			"collector deletes the object (attemptToDeleteItem)");
}

/* A kept object may still go: its solid owner can be garbage itself (its
 * only owner gone), and once the GC collects that one this object has no
 * solid owner left. The GC's passes, settled, say whether it goes. */
static int decide_eventually(struct owners_why *w, struct owners_graph *g)
{
	struct owners_collector_outcome *fates = calloc(g->count + 1, sizeof(*fates));
	struct owners_buf rule = OWNERS_BUF_INIT;
	unsigned passes;
	uint32_t k;
	int rc;

	if (!fates)
		return OWNERS_ENOMEM;
	if ((rc = owners_collector_settle(g, fates, 0, &passes)) ||
	    fates[w->node].kind != OWNERS_COLLECTOR_OUTCOME_COLLECTED) {
		free(fates);
		return rc;
	}
	w->after = fates[w->node].through;
	rc = owners_buf_adds(&rule, "its solid owner is garbage itself: the garbage collector collects ");
	/* the chain, from the object it comes through to where it starts */
	for (k = w->after; !rc && k != OWNERS_NO_NODE; k = fates[k].through)
		rc = owners_buf_addf(&rule, "%s%s/%s", k == w->after ? "" : " after ", g->nodes[k].place->kind,
				     g->nodes[k].name);
	if (!rc)
		rc = owners_buf_addf(&rule, " first, then this object, which has no solid owner left "
				     "(attemptToDeleteItem, pass %u of %u)", fates[w->node].pass, passes);
	if (!rc) {
		free(w->rule);
		w->rule = NULL;
		rc = set_rule(w, OWNERS_WHY_COLLECTED, w->because, rule.ptr);
	}
	owners_buf_clear(&rule);
	free(fates);
	return rc;
}

/* ---- what deleting would do ------------------------------------------------ */

static int plan_each_mode(struct owners_why_cascade *c, struct owners_graph *g, uint32_t node)
{
	const char *uid = OWNERS_NODE_UID(&g->nodes[c->root]);
	int m;

	for (m = 0; m < OWNERS_WHY_MODES; m++) {
		struct owners_cascade_options o = { (enum owners_cascade_mode)m, 1, 0 };
		struct owners_cascade_plan p;
		const struct owners_node *n;
		uint32_t i;

		memset(&p, 0, sizeof(p));
		if (owners_cascade_plan_make(&p, g, &(const struct owners_cascade_seeds){ &uid, 1, NULL, 0 },
					     &o)) {
			owners_cascade_plan_clear(&p);
			return OWNERS_ENOMEM;
		}
		n = &g->nodes[node];
		if (!c->self)
			c->outcome[m] = p.member[node]     ? OWNERS_WHY_OUTCOME_COLLECTED
					: p.released[node] ? OWNERS_WHY_OUTCOME_RELEASED
							   : OWNERS_WHY_OUTCOME_KEPT;
		if (c->self)
			c->removed[m] = p.members_left;
		for (i = 0; c->self && i < n->n_dependents; i++) {
			uint32_t d = owners_graph_dependents(g, n)[i];

			if (g->nodes[d].virtual_ || d == node)
				continue;
			if (p.member[d])
				c->collected[m]++;
			else if (p.released[d])
				c->released[m]++;
			else
				c->kept[m]++;
		}
		owners_cascade_plan_clear(&p);
	}
	return 0;
}

static int predict_cascades(struct owners_why *w, struct owners_graph *g)
{
	size_t i, k;
	int rc = 0;

	if (!(w->cascades = calloc(w->n_owners + 1, sizeof(*w->cascades))))
		return OWNERS_ENOMEM;
	for (i = 0; !rc && i < w->n_owners && w->owners[i].depth == 1; i++) {
		const struct owners_why_owner *o = &w->owners[i];

		if (o->class_ != OWNERS_REF_RESOLVED || o->node == OWNERS_NO_NODE || o->node == w->node)
			continue;
		for (k = 0; k < w->n_cascades && w->cascades[k].root != o->node; k++)
			;
		if (k < w->n_cascades)
			continue; /* two references to one owner */
		w->cascades[w->n_cascades].root = o->node;
		rc = plan_each_mode(&w->cascades[w->n_cascades++], g, w->node);
	}
	if (rc)
		return rc;
	w->cascades[w->n_cascades].root = w->node;
	w->cascades[w->n_cascades].self = 1;
	return plan_each_mode(&w->cascades[w->n_cascades++], g, w->node);
}

/* ---- dependents ----------------------------------------------------------- */

static int count_dependents(struct owners_why *w, const struct owners_graph *g)
{
	const struct owners_node *n = &g->nodes[w->node];
	uint32_t i, k;

	w->dependent_kinds = calloc(n->n_dependents ? n->n_dependents : 1, sizeof(*w->dependent_kinds));
	w->blocking = calloc(n->n_dependents ? n->n_dependents : 1, sizeof(*w->blocking));
	if (!w->dependent_kinds || !w->blocking)
		return OWNERS_ENOMEM;
	for (i = 0; i < n->n_dependents; i++) {
		const struct owners_node *d = &g->nodes[owners_graph_dependents(g, n)[i]];
		size_t j;

		if (d->virtual_)
			continue;
		w->n_dependents++;
		for (j = 0; j < w->n_dependent_kinds && w->dependent_kinds[j].kind != d->place->kind; j++)
			;
		if (j == w->n_dependent_kinds)
			w->dependent_kinds[w->n_dependent_kinds++].kind = d->place->kind;
		w->dependent_kinds[j].count++;
		for (k = 0; k < d->n_refs; k++)
			if (d->refs[k].owner == w->node && d->refs[k].block_owner_deletion) {
				w->blocking[w->n_blocking++] = owners_graph_dependents(g, n)[i];
				break;
			}
	}
	return 0;
}

/* ---- the answer ------------------------------------------------------------ */

int owners_why_explain(struct owners_why *out, struct owners_graph *g,
		       const struct owners_stuck_report *stuck, uint32_t node)
{
	int rc;

	memset(out, 0, sizeof(*out));
	out->node = node;
	out->because = OWNERS_NO_NODE;
	out->after = OWNERS_NO_NODE;
	if (!g->linked && owners_graph_link(g))
		return OWNERS_ENOMEM;
	if ((rc = walk_owners(out, g)) || (rc = explain_finalizers(out, g, stuck)) ||
	    (rc = count_dependents(out, g)))
		return rc;
	rc = g->nodes[node].extras->deleted ? decide_in_deletion(out, &g->nodes[node])
					    : decide_live(out, g);
	if (!rc && out->verdict == OWNERS_WHY_KEPT && out->because != OWNERS_NO_NODE)
		rc = decide_eventually(out, g);
	if (!rc && out->verdict == OWNERS_WHY_WAITING && !strcmp(owners_why_deletion(&g->nodes[node]), "foreground"))
		rc = decide_deadlock(out, g);
	if (!rc)
		rc = predict_cascades(out, g);
	return rc;
}

void owners_why_clear(struct owners_why *w)
{
	if (!w)
		return;
	free(w->rule);
	free(w->owners);
	free(w->finalizers);
	free(w->cascades);
	free(w->dependent_kinds);
	free(w->blocking);
	owners_deadlocks_clear(&w->deadlocks);
	memset(w, 0, sizeof(*w));
}
