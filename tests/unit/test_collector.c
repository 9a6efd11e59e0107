/* The collector: what the garbage collector does to each object now
 * (attemptToDeleteItem, processDeletingDependentsItem, attemptToOrphan),
 * and where its passes settle. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector.h"
#include "fake_objects.h"
#include "fake_types.h"
#include "tap.h"

static struct owners_resource_table types;

static const char *api_of(const char *kind)
{
	if (!strcmp(kind, "ClusterRole"))
		return "rbac.authorization.k8s.io/v1";
	if (!strcmp(kind, "Widget"))
		return "example.com/v1";
	return "v1";
}

/* forbidden: the Secrets list was refused to this user (the GC sees it). */
static struct owners_graph *build(const struct fake_obj *objs, size_t n, int forbidden)
{
	return fake_graph_build(&types, objs, n, api_of, forbidden ? "secrets" : NULL);
}

#define R(kind, name, uid, block) { api_of(kind), kind, name, uid, 1, block }
#define T "2026-01-01T00:00:00Z"

static uint32_t node_of(struct owners_graph *g, const char *uid)
{
	return owners_graph_find_uid(g, uid);
}

/* The steps of one plan on a fresh state of g. */
/* One pass's steps; retried: a node the runner says it just unblocked
 * (OWNERS_NO_NODE: none). */
static struct owners_collector_step *plan_retrying(struct owners_graph *g, uint32_t retried)
{
	struct owners_collector *c = NULL;
	struct owners_collector_step *steps = calloc(g->count + 1, sizeof(*steps));

	ok(owners_collector_new(&c, g) == 0 && steps, "collector made");
	if (retried != OWNERS_NO_NODE)
		owners_collector_retry(c, retried);
	owners_collector_plan(c, steps);
	owners_collector_free(c);
	return steps;
}

static struct owners_collector_step *plan(struct owners_graph *g)
{
	return plan_retrying(g, OWNERS_NO_NODE);
}

static struct owners_collector_outcome *settle(struct owners_graph *g, unsigned *passes)
{
	struct owners_collector_outcome *f = calloc(g->count + 1, sizeof(*f));

	ok(owners_collector_settle(g, f, 0, passes) == 0, "settled");
	return f;
}

/* c2 <- c0 <- (gone): c0 goes now, c2 after it (the class `why` missed). */
static void test_chain(void)
{
	const struct fake_obj objs[] = {
		{ "ConfigMap", "c0", "u0", NULL, { NULL }, { R("ConfigMap", "gone", "ug", 0) } },
		{ "ConfigMap", "c2", "u2", NULL, { NULL }, { R("ConfigMap", "c0", "u0", 0) } },
		{ "ConfigMap", "root", "ur", NULL, { NULL }, { { 0 } } },
	};
	struct owners_graph *g = build(objs, 3, 0);
	struct owners_collector_step *s = plan(g);
	struct owners_collector_outcome *f;
	unsigned passes;

	is_int(s[node_of(g, "u0")].kind, OWNERS_COLLECTOR_STEP_DELETE, "an object whose only owner is absent is deleted");
	is_int(s[node_of(g, "u0")].policy, OWNERS_COLLECTOR_POLICY_BACKGROUND, "in the background (no finalizer)");
	is_str(owners_collector_handler_name(s[node_of(g, "u0")].handler), "attemptToDeleteItem", "by attemptToDeleteItem");
	is_int(s[node_of(g, "u2")].kind, OWNERS_COLLECTOR_STEP_NONE, "its dependent has a solid owner now");
	is_int(s[node_of(g, "ur")].kind, OWNERS_COLLECTOR_STEP_NONE, "an object without owners is not garbage");
	f = settle(g, &passes);
	is_int(f[node_of(g, "u2")].kind, OWNERS_COLLECTOR_OUTCOME_COLLECTED, "the dependent is collected once its owner goes");
	is_int(f[node_of(g, "u2")].pass, 2, "in the second pass");
	ok(f[node_of(g, "u2")].through == node_of(g, "u0"), "through the owner that went");
	is_int(f[node_of(g, "u0")].pass, 1, "the owner in the first");
	is_int(f[node_of(g, "ur")].kind, OWNERS_COLLECTOR_OUTCOME_KEPT, "the root is kept");
	is_int(passes, 2, "two passes");
	free(s);
	free(f);
	owners_graph_free(g);
}

