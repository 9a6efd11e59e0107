/* Objects stuck in deletion, explained: foregroundDeletion and orphan from
 * the graph, a namespace from its content and conditions, the protection
 * finalizers from the pods and volumes read, anything else as a
 * controller's; and both renderings. */
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "json.h"
#include "stuck.h"
#include "stuck_fetch.h"
#include "stuck_render.h"
#include "fake_objects.h"
#include "tap.h"

static struct owners_resource_table types;

static void add_type(const char *group, const char *version, const char *plural, const char *kind,
		     int namespaced)
{
	struct owners_resource r;
	char api[128];

	memset(&r, 0, sizeof(r));
	snprintf(api, sizeof(api), "%s%s%s", group, *group ? "/" : "", version);
	r.group = (char *)group;
	r.version = (char *)version;
	r.api_version = api;
	r.resource = (char *)plural;
	r.singular = (char *)"";
	r.kind = (char *)kind;
	r.verbs = OWNERS_VERB_LIST | OWNERS_VERB_WATCH | OWNERS_VERB_DELETE | OWNERS_VERB_GET;
	r.namespaced = namespaced;
	r.preferred = 1;
	owners_resource_table_add(&types, &r);
}

static const struct owners_resource *type(const char *api, const char *kind)
{
	return owners_resource_by_gvk(&types, api, kind);
}

#define REF(api_, kind_, name_, uid_, c, b)                                              \
	{ .api_version = (api_), .kind = (kind_), .name = (name_), .uid = (uid_), .controller = (c), \
	  .block_owner_deletion = (b) }
#define DELETED "2026-01-01T00:10:00Z"
#define NOW 1767226500 /* 2026-01-01T00:15:00Z: five minutes after DELETED */

/* Adds an object; deleted "" for a live one. */
static uint32_t add(struct owners_graph *g, const char *api, const char *kind,
		    const struct fake_object *o)
{
	return fake_object_add(g, type(api, kind), o);
}

static const struct owners_stuck_finalizer *fin(const struct owners_stuck_report *rep, uint32_t node,
						const char *name)
{
	const struct owners_stuck_item *it = owners_stuck_item_of(rep, node);
	size_t i;

	for (i = 0; it && i < it->n_finalizers; i++)
		if (!strcmp(it->finalizers[i].name, name))
			return &it->finalizers[i];
	return NULL;
}

static const char *reason(const struct owners_stuck_report *rep, uint32_t node, const char *name)
{
	const struct owners_stuck_finalizer *f = fin(rep, node, name);

	return f ? owners_stuck_reason_name(f->reason) : "(none)";
}

static int has_object(const struct owners_stuck_finalizer *f, uint32_t node)
{
	size_t i;

	for (i = 0; f && i < f->n_objects; i++)
		if (f->objects[i] == node)
			return 1;
	return 0;
}

