/* The cascade planner: who is in the cascade, who is released, and what
 * can be done in each state, mode by mode, the way the GC decides. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cascade.h"
#include "cascade_access.h"
#include "cascade_exec.h"
#include "cascade_runner.h"
#include "cascade_track.h"
#include "fake_objects.h"
#include "fake_types.h"
#include "tap.h"

static struct owners_resource_table types;

static void add_type(const char *group, const char *plural, const char *kind, int namespaced)
{
	fake_type_add(&types,
		      &(struct fake_type){ group, "v1", plural, "", kind, NULL, namespaced, 1 });
}

static const char *api_of(const char *kind)
{
	if (!strcmp(kind, "ClusterRole"))
		return "rbac.authorization.k8s.io/v1";
	return !strcmp(kind, "Deployment") || !strcmp(kind, "ReplicaSet") ? "apps/v1" : "v1";
}

static struct owners_graph *build(const struct fake_obj *objs, size_t n)
{
	return fake_graph_build(&types, objs, n, api_of, NULL);
}

#define R(kind, name, uid, block) { api_of(kind), kind, name, uid, 1, block }
#define T "2026-01-01T00:00:00Z"
#define NOREF { NULL, NULL, NULL, NULL, 0, 0 }

static const struct owners_action *action_on(const struct owners_cascade_plan *p,
					     struct owners_graph *g, const char *uid)
{
	size_t i;

	for (i = 0; i < p->n_actions; i++)
		if (!strcmp(OWNERS_NODE_UID(&g->nodes[p->actions[i].node]), uid))
			return &p->actions[i];
	return NULL;
}

static const char *act(const struct owners_cascade_plan *p, struct owners_graph *g, const char *uid)
{
	const struct owners_action *a = action_on(p, g, uid);

	return a ? owners_action_name(a->kind) : "wait";
}

static int member(const struct owners_cascade_plan *p, struct owners_graph *g, const char *uid)
{
	uint32_t n = owners_graph_find_uid(g, uid);

	return n != OWNERS_NO_NODE && p->member[n];
}

static int released(const struct owners_cascade_plan *p, struct owners_graph *g, const char *uid)
{
	uint32_t n = owners_graph_find_uid(g, uid);

	return n != OWNERS_NO_NODE && p->released[n];
}

static void plan_forced(struct owners_cascade_plan *p, struct owners_graph *g, const char *root,
			enum owners_cascade_mode mode, int server_gc, int break_cycles)
{
	struct owners_cascade_options o = { mode, server_gc, break_cycles };
	const char *roots[] = { root };

	ok(owners_cascade_plan_make(p, g, &(struct owners_cascade_seeds){ roots, 1, NULL, 0 }, &o) == 0, "planned (%s%s)",
	   owners_cascade_mode_name(mode), break_cycles ? ", --force" : "");
}

static void plan(struct owners_cascade_plan *p, struct owners_graph *g, const char *root,
		 enum owners_cascade_mode mode, int server_gc)
{
	plan_forced(p, g, root, mode, server_gc, 0);
}

static void test_deployment(void)
{
	const struct fake_obj fresh[] = {
		{ "Deployment", "web", "d", NULL, { NULL }, { NOREF } },
		{ "ReplicaSet", "web-1", "rs", NULL, { NULL }, { R("Deployment", "web", "d", 1) } },
		{ "Pod", "p1", "p1", NULL, { NULL }, { R("ReplicaSet", "web-1", "rs", 1) } },
		{ "Pod", "p2", "p2", NULL, { NULL }, { R("ReplicaSet", "web-1", "rs", 1) } },
		{ "ConfigMap", "other", "other", NULL, { NULL }, { NOREF } },
		{ "Pod", "shared", "shared", NULL, { NULL },
		  { R("ReplicaSet", "web-1", "rs", 1), { "v1", "ConfigMap", "other", "other", 0, 0 } } },
		{ "Pod", "stranger", "stranger", NULL, { NULL }, { NOREF } },
	};
	struct owners_graph *g = build(fresh, sizeof(fresh) / sizeof(fresh[0]));
	struct owners_cascade_plan p;

	plan(&p, g, "d", OWNERS_CASCADE_FOREGROUND, 1);
	ok(member(&p, g, "d") && member(&p, g, "rs") && member(&p, g, "p1") && member(&p, g, "p2"),
	   "deployment, replicaset and its pods are in the cascade");
	ok(!member(&p, g, "shared") && released(&p, g, "shared"),
	   "a pod with another live owner is released, not deleted");
	ok(!member(&p, g, "stranger") && !released(&p, g, "stranger") && !member(&p, g, "other"),
	   "unrelated objects are untouched");
	is_str(act(&p, g, "d"), "delete (foreground)", "foreground: the root enters deletion first");
	is_str(act(&p, g, "rs"), "wait", "the replicaset waits for its owner to enter deletion");
	is_str(act(&p, g, "p1"), "wait", "pods wait too");
	is_str(act(&p, g, "shared"), "wait",
	       "the shared pod keeps its reference until its owner is in deletion");
	ok(!p.done, "not done");
	owners_cascade_plan_clear(&p);

	plan(&p, g, "d", OWNERS_CASCADE_BACKGROUND, 1);
	is_str(act(&p, g, "d"), "delete", "background: the root is deleted at once");
	is_str(act(&p, g, "rs"), "wait", "the replicaset waits for the root to be gone");
	owners_cascade_plan_clear(&p);

	plan(&p, g, "d", OWNERS_CASCADE_ORPHAN, 1);
	ok(member(&p, g, "d") && !member(&p, g, "rs") && released(&p, g, "rs") && !released(&p, g, "p1"),
	   "orphan: only the root goes, its direct dependents are released");
	is_str(act(&p, g, "d"), "delete (orphan)", "orphan: the root enters deletion first");
	is_str(act(&p, g, "rs"), "wait", "orphan: dependents are released once the root is in deletion");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);
}

static void test_progress(void)
{
	/* The root is in foreground deletion, the replicaset too, pods gone. */
	const struct fake_obj midway[] = {
		{ "Deployment", "web", "d", T, { "foregroundDeletion" }, { NOREF } },
		{ "ReplicaSet", "web-1", "rs", T, { "foregroundDeletion" }, { R("Deployment", "web", "d", 1) } },
	};
	const struct fake_obj pods_left[] = {
		{ "Deployment", "web", "d", T, { "foregroundDeletion" }, { NOREF } },
		{ "ReplicaSet", "web-1", "rs", T, { "foregroundDeletion" }, { R("Deployment", "web", "d", 1) } },
		{ "Pod", "p1", "p1", NULL, { NULL }, { R("ReplicaSet", "web-1", "rs", 1) } },
		{ "Pod", "p2", "p2", T, { "example.com/hold" }, { R("ReplicaSet", "web-1", "rs", 0) } },
	};
	/* Background, interrupted after the root and the replicaset went: only
	 * the pods are left, pointing at the (gone) replicaset. */
	const struct fake_obj orphans[] = {
		{ "Pod", "p1", "p1", NULL, { NULL }, { R("ReplicaSet", "web-1", "rs", 1) } },
	};
	struct owners_graph *g = build(midway, 2);
	struct owners_cascade_plan p;
	const char *links[] = { "rs" };
	struct owners_cascade_options o = { OWNERS_CASCADE_BACKGROUND, 1, 0 };
	const char *roots[] = { "d" };

	plan(&p, g, "d", OWNERS_CASCADE_FOREGROUND, 1);
	is_str(act(&p, g, "rs"), "remove finalizer", "no dependents left: the replicaset's hold comes off");
	is_str(act(&p, g, "d"), "wait", "the deployment waits for its blocking replicaset");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);

	g = build(pods_left, 4);
	plan(&p, g, "d", OWNERS_CASCADE_FOREGROUND, 1);
	is_str(act(&p, g, "p1"), "delete", "a pod whose owner waits for it is deleted");
	is_str(act(&p, g, "p2"), "wait", "a pod held by someone else's finalizer waits");
	is_str(act(&p, g, "rs"), "wait", "the replicaset waits while p1 blocks it");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);

	g = build(orphans, 1);
	ok(owners_cascade_plan_make(&p, g, &(struct owners_cascade_seeds){ roots, 1, links, 1 }, &o) == 0, "planned with a link");
	ok(member(&p, g, "p1"), "a gone middle level still links what is left below it");
	is_str(act(&p, g, "p1"), "delete", "and the leftover pod is deleted");
	owners_cascade_plan_clear(&p);
	ok(owners_cascade_plan_make(&p, g, &(struct owners_cascade_seeds){ roots, 1, NULL, 0 }, &o) == 0, "planned without the link");
	ok(!member(&p, g, "p1") && p.done, "without it, nothing ties the pod to the root: kept");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);
}