/* A solid owner and a dangling one: the dangling reference is stripped. */
static void test_strip(void)
{
	const struct fake_obj objs[] = {
		{ "ConfigMap", "owner", "uo", NULL, { NULL }, { { 0 } } },
		{ "ConfigMap", "dep", "ud", NULL, { NULL },
		  { R("ConfigMap", "gone", "ug", 1), R("ConfigMap", "owner", "uo", 0),
		    R("ConfigMap", "owner", "other-uid", 0) } },
	};
	struct owners_graph *g = build(objs, 2, 0);
	struct owners_collector *c = NULL;
	struct owners_collector_step *s = calloc(g->count, sizeof(*s)); /* virtual owners have nodes too */
	struct owners_collector_outcome *f;
	uint32_t d = node_of(g, "ud");
	unsigned passes;

	owners_collector_new(&c, g);
	owners_collector_plan(c, s);
	is_int(s[d].kind, OWNERS_COLLECTOR_STEP_STRIP, "a solid owner remains: references are patched out");
	is_int(s[d].count, 2, "the absent one and the one with another UID");
	ok(s[d].owner == node_of(g, "uo"), "the solid owner is named");
	ok(owners_collector_drops(c, d, &g->nodes[d].refs[0]) && !owners_collector_drops(c, d, &g->nodes[d].refs[1]) &&
		   owners_collector_drops(c, d, &g->nodes[d].refs[2]),
	   "exactly the dangling references are dropped");
	owners_collector_free(c);
	f = settle(g, &passes);
	is_int(f[d].kind, OWNERS_COLLECTOR_OUTCOME_KEPT, "the object stays");
	is_int(f[d].refs_removed, 2, "without the two references");
	free(s);
	free(f);
	owners_graph_free(g);
}

/* Foreground: the owner waits on its blocking dependent, which is deleted
 * (it has no dependents of its own: with the policy of its finalizers). */
static void test_foreground(void)
{
	const struct fake_obj objs[] = {
		{ "ConfigMap", "root", "ur", T, { "foregroundDeletion" }, { { 0 } } },
		{ "ConfigMap", "mid", "um", NULL, { NULL }, { R("ConfigMap", "root", "ur", 1) } },
		{ "ConfigMap", "leaf", "ul", NULL, { NULL }, { R("ConfigMap", "mid", "um", 1) } },
		{ "ConfigMap", "free", "uf", NULL, { NULL }, { R("ConfigMap", "root", "ur", 0) } },
	};
	struct owners_graph *g = build(objs, 4, 0);
	struct owners_collector_step *s = plan(g);
	struct owners_collector_outcome *f;
	unsigned passes;

	is_int(s[node_of(g, "ur")].kind, OWNERS_COLLECTOR_STEP_WAIT, "the root waits");
	is_int(s[node_of(g, "ur")].wait, OWNERS_COLLECTOR_WAIT_BLOCKING, "on blocking dependents");
	is_int(s[node_of(g, "ur")].count, 1, "one blocks (the other reference does not)");
	is_str(owners_collector_handler_name(s[node_of(g, "ur")].handler), "processDeletingDependentsItem", "the handler");
	is_int(s[node_of(g, "um")].kind, OWNERS_COLLECTOR_STEP_DELETE, "the middle is deleted");
	is_int(s[node_of(g, "um")].policy, OWNERS_COLLECTOR_POLICY_FOREGROUND, "in the foreground: it has dependents");
	ok(s[node_of(g, "um")].for_waiting_owner && s[node_of(g, "um")].owner == node_of(g, "ur"),
	   "because its owner waits for it");
	is_int(s[node_of(g, "uf")].policy, OWNERS_COLLECTOR_POLICY_BACKGROUND, "a leaf goes in the background");
	is_int(s[node_of(g, "ul")].kind, OWNERS_COLLECTOR_STEP_NONE, "the leaf's owner is solid for now");
	f = settle(g, &passes);
	ok(f[node_of(g, "ur")].kind == OWNERS_COLLECTOR_OUTCOME_COLLECTED && f[node_of(g, "um")].kind == OWNERS_COLLECTOR_OUTCOME_COLLECTED &&
		   f[node_of(g, "ul")].kind == OWNERS_COLLECTOR_OUTCOME_COLLECTED && f[node_of(g, "uf")].kind == OWNERS_COLLECTOR_OUTCOME_COLLECTED,
	   "everything goes");
	ok(f[node_of(g, "ul")].pass < f[node_of(g, "um")].pass && f[node_of(g, "um")].pass < f[node_of(g, "ur")].pass,
	   "bottom-up: leaf, middle, root (%u %u %u)", f[node_of(g, "ul")].pass, f[node_of(g, "um")].pass,
	   f[node_of(g, "ur")].pass);
	free(s);
	free(f);
	owners_graph_free(g);
}

