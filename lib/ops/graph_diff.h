/*
 * What changed in ownership between two owner graphs, "before" (A) and
 * "after" (B): two snapshots of a cluster, or one and the cluster now.
 * Objects are the same object when their UIDs are; each graph was built
 * with its own types table (versions served may differ across an
 * upgrade), so types are compared by group and resource.
 *
 * The changes, per object:
 *  - it appeared (in B only) or went (in A only). Only where the other
 *    side could have seen it: its type listed there in its namespace
 *    (owners_graph_listing_state()), or not served there at all while its
 *    group's discovery did not fail (no such type, so no such object).
 *    An object the other side could not see is not compared, only
 *    counted (unseen_in_a, unseen_in_b): never guessed absent;
 *  - it entered deletion (deletionTimestamp set in B, not in A, or an
 *    object that appeared already in deletion);
 *  - a finalizer appeared or went;
 *  - an ownerReference (matched by the owner's UID) appeared or went: an
 *    adoption when the new one is the controller, a release when the one
 *    that went was; or its controller flag was set or cleared;
 *  - a reference in both went dangling (or an appeared object's reference
 *    is dangling): in B it classifies absent, uid-mismatch,
 *    invalid-namespace or unresolvable (owners_graph_classify_ref(), as
 *    owners dangling decides), in A it did not. An owner whose type B did
 *    not list is unknown there, never dangling; a reference dangling in A
 *    and resolved in B resolves again.
 *
 * When each began: `since` is the time it began (unix seconds) when the
 * objects say it (an appeared object's creationTimestamp, a deletion's
 * deletionTimestamp), exact; otherwise it happened between A's time and
 * B's, and `since` is the earliest it can have been (A's time, or the
 * object's creation when later), a bound; 0 when A's time is unknown.
 * Renderers count ages to B's time.
 *
 * Order: by the object's kind, its API group, namespace, name and UID
 * (B's copy when it has one), then by change in the order of enum
 * owners_diff_change, then by reference or finalizer.
 *
 * Ownership: the graphs are borrowed (and linked, and their name indexes
 * built, by owners_graph_diff_run()) and must outlive the result; the
 * result owns its array of changes (owners_graph_diff_clear()).
 */
#ifndef OWNERS_GRAPH_DIFF_H
#define OWNERS_GRAPH_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"

#define OWNERS_DIFF_NO_INDEX UINT32_MAX

enum owners_diff_change {
	OWNERS_DIFF_APPEARED,
	OWNERS_DIFF_WENT,
	OWNERS_DIFF_DELETION_STARTED,
	OWNERS_DIFF_FINALIZER_ADDED,
	OWNERS_DIFF_FINALIZER_REMOVED,
	OWNERS_DIFF_ADOPTED,            /* a controller reference appeared */
	OWNERS_DIFF_RELEASED,           /* a controller reference went */
	OWNERS_DIFF_REFERENCE_ADDED,    /* another reference appeared */
	OWNERS_DIFF_REFERENCE_REMOVED,  /* another reference went */
	OWNERS_DIFF_CONTROLLER_SET,     /* a reference in both: now the controller */
	OWNERS_DIFF_CONTROLLER_CLEARED, /* a reference in both: no longer the controller */
	OWNERS_DIFF_WENT_DANGLING,
	OWNERS_DIFF_RESOLVES_AGAIN,
};

struct owners_diff_item {
	enum owners_diff_change change;
	uint32_t node_a, node_b; /* the object in A and in B; OWNERS_NO_NODE where it is not */
	/* the reference (index into the object's refs) in A and in B;
	 * OWNERS_DIFF_NO_INDEX where it is not, or for a change of no
	 * reference */
	uint32_t ref_a, ref_b;
	/* FINALIZER_*: the finalizer (interned in the graph that has it) */
	const char *finalizer;
	/* references: how each side classifies it (where it has it) */
	enum owners_ref_class class_a, class_b;
	int64_t since;           /* see above; 0 unknown */
	int since_exact;         /* since is when it began, not a bound */
};

/* One side: its graph, and its time (a snapshot's, or the clock's for
 * the live cluster; 0 unknown). */
struct owners_graph_diff_side {
	struct owners_graph *g;
	int64_t now;
	/* Its types are only those of the objects it holds (a dump, without
	 * discovery): a type it does not have is not seen there, never
	 * empty. */
	int types_from_objects;
};

/* Which objects are compared: an object is when want says so of it on
 * either side that has it (a label it lost still puts it in); NULL:
 * every object. */
typedef int (*owners_graph_diff_want_fn)(void *ctx, const struct owners_graph *g, uint32_t node);

/* The objects of one kind not compared, by side (strings point into the
 * sides' graphs). */
struct owners_diff_unseen {
	const char *api_version;
	const char *kind;
	size_t in_a; /* objects of B that A could not have seen */
	size_t in_b; /* objects of A that B could not have seen */
};

struct owners_graph_diff {
	struct owners_graph_diff_side a, b;
	struct owners_diff_item *items;
	size_t count, cap;
	size_t unseen_in_a;  /* objects of B that A could not have seen */
	size_t unseen_in_b;  /* objects of A that B could not have seen */
	/* the same, per kind (its API group), in the order of kind then
	 * group: what the text and the document say could not be compared */
	struct owners_diff_unseen *unseen;
	size_t n_unseen, cap_unseen;
};

/* Compares a with b into out (zeroed first). 0, or OWNERS_ENOMEM with
 * out empty. */
int owners_graph_diff_run(struct owners_graph_diff *out, const struct owners_graph_diff_side *a,
			  const struct owners_graph_diff_side *b, owners_graph_diff_want_fn want,
			  void *want_ctx);
void owners_graph_diff_clear(struct owners_graph_diff *d);

/* The object a change is about: B's node when B has it, else A's, and
 * the graph it is in. */
const struct owners_node *owners_graph_diff_object(const struct owners_graph_diff *d,
						   const struct owners_diff_item *it,
						   const struct owners_graph **g);
/* The reference a change is about (B's when B has it), or NULL; with g,
 * the graph it is in. */
const struct owners_ref *owners_graph_diff_ref(const struct owners_graph_diff *d,
					       const struct owners_graph **g,
					       const struct owners_diff_item *it);
/* Stable names, as in the JSON document: "appeared", "went",
 * "deletion-started", "finalizer-added", "finalizer-removed", "adopted",
 * "released", "reference-added", "reference-removed", "controller-set",
 * "controller-cleared", "went-dangling", "resolves-again". */
const char *owners_diff_change_name(enum owners_diff_change c);

#endif
