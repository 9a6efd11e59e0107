/* Marks over the graph's nodes (see graph_mark.h). */
#include <stdlib.h>
#include <string.h>

#include "graph_mark.h"

static int in_scope(const struct owners_node *n, const char *ns, int flags)
{
	if (n->virtual_)
		return 0;
	if (!*n->place->namespace_)
		return !ns || (flags & OWNERS_MARK_CLUSTER_SCOPED) ||
		       ((flags & OWNERS_MARK_OWN_NAMESPACE) && owners_graph_node_is_core(n, "namespaces") &&
			!strcmp(n->name, ns));
	return !ns || !strcmp(n->place->namespace_, ns);
}

void owners_graph_mark(unsigned char *marks, const struct owners_graph *g,
		       const struct owners_resource *r, const char *ns, int flags)
{
	uint32_t i;

	for (i = 0; i < g->count; i++) {
		const struct owners_node *n = &g->nodes[i];

		if (in_scope(n, ns, flags) && (!r || owners_resource_same_type(n->place->resource, r)))
			marks[i] = 1;
	}
}

size_t owners_graph_mark_absent(unsigned char *marks, const struct owners_graph *g,
				const struct owners_resource *r, const char *ns, const char *name)
{
	size_t found = 0;
	uint32_t i;

	for (i = 0; i < g->count; i++) {
		const struct owners_node *n = &g->nodes[i];

		if (n->virtual_ && n->place->resource == r && !strcmp(n->name, name) &&
		    !strcmp(n->place->namespace_, r->namespaced ? ns : "")) {
			marks[i] = 1;
			found++;
		}
	}
	return found;
}

int owners_graph_mark_list(uint32_t **out, size_t *n, const struct owners_graph *g,
			   const unsigned char *marks, int deleted_only)
{
	size_t cap = 0;
	uint32_t i;

	*out = NULL;
	*n = 0;
	for (i = 0; i < g->count; i++)
		if (marks[i] && (!deleted_only || g->nodes[i].extras->deleted) &&
		    owners_graph_node_list_push(out, n, &cap, i)) {
			free(*out);
			*out = NULL;
			*n = 0;
			return OWNERS_ENOMEM;
		}
	return 0;
}
