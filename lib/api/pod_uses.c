#include "pod_uses.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "grow.h"
#include "owners_error.h"

/* The containers of a pod spec, each list in the order the kubelet
 * starts them. */
static const char *const container_lists[] = { "initContainers", "containers",
					       "ephemeralContainers" };

static const struct {
	const char *group, *kind, *spec;
} pod_specs[] = {
	{ "", "Pod", "spec" },
	{ "", "PodTemplate", "template.spec" },
	{ "", "ReplicationController", "spec.template.spec" },
	{ "apps", "Deployment", "spec.template.spec" },
	{ "apps", "ReplicaSet", "spec.template.spec" },
	{ "apps", "StatefulSet", "spec.template.spec" },
	{ "apps", "DaemonSet", "spec.template.spec" },
	{ "batch", "Job", "spec.template.spec" },
	{ "batch", "CronJob", "spec.jobTemplate.spec.template.spec" },
};

/* What the object used is, for each way of using it. */
struct used {
	const char *group, *kind;
	int namespaced;
};

static const struct used CONFIGMAP = { "", "ConfigMap", 1 };
static const struct used SECRET = { "", "Secret", 1 };
static const struct used CLAIM = { "", "PersistentVolumeClaim", 1 };
static const struct used SERVICE_ACCOUNT = { "", "ServiceAccount", 1 };
static const struct used PRIORITY_CLASS = { "scheduling.k8s.io", "PriorityClass", 0 };
static const struct used RUNTIME_CLASS = { "node.k8s.io", "RuntimeClass", 0 };
static const struct used NODE = { "", "Node", 0 };

const char *owners_pod_uses_spec_path(const char *group, const char *kind)
{
	size_t i;

	for (i = 0; i < sizeof(pod_specs) / sizeof(pod_specs[0]); i++)
		if (!strcmp(pod_specs[i].group, group) && !strcmp(pod_specs[i].kind, kind))
			return pod_specs[i].spec;
	return NULL;
}

int owners_pod_uses_may_name(const char *group, const char *kind)
{
	static const struct used *const named[] = {
		&CONFIGMAP,      &SECRET,        &CLAIM, &SERVICE_ACCOUNT,
		&PRIORITY_CLASS, &RUNTIME_CLASS, &NODE
	};
	size_t i;

	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (!strcmp(named[i]->group, group) && !strcmp(named[i]->kind, kind))
			return 1;
	return 0;
}

/* The reading of one object: where its uses go, and its namespace (the
 * namespace of what it names that has one). */
struct reader {
	struct owners_uses *out;
	const char *ns;
};

/* Appends one use of what (named name) at the path made from fmt; a use
 * with no name names nothing and is left out. */
