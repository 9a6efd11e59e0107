/*
 * Which Pods a Service, a NetworkPolicy and a PodDisruptionBudget select
 * (lib/api/pod_selector.c), each read as its API reads it: an empty
 * Service selector selects none, an empty LabelSelector every Pod of the
 * namespace, an absent one none; what the API would refuse selects none.
 */
#include <string.h>

#include "json.h"
#include "pod_selector.h"
#include "tap.h"

static const struct owners_label_meta web[] = { { "app", "web" }, { "tier", "front" } };
static const struct owners_label_meta db[] = { { "app", "db" } };

/* "scope:web db" (which of two Pods it selects), or "(failed)". */
static const char *select_of(char *buf, size_t cap, const char *json, const char *group,
			     const char *kind)
{
	struct owners_json_value *v = NULL;
	struct owners_pod_selector s;

	if (owners_json_parse(&v, json, strlen(json), NULL) ||
	    owners_pod_selector_read(&s, v, group, kind)) {
		owners_json_value_free(v);
		return "(failed)";
	}
	snprintf(buf, cap, "%s:%s%s",
		 s.scope == OWNERS_POD_SELECTOR_NONE  ? "none"
		 : s.scope == OWNERS_POD_SELECTOR_ALL ? "all"
						      : "matching",
		 owners_pod_selector_matches(&s, web, 2) ? "web " : "",
		 owners_pod_selector_matches(&s, db, 1) ? "db" : "");
	owners_pod_selector_clear(&s);
	owners_json_value_free(v);
	return buf;
}

static void check(const char *json, const char *group, const char *kind, const char *want,
		  const char *what)
{
	char buf[64];

	is_str(select_of(buf, sizeof(buf), json, group, kind), want, "%s", what);
}

static void services(void)
{
	check("{\"spec\":{\"selector\":{\"app\":\"web\"}}}", "", "Service", "matching:web ",
	      "a Service's selector");
	check("{\"spec\":{\"selector\":{\"app\":\"web\",\"tier\":\"back\"}}}", "", "Service",
	      "matching:", "  every label of it, ANDed");
	check("{\"spec\":{\"selector\":{}}}", "", "Service",
	      "none:", "an empty Service selector selects no Pod (kube-lineage reads it as all)");
	check("{\"spec\":{}}", "", "Service",
	      "none:", "  nor does an absent one (endpoints managed by hand)");
	check("{\"spec\":{\"selector\":{\"app\":\"web,tier=front\"}}}", "", "Service", "none:",
	      "a value that is no label value (the API refuses it) selects none, never more");
}

static void label_selectors(void)
{
	check("{\"spec\":{\"podSelector\":{}}}", "networking.k8s.io", "NetworkPolicy", "all:web db",
	      "an empty NetworkPolicy podSelector: every Pod of the namespace");
	check("{\"spec\":{\"podSelector\":{\"matchExpressions\":[{\"key\":\"app\",\"operator\":"
	      "\"In\",\"values\":[\"db\",\"cache\"]}]}}}",
	      "networking.k8s.io", "NetworkPolicy", "matching:db", "  In");
	check("{\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"web\"},\"matchExpressions\":[{"
	      "\"key\":\"tier\","
	      "\"operator\":\"Exists\"}]}}}",
	      "policy", "PodDisruptionBudget", "matching:web ",
	      "a PDB: matchLabels and matchExpressions ANDed");
	check("{\"spec\":{\"selector\":{\"matchExpressions\":[{\"key\":\"tier\",\"operator\":"
	      "\"DoesNotExist\"}]}}}",
	      "policy", "PodDisruptionBudget", "matching:db", "  DoesNotExist");
	check("{\"spec\":{\"selector\":{\"matchExpressions\":[{\"key\":\"app\",\"operator\":"
	      "\"NotIn\",\"values\":[\"web\"]}]}}}",
	      "policy", "PodDisruptionBudget", "matching:db", "  NotIn");
	check("{\"spec\":{\"selector\":{}}}", "policy", "PodDisruptionBudget", "all:web db",
	      "an empty policy/v1 PDB selector: every Pod of the namespace");
	check("{\"spec\":{}}", "policy", "PodDisruptionBudget", "none:", "  an absent one: none");
	check("{\"spec\":{\"selector\":{\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"Gt\","
	      "\"values\":[\"1\"]}]}}}",
	      "policy", "PodDisruptionBudget", "none:", "an operator the API does not know: none");
	check("{\"spec\":{\"selector\":{\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"In\","
	      "\"values\":[]}]}}}",
	      "policy", "PodDisruptionBudget",
	      "none:", "In with no value (refused by the API): none");
	check("{\"spec\":{\"selector\":{\"app\":\"web\"}}}", "apps", "Deployment",
	      "none:", "a kind that does not select Pods so: none");
	ok(owners_pod_selector_kind("", "Service") &&
		   !owners_pod_selector_kind("apps", "Deployment"),
	   "which kinds select Pods so");
}

int main(void)
{
	services();
	label_selectors();
	return tap_done();
}
