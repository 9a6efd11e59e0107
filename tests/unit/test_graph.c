/* The owner graph: linking, virtual owners, the GC's way of classifying
 * references, cycles, and trees built over it. */
#include <stdlib.h>
#include <string.h>

#include "fake_objects.h"
#include "fake_types.h"
#include "graph.h"
#include "graph_mark.h"
#include "node_dot.h"
#include "scan.h"
#include "tap.h"
#include "tree.h"

static struct owners_resource_table types;

static void add_type(const char *group, const char *version, const char *plural, const char *kind,
		     int namespaced)
{
	fake_type_add(&types,
		      &(struct fake_type){ group, version, plural, "", kind, NULL, namespaced, 1 });
}

static const struct owners_resource *type(const char *api, const char *kind)
{
	return owners_resource_by_gvk(&types, api, kind);
}

/* Adds an object; refs is "kind:apiVersion:name:uid:controller:block" entries. */
static void add(struct owners_graph *g, const char *api, const char *kind,
		const struct fake_object *o)
{
	ok(fake_object_try_add(g, type(api, kind), o) == 0, "add %s/%s", kind, o->name);
}

#define REF(api, kind, name, uid, c, b) { api, kind, name, uid, c, b }

static uint32_t node(struct owners_graph *g, const char *uid)
{
	return owners_graph_find_uid(g, uid);
}

/* The node found by name; a failed lookup (out of memory) is no node. */
static uint32_t find_name(struct owners_graph *g, const struct owners_resource *r, const char *ns,
			  const char *name)
{
	uint32_t found;

	return owners_graph_find_name(g, r, ns, name, &found) ? UINT32_MAX - 1 : found;
}

static void test_classification(void)
{
	struct owners_graph *g = NULL;
	const struct owners_owner_ref_meta rs_refs[] = { REF("apps/v1", "Deployment", "web", "u-dep", 1, 1) };
	const struct owners_owner_ref_meta pod_refs[] = { REF("apps/v1", "ReplicaSet", "web-1", "u-rs", 1, 1) };
	const struct owners_owner_ref_meta absent[] = { REF("v1", "ConfigMap", "gone", "u-gone", 0, 0) };
	const struct owners_owner_ref_meta mismatch[] = { REF("v1", "ConfigMap", "cm-a", "u-old", 0, 0) };
	const struct owners_owner_ref_meta elsewhere[] = { REF("v1", "ConfigMap", "cm-b", "u-cm-b", 0, 0) };
	/* names a ConfigMap that is not there, with the UID of another one in
	 * the same namespace */
	const struct owners_owner_ref_meta misnamed[] = { REF("v1", "ConfigMap", "not-there", "u-cm-a", 0, 0) };
	const struct owners_owner_ref_meta unserved[] = { REF("example.com/v1", "Widget", "w", "u-w", 0, 0) };
	const struct owners_owner_ref_meta cluster_dep[] = { REF("v1", "ConfigMap", "cm-a", "u-cm-a", 0, 0) };
	const struct owners_owner_ref_meta secret[] = { REF("v1", "Secret", "s", "u-s", 0, 0) };
	const struct owners_owner_ref_meta node_owner[] = { REF("v1", "Node", "n1", "u-node", 0, 0) };
	const struct owners_owner_ref_meta unknown_group[] = { REF("metrics.k8s.io/v1beta1", "PodMetrics", "p", "u-pm", 0, 0) };
	uint32_t i;

	ok(owners_graph_new(&g, &types) == 0, "graph created");
	add(g, "apps/v1", "Deployment", FAKE_OBJECT("a", "web", "u-dep"));
	add(g, "apps/v1", "ReplicaSet", FAKE_OBJECT("a", "web-1", "u-rs", 1, rs_refs));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "web-1-x", "u-pod", 1, pod_refs));
	add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "cm-a", "u-cm-a"));
	add(g, "v1", "ConfigMap", FAKE_OBJECT("b", "cm-b", "u-cm-b"));
	add(g, "v1", "Node", FAKE_OBJECT("", "n1", "u-node"));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "absent", "u-p1", 1, absent));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "mismatch", "u-p2", 1, mismatch));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "elsewhere", "u-p3", 1, elsewhere));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "unserved", "u-p4", 1, unserved));
	add(g, "v1", "Node", FAKE_OBJECT("", "cluster-dep", "u-n2", 1, cluster_dep));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "secret-owned", "u-p5", 1, secret));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "node-owned", "u-p6", 1, node_owner));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "unknown-group", "u-p7", 1, unknown_group));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "misnamed", "u-p8", 1, misnamed));
	owners_graph_note_listing(g, type("apps/v1", "Deployment"), "a", 0, NULL);
	owners_graph_note_listing(g, type("apps/v1", "ReplicaSet"), "a", 0, NULL);
	owners_graph_note_listing(g, type("v1", "Pod"), "a", 0, NULL);
	owners_graph_note_listing(g, type("v1", "ConfigMap"), NULL, 0, NULL);
	owners_graph_note_listing(g, type("v1", "Node"), NULL, 0, NULL);
	owners_graph_note_listing(g, type("v1", "Secret"), "a", OWNERS_EFORBIDDEN, "forbidden");
	ok(owners_graph_link(g) == 0, "linked");

#define CLASS(uid) owners_graph_classify_ref(g, node(g, uid), &g->nodes[node(g, uid)].refs[0])
	is_str(owners_ref_class_name(CLASS("u-rs")), "resolved", "replicaset -> deployment resolves");
	is_str(owners_ref_class_name(CLASS("u-pod")), "resolved", "pod -> replicaset resolves");
	is_str(owners_ref_class_name(CLASS("u-p1")), "absent", "owner never existed: absent");
	is_str(owners_ref_class_name(CLASS("u-p2")), "uid-mismatch", "same name, other uid: uid-mismatch");
	is_str(owners_ref_class_name(CLASS("u-p3")), "invalid-namespace",
	       "owner uid only in another namespace: invalid-namespace");
	is_str(owners_ref_class_name(CLASS("u-p4")), "unresolvable", "kind not served: unresolvable");
	is_str(owners_ref_class_name(CLASS("u-n2")), "invalid-namespace",
	       "cluster-scoped dependent of a namespaced kind: invalid-namespace");
	is_str(owners_ref_class_name(CLASS("u-p5")), "unknown", "owner type forbidden: unknown, not absent");
	is_str(owners_ref_class_name(CLASS("u-p6")), "resolved", "cluster-scoped owner of a pod resolves");
	is_str(owners_ref_class_name(CLASS("u-p7")), "unknown", "group whose discovery failed: unknown");
	is_str(owners_ref_class_name(CLASS("u-p8")), "absent",
	       "the UID of another object in the same namespace, under another name: absent, not invalid-namespace");