static void test_keep_when_unsure(void)
{
	const struct fake_obj objs[] = {
		{ "ConfigMap", "root", "root", NULL, { NULL }, { NOREF } },
		{ "ConfigMap", "dep", "dep", NULL, { NULL },
		  { { "v1", "ConfigMap", "root", "root", 0, 0 }, { "v1", "Secret", "s", "secret-uid", 0, 0 } } },
		{ "ConfigMap", "dangling", "dangling", NULL, { NULL },
		  { { "v1", "ConfigMap", "root", "root", 0, 0 }, { "v1", "ConfigMap", "gone", "gone-uid", 0, 0 } } },
		{ "ConfigMap", "unserved", "unserved", NULL, { NULL },
		  { { "v1", "ConfigMap", "root", "root", 0, 0 }, { "example.com/v1", "Widget", "w", "w-uid", 0, 0 } } },
	};
	struct owners_graph *g;
	struct owners_cascade_plan p;
	size_t i;

	g = build(objs, 4);
	/* Secrets could not be listed: pretend the listing failed. */
	for (i = 0; i < g->n_listings; i++)
		if (!strcmp(g->listings[i].resource->kind, "Secret"))
			g->listings[i].rc = OWNERS_EFORBIDDEN;
	plan(&p, g, "root", OWNERS_CASCADE_BACKGROUND, 1);
	ok(!member(&p, g, "dep") && released(&p, g, "dep"),
	   "an owner whose type could not be listed counts as alive: kept");
	ok(member(&p, g, "dangling"), "an owner that is known to be absent does not keep it");
	ok(!member(&p, g, "unserved") && !released(&p, g, "unserved") && !action_on(&p, g, "unserved"),
	   "a reference of a kind not served (the GC never acts on the object): neither deleted nor patched");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);
}

static void test_cycle(void)
{
	const struct fake_obj objs[] = {
		{ "ConfigMap", "a", "a", T, { "foregroundDeletion" }, { { "v1", "ConfigMap", "b", "b", 0, 1 } } },
		{ "ConfigMap", "b", "b", T, { "foregroundDeletion" }, { { "v1", "ConfigMap", "a", "a", 0, 1 } } },
	};
	/* The GC's own way out: a (root) waits, b is about to be deleted and
	 * one of b's dependents (a) waits for its dependents: b's references
	 * stop blocking first, then b goes in the foreground. */
	const struct fake_obj fresh[] = {
		{ "ConfigMap", "a", "a", T, { "foregroundDeletion" }, { { "v1", "ConfigMap", "b", "b", 0, 1 } } },
		{ "ConfigMap", "b", "b", NULL, { NULL }, { { "v1", "ConfigMap", "a", "a", 0, 1 } } },
	};
	const struct fake_obj unblocked[] = {
		{ "ConfigMap", "a", "a", T, { "foregroundDeletion" }, { { "v1", "ConfigMap", "b", "b", 0, 1 } } },
		{ "ConfigMap", "b", "b", NULL, { NULL }, { { "v1", "ConfigMap", "a", "a", 0, 0 } } },
	};
	const struct fake_obj b_deleting[] = {
		{ "ConfigMap", "a", "a", T, { "foregroundDeletion" }, { { "v1", "ConfigMap", "b", "b", 0, 1 } } },
		{ "ConfigMap", "b", "b", T, { "foregroundDeletion" }, { { "v1", "ConfigMap", "a", "a", 0, 0 } } },
	};
	const struct fake_obj self[] = {
		{ "ConfigMap", "s", "s", T, { "foregroundDeletion" }, { { "v1", "ConfigMap", "s", "s", 0, 1 } } },
	};
	struct owners_graph *g = build(objs, 2);
	struct owners_cascade_plan p;

	plan(&p, g, "a", OWNERS_CASCADE_FOREGROUND, 1);
	ok(member(&p, g, "b"), "a cycle's other member joins the cascade");
	is_str(act(&p, g, "a"), "wait", "a waits for b and b for a, both in deletion: the GC waits forever, so do we");
	is_str(act(&p, g, "b"), "wait", "... b too");
	owners_cascade_plan_clear(&p);
	plan_forced(&p, g, "a", OWNERS_CASCADE_FOREGROUND, 1, 1);
	is_str(act(&p, g, "a"), "remove finalizer", "--force: the cycle is broken");
	is_str(act(&p, g, "b"), "remove finalizer", "--force: both holds come off");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);

	g = build(fresh, 2);
	plan(&p, g, "a", OWNERS_CASCADE_FOREGROUND, 1);
	is_str(act(&p, g, "b"), "unblock", "b, whose dependent a waits for its dependents, is unblocked first");
	is_str(act(&p, g, "a"), "wait", "a still waits for b, which blocks it");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);
	g = build(unblocked, 2);
	plan(&p, g, "a", OWNERS_CASCADE_FOREGROUND, 1);
	is_str(act(&p, g, "b"), "delete (foreground)", "then b enters foreground deletion");
	is_str(act(&p, g, "a"), "wait", "a, no longer blocked, holds until b is in deletion (a rerun finds b from a)");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);
	g = build(b_deleting, 2);
	plan(&p, g, "a", OWNERS_CASCADE_FOREGROUND, 1);
	is_str(act(&p, g, "a"), "remove finalizer", "and then a is finished, b after it");
	is_str(act(&p, g, "b"), "wait", "b waits for a, which still blocks it");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);

	g = build(self, 1);
	plan(&p, g, "s", OWNERS_CASCADE_FOREGROUND, 1);
	ok(!action_on(&p, g, "s") && p.n_waits == 1 && strstr(p.waits[0].why, "itself"),
	   "an object that blocks its own deletion waits, and the wait says so");
	owners_cascade_plan_clear(&p);
	plan_forced(&p, g, "s", OWNERS_CASCADE_FOREGROUND, 1, 1);
	is_str(act(&p, g, "s"), "remove finalizer", "--force: its finalizer comes off");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);
}

