/* The garbage collector's runner (lib/ops/gc_runner.c) driven against a
 * fake cluster: its objects are a table, a DELETE takes one out of it, a
 * rescan builds the graph again from what is left, and the clock is the
 * test's. Every event is recorded and checked in order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_objects.h"
#include "fake_types.h"
#include "gc_runner.h"
#include "tap.h"

static struct owners_resource_table types;

static const char *api_of(const char *kind)
{
	(void)kind;
	return "v1";
}

#define REF(name, uid) { "v1", "ConfigMap", name, uid, 1, 0 }
#define NOREF { NULL, NULL, NULL, NULL, 0, 0 }
#define MAX_OBJS 8
#define MAX_EVENTS 32

/* An event as told (its pointers live only during the hook). */
struct told {
	enum owners_gc_runner_event_kind kind;
	size_t pass, done, acting, rescans;
	int step_kind;                     /* CHANGED, else -1 */
	int outcome;                       /* REFUSED, else -1 */
};

/* The fake cluster and what the runner told. */
struct fake {
	struct fake_obj objs[MAX_OBJS];
	int present[MAX_OBJS];
	size_t n;
	struct owners_graph *graph;
	/* how the server answers: by UID, FORBIDDEN or FAILED; apply 0: a
	 * server dry run (accepted, nothing changes) */
	const char *forbid_uid, *fail_uid, *conflict_uid;
	int apply;
	enum owners_owner_verdict owner_verdict; /* every owner read */
	int refuse_approval;
	int64_t now, tick; /* the clock, and how far each reading moves it */
	int waits_left;    /* watching: wakeups with a change before the stop */
	const struct fake_obj *arrives; /* watching: created at the first wakeup */
	/* told */
	size_t rescans, approvals, requests, owner_reads, looked_across, waits;
	struct told events[MAX_EVENTS];
	char uids[MAX_EVENTS][16];
	size_t n_events;
};

static void rebuild(struct fake *f)
{
	struct fake_obj live[MAX_OBJS];
	size_t i, n = 0;

	for (i = 0; i < f->n; i++)
		if (f->present[i])
			live[n++] = f->objs[i];
	owners_graph_free(f->graph);
	f->graph = fake_graph_build(&types, live, n, api_of, NULL);
}

static void fake_init(struct fake *f, const struct fake_obj *objs, size_t n)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < n; i++) {
		f->objs[i] = objs[i];
		f->present[i] = 1;
	}
	f->n = n;
	f->apply = 1;
	f->owner_verdict = OWNERS_OWNER_GONE;
	rebuild(f);
}

static int rescan(void *ctx, struct owners_gc_runner_world *w)
{
	struct fake *f = ctx;

	f->rescans++;
	rebuild(f);
	w->graph = f->graph;
	return 0;
}

static int approve(void *ctx, const struct owners_cascade_plan *p, struct owners_graph *g)
{
	struct fake *f = ctx;

	(void)p;
	(void)g;
	f->approvals++;
	return f->refuse_approval;
}

static void on_event(void *ctx, const struct owners_gc_runner_event *e)
{
	struct fake *f = ctx;

	if (f->n_events == MAX_EVENTS)
		return;
	f->events[f->n_events] = (struct told){ e->kind, e->pass, e->done, e->acting, e->rescans,
						e->step ? (int)e->step->kind : -1,
						e->result ? (int)e->result->outcome : -1 };
	snprintf(f->uids[f->n_events], sizeof(f->uids[0]), "%s",
		 e->action ? OWNERS_NODE_UID(&e->graph->nodes[e->action->node]) : "");
	f->n_events++;
}

static void take_out(struct fake *f, const char *uid)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (!strcmp(f->objs[i].uid, uid))
			f->present[i] = 0;
}

static int is(const char *uid, const char *want)
{
	return want && !strcmp(uid, want);
}

/* Deletions only (the scenarios hold no finalizers): the object goes. */
static int execute(void *ctx, struct owners_graph *g, const struct owners_cascade_plan *p,
		   const struct owners_cascade_exec_options *o, struct owners_action_result *results,
		   struct owners_error *err)
{
	struct fake *f = ctx;
	size_t i;

