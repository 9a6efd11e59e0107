/*
 * The garbage collector's loop, run from the client (`owners gc`): decide
 * what the GC would do to every object in scope (collector.c), confirm
 * every absence a decision rests on (absence_confirm.c), name the
 * deadlocks (deadlock.c), act (cascade_exec.c), scan again, until the GC
 * would do nothing more or the time is up; and with --watch, the same on
 * every change the caller's watches bring, until the caller stops it.
 *
 * The runner never prints: it tells its caller what happens as typed
 * events (struct owners_gc_runner_event) through a hook, and leaves the last
 * pass's decisions in place (c, steps, scope) for the caller to show.
 * Everything it needs from outside (a rescan, the cross-namespace
 * look-up, the selection, the permissions, the requests, the clock) is a
 * hook, so a unit test drives it with a fake cluster.
 *
 * Ownership: the runner owns its decisions, plan and sets
 * (owners_gc_runner_clear()); the world's graph belongs to the caller,
 * whose hooks may replace it.
 */
#ifndef OWNERS_GC_RUNNER_H
#define OWNERS_GC_RUNNER_H

#include <stddef.h>
#include <stdint.h>

#include "cascade.h"
#include "cascade_exec.h"
#include "collector.h"
#include "graph.h"
#include "http.h"
#include "owner_check.h"
#include "owners_error.h"
#include "strset.h"

/* The cluster as the caller last scanned (or watched) it. */
struct owners_gc_runner_world {
	struct owners_graph *graph;
	struct owners_http_client *http;  /* the changes */
	struct owners_http_client *reads; /* the owners' reads; NULL: http */
};

enum owners_gc_runner_event_kind {
	OWNERS_GC_RUNNER_EVENT_PASS_BEGUN,  /* pass, done, acting, elapsed_ms: its requests go out */
	OWNERS_GC_RUNNER_EVENT_CHANGED,     /* action, step: the server accepted it (a server dry run:
					would) */
	OWNERS_GC_RUNNER_EVENT_REFUSED,     /* action, result: FORBIDDEN (left in place from now on) or
					FAILED (the run stops after this pass) */
	OWNERS_GC_RUNNER_EVENT_OWNER_HELD,  /* nothing to act on, but owners missing from the scan are
					there (held references): scanning again (rescans) */
};

/* What happened, with its data; the pointers are valid during the event
 * hook only. */
struct owners_gc_runner_event {
	enum owners_gc_runner_event_kind kind;
	const struct owners_graph *graph;
	const struct owners_action *action;
	const struct owners_collector_step *step;          /* CHANGED: the decision acted on */
	const struct owners_action_result *result;  /* REFUSED */
	size_t pass, done, acting, held, rescans;
	int64_t elapsed_ms;                         /* since the run began */
};

struct owners_gc_runner_hooks {
	void *ctx;
	/* Whether an object of the scope's namespace is one the run acts on
	 * (-l); NULL: every one. */
	int (*selected)(void *ctx, const struct owners_node *n);
	/* A namespace's run, not watching: the objects in scope (nodes of
	 * w->graph), whose owners in other namespaces are looked up (which
	 * may add objects to the graph, out of scope). NULL: none. Nonzero
	 * stops the run. */
	int (*look_across)(void *ctx, struct owners_gc_runner_world *w, const uint32_t *nodes, size_t n);
	/* Scan again and update the world; nonzero stops the run. */
	int (*rescan)(void *ctx, struct owners_gc_runner_world *w);
	/* Before the first change, with the first pass's plan: nonzero stops
	 * the run with nothing changed (a missing permission). May be NULL. */
	int (*approve)(void *ctx, const struct owners_cascade_plan *p, struct owners_graph *g);
	void (*event)(void *ctx, const struct owners_gc_runner_event *e);
	/* Watching: sleeps until the watches bring a change (1), time for
	 * them to be served with none (0), or the run is to stop (-1: asked
	 * to, or the watches failed; the caller knows which). */
	int (*wait)(void *ctx, struct owners_gc_runner_world *w);
	/* The requests of a pass; NULL: owners_cascade_exec_plan() on w->http
	 * (a test answers them from a fake cluster). */
	int (*execute)(void *ctx, struct owners_graph *g, const struct owners_cascade_plan *p,
		       const struct owners_cascade_exec_options *o,
		       struct owners_action_result *results, struct owners_error *err);
	/* An owner read to confirm an absence; NULL: from the server
	 * (owner_check.h). */
	enum owners_owner_verdict (*read_owner)(void *ctx, const struct owners_node *dep,
						const struct owners_ref *ref, const char *uid);
	/* Milliseconds on a monotonic clock; NULL: owners_clock_ms(). */
	int64_t (*now_ms)(void *ctx);
};