static int add(const struct reader *r, const struct used *what, const char *name,
	       enum owners_use_how how, int optional, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static int add(const struct reader *r, const struct used *what, const char *name,
	       enum owners_use_how how, int optional, const char *fmt, ...)
{
	const struct owners_use_target t = { what->group, what->kind,
					     what->namespaced ? (r->ns ? r->ns : "") : NULL, name };
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = owners_uses_vadd(r->out, &t, how, optional, fmt, ap);
	va_end(ap);
	return rc;
}

static const char *string_at(const struct owners_json_value *v, const char *key)
{
	return owners_json_string(owners_json_get(v, key));
}

static int optional_at(const struct owners_json_value *v)
{
	return owners_json_bool(owners_json_get(v, "optional"), 0);
}

/* A volume's ConfigMap, Secret or claim, and a projected volume's sources. */
static int read_volume(const struct reader *r, const struct owners_json_value *v, const char *at,
		       size_t i)
{
	const struct owners_json_value *cm = owners_json_get(v, "configMap");
	const struct owners_json_value *secret = owners_json_get(v, "secret");
	const struct owners_json_value *sources = owners_json_path(v, "projected", "sources", NULL);
	size_t j;
	int rc = 0;

	if (cm)
		rc = add(r, &CONFIGMAP, string_at(cm, "name"), OWNERS_USE_MOUNTS, optional_at(cm),
			 "%s.volumes[%zu].configMap", at, i);
	if (!rc && secret)
		rc = add(r, &SECRET, string_at(secret, "secretName"), OWNERS_USE_MOUNTS,
			 optional_at(secret), "%s.volumes[%zu].secret", at, i);
	if (!rc)
		rc = add(r, &CLAIM,
			 owners_json_string(
				 owners_json_path(v, "persistentVolumeClaim", "claimName", NULL)),
			 OWNERS_USE_CLAIMS, 0, "%s.volumes[%zu].persistentVolumeClaim", at, i);
	for (j = 0; !rc && j < owners_json_array_count(sources); j++) {
		const struct owners_json_value *s = sources->items[j];
		const struct owners_json_value *scm = owners_json_get(s, "configMap");
		const struct owners_json_value *ssecret = owners_json_get(s, "secret");

		if (scm)
			rc = add(r, &CONFIGMAP, string_at(scm, "name"), OWNERS_USE_MOUNTS_PROJECTED,
				 optional_at(scm),
				 "%s.volumes[%zu].projected.sources[%zu].configMap", at, i, j);
		if (!rc && ssecret)
			rc = add(r, &SECRET, string_at(ssecret, "name"),
				 OWNERS_USE_MOUNTS_PROJECTED, optional_at(ssecret),
				 "%s.volumes[%zu].projected.sources[%zu].secret", at, i, j);
	}
	return rc;
}

/* One container's env and envFrom (list: which list it is in). */
static int read_container(const struct reader *r, const struct owners_json_value *c, const char *at,
			  const char *list, size_t i)
{
	const struct owners_json_value *env = owners_json_get(c, "env");
	const struct owners_json_value *env_from = owners_json_get(c, "envFrom");
	size_t k;
	int rc = 0;

	for (k = 0; !rc && k < owners_json_array_count(env); k++) {
		const struct owners_json_value *cm =
			owners_json_path(env->items[k], "valueFrom", "configMapKeyRef", NULL);
		const struct owners_json_value *secret =
			owners_json_path(env->items[k], "valueFrom", "secretKeyRef", NULL);

		if (cm)
			rc = add(r, &CONFIGMAP, string_at(cm, "name"), OWNERS_USE_ENV,
				 optional_at(cm), "%s.%s[%zu].env[%zu].valueFrom.configMapKeyRef",
				 at, list, i, k);
		if (!rc && secret)
			rc = add(r, &SECRET, string_at(secret, "name"), OWNERS_USE_ENV,
				 optional_at(secret), "%s.%s[%zu].env[%zu].valueFrom.secretKeyRef",
				 at, list, i, k);
	}
	for (k = 0; !rc && k < owners_json_array_count(env_from); k++) {
		const struct owners_json_value *cm =
			owners_json_get(env_from->items[k], "configMapRef");
		const struct owners_json_value *secret =
			owners_json_get(env_from->items[k], "secretRef");

		if (cm)
			rc = add(r, &CONFIGMAP, string_at(cm, "name"), OWNERS_USE_ENV_FROM,
				 optional_at(cm), "%s.%s[%zu].envFrom[%zu].configMapRef", at, list,
				 i, k);
		if (!rc && secret)
			rc = add(r, &SECRET, string_at(secret, "name"), OWNERS_USE_ENV_FROM,
				 optional_at(secret), "%s.%s[%zu].envFrom[%zu].secretRef", at, list,
				 i, k);
	}
	return rc;
}

/* The pod spec at path at. */
static int read_spec(const struct reader *r, const struct owners_json_value *spec, const char *at)
{
	const struct owners_json_value *volumes = owners_json_get(spec, "volumes");
	const struct owners_json_value *pulls = owners_json_get(spec, "imagePullSecrets");
	const char *account = string_at(spec, "serviceAccountName");
	size_t i, l;
	int rc = 0;

	for (i = 0; !rc && i < owners_json_array_count(volumes); i++)
		rc = read_volume(r, volumes->items[i], at, i);
	for (l = 0; l < sizeof(container_lists) / sizeof(container_lists[0]); l++) {
		const struct owners_json_value *list = owners_json_get(spec, container_lists[l]);

		for (i = 0; !rc && i < owners_json_array_count(list); i++)
			rc = read_container(r, list->items[i], at, container_lists[l], i);
	}
	for (i = 0; !rc && i < owners_json_array_count(pulls); i++)
		rc = add(r, &SECRET, string_at(pulls->items[i], "name"), OWNERS_USE_PULLS_WITH, 0,
			 "%s.imagePullSecrets[%zu]", at, i);
	/* the deprecated serviceAccount when serviceAccountName is unset, and
	 * "default" when both are: what the ServiceAccount admission sets */
	if (!rc && account && *account)
		rc = add(r, &SERVICE_ACCOUNT, account, OWNERS_USE_RUNS_AS, 0,
			 "%s.serviceAccountName", at);
	else if (!rc && (account = string_at(spec, "serviceAccount")) && *account)
		rc = add(r, &SERVICE_ACCOUNT, account, OWNERS_USE_RUNS_AS, 0, "%s.serviceAccount",
			 at);
	else if (!rc)
		rc = add(r, &SERVICE_ACCOUNT, "default", OWNERS_USE_RUNS_AS, 0,
			 "%s.serviceAccountName", at);
	if (!rc)
		rc = add(r, &PRIORITY_CLASS, string_at(spec, "priorityClassName"),
			 OWNERS_USE_PRIORITY, 0, "%s.priorityClassName", at);
	if (!rc)
		rc = add(r, &RUNTIME_CLASS, string_at(spec, "runtimeClassName"), OWNERS_USE_RUNTIME,
			 0, "%s.runtimeClassName", at);
	if (!rc)
		rc = add(r, &NODE, string_at(spec, "nodeName"), OWNERS_USE_RUNS_ON, 0,
			 "%s.nodeName", at);
	return rc;
}

/* A StatefulSet's claims: <template>-<statefulset>-<ordinal>, for each
 * ordinal it runs (spec.ordinals.start on, spec.replicas of them), as one
 * use per template: a stem and a range, never one per ordinal. */
static int read_claim_templates(const struct reader *r, const struct owners_json_value *object)
{
	const struct owners_json_value *spec = owners_json_get(object, "spec");
	const struct owners_json_value *templates = owners_json_get(spec, "volumeClaimTemplates");
	const char *set = owners_json_string(owners_json_path(object, "metadata", "name", NULL));
	int64_t replicas = owners_json_int(owners_json_get(spec, "replicas"), 1);
	int64_t start = owners_json_int(owners_json_path(spec, "ordinals", "start", NULL), 0);
	struct owners_buf stem = OWNERS_BUF_INIT;
	size_t i;
	int rc = 0;

	if (!set || replicas <= 0 || start < 0)
		return 0;
	for (i = 0; !rc && i < owners_json_array_count(templates); i++) {
		const char *t = owners_json_string(
			owners_json_path(templates->items[i], "metadata", "name", NULL));

		if (!t || !*t)
			continue;
		owners_buf_reset(&stem);
		rc = owners_buf_addf(&stem, "%s-%s", t, set);
		rc = rc ? rc
			: add(r, &CLAIM, stem.ptr, OWNERS_USE_CLAIMS_TEMPLATE, 0,
			      "spec.volumeClaimTemplates[%zu]", i);
		if (!rc) {
			r->out->items[r->out->count - 1].first_ordinal = start;
			r->out->items[r->out->count - 1].ordinals = replicas;
		}
	}
	owners_buf_clear(&stem);
	return rc;
}

int owners_pod_uses_read(struct owners_uses *out, const struct owners_json_value *object,
			 const char *group, const char *kind)
{
	const struct reader reader = { out, owners_json_string(owners_json_path(
						    object, "metadata", "namespace", NULL)) };
	const struct reader *r = &reader;
	const char *at = owners_pod_uses_spec_path(group, kind);
	const struct owners_json_value *spec = object;
	char step[32];
	const char *p;
	int rc;

	if (!at)
		return 0;
	/* down the path, one key at a time */
	for (p = at; spec && *p;) {
		size_t len = strcspn(p, ".");

		if (len >= sizeof(step))
			return 0;
		memcpy(step, p, len);
		step[len] = '\0';
		spec = owners_json_get(spec, step);
		p += len + (p[len] == '.');
	}
	rc = spec && spec->type == OWNERS_JSON_OBJECT ? read_spec(r, spec, at) : 0;
	if (!rc && !strcmp(group, "apps") && !strcmp(kind, "StatefulSet"))
		rc = read_claim_templates(r, object);
	return rc;
}