static void test_foreground_done(void)
{
	const struct fake_obj objs[] = {
		{ "ConfigMap", "root", "ur", T, { "foregroundDeletion", "example.com/hold" }, { { 0 } } },
	};
	struct owners_graph *g = build(objs, 1, 0);
	struct owners_collector_step *s = plan(g);
	struct owners_collector_outcome *f;
	unsigned passes;

	is_int(s[0].kind, OWNERS_COLLECTOR_STEP_REMOVE_FOREGROUND, "no blocking dependent left: foregroundDeletion comes off");
	f = settle(g, &passes);
	is_int(f[0].kind, OWNERS_COLLECTOR_OUTCOME_DELETING, "another controller's finalizer still holds it");
	free(s);
	free(f);
	owners_graph_free(g);
}

static void test_orphan(void)
{
	const struct fake_obj objs[] = {
		{ "ConfigMap", "job", "uj", T, { "orphan" }, { { 0 } } },
		{ "ConfigMap", "pod", "up", NULL, { NULL }, { R("ConfigMap", "job", "uj", 1), R("ConfigMap", "other", "ux", 0) } },
		{ "ConfigMap", "not-mine", "un", NULL, { NULL }, { R("ConfigMap", "job", "another-uid", 0) } },
	};
	struct owners_graph *g = build(objs, 3, 0);
	struct owners_collector_step *s = plan(g);
	struct owners_collector_outcome *f;
	unsigned passes;

	is_int(s[node_of(g, "uj")].kind, OWNERS_COLLECTOR_STEP_RELEASE_DEPENDENTS, "attemptToOrphan releases the dependents");
	is_int(s[node_of(g, "uj")].count, 1, "those linked by UID only");
	f = settle(g, &passes);
	is_int(f[node_of(g, "uj")].kind, OWNERS_COLLECTOR_OUTCOME_COLLECTED, "then the finalizer comes off and it goes");
	is_int(f[node_of(g, "up")].kind, OWNERS_COLLECTOR_OUTCOME_KEPT,
	       "the released dependent stays: the orphaning owner was solid while it was stripped");
	is_int(f[node_of(g, "up")].refs_removed, 2, "of both its references");
	is_int(f[node_of(g, "un")].kind, OWNERS_COLLECTOR_OUTCOME_COLLECTED, "the reference with another UID dangled all along");
	free(s);
	free(f);
	owners_graph_free(g);
}

static void test_gives_up(void)
{
	const struct fake_obj objs[] = {
		{ "ConfigMap", "a", "ua", NULL, { NULL },
		  { R("ConfigMap", "gone", "ug", 0), { "gone.example.com/v1", "Thing", "t", "ut", 0, 0 } } },
		{ "ClusterRole", "cr", "uc", NULL, { NULL }, { R("ConfigMap", "x", "ux", 0) } },
		{ "ConfigMap", "held", "uh", T, { "example.com/hold" }, { R("ConfigMap", "gone", "ug", 0) } },
		{ "ConfigMap", "under", "uu", NULL, { NULL }, { R("ConfigMap", "held", "uh", 0) } },
		{ "ConfigMap", "s", "us", NULL, { NULL }, { R("Secret", "s", "us2", 0) } },
	};
	struct owners_graph *g = build(objs, 5, 1);
	struct owners_collector_step *s = plan(g);
	uint32_t a = node_of(g, "ua");

	ok(s[a].kind == OWNERS_COLLECTOR_STEP_WAIT && s[a].wait == OWNERS_COLLECTOR_WAIT_GIVES_UP && s[a].ref == 1,
	   "an unserved kind stops the GC on the whole object");
	ok(s[node_of(g, "uc")].kind == OWNERS_COLLECTOR_STEP_WAIT && s[node_of(g, "uc")].wait == OWNERS_COLLECTOR_WAIT_GIVES_UP,
	   "a namespaced owner of a cluster-scoped object: never");
	ok(s[node_of(g, "uh")].kind == OWNERS_COLLECTOR_STEP_WAIT && s[node_of(g, "uh")].wait == OWNERS_COLLECTOR_WAIT_FINALIZERS,
	   "an object in background deletion is left alone");
	is_int(s[node_of(g, "uu")].kind, OWNERS_COLLECTOR_STEP_NONE, "an owner in deletion without foregroundDeletion is solid");
	ok(s[node_of(g, "us")].kind == OWNERS_COLLECTOR_STEP_WAIT && s[node_of(g, "us")].wait == OWNERS_COLLECTOR_WAIT_UNDECIDED,
	   "an owner this user may not list: undecided, never deleted");
	free(s);
	owners_graph_free(g);
}

