/*
 * TYPE as a user types it -> a resource, over a table built from the
 * aggregated discovery fixtures (core v1; apps; batch; autoscaling v2+v1;
 * events.k8s.io; a CRD group example.com with v1 and v1beta1; two groups
 * a.example.com and b.example.com sharing names; stale metrics groups).
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
#include "type_resolve.h"

static int load_into(struct owners_resource_table *t, const char *path)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	struct owners_json_value *v = NULL;
	char chunk[4096];
	size_t n;
	int rc = -1;
	FILE *f = fopen(path, "rb");

	if (!f)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		owners_buf_add(&b, chunk, n);
	fclose(f);
	if (!owners_json_parse(&v, b.ptr, b.len, NULL))
		rc = owners_discovery_parse_aggregated(t, v, NULL);
	owners_json_value_free(v);
	owners_buf_clear(&b);
	return rc;
}

/* typed resolves to group/version resource. */
static void resolves(const struct owners_resource_table *t, const char *typed,
		     const char *api_version, const char *resource)
{
	const struct owners_resource *r = (void *)1;
	struct owners_error err = OWNERS_ERROR_INIT;
	int rc = owners_type_resolve(&r, t, typed, &err);

	ok(!rc && r && !strcmp(r->api_version, api_version) && !strcmp(r->resource, resource),
	   "'%s' is %s %s", typed, api_version, resource);
	if (rc)
		printf("#   error: %s\n", owners_error_message(&err));
	else if (r)
		printf("%s", strcmp(r->api_version, api_version) || strcmp(r->resource, resource)
				     ? "#   got another resource\n" : "");
	owners_error_clear(&err);
}

/* typed is a category of exactly these types ("group/version resource,
 * ..."), in this order. */
static void category(const struct owners_resource_table *t, const char *typed, const char *want)
{
	const struct owners_resource **types = NULL;
	struct owners_buf b = OWNERS_BUF_INIT;
	size_t n = 0, i;
	int rc = owners_type_category(&types, &n, t, typed);

	for (i = 0; !rc && i < n; i++)
		owners_buf_addf(&b, "%s%s %s", i ? ", " : "", types[i]->api_version, types[i]->resource);
	ok(!rc, "category '%s' read", typed);
	is_str(b.ptr ? b.ptr : "", want, "category '%s': its types", typed);
	free(types);
	owners_buf_clear(&b);
}

/* owners_type_expand(): typed is want ("api_version resource, ..."),
 * is_category saying whether it was a category. */
static void expands(const struct owners_resource_table *t, const char *typed, int is_category, const char *want)
{
	const struct owners_resource **types = NULL;
	struct owners_buf b = OWNERS_BUF_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;
	size_t n = 0, i;
	int cat = -1, rc = owners_type_expand(&types, &n, &cat, t, typed, &err);

	for (i = 0; !rc && i < n; i++)
		owners_buf_addf(&b, "%s%s %s", i ? ", " : "", types[i]->api_version, types[i]->resource);
	ok(!rc && cat == is_category, "'%s' expands, %s", typed, is_category ? "a category" : "a type");
	is_str(b.ptr ? b.ptr : owners_error_message(&err), want, "'%s': its types", typed);
	free(types);
	owners_buf_clear(&b);
	owners_error_clear(&err);
}

/* typed fails with code and exactly this message. */
static void fails(const struct owners_resource_table *t, const char *typed, int code,
		  const char *message)
{
	const struct owners_resource *r = (void *)1;
	struct owners_error err = OWNERS_ERROR_INIT;
	int rc = owners_type_resolve(&r, t, typed, &err);

	ok(rc == code && r == NULL && err.code == code, "'%s' fails with %s", typed,
	   owners_errcode_name(code));
	is_str(owners_error_message(&err), message, "'%s': message", typed);
	owners_error_clear(&err);
}

