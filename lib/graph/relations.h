/*
 * The relations of owners(1) over the owner graph: who uses what, beside
 * who owns what. Each object read whole (a Pod, a workload, an Ingress,
 * a binding...) adds the uses it names (lib/api/uses.h), its selector
 * (a Service's, a PDB's, a NetworkPolicy's: lib/api/pod_selector.h) and
 * its marks. Resolving them against the graph finds each used object's
 * node, or says that it is missing (its type was listed there and it is
 * not in the list) or unknown (its type was not listed there, or is not
 * served): an unknown is never read as missing.
 *
 * A StatefulSet's claim templates resolve to the claims of its ordinals
 * that exist. A Service routes to the Pods its EndpointSlices name (the
 * slices are its dependents, and each uses its Pods); only a Service with
 * no slice at all selects Pods by its selector, as Kubernetes reads it.
 * A selector of a PDB or a NetworkPolicy selects Pods of its namespace.
 * Pods are matched by the labels the scan kept (keep_labels).
 *
 * Which types were read whole, and where, is noted as the scan notes its
 * lists: a user that could not be read is unknown, so that no command
 * takes an object as unused because its users could not be seen.
 *
 * Nothing here changes what the graph says about ownership.
 *
 * Ownership: the relations own their uses, selectors and notes
 * (owners_relations_clear()); the graph is borrowed and must outlive them.
 */
#ifndef OWNERS_RELATIONS_H
#define OWNERS_RELATIONS_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "json.h"
#include "pod_selector.h"
#include "uses.h"

enum owners_relation_state {
	OWNERS_RELATION_FOUND,   /* used: the object's node */
	OWNERS_RELATION_MISSING, /* its type was listed there, and it is not there */
	OWNERS_RELATION_UNKNOWN, /* its type was not listed there, or is not served */
};

struct owners_relation {
	uint32_t user; /* the node that uses */
	uint32_t used; /* FOUND: the node used; else OWNERS_NO_NODE */
	size_t use;    /* its use, in the relations' uses */
	enum owners_relation_state state;
};

/* A selector read, and whose. */
struct owners_relation_selector {
	uint32_t user;
	struct owners_pod_selector selector;
};

/* A type read whole (or not) where: namespace_ NULL for every namespace,
 * or a cluster-scoped type; rc 0 or the code the list failed with. */
struct owners_relation_read {
	const struct owners_resource *resource;
	char *namespace_;
	int rc;
	char *message;
};

struct owners_relations {
	struct owners_uses uses; /* the uses named, then those selectors made */
	size_t named;            /* how many of uses were named by the objects */
	uint32_t *user_of;       /* per use: the node that uses */
	size_t cap_user_of;
	struct owners_relation_selector *selectors;
	size_t n_selectors, cap_selectors;
	unsigned char *marks; /* per node: OWNERS_USES_MARK_*, of it or (a Service) of its slices */
	size_t cap_marks;
	struct owners_relation_read *reads;
	size_t n_reads, cap_reads;
	struct owners_relation *items; /* after owners_relations_resolve() */
	size_t count, cap;
	/* items' indexes by user, and (FOUND only) by the node used: each
	 * node's together, in one order (owners_relations_of()) */
	size_t *by_user, *by_used;
	size_t n_by_used;
};

void owners_relations_clear(struct owners_relations *rel);
/* Whether objects of type r name what they use or select Pods (the types
 * a command asking for relations reads whole). */
int owners_relations_type(const struct owners_resource *r);
/* Whether objects of group/kind can name an object of used_group/
 * used_kind (some fields name any kind: a resource backend, a scale
 * target). */
int owners_relations_may_use(const char *group, const char *kind, const char *used_group,
			     const char *used_kind);
/* Adds what object (read whole, of type r) uses, when its node (by
 * metadata.uid) is in g; an object not in g adds nothing. 0, or
 * OWNERS_ENOMEM. */
int owners_relations_add_object(struct owners_relations *rel, const struct owners_graph *g,
				const struct owners_resource *r,
				const struct owners_json_value *object);
/* Adds what node uses as read elsewhere (a snapshot's record): uses
 * (their strings copied), its selector (taken: *selector is left empty)
 * and its marks. 0, or OWNERS_ENOMEM. */
int owners_relations_add_read(struct owners_relations *rel, uint32_t node,
			      const struct owners_uses *uses, struct owners_pod_selector *selector,
			      unsigned marks);
/* Notes that r was read whole in ns (NULL: everywhere, or
 * cluster-scoped), or failed to be (rc, message copied). 0, or
 * OWNERS_ENOMEM. */
int owners_relations_note_read(struct owners_relations *rel, const struct owners_resource *r,
			       const char *ns, int rc, const char *message);
/* Whether r's objects in ns were read whole: OWNERS_LISTING_OK, FAILED
 * (which then says how) or NOT_LISTED. */
enum owners_listing_state owners_relations_read_state(const struct owners_relations *rel,
						      const struct owners_resource *r,
						      const char *ns,
						      const struct owners_relation_read **which);
/* Resolves every use and selector added against g, into rel->items, and
 * indexes them. 0, or OWNERS_ENOMEM. */
int owners_relations_resolve(struct owners_relations *rel, struct owners_graph *g);

/* The relations node takes part in: as the user (what it uses, FOUND or
 * not) or as the object used (its users). *out points at n item indexes,
 * in one order whatever order the objects were read in: by the other
 * end's kind, namespace, name and UID (a tree's children's order) (one that does not exist after, by
 * what it names), then relation and field path. */
size_t owners_relations_uses_of(const struct owners_relations *rel, uint32_t node,
				const size_t **out);
size_t owners_relations_users_of(const struct owners_relations *rel, uint32_t node,
				 const size_t **out);
/* Of the n relations at *at (an owners_relations_uses_of() or, by_used,
 * users_of() range), how many from the first have its other end: what
 * one object uses of another, together. */
size_t owners_relations_same_end(const struct owners_relations *rel, const struct owners_graph *g,
				 const size_t *at, size_t n, int by_used);
/* Whether node's selector (a Service's, a PDB's...) matches a Pod of its
 * namespace, whether or not the Pods were made its uses: 1, 0 (it has
 * none, or it matches none), or OWNERS_ENOMEM negated. */
int owners_relations_selects_any(const struct owners_relations *rel, const struct owners_graph *g,
				 uint32_t node);
/* The node's marks (OWNERS_USES_MARK_*), 0 when it was not read. */
unsigned owners_relations_marks(const struct owners_relations *rel, uint32_t node);

#endif
