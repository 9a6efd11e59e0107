#include "namespace_content.h"

#include <stdlib.h>
#include <string.h>

#include "api_path.h"
#include "grow.h"

static int by_type(const void *a, const void *b)
{
	const struct owners_type_count *x = a, *y = b;
	int c = strcmp(x->resource->group, y->resource->group);

	return c ? c : strcmp(x->resource->resource, y->resource->resource);
}

int owners_namespace_content_count(struct owners_namespace_content *out,
				   const struct owners_graph *g, const char *ns)
{
	size_t i, k, cap = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < g->count; i++) {
		const struct owners_node *n = &g->nodes[i];

		if (n->virtual_ || !*n->place->namespace_ || strcmp(n->place->namespace_, ns))
			continue;
		for (k = 0; k < out->n_types && out->types[k].resource != n->place->resource; k++)
			;
		if (k == out->n_types) {
			if (OWNERS_GROW(out->types, cap, out->n_types + 1)) {
				owners_namespace_content_clear(out);
				return OWNERS_ENOMEM;
			}
			out->types[k].resource = n->place->resource;
			out->types[k].count = 0;
			out->n_types++;
		}
		out->types[k].count++;
		out->objects++;
	}
	if (out->n_types)
		qsort(out->types, out->n_types, sizeof(*out->types), by_type);
	for (i = 0; i < g->n_listings; i++) {
		const struct owners_listing *l = &g->listings[i];

		if (l->rc && l->resource->namespaced && (!l->namespace_ || !strcmp(l->namespace_, ns)))
			out->unlisted++;
	}
	return 0;
}

int owners_namespace_content_summary(struct owners_buf *out,
				     const struct owners_namespace_content *c)
{
	size_t k;
	int rc = 0;

	for (k = 0; !rc && k < c->n_types; k++) {
		if (k)
			rc = owners_buf_adds(out, ", ");
		if (!rc)
			rc = owners_api_type_name(out, c->types[k].resource);
		if (!rc)
			rc = owners_buf_addf(out, " %zu", c->types[k].count);
	}
	return rc;
}

void owners_namespace_content_clear(struct owners_namespace_content *c)
{
	free(c->types);
	memset(c, 0, sizeof(*c));
}
