/*
 * The cascade's rounds (see cascade_runner.h). One round: plan from the
 * latest scan, tell what went since the last one, act, then scan again
 * (only the types the cascade touches) after a nap that grows while
 * nothing is ours to do.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "absence_confirm.h"
#include "clock.h"
#include "cascade_runner.h"

void owners_cascade_runner_init(struct owners_cascade_runner *r)
{
	memset(r, 0, sizeof(*r));
	r->exec.grace_period = -1;
	r->wait = 1;
	owners_cascade_track_init(&r->track);
}

static void drop_plan(struct owners_cascade_runner *r)
{
	if (r->planned)
		owners_cascade_plan_clear(&r->plan);
	r->planned = 0;
}

void owners_cascade_runner_clear(struct owners_cascade_runner *r)
{
	drop_plan(r);
	owners_deadlocks_clear(&r->deadlocks);
	owners_cascade_track_clear(&r->track);
}

static double now_seconds(void)
{
	return (double)owners_clock_ms() / 1000;
}

/* No action of the round rests on an owner missing from the scan that is
 * there when read (absence_confirm.h): each owner read once a round. */
static enum owners_owner_verdict read_owner(void *ctx, const struct owners_node *dep,
					    const struct owners_ref *ref, const char *uid)
{
	const struct owners_cascade_runner_hooks *h = ctx;

	return h->read_owner(h->ctx, dep, ref, uid);
}

static int confirm_absences(struct owners_cascade_runner *r, struct owners_cascade_runner_world *w,
			    const struct owners_cascade_runner_hooks *h)
{
	struct owners_owner_checks cc;
	size_t held;
	int rc;

	owners_owner_checks_init(&cc, w->types, w->http);
	if (h->read_owner) {
		cc.read = read_owner;
		cc.read_ctx = (void *)h;
	}
	rc = owners_absence_confirm_cascade(&held, &r->plan, w->graph, &cc);
	owners_owner_checks_clear(&cc);
	return rc;
}

static void tell(const struct owners_cascade_runner_hooks *h,
		 const struct owners_cascade_runner_event *e)
{
	if (h->event)
		h->event(h->ctx, e);
}

/* The track's word for an object that went (ctx: the hooks). */
static void tell_change(void *ctx, enum owners_cascade_track_event change, const char *type,
			const char *name, const char *ns)
{
	struct owners_cascade_runner_event e;

	memset(&e, 0, sizeof(e));
	e.kind = OWNERS_CASCADE_RUNNER_EVENT_CHANGED;
	e.change = change;
	e.type = type;
	e.name = name;
	e.namespace_ = ns;
	tell(ctx, &e);
}

/* Plans the round and brings the track up to date: reports what went
 * since the last round (not in a server dry run, where nothing goes),
 * narrows the rescans to the cascade's types after the first plan, and
 * takes out of the plan what the server forbade us to change and what
 * rests on an absence a read does not confirm. */
static int plan_round(struct owners_cascade_runner *r, struct owners_cascade_runner_world *w,
		      const struct owners_cascade_runner_hooks *h)
{
	struct owners_cascade_track *t = &r->track;

	if (owners_cascade_track_links(t) ||
	    owners_cascade_plan_make(&r->plan, w->graph,
				     &(const struct owners_cascade_seeds){
					     r->roots, r->n_roots, (const char *const *)t->links,
					     t->n_links },
				     &r->plan_options))
		return OWNERS_ENOMEM;
	r->planned = 1;
	if (r->plan_only)
		return confirm_absences(r, w, h);
	t->foreground = r->plan_options.mode == OWNERS_CASCADE_FOREGROUND;
	if (!r->exec.dry_run &&
	    owners_cascade_track_round(t, w->graph, &r->plan, w->n_failures <= r->first_failures,
				       tell_change, (void *)h))
		return OWNERS_ENOMEM;
	if (!t->relevant && owners_cascade_track_choose_types(t, w->graph, &r->plan, w->types))
		return OWNERS_ENOMEM;
	owners_cascade_track_drop_forbidden(t, w->graph, &r->plan);
	return confirm_absences(r, w, h);
}

int owners_cascade_runner_deadlock_ours(const struct owners_cascade_runner *r,
					const struct owners_deadlock *d)
{
	size_t i;

	for (i = 0; r->planned && i < d->n_members; i++)
		if (r->plan.member[d->members[i]])
			return 1;
	return 0;
}

/* Whether the cascade waits on a deadlock, seen in two scans in a row
 * (a scan reads each type at its own moment: the second one confirms
 * it): then nothing but a person ends the wait. Looked for only while
 * an object of the cascade in foreground deletion waits (on its
 * dependents, or on itself: a blocking reference to itself), and never
 * with break_cycles (--force ends such waits itself). */