static void test_gc_finalizers(void)
{
	static const char *const fg[] = { "foregroundDeletion" };
	static const char *const orphan[] = { "orphan" };
	static const char *const custom[] = { "example.com/hold" };
	const struct owners_owner_ref_meta rs_refs[] = { REF("apps/v1", "Deployment", "web", "u-dep", 1, 1) };
	const struct owners_owner_ref_meta pod_refs[] = { REF("apps/v1", "ReplicaSet", "web-1", "u-rs", 1, 1) };
	/* two references to the same owner: one dependent, named once */
	const struct owners_owner_ref_meta twice[] = { REF("apps/v1", "ReplicaSet", "web-1", "u-rs", 1, 1),
						       REF("apps/v1", "ReplicaSet", "web-1", "u-rs", 0, 1) };
	const struct owners_owner_ref_meta loose[] = { REF("apps/v1", "ReplicaSet", "web-1", "u-rs", 0, 0) };
	const struct owners_owner_ref_meta to_cm[] = { REF("v1", "ConfigMap", "parent", "u-parent", 0, 0) };
	const struct owners_owner_ref_meta cyc_a[] = { REF("v1", "ConfigMap", "cyc-b", "u-cyc-b", 0, 1) };
	const struct owners_owner_ref_meta cyc_b[] = { REF("v1", "ConfigMap", "cyc-a", "u-cyc-a", 0, 1) };
	struct owners_graph *g = NULL;
	struct owners_stuck_report rep;
	struct owners_stuck_render r;
	struct owners_buf out = OWNERS_BUF_INIT;
	struct owners_json_value *doc = NULL;
	uint32_t dep, rs, p1, p2, p3, p4, parent, child, lone, held, cyc_a_n, cyc_b_n, live;
	const struct owners_stuck_finalizer *f;

	memset(&rep, 0, sizeof(rep));
	ok(owners_graph_new(&g, &types) == 0, "graph created");
	dep = add(g, "apps/v1", "Deployment",
		  FAKE_OBJECT("a", "web", "u-dep", .deleted = DELETED, .n_fins = 1, .fins = fg));
	rs = add(g, "apps/v1", "ReplicaSet",
		 FAKE_OBJECT("a", "web-1", "u-rs", 1, rs_refs, .deleted = DELETED, .n_fins = 1,
			     .fins = fg));
	p1 = add(g, "v1", "Pod", FAKE_OBJECT("a", "web-1-a", "u-p1", 1, pod_refs));
	p2 = add(g, "v1", "Pod", FAKE_OBJECT("a", "web-1-b", "u-p2", 2, twice));
	p3 = add(g, "v1", "Pod", FAKE_OBJECT("a", "web-1-c", "u-p3", 1, loose));
	p4 = add(g, "v1", "Pod",
		 FAKE_OBJECT("a", "web-1-d", "u-p4", 1, pod_refs, .deleted = DELETED, .n_fins = 1,
			     .fins = custom));
	parent = add(g, "v1", "ConfigMap",
		     FAKE_OBJECT("a", "parent", "u-parent", .deleted = DELETED, .n_fins = 1,
				 .fins = orphan));
	child = add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "child", "u-child", 1, to_cm));
	lone = add(g, "v1", "ConfigMap",
		   FAKE_OBJECT("a", "lone", "u-lone", .deleted = DELETED, .n_fins = 1, .fins = fg));
	held = add(g, "v1", "ConfigMap",
		   FAKE_OBJECT("a", "held", "u-held", .deleted = DELETED, .n_fins = 1,
			       .fins = custom));
	cyc_a_n = add(g, "v1", "ConfigMap",
		      FAKE_OBJECT("a", "cyc-a", "u-cyc-a", 1, cyc_a, .deleted = DELETED,
				  .n_fins = 1, .fins = fg));
	cyc_b_n = add(g, "v1", "ConfigMap",
		      FAKE_OBJECT("a", "cyc-b", "u-cyc-b", 1, cyc_b, .deleted = DELETED,
				  .n_fins = 1, .fins = fg));
	live = add(g, "v1", "ConfigMap",
		   FAKE_OBJECT("a", "live", "u-live", .n_fins = 1, .fins = custom));
	ok(owners_graph_link(g) == 0, "linked");

	ok(owners_stuck_is_stuck(g, NULL, dep), "deletionTimestamp and a finalizer: stuck");
	ok(!owners_stuck_is_stuck(g, NULL, live), "a finalizer without deletionTimestamp: not stuck");
	ok(!owners_stuck_is_stuck(g, NULL, p1), "live, no finalizers: not stuck");

	ok(owners_stuck_explain(&rep, g, NULL, dep) == 0, "explain the deployment");
	is_str(reason(&rep, dep, "foregroundDeletion"), "blocking-dependents",
	       "foregroundDeletion with a blocking dependent");
	f = fin(&rep, dep, "foregroundDeletion");
	ok(f && f->n_objects == 1 && has_object(f, rs), "  names the replicaset");
	ok(owners_stuck_item_of(&rep, rs) && !owners_stuck_item_of(&rep, rs)->top,
	   "  the replicaset, stuck itself, is explained too (not as an asked-for item)");
	f = fin(&rep, rs, "foregroundDeletion");
	is_int(f ? f->n_objects : 0, 3, "  the replicaset waits for three pods");
	ok(has_object(f, p1) && has_object(f, p2) && has_object(f, p4),
	   "  those whose reference blocks owner deletion");
	ok(!has_object(f, p3), "  not the one whose reference does not block");
	ok(f && f->message && strstr(f->message, "3 dependents that block owner deletion"),
	   "  the message counts them: %s", f && f->message ? f->message : "");
	is_str(reason(&rep, p4, "example.com/hold"), "controller",
	       "  a stuck pod under it is explained in turn (its own finalizer)");

	ok(owners_stuck_explain(&rep, g, NULL, parent) == 0, "explain the orphaning configmap");
	is_str(reason(&rep, parent, "orphan"), "dependents-to-release", "orphan waits for dependents");
	ok(has_object(fin(&rep, parent, "orphan"), child), "  names the dependent to release");

	ok(owners_stuck_explain(&rep, g, NULL, lone) == 0, "explain a foreground delete with nothing left");
	is_str(reason(&rep, lone, "foregroundDeletion"), "garbage-collector",
	       "no blocking dependent left: the garbage collector must act");

	ok(owners_stuck_explain(&rep, g, NULL, held) == 0, "explain a custom finalizer");
	is_str(reason(&rep, held, "example.com/hold"), "controller", "its controller must remove it");

	ok(owners_stuck_explain(&rep, g, NULL, cyc_a_n) == 0, "explain a foreground cycle");
	ok(has_object(fin(&rep, cyc_a_n, "foregroundDeletion"), cyc_b_n) &&
	   has_object(fin(&rep, cyc_b_n, "foregroundDeletion"), cyc_a_n),
	   "  each waits for the other, and the explanation ends");
	ok(owners_stuck_explain(&rep, g, NULL, rs) == 0, "asking for the replicaset itself");
	ok(owners_stuck_item_of(&rep, rs)->top, "  makes it an asked-for item");
	is_int(rep.count, 8, "one item per stuck object, none twice");

	owners_stuck_sort(&rep, g);
	ok(rep.items[0].top && !rep.items[rep.count - 1].top, "sorted: asked-for items first");
	ok(owners_stuck_item_of(&rep, dep) && owners_stuck_item_of(&rep, dep)->node == dep,
	   "sorting keeps the node -> item index");

	memset(&r, 0, sizeof(r));
	r.g = g;
	r.rep = &rep;
	r.print.now = NOW;
	r.namespace_ = "a";
	ok(owners_stuck_render_text(&out, &r) == 0, "text renders");
	ok(strstr(out.ptr, "Deployment/web: deleting for 5m\n"
			   "  foregroundDeletion: waiting for 1 dependent that blocks owner deletion") != NULL,
	   "text: the object, how long, the finalizer and why");
	ok(strstr(out.ptr, "    ReplicaSet/web-1: deleting for 5m\n"
			   "      foregroundDeletion: waiting for 3 dependents") != NULL,
	   "text: the blocking dependent explained in place");
	ok(strstr(out.ptr, "        Pod/web-1-a: not being deleted yet (the garbage collector deletes it first)\n") != NULL,
	   "text: a dependent not yet deleted says so");
	ok(strstr(out.ptr, "if so: owners finalizers remove configmap/held -n a --finalizer example.com/hold --uid=u-held\n") != NULL,
	   "text: a controller's finalizer comes with the command that removes it");
	ok(strstr(out.ptr, "stuck (explained above)") != NULL, "text: a cycle is not expanded twice");
	ok(strstr(out.ptr, "in namespace") == NULL, "text: the run's own namespace is not repeated");

	owners_buf_reset(&out);
	ok(owners_stuck_render_json(&out, &r) == 0, "json renders");
	ok(owners_json_parse(&doc, out.ptr, out.len, NULL) == 0, "json parses");
	{
		const struct owners_json_value *items = owners_json_get(doc, "items"), *web = NULL, *fg0, *obj;
		size_t i;

		is_str(owners_json_string(owners_json_get(doc, "kind")), "OwnersFinalizers", "json: kind");
		for (i = 0; items && i < items->count; i++)
			if (!strcmp(owners_json_string(owners_json_path(items->items[i], "metadata", "name", NULL)), "web"))
				web = items->items[i];
		ok(web != NULL, "json: the deployment is an item");
		ok(owners_json_path(web, "metadata", "deletionTimestamp", NULL) &&
			   owners_json_path(web, "metadata", "finalizers", NULL),
		   "json: metadata as the server has it: deletionTimestamp, finalizers");
		is_int(owners_json_int(owners_json_path(web, "owners", "stuckSeconds", NULL), -1), 300,
		       "json: owners.stuckSeconds");
		fg0 = owners_json_path(web, "owners", "finalizers", NULL);
		fg0 = fg0 && fg0->count ? fg0->items[0] : NULL;
		is_str(owners_json_string(owners_json_get(fg0, "reason")), "blocking-dependents", "json: reason");
		is_str(owners_json_string(owners_json_get(fg0, "field")), "metadata.finalizers", "json: field");
		obj = owners_json_get(fg0, "objects");
		obj = obj && obj->count ? obj->items[0] : NULL;
		is_str(owners_json_string(owners_json_path(obj, "metadata", "name", NULL)), "web-1",
		       "json: the blocking dependent, an item itself");
		obj = owners_json_path(obj, "owners", "finalizers", NULL);
		obj = obj && obj->count ? owners_json_get(obj->items[0], "objects") : NULL;
		is_int(obj ? obj->count : 0, 3, "json: recursively, with its own blocking dependents");
		is_str(obj && obj->count ? owners_json_string(owners_json_path(obj->items[0], "owners", "state", NULL))
					 : NULL,
		       "live", "json: a dependent not being deleted is 'live'");
	}
	owners_json_value_free(doc);
	owners_buf_clear(&out);
	owners_stuck_report_clear(&rep);
	owners_graph_free(g);
}

