/*
 * The JSON pieces every document of owners writes the same way: who an
 * object is, and what an ownerReference says. Each writes fields into the
 * map the caller has open, so a document adds its own fields around them.
 *
 * Ownership: the generator and the node or reference are borrowed.
 */
#ifndef OWNERS_NODE_JSON_H
#define OWNERS_NODE_JSON_H

#include "graph.h"
#include "json.h"

/* "kind", "apiVersion", "namespace" (only when namespaced), "name", "uid". */
int owners_node_json_identity(struct owners_json_gen *j, const struct owners_node *n);
/* "creationTimestamp", "deletionTimestamp" (null when not set) and
 * "finalizers" (only when there are some). */
int owners_node_json_lifecycle(struct owners_json_gen *j, const struct owners_node *n);
/* "apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion"
 * (false when not set) of a reference of graph g. */
int owners_ref_json_fields(struct owners_json_gen *j, const struct owners_graph *g,
			   const struct owners_ref *ref);

#endif
