/*
 * What a pod spec uses, beside what owns it: the ConfigMaps and Secrets
 * it mounts or reads into its environment, the Secrets it pulls images
 * with, the claims it mounts, the ServiceAccount it runs as, its
 * PriorityClass and RuntimeClass, the Node it runs on. Read from a Pod,
 * or from the template of any workload that makes Pods (a Deployment
 * scaled to 0, a CronJob between runs and a ReplicaSet kept for a
 * rollback use what their template names, since they bring it back),
 * and from a StatefulSet's volumeClaimTemplates (the claims of its
 * ordinals, one use per template however many it runs). The relations of
 * owners(1) that come from pods; the other objects' relations have their
 * own readers.
 *
 * Each use has the field path it comes from ("spec.volumes[2].configMap")
 * and whether it is optional (an optional ConfigMap or Secret: the Pod
 * runs without it). Every container counts: init, ephemeral and sidecar
 * containers as well as the main ones.
 *
 * The uses (uses.h) name their objects in the user's namespace
 * (metadata.namespace), a PriorityClass, RuntimeClass or Node without one.
 *
 * Ownership: the object read is borrowed.
 */
#ifndef OWNERS_POD_USES_H
#define OWNERS_POD_USES_H

#include "json.h"
#include "uses.h"

/* Where the pod spec of an object of group/kind is ("spec" for a Pod,
 * "spec.template.spec" for a Deployment, ...); NULL when it has none. */
const char *owners_pod_uses_spec_path(const char *group, const char *kind);
/* Whether a pod spec can name an object of group/kind. */
int owners_pod_uses_may_name(const char *group, const char *kind);
/* Appends to out what object (of group/kind, read whole) uses through its pod
 * spec, and for a StatefulSet the claims of its volumeClaimTemplates (the
 * ordinals from spec.ordinals.start, spec.replicas of them, default 1;
 * none at 0). An object whose kind has no pod spec adds nothing. 0, or
 * OWNERS_ENOMEM. */
int owners_pod_uses_read(struct owners_uses *out, const struct owners_json_value *object,
			 const char *group, const char *kind);

#endif