/* A reference is classified before its UID counts: the GC gives up on an
 * object with a reference by an apiVersion it cannot map, even when the
 * UID is the live owner's, and never acts on a cluster-scoped object's
 * reference to a namespaced kind. */
static void test_classified_first(void)
{
	const struct fake_obj objs[] = {
		{ "Deployment", "web", "d", NULL, { NULL }, { NOREF } },
		{ "ConfigMap", "old-api", "old", NULL, { NULL },
		  { { "apps/v1beta1", "Deployment", "web", "d", 1, 1 } } },
		{ "ConfigMap", "mixed", "mixed", NULL, { NULL },
		  { R("Deployment", "web", "d", 0), { "apps/v1beta1", "Deployment", "web", "d", 0, 0 } } },
		{ "ConfigMap", "misnamed", "misnamed", NULL, { NULL },
		  { { "apps/v1", "Deployment", "not-web", "d", 0, 0 } } },
		{ "ClusterRole", "cr", "cr", NULL, { NULL }, { R("Deployment", "web", "d", 0) } },
	};
	const struct fake_obj in_deletion[] = {
		{ "Deployment", "web", "d", T, { "foregroundDeletion" }, { NOREF } },
		{ "ConfigMap", "old-api", "old", NULL, { NULL },
		  { { "apps/v1beta1", "Deployment", "web", "d", 1, 1 } } },
		{ "ConfigMap", "shared", "shared", NULL, { NULL },
		  { R("Deployment", "web", "d", 0), { "v1", "ConfigMap", "live", "live", 0, 0 } } },
		{ "ConfigMap", "live", "live", NULL, { NULL }, { NOREF } },
	};
	struct owners_graph *g = build(objs, sizeof(objs) / sizeof(objs[0]));
	struct owners_cascade_plan p;
	int modes[] = { OWNERS_CASCADE_BACKGROUND, OWNERS_CASCADE_FOREGROUND };
	size_t m;

	for (m = 0; m < 2; m++) {
		plan(&p, g, "d", modes[m], 1);
		ok(!member(&p, g, "old") && !released(&p, g, "old") && !action_on(&p, g, "old"),
		   "%s: a reference by an unserved apiVersion to the live root: neither deleted nor released",
		   owners_cascade_mode_name(modes[m]));
		ok(!member(&p, g, "mixed") && !released(&p, g, "mixed"),
		   "%s: one unserved reference among good ones: the GC gives up on the object, so do we",
		   owners_cascade_mode_name(modes[m]));
		ok(member(&p, g, "misnamed"),
		   "%s: a reference that names another object but carries the root's UID dangles, "
		   "and the GC, which looks at it when the root goes, collects it",
		   owners_cascade_mode_name(modes[m]));
		is_str(act(&p, g, "misnamed"), "wait", "%s: ... but not before the root goes",
		       owners_cascade_mode_name(modes[m]));
		ok(!member(&p, g, "cr") && !released(&p, g, "cr"),
		   "%s: a cluster-scoped object referring to the namespaced root is left alone",
		   owners_cascade_mode_name(modes[m]));
		owners_cascade_plan_clear(&p);
	}
	plan(&p, g, "d", OWNERS_CASCADE_ORPHAN, 1);
	ok(released(&p, g, "old") && released(&p, g, "cr") && released(&p, g, "mixed"),
	   "orphan: every object linked by UID is released, whatever its reference's class "
	   "(the GC's orphanDependents)");
	is_str(act(&p, g, "cr"), "wait", "orphan: not before the root is in deletion");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);

	g = build(in_deletion, sizeof(in_deletion) / sizeof(in_deletion[0]));
	plan(&p, g, "d", OWNERS_CASCADE_FOREGROUND, 1);
	is_str(act(&p, g, "d"), "wait", "the root waits: the unserved reference blocks it, as it blocks the GC");
	is_str(act(&p, g, "old"), "wait", "and the object holding it is not touched");
	is_str(act(&p, g, "shared"), "release", "a shared object is released once its owner waits for it");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);
}

/* References are removed only once their owner is in deletion or gone. */
static void test_release_order(void)
{
	const struct fake_obj live[] = {
		{ "ConfigMap", "a", "a", NULL, { NULL }, { NOREF } },
		{ "ConfigMap", "b", "b", NULL, { NULL }, { NOREF } },
		{ "ConfigMap", "shared", "shared", NULL, { NULL },
		  { { "v1", "ConfigMap", "a", "a", 0, 0 }, { "v1", "ConfigMap", "b", "b", 0, 0 } } },
	};
	const struct fake_obj a_gone[] = {
		{ "ConfigMap", "b", "b", NULL, { NULL }, { NOREF } },
		{ "ConfigMap", "shared", "shared", NULL, { NULL },
		  { { "v1", "ConfigMap", "a", "a", 0, 0 }, { "v1", "ConfigMap", "b", "b", 0, 0 } } },
	};
	const struct fake_obj a_held[] = {
		{ "ConfigMap", "a", "a", T, { "example.com/hold" }, { NOREF } },
		{ "ConfigMap", "b", "b", NULL, { NULL }, { NOREF } },
		{ "ConfigMap", "shared", "shared", NULL, { NULL },
		  { { "v1", "ConfigMap", "a", "a", 0, 0 }, { "v1", "ConfigMap", "b", "b", 0, 0 } } },
	};
	int modes[] = { OWNERS_CASCADE_BACKGROUND, OWNERS_CASCADE_FOREGROUND };
	struct owners_graph *g = build(live, 3);
	struct owners_cascade_plan p;
	const char *roots[] = { "a" };
	struct owners_cascade_options o = { OWNERS_CASCADE_BACKGROUND, 1, 0 };
	size_t m;

	for (m = 0; m < 2; m++) {
		plan(&p, g, "a", modes[m], 1);
		ok(released(&p, g, "shared") && !strcmp(act(&p, g, "shared"), "wait"),
		   "%s: the owner is still alive: its reference stays (a refused DELETE must leave it)",
		   owners_cascade_mode_name(modes[m]));
		owners_cascade_plan_clear(&p);
	}
	owners_graph_free(g);
	g = build(a_held, 3);
	plan(&p, g, "a", OWNERS_CASCADE_BACKGROUND, 1);
	is_str(act(&p, g, "shared"), "wait",
	       "an owner in deletion but not waiting for its dependents is still solid to the GC");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);
	g = build(a_gone, 2);
	ok(owners_cascade_plan_make(&p, g, &(struct owners_cascade_seeds){ roots, 1, NULL, 0 }, &o) == 0, "planned after the root went");
	is_str(act(&p, g, "shared"), "release", "gone: now the reference goes");
	ok(!p.done, "not done until it is released");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);
}

/* A member's own orphan or foregroundDeletion finalizer decides how the GC
 * deletes it. */
