#include "object_status.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"

static const struct owners_json_value *find_condition(const struct owners_json_value *object,
						      const char *type)
{
	const struct owners_json_value *conds = owners_json_path(object, "status", "conditions", NULL);
	size_t i;

	if (!conds || conds->type != OWNERS_JSON_ARRAY)
		return NULL;
	for (i = 0; i < conds->count; i++) {
		const char *t = owners_json_string(owners_json_get(conds->items[i], "type"));

		if (t && !strcmp(t, type))
			return conds->items[i];
	}
	return NULL;
}

/* The condition's status is "True". */
static int condition_is(const struct owners_json_value *object, const char *type, const char *want)
{
	const char *st = owners_json_string(owners_json_get(find_condition(object, type), "status"));

	return st && !strcmp(st, want);
}

/* Waiting reasons that will not clear by themselves. */
static int is_failure_reason(const char *why)
{
	static const char *const bad[] = { "CrashLoopBackOff", "ErrImagePull", "ImagePullBackOff",
					   "InvalidImageName", "CreateContainerConfigError",
					   "CreateContainerError", "RunContainerError", "Error",
					   "OOMKilled", "ContainerCannotRun", "DeadlineExceeded",
					   "Unschedulable", "Evicted", NULL };
	size_t i;

	for (i = 0; why && bad[i]; i++)
		if (!strcmp(why, bad[i]))
			return 1;
	return 0;
}

/* The first reason a container is not running ("ContainerCreating",
 * "CrashLoopBackOff"), as kubectl's STATUS column shows it. */
static const char *container_wait_reason(const struct owners_json_value *object)
{
	const struct owners_json_value *cs = owners_json_path(object, "status", "containerStatuses", NULL);
	size_t i;

	if (!cs || cs->type != OWNERS_JSON_ARRAY)
		return NULL;
	for (i = 0; i < cs->count; i++) {
		const char *r = owners_json_string(owners_json_path(cs->items[i], "state", "waiting", "reason", NULL));

		if (!r)
			r = owners_json_string(owners_json_path(cs->items[i], "state", "terminated", "reason", NULL));
		if (r)
			return r;
	}
	return NULL;
}

static int pod_status(struct owners_buf *ready, struct owners_buf *status, enum owners_health *health,
		      const struct owners_json_value *object)
{
	const struct owners_json_value *cs = owners_json_path(object, "status", "containerStatuses", NULL);
	const struct owners_json_value *spec = owners_json_path(object, "spec", "containers", NULL);
	const struct owners_json_value *sched = find_condition(object, "PodScheduled");
	const char *phase = owners_json_string(owners_json_path(object, "status", "phase", NULL));
	const char *why = container_wait_reason(object);
	size_t total = spec && spec->type == OWNERS_JSON_ARRAY ? spec->count : 0, ok = 0, i;
	int rc;

	if (cs && cs->type == OWNERS_JSON_ARRAY)
		for (i = 0; i < cs->count; i++)
			ok += owners_json_bool(owners_json_get(cs->items[i], "ready"), 0) ? 1 : 0;
	rc = owners_buf_addf(ready, "%zu/%zu", ok, total);
	if (rc)
		return rc;
	/* An unscheduled pod says why (Unschedulable) rather than just Pending. */
	if (!why && sched && owners_json_string(owners_json_get(sched, "status")) &&
	    !strcmp(owners_json_string(owners_json_get(sched, "status")), "False"))
		why = owners_json_string(owners_json_get(sched, "reason"));
	if ((phase && !strcmp(phase, "Failed")) || is_failure_reason(why))
		*health = OWNERS_HEALTH_BAD;
	else if (phase && (!strcmp(phase, "Succeeded") || (!strcmp(phase, "Running") && ok == total && !why)))
		*health = OWNERS_HEALTH_OK;
	else
		*health = OWNERS_HEALTH_PENDING;
	return owners_buf_adds(status, why ? why : phase ? phase : "-");
}

