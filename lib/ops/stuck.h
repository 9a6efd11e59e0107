/*
 * Objects stuck in deletion, and why: what `owners finalizers` reports.
 *
 * An object is stuck when it has a deletionTimestamp and finalizers left
 * (for a Namespace, its spec.finalizers count too). Each finalizer is
 * explained from the owner graph and from a few facts the scan's metadata
 * does not carry (owners_stuck_facts, read by owners_stuck_fetch() in
 * stuck_fetch.h, or made up by a unit test):
 *
 *  - foregroundDeletion: the dependents whose ownerReference to the object
 *    has blockOwnerDeletion (the garbage collector's blockingDependents()),
 *    each explained in turn when it is itself stuck; none left: the GC has
 *    yet to remove the finalizer; a deadlock (deadlock.h) when they wait
 *    on it in turn, with the way out;
 *  - orphan: every dependent still referencing the object (the GC must
 *    remove those references first);
 *  - a Namespace's `kubernetes`: the content still in the namespace (by
 *    type, with the content stuck in deletion explained) and its status
 *    conditions that are True (content remaining, discovery failures...);
 *  - kubernetes.io/pvc-protection: the pods that mount the claim (from the
 *    pods' spec); kubernetes.io/pv-protection: the claim the volume is
 *    bound to;
 *  - anything else: its controller must remove it.
 *
 * Ownership: facts own their strings; the report owns its items and their
 * messages and borrows the graph (node indexes, interned names) and the
 * facts (conditions, pods), which must outlive it.
 */
#ifndef OWNERS_STUCK_H
#define OWNERS_STUCK_H

#include <stddef.h>
#include <stdint.h>

#include "owners_error.h"
#include "deadlock.h"
#include "finalizer_names.h"
#include "graph.h"
#include "pod_claims.h"

/* ---- facts beyond the scan's metadata ---------------------------------- */

struct owners_stuck_condition {
	char *type;
	char *status;
	char *reason;
	char *message;
};

/* A Namespace in deletion, read in full. */
struct owners_stuck_namespace {
	uint32_t node;
	char *error;                 /* the read failed: why (then nothing else is set) */
	char **spec_finalizers;
	size_t n_spec_finalizers;
	struct owners_stuck_condition *conditions; /* all of them, as the server lists them */
	size_t n_conditions;
	int content_listed;          /* its namespaced types were scanned */
};

/* The pods of one namespace (only those mounting a claim), read in full
 * because a PersistentVolumeClaim there is held by pvc-protection. */
struct owners_stuck_pods {
	const char *namespace_;      /* interned in the graph */
	char *error;
	struct owners_pod_claims pods;
};

/* A PersistentVolume held by pv-protection, read in full. */
struct owners_stuck_volume {
	uint32_t node;
	char *error;
	char *phase;                 /* status.phase */
	char *claim_namespace;       /* spec.claimRef, "" when none */
	char *claim_name;
};

struct owners_stuck_facts {
	struct owners_stuck_namespace *namespaces;
	size_t n_namespaces, cap_namespaces;
	struct owners_stuck_pods *pods;
	size_t n_pods, cap_pods;
	struct owners_stuck_volume *volumes;
	size_t n_volumes, cap_volumes;
};

void owners_stuck_facts_clear(struct owners_stuck_facts *f);
/* Appends a zeroed record and returns it (NULL when out of memory). */
struct owners_stuck_namespace *owners_stuck_facts_add_namespace(struct owners_stuck_facts *f,
								uint32_t node);
struct owners_stuck_pods *owners_stuck_facts_add_pods(struct owners_stuck_facts *f,
						      const char *namespace_);
struct owners_stuck_volume *owners_stuck_facts_add_volume(struct owners_stuck_facts *f,
							  uint32_t node);
const struct owners_stuck_namespace *owners_stuck_facts_namespace(const struct owners_stuck_facts *f,
								  uint32_t node);
const struct owners_stuck_pods *owners_stuck_facts_pods(const struct owners_stuck_facts *f,
							const char *namespace_);
const struct owners_stuck_volume *owners_stuck_facts_volume(const struct owners_stuck_facts *f,
							    uint32_t node);

/* Which kind of object a node is, for the rules above. */
int owners_stuck_is_namespace(const struct owners_node *n);
int owners_stuck_is_pvc(const struct owners_node *n);
int owners_stuck_is_pv(const struct owners_node *n);
/* A node has a metadata finalizer of that name. */
int owners_stuck_has_finalizer(const struct owners_node *n, const char *name);


/* ---- the explanation ----------------------------------------------------- */