int main(void)
{
	struct owners_resource_table t, empty;
	struct owners_resource extra;

	owners_resource_table_init(&t);
	owners_resource_table_init(&empty);
	ok(!load_into(&t, "data/discovery_aggregated_api.json") &&
		   !load_into(&t, "data/discovery_aggregated_apis.json"),
	   "table built from the aggregated fixtures");

	/* Every form of a name. */
	resolves(&t, "deploy", "apps/v1", "deployments");
	resolves(&t, "deployment", "apps/v1", "deployments");
	resolves(&t, "deployments", "apps/v1", "deployments");
	resolves(&t, "Deployment", "apps/v1", "deployments");
	resolves(&t, "deployments.apps", "apps/v1", "deployments");
	resolves(&t, "deployment.apps", "apps/v1", "deployments");
	resolves(&t, "Deployment.apps", "apps/v1", "deployments");
	resolves(&t, "deploy.apps", "apps/v1", "deployments");
	resolves(&t, "deployment.v1.apps", "apps/v1", "deployments");
	resolves(&t, "deployments.v1.apps", "apps/v1", "deployments");
	resolves(&t, "rs", "apps/v1", "replicasets");
	resolves(&t, "sts", "apps/v1", "statefulsets");
	resolves(&t, "po", "v1", "pods");
	resolves(&t, "pod", "v1", "pods");
	resolves(&t, "pods", "v1", "pods");
	resolves(&t, "cm", "v1", "configmaps");
	resolves(&t, "ns", "v1", "namespaces");
	resolves(&t, "cj", "batch/v1", "cronjobs");
	resolves(&t, "jobs.batch", "batch/v1", "jobs");
	resolves(&t, "endpoints", "v1", "endpoints");

	/* Case does not matter. */
	resolves(&t, "PODS", "v1", "pods");
	resolves(&t, "Pod", "v1", "pods");
	resolves(&t, "DEPLOYMENTS.APPS", "apps/v1", "deployments");
	resolves(&t, "Deployment.V1.Apps", "apps/v1", "deployments");
	resolves(&t, "RS", "apps/v1", "replicasets");

	/* CRDs, preferred version, explicit version. */
	resolves(&t, "widgets.example.com", "example.com/v1", "widgets");
	resolves(&t, "widget", "example.com/v1", "widgets");
	resolves(&t, "wg", "example.com/v1", "widgets");
	resolves(&t, "Widget.example.com", "example.com/v1", "widgets");
	resolves(&t, "widgets.v1beta1.example.com", "example.com/v1beta1", "widgets");
	resolves(&t, "widget.v1.example.com", "example.com/v1", "widgets");
	resolves(&t, "oldthings", "example.com/v1beta1", "oldthings");
	resolves(&t, "hpa", "autoscaling/v2", "horizontalpodautoscalers");
	resolves(&t, "hpa.v1.autoscaling", "autoscaling/v1", "horizontalpodautoscalers");
	resolves(&t, "MetricValueList", "custom.metrics.k8s.io/v1beta1", "metricvaluelists");
	resolves(&t, "metricvaluelists.custom.metrics.k8s.io", "custom.metrics.k8s.io/v1beta1",
		 "metricvaluelists");

	/* Rounds: a real name beats another type's short name; the kind is
	 * the last resort. */
	resolves(&t, "widgets", "example.com/v1", "widgets");
	resolves(&t, "gadget", "a.example.com/v1", "gizmos");
	resolves(&t, "gizmos.b.example.com", "b.example.com/v1alpha1", "gizmos");
	resolves(&t, "Sprocket.v1alpha1.b.example.com", "b.example.com/v1alpha1", "sprockets");

	/* The core group wins. */
	resolves(&t, "events", "v1", "events");
	resolves(&t, "ev", "v1", "events");
	resolves(&t, "Event", "v1", "events");
	resolves(&t, "events.events.k8s.io", "events.k8s.io/v1", "events");
	resolves(&t, "event.v1.events.k8s.io", "events.k8s.io/v1", "events");
	resolves(&t, "pods.", "v1", "pods");

	/* Ambiguity. */
	fails(&t, "gizmos", OWNERS_EAMBIGUOUS,
	      "the server has several types named 'gizmos': gizmos.a.example.com, gizmos.b.example.com");
	fails(&t, "Gizmo", OWNERS_EAMBIGUOUS,
	      "the server has several types named 'Gizmo': gizmos.a.example.com, gizmos.b.example.com");
	fails(&t, "sprockets", OWNERS_EAMBIGUOUS,
	      "the server has several types named 'sprockets': sprockets.a.example.com, "
	      "sprockets.b.example.com");

	/* Unknown. */
	fails(&t, "foo", OWNERS_ENOTFOUND, "the server doesn't have a resource type 'foo'");
	fails(&t, "deployments.v1beta1.apps", OWNERS_ENOTFOUND,
	      "the server doesn't have a resource type 'deployments.v1beta1.apps'");
	fails(&t, "deployments.batch", OWNERS_ENOTFOUND,
	      "the server doesn't have a resource type 'deployments.batch'");
	fails(&t, "oldthings.v1.example.com", OWNERS_ENOTFOUND,
	      "the server doesn't have a resource type 'oldthings.v1.example.com'");
	fails(&t, "scale", OWNERS_ENOTFOUND, "the server doesn't have a resource type 'scale'");
	fails(&t, "deployments/scale", OWNERS_ENOTFOUND,
	      "the server doesn't have a resource type 'deployments/scale'");
	fails(&t, "nokinds", OWNERS_ENOTFOUND, "the server doesn't have a resource type 'nokinds'");
	fails(&t, ".", OWNERS_ENOTFOUND, "the server doesn't have a resource type '.'");
	fails(&t, ".apps", OWNERS_ENOTFOUND, "the server doesn't have a resource type '.apps'");
	fails(&t, "", OWNERS_EINVAL, "empty resource type");
	fails(&empty, "pods", OWNERS_ENOTFOUND, "the server doesn't have a resource type 'pods'");

	/* A group whose discovery failed: say so, with the reason recorded
	 * (the server's, once cmd/session/session.c asked the APIService). */
	fails(&t, "foo.metrics.k8s.io", OWNERS_ESERVER,
	      "cannot resolve 'foo.metrics.k8s.io': discovery of metrics.k8s.io/v1beta1 failed: stale");
	fails(&t, "PodMetrics.Metrics.K8s.io", OWNERS_ESERVER,
	      "cannot resolve 'PodMetrics.Metrics.K8s.io': discovery of metrics.k8s.io/v1beta1 failed: stale");
	fails(&t, "pods.v1beta1.metrics.k8s.io", OWNERS_ESERVER,
	      "cannot resolve 'pods.v1beta1.metrics.k8s.io': discovery of metrics.k8s.io/v1beta1 failed: stale");
	fails(&t, "foo.custom.metrics.k8s.io", OWNERS_ESERVER,
	      "cannot resolve 'foo.custom.metrics.k8s.io': discovery of custom.metrics.k8s.io/v1beta2 "
	      "failed: stale");
	fails(&t, "foo.v1beta1.custom.metrics.k8s.io", OWNERS_ENOTFOUND,
	      "the server doesn't have a resource type 'foo.v1beta1.custom.metrics.k8s.io'");
	owners_resource_table_add_failure(&t, "broken.example.com", "503 service unavailable");
	fails(&t, "things.v2.broken.example.com", OWNERS_ESERVER,
	      "cannot resolve 'things.v2.broken.example.com': discovery of broken.example.com failed: 503 service unavailable");
	/* Without a group, nothing points at the failed group. */
	fails(&t, "podmetrics", OWNERS_ENOTFOUND,
	      "the server doesn't have a resource type 'podmetrics'");

	/* Categories, as kubectl expands them: every type discovery lists in
	 * one, once (the preferred version), in discovery order. */
	category(&t, "all",
		 "v1 pods, v1 replicationcontrollers, v1 services, apps/v1 daemonsets, apps/v1 deployments, "
		 "apps/v1 replicasets, apps/v1 statefulsets, autoscaling/v2 horizontalpodautoscalers, "
		 "batch/v1 cronjobs, batch/v1 jobs, example.com/v1 widgets");
	category(&t, "ALL", "v1 pods, v1 replicationcontrollers, v1 services, apps/v1 daemonsets, "
			    "apps/v1 deployments, apps/v1 replicasets, apps/v1 statefulsets, "
			    "autoscaling/v2 horizontalpodautoscalers, batch/v1 cronjobs, batch/v1 jobs, "
			    "example.com/v1 widgets");
	category(&t, "example", "example.com/v1 widgets");
	category(&t, "api-extensions", "apiregistration.k8s.io/v1 apiservices");
	category(&t, "pods", "");
	category(&t, "", "");
	category(&empty, "all", "");
	/* Each type of a category resolves back to itself by "resource.group". */
	resolves(&t, "horizontalpodautoscalers.autoscaling", "autoscaling/v2", "horizontalpodautoscalers");
	resolves(&t, "widgets.example.com", "example.com/v1", "widgets");

	expands(&t, "deploy", 0, "apps/v1 deployments");
	expands(&t, "example", 1, "example.com/v1 widgets");
	{
		const struct owners_resource **types = (void *)1;
		struct owners_error err = OWNERS_ERROR_INIT;
		size_t n = 1;
		int cat = 1;

		ok(owners_type_expand(&types, &n, &cat, &t, "foo", &err) == OWNERS_ENOTFOUND && !types && !n && !cat,
		   "neither a type nor a category: not found");
		is_str(owners_error_message(&err), "the server doesn't have a resource type 'foo'",
		       "  in owners_type_resolve()'s words");
		owners_error_clear(&err);
	}

	/* A CRD reusing a core name never captures it. */
	memset(&extra, 0, sizeof(extra));
	extra.group = "x.example.com";
	extra.version = "v1";
	extra.resource = "pods";
	extra.singular = "pod";
	extra.kind = "Pod";
	extra.preferred = 1;
	owners_resource_table_add(&t, &extra);
	resolves(&t, "pods", "v1", "pods");
	resolves(&t, "pods.x.example.com", "x.example.com/v1", "pods");

	/* A type named like a category is that type, as in kubectl. */
	extra.resource = "example";
	extra.singular = "example";
	extra.kind = "Example";
	owners_resource_table_add(&t, &extra);
	expands(&t, "example", 0, "x.example.com/v1 example");
	expands(&t, "all", 1,
		"v1 pods, v1 replicationcontrollers, v1 services, apps/v1 daemonsets, apps/v1 deployments, "
		"apps/v1 replicasets, apps/v1 statefulsets, autoscaling/v2 horizontalpodautoscalers, "
		"batch/v1 cronjobs, batch/v1 jobs, example.com/v1 widgets");

	owners_resource_table_clear(&t);
	owners_resource_table_clear(&empty);
	return tap_done();
}
