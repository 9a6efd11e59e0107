#include "object_uses.h"

#include <stdio.h>
#include <string.h>

#define GATEWAY_GROUP "gateway.networking.k8s.io"

/* The reading of one object: where its uses go, and its namespace. */
struct reader {
	struct owners_uses *out;
	const char *ns; /* "" when cluster-scoped */
};

/* The annotation a default class carries, "true" when it is one. */
#define DEFAULT_STORAGE_CLASS      "storageclass.kubernetes.io/is-default-class"
#define DEFAULT_STORAGE_CLASS_BETA "storageclass.beta.kubernetes.io/is-default-class"
#define DEFAULT_INGRESS_CLASS      "ingressclass.kubernetes.io/is-default-class"
/* A service-account token Secret: its type, and the annotation naming
 * its ServiceAccount. */
#define TOKEN_SECRET_TYPE    "kubernetes.io/service-account-token"
#define TOKEN_SECRET_ACCOUNT "kubernetes.io/service-account.name"
/* A ServiceAccount's username: this, its namespace, ':', its name. */
#define SERVICE_ACCOUNT_USER "system:serviceaccount:"

static int annotated_true(const struct owners_json_value *object, const char *key)
{
	const char *v =
		owners_json_string(owners_json_path(object, "metadata", "annotations", key, NULL));

	return v && !strcmp(v, "true");
}

static const char *string_at(const struct owners_json_value *v, const char *key)
{
	return owners_json_string(owners_json_get(v, key));
}