static void test_member_policy(void)
{
	const struct fake_obj objs[] = {
		{ "ConfigMap", "root", "root", NULL, { NULL }, { NOREF } },
		{ "ConfigMap", "mid", "mid", NULL, { "orphan" }, { { "v1", "ConfigMap", "root", "root", 0, 0 } } },
		{ "ConfigMap", "leaf", "leaf", NULL, { NULL }, { { "v1", "ConfigMap", "mid", "mid", 0, 0 } } },
		{ "ConfigMap", "fg", "fg", NULL, { "foregroundDeletion" },
		  { { "v1", "ConfigMap", "root", "root", 0, 0 } } },
	};
	const struct fake_obj root_gone[] = {
		{ "ConfigMap", "mid", "mid", NULL, { "orphan" }, { { "v1", "ConfigMap", "root", "root", 0, 0 } } },
		{ "ConfigMap", "leaf", "leaf", NULL, { NULL }, { { "v1", "ConfigMap", "mid", "mid", 0, 0 } } },
		{ "ConfigMap", "fg", "fg", NULL, { "foregroundDeletion" },
		  { { "v1", "ConfigMap", "root", "root", 0, 0 } } },
	};
	const struct fake_obj mid_deleting[] = {
		{ "ConfigMap", "mid", "mid", T, { "orphan" }, { { "v1", "ConfigMap", "root", "root", 0, 0 } } },
		{ "ConfigMap", "leaf", "leaf", NULL, { NULL }, { { "v1", "ConfigMap", "mid", "mid", 0, 0 } } },
	};
	const struct fake_obj leaf_released[] = {
		{ "ConfigMap", "mid", "mid", T, { "orphan" }, { { "v1", "ConfigMap", "root", "root", 0, 0 } } },
		{ "ConfigMap", "leaf", "leaf", NULL, { NULL }, { NOREF } },
	};
	struct owners_graph *g = build(objs, 4);
	struct owners_cascade_plan p;
	const char *roots[] = { "root" }, *links[] = { "root" };
	struct owners_cascade_options o = { OWNERS_CASCADE_BACKGROUND, 1, 0 };

	plan(&p, g, "root", OWNERS_CASCADE_BACKGROUND, 1);
	ok(member(&p, g, "mid") && !member(&p, g, "leaf") && released(&p, g, "leaf"),
	   "background: a member carrying orphan goes, its dependent is kept and released");
	owners_cascade_plan_clear(&p);
	plan(&p, g, "root", OWNERS_CASCADE_FOREGROUND, 1);
	ok(member(&p, g, "mid") && member(&p, g, "leaf"),
	   "foreground: with dependents of its own and an owner waiting, the GC uses Foreground for it");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);

	g = build(root_gone, 3);
	ok(owners_cascade_plan_make(&p, g, &(struct owners_cascade_seeds){ roots, 1, links, 1 }, &o) == 0, "planned after the root went");
	is_str(act(&p, g, "mid"), "delete (orphan)", "the orphan member is deleted with policy Orphan");
	is_str(act(&p, g, "fg"), "delete (foreground)",
	       "a member carrying foregroundDeletion is deleted with Foreground (Background would drop it)");
	is_str(act(&p, g, "leaf"), "wait", "its dependent waits for it to enter deletion");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);

	g = build(mid_deleting, 2);
	ok(owners_cascade_plan_make(&p, g, &(struct owners_cascade_seeds){ roots, 1, links, 1 }, &o) == 0, "planned with mid in deletion");
	is_str(act(&p, g, "leaf"), "release", "in deletion: its dependents are released first");
	is_str(act(&p, g, "mid"), "wait", "the orphan finalizer stays until they are");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);

	g = build(leaf_released, 2);
	ok(owners_cascade_plan_make(&p, g, &(struct owners_cascade_seeds){ roots, 1, links, 1 }, &o) == 0, "planned with leaf released");
	is_str(act(&p, g, "mid"), "remove finalizer", "then the orphan finalizer comes off");
	ok(!member(&p, g, "leaf") && !released(&p, g, "leaf"), "and the leaf is no longer ours");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);
}

static int drop_uid_x(void *ctx, const struct owners_ref *ref)
{
	const struct owners_graph *g = ctx;

	return !strcmp(OWNERS_REF_UID(g, ref), "x");
}

static void test_bodies(void)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	const struct fake_obj objs[] = {
		{ "Pod", "p", "p", NULL, { "a", "foregroundDeletion", "b" },
		  { R("ReplicaSet", "x", "x", 1), { "v1", "ConfigMap", "c", "c", 0, 0 } } },
	};
	struct owners_graph *g = build(objs, 1);

	ok(owners_delete_options_json(&b, "u-1", "9", "Foreground", -1, 0) == 0, "delete options");
	is_str(b.ptr, "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"propagationPolicy\":\"Foreground\","
		      "\"preconditions\":{\"uid\":\"u-1\",\"resourceVersion\":\"9\"}}",
	       "every DELETE carries the UID and resourceVersion preconditions");
	owners_buf_reset(&b);
	owners_delete_options_json(&b, "u-1", NULL, "Background", 0, 1);
	ok(strstr(b.ptr, "\"gracePeriodSeconds\":0") && strstr(b.ptr, "\"dryRun\":[\"All\"]"),
	   "grace period and server dry run");
	owners_buf_reset(&b);
	ok(owners_finalizers_patch_json(&b, &g->nodes[0], "foregroundDeletion", NULL) == 0, "finalizer patch");
	is_str(b.ptr, "{\"metadata\":{\"resourceVersion\":\"7\",\"finalizers\":[\"a\",\"b\"]}}",
	       "the patch removes one finalizer and is conditional on the resourceVersion read");
	owners_buf_reset(&b);
	owners_finalizers_patch_json(&b, &g->nodes[0], NULL, "orphan");
	is_str(b.ptr, "{\"metadata\":{\"resourceVersion\":\"7\",\"finalizers\":[\"a\",\"foregroundDeletion\",\"b\",\"orphan\"]}}",
	       "adding keeps the others");
	/* A reference read with "controller": false (the field present) is
	 * written back with it; one without the field stays without it. */
	owners_buf_reset(&b);
	g->nodes[0].refs[1].controller_set = 1;
	ok(owners_refs_patch_json(&b, g, &g->nodes[0], drop_uid_x, g) == 0, "references patch");
	is_str(b.ptr, "{\"metadata\":{\"resourceVersion\":\"7\",\"ownerReferences\":[{\"apiVersion\":\"v1\","
		      "\"kind\":\"ConfigMap\",\"name\":\"c\",\"uid\":\"c\",\"controller\":false}]}}",
	       "the references patch keeps the others as read, \"controller\": false included");
	owners_buf_clear(&b);
	owners_graph_free(g);
}

/* The checks a plan needs, as "verb group/resource ns" lines. */
static void needs(const struct owners_cascade_plan *p, struct owners_graph *g,
		  enum owners_cascade_mode mode, char *out, size_t size)
{
	struct owners_access_check *c = NULL;
	uint32_t *examples = NULL;
	size_t n = 0, i, used = 0;

	*out = '\0';
	if (owners_cascade_access_needed(p, g, mode, &c, &examples, &n)) {
		snprintf(out, size, "ENOMEM");
		return;
	}
	for (i = 0; i < n; i++)
		used += (size_t)snprintf(out + used, size - used, "%s%s %s/%s %s", i ? "; " : "", c[i].verb,
					 c[i].group, c[i].resource, c[i].namespace_);
	owners_access_checks_clear(c, n);
	free(c);
	free(examples);
}