static int replicas_status(struct owners_buf *ready, struct owners_buf *status, enum owners_health *health,
			   const struct owners_json_value *object, const char *ready_field)
{
	int64_t want = owners_json_int(owners_json_path(object, "spec", "replicas", NULL), -1);
	int64_t have = owners_json_int(owners_json_path(object, "status", ready_field, NULL), 0);
	const struct owners_json_value *avail = find_condition(object, "Available");
	const struct owners_json_value *prog = find_condition(object, "Progressing");
	const char *s = NULL;
	int rc;

	if (want < 0) /* DaemonSets say how many they want in status */
		want = owners_json_int(owners_json_path(object, "status", "desiredNumberScheduled", NULL), 0);
	rc = owners_buf_addf(ready, "%lld/%lld", (long long)have, (long long)want);
	if (rc)
		return rc;
	if (avail) {
		const char *st = owners_json_string(owners_json_get(avail, "status"));

		s = st && !strcmp(st, "True") ? "Available"
					      : owners_json_string(owners_json_get(avail, "reason"));
	}
	if (!s && prog)
		s = owners_json_string(owners_json_get(prog, "reason"));
	if (!s)
		s = have >= want ? "Ready" : "Progressing";
	if (!strcmp(s, "ProgressDeadlineExceeded") || condition_is(object, "ReplicaFailure", "True"))
		*health = OWNERS_HEALTH_BAD;
	else
		*health = have >= want ? OWNERS_HEALTH_OK : OWNERS_HEALTH_PENDING;
	return owners_buf_adds(status, s);
}

/* kubectl get jobs: COMPLETIONS succeeded/wanted and STATUS (Complete,
 * Failed, Suspended, Running). */
static int job_status(struct owners_buf *ready, struct owners_buf *status, enum owners_health *health,
		      const struct owners_json_value *object)
{
	int64_t want = owners_json_int(owners_json_path(object, "spec", "completions", NULL), -1);
	int64_t done = owners_json_int(owners_json_path(object, "status", "succeeded", NULL), 0);
	const char *s;
	int rc;

	/* Without completions any pod succeeding completes it (a work queue). */
	rc = want < 0 ? owners_buf_addf(ready, "%d/1", done > 0)
		      : owners_buf_addf(ready, "%lld/%lld", (long long)done, (long long)want);
	if (rc)
		return rc;
	if (condition_is(object, "Complete", "True")) {
		s = "Complete";
		*health = OWNERS_HEALTH_OK;
	} else if (condition_is(object, "Failed", "True")) {
		s = "Failed";
		*health = OWNERS_HEALTH_BAD;
	} else if (condition_is(object, "Suspended", "True") ||
		   owners_json_bool(owners_json_path(object, "spec", "suspend", NULL), 0)) {
		s = "Suspended";
		*health = OWNERS_HEALTH_NONE;
	} else {
		s = "Running";
		*health = OWNERS_HEALTH_PENDING;
	}
	return owners_buf_adds(status, s);
}

/* A CronJob: how many Jobs it runs now, or that it is suspended. */
static int cronjob_status(struct owners_buf *ready, struct owners_buf *status, enum owners_health *health,
			  const struct owners_json_value *object)
{
	const struct owners_json_value *active = owners_json_path(object, "status", "active", NULL);
	size_t n = active && active->type == OWNERS_JSON_ARRAY ? active->count : 0;
	int rc;

	*health = OWNERS_HEALTH_NONE;
	rc = owners_buf_addf(ready, "%zu active", n);
	if (rc)
		return rc;
	if (owners_json_bool(owners_json_path(object, "spec", "suspend", NULL), 0))
		return owners_buf_adds(status, "Suspended");
	return owners_buf_adds(status, n ? "Active" : "Scheduled");
}