/* s, or dflt when s is unset or empty (the API's defaulting). */
static const char *or_default(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

static int add(const struct reader *r, const char *group, const char *kind, const char *ns,
	       const char *name, enum owners_use_how how, const char *path)
{
	const struct owners_use_target t = { group, kind, ns, name };

	/* a reference that does not say what it names names nothing */
	if (!kind || !*kind)
		return 0;
	return owners_uses_add(r->out, &t, how, 0, "%s", path);
}

/* An Ingress backend: a Service, or a resource of any kind, in the
 * Ingress's namespace. */
static int ingress_backend(const struct reader *r, const struct owners_json_value *backend,
			   const char *path)
{
	const struct owners_json_value *resource = owners_json_get(backend, "resource");
	char at[256];
	int rc;

	snprintf(at, sizeof(at), "%s.service", path);
	rc = add(r, "", "Service", r->ns,
		 owners_json_string(owners_json_path(backend, "service", "name", NULL)),
		 OWNERS_USE_ROUTES_TO, at);
	snprintf(at, sizeof(at), "%s.resource", path);
	if (!rc && resource)
		rc = add(r, or_default(string_at(resource, "apiGroup"), ""),
			 string_at(resource, "kind"), r->ns, string_at(resource, "name"),
			 OWNERS_USE_ROUTES_TO, at);
	return rc;
}

static int ingress(const struct reader *r, const struct owners_json_value *spec)
{
	const struct owners_json_value *rules = owners_json_get(spec, "rules");
	const struct owners_json_value *tls = owners_json_get(spec, "tls");
	const struct owners_json_value *backend = owners_json_get(spec, "defaultBackend");
	char at[128];
	size_t i, j;
	int rc =
		add(r, "networking.k8s.io", "IngressClass", NULL,
		    string_at(spec, "ingressClassName"), OWNERS_USE_CLASS, "spec.ingressClassName");

	if (!rc && backend)
		rc = ingress_backend(r, backend, "spec.defaultBackend");
	for (i = 0; !rc && i < owners_json_array_count(rules); i++) {
		const struct owners_json_value *paths =
			owners_json_path(rules->items[i], "http", "paths", NULL);

		for (j = 0; !rc && j < owners_json_array_count(paths); j++) {
			snprintf(at, sizeof(at), "spec.rules[%zu].http.paths[%zu].backend", i, j);
			rc = ingress_backend(r, owners_json_get(paths->items[j], "backend"), at);
		}
	}
	for (i = 0; !rc && i < owners_json_array_count(tls); i++) {
		snprintf(at, sizeof(at), "spec.tls[%zu].secretName", i);
		rc = add(r, "", "Secret", r->ns, string_at(tls->items[i], "secretName"),
			 OWNERS_USE_TLS, at);
	}
	return rc;
}

static int ingress_class(const struct reader *r, const struct owners_json_value *spec)
{
	const struct owners_json_value *p = owners_json_get(spec, "parameters");
	const char *scope = string_at(p, "scope");

	if (!p)
		return 0;
	return add(r, or_default(string_at(p, "apiGroup"), ""), string_at(p, "kind"),
		   scope && !strcmp(scope, "Namespace") ? or_default(string_at(p, "namespace"), "")
							: NULL,
		   string_at(p, "name"), OWNERS_USE_PARAMETERS, "spec.parameters");
}

/* A Gateway API reference (parentRef, backendRef, certificateRef), with
 * its defaults: group, kind, the referrer's namespace. */
static int gateway_ref(const struct reader *r, const struct owners_json_value *ref,
		       const char *group, const char *kind, enum owners_use_how how,
		       const char *path)
{
	return add(
		r, owners_json_get(ref, "group") ? or_default(string_at(ref, "group"), "") : group,
		or_default(string_at(ref, "kind"), kind),
		or_default(string_at(ref, "namespace"), r->ns), string_at(ref, "name"), how, path);
}

static int gateway(const struct reader *r, const struct owners_json_value *spec)
{
	const struct owners_json_value *listeners = owners_json_get(spec, "listeners");
	char at[128];
	size_t i, j;
	int rc = add(r, GATEWAY_GROUP, "GatewayClass", NULL, string_at(spec, "gatewayClassName"),
		     OWNERS_USE_CLASS, "spec.gatewayClassName");

	for (i = 0; !rc && i < owners_json_array_count(listeners); i++) {
		const struct owners_json_value *certs =
			owners_json_path(listeners->items[i], "tls", "certificateRefs", NULL);

		for (j = 0; !rc && j < owners_json_array_count(certs); j++) {
			snprintf(at, sizeof(at), "spec.listeners[%zu].tls.certificateRefs[%zu]", i,
				 j);
			rc = gateway_ref(r, certs->items[j], "", "Secret", OWNERS_USE_TLS, at);
		}
	}
	return rc;
}

static int route(const struct reader *r, const struct owners_json_value *spec)
{
	const struct owners_json_value *parents = owners_json_get(spec, "parentRefs");
	const struct owners_json_value *rules = owners_json_get(spec, "rules");
	char at[128];
	size_t i, j;
	int rc = 0;

	for (i = 0; !rc && i < owners_json_array_count(parents); i++) {
		snprintf(at, sizeof(at), "spec.parentRefs[%zu]", i);
		rc = gateway_ref(r, parents->items[i], GATEWAY_GROUP, "Gateway",
				 OWNERS_USE_ATTACHES_TO, at);
	}
	for (i = 0; !rc && i < owners_json_array_count(rules); i++) {
		const struct owners_json_value *backends =
			owners_json_get(rules->items[i], "backendRefs");

		for (j = 0; !rc && j < owners_json_array_count(backends); j++) {
			snprintf(at, sizeof(at), "spec.rules[%zu].backendRefs[%zu]", i, j);
			rc = gateway_ref(r, backends->items[j], "", "Service", OWNERS_USE_ROUTES_TO,
					 at);
		}
	}
	return rc;
}

/* A claim's or a volume's class. Once the two are bound to each other
 * the class is only a name they matched by (a volume made by hand names
 * one that need not exist): optional then. */
static int storage_class(const struct reader *r, const struct owners_json_value *spec, int bound)
{
	const struct owners_use_target t = { "storage.k8s.io", "StorageClass", NULL,
					     string_at(spec, "storageClassName") };

	return owners_uses_add(r->out, &t, OWNERS_USE_CLASS, bound, "spec.storageClassName");
}

static int claim(const struct reader *r, const struct owners_json_value *spec)
{
	const char *volume = string_at(spec, "volumeName");
	int rc = add(r, "", "PersistentVolume", NULL, volume, OWNERS_USE_BOUND_TO,
		     "spec.volumeName");

	return rc ? rc : storage_class(r, spec, volume && *volume);
}

static int volume(const struct reader *r, const struct owners_json_value *spec)
{
	const struct owners_json_value *ref = owners_json_get(spec, "claimRef");
	/* the claim is in its own namespace, the claimRef's (a volume has none) */
	int rc = add(r, "", "PersistentVolumeClaim", or_default(string_at(ref, "namespace"), ""),
		     string_at(ref, "name"), OWNERS_USE_BOUND_TO, "spec.claimRef");

	return rc ? rc : storage_class(r, spec, string_at(ref, "name") != NULL);
}

static int attachment(const struct reader *r, const struct owners_json_value *spec)
{
	int rc = add(
		r, "", "PersistentVolume", NULL,
		owners_json_string(owners_json_path(spec, "source", "persistentVolumeName", NULL)),
		OWNERS_USE_ATTACHES, "spec.source.persistentVolumeName");

	return rc ? rc
		  : add(r, "", "Node", NULL, string_at(spec, "nodeName"), OWNERS_USE_ATTACHES,
			"spec.nodeName");
}

/* A binding's role and ServiceAccount subjects (a RoleBinding's subject
 * without a namespace is in the binding's). */
static int binding(const struct reader *r, const struct owners_json_value *object, int cluster)
{
	const struct owners_json_value *ref = owners_json_get(object, "roleRef");
	const struct owners_json_value *subjects = owners_json_get(object, "subjects");
	const char *role_kind = string_at(ref, "kind");
	char at[64];
	size_t i;
	int rc = add(r, "rbac.authorization.k8s.io", role_kind,
		     role_kind && !strcmp(role_kind, "Role") && !cluster ? r->ns : NULL,
		     string_at(ref, "name"), OWNERS_USE_BINDS, "roleRef");

	for (i = 0; !rc && i < owners_json_array_count(subjects); i++) {
		const char *kind = string_at(subjects->items[i], "kind");
		const char *name = string_at(subjects->items[i], "name");
		char ns[256];
		const char *colon;

		snprintf(at, sizeof(at), "subjects[%zu]", i);
		if (kind && !strcmp(kind, "ServiceAccount")) {
			rc = add(r, "", "ServiceAccount",
				 or_default(string_at(subjects->items[i], "namespace"), r->ns),
				 name, OWNERS_USE_GRANTS, at);
			continue;
		}
		/* a User that is a ServiceAccount by its username:
		 * system:serviceaccount:NAMESPACE:NAME (a Group names no
		 * object) */
		if (!kind || strcmp(kind, "User") || !name ||
		    strncmp(name, SERVICE_ACCOUNT_USER, strlen(SERVICE_ACCOUNT_USER)))
			continue;
		name += strlen(SERVICE_ACCOUNT_USER);
		if (!(colon = strchr(name, ':')) || colon == name || !colon[1] ||
		    (size_t)(colon - name) >= sizeof(ns) || strchr(colon + 1, ':'))
			continue;
		memcpy(ns, name, (size_t)(colon - name));
		ns[colon - name] = 0;
		rc = add(r, "", "ServiceAccount", ns, colon + 1, OWNERS_USE_GRANTS, at);
	}
	return rc;
}

static int service_account(const struct reader *r, const struct owners_json_value *object)
{
	const struct owners_json_value *secrets = owners_json_get(object, "secrets");
	const struct owners_json_value *pulls = owners_json_get(object, "imagePullSecrets");
	char at[64];
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < owners_json_array_count(secrets); i++) {
		snprintf(at, sizeof(at), "secrets[%zu]", i);
		rc = add(r, "", "Secret", r->ns, string_at(secrets->items[i], "name"),
			 OWNERS_USE_HOLDS, at);
	}
	for (i = 0; !rc && i < owners_json_array_count(pulls); i++) {
		snprintf(at, sizeof(at), "imagePullSecrets[%zu]", i);
		rc = add(r, "", "Secret", r->ns, string_at(pulls->items[i], "name"),
			 OWNERS_USE_PULLS_WITH, at);
	}
	return rc;
}

