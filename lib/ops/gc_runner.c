/*
 * The garbage collector's passes and its watch (see gc_runner.h). A
 * pass: decide on the latest scan, plan one request per object, send
 * them, scan again.
 */
#include <stdlib.h>
#include <string.h>

#include "absence_confirm.h"
#include "clock.h"
#include "deadlock.h"
#include "gc_runner.h"
#include "grow.h"

/* nothing to do while owners missing from the scan are there: scans
 * again this many times at most (lists and watches catch up) */
#define HELD_RESCANS 3

void owners_gc_runner_init(struct owners_gc_runner *r)
{
	memset(r, 0, sizeof(*r));
	owners_strset_init(&r->forbidden);
	owners_strset_init(&r->acted);
	owners_strset_init(&r->unblocked);
}

static void decisions_clear(struct owners_gc_runner *r)
{
	owners_collector_free(r->c);
	free(r->steps);
	free(r->scope);
	r->c = NULL;
	r->steps = NULL;
	r->scope = NULL;
}

void owners_gc_runner_clear(struct owners_gc_runner *r)
{
	decisions_clear(r);
	free(r->plan.actions);
	r->plan.actions = NULL;
	r->plan.n_actions = r->plan.cap_actions = 0;
	owners_strset_clear(&r->forbidden);
	owners_strset_clear(&r->acted);
	owners_strset_clear(&r->unblocked);
}

static int64_t now_ms(const struct owners_gc_runner_hooks *h)
{
	return h->now_ms ? h->now_ms(h->ctx) : owners_clock_ms();
}

static void tell(const struct owners_gc_runner_hooks *h, struct owners_gc_runner_event *e)
{
	if (h->event)
		h->event(h->ctx, e);
}

/* ---- deciding ------------------------------------------------------------ */

static int in_scope(const struct owners_gc_runner *r, const struct owners_gc_runner_hooks *h,
		    const struct owners_node *node)
{
	if (node->virtual_ || (r->scan_ns && strcmp(node->place->namespace_, r->scan_ns)))
		return 0;
	return !h->selected || h->selected(h->ctx, node);
}

/* The objects the run acts on: those of the namespace (all without one),
 * selected. Owners are read wherever the GC reads them: in a namespace's
 * run, the look-up across namespaces adds their objects to the graph (out
 * of scope). Watching, the graph is the watches': nothing is added to it
 * (the look-up only names a class, absent or invalid-namespace, and both
 * dangle alike for a namespaced object). */
static int choose_scope(struct owners_gc_runner *r, struct owners_gc_runner_world *w, const struct owners_gc_runner_hooks *h)
{
	uint32_t *nodes, k;
	size_t n = 0;
	int rc;

	if (r->scan_ns && !r->watching && h->look_across) {
		if (!(nodes = malloc(((size_t)w->graph->count + 1) * sizeof(*nodes))))
			return OWNERS_ENOMEM;
		for (k = 0; k < w->graph->count; k++)
			if (in_scope(r, h, &w->graph->nodes[k]))
				nodes[n++] = k;
		rc = h->look_across(h->ctx, w, nodes, n);
		free(nodes);
		if (rc)
			return 1;
	}
	if (!(r->scope = calloc(w->graph->count + 1, 1)))
		return OWNERS_ENOMEM;
	for (k = 0; k < w->graph->count; k++)
		r->scope[k] = (unsigned char)in_scope(r, h, &w->graph->nodes[k]);
	return 0;
}

static enum owners_owner_verdict read_owner(void *ctx, const struct owners_node *dep,
					    const struct owners_ref *ref, const char *uid)
{
	const struct owners_gc_runner_hooks *h = ctx;

	return h->read_owner(h->ctx, dep, ref, uid);
}

/* What a pass does rests on no absence the server has not confirmed
 * (each missing owner read once a pass, as the GC's isDangling() does);
 * a client dry run shows the backlog as scanned. */
