/*
 * Discovery documents into the resource table: aggregated (v2, v2beta1)
 * and the legacy walk, stale groups, subresources left out, lookups by
 * apiVersion/kind, and garbage refused without touching the table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "discovery_parse.h"
#include "owners_error.h"
#include "json.h"
#include "resource.h"
#include "tap.h"

static struct owners_json_value *load(const char *path)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	struct owners_json_value *v = NULL;
	char chunk[4096];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		owners_buf_add(&b, chunk, n);
	fclose(f);
	owners_json_parse(&v, b.ptr, b.len, NULL);
	owners_buf_clear(&b);
	return v;
}

static struct owners_json_value *parse(const char *text)
{
	struct owners_json_value *v = NULL;

	owners_json_parse(&v, text, strlen(text), NULL);
	return v;
}

/* The resource with this group and version and plural name, or NULL. */
static const struct owners_resource *find(const struct owners_resource_table *t, const char *group,
					  const char *version, const char *resource)
{
	size_t i;

	for (i = 0; i < t->count; i++)
		if (!strcmp(t->items[i].group, group) && !strcmp(t->items[i].version, version) &&
		    !strcmp(t->items[i].resource, resource))
			return &t->items[i];
	return NULL;
}

static size_t count_group(const struct owners_resource_table *t, const char *group)
{
	size_t i, n = 0;

	for (i = 0; i < t->count; i++)
		n += !strcmp(t->items[i].group, group);
	return n;
}

static const unsigned all_verbs = OWNERS_VERB_GET | OWNERS_VERB_LIST | OWNERS_VERB_WATCH |
				  OWNERS_VERB_DELETE | OWNERS_VERB_PATCH | OWNERS_VERB_UPDATE |
				  OWNERS_VERB_CREATE | OWNERS_VERB_DELETECOLLECTION;

static void test_detect(void)
{
	struct owners_json_value *v;

	v = load("data/discovery_aggregated_api.json");
	is_int(owners_discovery_parse_detect(v), OWNERS_DISCOVERY_AGGREGATED,
	       "/api aggregated (v2)");
	owners_json_value_free(v);
	v = parse("{\"kind\":\"APIGroupDiscoveryList\",\"apiVersion\":\"apidiscovery.k8s.io/v2beta1\",\"items\":[]}");
	is_int(owners_discovery_parse_detect(v), OWNERS_DISCOVERY_AGGREGATED,
	       "v2beta1 is aggregated too");
	owners_json_value_free(v);
	v = parse("{\"kind\":\"APIGroupDiscoveryList\",\"apiVersion\":\"apidiscovery.k8s.io/v3\",\"items\":[]}");
	is_int(owners_discovery_parse_detect(v), OWNERS_DISCOVERY_UNKNOWN,
	       "an unknown aggregated version is not trusted");
	owners_json_value_free(v);
	v = load("data/discovery_legacy_api.json");
	is_int(owners_discovery_parse_detect(v), OWNERS_DISCOVERY_API_VERSIONS,
	       "legacy /api: APIVersions");
	owners_json_value_free(v);
	v = load("data/discovery_legacy_apis.json");
	is_int(owners_discovery_parse_detect(v), OWNERS_DISCOVERY_API_GROUP_LIST,
	       "legacy /apis: APIGroupList");
	owners_json_value_free(v);
	v = load("data/discovery_legacy_apps_v1.json");
	is_int(owners_discovery_parse_detect(v), OWNERS_DISCOVERY_API_RESOURCE_LIST,
	       "/apis/apps/v1: APIResourceList");
	owners_json_value_free(v);
	v = parse("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":503}");
	is_int(owners_discovery_parse_detect(v), OWNERS_DISCOVERY_STATUS, "a Status");
	owners_json_value_free(v);
	v = parse("[1,2]");
	is_int(owners_discovery_parse_detect(v), OWNERS_DISCOVERY_UNKNOWN, "an array");
	owners_json_value_free(v);
	is_int(owners_discovery_parse_detect(NULL), OWNERS_DISCOVERY_UNKNOWN, "NULL");
}

