/*
 * READY and STATUS of an object, read from its full JSON the way kubectl
 * and kubectl-tree present them: pods count ready containers and show
 * their phase (or why they wait), workloads count ready replicas, Jobs
 * their completions and whether they completed or failed, CronJobs whether
 * they run or are suspended, LoadBalancer Services whether they have an
 * address, anything with a Ready condition shows it, and anything with a
 * phase (PersistentVolumeClaims, Namespaces) shows that; with a health
 * for colour.
 *
 * Ownership: the strings in owners_object_status are owned by it; read
 * replaces (and frees) what a zeroed or earlier-filled record held.
 */
#ifndef OWNERS_OBJECT_STATUS_H
#define OWNERS_OBJECT_STATUS_H

#include "json.h"

/* How an object is doing, for colour: what kubectl-tree paints green,
 * yellow and red. NONE: nothing to judge (a ConfigMap, a Service of type
 * ClusterIP, a suspended CronJob). */
enum owners_health {
	OWNERS_HEALTH_NONE,
	OWNERS_HEALTH_OK,      /* ready, available, complete, bound */
	OWNERS_HEALTH_PENDING, /* on its way: progressing, creating, running a Job */
	OWNERS_HEALTH_BAD,     /* failed, crash-looping, not ready */
};

struct owners_object_status {
	char *ready;  /* "1/1", "True", "-" */
	char *status; /* "Running", "Available", "ContainerCreating", "Complete", "-" */
	enum owners_health health;
	/* Reached what it is for, as a rollout or CI waits for it (tree
	 * --until=ready): a Deployment rolled out and available, workloads
	 * with every replica ready and up to date, a Pod Ready (or
	 * Succeeded), a Job complete, a claim bound, a LoadBalancer with an
	 * address; other kinds by their Ready condition, else their phase,
	 * else present is ready. */
	int is_ready;
};

int owners_object_status_read(struct owners_object_status *out, const char *kind,
			      const struct owners_json_value *object);
void owners_object_status_clear(struct owners_object_status *s);

#endif