/* An HPA's target: the group of its apiVersion ("apps/v1": apps). */
static int autoscaler(const struct reader *r, const struct owners_json_value *spec)
{
	const struct owners_json_value *ref = owners_json_get(spec, "scaleTargetRef");
	const char *api = or_default(string_at(ref, "apiVersion"), "");
	const char *slash = strchr(api, '/');
	char group[128];

	snprintf(group, sizeof(group), "%.*s", slash ? (int)(slash - api) : 0, api);
	return add(r, group, string_at(ref, "kind"), r->ns, string_at(ref, "name"),
		   OWNERS_USE_SCALES, "spec.scaleTargetRef");
}

/* A service reference of the API machinery: {namespace, name}. */
static int service_ref(const struct reader *r, const struct owners_json_value *service,
		       const char *path)
{
	return add(r, "", "Service", or_default(string_at(service, "namespace"), ""),
		   string_at(service, "name"), OWNERS_USE_CALLS, path);
}

static int webhooks(const struct reader *r, const struct owners_json_value *object)
{
	const struct owners_json_value *hooks = owners_json_get(object, "webhooks");
	char at[64];
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < owners_json_array_count(hooks); i++) {
		snprintf(at, sizeof(at), "webhooks[%zu].clientConfig.service", i);
		rc = service_ref(
			r, owners_json_path(hooks->items[i], "clientConfig", "service", NULL), at);
	}
	return rc;
}

/* An EndpointSlice: the Pods (or other objects) its endpoints are, which
 * is what its Service (its owner) routes to. */