#undef CLASS

	i = node(g, "u-gone");
	ok(i != OWNERS_NO_NODE && g->nodes[i].virtual_, "a missing owner becomes a virtual node");
	is_str(i != OWNERS_NO_NODE ? g->nodes[i].place->namespace_ : NULL, "a",
	       "a virtual namespaced owner sits in its dependent's namespace");
	is_int(g->nodes[node(g, "u-dep")].n_dependents, 1, "deployment has one dependent");
	is_int(owners_graph_dependents(g, &g->nodes[node(g, "u-rs")])[0], node(g, "u-pod"),
	       "replicaset's dependent is the pod");
	ok(find_name(g, type("v1", "ConfigMap"), "b", "cm-b") == node(g, "u-cm-b"),
	   "find by name in its namespace");
	ok(find_name(g, type("v1", "ConfigMap"), "a", "cm-b") == OWNERS_NO_NODE,
	   "find by name does not cross namespaces");

	{
		struct owners_graph_summary s;

		ok(owners_graph_summarize(g, NULL, &s) == 0, "summarized");
		is_int(s.objects, 15, "15 objects");
		is_int(s.edges, 11, "11 references");
		is_int(s.dangling, 6, "6 dangling (2 absent, mismatch, 2 invalid-namespace, unresolvable)");
		is_int(s.unknown, 2, "2 unknown");
		is_int(s.cycles, 0, "no cycles");
		ok(owners_graph_summarize(g, "b", &s) == 0, "summarized for namespace b");
		is_int(s.objects, 1, "namespace b holds one object (nodes unlinked to it stay out)");
		ok(owners_graph_in_scope(g, node(g, "u-node"), "a"), "a cluster-scoped owner of an object in a is in a's view");
		ok(!owners_graph_in_scope(g, node(g, "u-node"), "b"), "but not in b's view");
	}

	{
		struct owners_tree t;
		uint32_t root = node(g, "u-dep");

		ok(owners_tree_build(&t, g, &root, 1, 0, -1) == 0, "tree built");
		is_int(t.count, 3, "deployment tree has 3 rows");
		ok(t.count == 3 && t.rows[1].node == node(g, "u-rs") && t.rows[1].depth == 1 &&
		   t.rows[2].node == node(g, "u-pod") && t.rows[2].depth == 2, "rows in depth-first order");
		ok(t.count == 3 && t.rows[2].via && t.rows[2].via->controller, "row knows its controller reference");
		owners_tree_clear(&t);
		ok(owners_tree_build(&t, g, &root, 1, 0, 1) == 0, "tree with depth 1");
		ok(t.count == 2 && t.rows[1].cut, "depth limit marks the cut");
		owners_tree_clear(&t);
		root = node(g, "u-pod");
		ok(owners_tree_build(&t, g, &root, 1, 1, -1) == 0, "up tree built");
		ok(t.count == 3 && t.rows[2].node == node(g, "u-dep"), "up tree reaches the deployment");
		owners_tree_clear(&t);
	}
	owners_graph_free(g);
}

static void test_cycles_and_multiple_owners(void)
{
	struct owners_graph *g = NULL;
	const struct owners_owner_ref_meta a_refs[] = { REF("v1", "ConfigMap", "b", "u-b", 0, 1) };
	const struct owners_owner_ref_meta b_refs[] = { REF("v1", "ConfigMap", "a", "u-a", 0, 1) };
	const struct owners_owner_ref_meta self[] = { REF("v1", "ConfigMap", "self", "u-self", 0, 0) };
	const struct owners_owner_ref_meta two[] = { REF("v1", "ConfigMap", "a", "u-a", 0, 0),
						     REF("v1", "ConfigMap", "o2", "u-o2", 1, 0) };
	struct owners_tree t;
	unsigned char on_cycle[16];
	uint32_t root;

	ok(owners_graph_new(&g, &types) == 0, "graph created");
	add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "a", "u-a", 1, a_refs));
	add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "b", "u-b", 1, b_refs));
	add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "self", "u-self", 1, self));
	add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "o2", "u-o2"));
	add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "two", "u-two", 2, two));
	ok(owners_graph_link(g) == 0, "linked");
	is_int(owners_graph_find_cycles(g, on_cycle), 2, "a<->b and self are two cycles");
	ok(on_cycle[node(g, "u-a")] && on_cycle[node(g, "u-b")] && on_cycle[node(g, "u-self")] &&
	   !on_cycle[node(g, "u-two")], "cycle members marked, others not");
	root = node(g, "u-a");
	ok(owners_tree_build(&t, g, &root, 1, 0, -1) == 0, "tree over a cycle terminates");
	{
		size_t i, cycles = 0;

		for (i = 0; i < t.count; i++)
			cycles += t.rows[i].cycle;
		is_int(cycles, 1, "the cycle is cut once and marked");
	}
	owners_tree_clear(&t);
	root = node(g, "u-two");
	ok(owners_tree_build(&t, g, &root, 1, 1, -1) == 0, "up tree of a two-owner object");
	ok(t.count >= 3 && t.rows[1].node == node(g, "u-a") && t.rows[1].via->controller == 0,
	   "first owner in reference order");
	{
		size_t i, found = 0;

		for (i = 0; i < t.count; i++)
			found += t.rows[i].node == node(g, "u-o2") && t.rows[i].depth == 1;
		is_int(found, 1, "second owner is a root-level owner row too");
	}
	owners_tree_clear(&t);
	/* adding the same UID twice keeps one node */
	add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "a", "u-a", 1, a_refs));
	is_int(g->count, 5, "duplicate UID does not add a node");
	owners_graph_free(g);
}

