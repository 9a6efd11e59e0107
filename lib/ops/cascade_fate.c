/*
 * A tree's rows under a cascade from its roots (see cascade_fate.h).
 */
#include "cascade_fate.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cascade.h"

/* Why the garbage collector never resolves this reference, in words. */
static const char *unresolved_why(struct owners_graph *g, uint32_t node, const struct owners_ref *ref)
{
	struct owners_ref_resolution res;

	owners_graph_resolve_ref(g, node, ref, &res);
	if (res.class_ == OWNERS_REF_UNRESOLVABLE)
		return "a kind the server does not serve";
	if (res.class_ == OWNERS_REF_INVALID_NAMESPACE)
		return "namespaced, of a cluster-scoped object";
	return "cannot be looked up";
}

/* The reason's word and its message for one node the plan keeps;
 * in_tree: the tree's nodes (an owner kept there is "its owner", not
 * "another"). */
static int explain(struct owners_tree_fate *f, const struct owners_cascade_plan *p,
		   struct owners_graph *g, uint32_t node, const unsigned char *in_tree)
{
	struct owners_buf msg = OWNERS_BUF_INIT;
	const struct owners_ref *ref;
	int rc = 0;

	switch (owners_cascade_why_kept(p, g, node, &ref)) {
	case OWNERS_KEPT_NOT:
	case OWNERS_KEPT_GONE:
		return 0;
	case OWNERS_KEPT_UNRESOLVABLE:
		f->reason = "UnresolvableReference";
		rc = owners_buf_addf(&msg, "kept: the garbage collector never acts on it (owner %s/%s: %s)",
				     ref->type->kind, ref->name, unresolved_why(g, node, ref));
		break;
	case OWNERS_KEPT_ANOTHER_OWNER:
		if (ref->owner != OWNERS_NO_NODE && in_tree[ref->owner]) {
			f->reason = "OwnerKept";
			rc = owners_buf_addf(&msg, "kept: its owner %s/%s is kept", ref->type->kind, ref->name);
		} else {
			f->reason = "AnotherOwner";
			rc = owners_buf_addf(&msg, "kept: another owner keeps it (%s/%s)", ref->type->kind,
					     ref->name);
		}
		break;
	case OWNERS_KEPT_ORPHANED:
		f->reason = "Orphaned";
		rc = owners_buf_addf(&msg, "kept: its owner %s/%s orphans its dependents", ref->type->kind,
				     ref->name);
		break;
	case OWNERS_KEPT_OWNER_KEPT:
		f->reason = "OwnerKept";
		rc = owners_buf_adds(&msg, "kept: its owner is kept");
		break;
	}
	if (rc) {
		owners_buf_clear(&msg);
		f->reason = NULL;
		return rc;
	}
	f->message = owners_buf_detach(&msg);
	return 0;
}

int owners_cascade_fates_new(struct owners_tree_fate **out, struct owners_graph *g,
			     const struct owners_tree *t)
{
	const struct owners_cascade_options o = { OWNERS_CASCADE_BACKGROUND, 1, 0 };
	struct owners_cascade_plan plan;
	struct owners_cascade_seeds seeds;
	const char **roots = calloc(t->count + 1, sizeof(*roots));
	/* the roots' UIDs as text, kept while the plan is made */
	char (*root_uids)[OWNERS_UID_TEXT_SIZE] = calloc(t->count + 1, sizeof(*root_uids));
	struct owners_tree_fate *fates = calloc((size_t)g->count + 1, sizeof(*fates));
	unsigned char *in_tree = calloc((size_t)g->count + 1, 1);
	size_t i, n = 0;
	int rc = OWNERS_ENOMEM;

	*out = NULL;
	if (!roots || !root_uids || !fates || !in_tree)
		goto out;
	for (i = 0; i < t->count; i++) {
		/* a relation's row is not the cascade's */
		if (t->rows[i].related)
			continue;
		in_tree[t->rows[i].node] = 1;
		if (!t->rows[i].depth) {
			roots[n] = owners_graph_node_uid(&g->nodes[t->rows[i].node], root_uids[n]);
			n++;
		}
	}
	memset(&seeds, 0, sizeof(seeds));
	seeds.roots = roots;
	seeds.n_roots = n;
	if ((rc = owners_cascade_plan_make(&plan, g, &seeds, &o)))
		goto out;
	for (i = 0; !rc && i < t->count; i++) {
		uint32_t node = t->rows[i].node;

		if (!t->rows[i].related && !fates[node].reason)
			rc = explain(&fates[node], &plan, g, node, in_tree);
	}
	owners_cascade_plan_clear(&plan);
out:
	free(roots);
	free(root_uids);
	free(in_tree);
	if (rc)
		owners_cascade_fates_free(fates, g->count);
	else
		*out = fates;
	return rc;
}

void owners_cascade_fates_free(struct owners_tree_fate *fates, uint32_t count)
{
	uint32_t i;

	for (i = 0; fates && i < count; i++)
		free(fates[i].message);
	free(fates);
}
