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

static int pod_status(struct owners_buf *ready, struct owners_buf *status,
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
	return owners_buf_adds(status, why ? why : phase ? phase : "-");
}

static int replicas_status(struct owners_buf *ready, struct owners_buf *status,
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
	return owners_buf_adds(status, s);
}

int owners_object_status_read(struct owners_object_status *out, const char *kind,
			      const struct owners_json_value *object)
{
	struct owners_buf ready = OWNERS_BUF_INIT, status = OWNERS_BUF_INIT;
	const struct owners_json_value *cond;
	int rc;

	owners_object_status_clear(out);
	if (!strcmp(kind, "Pod"))
		rc = pod_status(&ready, &status, object);
	else if (!strcmp(kind, "Deployment") || !strcmp(kind, "ReplicaSet") ||
		 !strcmp(kind, "StatefulSet") || !strcmp(kind, "ReplicationController"))
		rc = replicas_status(&ready, &status, object, "readyReplicas");
	else if (!strcmp(kind, "DaemonSet"))
		rc = replicas_status(&ready, &status, object, "numberReady");
	else if ((cond = find_condition(object, "Ready"))) {
		const char *st = owners_json_string(owners_json_get(cond, "status"));
		const char *reason = owners_json_string(owners_json_get(cond, "reason"));

		rc = owners_buf_adds(&ready, st ? st : "-");
		if (!rc)
			rc = owners_buf_adds(&status, reason ? reason : "-");
	} else {
		const char *phase = owners_json_string(owners_json_path(object, "status", "phase", NULL));

		rc = owners_buf_adds(&ready, "-");
		if (!rc)
			rc = owners_buf_adds(&status, phase ? phase : "-");
	}
	if (rc) {
		owners_buf_release(&ready);
		owners_buf_release(&status);
		return rc;
	}
	out->ready = owners_buf_detach(&ready);
	out->status = owners_buf_detach(&status);
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
}
