/*
 * Deadlocks: the objects no one, the garbage collector included, will
 * ever end, found on the collector's state (collector.h), and the least
 * change that ends each.
 *
 * An object in foreground deletion loses foregroundDeletion only once no
 * dependent blocks it (processDeletingDependentsItem); that is the only
 * way out of it the GC has. A set of objects is deadlocked when each of
 * them
 *  - exists, is in deletion and holds foregroundDeletion, and not
 *    orphan (attemptToOrphan would release its dependents, the blocking
 *    ones among them, and so unblock it), and
 *  - has a blocking dependent (a live reference to it, by UID, with
 *    blockOwnerDeletion not unblocked) that is itself in the set.
 * Then none of them ever goes: a member's blocking dependent goes only
 * once its own foregroundDeletion comes off, which waits on a member in
 * turn. Nothing the GC does changes a member's references: the cycle
 * breaker (attemptToDeleteItem's unblocking) and the stripping of
 * references act on objects not in deletion only, and a reference to a
 * member is released only by that member's orphaning. Which is why the
 * set is the largest one with these properties and no more: a member
 * whose only blocking dependents are outside it (live and about to be
 * deleted or unblocked by the GC, held by another controller's
 * finalizers, or in deletion itself but free to go) may go, and is not
 * named. Other finalizers on a member change nothing: foregroundDeletion
 * holds it however they end. An object in foreground deletion that waits
 * on a member (a root above a cycle) is a member too: it never ends
 * either.
 *
 * The way out is the least set of members ("breakers") whose
 * foregroundDeletion, taken off, leaves no deadlock among the rest (one
 * for a plain cycle); a member without other finalizers is preferred (it
 * goes at once; one with other finalizers stays until they are removed,
 * and blocks until then). The command for it:
 *   owners finalizers remove configmap/a -n NS --finalizer foregroundDeletion
 *
 * Ownership: owners_deadlocks_clear() frees what find() allocated; the
 * collector and its graph are borrowed.
 */
#ifndef OWNERS_DEADLOCK_H
#define OWNERS_DEADLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "collector.h"
#include "json.h"

struct owners_deadlock {
	uint32_t *members;     /* node indexes, in the node order (owners_graph_node_cmp) */
	size_t n_members;
	uint32_t *breakers;    /* members whose foregroundDeletion, removed, ends it */
	size_t n_breakers;
};

struct owners_deadlocks {
	struct owners_deadlock *items;
	size_t count;
	uint32_t *of;          /* per node: its deadlock's index, or OWNERS_NO_NODE; NULL when there are none */
};

/* Finds every deadlock on c's state. 0 or OWNERS_ENOMEM. */
int owners_deadlocks_find(struct owners_deadlocks *out, const struct owners_collector *c);
void owners_deadlocks_clear(struct owners_deadlocks *d);
/* The deadlock node is a member of, or NULL. d may be NULL. */
const struct owners_deadlock *owners_deadlocks_of(const struct owners_deadlocks *d, uint32_t node);
/* Turns the WAIT (blocking-dependents) steps of every member into WAIT
 * (deadlock). */
void owners_deadlocks_mark(const struct owners_deadlocks *d, struct owners_collector_step *steps);
/* Finds the deadlocks on c's state into c->deadlocks (the collector
 * frees them) and marks steps (a plan made on that state; may be NULL).
 * 0 or OWNERS_ENOMEM. */
int owners_deadlocks_attach(struct owners_collector *c, struct owners_collector_step *steps);

/* "configmap/a, configmap/b" (kubectl's names), in the node order. */
int owners_deadlock_members_text(struct owners_buf *out, const struct owners_graph *g,
				 const struct owners_deadlock *d);
/* The command that ends it: 'owners finalizers remove TYPE/NAME... [-n NS]
 * --finalizer foregroundDeletion', one per namespace, joined with " && ",
 * each spelled with program (lib/core/command_line.h; NULL: owners). */
int owners_deadlock_command(struct owners_buf *out, const char *program, const struct owners_graph *g,
			    const struct owners_deadlock *d);
/* owners_deadlock_explain()'s sentence without its command, for a caller
 * that prints one remedy for several deadlocks. */
int owners_deadlock_describe(struct owners_buf *out, const struct owners_graph *g,
			     const struct owners_deadlock *d);
/* One sentence: "deadlock: configmap/a, configmap/b each wait for
 * another of them to go (foreground deletion, blockOwnerDeletion): the
 * garbage collector never ends it; to end it, run: COMMAND". */
int owners_deadlock_explain(struct owners_buf *out, const char *program, const struct owners_graph *g,
			    const struct owners_deadlock *d);
/* "deadlock": {"members": [{apiVersion, kind, namespace, name, uid}...],
 * "command": "owners finalizers remove ..."}, a key and its map. 0 or
 * OWNERS_ENOMEM. */
int owners_deadlock_json(struct owners_json_gen *j, const struct owners_graph *g,
			 const struct owners_deadlock *d);

#endif
