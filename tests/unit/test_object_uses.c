/*
 * What objects other than pods name and use (lib/api/object_uses.c), each
 * with the API's defaults: an Ingress's backends, TLS and class; an
 * IngressClass's parameters; Gateway API gateways and routes; claims and
 * volumes; VolumeAttachments; bindings; ServiceAccounts; HPAs; the
 * Services the API machinery calls.
 */
#include <string.h>

#include "buf.h"
#include "json.h"
#include "object_uses.h"
#include "tap.h"

/* One "group/Kind ns/name how path" a line ("-" for the core group, no
 * ns/ for a cluster-scoped object). */
static char *uses_of(const char *json, const char *group, const char *kind)
{
	struct owners_json_value *v = NULL;
	struct owners_uses u = { NULL, 0, 0, 0 };
	struct owners_buf out = OWNERS_BUF_INIT;
	size_t i;

	if (owners_json_parse(&v, json, strlen(json), NULL) ||
	    owners_object_uses_read(&u, v, group, kind)) {
		owners_json_value_free(v);
		return strdup("(failed)");
	}
	for (i = 0; i < u.count; i++)
		owners_buf_addf(&out, "%s/%s %s%s%s %s %s\n",
				*u.items[i].group ? u.items[i].group : "-", u.items[i].kind,
				u.items[i].namespace_ ? u.items[i].namespace_ : "",
				u.items[i].namespace_ ? "/" : "", u.items[i].name,
				owners_uses_how_name(u.items[i].how), u.items[i].path);
	owners_uses_clear(&u);
	owners_json_value_free(v);
	return out.len ? owners_buf_detach(&out) : strdup("");
}

static void check(const char *json, const char *group, const char *kind, const char *want,
		  const char *what)
{
	char *got = uses_of(json, group, kind);

	is_str(got, want, "%s", what);
	free(got);
}

#define META "\"metadata\":{\"name\":\"x\",\"namespace\":\"shop\"}"

static void networking(void)
{
	check("{" META ",\"spec\":{\"ingressClassName\":\"nginx\",\"defaultBackend\":{\"service\":{"
		       "\"name\":\"fallback\"}},"
	      "\"rules\":[{\"http\":{\"paths\":[{\"backend\":{\"service\":{\"name\":\"web\","
	      "\"port\":{\"number\":80}}}},"
	      "{\"backend\":{\"resource\":{\"apiGroup\":\"k8s.example.com\",\"kind\":"
	      "\"StorageBucket\",\"name\":\"static\"}}}]}}],"
	      "\"tls\":[{\"hosts\":[\"a\"],\"secretName\":\"tls\"}]}}",
	      "networking.k8s.io", "Ingress",
	      "networking.k8s.io/IngressClass nginx is of class spec.ingressClassName\n"
	      "-/Service shop/fallback routes to spec.defaultBackend.service\n"
	      "-/Service shop/web routes to spec.rules[0].http.paths[0].backend.service\n"
	      "k8s.example.com/StorageBucket shop/static routes to "
	      "spec.rules[0].http.paths[1].backend.resource\n"
	      "-/Secret shop/tls serves TLS with spec.tls[0].secretName\n",
	      "an Ingress: its class, default and rule backends (a Service, a resource), its TLS "
	      "Secret");
	check("{\"metadata\":{\"name\":\"c\"},\"spec\":{\"parameters\":{\"apiGroup\":\"k8s.example."
	      "com\",\"kind\":\"Params\","
	      "\"name\":\"p\",\"scope\":\"Namespace\",\"namespace\":\"ops\"}}}",
	      "networking.k8s.io", "IngressClass",
	      "k8s.example.com/Params ops/p is configured by spec.parameters\n",
	      "an IngressClass's namespaced parameters");
	check("{\"metadata\":{\"name\":\"c\"},\"spec\":{\"parameters\":{\"kind\":\"Params\","
	      "\"name\":\"p\"}}}",
	      "networking.k8s.io", "IngressClass", "-/Params p is configured by spec.parameters\n",
	      "  cluster-scoped ones (the default scope)");
}

