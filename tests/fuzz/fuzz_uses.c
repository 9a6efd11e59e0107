/* libFuzzer target: the uses of owners(1)'s relations, read from any JSON
 * as each kind that has them: pod specs (lib/api/pod_uses.c) and every
 * other kind that names objects (lib/api/object_uses.c). Besides not
 * crashing: every use names something of some kind, and a pod spec's
 * path starts at the kind's pod spec (or, for a StatefulSet's claims, at
 * its volumeClaimTemplates). And the Pods a Service, a NetworkPolicy
 * and a PDB select (lib/api/pod_selector.c): one that selects none
 * matches no labels. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "object_uses.h"
#include "pod_selector.h"
#include "pod_uses.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const kinds[][2] = {
	{ "", "Pod" },
	{ "", "PodTemplate" },
	{ "", "ReplicationController" },
	{ "apps", "Deployment" },
	{ "apps", "ReplicaSet" },
	{ "apps", "StatefulSet" },
	{ "apps", "DaemonSet" },
	{ "batch", "Job" },
	{ "batch", "CronJob" },
};

static const char *const others[][2] = {
	{ "networking.k8s.io", "Ingress" },
	{ "networking.k8s.io", "IngressClass" },
	{ "gateway.networking.k8s.io", "Gateway" },
	{ "gateway.networking.k8s.io", "HTTPRoute" },
	{ "", "PersistentVolumeClaim" },
	{ "", "PersistentVolume" },
	{ "storage.k8s.io", "VolumeAttachment" },
	{ "rbac.authorization.k8s.io", "RoleBinding" },
	{ "rbac.authorization.k8s.io", "ClusterRoleBinding" },
	{ "", "ServiceAccount" },
	{ "autoscaling", "HorizontalPodAutoscaler" },
	{ "discovery.k8s.io", "EndpointSlice" },
	{ "apiregistration.k8s.io", "APIService" },
	{ "admissionregistration.k8s.io", "ValidatingWebhookConfiguration" },
	{ "apiextensions.k8s.io", "CustomResourceDefinition" },
};

static const char *const selecting[][2] = {
	{ "", "Service" },
	{ "networking.k8s.io", "NetworkPolicy" },
	{ "policy", "PodDisruptionBudget" },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct owners_json_value *v = NULL;
	size_t k, i;

	if (owners_json_parse(&v, (const char *)data, size, NULL))
		return 0;
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct owners_uses u = { NULL, 0, 0, 0 };
		const char *spec = owners_pod_uses_spec_path(kinds[k][0], kinds[k][1]);

		if (!spec || owners_pod_uses_read(&u, v, kinds[k][0], kinds[k][1]))
			abort();
		for (i = 0; i < u.count; i++)
			if (!u.items[i].name[0] ||
			    (strncmp(u.items[i].path, spec, strlen(spec)) &&
			     strncmp(u.items[i].path, "spec.volumeClaimTemplates[", 26)) ||
			    (u.items[i].how == OWNERS_USE_CLAIMS_TEMPLATE &&
			     u.items[i].ordinals <= 0) ||
			    !owners_uses_names(&u.items[i], u.items[i].name) !=
				    (u.items[i].how == OWNERS_USE_CLAIMS_TEMPLATE))
				abort();
		owners_uses_clear(&u);
	}
	for (k = 0; k < sizeof(others) / sizeof(others[0]); k++) {
		struct owners_uses u = { NULL, 0, 0, 0 };

		if (!owners_object_uses_kind(others[k][0], others[k][1]) ||
		    owners_object_uses_read(&u, v, others[k][0], others[k][1]))
			abort();
		for (i = 0; i < u.count; i++)
			if (!u.items[i].name[0] || !u.items[i].kind[0] || !u.items[i].path[0])
				abort();
		owners_uses_clear(&u);
	}
	for (k = 0; k < sizeof(selecting) / sizeof(selecting[0]); k++) {
		static const struct owners_label_meta labels[] = { { "app", "web" },
								   { "tier", "front" } };
		struct owners_pod_selector sel;

		if (owners_pod_selector_read(&sel, v, selecting[k][0], selecting[k][1]))
			abort();
		if (sel.scope == OWNERS_POD_SELECTOR_NONE &&
		    owners_pod_selector_matches(&sel, labels, 2))
			abort();
		owners_pod_selector_clear(&sel);
	}
	owners_json_value_free(v);
	return 0;
}
