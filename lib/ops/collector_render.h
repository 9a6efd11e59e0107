/*
 * What `owners gc` says about the garbage collector's backlog: the table
 * of what it would do now (one row per object it acts on or that waits),
 * the summary line, the evidence that the cluster's GC is not running,
 * and the OwnersGCBacklog document (-o json|yaml).
 *
 *   NAMESPACE  OBJECT        HANDLER              ACTION               SINCE  WHY
 *   ns         ConfigMap/c0  attemptToDeleteItem  delete (Background)  -      no owner resolves ...
 *
 * SINCE is how long the work has been due where the cluster says so: the
 * deletionTimestamp of the object (finalizers, releases) or of the owner
 * in foreground deletion that waits for it; "-" where it cannot be known
 * (an owner that is gone leaves no time behind).
 *
 * Ownership: appends to out; everything else is borrowed.
 */
#ifndef OWNERS_COLLECTOR_RENDER_H
#define OWNERS_COLLECTOR_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "print_options.h"
#include "buf.h"
#include "collector.h"

struct owners_json_gen;

/* The GC is judged stopped when work it does within seconds has been due
 * this long (seconds), unless told otherwise. */
#define OWNERS_COLLECTOR_RENDER_STALLED_AFTER 180

struct owners_collector_render_backlog {
	size_t deletions, strips, unblocks, finalizer_removals, releases; /* actions now */
	size_t waits, gives_up, undecided;                                 /* objects */
	size_t deadlocked;       /* objects waiting on a deadlock (deadlock.h) */
	int64_t oldest;          /* when the oldest due action became due (unix s), 0: none known */
	uint32_t oldest_node;    /* its object (of several due at once, the first in the node order) */
	/* where the passes settle (owners_collector_settle()) */
	size_t collected;        /* objects in scope the GC deletes in the end */
	unsigned passes;
};

/* When step s (on node) became due, as the cluster records it; 0: not known. */
int64_t owners_collector_render_step_due(const struct owners_graph *g, uint32_t node, const struct owners_collector_step *s);
/* Counts the steps of the nodes in scope (scope NULL: all). fates (may be
 * NULL) give the eventual counts. */
void owners_collector_render_backlog_count(struct owners_collector_render_backlog *b, const struct owners_graph *g,
			     const struct owners_collector_step *steps, const unsigned char *scope,
			     const struct owners_collector_outcome *fates, unsigned passes);
size_t owners_collector_render_backlog_actions(const struct owners_collector_render_backlog *b);
/* Whether the backlog says the GC is not running: an action due for
 * `after` seconds or more. */
int owners_collector_render_backlog_stalled(const struct owners_collector_render_backlog *b, int64_t now, int64_t after);

/* Why the GC does what it does to node, in words (appended). */
int owners_collector_render_step_reason(struct owners_buf *out, const struct owners_collector *c, uint32_t node,
			  const struct owners_collector_step *s);
/* "delete (Background)", "remove references (2)", "wait", ... */
int owners_collector_render_step_action_text(struct owners_buf *out, const struct owners_collector_step *s);

struct owners_collector_render {
	const struct owners_collector *c;
	const struct owners_collector_step *steps;
	const unsigned char *scope;  /* NULL: every node */
	const struct owners_collector_render_backlog *backlog;
	struct owners_print_options print; /* now, no_headers, warnings */
	int64_t stalled_after;       /* seconds: see owners_collector_render_backlog_stalled() */
	/* The controller-manager's leader lease: when it was last renewed, on
	 * print.now's clock (0: not known, lease_rc says why), and how long it
	 * holds unrenewed (leaseDurationSeconds): past that, no
	 * controller-manager leads, and none of its controllers runs. */
	int64_t lease_renewed;
	long lease_duration;
	int lease_rc;                /* 0, or why it could not be read (OWNERS_ENOTFOUND...) */
	int waits;                   /* rows for objects that wait, too */
};

/* What the evidence says of the cluster's garbage collector. */
enum owners_collector_render_seen {
	OWNERS_COLLECTOR_RENDER_SEEN_UNKNOWN,  /* no evidence either way (no lease read, no backlog long due) */
	OWNERS_COLLECTOR_RENDER_SEEN_RUNNING,  /* the controller-manager renews its lease */
	OWNERS_COLLECTOR_RENDER_SEEN_STOPPED,  /* work long due, or the lease expired */
};
/* "unknown", "running", "appears-stopped". */
const char *owners_collector_render_seen_name(enum owners_collector_render_seen s);
enum owners_collector_render_seen owners_collector_render_seen_state(const struct owners_collector_render *r);
/* That evidence in words, e.g. "the controller-manager's leader lease
 * was renewed 2s ago", "oldest pending action: 4m, ...", "the
 * controller-manager's leader lease (kube-system/kube-controller-manager)
 * cannot be read: forbidden" (appended). */
int owners_collector_render_evidence(struct owners_buf *out, const struct owners_collector_render *r);
/* "gcEvidence": {"state": owners_collector_render_seen_name(), "reason": the words above},
 * a key and its value inside a document's map. */
void owners_collector_render_evidence_json(struct owners_json_gen *j, const struct owners_collector_render *r);

/* The table, rows by namespace, kind and name; nothing when no rows. */
int owners_collector_render_text(struct owners_buf *out, const struct owners_collector_render *r);
/* One line: "12 deletions, 3 reference removals, 2 finalizer removals,
 * 0 unblocks, 1 release; 4 waiting (...); oldest due 18m (ns/kind/name);
 * when the GC is done: 40 objects collected in 3 passes". */
int owners_collector_render_summary(struct owners_buf *out, const struct owners_collector_render *r);
/* The sentence for a GC that appears stopped, with its evidence (the
 * oldest due action, the unrenewed lease), or nothing when it does not. */
int owners_collector_render_stalled(struct owners_buf *out, const struct owners_collector_render *r);
/* The OwnersGCBacklog document (see cmd/gc.c's schema). */
int owners_collector_render_json(struct owners_buf *out, const struct owners_collector_render *r);
/* -o name: the table's objects, "deployment.apps/web" one a line, as
 * kubectl delete takes them. */
int owners_collector_render_names(struct owners_buf *out, const struct owners_collector_render *r);

#endif
