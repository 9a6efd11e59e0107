/*
 * Why one object is (or is not) garbage-collected: what `owners why`
 * answers, decided from the owner graph the way the garbage collector
 * decides (attemptToDeleteItem, classifyReferences, isDangling,
 * processDeletingDependentsItem, orphanDependents), naming the rule.
 *
 * The verdict, for an object as it is now:
 *  - kept: one owner is solid (found by name where it must be, with the
 *    UID referenced, not waiting for its dependents' deletion) and stays
 *    so once the GC's passes settle (owners_collector_settle()), or the
 *    object has no ownerReferences at all;
 *  - collected, later: the solid owner is garbage itself; once the GC
 *    collects it (through `after`) the object has none left;
 *  - collected: every owner is dangling (absent, another UID, a
 *    namespaced owner only in another namespace) or waiting for its
 *    dependents' deletion: the GC deletes the object;
 *  - never: a reference the GC cannot resolve (unserved apiVersion/kind,
 *    or a namespaced owner of a cluster-scoped object) stops
 *    classifyReferences() with an error: nothing ever happens to it;
 *  - waiting: the object is in deletion and finalizers hold it (the GC's
 *    foregroundDeletion until its blocking dependents are gone, orphan
 *    until its dependents are released, or other controllers' ones);
 *  - deadlock: in foreground deletion, in a set of objects that block
 *    each other and that no one, the GC included, ever ends (deadlock.h):
 *    `deadlock` names them and the way out;
 *  - blind: an owner the GC cannot look up either (its API group failed
 *    discovery, its list failed), or one this user may not list (the GC
 *    can: the answer then depends on whether that owner exists).
 *
 * Besides the verdict: the owners up to the roots with their state, the
 * finalizers with who removes them (owners_stuck_explain() says what an
 * object in deletion waits for), what each --cascade would do to the
 * object if an owner (or the object itself, for its dependents) were
 * deleted now (the cascade planner, lib/ops/cascade.h, decides), the
 * dependents by kind, and the events the caller read (why_events.h).
 *
 * Ownership: an answer owns its arrays and messages (owners_why_clear());
 * it borrows the graph (node indexes, interned strings), the stuck report
 * and facts, which must outlive it.
 */
#ifndef OWNERS_WHY_H
#define OWNERS_WHY_H

#include <stddef.h>
#include <stdint.h>

#include "cascade.h"
#include "collector.h"
#include "deadlock.h"
#include "graph.h"
#include "stuck.h"

enum owners_why_verdict {
	OWNERS_WHY_KEPT,
	OWNERS_WHY_COLLECTED,
	OWNERS_WHY_NEVER,
	OWNERS_WHY_WAITING,
	OWNERS_WHY_BLIND,
	OWNERS_WHY_DEADLOCK,
};
/* "kept", "collected", "never-collected", "waiting", "blind", "deadlock". */
const char *owners_why_verdict_name(enum owners_why_verdict v);

/* One ownerReference on the way up: of the object (depth 1) or of an
 * owner of it (depth 2...). */
struct owners_why_owner {
	uint32_t node;              /* the owner (a virtual node when never observed) */
	uint32_t dependent;         /* the object whose reference this is */
	uint32_t ref;               /* index into the dependent's refs */
	unsigned depth;
	enum owners_ref_class class_;
	int gc_blind;               /* unknown to the GC too (owners_ref_resolution) */
	int solid;                  /* resolved and not waiting for its dependents' deletion */
	int blocks;                 /* resolved and the reference has blockOwnerDeletion: the
				       dependent holds the owner's foreground deletion */
};
/* "live", "in-deletion", or the class's name ("absent", "uid-mismatch",
 * "invalid-namespace", "unresolvable", "unknown"). */
const char *owners_why_owner_state(const struct owners_graph *g, const struct owners_why_owner *o);
/* How a node in deletion is being deleted: "foreground" (foregroundDeletion),
 * "orphan", "background" (other finalizers or none); NULL when it is not. */
const char *owners_why_deletion(const struct owners_node *n);

/* A finalizer on the object: who removes it, and what it waits for. */
struct owners_why_finalizer {
	const char *name;           /* borrowed */
	int spec;                   /* a Namespace's spec.finalizers entry */
	const char *remover;        /* "the garbage collector", ...; NULL: no controller known */
	const char *waits_for;      /* what it waits for, in general */
	/* In deletion: the explanation of the finalizers report (borrowed). */
	const struct owners_stuck_finalizer *now;
};

enum owners_why_outcome {
	OWNERS_WHY_OUTCOME_COLLECTED,
	OWNERS_WHY_OUTCOME_RELEASED,
	OWNERS_WHY_OUTCOME_KEPT,
};
const char *owners_why_outcome_name(enum owners_why_outcome o);

#define OWNERS_WHY_MODES 3 /* background, foreground, orphan (enum owners_cascade_mode) */

/* Deleting `root` now with each --cascade: what happens to the object
 * (root is an owner), or to its dependents (root is the object). */
struct owners_why_cascade {
	uint32_t root;
	int self;                   /* root is the object itself */
	enum owners_why_outcome outcome[OWNERS_WHY_MODES];  /* owner: the object's fate */
	size_t collected[OWNERS_WHY_MODES];                 /* self: its dependents' fates */
	size_t released[OWNERS_WHY_MODES];
	size_t kept[OWNERS_WHY_MODES];
	/* self: every object the delete removes, the object with its whole
	 * cascade (dependents of dependents too): what the delete would say */
	size_t removed[OWNERS_WHY_MODES];
};

struct owners_why_kind_count {
	const char *kind;           /* interned */
	size_t count;
};

struct owners_why {
	uint32_t node;
	enum owners_why_verdict verdict;
	char *rule;                 /* the GC's rule, in one sentence */
	uint32_t because;           /* index into owners deciding it, or OWNERS_NO_NODE */
	/* Collected only once the GC's passes reach it: the object whose
	 * going leaves it no solid owner (a node), else OWNERS_NO_NODE. */
	uint32_t after;
	struct owners_why_owner *owners;      /* breadth first: the object's own first */
	size_t n_owners, cap_owners;
	struct owners_why_finalizer *finalizers;
	size_t n_finalizers;
	struct owners_why_cascade *cascades;  /* each resolved owner of the object, then itself */
	size_t n_cascades;
	struct owners_why_kind_count *dependent_kinds;
	size_t n_dependent_kinds;
	size_t n_dependents;
	uint32_t *blocking;         /* dependents whose reference has blockOwnerDeletion */
	size_t n_blocking;
	/* deadlock: the one the object is in (into deadlocks), else NULL */
	struct owners_deadlocks deadlocks;
	const struct owners_deadlock *deadlock;
};

/* Explains node into out. stuck: the finalizers report with node
 * explained when it is stuck (owners_stuck_explain()), may be NULL when
 * it is not in deletion. 0 or OWNERS_ENOMEM. */
int owners_why_explain(struct owners_why *out, struct owners_graph *g,
		       const struct owners_stuck_report *stuck, uint32_t node);
void owners_why_clear(struct owners_why *w);

/* Who removes a finalizer and what it waits for (NULL remover: no
 * controller known to owners). spec: a Namespace's spec.finalizers. */
void owners_why_finalizer_known(const char *name, int spec, const char **remover,
				const char **waits_for);

#endif
