/*
 * The garbage collector's whole job, decided from the client: for every
 * object of a scanned graph, what the cluster's GC
 * (pkg/controller/garbagecollector) would do to it now, and what it
 * reaches once its passes settle.
 *
 * The three handlers, as the GC runs them on an object:
 *  - processDeletingDependentsItem, for an object in deletion with
 *    foregroundDeletion: its finalizer comes off once no dependent blocks
 *    it (a dependent blocks while it exists and its reference to the
 *    object, by UID, has blockOwnerDeletion); until then it waits;
 *  - attemptToOrphan, for an object in deletion with orphan: every
 *    dependent (by UID) loses its references to the object, then the
 *    finalizer comes off;
 *  - attemptToDeleteItem, for an object with ownerReferences that is not
 *    in deletion: classifyReferences() looks each owner up by name (in
 *    the object's namespace when namespaced) and compares the UID, and
 *    gives up on the whole object at the first reference it cannot look
 *    up (an unserved apiVersion/kind, a namespaced owner of a
 *    cluster-scoped object, an owner in a group that failed discovery).
 *    With a solid owner (found, same UID, not in foreground deletion) the
 *    dangling references and those to owners in foreground deletion are
 *    patched out; else, with an owner in foreground deletion and
 *    dependents of its own, the object is deleted in the foreground (and
 *    when one of those dependents is itself in foreground deletion, the
 *    cycle breaker first sets blockOwnerDeletion false on its
 *    references); else it is deleted with the policy its own finalizers
 *    say (orphan: Orphan, foregroundDeletion: Foreground, else
 *    Background). Any other object in deletion is left alone.
 *
 * An owner this user may not list (the GC can) is "undecided": alive for
 * every decision that would delete or strip because of it, reported, and
 * never guessed.
 *
 * The state is the graph as scanned plus what the passes changed, so that
 * settling (owners_collector_settle()) runs the same decisions on the
 * apiserver's answers to them (a DELETE without finalizers left removes
 * the object; Foreground and Orphan put their finalizer on) until
 * nothing changes: the GC's eventual outcome for every object, with the
 * object it comes through.
 *
 * Ownership: a collector owns its arrays (owners_collector_free()); it
 * borrows the graph, which must outlive it and not change under it.
 */
#ifndef OWNERS_COLLECTOR_H
#define OWNERS_COLLECTOR_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"

struct owners_deadlocks;

enum owners_collector_handler {
	OWNERS_COLLECTOR_ATTEMPT_TO_DELETE,       /* attemptToDeleteItem */
	OWNERS_COLLECTOR_DELETING_DEPENDENTS,     /* processDeletingDependentsItem */
	OWNERS_COLLECTOR_ATTEMPT_TO_ORPHAN,       /* attemptToOrphan */
};
/* The GC's own function names. */
const char *owners_collector_handler_name(enum owners_collector_handler h);

enum owners_collector_step_kind {
	OWNERS_COLLECTOR_STEP_NONE,
	OWNERS_COLLECTOR_STEP_DELETE,             /* DELETE with `policy` */
	OWNERS_COLLECTOR_STEP_STRIP,              /* references patched out (dangling or waiting) */
	OWNERS_COLLECTOR_STEP_UNBLOCK,            /* the cycle breaker: blockOwnerDeletion false */
	OWNERS_COLLECTOR_STEP_REMOVE_FOREGROUND,  /* foregroundDeletion comes off */
	OWNERS_COLLECTOR_STEP_RELEASE_DEPENDENTS, /* dependents lose their references to it */
	OWNERS_COLLECTOR_STEP_REMOVE_ORPHAN,      /* orphan comes off */
	OWNERS_COLLECTOR_STEP_WAIT,               /* nothing the GC does now: `wait` says why */
};
/* "delete", "remove-references", "unblock-references",
 * "remove-finalizer", "release-dependents", "wait", "none". */
const char *owners_collector_step_name(enum owners_collector_step_kind k);

enum owners_collector_policy {
	OWNERS_COLLECTOR_POLICY_BACKGROUND,
	OWNERS_COLLECTOR_POLICY_FOREGROUND,
	OWNERS_COLLECTOR_POLICY_ORPHAN,
};
/* "Background", "Foreground", "Orphan" (DeleteOptions.propagationPolicy). */
const char *owners_collector_policy_name(enum owners_collector_policy p);

