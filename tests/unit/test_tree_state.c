/* --until's states (lib/graph/tree_state.c) over graphs built by hand:
 * ready when every object is, the first that is not named; gone when the
 * roots and everything under them are. */
#include <stdlib.h>
#include <string.h>

#include "fake_objects.h"
#include "fake_types.h"
#include "tap.h"
#include "tree.h"
#include "tree_state.h"

static struct owners_resource_table types;

static const char *api_of(const char *kind)
{
	return !strcmp(kind, "Deployment") || !strcmp(kind, "ReplicaSet") ? "apps/v1" : "v1";
}

/* Deployments, ReplicaSets and Pods have a status (READY is read from
 * it); ConfigMaps do not. */
static void add_type(const char *group, const char *plural, const char *kind, int has_status)
{
	fake_type_add(&types, &(struct fake_type){ group, "v1", plural, "", kind, NULL, 1, 1 });
	types.items[types.count - 1].has_status = has_status;
}

#define T "2026-01-01T00:00:00Z"
#define REF(kind, name, uid) { api_of(kind), kind, name, uid, 1, 1 }
#define NOREF { NULL, NULL, NULL, NULL, 0, 0 }

/* web (Deployment) -> web-rs -> web-a, web-b (Pods); web-cfg (ConfigMap)
 * owned by web. deleting: the UID of an object in deletion, or NULL. */
static struct owners_graph *build(const char *deleting)
{
	struct fake_obj objs[] = {
		{ "Deployment", "web", "u-web", NULL, { NULL }, { NOREF } },
		{ "ReplicaSet", "web-rs", "u-rs", NULL, { NULL }, { REF("Deployment", "web", "u-web"), NOREF } },
		{ "Pod", "web-a", "u-a", NULL, { NULL }, { REF("ReplicaSet", "web-rs", "u-rs"), NOREF } },
		{ "Pod", "web-b", "u-b", NULL, { NULL }, { REF("ReplicaSet", "web-rs", "u-rs"), NOREF } },
		{ "ConfigMap", "web-cfg", "u-cfg", NULL, { NULL }, { REF("Deployment", "web", "u-web"), NOREF } },
	};
	size_t i;

	for (i = 0; i < sizeof(objs) / sizeof(objs[0]); i++)
		if (deleting && !strcmp(objs[i].uid, deleting))
			objs[i].deleted = T;
	return fake_graph_build(&types, objs, sizeof(objs) / sizeof(objs[0]), api_of, NULL);
}

static uint32_t node(const struct owners_graph *g, const char *uid)
{
	return owners_graph_find_uid(g, uid);
}

/* The tree of root (its dependents, or with up its owners). */
static void tree_of(struct owners_tree *t, struct owners_graph *g, const char *root, int up)
{
	uint32_t r = node(g, root);

	ok(r != OWNERS_NO_NODE && owners_tree_build(t, g, &r, 1, up, -1) == 0, "tree of %s%s", root,
	   up ? " (up)" : "");
}

/* READY for every node: ready, but the UID not_ready. */
static struct owners_object_status *statuses(const struct owners_graph *g, const char *not_ready)
{
	struct owners_object_status *st = calloc(g->count, sizeof(*st));
	uint32_t i;

	for (i = 0; st && i < g->count; i++) {
		int ready = !not_ready || strcmp(OWNERS_NODE_UID(&g->nodes[i]), not_ready);

		st[i].ready = strdup(ready ? "1/1" : "0/1");
		st[i].is_ready = ready;
	}
	return st;
}

static void statuses_free(struct owners_object_status *st, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		owners_object_status_clear(&st[i]);
	free(st);
}

