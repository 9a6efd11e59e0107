/*
 * Which objects a command is about: marks over the graph's nodes (one
 * byte per node), set by type and namespace, then read back as a list.
 * Commands pick their objects with these instead of walking the graph.
 *
 * Ownership: the caller owns the marks array (g->count bytes) and the
 * list owners_graph_mark_list() returns (free()).
 */
#ifndef OWNERS_GRAPH_MARK_H
#define OWNERS_GRAPH_MARK_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"

enum {
	/* cluster-scoped objects count too (whatever ns is) */
	OWNERS_MARK_CLUSTER_SCOPED = 1,
	/* and the Namespace object named ns */
	OWNERS_MARK_OWN_NAMESPACE = 2,
};

/* Marks every object the scan saw (not owners only referred to) of type r
 * (NULL: any) in namespace ns (NULL: any), as flags widen it. */
void owners_graph_mark(unsigned char *marks, const struct owners_graph *g,
		       const struct owners_resource *r, const char *ns, int flags);

/* Marks the owners referred to by type r, namespace ns ("" for cluster
 * scope) and name that the scan did not see (one per UID referred to): an
 * owner gone while dependents still point at it. Returns how many. */
size_t owners_graph_mark_absent(unsigned char *marks, const struct owners_graph *g,
				const struct owners_resource *r, const char *ns, const char *name);

/* The marked nodes in graph order; only those in deletion when
 * deleted_only. */
int owners_graph_mark_list(uint32_t **out, size_t *n, const struct owners_graph *g,
			   const unsigned char *marks, int deleted_only);

#endif