/* The scanner lists a group's preferred version only; the GC finds an owner
 * through whichever served version the reference names. */
static void test_other_served_version(void)
{
	struct owners_graph *g = NULL;
	const struct owners_owner_ref_meta v1_ref[] = {
		REF("autoscaling/v1", "HorizontalPodAutoscaler", "hpa", "u-hpa", 0, 0) };
	const struct owners_owner_ref_meta v1_gone[] = {
		REF("autoscaling/v1", "HorizontalPodAutoscaler", "old", "u-old", 0, 0) };
	const struct owners_owner_ref_meta v3_ref[] = {
		REF("autoscaling/v3", "HorizontalPodAutoscaler", "hpa", "u-hpa", 0, 0) };

	ok(owners_graph_new(&g, &types) == 0, "graph created");
	add(g, "autoscaling/v2", "HorizontalPodAutoscaler", FAKE_OBJECT("a", "hpa", "u-hpa"));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "p1", "u-q1", 1, v1_ref));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "p2", "u-q2", 1, v1_gone));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "p3", "u-q3", 1, v3_ref));
	owners_graph_note_listing(g, type("autoscaling/v2", "HorizontalPodAutoscaler"), "a", 0, NULL);
	owners_graph_note_listing(g, type("v1", "Pod"), "a", 0, NULL);
	ok(owners_graph_link(g) == 0, "linked");
	is_str(owners_ref_class_name(owners_graph_classify_ref(g, node(g, "u-q1"), &g->nodes[node(g, "u-q1")].refs[0])),
	       "resolved", "a reference through a served, non-preferred version resolves");
	is_str(owners_ref_class_name(owners_graph_classify_ref(g, node(g, "u-q2"), &g->nodes[node(g, "u-q2")].refs[0])),
	       "absent", "and an owner missing in it is absent, not unknown");
	is_str(owners_ref_class_name(owners_graph_classify_ref(g, node(g, "u-q3"), &g->nodes[node(g, "u-q3")].refs[0])),
	       "unresolvable", "a version that is not served is unresolvable even if the object exists");
	owners_graph_free(g);
}

static int sign(int c)
{
	return c < 0 ? -1 : c > 0;
}

/* The one node order: namespace, kind, name by default; each flag keeps
 * the order one listing has always shown. */
static void test_node_order(void)
{
	struct owners_graph *g = NULL;
	uint32_t pod_b, cm_a, hpa2, hpa1, x1, x2;

	ok(owners_graph_new(&g, &types) == 0, "graph created");
	add(g, "v1", "Pod", FAKE_OBJECT("b", "x", "u-pod-b"));
	add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "z", "u-cm-a"));
	add(g, "autoscaling/v2", "HorizontalPodAutoscaler", FAKE_OBJECT("a", "a", "u-hpa2"));
	add(g, "autoscaling/v1", "HorizontalPodAutoscaler", FAKE_OBJECT("a", "b", "u-hpa1"));
	add(g, "v1", "Secret", FAKE_OBJECT("a", "s", "u-2"));
	add(g, "v1", "Secret", FAKE_OBJECT("a", "s", "u-1"));
	pod_b = node(g, "u-pod-b"), cm_a = node(g, "u-cm-a"), hpa2 = node(g, "u-hpa2");
	hpa1 = node(g, "u-hpa1"), x2 = node(g, "u-2"), x1 = node(g, "u-1");
	is_int(sign(owners_graph_node_cmp(g, cm_a, pod_b)), -1, "namespace first: a/ConfigMap before b/Pod");
	is_int(sign(owners_graph_node_order(g, cm_a, pod_b, OWNERS_NODE_ORDER_KIND_FIRST)), -1,
	       "kind first: ConfigMap before Pod");
	is_int(sign(owners_graph_node_order(g, pod_b, x1, 0)), 1, "namespace first: b/Pod after a/Secret");
	is_int(sign(owners_graph_node_order(g, pod_b, x1, OWNERS_NODE_ORDER_KIND_FIRST)), -1,
	       "kind first: b/Pod before a/Secret");
	is_int(sign(owners_graph_node_order(g, hpa2, hpa1, 0)), -1, "one kind: by name (a before b)");
	is_int(sign(owners_graph_node_order(g, hpa2, hpa1, OWNERS_NODE_ORDER_VERSION)), 1,
	       "with the version: autoscaling/v1 before autoscaling/v2, whatever the names");
	is_int(sign(owners_graph_node_cmp(g, x2, x1)), 1, "alike but for the UID: u-1 first, never a tie");
	is_int(sign(owners_graph_node_order(g, x2, x1, OWNERS_NODE_ORDER_KIND_FIRST)), 1,
	       "kind first too: u-1 first");
	is_int(owners_graph_node_cmp(g, x1, x1), 0, "a node and itself: the one 0");
	owners_graph_free(g);
}

/* The same objects added in two orders give the same graph: every owner's
 * dependents in the node order, and an unseen owner named by the rule
 * (a namespaced dependent before a cluster-scoped one, then kind,
 * namespace, name, UID), not by whichever dependent came first. */