static void test_ready(void)
{
	struct owners_graph *g = build(NULL);
	struct owners_tree t;
	struct owners_object_status *st = statuses(g, NULL);
	uint32_t first = 0;

	tree_of(&t, g, "u-web", 0);
	is_int(t.count, 5, "  every object is a row");
	is_int(owners_tree_state_ready(&first, g, &t, st, g->count), 1,
	       "every object ready: the tree is ready");
	is_int(first, OWNERS_NO_NODE, "  none is named");
	is_int(owners_tree_state_ready(&first, g, &t, st, node(g, "u-b")), 0,
	       "an object with no READY yet (past the status array) is not ready");
	is_int(first, node(g, "u-b"), "  it is named");
	is_int(owners_tree_state_ready(&first, g, &t, NULL, 0), 0, "no status at all: not ready");
	is_int(first, OWNERS_NO_NODE, "  and none is named");
	statuses_free(st, g->count);

	st = statuses(g, "u-a");
	is_int(owners_tree_state_ready(&first, g, &t, st, g->count), 0,
	       "one pod not ready: the tree is not");
	is_int(first, node(g, "u-a"), "  the first not ready is named (web-a)");
	statuses_free(st, g->count);

	st = statuses(g, "u-cfg");
	is_int(owners_tree_state_ready(&first, g, &t, st, g->count), 1,
	       "a kind with no status is ready by being there (whatever its READY says)");
	statuses_free(st, g->count);
	owners_tree_clear(&t);

	memset(&t, 0, sizeof(t));
	is_int(owners_tree_state_ready(&first, g, &t, NULL, 0), 0,
	       "an empty tree (the root not seen yet) is not ready");
	owners_graph_free(g);
}

/* Issue #38: a StatefulSet waits for its Pod, which waits for its claim:
 * the deepest object not ready is named, with why. */
static void test_ready_deepest(void)
{
	struct owners_graph *g = build(NULL);
	struct owners_tree t;
	struct owners_object_status *st = statuses(g, "u-b");
	struct owners_buf why = OWNERS_BUF_INIT;
	uint32_t first = 0;

	tree_of(&t, g, "u-web", 0);
	st[node(g, "u-web")].is_ready = 0;
	st[node(g, "u-rs")].is_ready = 0;
	free(st[node(g, "u-b")].status);
	st[node(g, "u-b")].status = strdup("Pending");
	is_int(owners_tree_state_ready(&first, g, &t, st, g->count), 0,
	       "web, web-rs and web-b not ready: not ready");
	is_int(first, node(g, "u-b"), "  the deepest not ready is named (web-b), not the root");
	ok(owners_tree_state_not_ready_why(&why, g, first, st, g->count) == 0,
	   "  why it is not ready");
	is_str(why.ptr, "Pending (READY 0/1)", "  its STATUS and READY");
	owners_buf_reset(&why);
	free(st[node(g, "u-b")].status);
	st[node(g, "u-b")].status = NULL;
	owners_tree_state_not_ready_why(&why, g, first, st, g->count);
	is_str(why.ptr, "not ready (READY 0/1)", "  no STATUS: its READY");
	owners_buf_reset(&why);
	owners_tree_state_not_ready_why(&why, g, first, st, node(g, "u-b"));
	is_str(why.ptr, "no status read yet", "  none read yet: said so");
	owners_buf_clear(&why);
	statuses_free(st, g->count);
	owners_tree_clear(&t);
	owners_graph_free(g);
}

/* Issue #43: every object that holds the tree up is named, not the first
 * alone: both pods, not the ReplicaSet and Deployment that wait for them;
 * an object not ready under a ready owner (the ConfigMap's place) too. */
