/* The cascade planner: who is in the cascade, who is released, and what
 * can be done in each state, mode by mode, the way the GC decides. */
#include <stdlib.h>
#include <string.h>

#include "cascade.h"
#include "cascade_access.h"
#include "cascade_exec.h"
#include "fake_types.h"
#include "tap.h"

static struct owners_resource_table types;

static void add_type(const char *group, const char *plural, const char *kind, int namespaced)
{
	fake_type_add(&types, group, "v1", plural, "", kind, NULL, namespaced, 1);
}

struct obj {
	const char *kind, *name, *uid, *deleted;
	const char *finalizers[3];
	struct owners_owner_ref_meta refs[3];
};

static const char *api_of(const char *kind)
{
	return !strcmp(kind, "Deployment") || !strcmp(kind, "ReplicaSet") ? "apps/v1" : "v1";
}

static struct owners_graph *build(const struct obj *objs, size_t n)
{
	struct owners_graph *g = NULL;
	size_t i, k;

	owners_graph_new(&g, &types);
	for (i = 0; i < types.count; i++)
		owners_graph_note_listing(g, &types.items[i], NULL, 0, NULL);
	for (i = 0; i < n; i++) {
		struct owners_object_meta m;
		size_t nf = 0, nr = 0;

		memset(&m, 0, sizeof(m));
		m.name = objs[i].name;
		m.namespace_ = "ns";
		m.uid = objs[i].uid;
		m.resource_version = "7";
		m.deletion_timestamp = objs[i].deleted ? objs[i].deleted : "";
		for (k = 0; k < 3 && objs[i].finalizers[k]; k++)
			nf++;
		for (k = 0; k < 3 && objs[i].refs[k].uid; k++)
			nr++;
		m.finalizers = objs[i].finalizers;
		m.n_finalizers = nf;
		m.owner_refs = objs[i].refs;
		m.n_owner_refs = nr;
		owners_graph_add(g, owners_resource_by_gvk(&types, api_of(objs[i].kind), objs[i].kind), &m);
	}
	owners_graph_link(g);
	return g;
}

#define R(kind, name, uid, block) { api_of(kind), kind, name, uid, 1, block }
#define T "2026-01-01T00:00:00Z"
#define NOREF { NULL, NULL, NULL, NULL, 0, 0 }

static const struct owners_action *action_on(const struct owners_cascade_plan *p,
					     struct owners_graph *g, const char *uid)
{
	size_t i;

	for (i = 0; i < p->n_actions; i++)
		if (!strcmp(g->nodes[p->actions[i].node].uid, uid))
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

static void plan(struct owners_cascade_plan *p, struct owners_graph *g, const char *root,
		 enum owners_cascade_mode mode, int server_gc)
{
	struct owners_cascade_options o = { mode, server_gc };
	const char *roots[] = { root };