static int deadlocked(struct owners_cascade_runner *r, struct owners_graph *g)
{
	struct owners_collector *c = NULL;
	size_t i;
	int ours = 0;

	for (i = 0; i < r->plan.n_waits &&
		    !owners_graph_node_has_finalizer(&g->nodes[r->plan.waits[i].node], OWNERS_FINALIZER_FOREGROUND);
	     i++)
		;
	owners_deadlocks_clear(&r->deadlocks);
	if (i == r->plan.n_waits || r->plan_options.break_cycles) {
		r->deadlocked_rounds = 0;
		return 0;
	}
	if (owners_collector_new(&c, g) || owners_deadlocks_find(&r->deadlocks, c)) {
		owners_collector_free(c);
		return OWNERS_ENOMEM;
	}
	owners_collector_free(c);
	for (i = 0; i < r->deadlocks.count && !ours; i++)
		ours = owners_cascade_runner_deadlock_ours(r, &r->deadlocks.items[i]);
	r->deadlocked_rounds = ours ? r->deadlocked_rounds + 1 : 0;
	return 0;
}

/* Once, before the first change: whether the apiserver adds the GC's
 * finalizers itself. When in doubt we put the finalizer on ourselves,
 * which is right whether or not the server would have added it. */
static void probe_server_gc(struct owners_cascade_runner *r, struct owners_cascade_runner_world *w)
{
	uint32_t node;

	if (r->server_gc_known)
		return;
	r->plan_options.server_gc = 0;
	if (owners_cascade_track_probe_candidate(&r->plan, w->graph, &node))
		owners_cascade_exec_probe_server_gc(w->http, &w->graph->nodes[node],
						    r->plan_options.mode,
						    &r->plan_options.server_gc);
	r->server_gc_known = 1;
}

/* A server dry run changes nothing, so nothing goes: each accepted
 * action is told as it happens instead. */
static int tell_dry_run(struct owners_cascade_runner *r, const struct owners_graph *g,
			const struct owners_action_result *results,
			const struct owners_cascade_runner_hooks *h)
{
	struct owners_buf type = OWNERS_BUF_INIT;
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < r->plan.n_actions; i++) {
		const struct owners_node *n = &g->nodes[r->plan.actions[i].node];

		/* Unblocking a reference is a step of a deletion, not one of
		 * the changes told. */
		if (results[i].outcome != OWNERS_OUTCOME_DONE || r->plan.actions[i].kind == OWNERS_ACT_UNBLOCK)
			continue;
		owners_buf_reset(&type);
		if ((rc = owners_graph_node_type(&type, n)))
			break;
		tell_change((void *)h,
			    r->plan.actions[i].kind == OWNERS_ACT_RELEASE
				    ? OWNERS_EVENT_DRY_RUN_RELEASED
				    : OWNERS_EVENT_DRY_RUN_DELETED,
			    type.ptr, n->name, n->place->namespace_);
	}
	owners_buf_clear(&type);
	return rc;
}

/* Sends the round's actions; a forbidden object is remembered (and left
 * in place from now on), a failed one ends the run after this round. */
static int act(struct owners_cascade_runner *r, struct owners_cascade_runner_world *w,
	       const struct owners_cascade_runner_hooks *h, int *failed, struct owners_error *err)
{
	struct owners_action_result *results;
	size_t i;
	int rc = 0;

	if (!r->plan.n_actions)
		return 0;
	if (!(results = calloc(r->plan.n_actions, sizeof(*results))))
		return owners_error_oom(err);
	rc = h->execute ? h->execute(h->ctx, w->graph, &r->plan, &r->exec, results, err)
			: owners_cascade_exec_plan(w->graph, &r->plan, w->http, &r->exec, results,
						   err);
	if (rc)
		goto out;
	r->last_round_done = 0;
	for (i = 0; !rc && i < r->plan.n_actions; i++) {
		const struct owners_action *a = &r->plan.actions[i];

		/* one change per object and round: an unblocking patch leaves
		 * its object in the cascade */
		if (results[i].outcome == OWNERS_OUTCOME_DONE && a->kind != OWNERS_ACT_UNBLOCK)
			r->last_round_done++;
		if (results[i].outcome == OWNERS_OUTCOME_FORBIDDEN ||
		    results[i].outcome == OWNERS_OUTCOME_FAILED) {
			struct owners_cascade_runner_event e;

			memset(&e, 0, sizeof(e));
			e.kind = OWNERS_CASCADE_RUNNER_EVENT_REFUSED;
			e.graph = w->graph;
			e.action = a;
			e.result = &results[i];
			tell(h, &e);
		}
		if (results[i].outcome == OWNERS_OUTCOME_FORBIDDEN &&
		    owners_cascade_track_forbid(&r->track,
						OWNERS_NODE_UID(&w->graph->nodes[a->node])))
			rc = owners_error_oom(err);
		else if (results[i].outcome == OWNERS_OUTCOME_FAILED)
			*failed = 1;
	}
	if (!rc && r->exec.dry_run && tell_dry_run(r, w->graph, results, h))
		rc = owners_error_oom(err);
out:
	owners_cascade_exec_results_free(results, r->plan.n_actions);
	return rc;
}