/* dangling --fix asks per type first; per object only where that was
 * refused (a Role may grant one object by name). */
static void test_fix_needed_access(void)
{
	const struct fake_obj objs[] = {
		{ "ConfigMap", "a", "a", NULL, { NULL }, { { "v1", "ConfigMap", "gone", "g", 0, 0 } } },
		{ "ConfigMap", "b", "b", NULL, { NULL }, { { "v1", "ConfigMap", "gone", "g", 0, 0 } } },
		{ "Secret", "s", "s", NULL, { NULL }, { { "v1", "ConfigMap", "gone", "g", 0, 0 } } },
	};
	struct owners_graph *g = build(objs, 3);
	struct owners_dangling_finding items[3];
	struct owners_dangling_report rep = { items, 3, 3 };
	struct owners_access_check *by_type = NULL, *named = NULL;
	uint32_t *ex = NULL, *ex2 = NULL;
	size_t n = 0, n2 = 0, i, named_cm = 0, named_secret = 0;
	const char *names[] = { "a", "b", "s" };

	memset(items, 0, sizeof(items));
	for (i = 0; i < 3; i++) {
		items[i].object = owners_graph_find_uid(g, names[i]);
		items[i].class_ = OWNERS_REF_ABSENT;
		items[i].fix = OWNERS_FIX_WOULD_DELETE;
	}
	ok(owners_cascade_access_dangling_fix_needed(
		   &rep, g, &(struct owners_cascade_access_dangling_fix){ 0, 0, NULL, 0 }, &by_type,
		   &ex, &n) == 0 &&
		   n == 2,
	   "--fix: one check per type and namespace for three objects (%zu)", n);
	for (i = 0; i < n; i++)
		by_type[i].verdict = strcmp(by_type[i].resource, "secrets") ? OWNERS_ACCESS_DENIED : OWNERS_ACCESS_ALLOWED;
	ok(owners_cascade_access_dangling_fix_needed(
		   &rep, g, &(struct owners_cascade_access_dangling_fix){ 0, 1, by_type, n },
		   &named, &ex2, &n2) == 0,
	   "narrowed");
	for (i = 0; i < n2; i++) {
		named_cm += !strcmp(named[i].resource, "configmaps") && named[i].name && *named[i].name;
		named_secret += !strcmp(named[i].resource, "secrets");
	}
	ok(n2 == 2 && named_cm == 2 && !named_secret,
	   "  by name only for the objects of the refused type (%zu checks, %zu ConfigMaps by name)", n2, named_cm);
	owners_access_checks_clear(by_type, n);
	owners_access_checks_clear(named, n2);
	free(by_type);
	free(named);
	free(ex);
	free(ex2);
	owners_graph_free(g);
}

static void test_needed_access(void)
{
	const struct fake_obj objs[] = {
		{ "Deployment", "web", "d", NULL, { NULL }, { NOREF } },
		{ "ReplicaSet", "web-1", "rs", NULL, { NULL }, { R("Deployment", "web", "d", 1) } },
		{ "Pod", "p1", "p1", NULL, { NULL }, { R("ReplicaSet", "web-1", "rs", 1) } },
		{ "Pod", "p2", "p2", NULL, { NULL }, { R("ReplicaSet", "web-1", "rs", 1) } },
		{ "ConfigMap", "other", "other", NULL, { NULL }, { NOREF } },
		{ "Secret", "shared", "shared", NULL, { NULL },
		  { R("ReplicaSet", "web-1", "rs", 1), { "v1", "ConfigMap", "other", "other", 0, 0 } } },
		{ "ConfigMap", "stranger", "stranger", NULL, { NULL }, { NOREF } },
	};
	const struct fake_obj leaf[] = { { "ConfigMap", "alone", "alone", NULL, { NULL }, { NOREF } } };
	struct owners_graph *g = build(objs, sizeof(objs) / sizeof(objs[0]));
	struct owners_cascade_plan p;
	char got[512];

	plan(&p, g, "d", OWNERS_CASCADE_BACKGROUND, 1);
	needs(&p, g, OWNERS_CASCADE_BACKGROUND, got, sizeof(got));
	/* in the node order of each check's first object: Deployment, Pod,
	 * ReplicaSet, Secret (by kind within the namespace) */
	is_str(got, "delete apps/deployments ns; delete /pods ns; delete apps/replicasets ns; "
		    "patch apps/replicasets ns; patch /secrets ns",
	       "background: delete on every member type, patch on the held middle level and the "
	       "released Secret; no patch on the root (it goes at once), nothing on pods' patch or "
	       "on untouched ConfigMaps");
	owners_cascade_plan_clear(&p);

	plan(&p, g, "d", OWNERS_CASCADE_FOREGROUND, 1);
	needs(&p, g, OWNERS_CASCADE_FOREGROUND, got, sizeof(got));
	is_str(got, "delete apps/deployments ns; patch apps/deployments ns; delete /pods ns; "
		    "delete apps/replicasets ns; patch apps/replicasets ns; patch /secrets ns",
	       "foreground: the root holds foregroundDeletion too, so patch on it as well");
	owners_cascade_plan_clear(&p);

	plan(&p, g, "d", OWNERS_CASCADE_ORPHAN, 1);
	needs(&p, g, OWNERS_CASCADE_ORPHAN, got, sizeof(got));
	is_str(got, "delete apps/deployments ns; patch apps/deployments ns; patch apps/replicasets ns",
	       "orphan: delete and patch (the orphan finalizer) on the root, patch on what it releases, "
	       "nothing on the pods");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);

	g = build(leaf, 1);
	plan(&p, g, "alone", OWNERS_CASCADE_FOREGROUND, 0);
	needs(&p, g, OWNERS_CASCADE_FOREGROUND, got, sizeof(got));
	is_str(got, "delete /configmaps ns", "an object without dependents needs delete only, in any mode");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);
}

struct events {
	char text[512];
};

static void on_event(void *ctx, enum owners_cascade_track_event e, const char *type,
		     const char *name, const char *ns)
{
	struct events *ev = ctx;
	size_t len = strlen(ev->text);

	snprintf(ev->text + len, sizeof(ev->text) - len, "%s%d:%s/%s@%s", len ? " " : "", (int)e, type,
		 name, ns);
}

/* The bookkeeping between rounds: what goes is reported once, forbidden
 * objects drop out, waits that hang on them are seen, the types to relist. */