static int endpoint_slice(const struct reader *r, const struct owners_json_value *object)
{
	const struct owners_json_value *endpoints = owners_json_get(object, "endpoints");
	char at[64];
	size_t i;
	int rc = 0;

	if (owners_json_array_count(endpoints))
		r->out->marks |= OWNERS_USES_MARK_ENDPOINTS;
	for (i = 0; !rc && i < owners_json_array_count(endpoints); i++) {
		const struct owners_json_value *ref =
			owners_json_get(endpoints->items[i], "targetRef");

		snprintf(at, sizeof(at), "endpoints[%zu].targetRef", i);
		rc = add(r, "", string_at(ref, "kind"),
			 or_default(string_at(ref, "namespace"), r->ns), string_at(ref, "name"),
			 OWNERS_USE_ROUTES_TO, at);
	}
	return rc;
}

/* A service-account token Secret: the ServiceAccount it authenticates
 * as, in its namespace (other Secrets name nothing). */
static int token_secret(const struct reader *r, const struct owners_json_value *object)
{
	const char *type = string_at(object, "type");

	if (!type || strcmp(type, TOKEN_SECRET_TYPE))
		return 0;
	return add(r, "", "ServiceAccount", r->ns,
		   owners_json_string(owners_json_path(object, "metadata", "annotations",
						       TOKEN_SECRET_ACCOUNT, NULL)),
		   OWNERS_USE_TOKEN_OF, "metadata.annotations[" TOKEN_SECRET_ACCOUNT "]");
}

static const char *const routes[] = { "HTTPRoute", "GRPCRoute", "TLSRoute", "TCPRoute",
				      "UDPRoute" };

static int is(const char *group, const char *kind, const char *g, const char *k)
{
	return !strcmp(group, g) && !strcmp(kind, k);
}

static int is_route(const char *group, const char *kind)
{
	size_t i;

	for (i = 0; !strcmp(group, GATEWAY_GROUP) && i < sizeof(routes) / sizeof(routes[0]); i++)
		if (!strcmp(kind, routes[i]))
			return 1;
	return 0;
}

int owners_object_uses_kind(const char *group, const char *kind)
{
	return is(group, kind, "networking.k8s.io", "Ingress") ||
	       is(group, kind, "networking.k8s.io", "IngressClass") ||
	       is(group, kind, GATEWAY_GROUP, "Gateway") || is_route(group, kind) ||
	       is(group, kind, "", "PersistentVolumeClaim") ||
	       is(group, kind, "", "PersistentVolume") ||
	       is(group, kind, "storage.k8s.io", "VolumeAttachment") ||
	       is(group, kind, "rbac.authorization.k8s.io", "RoleBinding") ||
	       is(group, kind, "rbac.authorization.k8s.io", "ClusterRoleBinding") ||
	       is(group, kind, "", "ServiceAccount") ||
	       is(group, kind, "autoscaling", "HorizontalPodAutoscaler") ||
	       is(group, kind, "discovery.k8s.io", "EndpointSlice") ||
	       is(group, kind, "apiregistration.k8s.io", "APIService") ||
	       is(group, kind, "admissionregistration.k8s.io", "MutatingWebhookConfiguration") ||
	       is(group, kind, "admissionregistration.k8s.io", "ValidatingWebhookConfiguration") ||
	       is(group, kind, "apiextensions.k8s.io", "CustomResourceDefinition") ||
	       is(group, kind, "", "Secret") || is(group, kind, "storage.k8s.io", "StorageClass") ||
	       is(group, kind, "scheduling.k8s.io", "PriorityClass");
}

/* What each kind's reader names: "*" any kind (a field that names any:
 * a resource backend, parameters, a scale target, a route's backend or
 * parent, an endpoint's target, a Gateway's certificate). */
static const struct {
	const char *group, *kind;
	const char *names; /* "group/Kind" words, "/Kind" in the core group */
} may_name[] = {
	{ "networking.k8s.io", "Ingress", "*" },
	{ "networking.k8s.io", "IngressClass", "*" },
	{ GATEWAY_GROUP, "Gateway", "*" },
	{ "", "PersistentVolumeClaim", "/PersistentVolume storage.k8s.io/StorageClass" },
	{ "", "PersistentVolume", "/PersistentVolumeClaim storage.k8s.io/StorageClass" },
	{ "storage.k8s.io", "VolumeAttachment", "/PersistentVolume /Node" },
	{ "rbac.authorization.k8s.io", "RoleBinding",
	  "rbac.authorization.k8s.io/Role rbac.authorization.k8s.io/ClusterRole /ServiceAccount" },
	{ "rbac.authorization.k8s.io", "ClusterRoleBinding",
	  "rbac.authorization.k8s.io/ClusterRole /ServiceAccount" },
	{ "", "ServiceAccount", "/Secret" },
	{ "autoscaling", "HorizontalPodAutoscaler", "*" },
	{ "discovery.k8s.io", "EndpointSlice", "*" },
	{ "apiregistration.k8s.io", "APIService", "/Service" },
	{ "admissionregistration.k8s.io", "MutatingWebhookConfiguration", "/Service" },
	{ "admissionregistration.k8s.io", "ValidatingWebhookConfiguration", "/Service" },
	{ "apiextensions.k8s.io", "CustomResourceDefinition", "/Service" },
	{ "", "Secret", "/ServiceAccount" },
};