/* a and b own each other, both blocking; a is deleted in the foreground:
 * b breaks the cycle (unblock) and goes in the foreground, then a. */
static void test_cycle(void)
{
	const struct fake_obj objs[] = {
		{ "ConfigMap", "a", "ua", T, { "foregroundDeletion" }, { R("ConfigMap", "b", "ub", 1) } },
		{ "ConfigMap", "b", "ub", NULL, { NULL }, { R("ConfigMap", "a", "ua", 1) } },
	};
	struct owners_graph *g = build(objs, 2, 0);
	struct owners_collector_step *s = plan(g);
	struct owners_collector_outcome *f;
	unsigned passes;

	is_int(s[node_of(g, "ub")].kind, OWNERS_COLLECTOR_STEP_UNBLOCK, "the cycle breaker first");
	ok(s[node_of(g, "ub")].owner == node_of(g, "ua"), "naming the dependent in foreground deletion");
	f = settle(g, &passes);
	ok(f[0].kind == OWNERS_COLLECTOR_OUTCOME_COLLECTED && f[1].kind == OWNERS_COLLECTOR_OUTCOME_COLLECTED, "both go (%u passes)", passes);
	free(s);
	free(f);
	owners_graph_free(g);
}

/* The same cycle, a held by a finalizer of its own too: the GC's delete
 * of b after its unblocking patch conflicts (stale resourceVersion), a's
 * wait ends first, and b is then kept by a, deleting but not waiting. */
static void test_cycle_held(void)
{
	const struct fake_obj objs[] = {
		{ "ConfigMap", "a", "ua", T, { "foregroundDeletion", "example.com/hold" }, { R("ConfigMap", "b", "ub", 0) } },
		{ "ConfigMap", "b", "ub", NULL, { NULL }, { R("ConfigMap", "a", "ua", 1) } },
	};
	struct owners_graph *g = build(objs, 2, 0);
	struct owners_collector_outcome *f;
	unsigned passes;

	f = settle(g, &passes);
	is_int(f[node_of(g, "ua")].kind, OWNERS_COLLECTOR_OUTCOME_DELETING, "a stays in deletion, held (%u passes)", passes);
	is_int(f[node_of(g, "ub")].kind, OWNERS_COLLECTOR_OUTCOME_KEPT, "b is kept by it, not deleted after the cycle breaker");
	free(f);
	owners_graph_free(g);
}

/* The same cycle as the cluster is after the cycle breaker's patch, read
 * again by the next pass (owners gc rescans): b's reference no longer
 * blocks. Without knowing that b was just unblocked, the pass deletes b
 * in the foreground; told (the runner carries it), it holds b this pass,
 * as the GC's retry of its conflicting delete comes after a, whose wait
 * the patch ended, has left foreground deletion (seed 5642, graph 1x23). */
static void test_cycle_held_next_pass(void)
{
	const struct fake_obj objs[] = {
		{ "ConfigMap", "a", "ua", T, { "foregroundDeletion", "example.com/hold" }, { R("ConfigMap", "b", "ub", 0) } },
		{ "ConfigMap", "b", "ub", NULL, { NULL }, { R("ConfigMap", "a", "ua", 0) } },
	};
	struct owners_graph *g = build(objs, 2, 0);
	struct owners_collector_step *s = plan(g), *t = plan_retrying(g, node_of(g, "ub"));

	ok(s[node_of(g, "ub")].kind == OWNERS_COLLECTOR_STEP_DELETE && s[node_of(g, "ub")].policy == OWNERS_COLLECTOR_POLICY_FOREGROUND,
	   "read afresh, b looks like an object to delete in the foreground");
	is_int(s[node_of(g, "ua")].kind, OWNERS_COLLECTOR_STEP_REMOVE_FOREGROUND, "  while a's wait ends this pass");
	is_int(t[node_of(g, "ub")].kind, OWNERS_COLLECTOR_STEP_NONE, "told b was just unblocked: its delete waits for the retry");
	is_int(t[node_of(g, "ua")].kind, OWNERS_COLLECTOR_STEP_REMOVE_FOREGROUND, "  and a's wait still ends");
	free(s);
	free(t);
	owners_graph_free(g);
}

