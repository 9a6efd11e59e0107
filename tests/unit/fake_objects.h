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

/* An object as one argument: FAKE_OBJECT(ns, name, uid) for a live one
 * without owners; its owner references next (n_refs, refs), and
 * .deleted, .n_fins, .fins when it is in deletion or has finalizers;
 * .rv for a resourceVersion other than "1". */
struct fake_object {
	const char *namespace_, *name, *uid;
	size_t n_refs;
	const struct owners_owner_ref_meta *refs;
	const char *deleted; /* NULL or "" for a live object */
	size_t n_fins;
	const char *const *fins;
	const char *rv; /* NULL: "1" */
};
#define FAKE_OBJECT(ns, name_, uid_, ...)                                                 \
	(&(const struct fake_object){ .namespace_ = (ns), .name = (name_), .uid = (uid_), \
				      __VA_ARGS__ })

/* Returns what owners_graph_add() returns, for a test that checks it. */
static inline int fake_object_try_add(struct owners_graph *g, const struct owners_resource *r,
				      const struct fake_object *o)
{
	struct owners_object_meta m;

	memset(&m, 0, sizeof(m));
	m.name = o->name;
	m.namespace_ = o->namespace_;
	m.uid = o->uid;
	m.resource_version = o->rv ? o->rv : "1";
	m.creation_timestamp = "2026-01-01T00:00:00Z";
	m.deletion_timestamp = o->deleted;
	m.finalizers = o->fins;
	m.n_finalizers = o->n_fins;
	m.owner_refs = o->refs;
	m.n_owner_refs = o->n_refs;
	return owners_graph_add(g, r, &m);
}

/* Returns the object's node (OWNERS_NO_NODE when it could not be added). */
static inline uint32_t fake_object_add(struct owners_graph *g, const struct owners_resource *r,
				       const struct fake_object *o)
{
	if (fake_object_try_add(g, r, o))
		printf("# cannot add %s\n", o->name);
	return owners_graph_find_uid(g, o->uid);
}

/* An object of a test's table: its kind (apiVersion from the test's
 * api_of()), name, UID, deletionTimestamp (NULL: live), and up to three
 * finalizers and ownerReferences (NULL-terminated when fewer). */
struct fake_obj {
	const char *kind, *name, *uid, *deleted;
	const char *finalizers[3];
	struct owners_owner_ref_meta refs[3];
};

/* A linked graph of objs over types, every type listed (the list of
 * refused_resource, when given, refused with 403 as to a user the GC is
 * not); ClusterRoles are cluster-scoped, every other object lives in
 * namespace "ns"; resourceVersion 7. */
static inline struct owners_graph *fake_graph_build(const struct owners_resource_table *types,
						    const struct fake_obj *objs, size_t n,
						    const char *(*api_of)(const char *kind),
						    const char *refused_resource)
{
	struct owners_graph *g = NULL;
	size_t i, k;

	owners_graph_new(&g, types);
	for (i = 0; i < types->count; i++) {
		int refused = refused_resource && !strcmp(types->items[i].resource, refused_resource);

		owners_graph_note_listing(g, &types->items[i], NULL, refused ? OWNERS_EFORBIDDEN : 0,
					  refused ? "forbidden" : NULL);
	}
	for (i = 0; i < n; i++) {
		struct owners_object_meta m;
		size_t nf = 0, nr = 0;

		memset(&m, 0, sizeof(m));
		m.name = objs[i].name;
		m.namespace_ = strcmp(objs[i].kind, "ClusterRole") ? "ns" : "";
		m.uid = objs[i].uid;
		m.resource_version = "7";
		m.deletion_timestamp = objs[i].deleted ? objs[i].deleted : "";
		for (k = 0; k < 3 && objs[i].finalizers[k]; k++)
			nf++;
		for (k = 0; k < 3 && objs[i].refs[k].uid; k++)
			nr++;
		m.finalizers = objs[i].finalizers;
		m.n_finalizers = nf;
		m.owner_refs = objs[i].refs;
		m.n_owner_refs = nr;
		owners_graph_add(g, owners_resource_by_gvk(types, api_of(objs[i].kind), objs[i].kind), &m);
	}
	owners_graph_link(g);
	return g;
}

#endif