static void test_aggregated(void)
{
	struct owners_resource_table t;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_json_value *api = load("data/discovery_aggregated_api.json");
	struct owners_json_value *apis = load("data/discovery_aggregated_apis.json");
	const struct owners_resource *r;
	size_t i, slashes = 0;

	owners_resource_table_init(&t);
	ok(api && apis, "aggregated fixtures load");
	is_int(owners_discovery_parse_aggregated(&t, api, &err), 0, "/api parses");
	is_int(t.count, 13, "13 core resources, subresources left out");
	is_int(owners_discovery_parse_aggregated(&t, apis, &err), 0, "/apis parses");
	is_int(t.count, 13 + 20, "20 more from /apis");
	for (i = 0; i < t.count; i++)
		slashes += strchr(t.items[i].resource, '/') != NULL;
	is_int(slashes, 0, "no subresource in the table");

	r = find(&t, "", "v1", "pods");
	ok(r != NULL, "core v1 pods");
	if (r) {
		is_str(r->api_version, "v1", "pods: apiVersion v1");
		is_str(r->kind, "Pod", "pods: kind");
		is_str(r->singular, "pod", "pods: singular");
		ok(r->n_short_names == 1 && !strcmp(r->short_names[0], "po"), "pods: short name po");
		ok(r->n_categories == 1 && !strcmp(r->categories[0], "all"), "pods: category all");
		is_int(r->verbs, all_verbs, "pods: every verb");
		ok(r->namespaced && r->preferred, "pods: namespaced, preferred");
		ok(owners_resource_is_deletable(r), "pods are deletable");
	}
	ok(r && r->has_status, "pods: a status subresource");
	r = find(&t, "", "v1", "configmaps");
	ok(r && !r->has_status, "configmaps: no status subresource");
	r = find(&t, "", "v1", "namespaces");
	ok(r && !r->namespaced && !(r->verbs & OWNERS_VERB_DELETECOLLECTION) &&
		   owners_resource_is_deletable(r),
	   "namespaces: cluster-scoped, no deletecollection, deletable");
	r = find(&t, "", "v1", "bindings");
	ok(r && r->verbs == OWNERS_VERB_CREATE && !owners_resource_is_deletable(r),
	   "bindings: create only, not deletable");
	r = find(&t, "", "v1", "componentstatuses");
	ok(r && !owners_resource_is_deletable(r), "componentstatuses: not deletable (no delete/watch)");
	r = find(&t, "", "v1", "endpoints");
	ok(r && !strcmp(r->singular, "endpoints"), "endpoints: singular as served");

	r = find(&t, "apps", "v1", "deployments");
	ok(r && !strcmp(r->api_version, "apps/v1") && !strcmp(r->kind, "Deployment") &&
		   r->n_short_names == 1 && !strcmp(r->short_names[0], "deploy") && r->preferred &&
		   r->namespaced,
	   "apps/v1 deployments");
	ok(r && r->has_scale && r->has_status, "deployments: scale and status subresources");
	r = find(&t, "apps", "v1", "daemonsets");
	ok(r && !r->has_scale, "daemonsets: no scale subresource");
	is_int(count_group(&t, "apps"), 5, "apps: 5 resources");
	is_int(count_group(&t, "batch"), 2, "batch: cronjobs and jobs");
	r = find(&t, "batch", "v1", "cronjobs");
	ok(r && !strcmp(r->short_names[0], "cj") && !strcmp(r->api_version, "batch/v1"),
	   "batch/v1 cronjobs");

	r = find(&t, "example.com", "v1", "widgets");
	ok(r && r->preferred && r->n_categories == 2 && !strcmp(r->categories[1], "example"),
	   "CRD example.com/v1 widgets: preferred, categories");
	r = find(&t, "example.com", "v1beta1", "widgets");
	ok(r && !r->preferred, "CRD example.com/v1beta1 widgets: served, not preferred");
	ok(find(&t, "example.com", "v1beta1", "oldthings") != NULL, "a resource only in the older version");
	ok(find(&t, "example.com", "v1", "nokinds") == NULL, "a resource without responseKind is dropped");
	r = find(&t, "autoscaling", "v2", "horizontalpodautoscalers");
	ok(r && r->preferred, "autoscaling/v2 preferred (first listed)");
	r = find(&t, "autoscaling", "v1", "horizontalpodautoscalers");
	ok(r && !r->preferred, "autoscaling/v1 not preferred");

	/* Stale: recorded, nothing added. */
	is_int(count_group(&t, "metrics.k8s.io"), 0, "stale metrics.k8s.io: no resources");
	ok(owners_resource_group_failed(&t, "metrics.k8s.io/v1beta1"), "metrics.k8s.io/v1beta1 failed");
	ok(t.n_failed == 2 && !strcmp(t.failed_groups[0], "metrics.k8s.io/v1beta1") &&
		   !strcmp(t.failed_reasons[0], "stale"),
	   "its failure reads 'stale'");
	ok(owners_resource_table_failed_stale(&t, 0) && owners_resource_table_failed_stale(&t, 1),
	   "and is marked stale, typed: the reason's words decide nothing");
	ok(owners_resource_group_failed(&t, "custom.metrics.k8s.io/v1beta2"),
	   "custom.metrics.k8s.io/v1beta2 failed");
	ok(!owners_resource_group_failed(&t, "custom.metrics.k8s.io/v1beta1"),
	   "its other version did not");
	r = find(&t, "custom.metrics.k8s.io", "v1beta1", "metricvaluelists");
	ok(r && r->preferred, "the first version that is not stale is the preferred one");
	ok(!owners_resource_group_failed(&t, "apps/v1"), "apps/v1 did not fail");
	ok(!owners_resource_group_failed(&t, "v1"), "v1 did not fail");

	/* by_gvk: exactly as an ownerReference says it. */
	r = owners_resource_by_gvk(&t, "apps/v1", "Deployment");
	ok(r && !strcmp(r->resource, "deployments"), "by_gvk apps/v1 Deployment");
	r = owners_resource_by_gvk(&t, "v1", "Pod");
	ok(r && !strcmp(r->resource, "pods") && !*r->group, "by_gvk v1 Pod");
	r = owners_resource_by_gvk(&t, "example.com/v1beta1", "Widget");
	ok(r && !strcmp(r->version, "v1beta1"), "by_gvk a served non-preferred version");
	ok(!owners_resource_by_gvk(&t, "apps/v1beta1", "Deployment"), "by_gvk an unserved version: NULL");
	ok(!owners_resource_by_gvk(&t, "extensions/v1beta1", "Deployment"), "by_gvk an unserved group: NULL");
	ok(!owners_resource_by_gvk(&t, "apps/v1", "deployment"), "by_gvk is case-sensitive");
	ok(!owners_resource_by_gvk(&t, "apps/v1", "Scale"), "by_gvk never finds a subresource kind");
	ok(!owners_resource_by_gvk(&t, "metrics.k8s.io/v1beta1", "PodMetrics"), "by_gvk a stale group: NULL");
	ok(!owners_resource_by_gvk(&t, NULL, "Pod") && !owners_resource_by_gvk(NULL, "v1", "Pod"),
	   "by_gvk NULL-safe");

	owners_error_clear(&err);
	owners_resource_table_clear(&t);
	owners_resource_table_clear(&t); /* re-initialised: harmless */
	owners_resource_table_clear(NULL);
	owners_json_value_free(api);
	owners_json_value_free(apis);
}