enum owners_stuck_reason {
	OWNERS_STUCK_BLOCKING_DEPENDENTS,   /* foregroundDeletion: dependents block it */
	OWNERS_STUCK_DEPENDENTS_TO_RELEASE, /* orphan: dependents still reference it */
	OWNERS_STUCK_GARBAGE_COLLECTOR,     /* foregroundDeletion/orphan, nothing left: the GC must act */
	OWNERS_STUCK_NAMESPACE_CONTENT,     /* kubernetes: content remains */
	OWNERS_STUCK_NAMESPACE_CONTROLLER,  /* kubernetes: empty (as far as we see): the controller must act */
	OWNERS_STUCK_IN_USE,                /* pvc-protection: pods mount the claim */
	OWNERS_STUCK_BOUND,                 /* pv-protection: bound to a claim */
	OWNERS_STUCK_RELEASED,              /* a protection finalizer with nothing to protect any more */
	OWNERS_STUCK_CONTROLLER,            /* any other: its controller must remove it */
	OWNERS_STUCK_UNKNOWN,               /* the facts could not be read */
	OWNERS_STUCK_DEADLOCK,              /* foregroundDeletion: its blocking dependents wait on it
					       in turn, no one ends it (deadlock.h) */
};
/* "blocking-dependents", "dependents-to-release", "garbage-collector",
 * "namespace-content", "namespace-controller", "in-use", "bound",
 * "released", "controller", "unknown", "deadlock": the JSON words. */
const char *owners_stuck_reason_name(enum owners_stuck_reason r);

/* The namespace's content, by type. */
struct owners_stuck_content {
	const struct owners_resource *resource;
	size_t count;
	size_t stuck;                /* of them, in deletion with finalizers */
};

struct owners_stuck_finalizer {
	const char *name;            /* borrowed from the graph or the facts */
	int spec;                    /* a Namespace's spec.finalizers entry */
	enum owners_stuck_reason reason;
	char *message;               /* one sentence, no object names in it */
	/* blocking dependents, dependents to release, or the namespace's
	 * content stuck in deletion: graph nodes */
	uint32_t *objects;
	size_t n_objects;
	struct owners_stuck_content *content;
	size_t n_content;
	size_t content_objects;      /* total over content */
	size_t content_unlisted;     /* types that could not be listed there */
	const struct owners_stuck_condition **conditions; /* the True ones */
	size_t n_conditions;
	const struct owners_pod_claim_use **pods; /* pods referencing the claim */
	size_t n_pods;
	const struct owners_stuck_volume *volume; /* pv-protection */
	const struct owners_deadlock *deadlock;   /* DEADLOCK: its members and way out (the
						     report's) */
};

struct owners_stuck_item {
	uint32_t node;
	int top;                     /* asked for (not only reached from another item) */
	const char *error;           /* the object's facts could not be read (borrowed) */
	struct owners_stuck_finalizer *finalizers;
	size_t n_finalizers;
};

struct owners_stuck_report {
	struct owners_stuck_item *items;
	size_t count;
	size_t cap;
	uint32_t *item_of;           /* per graph node: item index + 1, 0 none */
	size_t n_item_of;
	/* the graph's deadlocks, found at the first foregroundDeletion explained */
	struct owners_deadlocks deadlocks;
	int deadlocks_found;
};

/* Whether a node is stuck: deletionTimestamp and finalizers left (metadata
 * ones, or for a Namespace its spec.finalizers from the facts; a Namespace
 * in deletion whose facts are missing counts as stuck: it cannot be told). */
int owners_stuck_is_stuck(const struct owners_graph *g, const struct owners_stuck_facts *f,
			  uint32_t node);

/* Explains node (which must be stuck) into the report as a top item, and,
 * recursively, every stuck object its explanation names (not top unless
 * asked for themselves). Asking twice is harmless. */
int owners_stuck_explain(struct owners_stuck_report *rep, struct owners_graph *g,
			 const struct owners_stuck_facts *f, uint32_t node);
/* Explains each of nodes that is stuck, then sorts the report; *stuck:
 * how many of nodes were. */
int owners_stuck_explain_each(struct owners_stuck_report *rep, size_t *stuck,
			      struct owners_graph *g, const struct owners_stuck_facts *f,
			      const uint32_t *nodes, size_t n);
/* Top items ordered by namespace, kind, name. */
void owners_stuck_sort(struct owners_stuck_report *rep, const struct owners_graph *g);
/* The item explaining a node, or NULL. */
const struct owners_stuck_item *owners_stuck_item_of(const struct owners_stuck_report *rep,
						     uint32_t node);
void owners_stuck_report_clear(struct owners_stuck_report *rep);

#endif
