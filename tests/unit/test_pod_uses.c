/*
 * What a pod spec uses (lib/api/pod_uses.c), read from each kind that has
 * one: every way a Pod names a ConfigMap, Secret, claim, ServiceAccount,
 * PriorityClass, RuntimeClass or Node, with its field path and whether it
 * is optional; a workload's template as its Pods would; a StatefulSet's
 * claim templates for each ordinal.
 */
#include <string.h>

#include "buf.h"
#include "json.h"
#include "pod_uses.h"
#include "tap.h"

/* The uses of the object in json, one "Kind/name how path[ optional]" a
 * line; "(failed)" when it cannot be read. */
static char *uses_of(const char *json, const char *group, const char *kind)
{
	struct owners_json_value *v = NULL;
	struct owners_uses u = { NULL, 0, 0, 0 };
	struct owners_buf out = OWNERS_BUF_INIT;
	size_t i;

	if (owners_json_parse(&v, json, strlen(json), NULL) ||
	    owners_pod_uses_read(&u, v, group, kind)) {
		owners_json_value_free(v);
		return strdup("(failed)");
	}
	for (i = 0; i < u.count; i++)
		if (u.items[i].how == OWNERS_USE_CLAIMS_TEMPLATE)
			owners_buf_addf(&out, "%s/%s-[%lld..%lld]@%s %s %s\n", u.items[i].kind,
					u.items[i].name, u.items[i].first_ordinal,
					u.items[i].first_ordinal + u.items[i].ordinals - 1,
					u.items[i].namespace_ ? u.items[i].namespace_ : "(none)",
					owners_uses_how_name(u.items[i].how), u.items[i].path);
		else
			owners_buf_addf(&out, "%s/%s%s%s %s %s%s\n", u.items[i].kind,
					u.items[i].name, u.items[i].namespace_ ? "@" : "",
					u.items[i].namespace_ ? u.items[i].namespace_ : "",
					owners_uses_how_name(u.items[i].how), u.items[i].path,
					u.items[i].optional ? " optional" : "");
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

static void a_pod(void)
{
	check("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"web-1\",\"namespace\":\"shop\"},\"spec\":"
	      "{"
	      "\"volumes\":[{\"name\":\"cfg\",\"configMap\":{\"name\":\"app\"}},"
	      "{\"name\":\"tls\",\"secret\":{\"secretName\":\"tls\",\"optional\":true}},"
	      "{\"name\":\"data\",\"persistentVolumeClaim\":{\"claimName\":\"data\"}},"
	      "{\"name\":\"all\",\"projected\":{\"sources\":[{\"configMap\":{\"name\":\"extra\","
	      "\"optional\":true}},"
	      "{\"secret\":{\"name\":\"token\"}},{\"serviceAccountToken\":{\"path\":\"t\"}}]}},"
	      "{\"name\":\"tmp\",\"emptyDir\":{}}],"
	      "\"initContainers\":[{\"name\":\"init\",\"envFrom\":[{\"secretRef\":{\"name\":\"init-"
	      "env\"}}]}],"
	      "\"containers\":[{\"name\":\"web\",\"env\":[{\"name\":\"A\",\"value\":\"x\"},"
	      "{\"name\":\"B\",\"valueFrom\":{\"configMapKeyRef\":{\"name\":\"app\",\"key\":\"b\","
	      "\"optional\":false}}},"
	      "{\"name\":\"C\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"db\",\"key\":\"pw\"}}},"
	      "{\"name\":\"D\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"metadata.name\"}}}],"
	      "\"envFrom\":[{\"configMapRef\":{\"name\":\"common\",\"optional\":true}}]}],"
	      "\"ephemeralContainers\":[{\"name\":\"debug\",\"env\":[{\"name\":\"E\",\"valueFrom\":"
	      "{\"secretKeyRef\":{\"name\":\"dbg\"}}}]}],"
	      "\"imagePullSecrets\":[{\"name\":\"registry\"}],\"serviceAccountName\":\"web\","
	      "\"priorityClassName\":\"high\",\"runtimeClassName\":\"gvisor\",\"nodeName\":\"node-"
	      "1\"}}",
	      "", "Pod",
	      "ConfigMap/app@shop mounts spec.volumes[0].configMap\n"
	      "Secret/tls@shop mounts spec.volumes[1].secret optional\n"
	      "PersistentVolumeClaim/data@shop claims spec.volumes[2].persistentVolumeClaim\n"
	      "ConfigMap/extra@shop mounts (projected) "
	      "spec.volumes[3].projected.sources[0].configMap "
	      "optional\n"
	      "Secret/token@shop mounts (projected) spec.volumes[3].projected.sources[1].secret\n"
	      "Secret/init-env@shop reads all env from "
	      "spec.initContainers[0].envFrom[0].secretRef\n"
	      "ConfigMap/app@shop reads env from "
	      "spec.containers[0].env[1].valueFrom.configMapKeyRef\n"
	      "Secret/db@shop reads env from spec.containers[0].env[2].valueFrom.secretKeyRef\n"
	      "ConfigMap/common@shop reads all env from spec.containers[0].envFrom[0].configMapRef "
	      "optional\n"
	      "Secret/dbg@shop reads env from "
	      "spec.ephemeralContainers[0].env[0].valueFrom.secretKeyRef\n"
	      "Secret/registry@shop pulls images with spec.imagePullSecrets[0]\n"
	      "ServiceAccount/web@shop runs as spec.serviceAccountName\n"
	      "PriorityClass/high has priority spec.priorityClassName\n"
	      "RuntimeClass/gvisor runs with spec.runtimeClassName\n"
	      "Node/node-1 runs on spec.nodeName\n",
	      "a Pod: every volume, projected source, env and envFrom of every container list, "
	      "the pull secrets, the ServiceAccount, classes and node, each with its path, "
	      "optional ones said");
	check("{\"spec\":{\"serviceAccount\":\"legacy\"}}", "", "Pod",
	      "ServiceAccount/legacy@ runs as spec.serviceAccount\n",
	      "the deprecated serviceAccount when serviceAccountName is unset");
	check("{\"spec\":{\"containers\":[{\"name\":\"c\"}]}}", "", "Pod",
	      "ServiceAccount/default@ runs as spec.serviceAccountName\n",
	      "no ServiceAccount named: the Pod runs as default");
	check("{\"spec\":{\"volumes\":[{\"configMap\":{}},{\"secret\":{\"secretName\":\"\"}}]}}",
	      "", "Pod", "ServiceAccount/default@ runs as spec.serviceAccountName\n",
	      "a reference without a name names nothing");
}

static void templates(void)
{
	const char *deployment =
		"{\"metadata\":{\"name\":\"web\"},\"spec\":{\"replicas\":0,\"template\":{\"spec\":{"
		"\"serviceAccountName\":\"web\",\"volumes\":[{\"secret\":{\"secretName\":\"tls\"}}]"
		"}}}}";

	check(deployment, "apps", "Deployment",
	      "Secret/tls@ mounts spec.template.spec.volumes[0].secret\n"
	      "ServiceAccount/web@ runs as spec.template.spec.serviceAccountName\n",
	      "a Deployment at 0 replicas uses what its template names");
	check(deployment, "apps", "ReplicaSet",
	      "Secret/tls@ mounts spec.template.spec.volumes[0].secret\n"
	      "ServiceAccount/web@ runs as spec.template.spec.serviceAccountName\n",
	      "a ReplicaSet (a rollback's, at 0) too");
	check("{\"spec\":{\"jobTemplate\":{\"spec\":{\"template\":{\"spec\":{\"containers\":[{"
	      "\"envFrom\":"
	      "[{\"configMapRef\":{\"name\":\"nightly\"}}]}],\"serviceAccountName\":\"batch\"}}}}}"
	      "}",
	      "batch", "CronJob",
	      "ConfigMap/nightly@ reads all env from "
	      "spec.jobTemplate.spec.template.spec.containers[0].envFrom[0].configMapRef\n"
	      "ServiceAccount/batch@ runs as "
	      "spec.jobTemplate.spec.template.spec.serviceAccountName\n",
	      "a CronJob between runs: its job template's pod template");
	check("{\"template\":{\"spec\":{\"priorityClassName\":\"low\",\"serviceAccountName\":\"x\"}"
	      "}}",
	      "", "PodTemplate",
	      "ServiceAccount/x@ runs as template.spec.serviceAccountName\n"
	      "PriorityClass/low has priority template.spec.priorityClassName\n",
	      "a PodTemplate");
	check(deployment, "", "ConfigMap", "", "a kind with no pod spec uses nothing through one");
	check(deployment, "example.com", "Deployment", "",
	      "  nor one of another group with a workload's name");
	ok(owners_pod_uses_spec_path("batch", "CronJob") &&
		   !strcmp(owners_pod_uses_spec_path("batch", "CronJob"),
			   "spec.jobTemplate.spec.template.spec"),
	   "where a CronJob's pod spec is");
}

static void claim_templates(void)
{
	check("{\"metadata\":{\"name\":\"db\"},\"spec\":{\"replicas\":2,\"serviceAccountName\":"
	      "\"x\","
	      "\"template\":{\"spec\":{\"serviceAccountName\":\"db\"}},"
	      "\"volumeClaimTemplates\":[{\"metadata\":{\"name\":\"data\"}},{\"metadata\":{"
	      "\"name\":\"wal\"}}]}}",
	      "apps", "StatefulSet",
	      "ServiceAccount/db@ runs as spec.template.spec.serviceAccountName\n"
	      "PersistentVolumeClaim/data-db-[0..1]@ claims (template) "
	      "spec.volumeClaimTemplates[0]\n"
	      "PersistentVolumeClaim/wal-db-[0..1]@ claims (template) "
	      "spec.volumeClaimTemplates[1]\n",
	      "a StatefulSet: the claims of the ordinals it runs, one use per template");
	check("{\"metadata\":{\"name\":\"db\"},\"spec\":{\"ordinals\":{\"start\":5},"
	      "\"template\":{\"spec\":{\"serviceAccountName\":\"db\"}},"
	      "\"volumeClaimTemplates\":[{\"metadata\":{\"name\":\"data\"}}]}}",
	      "apps", "StatefulSet",
	      "ServiceAccount/db@ runs as spec.template.spec.serviceAccountName\n"
	      "PersistentVolumeClaim/data-db-[5..5]@ claims (template) "
	      "spec.volumeClaimTemplates[0]\n",
	      "  replicas unset: 1; the ordinals from spec.ordinals.start");
	check("{\"metadata\":{\"name\":\"db\"},\"spec\":{\"replicas\":0,"
	      "\"template\":{\"spec\":{\"serviceAccountName\":\"db\"}},"
	      "\"volumeClaimTemplates\":[{\"metadata\":{\"name\":\"data\"}}]}}",
	      "apps", "StatefulSet",
	      "ServiceAccount/db@ runs as spec.template.spec.serviceAccountName\n",
	      "  at 0 replicas: no ordinal, no claim in use");
}

/* Which claims a claim template's use names. */
static void claim_names(void)
{
	struct owners_use t = { "",
				"PersistentVolumeClaim",
				"shop",
				"data-db",
				2,
				3,
				"spec.volumeClaimTemplates[0]",
				OWNERS_USE_CLAIMS_TEMPLATE,
				0 };
	struct owners_use plain = { "",
				    "PersistentVolumeClaim",
				    "shop",
				    "data",
				    0,
				    0,
				    "spec.volumes[0]",
				    OWNERS_USE_CLAIMS,
				    0 };

	ok(owners_uses_names(&t, "data-db-2") && owners_uses_names(&t, "data-db-4"),
	   "a template's use names the claims of its ordinals (2 to 4)");
	ok(!owners_uses_names(&t, "data-db-1") && !owners_uses_names(&t, "data-db-5"),
	   "  not those of ordinals it does not run (scaled down: kept, unused)");
	ok(!owners_uses_names(&t, "data-db-") && !owners_uses_names(&t, "data-db-03") &&
		   !owners_uses_names(&t, "data-db-3x") && !owners_uses_names(&t, "data-db") &&
		   !owners_uses_names(&t, "data-dbx-3") &&
		   !owners_uses_names(&t, "data-db-99999999999999999999"),
	   "  nor a name that is no ordinal's claim");
	ok(owners_uses_names(&plain, "data") && !owners_uses_names(&plain, "data-0"),
	   "a claim's own use names that claim alone");
}

int main(void)
{
	a_pod();
	templates();
	claim_templates();
	claim_names();
	return tap_done();
}
