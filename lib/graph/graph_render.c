#include "graph_render.h"

#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "node_dot.h"
#include "document_json.h"
#include "node_json.h"
#include "sort.h"

int owners_graph_render_summary(struct owners_buf *out, struct owners_graph *g,
				const struct owners_graph_summary *s)
{
	(void)g;
	return owners_buf_addf(out,
			       "objects:              %zu\n"
			       "ownerReferences:      %zu\n"
			       "roots:                %zu\n"
			       "missing owners:       %zu\n"
			       "dangling references:  %zu\n"
			       "unknown references:   %zu\n"
			       "cycles:               %zu\n"
			       "stuck in deletion:    %zu\n",
			       s->objects, s->edges, s->roots, s->virtual_owners, s->dangling, s->unknown,
			       s->cycles, s->in_deletion);
}

/* The nodes in view, in the node order with the UID last (no two tie).
 * The graph holds them in the order the lists happened to finish, which
 * varies from run to run; the output must not. *out is the caller's to
 * free. */
struct view_node {
	const struct owners_node *n;
	uint32_t i;
};

static int cmp_view_nodes(const void *a, const void *b, void *ctx)
{
	return owners_graph_node_order(ctx, ((const struct view_node *)a)->i,
				       ((const struct view_node *)b)->i, 0);
}

static int nodes_in_view(struct view_node **out, uint32_t *count, struct owners_graph *g,
			 const char *ns)
{
	uint32_t i, n = 0;

	*out = NULL;
	*count = 0;
	if (!g->count)
		return 0;
	if (!(*out = malloc(sizeof(**out) * g->count)))
		return OWNERS_ENOMEM;
	for (i = 0; i < g->count; i++)
		if (owners_graph_in_scope(g, i, ns)) {
			(*out)[n].n = &g->nodes[i];
			(*out)[n++].i = i;
		}
	owners_qsort_r(*out, n, sizeof(**out), cmp_view_nodes, g);
	*count = n;
	return 0;
}

static int gen_object(struct owners_json_gen *j, struct owners_graph *g, uint32_t i)
{
	const struct owners_node *n = &g->nodes[i];
	uint32_t k;

	owners_json_gen_map_open(j);
	owners_document_object(j, g, n);
	owners_document_facts(j);
	owners_json_gen_kv_bool(j, "found", !n->virtual_);
	/* each of metadata.ownerReferences, in its order: how it resolves */
	owners_json_gen_string(j, "references");
	owners_json_gen_array_open(j);
	for (k = 0; k < n->n_refs; k++) {
		const struct owners_ref *ref = &n->refs[k];

		owners_json_gen_map_open(j);
		owners_json_gen_kv(j, "uid", OWNERS_REF_UID(g, ref));
		owners_json_gen_kv(j, "class", owners_ref_class_name(owners_graph_classify_ref(g, i, ref)));
		owners_json_gen_map_close(j);
	}
	owners_json_gen_array_close(j);
	owners_json_gen_kv_int(j, "dependentCount", n->n_dependents);
	owners_json_gen_map_close(j);
	owners_json_gen_map_close(j);
	return owners_json_gen_error(j);
}

int owners_graph_render_json(struct owners_buf *out, struct owners_graph *g, const char *ns,
			     const struct owners_graph_summary *s, const struct owners_scan_warning *warnings,
			     size_t n_warnings)
{
	struct owners_json_gen *j;
	struct view_node *order = NULL;
	uint32_t n = 0, i;
	int rc;

	if (owners_json_gen_new(&j, out, 1))
		return OWNERS_ENOMEM;
	if ((rc = nodes_in_view(&order, &n, g, ns)))
		goto out;
	owners_document_open(j, "OwnersGraph");
	if (ns)
		owners_json_gen_kv(j, "namespace", ns);
	owners_json_gen_string(j, "summary");
	owners_json_gen_map_open(j);
	owners_json_gen_kv_int(j, "objects", s->objects);
	owners_json_gen_kv_int(j, "ownerReferences", s->edges);
	owners_json_gen_kv_int(j, "roots", s->roots);
	owners_json_gen_kv_int(j, "missingOwners", s->virtual_owners);
	owners_json_gen_kv_int(j, "dangling", s->dangling);
	owners_json_gen_kv_int(j, "unknown", s->unknown);
	owners_json_gen_kv_int(j, "cycles", s->cycles);
	owners_json_gen_kv_int(j, "stuckInDeletion", s->in_deletion);
	owners_json_gen_map_close(j);
	owners_document_items(j);
	for (i = 0; i < n; i++)
		gen_object(j, g, order[i].i);
	owners_document_close(j, warnings, n_warnings);
	rc = owners_json_gen_error(j);
	if (!rc)
		rc = owners_buf_addc(out, '\n');
out:
	owners_json_gen_free(j);
	free(order);
	return rc;
}

int owners_graph_render_dot(struct owners_buf *out, struct owners_graph *g, const char *ns)
{
	struct view_node *order = NULL;
	uint32_t n_order = 0, o, k;
	int rc = nodes_in_view(&order, &n_order, g, ns);

	if (!rc)
		rc = owners_buf_adds(out, OWNERS_NODE_DOT_HEAD);
	for (o = 0; !rc && o < n_order; o++) {
		const struct owners_node *n = order[o].n;

		/* Objects that own nothing and are owned by nothing are noise here. */
		if (!n->n_refs && !n->n_dependents)
			continue;
		rc = owners_node_dot(out, n);
		for (k = 0; !rc && k < n->n_refs; k++)
			rc = owners_node_dot_edge(
				out, &g->nodes[n->refs[k].owner], n, n->refs[k].controller,
				owners_graph_classify_ref(g, order[o].i, &n->refs[k]) ==
					OWNERS_REF_RESOLVED);
	}
	if (!rc)
		rc = owners_buf_adds(out, OWNERS_NODE_DOT_TAIL);
	free(order);
	return rc;
}