static void test_track(void)
{
	const struct fake_obj round1[] = {
		{ "Deployment", "web", "d", NULL, { NULL }, { NOREF } },
		{ "ReplicaSet", "web-1", "rs", NULL, { NULL }, { R("Deployment", "web", "d", 1) } },
		{ "Pod", "p1", "p1", NULL, { NULL }, { R("ReplicaSet", "web-1", "rs", 1) } },
		{ "ConfigMap", "other", "other", NULL, { NULL }, { NOREF } },
		{ "Pod", "shared", "shared", NULL, { NULL },
		  { R("ReplicaSet", "web-1", "rs", 1), { "v1", "ConfigMap", "other", "other", 0, 0 } } },
	};
	/* The replicaset went (the GC, say), the shared pod let go of it. */
	const struct fake_obj round2[] = {
		{ "Deployment", "web", "d", T, { "foregroundDeletion" }, { NOREF } },
		{ "Pod", "p1", "p1", NULL, { NULL }, { R("ReplicaSet", "web-1", "rs", 1) } },
		{ "ConfigMap", "other", "other", NULL, { NULL }, { NOREF } },
		{ "Pod", "shared", "shared", NULL, { NULL }, { { "v1", "ConfigMap", "other", "other", 0, 0 } } },
	};
	struct owners_graph *g = build(round1, sizeof(round1) / sizeof(round1[0]));
	struct owners_cascade_track t;
	struct owners_cascade_plan p;
	struct events ev;
	uint32_t node;

	owners_cascade_track_init(&t);
	ok(owners_cascade_track_wants(&t, owners_resource_by_gvk(&types, "v1", "Secret")),
	   "before the types are chosen, every type is wanted");
	plan(&p, g, "d", OWNERS_CASCADE_FOREGROUND, 0);
	memset(&ev, 0, sizeof(ev));
	ok(owners_cascade_track_round(&t, g, &p, 1, on_event, &ev) == 0 && !*ev.text,
	   "first round: everything remembered, nothing gone yet");
	ok(owners_cascade_track_links(&t) == 0 && t.n_links == 3, "links: the three members (not the released pod)");
	ok(owners_cascade_track_probe_candidate(&p, g, &node) &&
		   !strcmp(OWNERS_NODE_UID(&g->nodes[node]), "d"),
	   "the probe may ask about the root (about to enter foreground deletion, no finalizer "
	   "yet)");
	ok(owners_cascade_track_choose_types(&t, g, &p, &types) == 0, "types chosen");
	ok(owners_cascade_track_wants(&t, owners_resource_by_gvk(&types, "v1", "ConfigMap")),
	   "  configmaps: the released pod's other owner");
	ok(!owners_cascade_track_wants(&t, owners_resource_by_gvk(&types, "rbac.authorization.k8s.io/v1",
								   "ClusterRole")),
	   "  clusterroles: nothing of the cascade is there");
	ok(owners_cascade_track_forbid(&t, "d") == 0, "the root is forbidden");
	owners_cascade_track_drop_forbidden(&t, g, &p);
	ok(!action_on(&p, g, "d"), "  its action is dropped");
	ok(p.n_waits && owners_cascade_track_hung(&t, g, &p),
	   "  and every wait hangs on it: waiting longer cannot help");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);

	g = build(round2, sizeof(round2) / sizeof(round2[0]));
	plan(&p, g, "d", OWNERS_CASCADE_FOREGROUND, 0);
	memset(&ev, 0, sizeof(ev));
	ok(owners_cascade_track_round(&t, g, &p, 0, on_event, &ev) == 0 && !*ev.text,
	   "a round whose lists failed reports nothing (a failed list only hides objects)");
	ok(owners_cascade_track_round(&t, g, &p, 1, on_event, &ev) == 0, "second round");
	ok(strstr(ev.text, "0:replicaset.apps/web-1@ns") != NULL, "the replicaset is reported deleted (%s)", ev.text);
	ok(strstr(ev.text, "3:pod/shared@ns") != NULL, "the shared pod is reported released, kept");
	is_int(t.deleted, 1, "one deleted");
	is_int(t.released, 1, "one released");
	memset(&ev, 0, sizeof(ev));
	owners_cascade_track_round(&t, g, &p, 1, on_event, &ev);
	is_str(ev.text, "", "each reported once");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);
	owners_cascade_track_clear(&t);
}

/* Everything gone in one round is reported in the cascade's order, not
 * the hash table's: dependents first in the foreground, owners first
 * otherwise (issue #38: a foreground delete printed the Deployment first). */
static void test_track_order(void)
{
	const struct fake_obj all[] = {
		{ "Deployment", "web", "d", NULL, { NULL }, { NOREF } },
		{ "ReplicaSet", "web-1", "rs", NULL, { NULL }, { R("Deployment", "web", "d", 1) } },
		{ "Pod", "p1", "p1", NULL, { NULL }, { R("ReplicaSet", "web-1", "rs", 1) } },
		{ "Pod", "p2", "p2", NULL, { NULL }, { R("ReplicaSet", "web-1", "rs", 1) } },
		{ "ConfigMap", "other", "other", NULL, { NULL }, { NOREF } },
	};
	const struct fake_obj left[] = {
		{ "ConfigMap", "other", "other", NULL, { NULL }, { NOREF } },
	};
	static const enum owners_cascade_mode modes[] = { OWNERS_CASCADE_FOREGROUND, OWNERS_CASCADE_BACKGROUND };
	static const char *const want[] = {
		"0:pod/p1@ns 0:pod/p2@ns 0:replicaset.apps/web-1@ns 0:deployment.apps/web@ns",
		"0:deployment.apps/web@ns 0:replicaset.apps/web-1@ns 0:pod/p1@ns 0:pod/p2@ns",
	};
	size_t m;

	for (m = 0; m < 2; m++) {
		struct owners_graph *g = build(all, sizeof(all) / sizeof(all[0]));
		struct owners_cascade_track t;
		struct owners_cascade_plan p;
		struct events ev;

		owners_cascade_track_init(&t);
		t.foreground = modes[m] == OWNERS_CASCADE_FOREGROUND;
		plan(&p, g, "d", modes[m], 0);
		memset(&ev, 0, sizeof(ev));
		owners_cascade_track_round(&t, g, &p, 1, on_event, &ev);
		owners_cascade_plan_clear(&p);
		owners_graph_free(g);
		g = build(left, 1);
		plan(&p, g, "d", modes[m], 0);
		owners_cascade_track_round(&t, g, &p, 1, on_event, &ev);
		is_str(ev.text, want[m], "%s: everything gone at once, reported %s",
		       m ? "background" : "foreground", m ? "owners first" : "dependents first");
		owners_cascade_plan_clear(&p);
		owners_graph_free(g);
		owners_cascade_track_clear(&t);
	}
}

/* The runner's end when nothing is left to do: done from a full view, but
 * only "looks done" from a view missing a type the first scan listed. */
struct runner_ctx {
	int rescans, approvals;
};

static int no_rescan(void *ctx, struct owners_cascade_runner_world *w,
		     const struct owners_cascade_track *t)
{
	(void)w;
	(void)t;
	((struct runner_ctx *)ctx)->rescans++;
	return 1;
}

static int approve_all(void *ctx, const struct owners_cascade_plan *p,
		       const struct owners_graph *g)
{
	(void)p;
	(void)g;
	((struct runner_ctx *)ctx)->approvals++;
	return 0;
}