static void build_in_order(struct owners_graph **out, int reverse)
{
	/* one UID no object has, named three ways */
	const struct owners_owner_ref_meta from_cr[] = { REF("v1", "ConfigMap", "as-cr-says", "u-missing", 0, 0) };
	const struct owners_owner_ref_meta from_b[] = { REF("v1", "ConfigMap", "as-b-says", "u-missing", 0, 1) };
	const struct owners_owner_ref_meta from_a[] = { REF("v1", "ConfigMap", "as-a-says", "u-missing", 0, 0) };
	const struct owners_owner_ref_meta to_root[] = { REF("v1", "ConfigMap", "root", "u-root", 0, 0) };
	const struct fake_object objs[] = {
		{ .namespace_ = "", .name = "cr", .uid = "u-cr", .n_refs = 1, .refs = from_cr },
		{ .namespace_ = "b", .name = "dep", .uid = "u-dep-b", .n_refs = 1, .refs = from_b },
		{ .namespace_ = "a", .name = "dep", .uid = "u-dep-a", .n_refs = 1, .refs = from_a },
		{ .namespace_ = "a", .name = "root", .uid = "u-root" },
		{ .namespace_ = "a", .name = "z", .uid = "u-z", .n_refs = 1, .refs = to_root },
		{ .namespace_ = "a", .name = "m", .uid = "u-m2", .n_refs = 1, .refs = to_root },
		{ .namespace_ = "a", .name = "m", .uid = "u-m1", .n_refs = 1, .refs = to_root },
	};
	const char *kinds[] = { "ClusterRole", "ConfigMap", "Pod", "ConfigMap", "Secret", "ConfigMap", "ConfigMap" };
	const char *apis[] = { "rbac.authorization.k8s.io/v1", "v1", "v1", "v1", "v1", "v1", "v1" };
	size_t i, n = sizeof(objs) / sizeof(*objs);

	ok(owners_graph_new(out, &types) == 0, "graph created (%s order)", reverse ? "reverse" : "given");
	for (i = 0; i < n; i++) {
		size_t k = reverse ? n - 1 - i : i;

		add(*out, apis[k], kinds[k], &objs[k]);
	}
	ok(owners_graph_link(*out) == 0, "linked");
}

/* Whether owner n's dependent i (in the node order) has this UID. */
static int dependent_is(const struct owners_graph *g, const struct owners_node *n, uint32_t i,
			const char *uid)
{
	return !strcmp(OWNERS_NODE_UID(&g->nodes[owners_graph_dependents(g, n)[i]]), uid);
}

static void test_order_of_arrival(void)
{
	struct owners_graph *g[2] = { NULL, NULL };
	int k;

	build_in_order(&g[0], 0);
	build_in_order(&g[1], 1);
	for (k = 0; k < 2; k++) {
		uint32_t missing = node(g[k], "u-missing"), root = node(g[k], "u-root");
		const struct owners_node *m = &g[k]->nodes[missing], *r = &g[k]->nodes[root];

		ok(m->virtual_, "[%d] the missing owner is virtual", k);
		is_str(m->place->namespace_, "b", "[%d] its namespace: the first namespaced dependent's by kind (ConfigMap b/dep before Pod a/dep)", k);
		is_str(m->name, "as-b-says", "[%d] its name: that dependent's reference's", k);
		is_int(m->n_dependents, 3, "[%d] three dependents", k);
		ok(m->n_dependents == 3 && dependent_is(g[k], m, 0, "u-cr") &&
			   dependent_is(g[k], m, 1, "u-dep-a") &&
			   dependent_is(g[k], m, 2, "u-dep-b"),
		   "[%d] ... in the node order: the ClusterRole, a/Pod, b/ConfigMap", k);
		ok(r->n_dependents == 3 && dependent_is(g[k], r, 0, "u-m1") &&
			   dependent_is(g[k], r, 1, "u-m2") && dependent_is(g[k], r, 2, "u-z"),
		   "[%d] root's dependents: ConfigMap m (u-m1, then u-m2: the UID breaks the tie), "
		   "then Secret z",
		   k);
	}
	owners_graph_free(g[0]);
	owners_graph_free(g[1]);
}

/* One object listed by two groups is kept as the group first by name has it. */
static void test_served_twice(void)
{
	struct owners_graph *g = NULL;
	int k;

	for (k = 0; k < 2; k++) {
		ok(owners_graph_new(&g, &types) == 0, "graph created");
		if (k) {
			add(g, "autoscaling/v2", "HorizontalPodAutoscaler", FAKE_OBJECT("a", "h", "u-h"));
			add(g, "autoscaling/v1", "HorizontalPodAutoscaler", FAKE_OBJECT("a", "h", "u-h"));
		} else {
			add(g, "autoscaling/v1", "HorizontalPodAutoscaler", FAKE_OBJECT("a", "h", "u-h"));
			add(g, "autoscaling/v2", "HorizontalPodAutoscaler", FAKE_OBJECT("a", "h", "u-h"));
		}
		is_str(g->nodes[node(g, "u-h")].place->api_version, "autoscaling/v1",
		       "served by v1 and v2, %s first: kept as v1 has it", k ? "v2" : "v1");
		owners_graph_free(g);
		g = NULL;
	}
}

/* Marks by type and namespace, cluster-scoped objects by flag, the
 * namespace's own object, and owners referred to but not seen. */
