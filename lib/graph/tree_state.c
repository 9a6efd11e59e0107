/*
 * owners tree --until's states (tree_state.h): readiness and absence are
 * decisions about the tree, not about drawing it, so they live here,
 * testable over a graph built by hand.
 */
#include "tree_state.h"

#include <stdlib.h>
#include <string.h>

/* One row's object: whether it stops the tree from being ready. */
static int row_ready(const struct owners_graph *g, const struct owners_tree *tree, size_t i,
		     const struct owners_object_status *status, size_t n_status)
{
	uint32_t node = tree->rows[i].node;
	const struct owners_node *n = &g->nodes[node];

	if (n->virtual_) /* an owner not found (up), or a root gone */
		return !tree->rows[i].depth ? 0 : tree->up;
	if (n->extras->deleted)
		return 0;
	if (n->place->resource && n->place->resource->has_status)
		return node < n_status && status[node].ready && status[node].is_ready;
	return 1;
}

int owners_tree_state_ready(uint32_t *first, const struct owners_graph *g,
			    const struct owners_tree *tree,
			    const struct owners_object_status *status, size_t n_status)
{
	size_t i, depth = 0;

	*first = OWNERS_NO_NODE;
	/* Nothing to wait on yet (a root applied but not seen) is not
	 * "ready": --until=ready after an apply waits for it to come. */
	if (!tree->count || !status)
		return 0;
	for (i = 0; i < tree->count; i++)
		if (!row_ready(g, tree, i, status, n_status) &&
		    (*first == OWNERS_NO_NODE || tree->rows[i].depth > depth)) {
			*first = tree->rows[i].node;
			depth = tree->rows[i].depth;
		}
	return *first == OWNERS_NO_NODE;
}

size_t owners_tree_state_not_ready_holders(uint32_t *nodes, const struct owners_graph *g,
					   const struct owners_tree *tree,
					   const struct owners_object_status *status,
					   size_t n_status)
{
	unsigned char *bad; /* bad[d]: a row not ready at depth d or below, since the last row above d */
	size_t i, k, n = 0, max_depth = 0;

	if (!status || !tree->count)
		return 0;
	for (i = 0; i < tree->count; i++)
		if (tree->rows[i].depth > max_depth)
			max_depth = tree->rows[i].depth;
	if (!(bad = calloc(max_depth + 2, 1)))
		return 0;
	/* Backwards, a row's subtree (the rows after it, deeper) is seen
	 * before the row itself: bad[d + 1] then says whether any of it is
	 * not ready. */
	for (i = tree->count; i-- > 0;) {
		uint32_t d = tree->rows[i].depth, node = tree->rows[i].node;
		int not_ready = !row_ready(g, tree, i, status, n_status);

		if (not_ready && !bad[d + 1]) {
			for (k = 0; k < n && nodes[k] != node; k++)
				;
			if (k == n)
				nodes[n++] = node;
		}
		bad[d] |= not_ready || bad[d + 1];
		bad[d + 1] = 0;
	}
	free(bad);
	/* found last to first: put them in the tree's order */
	for (i = 0; i < n / 2; i++) {
		uint32_t t = nodes[i];

		nodes[i] = nodes[n - 1 - i];
		nodes[n - 1 - i] = t;
	}
	return n;
}

/* A column's value that says something ("-" and "" do not). */
static int said(const char *v)
{
	return v && *v && strcmp(v, "-");
}

int owners_tree_state_not_ready_why(struct owners_buf *out, const struct owners_graph *g,
				    uint32_t node, const struct owners_object_status *status,
				    size_t n_status)
{
	const struct owners_node *n = &g->nodes[node];
	const struct owners_object_status *st = node < n_status && status ? &status[node] : NULL;
	int rc;

	if (n->virtual_)
		return owners_buf_adds(out, "not there");
	if (n->extras->deleted)
		return owners_buf_adds(out, "in deletion");
	if (!st || !st->ready)
		return owners_buf_adds(out, "no status read yet");
	if (!said(st->status))
		return said(st->ready) ? owners_buf_addf(out, "not ready (READY %s)", st->ready)
				       : owners_buf_adds(out, "not ready");
	rc = owners_buf_adds(out, st->status);
	if (!rc && said(st->ready) && strchr(st->ready, '/'))
		rc = owners_buf_addf(out, " (READY %s)", st->ready);
	return rc;
}

int owners_tree_state_gone(uint32_t *first, const struct owners_graph *g,
			   const struct owners_tree *tree)
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