static void gateway_api(void)
{
	check("{" META
	      ",\"spec\":{\"gatewayClassName\":\"eg\",\"listeners\":[{\"tls\":{\"certificateRefs\":"
	      "[{\"name\":\"cert\"},{\"kind\":\"Secret\",\"name\":\"other\",\"namespace\":"
	      "\"certs\"}]}}]}}",
	      "gateway.networking.k8s.io", "Gateway",
	      "gateway.networking.k8s.io/GatewayClass eg is of class spec.gatewayClassName\n"
	      "-/Secret shop/cert serves TLS with spec.listeners[0].tls.certificateRefs[0]\n"
	      "-/Secret certs/other serves TLS with spec.listeners[0].tls.certificateRefs[1]\n",
	      "a Gateway: its class, its certificates (a Secret of its namespace by default)");
	check("{" META ",\"spec\":{\"parentRefs\":[{\"name\":\"gw\"},{\"name\":\"edge\","
		       "\"namespace\":\"infra\"}],"
	      "\"rules\":[{\"backendRefs\":[{\"name\":\"web\",\"port\":80},{\"group\":\"\","
	      "\"kind\":\"Service\",\"name\":\"api\","
	      "\"namespace\":\"api\"},{\"group\":\"example.com\",\"kind\":\"Backend\",\"name\":"
	      "\"b\"}]}]}}",
	      "gateway.networking.k8s.io", "HTTPRoute",
	      "gateway.networking.k8s.io/Gateway shop/gw attaches to spec.parentRefs[0]\n"
	      "gateway.networking.k8s.io/Gateway infra/edge attaches to spec.parentRefs[1]\n"
	      "-/Service shop/web routes to spec.rules[0].backendRefs[0]\n"
	      "-/Service api/api routes to spec.rules[0].backendRefs[1]\n"
	      "example.com/Backend shop/b routes to spec.rules[0].backendRefs[2]\n",
	      "a route: its parent Gateways and backends, with the API's defaults");
}

static void storage(void)
{
	check("{" META ",\"spec\":{\"volumeName\":\"pv-1\",\"storageClassName\":\"fast\"}}", "",
	      "PersistentVolumeClaim",
	      "-/PersistentVolume pv-1 is bound to spec.volumeName\n"
	      "storage.k8s.io/StorageClass fast is of class spec.storageClassName\n",
	      "a claim: its volume and StorageClass");
	check("{\"metadata\":{\"name\":\"pv-1\"},\"spec\":{\"claimRef\":{\"kind\":"
	      "\"PersistentVolumeClaim\","
	      "\"namespace\":\"db\",\"name\":\"data\"},\"storageClassName\":\"fast\"}}",
	      "", "PersistentVolume",
	      "-/PersistentVolumeClaim db/data is bound to spec.claimRef\n"
	      "storage.k8s.io/StorageClass fast is of class spec.storageClassName\n",
	      "a volume: its claim in the claim's own namespace (a volume has none), its class");
	check("{\"metadata\":{\"name\":\"a\"},\"spec\":{\"source\":{\"persistentVolumeName\":\"pv-"
	      "1\"},\"nodeName\":\"n1\"}}",
	      "storage.k8s.io", "VolumeAttachment",
	      "-/PersistentVolume pv-1 attaches spec.source.persistentVolumeName\n-/Node n1 "
	      "attaches spec.nodeName\n",
	      "a VolumeAttachment: its volume and node");
}

static void rbac_and_accounts(void)
{
	check("{" META ",\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\"Role\","
		       "\"name\":\"reader\"},"
	      "\"subjects\":[{\"kind\":\"ServiceAccount\",\"name\":\"app\"},{\"kind\":\"User\","
	      "\"name\":\"alice\"},"
	      "{\"kind\":\"ServiceAccount\",\"name\":\"ci\",\"namespace\":\"ci\"}]}",
	      "rbac.authorization.k8s.io", "RoleBinding",
	      "rbac.authorization.k8s.io/Role shop/reader binds roleRef\n"
	      "-/ServiceAccount shop/app grants to subjects[0]\n"
	      "-/ServiceAccount ci/ci grants to subjects[2]\n",
	      "a RoleBinding: its Role (in its namespace), its ServiceAccounts (users and groups "
	      "are no objects)");
	check("{" META ",\"roleRef\":{\"kind\":\"Role\",\"name\":\"r\"},\"subjects\":["
	      "{\"kind\":\"User\",\"name\":\"system:serviceaccount:ci:builder\"},"
	      "{\"kind\":\"User\",\"name\":\"system:serviceaccount:ci\"},"
	      "{\"kind\":\"User\",\"name\":\"system:serviceaccount::x\"},"
	      "{\"kind\":\"User\",\"name\":\"system:serviceaccount:a:b:c\"},"
	      "{\"kind\":\"Group\",\"name\":\"system:serviceaccounts:ci\"}]}",
	      "rbac.authorization.k8s.io", "RoleBinding",
	      "rbac.authorization.k8s.io/Role shop/r binds roleRef\n"
	      "-/ServiceAccount ci/builder grants to subjects[0]\n",
	      "a User that is a ServiceAccount by its username (system:serviceaccount:NS:NAME); "
	      "not a malformed one, nor a Group");
	check("{\"metadata\":{\"name\":\"b\"},\"roleRef\":{\"kind\":\"ClusterRole\",\"name\":"
	      "\"view\"},"
	      "\"subjects\":[{\"kind\":\"ServiceAccount\",\"name\":\"app\",\"namespace\":\"shop\"}]"
	      "}",
	      "rbac.authorization.k8s.io", "ClusterRoleBinding",
	      "rbac.authorization.k8s.io/ClusterRole view binds roleRef\n"
	      "-/ServiceAccount shop/app grants to subjects[0]\n",
	      "a ClusterRoleBinding: its ClusterRole");
	check("{" META ",\"roleRef\":{\"kind\":\"ClusterRole\",\"name\":\"edit\"}}",
	      "rbac.authorization.k8s.io", "RoleBinding",
	      "rbac.authorization.k8s.io/ClusterRole edit binds roleRef\n",
	      "a RoleBinding of a ClusterRole: the ClusterRole, cluster-scoped");
	check("{" META
	      ",\"secrets\":[{\"name\":\"tok\"}],\"imagePullSecrets\":[{\"name\":\"reg\"}]}",
	      "", "ServiceAccount",
	      "-/Secret shop/tok holds secrets[0]\n-/Secret shop/reg pulls images with "
	      "imagePullSecrets[0]\n",
	      "a ServiceAccount: its Secrets and pull secrets");
	check("{" META ",\"spec\":{\"scaleTargetRef\":{\"apiVersion\":\"apps/"
		       "v1\",\"kind\":\"Deployment\",\"name\":\"web\"}}}",
	      "autoscaling", "HorizontalPodAutoscaler",
	      "apps/Deployment shop/web scales spec.scaleTargetRef\n",
	      "an HPA: its target, its group from its apiVersion");
}

