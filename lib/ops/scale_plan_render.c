/* Scale-first's plan as text (scale_plan_render.h). */
#include "scale_plan_render.h"

#include <string.h>

#include "owners_error.h"

/* Whether target i's controller is a target before it that is scaled
 * (a Deployment before its ReplicaSet). */
static int owner_scaled_before(const struct owners_graph *g, const struct owners_scale_plan *sp,
			       size_t i)
{
	const struct owners_node *n = &g->nodes[sp->targets[i].node];
	uint32_t r;
	size_t j;

	for (r = 0; r < n->n_refs; r++) {
		if (!n->refs[r].controller)
			continue;
		for (j = 0; j < i; j++)
			/* (a reference names its owner's node: one UID, one node) */
			if (sp->targets[j].how != OWNERS_SCALE_NONE &&
			    sp->targets[j].node == n->refs[r].owner)
				return 1;
	}
	return 0;
}

/* What scaling it down would do, and the wait it predicts: each pod's
 * grace period, one after the other for an ordered StatefulSet. */
static int scale_said(struct owners_buf *out, enum owners_scale_how how,
		      const struct owners_scale_state *st)
{
	int job = how == OWNERS_SCALE_JOB;
	int rc = owners_buf_addf(out, "%s%s %lld -> 0%s, then wait for %s to go",
				 how == OWNERS_SCALE_DEPLOYMENT && !st->paused ? "pause, " : "",
				 job ? "parallelism" : "scale",
				 (long long)(st->spec_replicas < 0 ? 1 : st->spec_replicas),
				 job ? "" : " (scale subresource)", job ? "its active pods" : "its replicas");

	if (rc || st->grace_seconds < 0)
		return rc ? rc : owners_buf_addc(out, '\n');
	if (st->one_at_a_time && st->status_replicas > 1)
		return owners_buf_addf(out,
				       ", one at a time in reverse ordinal order "
				       "(up to %llds each, %llds in all)\n",
				       (long long)st->grace_seconds,
				       (long long)(st->grace_seconds * st->status_replicas));
	return owners_buf_addf(out, " (up to %llds)\n", (long long)st->grace_seconds);
}

/* The rest of target i's line, from what was read. */
static int target_said(struct owners_buf *out, const struct owners_graph *g,
		       const struct owners_scale_plan *sp, size_t i,
		       const struct owners_scale_plan_read *read)
{
	enum owners_scale_how how = sp->targets[i].how;
	const struct owners_scale_state *st = &read->state;
	char why[160];

	if (how == OWNERS_SCALE_NONE)
		return owners_buf_adds(out, "cannot be scaled: its pods go with the cascade\n");
	if (read->rc == OWNERS_ENOTFOUND)
		return owners_buf_adds(out, "gone\n");
	if (read->rc)
		return owners_buf_addc(out, '\n');
	/* a Deployment's ReplicaSet: its owner's controller takes it to 0 */
	if (owner_scaled_before(g, sp, i))
		return owners_buf_addf(out, "scaled down with its owner (else scale %lld -> 0)\n",
				       (long long)(st->spec_replicas < 0 ? 1 : st->spec_replicas));
	switch (owners_scale_next(st, how, why, sizeof(why))) {
	case OWNERS_SCALE_NEXT_PAUSE:
	case OWNERS_SCALE_NEXT_SCALE: return scale_said(out, how, st);
	case OWNERS_SCALE_NEXT_WAIT: return owners_buf_addf(out, "at 0, wait: %s\n", why);
	case OWNERS_SCALE_NEXT_DONE: break;
	}
	return owners_buf_adds(out, "at 0 already\n");
}

int owners_scale_plan_render(struct owners_buf *out, const struct owners_graph *g,
			     const struct owners_scale_plan *sp,
			     const struct owners_scale_plan_read *reads, size_t n_read)
{
	size_t i;
	int rc = 0;

	if (!sp->count)
		return 0;
	rc = owners_buf_adds(out, "scale first, top-down (dry run, nothing changed):\n");
	for (i = 0; !rc && i < n_read && i < sp->count; i++) {
		const struct owners_node *n = &g->nodes[sp->targets[i].node];

		rc = owners_buf_addf(out, "  %s%s", n->place->namespace_, *n->place->namespace_ ? "/" : "");
		if (!rc)
			rc = owners_graph_node_type(out, n);
		if (!rc)
			rc = owners_buf_addf(out, "/%s  ", n->name);
		if (!rc)
			rc = target_said(out, g, sp, i, &reads[i]);
	}
	return rc;
}
