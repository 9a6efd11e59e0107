/*
 * Absences read from the server before they are acted on (see
 * absence_confirm.h).
 */
#include "absence_confirm.h"

/* Whether a step of the collector rests on its references' absence. */
static int rests_on_absence(const struct owners_collector_step *s)
{
	return s->kind == OWNERS_COLLECTOR_STEP_DELETE || s->kind == OWNERS_COLLECTOR_STEP_STRIP ||
	       s->kind == OWNERS_COLLECTOR_STEP_UNBLOCK;
}

/* Reads the owner of every dangling reference of node; holds those that
 * are not gone. *newly: how many. */
static int confirm_node(size_t *newly, struct owners_collector *c, uint32_t node,
			struct owners_owner_checks *cc)
{
	const struct owners_node *n = &c->g->nodes[node];
	uint32_t i;

	for (i = 0; i < n->n_refs; i++) {
		enum owners_owner_verdict v;
		const char *why;

		if (!owners_collector_ref_dangles(c, node, i))
			continue;
		if (owners_owner_check(&v, &why, cc, n, &n->refs[i],
				       OWNERS_REF_UID(c->g, &n->refs[i])))
			return OWNERS_ENOMEM;
		if (v == OWNERS_OWNER_GONE)
			continue;
		owners_collector_hold(c, node, i, v == OWNERS_OWNER_ALIVE);
		(*newly)++;
	}
	return 0;
}

int owners_absence_confirm_collector(size_t *held, struct owners_collector *c, struct owners_collector_step *steps,
				     const unsigned char *scope, struct owners_owner_checks *cc)
{
	*held = 0;
	/* A hold can only turn an action into a wait or a smaller STRIP, and
	 * each round holds at least one more reference: it ends. */
	for (;;) {
		size_t newly = 0;
		uint32_t k;

		for (k = 0; k < c->g->count; k++) {
			if ((scope && !scope[k]) || !rests_on_absence(&steps[k]))
				continue;
			if (confirm_node(&newly, c, k, cc))
				return OWNERS_ENOMEM;
		}
		if (!newly)
			return 0;
		*held += newly;
		owners_collector_plan(c, steps);
	}
}

/* Whether the cascade takes ref of node as pointing at an owner that is
 * not there: missing from the scan, another UID, or only elsewhere. */
static int missing_owner(struct owners_graph *g, uint32_t node, const struct owners_ref *ref)
{
	switch (owners_graph_classify_ref(g, node, ref)) {
	case OWNERS_REF_ABSENT:
	case OWNERS_REF_UID_MISMATCH:
	case OWNERS_REF_INVALID_NAMESPACE: return 1;
	default: return 0;
	}
}

/* Whether action a rests on an owner's absence that a read does not
 * confirm. A root is deleted because it was asked for; a member's DELETE
 * rests on every owner it has outside the cascade being gone; a release
 * on the owners whose references it removes. */
static int action_held(int *hold, const struct owners_cascade_plan *p, struct owners_graph *g,
		       const struct owners_action *a, struct owners_owner_checks *cc)
{
	const struct owners_node *n = &g->nodes[a->node];
	uint32_t i;

	*hold = 0;
	if (p->root[a->node])
		return 0;
	switch (a->kind) {
	case OWNERS_ACT_DELETE:
	case OWNERS_ACT_DELETE_FOREGROUND:
	case OWNERS_ACT_DELETE_ORPHAN:
	case OWNERS_ACT_RELEASE: break;
	default: return 0;
	}
	for (i = 0; i < n->n_refs && !*hold; i++) {
		const struct owners_ref *ref = &n->refs[i];
		enum owners_owner_verdict v;
		const char *why;

		if (a->kind == OWNERS_ACT_RELEASE && !owners_cascade_ref_released(p, g, a->node, ref))
			continue;
		if (!missing_owner(g, a->node, ref))
			continue;
		if (owners_owner_check(&v, &why, cc, n, ref, OWNERS_REF_UID(g, ref)))
			return OWNERS_ENOMEM;
		*hold = v != OWNERS_OWNER_GONE;
	}
	return 0;
}

int owners_absence_confirm_cascade(size_t *held, struct owners_cascade_plan *p, struct owners_graph *g,
				   struct owners_owner_checks *cc)
{
	size_t i = 0;

	*held = 0;
	while (i < p->n_actions) {
		int hold;

		if (action_held(&hold, p, g, &p->actions[i], cc))
			return OWNERS_ENOMEM;
		if (!hold) {
			i++;
			continue;
		}
		if (owners_cascade_plan_hold(p, i))
			return OWNERS_ENOMEM;
		(*held)++;
	}
	return 0;
}
