/*
 * What is left in a namespace, counted by type from a graph that scanned
 * it: what `finalizers remove` checks before a namespace's `kubernetes`
 * finalizer goes (without it the namespace vanishes at once and leaves its
 * content in storage).
 *
 * Ownership: the content owns its array (owners_namespace_content_clear());
 * the resources are borrowed from the graph's table.
 */
#ifndef OWNERS_NAMESPACE_CONTENT_H
#define OWNERS_NAMESPACE_CONTENT_H

#include <stddef.h>

#include "buf.h"
#include "graph.h"

struct owners_type_count {
	const struct owners_resource *resource;
	size_t count;
};

struct owners_namespace_content {
	struct owners_type_count *types; /* by group, then resource */
	size_t n_types;
	size_t objects;                  /* the sum of the counts */
	size_t unlisted;                 /* namespaced types that could not be listed there */
};

/* Counts the observed objects of namespace ns in g. */
int owners_namespace_content_count(struct owners_namespace_content *out,
				   const struct owners_graph *g, const char *ns);
/* Appends "configmaps 2, secrets.v1 1" (kubectl's type names) to out. */
int owners_namespace_content_summary(struct owners_buf *out,
				     const struct owners_namespace_content *c);
void owners_namespace_content_clear(struct owners_namespace_content *c);

#endif
