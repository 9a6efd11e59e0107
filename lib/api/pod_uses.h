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
 * Ownership: a list owns its names and paths (owners_pod_uses_clear());
 * the object read is borrowed.
 */
#ifndef OWNERS_POD_USES_H
#define OWNERS_POD_USES_H

#include <stddef.h>

#include "json.h"

/* How an object is used: the relation's word. */
enum owners_pod_use_how {
	OWNERS_POD_USE_VOLUME,     /* mounts (a volume of that object) */
	OWNERS_POD_USE_PROJECTED,  /* mounts (a source of a projected volume) */
	OWNERS_POD_USE_ENV,        /* reads a key into a variable (env valueFrom) */
	OWNERS_POD_USE_ENV_FROM,   /* reads every key into the environment (envFrom) */
	OWNERS_POD_USE_IMAGE_PULL, /* pulls images with (imagePullSecrets) */
	OWNERS_POD_USE_CLAIM,      /* mounts the claim (persistentVolumeClaim) */
	OWNERS_POD_USE_CLAIM_TEMPLATE, /* the claims of a StatefulSet's ordinals (volumeClaimTemplates) */
	OWNERS_POD_USE_RUNS_AS,        /* runs as (serviceAccountName) */
	OWNERS_POD_USE_PRIORITY,       /* priorityClassName */
	OWNERS_POD_USE_RUNTIME,        /* runtimeClassName */
	OWNERS_POD_USE_NODE,           /* runs on (nodeName) */
};

struct owners_pod_use {
	const char *group; /* the used object's API group ("" core; static) */
	const char *kind;  /* "ConfigMap", "Secret", "PersistentVolumeClaim", ... (static) */
	int namespaced;    /* in the user's namespace; else cluster-scoped */
	/* The object's name; for CLAIM_TEMPLATE the claims' common stem
	 * "<template>-<statefulset>", each ordinal's claim being
	 * stem-N for N from first_ordinal, ordinals of them
	 * (owners_pod_uses_claims_name()). */
	char *name;
	long long first_ordinal, ordinals;
	char *path; /* the field it comes from, from the object's root */
	enum owners_pod_use_how how;
	int optional; /* the Pod runs without it */
};

struct owners_pod_uses {
	struct owners_pod_use *items;
	size_t count, cap;
};

void owners_pod_uses_clear(struct owners_pod_uses *u);
/* The relation's word for how: "mounts", "reads env from", ... */
const char *owners_pod_uses_how_name(enum owners_pod_use_how how);
/* Where the pod spec of an object of group/kind is ("spec" for a Pod,
 * "spec.template.spec" for a Deployment, ...); NULL when it has none. */
const char *owners_pod_uses_spec_path(const char *group, const char *kind);
/* Appends what object (of group/kind, read whole) uses through its pod
 * spec, and for a StatefulSet the claims of its volumeClaimTemplates (the
 * ordinals from spec.ordinals.start, spec.replicas of them, default 1;
 * none at 0). An object whose kind has no pod spec adds nothing. 0, or
 * OWNERS_ENOMEM. */
int owners_pod_uses_read(struct owners_pod_uses *out, const struct owners_json_value *object,
			 const char *group, const char *kind);

/* Whether claim is one use u names: its name, or for CLAIM_TEMPLATE one
 * of its ordinals' claims. */
int owners_pod_uses_claims_name(const struct owners_pod_use *u, const char *claim);

#endif