static void test_marks(void)
{
	struct owners_graph *g = NULL;
	const struct owners_owner_ref_meta gone[] = { REF("apps/v1", "Deployment", "web", "u-gone", 1, 1) };
	unsigned char marks[16];
	uint32_t *nodes = NULL;
	size_t n = 0;

	ok(owners_graph_new(&g, &types) == 0, "marks: graph");
	add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "one", "u-a1"));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "p", "u-ap", 1, gone));
	add(g, "v1", "ConfigMap", FAKE_OBJECT("b", "two", "u-b1"));
	add(g, "v1", "Node", FAKE_OBJECT("", "n1", "u-n1"));
	add(g, "v1", "Namespace", FAKE_OBJECT("", "a", "u-nsa"));
	add(g, "v1", "Namespace", FAKE_OBJECT("", "b", "u-nsb"));
	ok(owners_graph_link(g) == 0, "marks: link");
	ok(g->count < sizeof(marks), "marks: fits (%u nodes)", g->count);

	{
		struct owners_buf b = OWNERS_BUF_INIT;

		owners_buf_sets(&b, "[");
		ok(!owners_graph_node_name(&b, &g->nodes[node(g, "u-gone")]) && !strcmp(b.ptr, "[deployment.apps/web"),
		   "node name: kind.group/name, appended (%s)", b.ptr);
		owners_buf_sets(&b, "[");
		ok(!owners_graph_node_type(&b, &g->nodes[node(g, "u-gone")]) && !strcmp(b.ptr, "[deployment.apps"),
		   "node type: kind.group alone (%s)", b.ptr);
		owners_buf_reset(&b);
		ok(!owners_graph_node_type(&b, &g->nodes[node(g, "u-a1")]) && !strcmp(b.ptr, "configmap"),
		   "node type: a core kind has no group (%s)", b.ptr);
		owners_buf_clear(&b);
	}

	memset(marks, 0, sizeof(marks));
	owners_graph_mark(marks, g, NULL, "a", 0);
	ok(marks[node(g, "u-a1")] && marks[node(g, "u-ap")] && !marks[node(g, "u-b1")],
	   "marks: everything in namespace a, nothing in b");
	ok(!marks[node(g, "u-n1")] && !marks[node(g, "u-nsa")], "marks: no cluster-scoped object unless asked");
	ok(!marks[node(g, "u-gone")], "marks: an owner only referred to is not marked");

	memset(marks, 0, sizeof(marks));
	owners_graph_mark(marks, g, NULL, "a", OWNERS_MARK_OWN_NAMESPACE);
	ok(marks[node(g, "u-nsa")] && !marks[node(g, "u-nsb")] && !marks[node(g, "u-n1")],
	   "marks: the namespace's own Namespace object, not another one, not a Node");

	memset(marks, 0, sizeof(marks));
	owners_graph_mark(marks, g, type("v1", "ConfigMap"), NULL, 0);
	ok(marks[node(g, "u-a1")] && marks[node(g, "u-b1")] && !marks[node(g, "u-ap")],
	   "marks: a type in every namespace, no other type");

	memset(marks, 0, sizeof(marks));
	owners_graph_mark(marks, g, type("v1", "Node"), "a", OWNERS_MARK_CLUSTER_SCOPED);
	ok(marks[node(g, "u-n1")] && !marks[node(g, "u-a1")], "marks: a cluster-scoped type from a namespace");
	ok(owners_graph_mark_list(&nodes, &n, g, marks, 0) == 0 && n == 1 &&
		   nodes[0] == node(g, "u-n1"),
	   "marks: read back as a list");
	free(nodes);

	memset(marks, 0, sizeof(marks));
	ok(owners_graph_mark_absent(marks, g, type("apps/v1", "Deployment"), "a", "web") == 1 &&
		   marks[node(g, "u-gone")],
	   "marks: the Deployment gone but still referred to from namespace a");
	ok(owners_graph_mark_absent(marks, g, type("apps/v1", "Deployment"), "b", "web") == 0,
	   "marks: not from namespace b");
	ok(owners_graph_mark_list(&nodes, &n, g, marks, 1) == 0 && n == 0,
	   "marks: none of them in deletion");
	free(nodes);

	/* The same graph in DOT: the missing owner dashed red, the edge red. */
	{
		struct owners_buf b = OWNERS_BUF_INIT;
		const struct owners_node *web = &g->nodes[node(g, "u-gone")];
		const struct owners_node *pod = &g->nodes[node(g, "u-ap")];

		ok(owners_node_dot(&b, web) == 0 &&
			   !strcmp(b.ptr, "  \"u-gone\" [label=\"Deployment\\na/web\", style=dashed, color=red];\n"),
		   "dot: a missing owner is a red dashed box");
		owners_buf_reset(&b);
		ok(owners_node_dot(&b, pod) == 0 && !strcmp(b.ptr, "  \"u-ap\" [label=\"Pod\\na/p\"];\n"),
		   "dot: a live object is a plain box");
		owners_buf_reset(&b);
		ok(owners_node_dot_edge(&b, web, pod, 1, 0) == 0 &&
			   !strcmp(b.ptr, "  \"u-gone\" -> \"u-ap\" [penwidth=2, color=red, style=dashed];\n"),
		   "dot: a dangling controller reference is bold, red and dashed");
		owners_buf_clear(&b);
	}
	owners_graph_free(g);
}

/* What the GC tracks, and references spelled the ways its REST mapper
 * accepts (issue #24's classes 1, 2 and 7, with their neighbours). */
