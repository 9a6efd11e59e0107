/*
 * What a client-side cascade remembers from one round to the next (scan,
 * plan, act, scan again...), and the decisions it makes on the graph
 * between plan and action: the bookkeeping `owners delete` runs around
 * owners_cascade_plan_make() and owners_cascade_exec_plan().
 *
 *  - every member and released object seen, so that one gone (or no
 *    longer referring into the cascade) since the last round is reported
 *    once, and a middle level already removed still links what is below
 *    it (the links passed to the planner);
 *  - the objects the server forbade us to change: their actions are
 *    dropped (they stay; the run ends incomplete rather than retrying);
 *  - after the first round, the types worth listing again: those holding
 *    the cascade's objects, their owners and their dependents.
 *
 * Ownership: the track owns everything in it (owners_cascade_track_clear());
 * graphs and plans are borrowed for each call.
 */
#ifndef OWNERS_CASCADE_TRACK_H
#define OWNERS_CASCADE_TRACK_H

#include <stddef.h>
#include <stdint.h>

#include "cascade.h"
#include "strset.h"

enum owners_cascade_track_event {
	OWNERS_EVENT_DELETED,               /* a member is gone */
	OWNERS_EVENT_DELETED_AFTER_RELEASE, /* a released object is gone too */
	OWNERS_EVENT_ORPHANED,              /* released from an orphaning member, kept */
	OWNERS_EVENT_RELEASED,              /* released, kept: it has another owner */
	OWNERS_EVENT_DRY_RUN_DELETED,       /* server dry run: a DELETE accepted */
	OWNERS_EVENT_DRY_RUN_RELEASED,      /* server dry run: a release accepted */
};

/* type is kubectl's ("deployment.apps"), ns "" when cluster-scoped. */
typedef void (*owners_cascade_track_event_fn)(void *ctx, enum owners_cascade_track_event e,
					      const char *type, const char *name, const char *ns);

struct owners_cascade_track {
	struct owners_strset seen;      /* uid -> "type\tname\tnamespace" */
	struct owners_strset forbidden; /* uid -> (none) */
	unsigned char *relevant;        /* per type of the table; NULL until chosen */
	const struct owners_resource *types; /* the table relevant indexes */
	size_t n_types;
	char **links;                   /* borrowed from seen */
	size_t n_links;
	size_t deleted, released;       /* events reported so far */
	/* a foreground cascade: what goes in one round is reported dependents
	 * first, as the cascade removes them; otherwise owners first */
	int foreground;
};

void owners_cascade_track_init(struct owners_cascade_track *t);
void owners_cascade_track_clear(struct owners_cascade_track *t);

/* Remembers p's members and released objects in g, then reports (through
 * fn) every remembered one that is gone, or released and no longer
 * referring into the cascade, since the last round, in the cascade's
 * order (see foreground), whoever removed them. complete: the round's
 * lists all succeeded (a failed list only hides objects: no report then). */
int owners_cascade_track_round(struct owners_cascade_track *t, const struct owners_graph *g,
			       const struct owners_cascade_plan *p, int complete,
			       owners_cascade_track_event_fn fn, void *ctx);
/* Refreshes t->links: every member seen so far that links its dependents
 * (not released, not orphaning). */
int owners_cascade_track_links(struct owners_cascade_track *t);

/* The server forbade changing uid: its actions are dropped from now on. */
int owners_cascade_track_forbid(struct owners_cascade_track *t, const char *uid);
void owners_cascade_track_drop_forbidden(const struct owners_cascade_track *t,
					 const struct owners_graph *g, struct owners_cascade_plan *p);
/* With nothing to do now: whether every wait of p hangs on a forbidden
 * object, directly or through other waits (a pod waits for its
 * ReplicaSet, which waits for the forbidden Deployment), so that waiting
 * longer cannot help. A wait on someone else (a finalizer's controller)
 * may still end. */
int owners_cascade_track_hung(const struct owners_cascade_track *t, const struct owners_graph *g,
			      const struct owners_cascade_plan *p);

/* After the first round: the types that hold p's objects, their owners
 * and their dependents, out of types[0..n_types). A type outside them reads
 * as "not listed" later, which classifies as unknown: kept, never deleted. */
int owners_cascade_track_choose_types(struct owners_cascade_track *t, const struct owners_graph *g,
				      const struct owners_cascade_plan *p,
				      const struct owners_resource_table *types);
/* Whether r is one of them (everything before they are chosen). */
int owners_cascade_track_wants(const struct owners_cascade_track *t,
			       const struct owners_resource *r);

/* Whether released node n refers to a member that orphans its dependents
 * (orphaned, not kept by another owner). */
int owners_cascade_track_released_by_orphaning(const struct owners_graph *g,
					       const struct owners_cascade_plan *p, uint32_t n);
/* An object the server-GC probe can ask about: one about to enter
 * foreground/orphan deletion that does not hold that finalizer yet (one
 * that does, from a run killed between adding it and deleting, would make
 * any server look as if it added it). 1 with *node set, or 0. */
int owners_cascade_track_probe_candidate(const struct owners_cascade_plan *p,
					 const struct owners_graph *g, uint32_t *node);

#endif