static void test_policy_from_finalizers(void)
{
	const struct fake_obj objs[] = {
		{ "ConfigMap", "o", "uo", NULL, { "orphan" }, { R("ConfigMap", "gone", "ug", 0) } },
		{ "ConfigMap", "kid", "uk", NULL, { NULL }, { R("ConfigMap", "o", "uo", 0) } },
	};
	struct owners_graph *g = build(objs, 2, 0);
	struct owners_collector_step *s = plan(g);
	struct owners_collector_outcome *f;
	unsigned passes;

	is_int(s[node_of(g, "uo")].policy, OWNERS_COLLECTOR_POLICY_ORPHAN, "its orphan finalizer makes the policy Orphan");
	f = settle(g, &passes);
	is_int(f[node_of(g, "uk")].kind, OWNERS_COLLECTOR_OUTCOME_KEPT, "its dependent is orphaned, kept");
	is_int(f[node_of(g, "uk")].refs_removed, 1, "without the reference");
	free(s);
	free(f);
	owners_graph_free(g);
}

/* An object kept now by an owner that is garbage itself, with a dangling
 * reference besides: the GC strips the dangling reference at once (it
 * handles the object as soon as that reference arrives, before the owner
 * goes), and deletes it in the end. */
static void test_garbage_owner(void)
{
	const struct fake_obj objs[] = {
		{ "ConfigMap", "c0", "u0", NULL, { NULL }, { R("ConfigMap", "gone", "ug", 0) } },
		{ "ConfigMap", "c3", "u3", NULL, { "example.com/hold" },
		  { R("ConfigMap", "gone2", "ug2", 0), R("ConfigMap", "c0", "u0", 0) } },
		{ "ConfigMap", "live", "ul", NULL, { NULL }, { { 0 } } },
		{ "ConfigMap", "c4", "u4", NULL, { NULL }, { R("ConfigMap", "gone2", "ug2", 0), R("ConfigMap", "live", "ul", 0) } },
	};
	struct owners_graph *g = build(objs, 4, 0);
	struct owners_collector *c = NULL;
	struct owners_collector_step *s = calloc(g->count, sizeof(*s));

	owners_collector_new(&c, g);
	owners_collector_plan(c, s);
	is_int(s[node_of(g, "u3")].kind, OWNERS_COLLECTOR_STEP_STRIP, "the dangling reference is stripped now");
	ok(owners_collector_foresee(c, NULL) == 0, "the passes foreseen");
	is_int(c->ends[node_of(g, "u3")].kind, OWNERS_COLLECTOR_OUTCOME_DELETING, "and the object is deleted in the end (its own finalizer holds it)");
	owners_collector_plan(c, s);
	is_int(s[node_of(g, "u3")].kind, OWNERS_COLLECTOR_STEP_STRIP, "foreseeing does not change what is done now");
	is_int(s[node_of(g, "u4")].kind, OWNERS_COLLECTOR_STEP_STRIP, "one kept by a live owner is stripped too");
	free(s);
	owners_collector_free(c);
	owners_graph_free(g);
}

int main(void)
{
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "configmaps", "configmap", "ConfigMap", "cm",
					   1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "secrets", "secret", "Secret", NULL, 1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "rbac.authorization.k8s.io", "v1", "clusterroles",
					   "clusterrole", "ClusterRole", NULL, 0, 1 });
	test_chain();
	test_strip();
	test_foreground();
	test_foreground_done();
	test_orphan();
	test_gives_up();
	test_cycle();
	test_cycle_held();
	test_cycle_held_next_pass();
	test_policy_from_finalizers();
	test_garbage_owner();
	owners_resource_table_clear(&types);
	return tap_done();
}
