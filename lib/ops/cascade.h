/*
 * Client-side cascading deletion, planned the way the garbage collector
 * decides (pkg/controller/garbagecollector: attemptToDeleteItem,
 * classifyReferences, processDeletingDependentsItem, orphanDependents).
 *
 * The rule it keeps: it never deletes or patches an object that the GC, in
 * the same situation, would not, and never in an earlier order than the GC
 * would. When the two differ, it does less.
 *
 * The planner is pure: given the current graph and the cascade's roots
 * (by UID) it says what can be done now. The caller acts, re-scans and
 * plans again until the plan is done. Nothing about the cascade's
 * progress lives in the process: everything is read back from the
 * cluster (deletionTimestamps, finalizers, references), so a run killed
 * at any point and started again plans the same remaining steps.
 *
 * Crash safety: an object of the cascade that has dependents in it is
 * deleted with the foregroundDeletion finalizer (in every mode but for a
 * background root), and that hold comes off only when no dependent blocks
 * it and every dependent in the cascade is itself in deletion. So at any
 * moment the chain from a root to whatever is left is visible in the
 * cluster, and a new run finds it from the root's name.
 *
 * References are classified as the GC's classifyReferences() does
 * (owners_graph_resolve_ref(): the apiVersion and kind mapped as its REST
 * mapper maps them, the owner looked up by name, then its UID compared):
 * one by an apiVersion/kind the server does not serve, a cluster-scoped
 * object's reference to a namespaced kind, or an owner the GC cannot look
 * up (its API group failed discovery, its list failed) is an error to the
 * GC, which then never deletes or patches that object; an owner whose list
 * this user may not read counts as alive (when in doubt, keep). The UID
 * only links: an object whose reference carries a member's UID is looked
 * at when that member goes, as the GC's graph looks at it.
 *
 * Membership (the set C of objects the cascade deletes): the roots, then
 * every object linked by UID to a member, all of whose references are into
 * C or dangling (absent, re-created under another UID, namespaced and found
 * only elsewhere, named otherwise than the object with that UID). An
 * object in deletion is never patched or deleted by the cascade (the GC
 * returns at once on it) but for the orphan releases, and it holds an
 * owner in foreground deletion for as long as it blocks it. A member that would be deleted with policy Orphan (a
 * root in orphan mode, or an object carrying the orphan finalizer, which
 * the GC honours) brings none of its dependents in: a reference to it
 * counts as alive.
 *
 * Releases, each once its owner is in deletion or gone (read back, never
 * assumed, so a refused DELETE leaves every reference as it was):
 *  - every object linked by UID to an orphaning member loses that
 *    reference, whatever the reference's class (the GC's
 *    orphanDependents), and then the orphan finalizer comes off;
 *  - an object outside C with a reference into C and another live owner
 *    loses its references into C once their owners are gone or wait for
 *    their dependents (attemptToDeleteItem with a solid owner).
 *
 * Each member's policy: a root's is the mode asked for; below the roots,
 * the member's own orphan or foregroundDeletion finalizer decides, as in
 * the GC (an explicit Background would make the apiserver drop it).
 *
 * Ownership: a plan owns its arrays; node indexes refer to the graph it
 * was planned on.
 */
#ifndef OWNERS_CASCADE_H
#define OWNERS_CASCADE_H

#include <stddef.h>
#include <stdint.h>

#include "finalizer_names.h"
#include "graph.h"

enum owners_cascade_mode {
	OWNERS_CASCADE_BACKGROUND,
	OWNERS_CASCADE_FOREGROUND,
	OWNERS_CASCADE_ORPHAN,
};

enum owners_action_kind {
	/* DELETE with propagationPolicy Background (a leaf, or background mode) */
	OWNERS_ACT_DELETE,
	/* enter foreground deletion: the server adds foregroundDeletion, or
	 * (apiserver GC off) we add it first, then DELETE */
	OWNERS_ACT_DELETE_FOREGROUND,
	/* enter orphan deletion, likewise with the orphan finalizer */
	OWNERS_ACT_DELETE_ORPHAN,
	/* remove one GC finalizer (foregroundDeletion or orphan) */
	OWNERS_ACT_REMOVE_FINALIZER,
	/* remove the references that point into the cascade */
	OWNERS_ACT_RELEASE,
	/* set blockOwnerDeletion to false on every reference of the object
	 * (the GC's cycle breaker, before a foreground delete) */
	OWNERS_ACT_UNBLOCK,
};

struct owners_action {
	enum owners_action_kind kind;
	uint32_t node;
	const char *finalizer;   /* REMOVE_FINALIZER */
	const char *why;         /* for the plan's printout */
};

/* Whom a waiting object waits on: its owners in the cascade, its
 * dependents (in the cascade or released), or someone else (a finalizer's
 * controller). A caller that cannot act on an object (403) uses this to
 * tell the waits that can never end from those that may. */
enum owners_wait_on {
	OWNERS_WAIT_ON_OWNERS,
	OWNERS_WAIT_ON_DEPENDENTS,
	OWNERS_WAIT_ON_OTHERS,
};

/* Sorts n actions in the node order of their objects (stably): what is
 * said and done in a round follows the cluster's state, not the order
 * the objects were listed in. */