static void test_namespace(void)
{
	static const char *const custom[] = { "example.com/hold" };
	static const char nsdoc[] =
		"{\"metadata\":{\"name\":\"old\"},\"spec\":{\"finalizers\":[\"kubernetes\"]},"
		"\"status\":{\"phase\":\"Terminating\",\"conditions\":["
		"{\"type\":\"NamespaceDeletionDiscoveryFailure\",\"status\":\"False\",\"reason\":\"ResourcesDiscovered\",\"message\":\"ok\"},"
		"{\"type\":\"NamespaceContentRemaining\",\"status\":\"True\",\"reason\":\"SomeResourcesRemain\","
		"\"message\":\"Some resources are remaining: configmaps. has 2 resource instances\"}]}}";
	struct owners_graph *g = NULL;
	struct owners_stuck_facts facts;
	struct owners_stuck_report rep;
	struct owners_stuck_render r;
	struct owners_stuck_namespace *ns;
	struct owners_json_value *doc = NULL;
	struct owners_buf out = OWNERS_BUF_INIT;
	const struct owners_stuck_finalizer *f;
	uint32_t old, held, plain, other, empty;
	uint32_t *reach = NULL;
	size_t n_reach = 0;

	memset(&facts, 0, sizeof(facts));
	memset(&rep, 0, sizeof(rep));
	ok(owners_graph_new(&g, &types) == 0, "graph created");
	old = add(g, "v1", "Namespace", FAKE_OBJECT("", "old", "u-ns-old", .deleted = DELETED));
	empty = add(g, "v1", "Namespace",
		    FAKE_OBJECT("", "empty", "u-ns-empty", .deleted = DELETED));
	held = add(g, "v1", "ConfigMap",
		   FAKE_OBJECT("old", "held", "u-held", .deleted = DELETED, .n_fins = 1,
			       .fins = custom));
	plain = add(g, "v1", "ConfigMap", FAKE_OBJECT("old", "plain", "u-plain"));
	add(g, "v1", "Secret", FAKE_OBJECT("old", "s", "u-s"));
	other = add(g, "v1", "ConfigMap",
		    FAKE_OBJECT("elsewhere", "held", "u-other", .deleted = DELETED, .n_fins = 1,
				.fins = custom));
	owners_graph_note_listing(g, type("v1", "ConfigMap"), "old", 0, NULL);
	owners_graph_note_listing(g, type("v1", "Secret"), "old", OWNERS_EFORBIDDEN, "forbidden");
	ok(owners_graph_link(g) == 0, "linked");

	ok(owners_stuck_is_stuck(g, NULL, old),
	   "a namespace in deletion whose spec was not read counts as stuck (cannot tell)");
	ok(owners_stuck_fetch_reach(&reach, &n_reach, g, &old, 1) == 0, "reach from the namespace");
	is_int(n_reach, 2, "  the namespace and its content in deletion (not the live content, not other namespaces)");
	free(reach);
	(void)other;
	(void)plain;

	ns = owners_stuck_facts_add_namespace(&facts, old);
	ok(owners_json_parse(&doc, nsdoc, sizeof(nsdoc) - 1, NULL) == 0, "namespace document parses");
	ok(owners_stuck_fetch_read_namespace(ns, doc) == 0, "namespace facts read");
	owners_json_value_free(doc);
	doc = NULL;
	ns->content_listed = 1;
	is_int(ns->n_spec_finalizers, 1, "  spec.finalizers read");
	is_int(ns->n_conditions, 2, "  every condition kept");
	ns = owners_stuck_facts_add_namespace(&facts, empty);
	ns->content_listed = 1;
	ok(!owners_stuck_is_stuck(g, &facts, empty), "a namespace in deletion with no finalizers at all: not stuck");

	ok(owners_stuck_explain(&rep, g, &facts, old) == 0, "explain the namespace");
	f = fin(&rep, old, "kubernetes");
	ok(f && f->spec, "the spec finalizer 'kubernetes' is explained");
	is_str(f ? owners_stuck_reason_name(f->reason) : NULL, "namespace-content", "  by the content left");
	is_int(f ? f->content_objects : 0, 3, "  three objects left");
	is_int(f ? f->n_content : 0, 2, "  of two types");
	is_int(f ? f->content[0].stuck : 9, 1, "  configmaps: one of them stuck");
	ok(f && f->n_objects == 1 && has_object(f, held), "  the stuck one is named");
	is_int(f ? f->content_unlisted : 0, 1, "  the forbidden type is counted as not listed");
	is_int(f ? f->n_conditions : 0, 1, "  only the True condition is kept");
	is_str(reason(&rep, held, "example.com/hold"), "controller", "  the stuck content is explained");

	memset(&r, 0, sizeof(r));
	r.g = g;
	r.rep = &rep;
	r.print.now = NOW;
	r.namespace_ = "default";
	ok(owners_stuck_render_text(&out, &r) == 0, "text renders");
	ok(strstr(out.ptr, "Namespace/old: deleting for 5m\n"
			   "  kubernetes (spec.finalizers): the namespace controller removes it once the "
			   "namespace is empty: 3 objects left, 1 of them stuck in deletion\n"
			   "    content: configmaps 2 (1 stuck), secrets 1\n") != NULL,
	   "text: the namespace's content by type");
	ok(strstr(out.ptr, "    ConfigMap/held: deleting for 5m\n") != NULL,
	   "text: the stuck content, without repeating its namespace");
	ok(strstr(out.ptr, "      NamespaceContentRemaining: Some resources are remaining") != NULL,
	   "text: the conditions the controller reported");
	owners_buf_clear(&out);
	owners_stuck_report_clear(&rep);

	/* the same namespace, emptied, with the controller failing */
	{
		static const char failing[] =
			"{\"spec\":{\"finalizers\":[\"kubernetes\"]},\"status\":{\"conditions\":["
			"{\"type\":\"NamespaceDeletionDiscoveryFailure\",\"status\":\"True\",\"reason\":\"DiscoveryFailed\","
			"\"message\":\"Discovery failed for some groups\"}]}}";
		struct owners_stuck_facts f2;
		struct owners_stuck_namespace *n2;

		memset(&f2, 0, sizeof(f2));
		n2 = owners_stuck_facts_add_namespace(&f2, empty);
		ok(owners_json_parse(&doc, failing, sizeof(failing) - 1, NULL) == 0 &&
			   owners_stuck_fetch_read_namespace(n2, doc) == 0,
		   "a failing namespace read");
		owners_json_value_free(doc);
		doc = NULL;
		n2->content_listed = 1;
		ok(owners_stuck_explain(&rep, g, &f2, empty) == 0, "explain the empty namespace");
		is_str(reason(&rep, empty, "kubernetes"), "namespace-controller",
		       "empty but the controller reports a failure: up to the namespace controller");
		ok(strstr(fin(&rep, empty, "kubernetes")->message, "reports a failure") != NULL,
		   "  the message says the controller reports a failure");
		owners_stuck_report_clear(&rep);
		n2->content_listed = 0;
		ok(owners_stuck_explain(&rep, g, &f2, empty) == 0, "explain it without its content listed");
		is_str(reason(&rep, empty, "kubernetes"), "unknown", "  content not listed: unknown");
		owners_stuck_report_clear(&rep);
		free(n2->error);
		n2->error = owners_strdup("forbidden");
		ok(owners_stuck_explain(&rep, g, &f2, empty) == 0, "explain it when it could not be read");
		ok(owners_stuck_item_of(&rep, empty)->error != NULL, "  the item carries the error");
		owners_stuck_report_clear(&rep);
		owners_stuck_facts_clear(&f2);
	}
	owners_stuck_facts_clear(&facts);
	owners_graph_free(g);
}