static void test_not_ready_holders(void)
{
	struct owners_graph *g = build(NULL);
	struct owners_tree t;
	struct owners_object_status *st = statuses(g, "u-a");
	uint32_t nodes[8];

	tree_of(&t, g, "u-web", 0);
	st[node(g, "u-b")].is_ready = 0;
	st[node(g, "u-rs")].is_ready = 0;
	st[node(g, "u-web")].is_ready = 0;
	is_int(owners_tree_state_not_ready_holders(nodes, g, &t, st, g->count), 2,
	       "two pods not ready under a ReplicaSet and a Deployment not ready: two holders");
	ok(nodes[0] == node(g, "u-a") && nodes[1] == node(g, "u-b"), "  the pods, in the tree's order");
	st[node(g, "u-a")].is_ready = st[node(g, "u-b")].is_ready = 1;
	is_int(owners_tree_state_not_ready_holders(nodes, g, &t, st, g->count), 1,
	       "pods ready, the ReplicaSet not: it holds the tree up");
	is_int(nodes[0], node(g, "u-rs"), "  the ReplicaSet, not the Deployment above it");
	st[node(g, "u-rs")].is_ready = 1;
	is_int(owners_tree_state_not_ready_holders(nodes, g, &t, st, g->count), 1,
	       "only the root not ready: the root");
	st[node(g, "u-web")].is_ready = 1;
	is_int(owners_tree_state_not_ready_holders(nodes, g, &t, st, g->count), 0,
	       "all ready: none");
	is_int(owners_tree_state_not_ready_holders(nodes, g, &t, NULL, 0), 0,
	       "no status: none named");
	statuses_free(st, g->count);
	owners_tree_clear(&t);
	owners_graph_free(g);
}

/* Issue #43: owners tree all selected the Deployment, its ReplicaSet and
 * its Pods, and printed each Pod three times. Folded: one root. */
static void test_fold_roots(void)
{
	struct owners_graph *g = build(NULL);
	uint32_t roots[5], up[2];
	size_t n = 0;

	roots[n++] = node(g, "u-a");
	roots[n++] = node(g, "u-rs");
	roots[n++] = node(g, "u-web");
	roots[n++] = node(g, "u-b");
	ok(owners_tree_fold_roots(roots, &n, g, 0) == 0, "fold a Deployment, its ReplicaSet and its Pods");
	is_int(n, 1, "  one root is left");
	is_int(roots[0], node(g, "u-web"), "  the Deployment, which every other one hangs from");
	n = 0;
	roots[n++] = node(g, "u-a");
	roots[n++] = node(g, "u-cfg");
	owners_tree_fold_roots(roots, &n, g, 0);
	is_int(n, 2, "two roots neither reaches: both stay");
	ok(roots[0] == node(g, "u-a") && roots[1] == node(g, "u-cfg"), "  in their order");
	up[0] = node(g, "u-web");
	up[1] = node(g, "u-a");
	n = 2;
	owners_tree_fold_roots(up, &n, g, 1);
	is_int(n, 1, "up: the Pod's owners are under it, the Deployment is no root of its own");
	is_int(up[0], node(g, "u-a"), "  the Pod stays");
	owners_graph_free(g);
}

/* Two objects that own each other, both selected: the first stays a root
 * (the other shows under it), neither is lost. */
static void test_fold_cycle(void)
{
	struct fake_obj objs[] = {
		{ "ConfigMap", "x", "u-x", NULL, { NULL }, { REF("ConfigMap", "y", "u-y"), NOREF } },
		{ "ConfigMap", "y", "u-y", NULL, { NULL }, { REF("ConfigMap", "x", "u-x"), NOREF } },
		{ "ConfigMap", "z", "u-z", NULL, { NULL }, { REF("ConfigMap", "x", "u-x"), NOREF } },
	};
	struct owners_graph *g = fake_graph_build(&types, objs, 3, api_of, NULL);
	uint32_t roots[3];
	size_t n = 3;

	roots[0] = node(g, "u-z");
	roots[1] = node(g, "u-y");
	roots[2] = node(g, "u-x");
	ok(owners_tree_fold_roots(roots, &n, g, 0) == 0, "fold a cycle x <-> y and z below x");
	is_int(n, 1, "  one root");
	is_int(roots[0], node(g, "u-y"), "  the first of the cycle's objects, in the roots' order");
	owners_graph_free(g);
}

static void test_ready_deleting(void)
{
	struct owners_graph *g = build("u-rs");
	struct owners_tree t;
	struct owners_object_status *st = statuses(g, NULL);
	uint32_t first = 0;

	tree_of(&t, g, "u-web", 0);
	is_int(owners_tree_state_ready(&first, g, &t, st, g->count), 0,
	       "an object in deletion is not ready (READY 1/1)");
	is_int(first, node(g, "u-rs"), "  it is named (web-rs)");
	statuses_free(st, g->count);
	owners_tree_clear(&t);
	owners_graph_free(g);
}

