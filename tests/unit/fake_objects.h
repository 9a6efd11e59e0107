/*
 * Unit tests: an object added to a graph in one call, as a list would
 * hand it over (resourceVersion 1, created 2026-01-01T00:00:00Z).
 * deleted "" for a live object.
 */
#ifndef OWNERS_TEST_FAKE_OBJECTS_H
#define OWNERS_TEST_FAKE_OBJECTS_H

#include <stdio.h>
#include <string.h>

#include "graph.h"

/* Returns what owners_graph_add() returns, for a test that checks it. */
static inline int fake_object_try_add(struct owners_graph *g, const struct owners_resource *r,
				      const char *ns, const char *name, const char *uid,
				      const char *deleted, size_t n_fins, const char *const *fins,
				      size_t n_refs, const struct owners_owner_ref_meta *refs)
{
	struct owners_object_meta m;

	memset(&m, 0, sizeof(m));
	m.name = name;
	m.namespace_ = ns;
	m.uid = uid;
	m.resource_version = "1";
	m.creation_timestamp = "2026-01-01T00:00:00Z";
	m.deletion_timestamp = deleted;
	m.finalizers = fins;
	m.n_finalizers = n_fins;
	m.owner_refs = refs;
	m.n_owner_refs = n_refs;
	return owners_graph_add(g, r, &m);
}

/* Returns the object's node (OWNERS_NO_NODE when it could not be added). */
static inline uint32_t fake_object_add(struct owners_graph *g, const struct owners_resource *r,
				       const char *ns, const char *name, const char *uid,
				       const char *deleted, size_t n_fins, const char *const *fins,
				       size_t n_refs, const struct owners_owner_ref_meta *refs)
{
	if (fake_object_try_add(g, r, ns, name, uid, deleted, n_fins, fins, n_refs, refs))
		printf("# cannot add %s\n", name);
	return owners_graph_find_uid(g, uid);
}

#endif