static void test_gc_view(void)
{
	struct owners_resource_table t;
	const struct owners_resource *r;
	size_t i, tracked = 0;

	owners_resource_table_init(&t);
	/* example.com: preferred v1 serves widgets; gadgets only in v1beta1. */
	fake_type_add(&t,
		      &(struct fake_type){ "example.com", "v1", "widgets", "widget", "Widget", NULL,
					   1, 1 });
	fake_type_add(&t,
		      &(struct fake_type){ "example.com", "v1beta1", "widgets", "widget", "Widget",
					   NULL, 1, 0 });
	fake_type_add(&t,
		      &(struct fake_type){ "example.com", "v1beta1", "gadgets", "gadget", "Gadget",
					   NULL, 1, 0 });
	fake_type_add(&t,
		      &(struct fake_type){ "", "v1", "configmaps", "configmap", "ConfigMap", NULL,
					   1, 1 });
	fake_type_add(&t, &(struct fake_type){ "", "v1", "events", "event", "Event", NULL, 1, 1 });
	fake_type_add(&t,
		      &(struct fake_type){ "events.k8s.io", "v1", "events", "event", "Event", NULL,
					   1, 1 });
	owners_resource_table_add_failure(&t, "metrics.k8s.io/v1beta1", "service unavailable");
	for (i = 0; i < t.count; i++)
		tracked += t.items[i].gc_tracked;
	r = owners_resource_by_gvk(&t, "example.com/v1beta1", "Gadget");
	ok(r && r->gc_tracked && owners_scan_wants(r),
	   "a kind served only in a non-preferred version is tracked there (ServerPreferredResources)");
	ok(owners_resource_by_gvk(&t, "example.com/v1", "Widget")->gc_tracked &&
	   !owners_resource_by_gvk(&t, "example.com/v1beta1", "Widget")->gc_tracked,
	   "a kind served in the preferred version is tracked there only");
	ok(owners_resource_tracked(&t, owners_resource_by_gvk(&t, "example.com/v1beta1", "Widget")) ==
	   owners_resource_by_gvk(&t, "example.com/v1", "Widget"), "the tracked version of another one");
	ok(!owners_resource_by_gvk(&t, "v1", "Event")->gc_tracked &&
	   !owners_resource_by_gvk(&t, "events.k8s.io/v1", "Event")->gc_tracked,
	   "events of both groups are left out, as the GC ignores them");
	is_int((int)tracked, 3, "three tracked resources: widgets, gadgets, configmaps");

#define MAP(av, kind) owners_resource_map_ref(&t, av, kind, &r)
	ok(MAP("/v1", "ConfigMap") == OWNERS_REF_MAPPED && r && !strcmp(r->resource, "configmaps"),
	   "\"/v1\" is the core group's v1 (schema.ParseGroupVersion)");
	ok(MAP("v1", "configmap") == OWNERS_REF_MAPPED && r && !strcmp(r->resource, "configmaps"),
	   "a kind in lowercase maps (the mapper registers it)");
	ok(MAP("example.com/v1beta1", "gadget") == OWNERS_REF_MAPPED, "... in any group");
	is_int(MAP("v1", "CONFIGMAP"), OWNERS_REF_UNMAPPED, "uppercase does not");
	is_int(MAP("v1", "Configmap"), OWNERS_REF_UNMAPPED, "nor another mix of cases");
	is_int(MAP("v1", "configmaps"), OWNERS_REF_UNMAPPED, "nor the plural");
	ok(MAP("v1", "ConfigMapList") == OWNERS_REF_MAPPED_MISSING && r && !strcmp(r->kind, "ConfigMap"),
	   "<Kind>List maps to a guessed resource that is not served: the lookup's 404");
	is_int(MAP("v1", "configmaplist"), OWNERS_REF_UNMAPPED, "not in lowercase");
	is_int(MAP("example.com/v2", "Widget"), OWNERS_REF_UNMAPPED, "an unserved version does not map");
	is_int(MAP("example.com/v1", "Gadget"), OWNERS_REF_UNMAPPED,
	       "a kind is mapped in the version written, not in another");
	is_int(MAP("a/b/c", "ConfigMap"), OWNERS_REF_MAPPED,
	       "more than one slash parses as no group and no version: the core group's preferred version");
	is_int(MAP("metrics.k8s.io/v1beta1", "PodMetrics"), OWNERS_REF_MAPPING_BLIND,
	       "a group/version that failed discovery: blind, not unresolvable");
	is_int(MAP("events.k8s.io/v1", "Event"), OWNERS_REF_MAPPED, "an events.k8s.io Event can be an owner");
#undef MAP
	owners_resource_table_clear(&t);
}

/* Which types can hold part of an answer (the warnings say those first). */
static void test_types_in_answer(void)
{
	struct owners_graph *g = NULL;
	const struct owners_owner_ref_meta by_role[] = { REF("rbac.authorization.k8s.io/v1", "ClusterRole",
							     "admin", "u-role", 0, 0) };
	const struct owners_resource *secret = type("v1", "Secret"), *node_type = type("v1", "Node");
	const struct owners_resource *role = type("rbac.authorization.k8s.io/v1", "ClusterRole");

	ok(owners_graph_new(&g, &types) == 0, "answer: graph");
	add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "cm", "u-cm"));
	owners_graph_note_listing(g, type("v1", "ConfigMap"), "a", 0, NULL);
	owners_graph_note_listing(g, role, NULL, OWNERS_EFORBIDDEN, "forbidden");
	owners_graph_note_listing(g, node_type, NULL, OWNERS_EFORBIDDEN, "forbidden");
	ok(owners_graph_link(g) == 0, "answer: linked");
	ok(owners_graph_type_can_hold_answer(g, secret, 1), "a namespaced type can hold a namespaced answer");
	ok(!owners_graph_type_can_hold_answer(g, node_type, 1), "a cluster-scoped type nobody refers to cannot");
	ok(!owners_graph_type_can_hold_answer(g, role, 1), "  nor can ClusterRoles while nothing names one");
	ok(owners_graph_type_can_hold_answer(g, node_type, 0), "in a cluster-wide answer every type can");
	owners_graph_free(g);

	g = NULL;
	ok(owners_graph_new(&g, &types) == 0, "answer: graph with a reference");
	add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "owned", "u-owned", 1, by_role));
	owners_graph_note_listing(g, type("v1", "ConfigMap"), "a", 0, NULL);
	owners_graph_note_listing(g, role, NULL, OWNERS_EFORBIDDEN, "forbidden");
	ok(owners_graph_link(g) == 0, "answer: linked");
	ok(owners_graph_type_can_hold_answer(g, role, 1),
	   "a cluster-scoped type can once an object names an owner of it");
	ok(!owners_graph_type_can_hold_answer(g, node_type, 1), "  and only that type");
	owners_graph_free(g);
}

/* What a watch does to the graph: an object changes its owners, goes,
 * comes back; and compaction keeps every node where it was. */
