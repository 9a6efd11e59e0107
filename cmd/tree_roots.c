/*
 * The roots of a watched tree, each frame (tree_roots.h).
 */
#include "tree_roots.h"

#include <string.h>

#include "owners_error.h"
#include "strv.h"
#include "tree.h"

void tree_roots_clear(struct tree_roots *r)
{
	owners_selection_targets_free(r->targets);
	owners_selection_clear(&r->now);
	owners_strset_clear(&r->seen);
	owners_strv_free(r->seen_order, r->n_seen);
	owners_strv_free(r->gone, r->n_gone);
	memset(r, 0, sizeof(*r));
}

int tree_roots_open(struct tree_roots *r, const struct owners_selection_arg *args, size_t n_args,
		    const struct owners_selection_scope *scope)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	int rc;

	memset(r, 0, sizeof(*r));
	owners_strset_init(&r->seen);
	/* The arguments were checked by the first selection: this cannot
	 * fail but for memory. */
	rc = owners_selection_targets(&r->targets, &r->n_targets, args, n_args, scope, &err);
	owners_error_clear(&err);
	return rc ? OWNERS_ENOMEM : 0;
}

/* A root that was seen and is gone, while what hung from it is still
 * there: the view keeps it (virtual), so its dependents keep their place
 * and --until=gone waits for them. */
static int gone_with_dependents(const struct owners_graph *g, const char *uid, uint32_t *node)
{
	*node = owners_graph_find_uid(g, uid);
	return *node != OWNERS_NO_NODE && g->nodes[*node].virtual_ && g->nodes[*node].n_dependents;
}

/* Remembers a root found: its UID, in order, and its name for when it
 * goes. */
static int saw(struct tree_roots *r, const struct owners_graph *g, uint32_t node)
{
	const struct owners_node *n = &g->nodes[node];
	struct owners_buf name = OWNERS_BUF_INIT;
	int rc;

	if (owners_strset_get(&r->seen, OWNERS_NODE_UID(n)))
		return 0;
	/* One never there but as an owner named (virtual) is not said to
	 * be deleted when it goes: no name. */
	rc = n->virtual_ ? 0 : owners_graph_node_name(&name, n);
	if (!rc && !owners_strset_add(&r->seen, OWNERS_NODE_UID(n), n->virtual_ ? NULL : name.ptr))
		rc = OWNERS_ENOMEM;
	if (!rc)
		rc = owners_strv_push(&r->seen_order, &r->n_seen, &r->cap_seen,
				      owners_strdup(OWNERS_NODE_UID(n)));
	owners_buf_clear(&name);
	return rc;
}

/* The roots seen that are gone now, nothing of their tree left. */
static int find_gone(struct tree_roots *r, const struct owners_graph *g)
{
	size_t i;
	int rc = 0;

	owners_strv_free(r->gone, r->n_gone);
	r->gone = NULL;
	r->n_gone = r->cap_gone = 0;
	for (i = 0; !rc && i < r->n_seen; i++) {
		uint32_t node = owners_graph_find_uid(g, r->seen_order[i]);
		const struct owners_strset_entry *e;

		if (node != OWNERS_NO_NODE && (!g->nodes[node].virtual_ || g->nodes[node].n_dependents))
			continue;
		if ((e = owners_strset_get(&r->seen, r->seen_order[i])) && e->value)
			rc = owners_strv_push(&r->gone, &r->n_gone, &r->cap_gone, owners_strdup(e->value));
	}
	return rc;
}

struct match_ctx {
	const struct owners_graph *g;
	const struct owners_watch *w;
};

/* -l: what the selector's own watch says matches now. */
static int selected_now(void *ctx, unsigned char *marks, const struct owners_selection_target *t,
			struct owners_error *err)
{
	const struct match_ctx *m = ctx;
	uint32_t i;

	(void)t;
	(void)err;
	for (i = 0; i < m->g->count; i++)
		marks[i] = !m->g->nodes[i].virtual_ &&
			   owners_watch_selected(m->w, OWNERS_NODE_UID(&m->g->nodes[i]));
	return 0;
}

int tree_roots_find(struct tree_roots *r, struct owners_graph *g, const struct owners_watch *w,
		    const char *selector)
{
	struct match_ctx m = { g, w };
	const struct owners_selection_options o = {
		.missing = OWNERS_SELECTION_MISSING_IGNORED,
		.skip_listing_checks = 1,
		.match = selector ? selected_now : NULL,
		.match_ctx = &m,
	};
	struct owners_error err = OWNERS_ERROR_INIT;
	size_t i, k;
	int rc;

	rc = owners_selection_find(&r->now, g, r->targets, r->n_targets, &o, &err);
	owners_error_clear(&err);
	/* Roots that were there keep their place when they go (--until=gone
	 * waits for their dependents too). */
	for (i = 0; !rc && i < r->now.count; i++)
		rc = saw(r, g, r->now.nodes[i]);
	/* in the order they were first seen (the selection's, node order),
	 * not the hash table's */
	for (k = 0; !rc && k < r->n_seen; k++) {
		const char *uid = r->seen_order[k];
		uint32_t node;

		if (uid && gone_with_dependents(g, uid, &node))
			rc = owners_selection_add(&r->now, node);
	}
	if (!rc)
		rc = find_gone(r, g);
	return rc;
}

int tree_roots_fold(struct owners_selection *sel, struct owners_graph *g,
		    const struct owners_object_arg *objs, size_t n_objs, int up)
{
	size_t i;

	for (i = 0; i < n_objs; i++)
		if (objs[i].name)
			return 0;
	return owners_tree_fold_roots(sel->nodes, &sel->count, g, up);
}