static void test_protection(void)
{
	static const char *const pvc_fin[] = { "kubernetes.io/pvc-protection" };
	static const char *const pv_fin[] = { "kubernetes.io/pv-protection" };
	static const char pods[] =
		"{\"kind\":\"PodList\",\"items\":["
		"{\"metadata\":{\"name\":\"user\"},\"spec\":{\"nodeName\":\"n1\",\"volumes\":["
		"{\"name\":\"d\",\"persistentVolumeClaim\":{\"claimName\":\"data\"}}]},\"status\":{\"phase\":\"Running\"}},"
		"{\"metadata\":{\"name\":\"pending\"},\"spec\":{\"volumes\":["
		"{\"name\":\"d\",\"persistentVolumeClaim\":{\"claimName\":\"idle\"}}]},\"status\":{\"phase\":\"Pending\"}}]}";
	static const char bound[] = "{\"spec\":{\"claimRef\":{\"namespace\":\"a\",\"name\":\"data\"}},"
				    "\"status\":{\"phase\":\"Bound\"}}";
	static const char released[] = "{\"status\":{\"phase\":\"Released\"}}";
	struct owners_graph *g = NULL;
	struct owners_stuck_facts facts;
	struct owners_stuck_report rep;
	struct owners_pod_claims_parser *p = NULL;
	struct owners_stuck_pods *sp;
	struct owners_json_value *doc = NULL;
	const struct owners_stuck_finalizer *f;
	uint32_t data, idle, other, pv, pv2;

	memset(&facts, 0, sizeof(facts));
	memset(&rep, 0, sizeof(rep));
	ok(owners_graph_new(&g, &types) == 0, "graph created");
	data = add(g, "v1", "PersistentVolumeClaim",
		   FAKE_OBJECT("a", "data", "u-data", .deleted = DELETED, .n_fins = 1,
			       .fins = pvc_fin));
	idle = add(g, "v1", "PersistentVolumeClaim",
		   FAKE_OBJECT("a", "idle", "u-idle", .deleted = DELETED, .n_fins = 1,
			       .fins = pvc_fin));
	other = add(g, "v1", "PersistentVolumeClaim",
		    FAKE_OBJECT("b", "x", "u-x", .deleted = DELETED, .n_fins = 1, .fins = pvc_fin));
	pv = add(g, "v1", "PersistentVolume",
		 FAKE_OBJECT("", "pv-1", "u-pv", .deleted = DELETED, .n_fins = 1, .fins = pv_fin));
	pv2 = add(g, "v1", "PersistentVolume",
		  FAKE_OBJECT("", "pv-2", "u-pv2", .deleted = DELETED, .n_fins = 1,
			      .fins = pv_fin));
	ok(owners_graph_link(g) == 0, "linked");

	sp = owners_stuck_facts_add_pods(&facts, g->nodes[data].place->namespace_);
	ok(owners_pod_claims_parser_new(&p, &sp->pods) == 0, "pod parser");
	ok(owners_pod_claims_parser_feed(p, pods, sizeof(pods) - 1, NULL) == 0 &&
	   owners_pod_claims_parser_finish(p, NULL) == 0, "pods of namespace a read");
	owners_pod_claims_parser_free(p);
	ok(owners_json_parse(&doc, bound, sizeof(bound) - 1, NULL) == 0 &&
		   owners_stuck_fetch_read_volume(owners_stuck_facts_add_volume(&facts, pv), doc) ==
			   0,
	   "bound volume read");
	owners_json_value_free(doc);
	ok(owners_json_parse(&doc, released, sizeof(released) - 1, NULL) == 0 &&
		   owners_stuck_fetch_read_volume(owners_stuck_facts_add_volume(&facts, pv2),
						  doc) == 0,
	   "released volume read");
	owners_json_value_free(doc);

	ok(owners_stuck_explain(&rep, g, &facts, data) == 0, "explain a claim in use");
	f = fin(&rep, data, "kubernetes.io/pvc-protection");
	is_str(f ? owners_stuck_reason_name(f->reason) : NULL, "in-use", "pvc-protection: in use");
	ok(f && f->n_pods == 1 && !strcmp(f->pods[0]->pod, "user"), "  by the scheduled pod that mounts it");
	ok(owners_stuck_explain(&rep, g, &facts, idle) == 0, "explain a claim only an unscheduled pod names");
	f = fin(&rep, idle, "kubernetes.io/pvc-protection");
	is_str(f ? owners_stuck_reason_name(f->reason) : NULL, "released",
	       "  an unscheduled pod does not hold it: released, up to the controller");
	is_int(f ? f->n_pods : 0, 1, "  the pod is still listed, as not holding it");
	ok(owners_stuck_explain(&rep, g, &facts, other) == 0, "explain a claim whose pods were not read");
	is_str(reason(&rep, other, "kubernetes.io/pvc-protection"), "unknown", "  unknown");
	ok(owners_stuck_explain(&rep, g, &facts, pv) == 0, "explain a bound volume");
	f = fin(&rep, pv, "kubernetes.io/pv-protection");
	is_str(f ? owners_stuck_reason_name(f->reason) : NULL, "bound", "pv-protection: bound");
	is_str(f && f->volume ? f->volume->claim_name : NULL, "data", "  to its claim");
	ok(owners_stuck_explain(&rep, g, &facts, pv2) == 0, "explain a released volume");
	is_str(reason(&rep, pv2, "kubernetes.io/pv-protection"), "released", "  not bound: released");

	owners_stuck_report_clear(&rep);
	owners_stuck_facts_clear(&facts);
	owners_graph_free(g);
}

int main(void)
{
	owners_resource_table_init(&types);
	add_type("", "v1", "pods", "Pod", 1);
	add_type("", "v1", "configmaps", "ConfigMap", 1);
	add_type("", "v1", "secrets", "Secret", 1);
	add_type("", "v1", "namespaces", "Namespace", 0);
	add_type("", "v1", "persistentvolumeclaims", "PersistentVolumeClaim", 1);
	add_type("", "v1", "persistentvolumes", "PersistentVolume", 0);
	add_type("apps", "v1", "deployments", "Deployment", 1);
	add_type("apps", "v1", "replicasets", "ReplicaSet", 1);
	test_gc_finalizers();
	test_namespace();
	test_protection();
	owners_resource_table_clear(&types);
	return tap_done();
}