static void machinery(void)
{
	check("{\"metadata\":{\"name\":\"v1beta1.metrics.k8s.io\"},\"spec\":{\"service\":{"
	      "\"namespace\":\"kube-system\","
	      "\"name\":\"metrics-server\"}}}",
	      "apiregistration.k8s.io", "APIService",
	      "-/Service kube-system/metrics-server calls spec.service\n",
	      "an APIService: its Service");
	check("{\"metadata\":{\"name\":\"local\"},\"spec\":{}}", "apiregistration.k8s.io",
	      "APIService", "", "  a local one (no service): nothing");
	check("{\"metadata\":{\"name\":\"w\"},\"webhooks\":[{\"clientConfig\":{\"service\":{"
	      "\"namespace\":\"ops\",\"name\":\"hook\"}}},"
	      "{\"clientConfig\":{\"url\":\"https://example.com\"}}]}",
	      "admissionregistration.k8s.io", "ValidatingWebhookConfiguration",
	      "-/Service ops/hook calls webhooks[0].clientConfig.service\n",
	      "a webhook configuration: the Services of its webhooks (a URL is none)");
	check("{\"metadata\":{\"name\":\"crd\"},\"spec\":{\"conversion\":{\"strategy\":\"Webhook\","
	      "\"webhook\":{\"clientConfig\":"
	      "{\"service\":{\"namespace\":\"ops\",\"name\":\"conv\"}}}}}}",
	      "apiextensions.k8s.io", "CustomResourceDefinition",
	      "-/Service ops/conv calls spec.conversion.webhook.clientConfig.service\n",
	      "a CRD's conversion webhook");
	check("{" META ",\"endpoints\":[{\"addresses\":[\"10.0.0.1\"],\"targetRef\":{\"kind\":"
		       "\"Pod\",\"name\":\"web-1\","
	      "\"uid\":\"u1\"}},{\"addresses\":[\"10.0.0.2\"]},{\"addresses\":[\"10.0.0.3\"],"
	      "\"targetRef\":{\"kind\":\"Pod\","
	      "\"name\":\"web-2\",\"namespace\":\"shop\"}}]}",
	      "discovery.k8s.io", "EndpointSlice",
	      "-/Pod shop/web-1 routes to endpoints[0].targetRef\n-/Pod shop/web-2 routes to "
	      "endpoints[2].targetRef\n",
	      "an EndpointSlice: the Pods its endpoints are (an address without a targetRef is "
	      "none)");
	check("{" META ",\"spec\":{\"selector\":{\"app\":\"web\"}}}", "", "Service", "",
	      "a Service's selector is not a name: nothing here");
	ok(owners_object_uses_kind("gateway.networking.k8s.io", "GRPCRoute") &&
		   owners_object_uses_kind("discovery.k8s.io", "EndpointSlice") &&
		   !owners_object_uses_kind("", "ConfigMap") &&
		   !owners_object_uses_kind("example.com", "Ingress"),
	   "which kinds name others");
}

int main(void)
{
	networking();
	gateway_api();
	storage();
	rbac_and_accounts();
	machinery();
	return tap_done();
}