int owners_object_uses_may_name(const char *group, const char *kind, const char *used_group,
				const char *used_kind)
{
	char word[256];
	size_t i;

	if (is_route(group, kind))
		return 1;
	snprintf(word, sizeof(word), "%s/%s", used_group, used_kind);
	for (i = 0; i < sizeof(may_name) / sizeof(may_name[0]); i++) {
		const char *at, *names = may_name[i].names;
		size_t n = strlen(word);

		if (!is(group, kind, may_name[i].group, may_name[i].kind))
			continue;
		if (!strcmp(names, "*"))
			return 1;
		for (at = strstr(names, word); at; at = strstr(at + 1, word))
			if ((at == names || at[-1] == ' ') && (!at[n] || at[n] == ' '))
				return 1;
		return 0;
	}
	return 0;
}

int owners_object_uses_read(struct owners_uses *out, const struct owners_json_value *object,
			    const char *group, const char *kind)
{
	const struct reader r = { out, or_default(owners_json_string(owners_json_path(
							  object, "metadata", "namespace", NULL)),
						  "") };
	const struct owners_json_value *spec = owners_json_get(object, "spec");

	if (is(group, kind, "networking.k8s.io", "Ingress"))
		return ingress(&r, spec);
	if (is(group, kind, "networking.k8s.io", "IngressClass")) {
		if (annotated_true(object, DEFAULT_INGRESS_CLASS))
			out->marks |= OWNERS_USES_MARK_DEFAULT;
		return ingress_class(&r, spec);
	}
	if (is(group, kind, "storage.k8s.io", "StorageClass")) {
		if (annotated_true(object, DEFAULT_STORAGE_CLASS) ||
		    annotated_true(object, DEFAULT_STORAGE_CLASS_BETA))
			out->marks |= OWNERS_USES_MARK_DEFAULT;
		return 0;
	}
	if (is(group, kind, "scheduling.k8s.io", "PriorityClass")) {
		if (owners_json_bool(owners_json_get(object, "globalDefault"), 0))
			out->marks |= OWNERS_USES_MARK_DEFAULT;
		return 0;
	}
	if (is(group, kind, "", "Secret"))
		return token_secret(&r, object);
	if (is(group, kind, GATEWAY_GROUP, "Gateway"))
		return gateway(&r, spec);
	if (is_route(group, kind))
		return route(&r, spec);
	if (is(group, kind, "", "PersistentVolumeClaim"))
		return claim(&r, spec);
	if (is(group, kind, "", "PersistentVolume"))
		return volume(&r, spec);
	if (is(group, kind, "storage.k8s.io", "VolumeAttachment"))
		return attachment(&r, spec);
	if (is(group, kind, "rbac.authorization.k8s.io", "RoleBinding"))
		return binding(&r, object, 0);
	if (is(group, kind, "rbac.authorization.k8s.io", "ClusterRoleBinding"))
		return binding(&r, object, 1);
	if (is(group, kind, "", "ServiceAccount"))
		return service_account(&r, object);
	if (is(group, kind, "autoscaling", "HorizontalPodAutoscaler"))
		return autoscaler(&r, spec);
	if (is(group, kind, "discovery.k8s.io", "EndpointSlice"))
		return endpoint_slice(&r, object);
	if (is(group, kind, "apiregistration.k8s.io", "APIService"))
		return service_ref(&r, owners_json_get(spec, "service"), "spec.service");
	if (is(group, kind, "admissionregistration.k8s.io", "MutatingWebhookConfiguration") ||
	    is(group, kind, "admissionregistration.k8s.io", "ValidatingWebhookConfiguration"))
		return webhooks(&r, object);
	if (is(group, kind, "apiextensions.k8s.io", "CustomResourceDefinition"))
		return service_ref(&r,
				   owners_json_path(spec, "conversion", "webhook", "clientConfig",
						    "service", NULL),
				   "spec.conversion.webhook.clientConfig.service");
	return 0;
}