	(void)o;
	(void)err;
	for (i = 0; i < p->n_actions; i++) {
		const char *uid = OWNERS_NODE_UID(&g->nodes[p->actions[i].node]);

		f->requests++;
		results[i].outcome = is(uid, f->forbid_uid)     ? OWNERS_OUTCOME_FORBIDDEN
				     : is(uid, f->fail_uid)     ? OWNERS_OUTCOME_FAILED
				     : is(uid, f->conflict_uid) ? OWNERS_OUTCOME_CONFLICT
								: OWNERS_OUTCOME_DONE;
		if (results[i].outcome == OWNERS_OUTCOME_DONE && f->apply)
			take_out(f, uid);
	}
	return 0;
}

static enum owners_owner_verdict read_owner(void *ctx, const struct owners_node *dep,
					    const struct owners_ref *ref, const char *uid)
{
	struct fake *f = ctx;

	(void)dep;
	(void)ref;
	(void)uid;
	f->owner_reads++;
	return f->owner_verdict;
}

static int64_t now_ms(void *ctx)
{
	struct fake *f = ctx;

	f->now += f->tick;
	return f->now;
}

static int look_across(void *ctx, struct owners_gc_runner_world *w, const uint32_t *nodes, size_t n)
{
	(void)w;
	(void)nodes;
	((struct fake *)ctx)->looked_across += n + 1;
	return 0;
}

static int wait_once(void *ctx, struct owners_gc_runner_world *w)
{
	struct fake *f = ctx;

	f->waits++;
	if (!f->waits_left--)
		return -1;
	if (f->arrives && f->waits == 1) {
		f->objs[f->n] = *f->arrives;
		f->present[f->n++] = 1;
		rebuild(f);
		w->graph = f->graph;
	}
	return 1;
}

static struct owners_gc_runner_hooks hooks_of(struct fake *f)
{
	struct owners_gc_runner_hooks h = {
		.ctx = f,
		.look_across = look_across,
		.rescan = rescan,
		.approve = approve,
		.event = on_event,
		.wait = wait_once,
		.execute = execute,
		.read_owner = read_owner,
		.now_ms = now_ms,
	};

	return h;
}

/* b's owner a is gone; c is b's. */
static const struct fake_obj chain[] = {
	{ "ConfigMap", "b", "b", NULL, { NULL }, { REF("a", "a"), NOREF } },
	{ "ConfigMap", "c", "c", NULL, { NULL }, { REF("b", "b"), NOREF } },
	{ "ConfigMap", "keep", "keep", NULL, { NULL }, { NOREF } },
};

static enum owners_gc_runner_end run(struct fake *f, struct owners_gc_runner *r, int *rc)
{
	const struct owners_gc_runner_hooks h = hooks_of(f);
	struct owners_gc_runner_world w = { f->graph, NULL, NULL };
	struct owners_error err = OWNERS_ERROR_INIT;
	enum owners_gc_runner_end end = OWNERS_GC_RUNNER_STOPPED;

	*rc = owners_gc_runner_passes(&end, r, &w, &h, &err);
	owners_error_clear(&err);
	return end;
}

static void done(struct fake *f, struct owners_gc_runner *r)
{
	owners_gc_runner_clear(r);
	owners_graph_free(f->graph);
}

static void test_passes(void)
{
	struct owners_gc_runner r;
	struct fake f;
	int rc;

	fake_init(&f, chain, 3);
	owners_gc_runner_init(&r);
	r.timeout_ms = 60000;
	ok(run(&f, &r, &rc) == OWNERS_GC_RUNNER_CONVERGED && !rc, "passes: a chain below a gone owner converges");
	ok(r.passes == 2 && r.done == 2 && !r.failed, "  in 2 passes, 2 changes (%zu, %zu)", r.passes, r.done);
	ok(f.approvals == 1 && f.rescans == 2 && f.requests == 2, "  asked once, scanned again after each pass");
	ok(f.owner_reads >= 1, "  the gone owner read before acting on its absence");
	ok(f.present[2] && !f.present[0] && !f.present[1], "  the dependents went, the unowned object stays");
	ok(f.n_events == 4 && f.events[0].kind == OWNERS_GC_RUNNER_EVENT_PASS_BEGUN && f.events[0].pass == 1 &&
		   f.events[0].acting == 1 && f.events[1].kind == OWNERS_GC_RUNNER_EVENT_CHANGED && is(f.uids[1], "b") &&
		   f.events[2].kind == OWNERS_GC_RUNNER_EVENT_PASS_BEGUN && f.events[2].pass == 2 &&
		   f.events[2].done == 1 && f.events[3].kind == OWNERS_GC_RUNNER_EVENT_CHANGED && is(f.uids[3], "c"),
	   "  events: pass 1 begun, b deleted, pass 2 begun (1 done), c deleted");
	ok(f.events[1].step_kind == OWNERS_COLLECTOR_STEP_DELETE, "  a change carries its step");
	done(&f, &r);
}

