/*
 * The cascade's reconcile loop: plan (cascade.c), act (cascade_exec.c),
 * look at the cluster again, until the cascade is done, the time is up, or
 * something stops it. What the rounds remember lives in the track
 * (cascade_track.c); the roots are UIDs, everything else is read back from
 * the cluster each round, which makes an interrupted run resumable.
 *
 * The runner never prints: it tells its caller what happens through hooks,
 * and leaves the last plan in place when the caller has to show it (a
 * client dry run, a timeout).
 *
 * Ownership: the runner owns its track and its last plan
 * (owners_cascade_runner_clear()); the world's graph belongs to the caller,
 * whose rescan hook replaces it.
 */
#ifndef OWNERS_CASCADE_RUNNER_H
#define OWNERS_CASCADE_RUNNER_H

#include <stddef.h>

#include "cascade.h"
#include "cascade_exec.h"
#include "cascade_track.h"
#include "deadlock.h"
#include "owners_error.h"
#include "graph.h"
#include "http.h"
#include "owner_check.h"
#include "resource.h"

/* The cluster as the caller last scanned it. */
struct owners_cascade_runner_world {
	struct owners_http_client *http;
	const struct owners_resource_table *types;
	struct owners_graph *graph;
	size_t n_failures; /* types the latest scan could not list */
};

/* What the rounds tell the caller: the same words as the GC runner's
 * (gc_runner.h), a round where it has passes. */
enum owners_cascade_runner_event_kind {
	/* plan, deleted, acting: a round's requests go out (acting: how many) */
	OWNERS_CASCADE_RUNNER_EVENT_ROUND_BEGUN,
	/* change, type, name, namespace_: an object gone, orphaned or
	 * released; with a server dry run, an action the server accepted */
	OWNERS_CASCADE_RUNNER_EVENT_CHANGED,
	/* graph, action, result: an action the server refused: FORBIDDEN
	 * (left in place, the rest goes on) or FAILED (the run stops after
	 * this round) */
	OWNERS_CASCADE_RUNNER_EVENT_REFUSED,
};

/* What happened, with its data; the pointers are valid during the event
 * hook only. */
struct owners_cascade_runner_event {
	enum owners_cascade_runner_event_kind kind;
	const struct owners_cascade_plan *plan;
	size_t deleted, acting;
	enum owners_cascade_track_event change;
	const char *type; /* kubectl's ("deployment.apps") */
	const char *name;
	const char *namespace_; /* "" when cluster-scoped */
	const struct owners_graph *graph;
	const struct owners_action *action;
	const struct owners_action_result *result;
};

/* The caller's part of a run, by name (the GC runner's names where the
 * two do the same). */
struct owners_cascade_runner_hooks {
	void *ctx;
	/* Scan again, listing only the types owners_cascade_track_wants()
	 * accepts, and update the world; nonzero stops the run. */
	int (*rescan)(void *ctx, struct owners_cascade_runner_world *w,
		      const struct owners_cascade_track *t);
	/* Before the first change, with the first plan: nonzero stops the
	 * run with nothing changed (a missing permission). May be NULL. */
	int (*approve)(void *ctx, const struct owners_cascade_plan *p,
		       const struct owners_graph *g);
	/* What happens (above). May be NULL. */
	void (*event)(void *ctx, const struct owners_cascade_runner_event *e);
	/* The requests of a round; NULL: owners_cascade_exec_plan() on w->http
	 * (a test answers them from a fake cluster). */
	int (*execute)(void *ctx, struct owners_graph *g, const struct owners_cascade_plan *p,
		       const struct owners_cascade_exec_options *o,
		       struct owners_action_result *results, struct owners_error *err);
	/* An owner read to confirm an absence; NULL: from the server
	 * (owner_check.h). */
	enum owners_owner_verdict (*read_owner)(void *ctx, const struct owners_node *dep,
						const struct owners_ref *ref, const char *uid);
	/* Whether the caller was asked to stop (Ctrl-C, SIGTERM): looked at
	 * between rounds only, once a round's requests are all answered, so
	 * no change is left half made (a finalizer put on for a DELETE not
	 * yet sent). May be NULL. */
	int (*interrupted)(void *ctx);
};