enum owners_collector_wait_kind {
	OWNERS_COLLECTOR_WAIT_FINALIZERS,  /* in deletion: other controllers' finalizers hold it */
	OWNERS_COLLECTOR_WAIT_BLOCKING,    /* foreground: `count` dependents still block it */
	OWNERS_COLLECTOR_WAIT_GIVES_UP,    /* the GC cannot classify reference `ref`: nothing, ever (or
				       until the group it names is served again) */
	OWNERS_COLLECTOR_WAIT_UNDECIDED,   /* reference `ref` names an owner this user cannot see */
	OWNERS_COLLECTOR_WAIT_OWNER_LIVE,  /* reference `ref`'s owner, missing from the scan, was read
				       from the server and is there: decided again on the next scan */
	OWNERS_COLLECTOR_WAIT_DEADLOCK,    /* foreground, blocked by objects that wait on it in turn:
				       never ends (deadlock.h; set by owners_deadlocks_attach()) */
};
/* "finalizers", "blocking-dependents", "gives-up", "undecided", "owner-exists", "deadlock". */
const char *owners_collector_wait_name(enum owners_collector_wait_kind k);

/* What the GC does to one object now. */
/* 16 bytes: a plan holds one for every object, and a client dry run two
 * plans at once (the pass it shows and the passes it foresees). */
struct owners_collector_step {
	enum owners_collector_step_kind kind : 8;
	enum owners_collector_handler handler : 8;
	enum owners_collector_policy policy : 8;  /* DELETE */
	enum owners_collector_wait_kind wait : 7; /* WAIT */
	/* DELETE: no owner resolves (0) or an owner waits for its dependents
	 * (1: then `owner` is it) */
	unsigned for_waiting_owner : 1;
	/* the owner the decision hinges on: a waiting owner (DELETE in the
	 * foreground, STRIP), the solid owner that keeps it (STRIP), the
	 * dependent in foreground deletion (UNBLOCK); OWNERS_NO_NODE if none */
	uint32_t owner;
	uint32_t ref;                      /* WAIT gives-up/undecided: the reference */
	uint32_t count;                    /* STRIP: references; RELEASE: dependents;
					      WAIT blocking: dependents */
};

enum owners_collector_outcome_kind {
	OWNERS_COLLECTOR_OUTCOME_KEPT,       /* exists when the GC is done */
	OWNERS_COLLECTOR_OUTCOME_COLLECTED,  /* deleted by the GC (gone when done) */
	OWNERS_COLLECTOR_OUTCOME_DELETING,   /* in deletion when done: others' finalizers hold it */
};
const char *owners_collector_outcome_name(enum owners_collector_outcome_kind f); /* "kept", "collected", "in-deletion" */

/* An object's outcome once the GC's passes settle. */
struct owners_collector_outcome {
	enum owners_collector_outcome_kind kind : 8;
	/* the pass it went in (1: what the GC does now), 0 if not */
	unsigned pass : 24;
	/* the object whose going made it go: an owner collected in an earlier
	 * pass (its last owner), OWNERS_NO_NODE when it goes for what is
	 * there now */
	uint32_t through;
	/* KEPT: how many of its references the GC removes on the way */
	uint32_t refs_removed;
};

/* A node's state, one byte: a collector holds one for every object. */
struct owners_collector_node_state {
	unsigned char gone : 1;
	unsigned char deleting : 1;
	unsigned char fg : 1;     /* foregroundDeletion */
	unsigned char orphan : 1; /* orphan */
	unsigned char others : 1; /* finalizers other than the GC's */
	/* a RELEASE this pass (drop marks which references) */
	unsigned char release : 1;
	/* the GC's retry of its delete after the cycle breaker's patch (an
	 * UNBLOCK applied, or owners_collector_retry()) */
	unsigned char retried : 1;
};

/* A reference's state, two bytes. */
struct owners_collector_ref_state {
	unsigned char cls; /* enum owners_ref_class */
	unsigned char removed : 1;
	unsigned char unblocked : 1;
	unsigned char blind : 1; /* the GC cannot look its owner up either */
	unsigned char drop : 1;  /* removed by this pass's plan */
	/* an owner missing from the scan that a live read did not confirm
	 * gone (owners_collector_hold()): 1 there, 2 could not be read */
	unsigned char held : 2;
};