static void test_watch_edits(void)
{
	struct owners_graph *g;
	const struct owners_owner_ref_meta to_rs[] = { REF("apps/v1", "ReplicaSet", "rs", "u-rs", 1, 1) };
	struct owners_object_meta m;
	uint32_t pod, rs;
	size_t edits;

	owners_graph_new(&g, &types);
	add(g, "apps/v1", "ReplicaSet", FAKE_OBJECT("ns", "rs", "u-rs"));
	add(g, "v1", "Pod", FAKE_OBJECT("ns", "pod", "u-pod", 1, to_rs));
	owners_graph_note_listing(g, type("apps/v1", "ReplicaSet"), "ns", 0, NULL);
	owners_graph_link(g);
	pod = node(g, "u-pod");
	rs = node(g, "u-rs");
	is_int((int)g->nodes[rs].n_dependents, 1, "the pod depends on the ReplicaSet");

	/* MODIFIED: the reference is gone (orphaned). */
	memset(&m, 0, sizeof(m));
	m.name = "pod";
	m.namespace_ = "ns";
	m.uid = "u-pod";
	m.resource_version = "2";
	ok(owners_graph_update(g, type("v1", "Pod"), &m) == 0 && !g->linked, "an update unlinks the graph");
	owners_graph_link(g);
	is_int((int)g->nodes[pod].n_refs, 0, "the update replaces what the graph held (owners_graph_add keeps it)");
	is_str(OWNERS_NODE_RV(&g->nodes[pod]), "2", "and its resourceVersion");
	is_int((int)g->nodes[rs].n_dependents, 0, "the ReplicaSet has no dependent any more");

	/* DELETED, while something still refers to it. */
	m.owner_refs = to_rs;
	m.n_owner_refs = 1;
	m.resource_version = "3";
	owners_graph_update(g, type("v1", "Pod"), &m);
	is_int(owners_graph_forget(g, "u-rs"), 1, "a deleted owner is forgotten");
	is_int(owners_graph_forget(g, "u-rs"), 0, "once");
	owners_graph_link(g);
	ok(g->nodes[rs].virtual_ && !strcmp(g->nodes[rs].name, "rs"), "it turns virtual, its name kept");
	is_int((int)find_name(g, type("apps/v1", "ReplicaSet"), "ns", "rs"), (int)OWNERS_NO_NODE,
	       "and is no longer found by name");
	is_int((int)owners_graph_classify_ref(g, pod, &g->nodes[pod].refs[0]), OWNERS_REF_ABSENT,
	       "the pod's reference reads absent, as the GC would find it");

	/* It comes back (same UID): observed again. */
	add(g, "apps/v1", "ReplicaSet", FAKE_OBJECT("ns", "rs", "u-rs"));
	owners_graph_link(g);
	ok(!g->nodes[rs].virtual_ && find_name(g, type("apps/v1", "ReplicaSet"), "ns", "rs") == rs,
	   "an object seen again is real and found by name");

	edits = g->edits;
	ok(edits >= 4, "the graph counts its edits (%zu)", edits);
	is_int(owners_graph_compact(g), 0, "compaction");
	is_int((int)g->edits, 0, "starts the count again");
	ok(node(g, "u-pod") == pod && node(g, "u-rs") == rs, "every node keeps its index");
	ok(!strcmp(g->nodes[pod].name, "pod") &&
		   !strcmp(OWNERS_REF_UID(g, &g->nodes[pod].refs[0]), "u-rs") &&
		   !strcmp(g->nodes[pod].refs[0].type->kind, "ReplicaSet") &&
		   !strcmp(g->nodes[pod].place->namespace_, "ns"),
	   "and its strings, copied");
	owners_graph_link(g);
	is_int((int)g->nodes[rs].n_dependents, 1, "links as before");
	is_int((int)find_name(g, type("v1", "Pod"), "ns", "pod"), (int)pod, "and is found by name");
	owners_graph_free(g);
}

/* A resourceVersion is kept as a number when it reads as etcd writes
 * one, and every other text as it came: each reads back the same. */
static void test_resource_versions(void)
{
	static const char *const texts[] = {
		"0",
		"7",
		"123456789",
		"9999999999999999999", /* numbers: 19 digits at most */
		"",
		"0123",
		"18446744073709551615",
		"99999999999999999999",
		"12a",
		"-1",
		"+5",
		" 5",
		"abc/def",
	};
	struct owners_arena a = { 0 };
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(*texts); i++) {
		struct owners_node n;

		memset(&n, 0, sizeof(n));
		ok(owners_graph_node_set_rv(&n, &a, texts[i]) == 0, "resourceVersion '%s' kept",
		   texts[i]);
		is_str(OWNERS_NODE_RV(&n), texts[i], "and reads back the same");
		is_int((int)n.rv_is_number, i < 4,
		       "as a number only when it is one (no leading zero, below 10^19)");
	}
	{
		struct owners_node n;

		memset(&n, 0, sizeof(n));
		is_str(OWNERS_NODE_RV(&n), "", "a zeroed node has none");
		ok(owners_graph_node_set_rv(&n, NULL, NULL) == 0, "NULL kept");
		is_str(OWNERS_NODE_RV(&n), "", "as none");
	}
	owners_arena_clear(&a);
}

/* Two objects of one name (a dump, a watch that caught an object and its
 * successor): a reference resolves as the index says (the smaller UID),
 * not straight to its UID's node; with one object a name, to it. */
static void test_duplicate_names(void)
{
	struct owners_graph *g = NULL;
	const struct owners_owner_ref_meta to_b[] = { REF("apps/v1", "ReplicaSet", "rs", "u-rs-b",
							  1, 1) };
	const struct owners_owner_ref_meta to_a[] = { REF("apps/v1", "ReplicaSet", "rs", "u-rs-a",
							  1, 1) };
	const struct owners_owner_ref_meta to_gone[] = { REF("apps/v1", "ReplicaSet", "rs",
							     "u-rs-x", 1, 1) };
	uint32_t pb, pa, px;

	ok(owners_graph_new(&g, &types) == 0, "graph created");
	add(g, "apps/v1", "ReplicaSet", FAKE_OBJECT("ns", "rs", "u-rs-b"));
	add(g, "v1", "Pod", FAKE_OBJECT("ns", "pb", "u-pb", .n_refs = 1, .refs = to_b));
	add(g, "v1", "Pod", FAKE_OBJECT("ns", "px", "u-px", .n_refs = 1, .refs = to_gone));
	owners_graph_link(g);
	pb = node(g, "u-pb");
	px = node(g, "u-px");
	is_int((int)owners_graph_classify_ref(g, pb, &g->nodes[pb].refs[0]), OWNERS_REF_RESOLVED,
	       "one ReplicaSet rs: the reference to its UID resolves");
	is_int(g->name_dups, 0, "and the index holds no two of one name");
	is_int((int)owners_graph_classify_ref(g, px, &g->nodes[px].refs[0]),
	       OWNERS_REF_UID_MISMATCH, "a reference of its name and another UID: uid-mismatch");
	/* its successor, of a smaller UID, listed later */
	add(g, "apps/v1", "ReplicaSet", FAKE_OBJECT("ns", "rs", "u-rs-a"));
	add(g, "v1", "Pod", FAKE_OBJECT("ns", "pa", "u-pa", .n_refs = 1, .refs = to_a));
	owners_graph_link(g);
	pb = node(g, "u-pb");
	pa = node(g, "u-pa");
	is_int((int)owners_graph_classify_ref(g, pa, &g->nodes[pa].refs[0]), OWNERS_REF_RESOLVED,
	       "two ReplicaSets rs: the one of the smaller UID is found by name");
	is_int(g->name_dups, 1, "the index knows it holds two of one name");
	is_int((int)owners_graph_classify_ref(g, pb, &g->nodes[pb].refs[0]),
	       OWNERS_REF_UID_MISMATCH,
	       "the reference to the other reads uid-mismatch, as the index finds it, though its "
	       "UID's node is of its name");
	owners_graph_free(g);
}