static void test_v2beta1(void)
{
	struct owners_resource_table t;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_json_value *v;

	owners_resource_table_init(&t);
	v = parse("{\"kind\":\"APIGroupDiscoveryList\",\"apiVersion\":\"apidiscovery.k8s.io/v2beta1\","
		  "\"metadata\":{},\"items\":[{\"metadata\":{\"name\":\"apps\"},\"versions\":[{\"version\":\"v1\","
		  "\"resources\":[{\"resource\":\"deployments\",\"responseKind\":{\"group\":\"\",\"version\":\"\","
		  "\"kind\":\"Deployment\"},\"scope\":\"Namespaced\",\"singularResource\":\"deployment\","
		  "\"verbs\":[\"get\",\"list\",\"watch\",\"delete\"]}]}]}]}");
	is_int(owners_discovery_parse_aggregated(&t, v, &err), 0, "v2beta1 parses");
	ok(t.count == 1 && !strcmp(t.items[0].api_version, "apps/v1") && t.items[0].preferred &&
		   owners_resource_is_deletable(&t.items[0]),
	   "v2beta1: apps/v1 deployments, preferred, deletable (freshness absent = current)");
	owners_json_value_free(v);
	owners_resource_table_clear(&t);
	owners_error_clear(&err);
}

static void test_legacy(void)
{
	struct owners_resource_table t;
	struct owners_discovery_parse_group_list g;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_json_value *api = load("data/discovery_legacy_api.json");
	struct owners_json_value *apis = load("data/discovery_legacy_apis.json");
	struct owners_json_value *v1 = load("data/discovery_legacy_api_v1.json");
	struct owners_json_value *apps = load("data/discovery_legacy_apps_v1.json");
	const struct owners_resource *r;

	owners_resource_table_init(&t);
	owners_discovery_parse_group_list_init(&g);
	ok(api && apis && v1 && apps, "legacy fixtures load");

	is_int(owners_discovery_parse_groups(&g, api, &err), 0, "APIVersions parses");
	ok(g.count == 1 && !strcmp(g.items[0].name, "") && g.items[0].n_versions == 1 &&
		   !strcmp(g.items[0].versions[0], "v1") && !strcmp(g.items[0].preferred_version, "v1"),
	   "core group, v1, preferred v1");
	is_int(owners_discovery_parse_groups(&g, apis, &err), 0, "APIGroupList parses");
	is_int(g.count, 6, "five groups appended");
	ok(!strcmp(g.items[1].name, "apps") && !strcmp(g.items[1].preferred_version, "v1"), "apps, v1");
	ok(!strcmp(g.items[3].name, "autoscaling") && g.items[3].n_versions == 2 &&
		   !strcmp(g.items[3].versions[1], "v1") && !strcmp(g.items[3].preferred_version, "v2"),
	   "autoscaling: v2 and v1, preferred v2");
	ok(!strcmp(g.items[4].name, "example.com") && !strcmp(g.items[4].versions[0], "v1beta1") &&
		   !strcmp(g.items[4].preferred_version, "v1"),
	   "example.com: preferredVersion wins over order");
	ok(!strcmp(g.items[5].name, "only.groupversion.io") && g.items[5].n_versions == 1 &&
		   !strcmp(g.items[5].versions[0], "v2") && !strcmp(g.items[5].preferred_version, "v2"),
	   "a version given only as groupVersion; no preferredVersion: the first");

	is_int(owners_discovery_parse_resource_list(&t, v1, 1, &err), 0, "/api/v1 parses");
	is_int(t.count, 4, "4 resources, 4 subresources left out");
	r = find(&t, "", "v1", "pods");
	ok(r && !strcmp(r->api_version, "v1") && !strcmp(r->kind, "Pod") && r->namespaced &&
		   r->preferred && r->verbs == all_verbs && !strcmp(r->short_names[0], "po") &&
		   !strcmp(r->singular, "pod"),
	   "core pods, every field");
	r = find(&t, "", "v1", "namespaces");
	ok(r && !r->namespaced && owners_resource_is_deletable(r), "namespaces cluster-scoped");
	ok(r && r->has_status, "namespaces: \"namespaces/status\" marks a status subresource");
	r = find(&t, "", "v1", "configmaps");
	ok(r && !r->has_status, "configmaps: no status subresource");
	r = find(&t, "", "v1", "pods");
	ok(r && !r->has_status, "pods: none listed in this fixture, none assumed");
	is_int(owners_discovery_parse_resource_list(&t, apps, 0, &err), 0, "/apis/apps/v1 parses");
	r = owners_resource_by_gvk(&t, "apps/v1", "Deployment");
	ok(r && !strcmp(r->group, "apps") && !strcmp(r->version, "v1") && !r->preferred &&
		   !strcmp(r->short_names[0], "deploy") && r->n_categories == 1,
	   "apps/v1 deployments by gvk, preferred flag from the caller");
	ok(!owners_resource_by_gvk(&t, "autoscaling/v1", "Scale"), "deployments/scale not a resource");
	ok(r && r->has_scale, "\"deployments/scale\" marks a scale subresource");
	is_int(t.count, 7, "3 more");

	owners_discovery_parse_group_list_clear(&g);
	owners_discovery_parse_group_list_clear(&g);
	owners_discovery_parse_group_list_clear(NULL);
	owners_resource_table_clear(&t);
	owners_json_value_free(api);
	owners_json_value_free(apis);
	owners_json_value_free(v1);
	owners_json_value_free(apps);
	owners_error_clear(&err);
}