static void test_runner_end(void)
{
	/* The root (uid "d") is gone; only an unrelated object is seen. */
	const struct fake_obj left[] = { { "ConfigMap", "other", "other", NULL, { NULL }, { NOREF } } };
	struct owners_graph *g = build(left, 1);
	const char *roots[] = { "d" };
	struct runner_ctx ctx = { 0, 0 };
	const struct owners_cascade_runner_hooks hooks = {
		.ctx = &ctx,
		.rescan = no_rescan,
		.approve = approve_all,
	};
	struct owners_cascade_runner_world world = { NULL, &types, g, 0 };
	struct owners_cascade_runner r;
	struct owners_error err = OWNERS_ERROR_INIT;
	enum owners_cascade_runner_end end;
	struct events ev;

	memset(&ev, 0, sizeof(ev));
	owners_cascade_runner_init(&r);
	r.roots = roots;
	r.n_roots = 1;
	r.timeout_ms = 60000;
	ok(owners_cascade_runner_run(&end, &r, &world, &hooks, &err) == 0 &&
		   end == OWNERS_CASCADE_RUNNER_DONE,
	   "runner: nothing left, every type seen: done");
	ok(!ctx.rescans && !ctx.approvals, "  without a rescan or a request");
	owners_cascade_runner_clear(&r);

	owners_cascade_runner_init(&r);
	r.roots = roots;
	r.n_roots = 1;
	r.timeout_ms = 60000;
	world.n_failures = 1; /* a type the first scan listed did not list */
	ok(owners_cascade_runner_run(&end, &r, &world, &hooks, &err) == 0 &&
		   end == OWNERS_CASCADE_RUNNER_UNSEEN,
	   "runner: nothing left in a view missing a type: not done, cannot be confirmed");
	owners_cascade_runner_clear(&r);
	owners_graph_free(g);
}

static int asked_to_stop(void *ctx)
{
	(void)ctx;
	return 1;
}

/* A fake cluster the runner acts on through its hooks: what each round
 * sends, answered (a DELETE takes its object away; forbid: the uid whose
 * changes are refused), what the rescan sees, what the events say. */
struct fake_cluster {
	const struct fake_obj *objs;
	size_t n;
	int gone[8];
	const char *forbid;
	char told[512];
};

static void said(struct fake_cluster *f, const char *fmt, const char *a, const char *b)
{
	size_t len = strlen(f->told);

	snprintf(f->told + len, sizeof(f->told) - len, fmt, a, b);
}

static int fake_execute(void *ctx, struct owners_graph *g, const struct owners_cascade_plan *p,
			const struct owners_cascade_exec_options *o,
			struct owners_action_result *results, struct owners_error *err)
{
	struct fake_cluster *f = ctx;
	size_t i, k;

	(void)o;
	(void)err;
	for (i = 0; i < p->n_actions; i++) {
		const struct owners_node *n = &g->nodes[p->actions[i].node];

		results[i].outcome = f->forbid && !strcmp(OWNERS_NODE_UID(n), f->forbid)
					     ? OWNERS_OUTCOME_FORBIDDEN
					     : OWNERS_OUTCOME_DONE;
		results[i].message = NULL;
		for (k = 0; k < f->n && results[i].outcome == OWNERS_OUTCOME_DONE; k++)
			if (!strcmp(f->objs[k].uid, OWNERS_NODE_UID(n)) &&
			    p->actions[i].kind == OWNERS_ACT_DELETE)
				f->gone[k] = 1;
	}
	return 0;
}

static int fake_rescan(void *ctx, struct owners_cascade_runner_world *w,
		       const struct owners_cascade_track *t)
{
	struct fake_cluster *f = ctx;
	struct fake_obj left[8];
	size_t k, n = 0;

	(void)t;
	for (k = 0; k < f->n; k++)
		if (!f->gone[k])
			left[n++] = f->objs[k];
	owners_graph_free(w->graph);
	w->graph = build(left, n);
	return w->graph ? 0 : 1;
}

static enum owners_owner_verdict fake_read_owner(void *ctx, const struct owners_node *dep,
						 const struct owners_ref *ref, const char *uid)
{
	struct fake_cluster *f = ctx;
	size_t k;

	(void)dep;
	(void)ref;
	for (k = 0; k < f->n; k++)
		if (!strcmp(f->objs[k].uid, uid))
			return f->gone[k] ? OWNERS_OWNER_GONE : OWNERS_OWNER_ALIVE;
	return OWNERS_OWNER_GONE;
}

static void fake_event(void *ctx, const struct owners_cascade_runner_event *e)
{
	struct fake_cluster *f = ctx;
	char acting[32];

	switch (e->kind) {
	case OWNERS_CASCADE_RUNNER_EVENT_ROUND_BEGUN:
		snprintf(acting, sizeof(acting), "%zu", e->acting);
		said(f, "round(%s)%s ", acting, "");
		break;
	case OWNERS_CASCADE_RUNNER_EVENT_CHANGED: said(f, "%s/%s-gone ", e->type, e->name); break;
	case OWNERS_CASCADE_RUNNER_EVENT_REFUSED:
		said(f, "refused:%s%s ", e->graph->nodes[e->action->node].name, "");
		break;
	}
}

/* The runner against a fake cluster, every request answered by its
 * hooks: the rounds, what each tells, how the run ends. */
static void test_runner_rounds(void)
{
	const struct fake_obj objs[] = {
		{ "ConfigMap", "root", "r", NULL, { NULL }, { NOREF } },
		{ "ConfigMap", "child", "c", NULL, { NULL }, { R("ConfigMap", "root", "r", 1) } },
	};
	const char *roots[] = { "r" };
	struct fake_cluster f;
	const struct owners_cascade_runner_hooks hooks = {
		.ctx = &f,
		.rescan = fake_rescan,
		.event = fake_event,
		.execute = fake_execute,
		.read_owner = fake_read_owner,
	};
	struct owners_cascade_runner_world world = { NULL, &types, NULL, 0 };
	struct owners_cascade_runner r;
	struct owners_error err = OWNERS_ERROR_INIT;
	enum owners_cascade_runner_end end = OWNERS_CASCADE_RUNNER_FAILED;
	int forbid;

	for (forbid = 0; forbid < 2; forbid++) {
		memset(&f, 0, sizeof(f));
		f.objs = objs;
		f.n = 2;
		f.forbid = forbid ? "c" : NULL;
		world.graph = build(objs, 2);
		owners_cascade_runner_init(&r);
		r.roots = roots;
		r.n_roots = 1;
		r.timeout_ms = 60000;
		r.server_gc_known = 1; /* no server to ask whether it adds the GC's finalizer */
		ok(owners_cascade_runner_run(&end, &r, &world, &hooks, &err) == 0,
		   "runner over a fake cluster%s: runs",
		   forbid ? ", the dependent's change refused" : "");
		if (!forbid) {
			is_int(end, OWNERS_CASCADE_RUNNER_DONE, "  to its end: done");
			is_str(f.told,
			       "round(1) configmap/root-gone round(1) configmap/child-gone ",
			       "  each round told as it begins, each object as it goes: the owner "
			       "first "
			       "(background), then its dependent, as the GC would");
			ok(f.gone[0] && f.gone[1], "  both gone from the cluster");
		} else {
			is_int(end, OWNERS_CASCADE_RUNNER_INCOMPLETE,
			       "  done but for what the server refused");
			is_str(f.told, "round(1) configmap/root-gone round(1) refused:child ",
			       "  the refusal told as an event, by the same hook");
			ok(f.gone[0] && !f.gone[1], "  the dependent left in place");
		}
		owners_cascade_runner_clear(&r);
		owners_graph_free(world.graph);
		owners_error_clear(&err);
	}
}

/* Issue #38: Ctrl-C stops the run between rounds, before any change
 * when it came before the first, with the plan of what is left kept. */
