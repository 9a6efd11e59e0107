/* READY, STATUS and health of objects, kind by kind, from the JSON the
 * apiserver sends (as kubectl get and kubectl-tree show them). */
#include <string.h>

#include "object_status.h"
#include "tap.h"

struct status_case {
	const char *kind;
	const char *json;
	const char *ready, *status;
	enum owners_health health;
};

static const struct status_case cases[] = {
	{ "Job", "{\"spec\":{\"completions\":1},\"status\":{\"succeeded\":1,\"conditions\":["
		 "{\"type\":\"SuccessCriteriaMet\",\"status\":\"True\"},{\"type\":\"Complete\",\"status\":\"True\"}]}}",
	  "1/1", "Complete", OWNERS_HEALTH_OK },
	{ "Job", "{\"spec\":{\"completions\":1},\"status\":{\"active\":1}}", "0/1", "Running", OWNERS_HEALTH_PENDING },
	{ "Job", "{\"spec\":{\"completions\":3},\"status\":{\"succeeded\":1,\"failed\":6,\"conditions\":["
		 "{\"type\":\"Failed\",\"status\":\"True\",\"reason\":\"BackoffLimitExceeded\"}]}}",
	  "1/3", "Failed", OWNERS_HEALTH_BAD },
	{ "Job", "{\"spec\":{\"suspend\":true,\"completions\":2},\"status\":{}}", "0/2", "Suspended", OWNERS_HEALTH_NONE },
	{ "Job", "{\"spec\":{\"parallelism\":2},\"status\":{\"succeeded\":1}}", "1/1", "Running", OWNERS_HEALTH_PENDING },
	{ "CronJob", "{\"spec\":{\"schedule\":\"* * * * *\"},\"status\":{\"active\":[{\"name\":\"j\"}]}}",
	  "1 active", "Active", OWNERS_HEALTH_NONE },
	{ "CronJob", "{\"spec\":{\"suspend\":true},\"status\":{}}", "0 active", "Suspended", OWNERS_HEALTH_NONE },
	{ "CronJob", "{\"spec\":{},\"status\":{}}", "0 active", "Scheduled", OWNERS_HEALTH_NONE },
	{ "DaemonSet", "{\"status\":{\"desiredNumberScheduled\":3,\"numberReady\":3}}", "3/3", "Ready",
	  OWNERS_HEALTH_OK },
	{ "DaemonSet", "{\"status\":{\"desiredNumberScheduled\":3,\"numberReady\":1}}", "1/3", "Progressing",
	  OWNERS_HEALTH_PENDING },
	{ "Deployment", "{\"spec\":{\"replicas\":2},\"status\":{\"readyReplicas\":2,\"conditions\":["
			"{\"type\":\"Available\",\"status\":\"True\"}]}}", "2/2", "Available", OWNERS_HEALTH_OK },
	{ "Deployment", "{\"spec\":{\"replicas\":2},\"status\":{\"conditions\":[{\"type\":\"Available\",\"status\":"
			"\"False\",\"reason\":\"MinimumReplicasUnavailable\"},{\"type\":\"Progressing\",\"status\":"
			"\"False\",\"reason\":\"ProgressDeadlineExceeded\"}]}}",
	  "0/2", "MinimumReplicasUnavailable", OWNERS_HEALTH_PENDING },
	{ "Deployment", "{\"spec\":{\"replicas\":2},\"status\":{\"conditions\":[{\"type\":\"Progressing\",\"status\":"
			"\"False\",\"reason\":\"ProgressDeadlineExceeded\"}]}}",
	  "0/2", "ProgressDeadlineExceeded", OWNERS_HEALTH_BAD },
	{ "PersistentVolumeClaim", "{\"status\":{\"phase\":\"Bound\"}}", "-", "Bound", OWNERS_HEALTH_OK },
	{ "PersistentVolumeClaim", "{\"status\":{\"phase\":\"Pending\"}}", "-", "Pending", OWNERS_HEALTH_PENDING },
	{ "PersistentVolumeClaim", "{\"status\":{\"phase\":\"Lost\"}}", "-", "Lost", OWNERS_HEALTH_BAD },
	{ "Service", "{\"spec\":{\"type\":\"ClusterIP\"},\"status\":{\"loadBalancer\":{}}}", "-", "ClusterIP",
	  OWNERS_HEALTH_NONE },
	{ "Service", "{\"spec\":{\"type\":\"LoadBalancer\"},\"status\":{\"loadBalancer\":{}}}", "-", "Pending",
	  OWNERS_HEALTH_PENDING },
	{ "Service", "{\"spec\":{\"type\":\"LoadBalancer\"},\"status\":{\"loadBalancer\":{\"ingress\":[{\"ip\":"
		     "\"10.0.0.7\"}]}}}", "-", "LoadBalancer 10.0.0.7", OWNERS_HEALTH_OK },
	{ "Pod", "{\"spec\":{\"containers\":[{},{}]},\"status\":{\"phase\":\"Running\",\"containerStatuses\":["
		 "{\"ready\":true,\"state\":{\"running\":{}}},{\"ready\":true,\"state\":{\"running\":{}}}]}}",
	  "2/2", "Running", OWNERS_HEALTH_OK },
	{ "Pod", "{\"spec\":{\"containers\":[{}]},\"status\":{\"phase\":\"Running\",\"containerStatuses\":["
		 "{\"ready\":false,\"state\":{\"waiting\":{\"reason\":\"CrashLoopBackOff\"}}}]}}",
	  "0/1", "CrashLoopBackOff", OWNERS_HEALTH_BAD },
	{ "Pod", "{\"spec\":{\"containers\":[{}]},\"status\":{\"phase\":\"Pending\",\"containerStatuses\":["
		 "{\"ready\":false,\"state\":{\"waiting\":{\"reason\":\"ContainerCreating\"}}}]}}",
	  "0/1", "ContainerCreating", OWNERS_HEALTH_PENDING },
	{ "Pod", "{\"spec\":{\"containers\":[{}]},\"status\":{\"phase\":\"Pending\",\"conditions\":["
		 "{\"type\":\"PodScheduled\",\"status\":\"False\",\"reason\":\"Unschedulable\"}]}}",
	  "0/1", "Unschedulable", OWNERS_HEALTH_BAD },
	{ "Certificate", "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"False\",\"reason\":"
			 "\"Issuing\"}]}}", "False", "Issuing", OWNERS_HEALTH_BAD },
	{ "Widget", "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}", "True", "Ready",
	  OWNERS_HEALTH_OK },
	{ "Namespace", "{\"status\":{\"phase\":\"Terminating\"}}", "-", "Terminating", OWNERS_HEALTH_PENDING },
	{ "ConfigMap", "{\"data\":{}}", "-", "-", OWNERS_HEALTH_NONE },
};