/* ---- garbage ----------------------------------------------------------- */

enum which { AGG, GROUPS, RESOURCES };

struct bad_case {
	enum which which;
	const char *json;
	const char *message;
};

#define AGG_HEAD "{\"kind\":\"APIGroupDiscoveryList\",\"apiVersion\":\"apidiscovery.k8s.io/v2\","
#define OK_RES "{\"resource\":\"things\",\"responseKind\":{\"kind\":\"Thing\"},\"verbs\":[\"list\"]}"

static const struct bad_case bad_cases[] = {
	{ AGG, "[]", "invalid aggregated discovery document: not a JSON object" },
	{ AGG, "{}", "invalid aggregated discovery document: no kind, expected an APIGroupDiscoveryList" },
	{ AGG, "{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":[]}",
	  "invalid aggregated discovery document: kind 'APIGroupList' (v1), expected an APIGroupDiscoveryList" },
	{ AGG, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"message\":\"service unavailable\"}",
	  "the server sent a status: service unavailable" },
	{ AGG, AGG_HEAD "\"items\":{}}", "'items' is an object, expected an array" },
	{ AGG, AGG_HEAD "\"metadata\":{}}", "'items' is missing" },
	{ AGG, AGG_HEAD "\"items\":[\"apps\"]}", "'items[0]' is a string, expected an object" },
	{ AGG, AGG_HEAD "\"items\":[{\"metadata\":[]}]}", "'items[0].metadata' is an array, expected an object" },
	{ AGG, AGG_HEAD "\"items\":[{\"metadata\":{\"name\":1}}]}",
	  "'items[0].metadata.name' is a number, expected a string" },
	{ AGG, AGG_HEAD "\"items\":[{\"versions\":\"v1\"}]}",
	  "'items[0].versions' is a string, expected an array" },
	{ AGG, AGG_HEAD "\"items\":[{\"versions\":[{\"resources\":[]}]}]}",
	  "'items[0].versions[0].version' is missing" },
	{ AGG, AGG_HEAD "\"items\":[{\"versions\":[{\"version\":\"v1\",\"resources\":{}}]}]}",
	  "'items[0].versions[0].resources' is an object, expected an array" },
	{ AGG, AGG_HEAD "\"items\":[{\"versions\":[{\"version\":\"v1\",\"freshness\":false}]}]}",
	  "'items[0].versions[0].freshness' is a boolean, expected a string" },
	{ AGG, AGG_HEAD "\"items\":[{\"versions\":[{\"version\":\"v1\",\"resources\":[" OK_RES ",7]}]}]}",
	  "'items[0].versions[0].resources[1]' is a number, expected an object" },
	{ AGG, AGG_HEAD "\"items\":[{\"versions\":[{\"version\":\"v1\",\"resources\":[" OK_RES
		   ",{\"resource\":\"x\",\"verbs\":[\"get\",1]}]}]}]}",
	  "'items[0].versions[0].resources[1].verbs[1]' is a number, expected a string" },
	{ AGG, AGG_HEAD "\"items\":[{\"versions\":[{\"version\":\"v1\",\"resources\":[{\"verbs\":[]}]}]}]}",
	  "'items[0].versions[0].resources[0].resource' is missing" },
	{ AGG, AGG_HEAD "\"items\":[{\"versions\":[{\"version\":\"v1\",\"resources\":[{\"resource\":\"x\","
		   "\"responseKind\":{\"kind\":[]}}]}]}]}",
	  "'items[0].versions[0].resources[0].responseKind.kind' is an array, expected a string" },
	{ AGG, AGG_HEAD "\"items\":[{\"versions\":[{\"version\":\"v1\",\"resources\":[{\"resource\":\"x\","
		   "\"shortNames\":\"x\"}]}]}]}",
	  "'items[0].versions[0].resources[0].shortNames' is a string, expected an array" },
	{ GROUPS, "{\"kind\":\"APIResourceList\",\"groupVersion\":\"v1\"}",
	  "invalid discovery group list: kind 'APIResourceList', expected an APIVersions or an APIGroupList" },
	{ GROUPS, "{\"kind\":\"APIVersions\",\"versions\":[\"v1\",2]}",
	  "'versions[1]' is a number, expected a string" },
	{ GROUPS, "{\"kind\":\"APIVersions\"}", "'versions' is missing" },
	{ GROUPS, "{\"kind\":\"APIGroupList\",\"groups\":[{\"versions\":[]}]}", "'groups[0].name' is missing" },
	{ GROUPS, "{\"kind\":\"APIGroupList\",\"groups\":[{\"name\":\"a\",\"versions\":[\"v1\"]}]}",
	  "'groups[0].versions[0]' is a string, expected an object" },
	{ GROUPS, "{\"kind\":\"APIGroupList\",\"groups\":[{\"name\":\"a\",\"versions\":[{\"groupVersion\":\"a\"}]}]}",
	  "'groups[0].versions[0].version' is missing" },
	{ GROUPS, "{\"kind\":\"APIGroupList\",\"groups\":[{\"name\":\"a\",\"preferredVersion\":\"v1\"}]}",
	  "'groups[0].preferredVersion' is a string, expected an object" },
	{ RESOURCES, "{\"kind\":\"APIResourceList\",\"resources\":[]}", "'groupVersion' is missing" },
	{ RESOURCES, "{\"kind\":\"APIResourceList\",\"groupVersion\":\"/v1\"}", "bad groupVersion '/v1'" },
	{ RESOURCES, "{\"kind\":\"APIResourceList\",\"groupVersion\":\"a/b/c\"}", "bad groupVersion 'a/b/c'" },
	{ RESOURCES, "{\"kind\":\"APIResourceList\",\"groupVersion\":\"v1\",\"resources\":[{\"name\":\"pods\","
		     "\"namespaced\":\"yes\"}]}",
	  "invalid discovery resource list: 'resources[0].namespaced' is a string, expected a boolean" },
	{ RESOURCES, "{\"kind\":\"APIResourceList\",\"groupVersion\":\"v1\",\"resources\":[{\"name\":\"pods\"},{}]}",
	  "'resources[1].name' is missing" },
};

