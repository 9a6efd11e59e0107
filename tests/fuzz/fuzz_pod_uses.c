/* libFuzzer target: what a pod spec uses (lib/api/pod_uses.c), read from
 * any JSON as each kind with a pod spec. Besides not crashing: every use
 * names something, and its path starts at the kind's pod spec (or, for a
 * StatefulSet's claims, at its volumeClaimTemplates). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct owners_json_value *v = NULL;
	size_t k, i;

	if (owners_json_parse(&v, (const char *)data, size, NULL))
		return 0;
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct owners_pod_uses u = { NULL, 0, 0 };
		const char *spec = owners_pod_uses_spec_path(kinds[k][0], kinds[k][1]);

		if (!spec || owners_pod_uses_read(&u, v, kinds[k][0], kinds[k][1]))
			abort();
		for (i = 0; i < u.count; i++)
			if (!u.items[i].name[0] ||
			    (strncmp(u.items[i].path, spec, strlen(spec)) &&
			     strncmp(u.items[i].path, "spec.volumeClaimTemplates[", 26)) ||
			    (u.items[i].how == OWNERS_POD_USE_CLAIM_TEMPLATE &&
			     u.items[i].ordinals <= 0) ||
			    !owners_pod_uses_claims_name(&u.items[i], u.items[i].name) !=
				    (u.items[i].how == OWNERS_POD_USE_CLAIM_TEMPLATE))
				abort();
		owners_pod_uses_clear(&u);
	}
	owners_json_value_free(v);
	return 0;
}