	ok(owners_cascade_plan_make(p, g, roots, 1, NULL, 0, &o) == 0, "planned (%s)",
	   owners_cascade_mode_name(mode));
}

static void test_deployment(void)
{
	const struct obj fresh[] = {
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
	is_str(act(&p, g, "shared"), "release", "the shared pod's reference is removed");
	ok(!p.done, "not done");
	owners_cascade_plan_free(&p);

	plan(&p, g, "d", OWNERS_CASCADE_BACKGROUND, 1);
	is_str(act(&p, g, "d"), "delete", "background: the root is deleted at once");
	is_str(act(&p, g, "rs"), "wait", "the replicaset waits for the root to be gone");
	owners_cascade_plan_free(&p);

	plan(&p, g, "d", OWNERS_CASCADE_ORPHAN, 1);
	ok(member(&p, g, "d") && !member(&p, g, "rs") && released(&p, g, "rs") && !released(&p, g, "p1"),
	   "orphan: only the root goes, its direct dependents are released");
	is_str(act(&p, g, "d"), "delete (orphan)", "orphan: the root enters deletion first");
	is_str(act(&p, g, "rs"), "wait", "orphan: dependents are released once the root is in deletion");
	owners_cascade_plan_free(&p);
	owners_graph_free(g);
}

static void test_progress(void)
{
	/* The root is in foreground deletion, the replicaset too, pods gone. */
	const struct obj midway[] = {
		{ "Deployment", "web", "d", T, { "foregroundDeletion" }, { NOREF } },
		{ "ReplicaSet", "web-1", "rs", T, { "foregroundDeletion" }, { R("Deployment", "web", "d", 1) } },
	};
	const struct obj pods_left[] = {
		{ "Deployment", "web", "d", T, { "foregroundDeletion" }, { NOREF } },
		{ "ReplicaSet", "web-1", "rs", T, { "foregroundDeletion" }, { R("Deployment", "web", "d", 1) } },
		{ "Pod", "p1", "p1", NULL, { NULL }, { R("ReplicaSet", "web-1", "rs", 1) } },
		{ "Pod", "p2", "p2", T, { "example.com/hold" }, { R("ReplicaSet", "web-1", "rs", 0) } },
	};
	/* Background, interrupted after the root and the replicaset went: only
	 * the pods are left, pointing at the (gone) replicaset. */
	const struct obj orphans[] = {
		{ "Pod", "p1", "p1", NULL, { NULL }, { R("ReplicaSet", "web-1", "rs", 1) } },
	};
	struct owners_graph *g = build(midway, 2);
	struct owners_cascade_plan p;
	const char *links[] = { "rs" };
	struct owners_cascade_options o = { OWNERS_CASCADE_BACKGROUND, 1 };
	const char *roots[] = { "d" };

	plan(&p, g, "d", OWNERS_CASCADE_FOREGROUND, 1);
	is_str(act(&p, g, "rs"), "remove finalizer", "no dependents left: the replicaset's hold comes off");
	is_str(act(&p, g, "d"), "wait", "the deployment waits for its blocking replicaset");
	owners_cascade_plan_free(&p);
	owners_graph_free(g);

	g = build(pods_left, 4);
	plan(&p, g, "d", OWNERS_CASCADE_FOREGROUND, 1);
	is_str(act(&p, g, "p1"), "delete", "a pod whose owner waits for it is deleted");
	is_str(act(&p, g, "p2"), "wait", "a pod held by someone else's finalizer waits");
	is_str(act(&p, g, "rs"), "wait", "the replicaset waits while p1 blocks it");
	owners_cascade_plan_free(&p);
	owners_graph_free(g);

	g = build(orphans, 1);
	ok(owners_cascade_plan_make(&p, g, roots, 1, links, 1, &o) == 0, "planned with a link");
	ok(member(&p, g, "p1"), "a gone middle level still links what is left below it");
	is_str(act(&p, g, "p1"), "delete", "and the leftover pod is deleted");
	owners_cascade_plan_free(&p);
	ok(owners_cascade_plan_make(&p, g, roots, 1, NULL, 0, &o) == 0, "planned without the link");
	ok(!member(&p, g, "p1") && p.done, "without it, nothing ties the pod to the root: kept");
	owners_cascade_plan_free(&p);
	owners_graph_free(g);
}

static void test_keep_when_unsure(void)
{
	const struct obj objs[] = {
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
	ok(!member(&p, g, "unserved") && released(&p, g, "unserved"),
	   "an owner of a kind not served (the GC never acts) keeps it");
	owners_cascade_plan_free(&p);
	owners_graph_free(g);
}

static void test_cycle(void)
{
	const struct obj objs[] = {
		{ "ConfigMap", "a", "a", T, { "foregroundDeletion" }, { { "v1", "ConfigMap", "b", "b", 0, 1 } } },
		{ "ConfigMap", "b", "b", T, { "foregroundDeletion" }, { { "v1", "ConfigMap", "a", "a", 0, 1 } } },
	};
	struct owners_graph *g = build(objs, 2);
	struct owners_cascade_plan p;

	plan(&p, g, "a", OWNERS_CASCADE_FOREGROUND, 1);
	ok(member(&p, g, "b"), "a cycle's other member joins the cascade");
	is_str(act(&p, g, "a"), "remove finalizer", "a waits for b and b for a: the cycle is broken");
	is_str(act(&p, g, "b"), "remove finalizer", "both holds come off");
	owners_cascade_plan_free(&p);
	owners_graph_free(g);
}

static int drop_uid_x(void *ctx, const struct owners_ref *ref)
{
	(void)ctx;
	return !strcmp(ref->uid, "x");
}

static void test_bodies(void)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	const struct obj objs[] = {
		{ "Pod", "p", "p", NULL, { "a", "foregroundDeletion", "b" },
		  { R("ReplicaSet", "x", "x", 1), { "v1", "ConfigMap", "c", "c", 0, 0 } } },
	};
	struct owners_graph *g = build(objs, 1);

	ok(owners_delete_options_json(&b, "u-1", "Foreground", -1, 0) == 0, "delete options");
	is_str(b.ptr, "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"propagationPolicy\":\"Foreground\","
		      "\"preconditions\":{\"uid\":\"u-1\"}}", "every DELETE carries the UID precondition");
	owners_buf_reset(&b);
	owners_delete_options_json(&b, "u-1", "Background", 0, 1);
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
	ok(owners_refs_patch_json(&b, &g->nodes[0], drop_uid_x, NULL) == 0, "references patch");
	is_str(b.ptr, "{\"metadata\":{\"resourceVersion\":\"7\",\"ownerReferences\":[{\"apiVersion\":\"v1\","
		      "\"kind\":\"ConfigMap\",\"name\":\"c\",\"uid\":\"c\",\"controller\":false}]}}",
	       "the references patch keeps the others as read, \"controller\": false included");
	owners_buf_release(&b);
	owners_graph_free(g);
}

/* The checks a plan needs, as "verb group/resource ns" lines. */
static void needs(const struct owners_cascade_plan *p, struct owners_graph *g, const char *root,
		  enum owners_cascade_mode mode, char *out, size_t size)
{
	struct owners_access_check *c = NULL;
	const char *roots[] = { root };
	uint32_t *examples = NULL;
	size_t n = 0, i, used = 0;

	*out = '\0';
	if (owners_cascade_needed_access(p, g, roots, 1, mode, &c, &examples, &n)) {
		snprintf(out, size, "ENOMEM");
		return;
	}
	for (i = 0; i < n; i++)
		used += (size_t)snprintf(out + used, size - used, "%s%s %s/%s %s", i ? "; " : "", c[i].verb,
					 c[i].group, c[i].resource, c[i].namespace_);
	owners_access_checks_release(c, n);
	free(c);
	free(examples);
}

static void test_needed_access(void)
{
	const struct obj objs[] = {
		{ "Deployment", "web", "d", NULL, { NULL }, { NOREF } },
		{ "ReplicaSet", "web-1", "rs", NULL, { NULL }, { R("Deployment", "web", "d", 1) } },
		{ "Pod", "p1", "p1", NULL, { NULL }, { R("ReplicaSet", "web-1", "rs", 1) } },
		{ "Pod", "p2", "p2", NULL, { NULL }, { R("ReplicaSet", "web-1", "rs", 1) } },
		{ "ConfigMap", "other", "other", NULL, { NULL }, { NOREF } },
		{ "Secret", "shared", "shared", NULL, { NULL },
		  { R("ReplicaSet", "web-1", "rs", 1), { "v1", "ConfigMap", "other", "other", 0, 0 } } },
		{ "ConfigMap", "stranger", "stranger", NULL, { NULL }, { NOREF } },
	};
	const struct obj leaf[] = { { "ConfigMap", "alone", "alone", NULL, { NULL }, { NOREF } } };
	struct owners_graph *g = build(objs, sizeof(objs) / sizeof(objs[0]));
	struct owners_cascade_plan p;
	char got[512];

	plan(&p, g, "d", OWNERS_CASCADE_BACKGROUND, 1);
	needs(&p, g, "d", OWNERS_CASCADE_BACKGROUND, got, sizeof(got));
	is_str(got, "delete apps/deployments ns; delete apps/replicasets ns; patch apps/replicasets ns; "
		    "delete /pods ns; patch /secrets ns",
	       "background: delete on every member type, patch on the held middle level and the "
	       "released Secret; no patch on the root (it goes at once), nothing on pods' patch or "
	       "on untouched ConfigMaps");
	owners_cascade_plan_free(&p);

	plan(&p, g, "d", OWNERS_CASCADE_FOREGROUND, 1);
	needs(&p, g, "d", OWNERS_CASCADE_FOREGROUND, got, sizeof(got));
	is_str(got, "delete apps/deployments ns; patch apps/deployments ns; delete apps/replicasets ns; "
		    "patch apps/replicasets ns; delete /pods ns; patch /secrets ns",
	       "foreground: the root holds foregroundDeletion too, so patch on it as well");
	owners_cascade_plan_free(&p);

	plan(&p, g, "d", OWNERS_CASCADE_ORPHAN, 1);
	needs(&p, g, "d", OWNERS_CASCADE_ORPHAN, got, sizeof(got));
	is_str(got, "delete apps/deployments ns; patch apps/deployments ns; patch apps/replicasets ns",
	       "orphan: delete and patch (the orphan finalizer) on the root, patch on what it releases, "
	       "nothing on the pods");
	owners_cascade_plan_free(&p);
	owners_graph_free(g);

	g = build(leaf, 1);
	plan(&p, g, "alone", OWNERS_CASCADE_FOREGROUND, 0);
	needs(&p, g, "alone", OWNERS_CASCADE_FOREGROUND, got, sizeof(got));
	is_str(got, "delete /configmaps ns", "an object without dependents needs delete only, in any mode");
	owners_cascade_plan_free(&p);
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
	test_deployment();
	test_progress();
	test_keep_when_unsure();
	test_cycle();
	test_bodies();
	test_needed_access();
	owners_resource_table_free(&types);
	return tap_done();
}
