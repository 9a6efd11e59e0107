#include "object_status_proto.h"

#include <string.h>

/* Field numbers: k8s.io/api's generated.proto of each group (v0.36). */
#define STR(n, name) { n, name, OWNERS_PROTO_STRING, 0, NULL }
#define INT(n, name) { n, name, OWNERS_PROTO_INT, 0, NULL }
#define BOOL(n, name) { n, name, OWNERS_PROTO_BOOL, 0, NULL }
#define MSG(n, name, s) { n, name, OWNERS_PROTO_MESSAGE, 0, &(s) }
#define LIST(n, name, s) { n, name, OWNERS_PROTO_MESSAGE, 1, &(s) }
#define SCHEMA(name, ...)                                                                          \
	static const struct owners_proto_field name##_fields[] = { __VA_ARGS__ };                  \
	static const struct owners_proto_schema name = { name##_fields,                             \
							 sizeof(name##_fields) / sizeof(name##_fields[0]) }

static const struct owners_proto_schema nothing = { NULL, 0 }; /* counted, not read */

SCHEMA(metadata, STR(5, "uid"), INT(7, "generation"));

/* Conditions keep their reason at 4 (apps/v1, ReplicationController) or
 * 5 (most others: a lastProbeTime comes first). */
SCHEMA(condition4, STR(1, "type"), STR(2, "status"), STR(4, "reason"));
SCHEMA(condition5, STR(1, "type"), STR(2, "status"), STR(5, "reason"));

/* core/v1 Pod */
SCHEMA(waiting, STR(1, "reason"));
SCHEMA(terminated, STR(3, "reason"));
SCHEMA(container_state, MSG(1, "waiting", waiting), MSG(3, "terminated", terminated));
SCHEMA(container_status, BOOL(4, "ready"), MSG(2, "state", container_state));
SCHEMA(pod_spec, LIST(2, "containers", nothing));
SCHEMA(pod_status, STR(1, "phase"), LIST(2, "conditions", condition5),
       LIST(8, "containerStatuses", container_status));
SCHEMA(pod, MSG(1, "metadata", metadata), MSG(2, "spec", pod_spec), MSG(3, "status", pod_status));

/* apps/v1 Deployment */
SCHEMA(replicas_spec, INT(1, "replicas"));
SCHEMA(deployment_status, INT(1, "observedGeneration"), INT(2, "replicas"), INT(3, "updatedReplicas"),
       INT(4, "availableReplicas"), INT(7, "readyReplicas"), LIST(6, "conditions", condition4));
SCHEMA(deployment, MSG(1, "metadata", metadata), MSG(2, "spec", replicas_spec),
       MSG(3, "status", deployment_status));

/* apps/v1 ReplicaSet and core/v1 ReplicationController: the same numbers */
SCHEMA(replicaset_status, INT(1, "replicas"), INT(3, "observedGeneration"), INT(4, "readyReplicas"),
       INT(5, "availableReplicas"), LIST(6, "conditions", condition4));
SCHEMA(replicaset, MSG(1, "metadata", metadata), MSG(2, "spec", replicas_spec),
       MSG(3, "status", replicaset_status));

/* apps/v1 StatefulSet */
SCHEMA(statefulset_status, INT(1, "observedGeneration"), INT(2, "replicas"), INT(3, "readyReplicas"),
       INT(5, "updatedReplicas"), STR(6, "currentRevision"), STR(7, "updateRevision"),
       LIST(10, "conditions", condition4), INT(11, "availableReplicas"));
SCHEMA(statefulset, MSG(1, "metadata", metadata), MSG(2, "spec", replicas_spec),
       MSG(3, "status", statefulset_status));

/* apps/v1 DaemonSet: how many it wants is in its status */
SCHEMA(daemonset_status, INT(3, "desiredNumberScheduled"), INT(4, "numberReady"), INT(5, "observedGeneration"),
       INT(6, "updatedNumberScheduled"), LIST(10, "conditions", condition4));
SCHEMA(daemonset, MSG(1, "metadata", metadata), MSG(3, "status", daemonset_status));

/* batch/v1 Job and CronJob */
SCHEMA(job_spec, INT(2, "completions"), BOOL(10, "suspend"));
SCHEMA(job_status, LIST(1, "conditions", condition5), INT(5, "succeeded"));
SCHEMA(job, MSG(1, "metadata", metadata), MSG(2, "spec", job_spec), MSG(3, "status", job_status));
SCHEMA(cronjob_spec, BOOL(4, "suspend"));
SCHEMA(cronjob_status, LIST(1, "active", nothing));
SCHEMA(cronjob, MSG(1, "metadata", metadata), MSG(2, "spec", cronjob_spec), MSG(3, "status", cronjob_status));

/* core/v1 Service */
SCHEMA(lb_ingress, STR(1, "ip"), STR(2, "hostname"));
SCHEMA(lb_status, LIST(1, "ingress", lb_ingress));
SCHEMA(service_spec, STR(4, "type"));
SCHEMA(service_status, MSG(1, "loadBalancer", lb_status));
SCHEMA(service, MSG(1, "metadata", metadata), MSG(2, "spec", service_spec), MSG(3, "status", service_status));

/* core/v1 kinds read by their phase and Ready condition */
SCHEMA(namespace_status, STR(1, "phase"), LIST(2, "conditions", condition5));
SCHEMA(namespace_, MSG(1, "metadata", metadata), MSG(3, "status", namespace_status));
SCHEMA(pvc_status, STR(1, "phase"), LIST(4, "conditions", condition5));
SCHEMA(pvc, MSG(1, "metadata", metadata), MSG(3, "status", pvc_status));
SCHEMA(pv_status, STR(1, "phase"));
SCHEMA(pv, MSG(1, "metadata", metadata), MSG(3, "status", pv_status));
SCHEMA(node_status, STR(3, "phase"), LIST(4, "conditions", condition5));
SCHEMA(node, MSG(1, "metadata", metadata), MSG(3, "status", node_status));

static const struct {
	const char *group, *kind;
	const struct owners_proto_schema *schema;
} kinds[] = {
	{ "", "Pod", &pod },
	{ "apps", "Deployment", &deployment },
	{ "apps", "ReplicaSet", &replicaset },
	{ "", "ReplicationController", &replicaset },
	{ "apps", "StatefulSet", &statefulset },
	{ "apps", "DaemonSet", &daemonset },
	{ "batch", "Job", &job },
	{ "batch", "CronJob", &cronjob },
	{ "", "Service", &service },
	{ "", "Namespace", &namespace_ },
	{ "", "PersistentVolumeClaim", &pvc },
	{ "", "PersistentVolume", &pv },
	{ "", "Node", &node },
};

const struct owners_proto_schema *owners_object_status_proto_schema(const char *group, const char *kind)
{
	size_t i;

	for (i = 0; group && kind && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].group, group) && !strcmp(kinds[i].kind, kind))
			return kinds[i].schema;
	return NULL;
}