struct owners_collector {
	struct owners_graph *g;
	struct owners_collector_node_state *node; /* per node */
	uint32_t *first_ref;   /* index of the node's first reference below */
	/* per reference (first_ref[n] + i) */
	struct owners_collector_ref_state *ref;
	size_t n_refs;
	/* what owners_collector_foresee() settled: every node's outcome (NULL
	 * before) and the passes it took */
	struct owners_collector_outcome *ends;
	unsigned passes;
	/* what owners_deadlocks_attach() found (NULL before), owned */
	struct owners_deadlocks *deadlocks;
};

/* The owner reference k (first_ref[node] + i) resolves to: its owner's
 * node when the scan found it by name with the same UID (RESOLVED: the
 * UID's node is the one found), else OWNERS_NO_NODE. Derived, not kept:
 * four bytes a reference. */
static inline uint32_t owners_collector_found(const struct owners_collector *c, uint32_t node,
					      size_t k)
{
	return c->ref[k].cls == OWNERS_REF_RESOLVED
		       ? c->g->nodes[node].refs[k - c->first_ref[node]].owner
		       : OWNERS_NO_NODE;
}

/* Reads the graph (it is linked first) into c's state. */
int owners_collector_new(struct owners_collector **out, struct owners_graph *g);
/* node's references were unblocked by the last pass (the cycle breaker):
 * the GC's delete that followed its patch carried the resourceVersion
 * read before it and conflicted, so this pass is that delete's retry,
 * which comes after the owners whose wait the patch ended have left
 * foreground deletion (they are queued at once, the retry rate-limited). */
void owners_collector_retry(struct owners_collector *c, uint32_t node);
void owners_collector_free(struct owners_collector *c);

/* What the GC does now to every node, on c's state: steps has g->count
 * entries (virtual nodes and gone ones get NONE). It also marks, for this
 * pass, the references a STRIP or a release removes, and the objects
 * that lose some (c->release). */
void owners_collector_plan(struct owners_collector *c, struct owners_collector_step *steps);
/* Where the GC's passes settle, kept in c->ends and c->passes (what is
 * collected in the end, and after what). It does not change what plan()
 * does now: an object kept by a solid owner that is garbage itself has
 * its dangling references stripped at once, as the GC does, which
 * handles such an object as soon as a reference that makes it garbage
 * arrives, nearly always before that owner goes (gc.t saw the GC strip
 * in every build order). The passes run on c and its state is set back
 * to the graph's after: call it on a new collector, before anything
 * changes it (owners_collector_plan(), _apply(), _retry(), _hold()): a
 * plan made before is made again after. steps
 * (g->count of them, their contents left undefined) is room to plan in,
 * or NULL for its own. 0 or OWNERS_ENOMEM. */
int owners_collector_foresee(struct owners_collector *c, struct owners_collector_step *steps);
/* Applies step s (on node) to the state as the apiserver answers it. */
void owners_collector_apply(struct owners_collector *c, uint32_t node, const struct owners_collector_step *s);
/* Whether ref (one of node's) is removed by this pass's plan. */
int owners_collector_drops(const struct owners_collector *c, uint32_t node, const struct owners_ref *ref);
/* Whether reference i of node counts as dangling on c's state (absent,
 * re-created, not in the namespace, or its owner gone): what a DELETE,
 * STRIP or UNBLOCK of node may rest on. */
int owners_collector_ref_dangles(const struct owners_collector *c, uint32_t node, uint32_t i);
/* The owner of node's reference i was read from the server and is not
 * gone: alive (there: 1) or undecided (the read failed: 0) for every later
 * owners_collector_plan() on c, as the GC's isDangling() makes it. */
void owners_collector_hold(struct owners_collector *c, uint32_t node, uint32_t i, int there);
/* Whether a step changes something (not NONE, not WAIT). */
int owners_collector_step_acts(const struct owners_collector_step *s);

/* Every object's outcome: passes of decide-all-then-apply-all on a copy
 * of the state until one changes nothing (at most max_passes; 0 for no
 * limit). fates has g->count entries. *passes: how many passes changed
 * something. 0 or OWNERS_ENOMEM. */
int owners_collector_settle(struct owners_graph *g, struct owners_collector_outcome *fates, unsigned max_passes,
			    unsigned *passes);

#endif