static void test_timeout(void)
{
	struct owners_gc_runner r;
	struct fake f;
	int rc;

	fake_init(&f, chain, 3);
	owners_gc_runner_init(&r);
	r.timeout_ms = 500;
	f.tick = 1000; /* each reading of the clock: a second later */
	ok(run(&f, &r, &rc) == OWNERS_GC_RUNNER_TIMED_OUT && !rc, "timeout: past the deadline, the run ends");
	ok(!f.requests && !r.passes && r.plan.n_actions == 1, "  with nothing sent, what is left planned");

	done(&f, &r);
	fake_init(&f, chain, 3);
	owners_gc_runner_init(&r);
	r.timeout_ms = 0;
	f.tick = 1000000;
	ok(run(&f, &r, &rc) == OWNERS_GC_RUNNER_CONVERGED && r.done == 2, "  --timeout=0: no deadline");
	done(&f, &r);
}

static void test_refusals(void)
{
	struct owners_gc_runner r;
	struct fake f;
	int rc;

	fake_init(&f, chain, 3);
	owners_gc_runner_init(&r);
	f.forbid_uid = "b";
	ok(run(&f, &r, &rc) == OWNERS_GC_RUNNER_CONVERGED && !rc,
	   "forbidden: the run goes on and converges");
	ok(f.requests == 1 && r.forbidden.count == 1 && owners_strset_get(&r.forbidden, "b"),
	   "  b asked once, then left in place");
	ok(f.n_events == 2 && f.events[1].kind == OWNERS_GC_RUNNER_EVENT_REFUSED &&
		   f.events[1].outcome == OWNERS_OUTCOME_FORBIDDEN && is(f.uids[1], "b"),
	   "  told as refused (forbidden)");
	done(&f, &r);

	fake_init(&f, chain, 3);
	owners_gc_runner_init(&r);
	f.fail_uid = "b";
	ok(run(&f, &r, &rc) == OWNERS_GC_RUNNER_FAILED && !rc && r.failed == 1,
	   "failed: the run stops after the pass");
	ok(f.rescans == 0 && f.events[1].kind == OWNERS_GC_RUNNER_EVENT_REFUSED &&
		   f.events[1].outcome == OWNERS_OUTCOME_FAILED,
	   "  told as refused (failed), no scan after it");
	done(&f, &r);

	fake_init(&f, chain, 3);
	owners_gc_runner_init(&r);
	f.refuse_approval = 1;
	ok(run(&f, &r, &rc) == OWNERS_GC_RUNNER_STOPPED && !rc && !f.requests && !r.passes,
	   "permissions refused: stopped with nothing sent");
	done(&f, &r);
}

static void test_held_and_dry(void)
{
	struct owners_gc_runner r;
	struct fake f;
	size_t i, held = 0;
	int rc;

	fake_init(&f, chain, 3);
	owners_gc_runner_init(&r);
	f.owner_verdict = OWNERS_OWNER_ALIVE; /* a, missing from the lists, is there */
	ok(run(&f, &r, &rc) == OWNERS_GC_RUNNER_CONVERGED && !f.requests && r.held,
	   "held: an owner missing from the scan but there keeps its dependent");
	for (i = 0; i < f.n_events; i++)
		held += f.events[i].kind == OWNERS_GC_RUNNER_EVENT_OWNER_HELD;
	ok(f.rescans == 3 && held == 3 && f.events[2].rescans == 3, "  scanned again 3 times, then left");
	done(&f, &r);

	fake_init(&f, chain, 3);
	owners_gc_runner_init(&r);
	r.server_dry_run = 1;
	f.apply = 0;
	ok(run(&f, &r, &rc) == OWNERS_GC_RUNNER_CONVERGED && r.passes == 1 && r.done == 1 && f.requests == 1,
	   "server dry run: one pass, its requests told");
	done(&f, &r);

	fake_init(&f, chain, 3);
	owners_gc_runner_init(&r);
	r.plan_only = 1;
	{
		const struct owners_gc_runner_hooks h = hooks_of(&f);
		struct owners_gc_runner_world w = { f.graph, NULL, NULL };

		ok(owners_gc_runner_decide(&r, &w, &h) == 0 && !f.owner_reads && !f.requests &&
			   r.steps[owners_graph_find_uid(f.graph, "b")].kind == OWNERS_COLLECTOR_STEP_DELETE,
		   "client dry run: decided as listed, no owner read, nothing sent");
	}
	done(&f, &r);
}