int owners_gc_runner_decide(struct owners_gc_runner *r, struct owners_gc_runner_world *w, const struct owners_gc_runner_hooks *h)
{
	struct owners_owner_checks cc;
	int rc;

	decisions_clear(r);
	r->held = 0;
	if ((rc = choose_scope(r, w, h)))
		return rc;
	/* the foresight plans in the pass's own steps, planned again below */
	if (owners_collector_new(&r->c, w->graph) || !(r->steps = calloc(w->graph->count + 1, sizeof(*r->steps))) ||
	    owners_collector_foresee(r->c, r->steps))
		return OWNERS_ENOMEM;
	if (r->unblocked.count) {
		uint32_t i;

		for (i = 0; i < w->graph->count; i++)
			if (!w->graph->nodes[i].virtual_ &&
			    owners_strset_get(&r->unblocked, OWNERS_NODE_UID(&w->graph->nodes[i])))
				owners_collector_retry(r->c, i);
	}
	owners_collector_plan(r->c, r->steps);
	if (!r->plan_only) {
		owners_owner_checks_init(&cc, w->graph->types, w->reads ? w->reads : w->http);
		if (h->read_owner) {
			cc.read = read_owner;
			cc.read_ctx = (void *)h;
		}
		rc = owners_absence_confirm_collector(&r->held, r->c, r->steps, r->scope, &cc);
		owners_owner_checks_clear(&cc);
		if (rc)
			return OWNERS_ENOMEM;
	}
	/* a cycle no one ends is named a deadlock, with its way out (after
	 * the reads: deciding again would undo it) */
	return owners_deadlocks_attach(r->c, r->steps) ? OWNERS_ENOMEM : 0;
}

/* ---- planning ------------------------------------------------------------ */

static int acting_on(const struct owners_gc_runner *r, const struct owners_graph *g, uint32_t k)
{
	const struct owners_node *n = &g->nodes[k];
	const struct owners_strset_entry *e;

	if (!r->scope[k] || owners_strset_get(&r->forbidden, OWNERS_NODE_UID(n)))
		return 0;
	/* watching: what was sent for this version is not sent again before
	 * the version it made (or a 409's) comes back as an event */
	e = r->watching ? owners_strset_get(&r->acted, OWNERS_NODE_UID(n)) : NULL;
	return !e || !e->value || strcmp(e->value, OWNERS_NODE_RV(n));
}

static int action_of(struct owners_action *a, const struct owners_gc_runner *r, uint32_t k)
{
	const struct owners_collector_step *s = &r->steps[k];

	switch (s->kind) {
	case OWNERS_COLLECTOR_STEP_DELETE:
		a->kind = s->policy == OWNERS_COLLECTOR_POLICY_FOREGROUND ? OWNERS_ACT_DELETE_FOREGROUND
			  : s->policy == OWNERS_COLLECTOR_POLICY_ORPHAN   ? OWNERS_ACT_DELETE_ORPHAN
								   : OWNERS_ACT_DELETE;
		return 1;
	case OWNERS_COLLECTOR_STEP_UNBLOCK: a->kind = OWNERS_ACT_UNBLOCK; return 1;
	case OWNERS_COLLECTOR_STEP_REMOVE_FOREGROUND:
		a->kind = OWNERS_ACT_REMOVE_FINALIZER;
		a->finalizer = OWNERS_FINALIZER_FOREGROUND;
		return 1;
	case OWNERS_COLLECTOR_STEP_REMOVE_ORPHAN:
		a->kind = OWNERS_ACT_REMOVE_FINALIZER;
		a->finalizer = OWNERS_FINALIZER_ORPHAN;
		return 1;
	default: a->kind = OWNERS_ACT_RELEASE; return r->c->node[k].release != 0;
	}
}

/* This pass's requests: one action per object (a RELEASE carries every
 * reference the pass removes from it, whichever step marked them). */
static int plan_actions(struct owners_gc_runner *r, const struct owners_graph *g)
{
	struct owners_cascade_plan *p = &r->plan;
	uint32_t k;

	p->n_actions = 0;
	for (k = 0; k < g->count; k++) {
		struct owners_action a = { .node = k };

		if (!acting_on(r, g, k) || !action_of(&a, r, k))
			continue;
		if (OWNERS_GROW(p->actions, p->cap_actions, p->n_actions + 1))
			return OWNERS_ENOMEM;
		p->actions[p->n_actions++] = a;
	}
	/* in the node order: the lines said as they are done follow it */
	owners_cascade_actions_sort(g, p->actions, p->n_actions);
	return 0;
}