static void test_ready_virtual(void)
{
	struct owners_graph *g = build(NULL);
	struct owners_tree t;
	struct owners_object_status *st;
	uint32_t first = 0;

	/* The ReplicaSet goes: the pods still name it. */
	is_int(owners_graph_forget(g, "u-rs"), 1, "web-rs is gone");
	owners_graph_link(g);
	st = statuses(g, NULL);
	tree_of(&t, g, "u-a", 1);
	is_int(owners_tree_state_ready(&first, g, &t, st, g->count), 1,
	       "up: an owner not found does not keep the tree from ready");
	owners_tree_clear(&t);
	tree_of(&t, g, "u-rs", 0);
	is_int(owners_tree_state_ready(&first, g, &t, st, g->count), 0,
	       "down: a root that is gone is not ready");
	is_int(first, node(g, "u-rs"), "  the root is named");
	statuses_free(st, g->count);
	owners_tree_clear(&t);
	owners_graph_free(g);
}

static void test_gone(void)
{
	struct owners_graph *g = build(NULL);
	struct owners_tree t;
	uint32_t first = 0;

	tree_of(&t, g, "u-web", 0);
	is_int(owners_tree_state_gone(&first, g, &t), 0, "a tree that is there is not gone");
	is_int(first, node(g, "u-web"), "  its root is named");
	owners_tree_clear(&t);

	owners_graph_forget(g, "u-web");
	owners_graph_link(g);
	tree_of(&t, g, "u-web", 0);
	is_int(owners_tree_state_gone(&first, g, &t), 0,
	       "the root gone, its dependents remaining: not gone");
	is_int(first, node(g, "u-cfg"), "  the first dependent remaining is named (web-cfg, in the tree's order)");
	owners_tree_clear(&t);

	owners_graph_forget(g, "u-cfg");
	owners_graph_forget(g, "u-a");
	owners_graph_link(g);
	tree_of(&t, g, "u-web", 0);
	is_int(owners_tree_state_gone(&first, g, &t), 0, "web-rs and web-b remaining: not gone");
	is_int(first, node(g, "u-rs"), "  web-rs is named");
	owners_tree_clear(&t);

	owners_graph_forget(g, "u-rs");
	owners_graph_link(g);
	tree_of(&t, g, "u-rs", 0);
	is_int(owners_tree_state_gone(&first, g, &t), 0,
	       "a root gone, one pod still under it: not gone");
	is_int(first, node(g, "u-b"), "  the pod is named (web-b)");
	owners_tree_clear(&t);

	owners_graph_forget(g, "u-b");
	owners_graph_link(g);
	tree_of(&t, g, "u-rs", 0);
	is_int(owners_tree_state_gone(&first, g, &t), 1, "the root and every dependent gone: gone");
	is_int(first, OWNERS_NO_NODE, "  none is named");
	owners_tree_clear(&t);
	tree_of(&t, g, "u-web", 0);
	is_int(owners_tree_state_gone(&first, g, &t), 1, "  and so is the tree above it");
	owners_tree_clear(&t);

	memset(&t, 0, sizeof(t));
	is_int(owners_tree_state_gone(&first, g, &t), 1, "an empty tree is gone");
	owners_graph_free(g);
}

int main(void)
{
	add_type("apps", "deployments", "Deployment", 1);
	add_type("apps", "replicasets", "ReplicaSet", 1);
	add_type("", "pods", "Pod", 1);
	add_type("", "configmaps", "ConfigMap", 0);
	test_ready();
	test_ready_deepest();
	test_not_ready_holders();
	test_fold_roots();
	test_fold_cycle();
	test_ready_deleting();
	test_ready_virtual();
	test_gone();
	owners_resource_table_clear(&types);
	return tap_done();
}
