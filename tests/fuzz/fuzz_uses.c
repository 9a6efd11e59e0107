/* libFuzzer target: the uses of owners(1)'s relations, read from any JSON
 * as each kind that has them: pod specs (lib/api/pod_uses.c) and every
 * other kind that names objects (lib/api/object_uses.c). Besides not
 * crashing: every use names something of some kind, and a pod spec's
 * path starts at the kind's pod spec (or, for a StatefulSet's claims, at
 * its volumeClaimTemplates). And the Pods a Service, a NetworkPolicy
 * and a PDB select (lib/api/pod_selector.c): one that selects none
 * matches no labels. And the record a snapshot keeps of each
 * (lib/api/uses_record.c): read back, it holds the same uses and the same
 * selector; the input itself read as a record is read or refused, never
 * more. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "object_uses.h"
#include "pod_selector.h"
#include "pod_uses.h"
#include "uses_record.h"

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

/* What object records as group/kind, read back: the same uses, in order,
 * and the same selector. */
static void record_round_trip(const struct owners_json_value *v, const char *group,
			      const char *kind)
{
	struct owners_uses a = { NULL, 0, 0, 0 }, b = { NULL, 0, 0, 0 };
	struct owners_pod_selector sa, sb;
	struct owners_buf rec = OWNERS_BUF_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;
	unsigned marks;
	size_t i;
	int rc = owners_uses_record_of_object(&rec, v, group, kind);

	memset(&sa, 0, sizeof(sa));
	if (rc < 0)
		abort();
	if (rc > 0) {
		if (owners_uses_record_read(rec.ptr, rec.len, &b, &sb, &marks, &err))
			abort();
		if (owners_pod_uses_spec_path(group, kind))
			owners_pod_uses_read(&a, v, group, kind);
		else if (owners_object_uses_kind(group, kind))
			owners_object_uses_read(&a, v, group, kind);
		if (owners_pod_selector_kind(group, kind))
			owners_pod_selector_read(&sa, v, group, kind);
		if (a.count != b.count || sa.scope != sb.scope ||
		    (sa.text && (!sb.text || strcmp(sa.text, sb.text))))
			abort();
		for (i = 0; i < a.count; i++)
			if (a.items[i].how != b.items[i].how ||
			    strcmp(a.items[i].name, b.items[i].name) ||
			    strcmp(a.items[i].path, b.items[i].path) ||
			    a.items[i].optional != b.items[i].optional ||
			    !a.items[i].namespace_ != !b.items[i].namespace_)
				abort();
		owners_pod_selector_clear(&sb);
	}
	owners_pod_selector_clear(&sa);
	owners_uses_clear(&a);
	owners_uses_clear(&b);
	owners_buf_clear(&rec);
	owners_error_clear(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct owners_json_value *v = NULL;
	struct owners_uses as_record = { NULL, 0, 0, 0 };
	struct owners_pod_selector sel;
	struct owners_error err = OWNERS_ERROR_INIT;
	unsigned marks;
	size_t k, i;
	int rc = owners_uses_record_read((const char *)data, size, &as_record, &sel, &marks, &err);

	if (rc && rc != OWNERS_EPROTO && rc != OWNERS_ENOMEM)
		abort();
	owners_uses_clear(&as_record);
	owners_pod_selector_clear(&sel);
	owners_error_clear(&err);
	if (owners_json_parse(&v, (const char *)data, size, NULL))
		return 0;
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		record_round_trip(v, kinds[k][0], kinds[k][1]);
	for (k = 0; k < sizeof(others) / sizeof(others[0]); k++)
		record_round_trip(v, others[k][0], others[k][1]);
	for (k = 0; k < sizeof(selecting) / sizeof(selecting[0]); k++)
		record_round_trip(v, selecting[k][0], selecting[k][1]);
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
		struct owners_pod_selector read;

		if (owners_pod_selector_read(&read, v, selecting[k][0], selecting[k][1]))
			abort();
		if (read.scope == OWNERS_POD_SELECTOR_NONE &&
		    owners_pod_selector_matches(&read, labels, 2))
			abort();
		owners_pod_selector_clear(&read);
	}
	owners_json_value_free(v);
	return 0;
}