/* UIDs told ahead (a list source's batch) are what the lookups after
 * use, found by their text's address: objects left out are skipped, and
 * once forgotten, new text at the same address is read afresh. */
static void test_uids_told_ahead(void)
{
	struct owners_graph *g = NULL;
	/* one buffer, as a batch holds its objects' text */
	char batch[] = "00000000-0000-4000-8000-00000000000a\0"
		       "00000000-0000-4000-8000-00000000000b\0"
		       "uid-c\0";
	const char *a = batch, *b = batch + 37, *c = batch + 74;
	const struct owners_owner_ref_meta to_a[] = { REF("apps/v1", "ReplicaSet", "rs-a", a, 1,
							  1) };

	ok(owners_graph_new(&g, &types) == 0, "graph created");
	add(g, "v1", "ConfigMap", FAKE_OBJECT("ns", "first", "u-first")); /* the index exists */
	/* a batch none of whose objects is added, forgotten; the next one's
	 * text lands where it was */
	owners_graph_prefetch_begin(g);
	owners_graph_prefetch_uid(g, a);
	owners_graph_prefetch_begin(g);
	memcpy(batch, "00000000-0000-4000-8000-0000000000ee", 36);
	add(g, "v1", "ConfigMap", FAKE_OBJECT("ns", "second", batch));
	ok(node(g, "00000000-0000-4000-8000-0000000000ee") != OWNERS_NO_NODE &&
		   node(g, "00000000-0000-4000-8000-00000000000a") == OWNERS_NO_NODE,
	   "what was told and forgotten is not what new text at its address is taken for");
	memcpy(batch, "00000000-0000-4000-8000-00000000000a", 36);
	owners_graph_prefetch_begin(g);
	owners_graph_prefetch_uid(g, a);
	owners_graph_prefetch_uid(g, b);
	owners_graph_prefetch_uid(g, c);
	owners_graph_prefetch_uid(g, a); /* (a reference's: told in order, not kept again) */
	add(g, "apps/v1", "ReplicaSet", FAKE_OBJECT("ns", "rs-a", a));
	/* b's object left out (another namespace, a selector) */
	add(g, "v1", "Pod", FAKE_OBJECT("ns", "pod-c", c, .n_refs = 1, .refs = to_a));
	owners_graph_prefetch_begin(g);
	ok(node(g, a) != OWNERS_NO_NODE && !strcmp(OWNERS_NODE_UID(&g->nodes[node(g, a)]), a),
	   "the object told ahead is found by its UID");
	ok(node(g, c) != OWNERS_NO_NODE && !strcmp(OWNERS_NODE_UID(&g->nodes[node(g, c)]), "uid-c"),
	   "past one left out, the next too (a UID that is not a UUID, kept as text)");
	is_int((int)g->nodes[node(g, c)].refs[0].owner, (int)node(g, a),
	       "its reference names the node told ahead");
	is_int((int)node(g, b), (int)OWNERS_NO_NODE, "the one left out is not there");
	/* the batch's text goes; the next batch's lands where it was */
	memcpy(batch, "00000000-0000-4000-8000-0000000000ff", 36);
	add(g, "apps/v1", "ReplicaSet", FAKE_OBJECT("ns", "rs-f", batch));
	ok(node(g, "00000000-0000-4000-8000-0000000000ff") != OWNERS_NO_NODE,
	   "forgotten: new text at a told address is read as it is now");
	is_int((int)g->count, 5, "five nodes, none twice");
	owners_graph_free(g);
}

int main(void)
{
	owners_resource_table_init(&types);
	add_type("apps", "v1", "deployments", "Deployment", 1);
	add_type("apps", "v1", "replicasets", "ReplicaSet", 1);
	add_type("", "v1", "pods", "Pod", 1);
	add_type("", "v1", "configmaps", "ConfigMap", 1);
	add_type("", "v1", "secrets", "Secret", 1);
	add_type("", "v1", "nodes", "Node", 0);
	add_type("autoscaling", "v2", "horizontalpodautoscalers", "HorizontalPodAutoscaler", 1);
	add_type("autoscaling", "v1", "horizontalpodautoscalers", "HorizontalPodAutoscaler", 1);
	types.items[types.count - 1].preferred = 0;
	owners_resource_table_mark_tracked(&types);
	owners_resource_table_add_failure(&types, "metrics.k8s.io/v1beta1", "service unavailable");
	test_classification();
	test_cycles_and_multiple_owners();
	test_other_served_version();
	test_node_order();
	add_type("", "v1", "namespaces", "Namespace", 0);
	test_marks();
	test_gc_view();
	add_type("rbac.authorization.k8s.io", "v1", "clusterroles", "ClusterRole", 0);
	test_types_in_answer();
	test_watch_edits();
	test_order_of_arrival();
	test_served_twice();
	test_resource_versions();
	test_duplicate_names();
	test_uids_told_ahead();
	owners_resource_table_clear(&types);
	return tap_done();
}