/* Watching: remembers the version of each object this pass acts on. */
static int remember_acted(struct owners_gc_runner *r, const struct owners_graph *g)
{
	size_t i;

	for (i = 0; i < r->plan.n_actions; i++) {
		const struct owners_node *n = &g->nodes[r->plan.actions[i].node];
		struct owners_strset_entry *e = owners_strset_get(&r->acted, OWNERS_NODE_UID(n));

		if (e) {
			char *rv = owners_strdup(OWNERS_NODE_RV(n));

			if (!rv)
				return OWNERS_ENOMEM;
			free(e->value);
			e->value = rv;
		} else if (!owners_strset_add(&r->acted, OWNERS_NODE_UID(n), OWNERS_NODE_RV(n))) {
			return OWNERS_ENOMEM;
		}
	}
	return 0;
}

/* ---- acting -------------------------------------------------------------- */

static int drop(void *ctx, uint32_t dependent, const struct owners_ref *ref)
{
	return owners_collector_drops(ctx, dependent, ref);
}

/* What the server said to one action: told, and counted. */
static int tell_result(struct owners_gc_runner *r, struct owners_gc_runner_world *w, const struct owners_gc_runner_hooks *h,
		       const struct owners_action *a, const struct owners_action_result *res)
{
	struct owners_gc_runner_event e = { .graph = w->graph, .action = a, .result = res };

	switch (res->outcome) {
	case OWNERS_OUTCOME_DONE:
		r->done++;
		e.kind = OWNERS_GC_RUNNER_EVENT_CHANGED;
		e.step = &r->steps[a->node];
		break;
	case OWNERS_OUTCOME_GONE:
	case OWNERS_OUTCOME_CONFLICT:
		return 0; /* someone did it first, or it changed: the next pass decides */
	case OWNERS_OUTCOME_FORBIDDEN:
		if (!owners_strset_add(&r->forbidden, OWNERS_NODE_UID(&w->graph->nodes[a->node]),
				       NULL))
			return OWNERS_ENOMEM;
		e.kind = OWNERS_GC_RUNNER_EVENT_REFUSED;
		break;
	case OWNERS_OUTCOME_FAILED:
		r->failed++;
		e.kind = OWNERS_GC_RUNNER_EVENT_REFUSED;
		break;
	}
	e.done = r->done;
	e.pass = r->passes;
	tell(h, &e);
	return 0;
}

/* Sends this pass's actions; tells what each did. */
static int act(struct owners_gc_runner *r, struct owners_gc_runner_world *w, const struct owners_gc_runner_hooks *h,
	       struct owners_error *err)
{
	const struct owners_cascade_exec_options o = {
		.server_gc = 1, /* the GC's own requests: the policy alone */
		.dry_run = r->server_dry_run,
		.grace_period = -1,
		.drop = drop,
		.drop_ctx = r->c,
	};
	struct owners_cascade_plan *p = &r->plan;
	struct owners_action_result *results = calloc(p->n_actions + 1, sizeof(*results));
	size_t i;
	int rc;

	if (!results)
		return owners_error_oom(err);
	rc = h->execute ? h->execute(h->ctx, w->graph, p, &o, results, err)
			: owners_cascade_exec_plan(w->graph, p, w->http, &o, results, err);
	owners_strset_clear(&r->unblocked); /* (empty again, ready for this pass's) */
	for (i = 0; !rc && i < p->n_actions; i++) {
		if (tell_result(r, w, h, &p->actions[i], &results[i]))
			rc = owners_error_oom(err);
		else if (p->actions[i].kind == OWNERS_ACT_UNBLOCK &&
			 results[i].outcome == OWNERS_OUTCOME_DONE &&
			 !owners_strset_add(&r->unblocked,
					    OWNERS_NODE_UID(&w->graph->nodes[p->actions[i].node]),
					    NULL))
			rc = owners_error_oom(err);
	}
	owners_cascade_exec_results_free(results, p->n_actions);
	return rc;
}