/* A Service: its type; a LoadBalancer says its address, or Pending. */
static int service_status(struct owners_buf *ready, struct owners_buf *status, enum owners_health *health,
			  const struct owners_json_value *object)
{
	const char *type = owners_json_string(owners_json_path(object, "spec", "type", NULL));
	const struct owners_json_value *ing = owners_json_path(object, "status", "loadBalancer", "ingress", NULL);
	const char *addr = NULL;
	int rc = owners_buf_adds(ready, "-");

	*health = OWNERS_HEALTH_NONE;
	if (rc || !type || strcmp(type, "LoadBalancer"))
		return rc ? rc : owners_buf_adds(status, type ? type : "ClusterIP");
	if (ing && ing->type == OWNERS_JSON_ARRAY && ing->count) {
		addr = owners_json_string(owners_json_get(ing->items[0], "ip"));
		if (!addr)
			addr = owners_json_string(owners_json_get(ing->items[0], "hostname"));
	}
	*health = addr ? OWNERS_HEALTH_OK : OWNERS_HEALTH_PENDING;
	return addr ? owners_buf_addf(status, "LoadBalancer %s", addr) : owners_buf_adds(status, "Pending");
}

/* Anything with a phase: PersistentVolumeClaims (Bound, Pending, Lost),
 * Namespaces (Active, Terminating), PersistentVolumes. */
static enum owners_health phase_health(const char *phase)
{
	static const char *const good[] = { "Running", "Succeeded", "Bound", "Active", "Available", NULL };
	static const char *const bad[] = { "Failed", "Lost", NULL };
	size_t i;

	for (i = 0; phase && good[i]; i++)
		if (!strcmp(phase, good[i]))
			return OWNERS_HEALTH_OK;
	for (i = 0; phase && bad[i]; i++)
		if (!strcmp(phase, bad[i]))
			return OWNERS_HEALTH_BAD;
	return phase ? OWNERS_HEALTH_PENDING : OWNERS_HEALTH_NONE;
}

static int64_t field_int(const struct owners_json_value *object, const char *part, const char *field,
			 int64_t dflt)
{
	return owners_json_int(owners_json_path(object, part, field, NULL), dflt);
}

/* The controller has seen the latest spec: what its status says is about it. */
static int observed(const struct owners_json_value *object)
{
	return field_int(object, "status", "observedGeneration", 0) >=
	       field_int(object, "metadata", "generation", 0);
}

/* kubectl rollout status's rule: every replica updated, no old one
 * left, all available. */
static int deployment_ready(const struct owners_json_value *object)
{
	int64_t want = field_int(object, "spec", "replicas", 1);

	return observed(object) && field_int(object, "status", "updatedReplicas", 0) >= want &&
	       field_int(object, "status", "replicas", 0) == field_int(object, "status", "updatedReplicas", 0) &&
	       field_int(object, "status", "availableReplicas", 0) >= want;
}

/* Every replica there and ready, none left over from a scale-down or an
 * older revision. */
static int replicas_ready(const struct owners_json_value *object)
{
	int64_t want = field_int(object, "spec", "replicas", 1);
	const char *current = owners_json_string(owners_json_path(object, "status", "currentRevision", NULL));
	const char *update = owners_json_string(owners_json_path(object, "status", "updateRevision", NULL));

	return observed(object) && field_int(object, "status", "readyReplicas", 0) >= want &&
	       field_int(object, "status", "replicas", 0) == want &&
	       (!current || !update || !strcmp(current, update));
}

static int daemonset_ready(const struct owners_json_value *object)
{
	int64_t want = field_int(object, "status", "desiredNumberScheduled", 0);

	return observed(object) && field_int(object, "status", "numberReady", 0) >= want &&
	       field_int(object, "status", "updatedNumberScheduled", 0) >= want;
}