enum owners_cascade_runner_end {
	OWNERS_CASCADE_RUNNER_DONE,       /* nothing left to do (or acted once: --wait=false) */
	OWNERS_CASCADE_RUNNER_INCOMPLETE, /* done, except objects the server forbade changing */
	OWNERS_CASCADE_RUNNER_PLANNED,    /* plan_only: the first plan is in runner->plan */
	OWNERS_CASCADE_RUNNER_TIMED_OUT,  /* what is left is in runner->plan */
	OWNERS_CASCADE_RUNNER_FAILED,     /* an action failed (told through refused) */
	OWNERS_CASCADE_RUNNER_STOPPED,    /* a hook returned nonzero */
	OWNERS_CASCADE_RUNNER_UNSEEN, /* it looks done, but the latest scan could not list a type
				  the first could: the end cannot be confirmed */
	OWNERS_CASCADE_RUNNER_INTERRUPTED, /* the interrupted hook said so: what is left is in
				   runner->plan, planned from a scan made after the
				   last round's requests */
	OWNERS_CASCADE_RUNNER_DEADLOCK, /* objects of the cascade are in a deadlock (deadlock.h) that
				  no one ends, and everything it does not block is done
				  (the plan has no action left): runner->deadlocks has
				  it, runner->plan what is left */
};

struct owners_cascade_runner {
	/* set by the caller */
	const char *const *roots; /* UIDs */
	size_t n_roots;
	struct owners_cascade_options plan_options; /* server_gc is found by a probe */
	struct owners_cascade_exec_options exec;
	long timeout_ms; /* 0: act once, do not wait */
	int wait;
	int plan_only;         /* a client dry run */
	size_t first_failures; /* types the first scan could not list */
	/* the run's state */
	struct owners_cascade_track track;
	struct owners_cascade_plan plan;
	int planned; /* plan holds a plan */
	int approved;
	int server_gc_known;
	/* objects the last round deleted or released (accepted): with
	 * --wait=false, what is left besides them */
	size_t last_round_done;
	/* the deadlocks of the latest scan, and in how many scans in a row
	 * one held an object of the cascade */
	struct owners_deadlocks deadlocks;
	unsigned deadlocked_rounds;
};

/* Whether deadlock d holds an object of the cascade (runner->plan's). */
int owners_cascade_runner_deadlock_ours(const struct owners_cascade_runner *r,
					const struct owners_deadlock *d);

/* After a run that did not wait (--wait=false): one scan more, a fresh
 * plan, and whether the cascade now waits on a deadlock (*found; then
 * runner->deadlocks has it and runner->plan what is left, as after
 * OWNERS_CASCADE_RUNNER_DEADLOCK). A deadlock is not waited out to be confirmed by a
 * second scan: nothing waits on it. 0, OWNERS_ENOMEM, or 1 when the
 * rescan hook stopped. */
int owners_cascade_runner_look_for_deadlock(struct owners_cascade_runner *r,
					    struct owners_cascade_runner_world *w,
					    const struct owners_cascade_runner_hooks *h,
					    int *found);

void owners_cascade_runner_init(struct owners_cascade_runner *r);
void owners_cascade_runner_clear(struct owners_cascade_runner *r);

/* Runs rounds until the run ends (*end says how). Nonzero with err set
 * when a request could not be made at all or memory ran out. */
int owners_cascade_runner_run(enum owners_cascade_runner_end *end, struct owners_cascade_runner *r,
			      struct owners_cascade_runner_world *w,
			      const struct owners_cascade_runner_hooks *h,
			      struct owners_error *err);

#endif