/* ---- the passes ---------------------------------------------------------- */

/* Decides and plans: 0, 1 when a hook stopped it, or the error, err set. */
static int decide_and_plan(struct owners_gc_runner *r, struct owners_gc_runner_world *w,
			   const struct owners_gc_runner_hooks *h, struct owners_error *err)
{
	int rc = owners_gc_runner_decide(r, w, h);

	if (rc == 1)
		return 1;
	if (rc || plan_actions(r, w->graph) || (r->watching && remember_acted(r, w->graph)))
		return owners_error_oom(err);
	return 0;
}

static void tell_pass(struct owners_gc_runner *r, const struct owners_gc_runner_hooks *h, const struct owners_graph *g)
{
	struct owners_gc_runner_event e = {
		.kind = OWNERS_GC_RUNNER_EVENT_PASS_BEGUN,
		.graph = g,
		.pass = r->passes,
		.done = r->done,
		.acting = r->plan.n_actions,
		.elapsed_ms = now_ms(h) - r->started_ms,
	};

	tell(h, &e);
}

/* Whether to scan again before deciding that nothing is left: an owner
 * the lists missed is there, and the next scan sees it (lists and
 * watches catch up) and decides with it. */
static int rescan_for_held(struct owners_gc_runner *r, const struct owners_gc_runner_hooks *h,
			   const struct owners_graph *g, int *rescans)
{
	struct owners_gc_runner_event e = { .kind = OWNERS_GC_RUNNER_EVENT_OWNER_HELD, .graph = g };

	if (r->plan.n_actions || !r->held || *rescans >= HELD_RESCANS)
		return 0;
	e.held = r->held;
	e.rescans = (size_t)++*rescans;
	tell(h, &e);
	return 1;
}

int owners_gc_runner_passes(enum owners_gc_runner_end *end, struct owners_gc_runner *r,
			 struct owners_gc_runner_world *w, const struct owners_gc_runner_hooks *h,
			 struct owners_error *err)
{
	int64_t deadline;
	int rc, rescans = 0;

	deadline = r->started_ms + r->timeout_ms;
	*end = OWNERS_GC_RUNNER_STOPPED;
	for (;;) {
		if ((rc = decide_and_plan(r, w, h, err)))
			return rc == 1 ? 0 : rc;
		if (rescan_for_held(r, h, w->graph, &rescans)) {
			if (h->rescan(h->ctx, w))
				return 0;
			continue;
		}
		if (!r->plan.n_actions || (r->server_dry_run && r->passes))
			break;
		if (r->timeout_ms && now_ms(h) >= deadline) {
			*end = OWNERS_GC_RUNNER_TIMED_OUT;
			return 0;
		}
		if (!r->passes && h->approve && h->approve(h->ctx, &r->plan, w->graph))
			return 0;
		r->passes++;
		tell_pass(r, h, w->graph);
		if ((rc = act(r, w, h, err)))
			return rc;
		if (r->failed) {
			*end = OWNERS_GC_RUNNER_FAILED;
			return 0;
		}
		if (h->rescan(h->ctx, w))
			return 0;
	}
	*end = OWNERS_GC_RUNNER_CONVERGED;
	return 0;
}

/* ---- the watch ----------------------------------------------------------- */

int owners_gc_runner_watch(enum owners_gc_runner_end *end, struct owners_gc_runner *r, struct owners_gc_runner_world *w,
		    const struct owners_gc_runner_hooks *h, struct owners_error *err)
{
	int rc, changed = 1;

	r->watching = 1;
	*end = OWNERS_GC_RUNNER_STOPPED;
	for (;;) {
		if (changed) {
			if ((rc = decide_and_plan(r, w, h, err)))
				return rc == 1 ? 0 : rc;
			if (r->plan.n_actions && (rc = act(r, w, h, err)))
				return rc;
			if (r->failed) {
				*end = OWNERS_GC_RUNNER_FAILED;
				return 0;
			}
		}
		if ((changed = h->wait(h->ctx, w)) < 0)
			return 0;
	}
}
