/*
 * Whether the cluster's garbage collector appears not to be running, from
 * evidence there is to read, said by `owners gc --dry-run`, `why` and
 * `finalizers`: work on the scanned graph that a running GC does within
 * seconds and that has been due for long (a foreground deletion with no
 * blocking dependent left, an orphan release, the dependents of an owner
 * in foreground deletion), and the controller-manager's leader lease
 * (kube-system/kube-controller-manager) when it can be read and has not
 * been renewed for long.
 */
#ifndef OWNERS_CMD_GC_EVIDENCE_H
#define OWNERS_CMD_GC_EVIDENCE_H

#include "collector_render.h"
#include "session.h"

/* Fills the lease fields of r, print.now set (lease_renewed stays 0 when
 * the lease cannot be read, lease_rc says why: no verdict from it). */
void gc_evidence_lease(struct session *s, struct owners_collector_render *r);

/* The evidence on the session's graph (every object of it), the backlog's
 * threshold being after_s seconds: render holds it for
 * owners_collector_render_seen_state() and the documents. */
struct gc_evidence {
	struct owners_collector *c;
	struct owners_collector_step *steps;
	struct owners_collector_render_backlog backlog;
	struct owners_collector_render render; /* borrows the above: do not copy e */
};
/* 0, or the exit code of a failure (out of memory); clear e either way. */
enum exit_code gc_evidence_read(struct gc_evidence *e, struct session *s, long after_s);
/* Says on stderr that the GC appears stopped, when the evidence says so. */
enum exit_code gc_evidence_tell(const struct gc_evidence *e);
void gc_evidence_clear(struct gc_evidence *e);
/* read, tell and clear: decides on the session's graph and says, on
 * stderr, that the GC appears stopped when the evidence says so, the
 * threshold being after_s seconds. Returns the exit code of a failure to
 * say it (out of memory), else 0. */
enum exit_code gc_evidence_say(struct session *s, long after_s);

#endif
