/*
 * owners tree --until's states (tree_state.h): readiness and absence are
 * decisions about the tree, not about drawing it, so they live here,
 * testable over a graph built by hand.
 */
#include "tree_state.h"

/* One row's object: whether it stops the tree from being ready. */
static int row_ready(const struct owners_graph *g, const struct owners_tree *tree, size_t i,
		     const struct owners_object_status *status, size_t n_status)
{
	uint32_t node = tree->rows[i].node;
	const struct owners_node *n = &g->nodes[node];

	if (n->virtual_) /* an owner not found (up), or a root gone */
		return !tree->rows[i].depth ? 0 : tree->up;
	if (n->deleted)
		return 0;
	if (n->resource && n->resource->has_status)
		return node < n_status && status[node].ready && status[node].is_ready;
	return 1;
}

int owners_tree_ready(uint32_t *first, const struct owners_graph *g, const struct owners_tree *tree,
		      const struct owners_object_status *status, size_t n_status)
{
	size_t i;

	*first = OWNERS_NO_NODE;
	/* Nothing to wait on yet (a root applied but not seen) is not
	 * "ready": --until=ready after an apply waits for it to come. */
	if (!tree->count || !status)
		return 0;
	for (i = 0; i < tree->count; i++)
		if (!row_ready(g, tree, i, status, n_status)) {
			*first = tree->rows[i].node;
			return 0;
		}
	return 1;
}

int owners_tree_gone(uint32_t *first, const struct owners_graph *g, const struct owners_tree *tree)
{
	size_t i;

	*first = OWNERS_NO_NODE;
	for (i = 0; i < tree->count; i++)
		if (!g->nodes[tree->rows[i].node].virtual_) {
			*first = tree->rows[i].node;
			return 0;
		}
	return 1;
}