/* What tree --until=ready waits for, kind by kind. */
struct ready_case {
	const char *kind, *json;
	int ready;
	const char *why;
};

static const struct ready_case ready_cases[] = {
	{ "Deployment", "{\"metadata\":{\"generation\":2},\"spec\":{\"replicas\":3},\"status\":{"
			"\"observedGeneration\":2,\"replicas\":3,\"updatedReplicas\":3,\"availableReplicas\":3}}",
	  1, "rolled out" },
	{ "Deployment", "{\"metadata\":{\"generation\":3},\"spec\":{\"replicas\":3},\"status\":{"
			"\"observedGeneration\":2,\"replicas\":3,\"updatedReplicas\":3,\"availableReplicas\":3}}",
	  0, "a spec the controller has not seen" },
	{ "Deployment", "{\"spec\":{\"replicas\":3},\"status\":{\"replicas\":4,\"updatedReplicas\":3,"
			"\"availableReplicas\":3}}", 0, "an old replica left" },
	{ "Deployment", "{\"spec\":{\"replicas\":3},\"status\":{\"replicas\":3,\"updatedReplicas\":3,"
			"\"availableReplicas\":2}}", 0, "one not available" },
	{ "Deployment", "{\"spec\":{},\"status\":{\"replicas\":1,\"updatedReplicas\":1,\"availableReplicas\":1}}",
	  1, "replicas defaults to 1" },
	{ "ReplicaSet", "{\"spec\":{\"replicas\":0},\"status\":{}}", 1, "scaled to zero, drained" },
	{ "ReplicaSet", "{\"spec\":{\"replicas\":0},\"status\":{\"replicas\":2}}", 0, "still draining" },
	{ "ReplicaSet", "{\"spec\":{\"replicas\":2},\"status\":{\"replicas\":2,\"readyReplicas\":1}}", 0,
	  "one not ready" },
	{ "StatefulSet", "{\"spec\":{\"replicas\":2},\"status\":{\"replicas\":2,\"readyReplicas\":2,"
			 "\"currentRevision\":\"a\",\"updateRevision\":\"b\"}}", 0, "an update in progress" },
	{ "StatefulSet", "{\"spec\":{\"replicas\":2},\"status\":{\"replicas\":2,\"readyReplicas\":2,"
			 "\"currentRevision\":\"b\",\"updateRevision\":\"b\"}}", 1, "updated and ready" },
	{ "DaemonSet", "{\"status\":{\"desiredNumberScheduled\":2,\"numberReady\":2,\"updatedNumberScheduled\":1}}",
	  0, "one node not updated" },
	{ "Pod", "{\"status\":{\"phase\":\"Running\",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}",
	  1, "Ready" },
	{ "Pod", "{\"status\":{\"phase\":\"Running\",\"conditions\":[{\"type\":\"Ready\",\"status\":\"False\"}]}}",
	  0, "not Ready" },
	{ "Pod", "{\"status\":{\"phase\":\"Succeeded\"}}", 1, "a completed pod" },
	{ "Job", "{\"status\":{\"conditions\":[{\"type\":\"Complete\",\"status\":\"True\"}]}}", 1, "complete" },
	{ "Job", "{\"status\":{\"conditions\":[{\"type\":\"Failed\",\"status\":\"True\"}]}}", 0, "failed" },
	{ "PersistentVolumeClaim", "{\"status\":{\"phase\":\"Pending\"}}", 0, "unbound" },
	{ "PersistentVolumeClaim", "{\"status\":{\"phase\":\"Bound\"}}", 1, "bound" },
	{ "Service", "{\"spec\":{\"type\":\"LoadBalancer\"},\"status\":{}}", 0, "no address yet" },
	{ "Service", "{\"spec\":{\"type\":\"ClusterIP\"},\"status\":{}}", 1, "a ClusterIP is there" },
	{ "Widget", "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"False\"}]}}", 0,
	  "an unknown kind not Ready" },
	{ "Widget", "{\"status\":{}}", 1, "an unknown kind without a Ready condition: present" },
	{ "ConfigMap", "{\"data\":{}}", 1, "present" },
};

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof(ready_cases) / sizeof(ready_cases[0]); i++) {
		const struct ready_case *c = &ready_cases[i];
		struct owners_json_value *v = NULL;
		struct owners_object_status st = { NULL, NULL, OWNERS_HEALTH_NONE, 0 };

		if (owners_json_parse(&v, c->json, strlen(c->json), NULL)) {
			ok(0, "ready %s %zu: the test's JSON parses", c->kind, i);
			continue;
		}
		is_int(owners_object_status_read(&st, c->kind, v), 0, "ready %s %zu: read", c->kind, i);
		is_int(st.is_ready, c->ready, "%s: %s", c->kind, c->why);
		owners_object_status_clear(&st);
		owners_json_value_free(v);
	}

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct status_case *c = &cases[i];
		struct owners_json_value *v = NULL;
		struct owners_object_status st = { NULL, NULL, OWNERS_HEALTH_NONE, 0 };

		if (owners_json_parse(&v, c->json, strlen(c->json), NULL)) {
			ok(0, "%s %zu: the test's JSON parses", c->kind, i);
			continue;
		}
		is_int(owners_object_status_read(&st, c->kind, v), 0, "%s %zu: read", c->kind, i);
		is_str(st.ready, c->ready, "%s %zu: READY %s", c->kind, i, c->ready);
		is_str(st.status, c->status, "%s %zu: STATUS %s", c->kind, i, c->status);
		is_int(st.health, c->health, "%s %zu: health %d", c->kind, i, (int)c->health);
		owners_object_status_clear(&st);
		owners_json_value_free(v);
	}
	return tap_done();
}