enum owners_gc_runner_end {
	OWNERS_GC_RUNNER_CONVERGED, /* nothing left to do (a server dry run: its one pass sent) */
	OWNERS_GC_RUNNER_TIMED_OUT, /* what is left is in the runner's decisions */
	OWNERS_GC_RUNNER_FAILED,    /* an action failed (told as REFUSED) */
	OWNERS_GC_RUNNER_STOPPED,   /* a hook returned nonzero (watching: wait said stop) */
};

struct owners_gc_runner {
	/* set by the caller */
	const char *scan_ns; /* NULL: every namespace */
	long timeout_ms;     /* 0: none */
	int plan_only;       /* a client dry run: decided as listed, no owner read */
	int server_dry_run;  /* one pass, its requests with dryRun=All */
	/* the latest pass's decisions (owners_gc_runner_decide()) */
	struct owners_collector *c;
	struct owners_collector_step *steps;   /* graph->count entries */
	unsigned char *scope;           /* graph->count entries: 1 = acted on */
	size_t held;                    /* references whose owner, missing from the scan, is there */
	struct owners_cascade_plan plan;/* its actions */
	/* what the passes did */
	struct owners_strset forbidden; /* UIDs the server forbade changing */
	/* UIDs whose references the last pass unblocked (the cycle breaker):
	 * this pass is the GC's retry of their delete */
	struct owners_strset unblocked;
	size_t done, failed, passes;
	/* watching: uid -> resourceVersion acted on (not again until it changes) */
	int watching;
	struct owners_strset acted;
	/* set by the caller: when the run began (the clock's ms, see now_ms);
	 * the timeout and the events' elapsed_ms count from it */
	int64_t started_ms;
};

void owners_gc_runner_init(struct owners_gc_runner *r);
void owners_gc_runner_clear(struct owners_gc_runner *r);

/* One pass's decisions on the world as it is (no action sent): scope,
 * steps, held absences, deadlocks. 0; OWNERS_ENOMEM; or 1 when a hook
 * stopped it. */
int owners_gc_runner_decide(struct owners_gc_runner *r, struct owners_gc_runner_world *w, const struct owners_gc_runner_hooks *h);

/* The passes, until the GC would do nothing more (*end says how it
 * ended). Nonzero with err set when a request could not be made at all or
 * memory ran out. */
int owners_gc_runner_passes(enum owners_gc_runner_end *end, struct owners_gc_runner *r,
			 struct owners_gc_runner_world *w, const struct owners_gc_runner_hooks *h,
			 struct owners_error *err);

/* After the passes: acts on every change h->wait brings, each object's
 * version once, until h->wait says stop (*end STOPPED) or an action
 * fails (FAILED). Each pass's requests are all answered before the hook
 * is asked again. Nonzero with err set as for the passes. */
int owners_gc_runner_watch(enum owners_gc_runner_end *end, struct owners_gc_runner *r, struct owners_gc_runner_world *w,
		    const struct owners_gc_runner_hooks *h, struct owners_error *err);

#endif