static int object_ready(const char *kind, const struct owners_json_value *object, enum owners_health health)
{
	const struct owners_json_value *cond;
	const char *phase;

	if (!strcmp(kind, "Pod"))
		return condition_is(object, "Ready", "True") ||
		       ((phase = owners_json_string(owners_json_path(object, "status", "phase", NULL))) &&
			!strcmp(phase, "Succeeded"));
	if (!strcmp(kind, "Deployment"))
		return deployment_ready(object);
	if (!strcmp(kind, "ReplicaSet") || !strcmp(kind, "StatefulSet") || !strcmp(kind, "ReplicationController"))
		return replicas_ready(object);
	if (!strcmp(kind, "DaemonSet"))
		return daemonset_ready(object);
	if (!strcmp(kind, "Job"))
		return condition_is(object, "Complete", "True");
	if (!strcmp(kind, "CronJob"))
		return 1;
	if (!strcmp(kind, "Service"))
		return health != OWNERS_HEALTH_PENDING; /* a LoadBalancer waiting for its address */
	if ((cond = find_condition(object, "Ready")))
		return condition_is(object, "Ready", "True");
	phase = owners_json_string(owners_json_path(object, "status", "phase", NULL));
	return !phase || phase_health(phase) == OWNERS_HEALTH_OK;
}

int owners_object_status_read(struct owners_object_status *out, const char *kind,
			      const struct owners_json_value *object)
{
	struct owners_buf ready = OWNERS_BUF_INIT, status = OWNERS_BUF_INIT;
	const struct owners_json_value *cond;
	enum owners_health health = OWNERS_HEALTH_NONE;
	int rc;

	owners_object_status_clear(out);
	if (!strcmp(kind, "Pod"))
		rc = pod_status(&ready, &status, &health, object);
	else if (!strcmp(kind, "Deployment") || !strcmp(kind, "ReplicaSet") ||
		 !strcmp(kind, "StatefulSet") || !strcmp(kind, "ReplicationController"))
		rc = replicas_status(&ready, &status, &health, object, "readyReplicas");
	else if (!strcmp(kind, "DaemonSet"))
		rc = replicas_status(&ready, &status, &health, object, "numberReady");
	else if (!strcmp(kind, "Job"))
		rc = job_status(&ready, &status, &health, object);
	else if (!strcmp(kind, "CronJob"))
		rc = cronjob_status(&ready, &status, &health, object);
	else if (!strcmp(kind, "Service"))
		rc = service_status(&ready, &status, &health, object);
	else if ((cond = find_condition(object, "Ready"))) {
		const char *st = owners_json_string(owners_json_get(cond, "status"));
		const char *reason = owners_json_string(owners_json_get(cond, "reason"));

		rc = owners_buf_adds(&ready, st ? st : "-");
		if (!rc)
			rc = owners_buf_adds(&status, reason ? reason : st && !strcmp(st, "True") ? "Ready" : "-");
		health = !st ? OWNERS_HEALTH_NONE
			     : !strcmp(st, "True") ? OWNERS_HEALTH_OK
			     : !strcmp(st, "False") ? OWNERS_HEALTH_BAD : OWNERS_HEALTH_PENDING;
	} else {
		const char *phase = owners_json_string(owners_json_path(object, "status", "phase", NULL));

		rc = owners_buf_adds(&ready, "-");
		if (!rc)
			rc = owners_buf_adds(&status, phase ? phase : "-");
		health = phase_health(phase);
	}
	if (rc) {
		owners_buf_clear(&ready);
		owners_buf_clear(&status);
		return rc;
	}
	out->ready = owners_buf_detach(&ready);
	out->status = owners_buf_detach(&status);
	out->health = health;
	out->is_ready = object_ready(kind, object, health);
	if (!out->ready || !out->status) {
		owners_object_status_clear(out);
		return OWNERS_ENOMEM;
	}
	return 0;
}

void owners_object_status_clear(struct owners_object_status *s)
{
	free(s->ready);
	free(s->status);
	s->ready = s->status = NULL;
	s->health = OWNERS_HEALTH_NONE;
	s->is_ready = 0;
}