static void test_runner_interrupted(void)
{
	const struct fake_obj objs[] = {
		{ "ConfigMap", "root", "r", NULL, { NULL }, { NOREF } },
		{ "ConfigMap", "child", "c", NULL, { NULL }, { R("ConfigMap", "root", "r", 1) } },
	};
	struct owners_graph *g = build(objs, 2);
	const char *roots[] = { "r" };
	struct runner_ctx ctx = { 0, 0 };
	const struct owners_cascade_runner_hooks hooks = {
		.ctx = &ctx,
		.rescan = no_rescan,
		.approve = approve_all,
		.interrupted = asked_to_stop,
	};
	struct owners_cascade_runner_world world = { NULL, &types, g, 0 };
	struct owners_cascade_runner r;
	struct owners_error err = OWNERS_ERROR_INIT;
	enum owners_cascade_runner_end end = OWNERS_CASCADE_RUNNER_DONE;

	owners_cascade_runner_init(&r);
	r.roots = roots;
	r.n_roots = 1;
	r.timeout_ms = 60000;
	ok(owners_cascade_runner_run(&end, &r, &world, &hooks, &err) == 0 &&
		   end == OWNERS_CASCADE_RUNNER_INTERRUPTED,
	   "runner: interrupted: the run ends so");
	ok(!ctx.approvals && !ctx.rescans, "  before any request");
	ok(r.planned && r.plan.members_left == 2, "  the plan of what is left kept: 2 objects");
	owners_cascade_runner_clear(&r);
	owners_graph_free(g);
}

/* Issue #24: an object in deletion is never patched and holds a
 * foreground owner; an owner the GC cannot look up keeps its dependent;
 * owners' own foregroundDeletion never holds a middle object for good. */
static void test_gc_leaves_alone(void)
{
	const struct fake_obj in_deletion[] = {
		{ "ConfigMap", "root", "root", NULL, { NULL }, { NOREF } },
		{ "ConfigMap", "live", "live", NULL, { NULL }, { NOREF } },
		{ "ConfigMap", "dying", "dying", T, { "example.com/hold" },
		  { R("ConfigMap", "root", "root", 1), R("ConfigMap", "live", "live", 0) } },
	};
	const struct fake_obj root_waiting[] = {
		{ "ConfigMap", "root", "root", T, { "foregroundDeletion" }, { NOREF } },
		{ "ConfigMap", "live", "live", NULL, { NULL }, { NOREF } },
		{ "ConfigMap", "dying", "dying", T, { "example.com/hold" },
		  { R("ConfigMap", "root", "root", 1), R("ConfigMap", "live", "live", 0) } },
		{ "ConfigMap", "blind", "blind", NULL, { NULL },
		  { R("ConfigMap", "root", "root", 1), { "metrics.k8s.io/v1beta1", "PodMetrics", "p", "pm", 0, 0 } } },
	};
	/* background: mid has a member below it and a dependent the GC never
	 * touches (a cluster-scoped object with a namespaced owner) that
	 * blocks it */
	const struct fake_obj middle[] = {
		{ "ConfigMap", "root", "root", NULL, { NULL }, { NOREF } },
		{ "ConfigMap", "mid", "mid", NULL, { NULL }, { R("ConfigMap", "root", "root", 1) } },
		{ "ConfigMap", "leaf", "leaf", NULL, { NULL }, { R("ConfigMap", "mid", "mid", 1) } },
		{ "ClusterRole", "cr", "cr", NULL, { NULL }, { R("ConfigMap", "mid", "mid", 1) } },
	};
	const struct fake_obj middle_plain[] = {
		{ "ConfigMap", "root", "root", NULL, { NULL }, { NOREF } },
		{ "ConfigMap", "mid", "mid", NULL, { NULL }, { R("ConfigMap", "root", "root", 1) } },
		{ "ConfigMap", "leaf", "leaf", NULL, { NULL }, { R("ConfigMap", "mid", "mid", 1) } },
	};
	struct owners_graph *g;
	struct owners_cascade_plan p;
	int modes[] = { OWNERS_CASCADE_BACKGROUND, OWNERS_CASCADE_FOREGROUND };
	size_t m;

	for (m = 0; m < 2; m++) {
		g = build(in_deletion, 3);
		plan(&p, g, "root", modes[m], 1);
		ok(!member(&p, g, "dying") && !action_on(&p, g, "dying"),
		   "%s: a dependent in deletion with a live owner is neither released nor deleted",
		   owners_cascade_mode_name(modes[m]));
		owners_cascade_plan_clear(&p);
		owners_graph_free(g);
	}
	g = build(root_waiting, 4);
	plan(&p, g, "root", OWNERS_CASCADE_FOREGROUND, 1);
	is_str(act(&p, g, "root"), "wait", "foreground: the root waits while the dependent in deletion blocks it");
	ok(!action_on(&p, g, "dying") && !released(&p, g, "dying"), "... which is still not patched");
	ok(!member(&p, g, "blind") && !released(&p, g, "blind") && !action_on(&p, g, "blind"),
	   "an owner whose group failed discovery: the dependent is kept, not released (the GC is blind too)");
	{
		size_t i, said = 0;

		for (i = 0; i < p.n_waits; i++)
			said |= !strcmp(OWNERS_NODE_UID(&g->nodes[p.waits[i].node]), "blind") &&
				strstr(p.waits[i].why, "failed discovery");
		ok(said, "... and the plan says why it is left");
	}
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);

	g = build(middle, 4);
	plan(&p, g, "root", OWNERS_CASCADE_BACKGROUND, 1);
	owners_cascade_plan_clear(&p);
	/* the root gone: mid's turn */
	{
		uint32_t root = owners_graph_find_uid(g, "root");

		g->nodes[root].virtual_ = 1;
		plan(&p, g, "root", OWNERS_CASCADE_BACKGROUND, 1);
		is_str(act(&p, g, "mid"), "delete",
		       "background: a middle object that a never-collected dependent blocks is deleted in the "
		       "background, as the GC deletes it (foregroundDeletion would hold it for good)");
		owners_cascade_plan_clear(&p);
	}
	owners_graph_free(g);
	g = build(middle_plain, 3);
	g->nodes[owners_graph_find_uid(g, "root")].virtual_ = 1;
	plan(&p, g, "root", OWNERS_CASCADE_BACKGROUND, 1);
	is_str(act(&p, g, "mid"), "delete (foreground)",
	       "background: without such a dependent, the middle object keeps owners' crash-safe hold");
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);
}

int main(void)
{
	owners_resource_table_init(&types);
	add_type("apps", "deployments", "Deployment", 1);
	add_type("apps", "replicasets", "ReplicaSet", 1);
	add_type("", "pods", "Pod", 1);
	add_type("", "configmaps", "ConfigMap", 1);
	add_type("", "secrets", "Secret", 1);
	add_type("rbac.authorization.k8s.io", "clusterroles", "ClusterRole", 0);
	test_deployment();
	test_progress();
	test_keep_when_unsure();
	test_cycle();
	test_classified_first();
	test_release_order();
	test_member_policy();
	test_bodies();
	test_needed_access();
	test_fix_needed_access();
	test_track();
	test_track_order();
	test_runner_end();
	test_runner_interrupted();
	test_runner_rounds();
	owners_resource_table_add_failure(&types, "metrics.k8s.io/v1beta1", "service unavailable");
	test_gc_leaves_alone();
	owners_resource_table_clear(&types);
	return tap_done();
}