static int only_c(void *ctx, const struct owners_node *n)
{
	(void)ctx;
	return !strcmp(OWNERS_NODE_UID(n), "c");
}

static void test_scope(void)
{
	struct owners_gc_runner r;
	struct fake f;
	struct owners_gc_runner_hooks h;
	int rc;

	fake_init(&f, chain, 3);
	owners_gc_runner_init(&r);
	r.scan_ns = "elsewhere";
	ok(run(&f, &r, &rc) == OWNERS_GC_RUNNER_CONVERGED && !f.requests && f.looked_across == 1,
	   "scope: another namespace's objects are not acted on (looked across with none)");
	done(&f, &r);

	fake_init(&f, chain, 3);
	owners_gc_runner_init(&r);
	r.scan_ns = "ns";
	h = hooks_of(&f);
	h.selected = only_c;
	{
		struct owners_gc_runner_world w = { f.graph, NULL, NULL };
		struct owners_error err = OWNERS_ERROR_INIT;
		enum owners_gc_runner_end end;

		rc = owners_gc_runner_passes(&end, &r, &w, &h, &err);
		ok(!rc && end == OWNERS_GC_RUNNER_CONVERGED && !f.requests && f.looked_across == 2,
		   "  -l: b, not selected, is not deleted, and c waits on it (looked across with 1)");
	}
	done(&f, &r);
}

static void test_watch(void)
{
	const struct fake_obj late = { "ConfigMap", "d", "d", NULL, { NULL }, { REF("gone", "gone"), NOREF } };
	struct owners_gc_runner r;
	struct fake f;
	struct owners_gc_runner_hooks h;
	struct owners_gc_runner_world w;
	struct owners_error err = OWNERS_ERROR_INIT;
	enum owners_gc_runner_end end;

	fake_init(&f, chain + 2, 1);
	owners_gc_runner_init(&r);
	h = hooks_of(&f);
	w = (struct owners_gc_runner_world){ f.graph, NULL, NULL };
	f.arrives = &late;
	f.waits_left = 1;
	ok(owners_gc_runner_watch(&end, &r, &w, &h, &err) == 0 && end == OWNERS_GC_RUNNER_STOPPED,
	   "watch: acts until the wait says stop");
	ok(f.requests == 1 && r.done == 1 && !f.present[1] && f.waits == 2,
	   "  an object arriving with a gone owner is deleted on the change");
	done(&f, &r);

	/* The server answers 409 and the object does not change: the same
	 * version is not sent again on the next wakeup. */
	fake_init(&f, chain, 1);
	owners_gc_runner_init(&r);
	h = hooks_of(&f);
	w = (struct owners_gc_runner_world){ f.graph, NULL, NULL };
	f.conflict_uid = "b";
	f.waits_left = 3;
	ok(owners_gc_runner_watch(&end, &r, &w, &h, &err) == 0 && end == OWNERS_GC_RUNNER_STOPPED && f.requests == 1,
	   "  a version acted on is not sent again until it changes (%zu requests)", f.requests);
	ok(owners_strset_get(&r.acted, "b") != NULL, "  remembered as acted on");
	done(&f, &r);

	fake_init(&f, chain, 1);
	owners_gc_runner_init(&r);
	h = hooks_of(&f);
	w = (struct owners_gc_runner_world){ f.graph, NULL, NULL };
	f.fail_uid = "b";
	f.waits_left = 3;
	ok(owners_gc_runner_watch(&end, &r, &w, &h, &err) == 0 && end == OWNERS_GC_RUNNER_FAILED && !f.waits,
	   "  a failed action ends the watch");
	done(&f, &r);
	owners_error_clear(&err);
}

int main(void)
{
	owners_resource_table_init(&types);
	fake_type_add(&types, &(struct fake_type){ "", "v1", "configmaps", "", "ConfigMap", NULL, 1, 1 });
	test_passes();
	test_timeout();
	test_refusals();
	test_held_and_dry();
	test_scope();
	test_watch();
	owners_resource_table_clear(&types);
	return tap_done();
}