static void test_garbage(void)
{
	struct owners_resource_table t;
	struct owners_discovery_parse_group_list g;
	struct owners_json_value *v;
	size_t i;
	int rc;

	owners_resource_table_init(&t);
	owners_discovery_parse_group_list_init(&g);
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		struct owners_error err = OWNERS_ERROR_INIT;

		v = parse(c->json);
		if (!v) {
			ok(0, "garbage %zu is JSON", i);
			continue;
		}
		if (c->which == AGG)
			rc = owners_discovery_parse_aggregated(&t, v, &err);
		else if (c->which == GROUPS)
			rc = owners_discovery_parse_groups(&g, v, &err);
		else
			rc = owners_discovery_parse_resource_list(&t, v, 1, &err);
		is_int(rc, OWNERS_EPROTO, "garbage %zu refused", i);
		ok(strstr(owners_error_message(&err), c->message) != NULL, "garbage %zu says: %s", i,
		   c->message);
		if (!strstr(owners_error_message(&err), c->message))
			printf("#   message: %s\n", owners_error_message(&err));
		owners_error_clear(&err);
		owners_json_value_free(v);
	}
	is_int(t.count, 0, "no refused document added a resource (even its good first part)");
	is_int(t.n_failed, 0, "nor a failure");
	is_int(g.count, 0, "nor a group");

	{
		struct owners_error err = OWNERS_ERROR_INIT;

		v = NULL;
		is_int(owners_json_parse(&v, "{\"kind\":", 8, &err), OWNERS_EPROTO,
		       "a truncated body is not a document");
		ok(v == NULL, "and gives no tree");
		is_int(owners_discovery_parse_aggregated(&t, NULL, &err), OWNERS_EPROTO,
		       "parsing no document is refused");
		owners_error_clear(&err);
	}
	owners_resource_table_clear(&t);
	owners_discovery_parse_group_list_clear(&g);
}