int owners_cascade_runner_look_for_deadlock(struct owners_cascade_runner *r,
					    struct owners_cascade_runner_world *w,
					    const struct owners_cascade_runner_hooks *h, int *found)
{
	*found = 0;
	drop_plan(r);
	if (h->rescan(h->ctx, w, &r->track))
		return 1;
	if (plan_round(r, w, h) || deadlocked(r, w->graph))
		return OWNERS_ENOMEM;
	*found = r->deadlocked_rounds > 0;
	return 0;
}

int owners_cascade_runner_run(enum owners_cascade_runner_end *end, struct owners_cascade_runner *r,
			      struct owners_cascade_runner_world *w,
			      const struct owners_cascade_runner_hooks *h, struct owners_error *err)
{
	double deadline = now_seconds() + r->timeout_ms / 1000.0;
	long nap_ms = 50;

	*end = OWNERS_CASCADE_RUNNER_DONE;
	for (;;) {
		size_t acting;
		int failed = 0, rc;

		drop_plan(r);
		if (plan_round(r, w, h))
			return owners_error_oom(err);
		if (r->plan_only) {
			*end = OWNERS_CASCADE_RUNNER_PLANNED;
			return 0;
		}
		/* Objects of a type that did not list are missing, not gone:
		 * "nothing left" from such a view is no proof of the end. */
		if (r->plan.done && w->n_failures > r->first_failures) {
			*end = OWNERS_CASCADE_RUNNER_UNSEEN;
			return 0;
		}
		if (r->plan.done || (!r->plan.n_actions && r->track.forbidden.count &&
				     owners_cascade_track_hung(&r->track, w->graph, &r->plan)))
			break;
		if (r->wait && r->timeout_ms && !r->exec.dry_run) {
			if (deadlocked(r, w->graph))
				return owners_error_oom(err);
			/* Everything around the deadlock first, as the GC
			 * does it: the wait ends only once the plan has
			 * nothing left to do but wait on it. */
			if (r->deadlocked_rounds >= 2 && !r->plan.n_actions) {
				*end = OWNERS_CASCADE_RUNNER_DEADLOCK;
				return 0;
			}
		}
		/* Here the plan is fresh (a scan after the last round's answers):
		 * what it says is left is what is left. */
		if (h->interrupted && h->interrupted(h->ctx)) {
			*end = OWNERS_CASCADE_RUNNER_INTERRUPTED;
			return 0;
		}
		if (!r->approved) {
			r->approved = 1;
			if (h->approve && h->approve(h->ctx, &r->plan, w->graph)) {
				*end = OWNERS_CASCADE_RUNNER_STOPPED;
				return 0;
			}
		}
		if (now_seconds() >= deadline && (r->timeout_ms || !r->wait)) {
			if (!r->wait || !r->timeout_ms)
				break;
			*end = OWNERS_CASCADE_RUNNER_TIMED_OUT;
			return 0;
		}
		probe_server_gc(r, w);
		r->exec.server_gc = r->plan_options.server_gc;
		acting = r->plan.n_actions;
		tell(h, &(const struct owners_cascade_runner_event){
				.kind = OWNERS_CASCADE_RUNNER_EVENT_ROUND_BEGUN,
				.plan = &r->plan,
				.deleted = r->track.deleted,
				.acting = acting });
		if ((rc = act(r, w, h, &failed, err)))
			return rc;
		if (failed) {
			*end = OWNERS_CASCADE_RUNNER_FAILED;
			return 0;
		}
		if (r->exec.dry_run || !r->wait || !r->timeout_ms)
			break;
		/* Waiting on someone else (the GC, a finalizer's controller):
		 * look again soon, then less often. */
		if (!acting) {
			usleep((useconds_t)nap_ms * 1000);
			nap_ms = nap_ms * 2 > 1000 ? 1000 : nap_ms * 2;
		} else {
			nap_ms = 50;
		}
		drop_plan(r);
		if (h->rescan(h->ctx, w, &r->track)) {
			*end = OWNERS_CASCADE_RUNNER_STOPPED;
			return 0;
		}
	}
	if (r->track.forbidden.count)
		*end = OWNERS_CASCADE_RUNNER_INCOMPLETE;
	return 0;
}