struct owners_graph;
void owners_cascade_actions_sort(const struct owners_graph *g, struct owners_action *actions, size_t n);

/* What each object of the cascade is waiting for, when it waits. */
struct owners_cascade_wait {
	uint32_t node;
	enum owners_wait_on on;
	const char *why;         /* "finalizers: example.com/hold", "blocking dependents: 3" */
};

struct owners_cascade_plan {
	struct owners_action *actions;
	size_t n_actions;
	size_t cap_actions;
	struct owners_cascade_wait *waits;
	size_t n_waits;
	size_t cap_waits;
	unsigned char *member;   /* g->count entries: 1 = in the cascade (C) */
	unsigned char *released; /* g->count entries: 1 = not in C, loses references */
	unsigned char *root;     /* g->count entries: 1 = one of the roots */
	unsigned char *orphaning;/* g->count entries: 1 = deleted (if a member) with
				    policy Orphan: its dependents are released */
	size_t members_left;     /* members that still exist */
	size_t released_left;    /* released objects that still reference C */
	int done;                /* nothing exists any more that the cascade must remove */
};

struct owners_cascade_options {
	enum owners_cascade_mode mode;
	/* The apiserver adds the GC finalizers itself for Foreground/Orphan
	 * (its --enable-garbage-collector is on). */
	int server_gc;
	/* Where the GC would wait forever on objects that block their own
	 * deletion (a member already waiting for its dependents on an
	 * ownership cycle with its owner, or an object that lists itself as
	 * a blocking owner), do not count them as blocking (--force). */
	int break_cycles;
};

/* What a cascade grows from, by UID (every array borrowed). */
struct owners_cascade_seeds {
	const char *const *roots; /* the objects asked to be deleted */
	size_t n_roots;
	/* Objects an earlier round found in the cascade. One that is gone
	 * still joins its remaining dependents to the cascade (the GC may
	 * have removed a middle level already); one that exists is judged
	 * afresh. */
	const char *const *links;
	size_t n_links;
};

int owners_cascade_plan_make(struct owners_cascade_plan *out, struct owners_graph *g,
			     const struct owners_cascade_seeds *s,
			     const struct owners_cascade_options *o);
void owners_cascade_plan_clear(struct owners_cascade_plan *p);
/* Takes action i out of p (the order of the rest kept) and records its
 * object as waiting on its owners: one missing from the scan is there when
 * read (absence_confirm.c). 0 or OWNERS_ENOMEM. */
int owners_cascade_plan_hold(struct owners_cascade_plan *p, size_t i);

/* Whether this reference of dependent dep is removed now: its owner
 * orphans its dependents and is in deletion or gone, or (dep outside the
 * cascade, and not an object the GC gives up on) it points into the
 * cascade and its owner is gone or waits for its dependents. */
int owners_cascade_ref_released(const struct owners_cascade_plan *p, struct owners_graph *g,
				uint32_t dep, const struct owners_ref *ref);

/* Whether a member gets patched on its way out: it holds foregroundDeletion
 * or orphan while its dependents go or are released. */
int owners_cascade_member_patched(const struct owners_cascade_plan *p, struct owners_graph *g,
				  uint32_t node, enum owners_cascade_mode mode);

/* Whether node has a dependent that exists and is a member (member has
 * g->count entries, as a plan's): such an owner holds foregroundDeletion
 * while its dependents go. */
int owners_cascade_has_member_dependents(const struct owners_graph *g, const unsigned char *member,
					 uint32_t node);

/* Why the plan keeps an object that is not a member (what `owners tree`
 * says of its rows), as the membership rule above decides it. */
enum owners_cascade_kept {
	OWNERS_KEPT_NOT,            /* a member: the cascade deletes it */
	OWNERS_KEPT_UNRESOLVABLE,   /* *ref is one the GC never resolves (an unserved
				       kind, a cluster-scoped object's namespaced owner,
				       an owner it cannot look up): it never acts on it */
	OWNERS_KEPT_ANOTHER_OWNER,  /* *ref: an owner outside the cascade keeps it (one
				       this user cannot read counts as alive) */
	OWNERS_KEPT_ORPHANED,       /* *ref: a member that orphans its dependents */
	OWNERS_KEPT_OWNER_KEPT,     /* nothing links it to a member: its owners are kept */
	OWNERS_KEPT_GONE,           /* not there (an owner not found) */
};

/* Why node is not in the plan's cascade; *ref the reference that says it
 * (NULL for NOT, OWNER_KEPT and GONE), borrowed from the graph. */
enum owners_cascade_kept owners_cascade_why_kept(const struct owners_cascade_plan *p,
						 struct owners_graph *g, uint32_t node,
						 const struct owners_ref **ref);

const char *owners_cascade_mode_name(enum owners_cascade_mode m);
/* "background", "foreground", "orphan" (kubectl's --cascade words) to a
 * mode: 0, or OWNERS_EINVAL for any other word. */
int owners_cascade_mode_parse(const char *word, enum owners_cascade_mode *m);
/* The DeleteOptions propagationPolicy that deletes an object in mode m:
 * "Background", "Foreground", "Orphan". */
const char *owners_cascade_policy(enum owners_cascade_mode m);
const char *owners_action_name(enum owners_action_kind k);

#endif