static void test_table(void)
{
	struct owners_resource_table t;
	struct owners_resource r;
	char *shorts[] = { "w", "wd" };
	size_t i;

	owners_resource_table_init(&t);
	memset(&r, 0, sizeof(r));
	is_int(owners_resource_table_add(&t, &r), OWNERS_EINVAL, "a resource needs a name");
	r.group = "example.com";
	r.version = "v1";
	r.resource = "widgets";
	r.kind = "Widget";
	r.short_names = shorts;
	r.n_short_names = 2;
	is_int(owners_resource_table_add(&t, &r), 0, "add");
	ok(t.count == 1 && !strcmp(t.items[0].api_version, "example.com/v1") &&
		   !strcmp(t.items[0].singular, "") && t.items[0].categories == NULL &&
		   !strcmp(t.items[0].short_names[1], "wd") && t.items[0].short_names[1] != shorts[1],
	   "deep copy, apiVersion computed, absent strings are \"\"");
	r.group = NULL;
	r.resource = "things";
	is_int(owners_resource_table_add(&t, &r), 0, "add a core resource");
	is_str(t.items[1].api_version, "v1", "core apiVersion is the bare version");
	for (i = 0; i < 200; i++)
		owners_resource_table_add(&t, &r);
	is_int(t.count, 202, "the table grows");

	is_int(owners_resource_table_add_failure(&t, "metrics.k8s.io", "503 service unavailable"), 0,
	       "a whole-group failure");
	is_int(owners_resource_table_add_failure(&t, "metrics.k8s.io", "again"), 0, "recorded once");
	is_int(t.n_failed, 1, "one entry");
	ok(!owners_resource_table_failed_stale(&t, 0), "a failure that is not stale is not marked so");
	ok(owners_resource_group_failed(&t, "metrics.k8s.io/v1beta1"),
	   "every version of a failed group is failed");
	ok(owners_resource_group_failed(&t, "metrics.k8s.io"), "the group itself too");
	ok(!owners_resource_group_failed(&t, "custom.metrics.k8s.io/v1beta1"), "another group is not");
	ok(!owners_resource_group_failed(&t, "k8s.io/v1"), "nor a suffix of it");
	ok(!owners_resource_group_failed(&t, "v1"), "nor the core group");
	is_int(owners_resource_table_add_failure(&t, NULL, "x"), OWNERS_EINVAL, "a failure needs a group");
	ok(!owners_resource_is_deletable(NULL), "is_deletable(NULL) is 0");
	owners_resource_table_clear(&t);
}

int main(void)
{
	test_detect();
	test_aggregated();
	test_v2beta1();
	test_legacy();
	test_garbage();
	test_table();
	return tap_done();
}
