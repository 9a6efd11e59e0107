/* kubectl's names of the built-in types (see builtin_names.h). */
#include "builtin_names.h"

#include <string.h>

static const char *const none[] = { NULL };
static const char *const all[] = { "all", NULL };

#define NAMES(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* As `kubectl api-resources` lists them on a cluster of v1.29 to v1.36. */
static const struct entry {
	const char *group, *resource;
	const char *const *short_names;
	const char *const *categories;
} table[] = {
	{ "", "componentstatuses", NAMES("cs"), none },
	{ "", "configmaps", NAMES("cm"), none },
	{ "", "endpoints", NAMES("ep"), none },
	{ "", "events", NAMES("ev"), none },
	{ "", "limitranges", NAMES("limits"), none },
	{ "", "namespaces", NAMES("ns"), none },
	{ "", "nodes", NAMES("no"), none },
	{ "", "persistentvolumeclaims", NAMES("pvc"), none },
	{ "", "persistentvolumes", NAMES("pv"), none },
	{ "", "pods", NAMES("po"), all },
	{ "", "replicationcontrollers", NAMES("rc"), all },
	{ "", "resourcequotas", NAMES("quota"), none },
	{ "", "serviceaccounts", NAMES("sa"), none },
	{ "", "services", NAMES("svc"), all },
	{ "apiextensions.k8s.io", "customresourcedefinitions", NAMES("crd", "crds"), none },
	{ "apps", "daemonsets", NAMES("ds"), all },
	{ "apps", "deployments", NAMES("deploy"), all },
	{ "apps", "replicasets", NAMES("rs"), all },
	{ "apps", "statefulsets", NAMES("sts"), all },
	{ "autoscaling", "horizontalpodautoscalers", NAMES("hpa"), all },
	{ "batch", "cronjobs", NAMES("cj"), all },
	{ "batch", "jobs", none, all },
	{ "certificates.k8s.io", "certificatesigningrequests", NAMES("csr"), none },
	{ "events.k8s.io", "events", NAMES("ev"), none },
	{ "networking.k8s.io", "ingresses", NAMES("ing"), none },
	{ "networking.k8s.io", "networkpolicies", NAMES("netpol"), none },
	{ "policy", "poddisruptionbudgets", NAMES("pdb"), none },
	{ "scheduling.k8s.io", "priorityclasses", NAMES("pc"), none },
	{ "storage.k8s.io", "storageclasses", NAMES("sc"), none },
};

struct owners_builtin_names owners_builtin_names_of(const char *group, const char *resource)
{
	struct owners_builtin_names out = { none, none };
	size_t i;

	for (i = 0; i < sizeof(table) / sizeof(*table); i++)
		if (!strcmp(table[i].group, group) && !strcmp(table[i].resource, resource)) {
			out.short_names = table[i].short_names;
			out.categories = table[i].categories;
			break;
		}
	return out;
}
