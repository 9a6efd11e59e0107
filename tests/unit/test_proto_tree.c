/* A whole object in protobuf read by the status schemas
 * (lib/codec/proto_tree.c, lib/api/object_status_proto.c): the tree holds
 * what the object's JSON holds for those fields, so READY/STATUS read from
 * it are the JSON's (each kind checked against the same object written as
 * JSON); empty strings are left out as omitempty leaves them; fields the
 * schema does not name are passed over; damage is refused. The messages
 * are encoded here by hand with Kubernetes' field numbers. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "object_status.h"
#include "object_status_proto.h"
#include "tap.h"
#include "varint.h"

static void key(struct owners_buf *b, unsigned number, unsigned wire)
{
	owners_varint_add(b, (uint64_t)number << 3 | wire);
}

static void str(struct owners_buf *b, unsigned number, const char *s)
{
	key(b, number, 2);
	owners_varint_add(b, strlen(s));
	owners_buf_adds(b, s);
}

static void num(struct owners_buf *b, unsigned number, int64_t v)
{
	key(b, number, 0);
	owners_varint_add(b, (uint64_t)v);
}

/* msg (the bytes of an inner message) as field number of b; msg emptied. */
static void sub(struct owners_buf *b, unsigned number, struct owners_buf *msg)
{
	key(b, number, 2);
	owners_varint_add(b, msg->len);
	owners_buf_add(b, msg->ptr, msg->len);
	msg->len = 0;
}

/* A condition (type 1, status 2, reason at reason_field). */
static void condition(struct owners_buf *b, unsigned number, const char *type, const char *status,
		      unsigned reason_field, const char *reason)
{
	struct owners_buf c = OWNERS_BUF_INIT;

	str(&c, 1, type);
	str(&c, 2, status);
	str(&c, 3 + 7, "ignored: a field the schema does not name");
	if (reason)
		str(&c, reason_field, reason);
	sub(b, number, &c);
	owners_buf_clear(&c);
}

static void meta(struct owners_buf *obj, const char *uid, int64_t generation)
{
	struct owners_buf m = OWNERS_BUF_INIT;

	str(&m, 1, "name-is-not-read");
	str(&m, 5, uid);
	num(&m, 7, generation);
	sub(obj, 1, &m);
	owners_buf_clear(&m);
}

/* READY, STATUS, health and is_ready of kind from the protobuf bytes and
 * from the JSON: both must say want. */
static void same(const char *group, const char *kind, const struct owners_buf *pb, const char *json,
		 const char *want)
{
	struct owners_json_value *tree = NULL, *doc = NULL;
	struct owners_object_status a = { 0 }, b = { 0 };
	char got_pb[256] = "", got_json[256] = "";
	int rc = owners_proto_tree(&tree, owners_object_status_proto_schema(group, kind), pb->ptr, pb->len);

	is_int(rc, 0, "%s: the protobuf reads", kind);
	if (!rc && !owners_object_status_read(&a, kind, tree))
		snprintf(got_pb, sizeof(got_pb), "%s|%s|%d|%d", a.ready, a.status, (int)a.health, a.is_ready);
	if (!owners_json_parse(&doc, json, strlen(json), NULL) && !owners_object_status_read(&b, kind, doc))
		snprintf(got_json, sizeof(got_json), "%s|%s|%d|%d", b.ready, b.status, (int)b.health, b.is_ready);
	is_str(got_json, want, "%s: from JSON", kind);
	is_str(got_pb, want, "%s: from protobuf, the same", kind);
	owners_object_status_clear(&a);
	owners_object_status_clear(&b);
	owners_json_value_free(tree);
	owners_json_value_free(doc);
}

static void pod(void)
{
	struct owners_buf o = OWNERS_BUF_INIT, spec = OWNERS_BUF_INIT, status = OWNERS_BUF_INIT,
			  cs = OWNERS_BUF_INIT, state = OWNERS_BUF_INIT, waiting = OWNERS_BUF_INIT;
	struct owners_json_value *tree = NULL;

	meta(&o, "u-pod", 1);
	str(&spec, 1 + 20, "not read"); /* initContainers: passed over */
	sub(&spec, 2, &cs);             /* two containers, counted */
	sub(&spec, 2, &cs);
	sub(&o, 2, &spec);
	str(&status, 1, "Running");
	condition(&status, 2, "PodScheduled", "True", 5, NULL);
	condition(&status, 2, "Ready", "False", 5, "ContainersNotReady");
	str(&waiting, 1, "CrashLoopBackOff");
	sub(&state, 1, &waiting);
	num(&cs, 4, 0);                 /* ready: false, written as protobuf writes it */
	sub(&cs, 2, &state);
	str(&cs, 1, "a");
	sub(&status, 8, &cs);
	num(&cs, 4, 1);
	str(&cs, 1, "b");
	sub(&status, 8, &cs);
	str(&status, 4, "");            /* reason "": left out, as omitempty */
	sub(&o, 3, &status);
	same("", "Pod", &o,
	     "{\"metadata\":{\"uid\":\"u-pod\",\"generation\":1},\"spec\":{\"containers\":[{\"name\":\"a\"},{\"name\":\"b\"}]},"
	     "\"status\":{\"phase\":\"Running\",\"conditions\":[{\"type\":\"PodScheduled\",\"status\":\"True\"},"
	     "{\"type\":\"Ready\",\"status\":\"False\",\"reason\":\"ContainersNotReady\"}],\"containerStatuses\":["
	     "{\"name\":\"a\",\"ready\":false,\"state\":{\"waiting\":{\"reason\":\"CrashLoopBackOff\"}}},"
	     "{\"name\":\"b\",\"ready\":true}]}}",
	     "1/2|CrashLoopBackOff|3|0");
	ok(!owners_proto_tree(&tree, owners_object_status_proto_schema("", "Pod"), o.ptr, o.len), "a pod reads");
	is_str(owners_json_string(owners_json_path(tree, "metadata", "uid", NULL)), "u-pod", "... its uid");
	ok(!owners_json_path(tree, "status", "reason", NULL), "... an empty string is left out");
	ok(!owners_json_path(tree, "metadata", "name", NULL), "... a field the schema does not name is not read");
	owners_json_value_free(tree);

	/* damage: cut short, and a field of the wrong wire type */
	ok(owners_proto_tree(&tree, owners_object_status_proto_schema("", "Pod"), o.ptr, o.len - 3) == OWNERS_EPROTO &&
	   !tree, "a pod cut short is refused");
	o.len = 0;
	num(&o, 3, 7); /* status as a varint */
	ok(owners_proto_tree(&tree, owners_object_status_proto_schema("", "Pod"), o.ptr, o.len) == OWNERS_EPROTO,
	   "a message field sent as a varint is refused");
	owners_buf_clear(&o);
	owners_buf_clear(&spec);
	owners_buf_clear(&status);
	owners_buf_clear(&cs);
	owners_buf_clear(&state);
	owners_buf_clear(&waiting);
}

static void workloads(void)
{
	struct owners_buf o = OWNERS_BUF_INIT, spec = OWNERS_BUF_INIT, status = OWNERS_BUF_INIT;

	/* a Deployment rolled out: every replica updated and available */
	meta(&o, "u-d", 3);
	num(&spec, 1, 3);
	sub(&o, 2, &spec);
	num(&status, 1, 3);
	num(&status, 2, 3);
	num(&status, 3, 3);
	num(&status, 4, 3);
	num(&status, 7, 3);
	condition(&status, 6, "Available", "True", 4, "MinimumReplicasAvailable");
	sub(&o, 3, &status);
	same("apps", "Deployment", &o,
	     "{\"metadata\":{\"uid\":\"u-d\",\"generation\":3},\"spec\":{\"replicas\":3},\"status\":{\"observedGeneration\":3,"
	     "\"replicas\":3,\"updatedReplicas\":3,\"availableReplicas\":3,\"readyReplicas\":3,\"conditions\":[{"
	     "\"type\":\"Available\",\"status\":\"True\",\"reason\":\"MinimumReplicasAvailable\"}]}}",
	     "3/3|Available|1|1");
	o.len = 0;

	/* a Deployment past its progress deadline: the reason (field 4 of
	 * apps/v1 conditions) is its STATUS */
	meta(&o, "u-d2", 2);
	num(&spec, 1, 2);
	sub(&o, 2, &spec);
	num(&status, 1, 2);
	num(&status, 2, 2);
	condition(&status, 6, "Progressing", "False", 4, "ProgressDeadlineExceeded");
	sub(&o, 3, &status);
	same("apps", "Deployment", &o,
	     "{\"metadata\":{\"uid\":\"u-d2\",\"generation\":2},\"spec\":{\"replicas\":2},\"status\":{\"observedGeneration\":2,"
	     "\"replicas\":2,\"conditions\":[{\"type\":\"Progressing\",\"status\":\"False\","
	     "\"reason\":\"ProgressDeadlineExceeded\"}]}}",
	     "0/2|ProgressDeadlineExceeded|3|0");
	o.len = 0;

	/* a ReplicaSet short of ready replicas, its zeros written */
	meta(&o, "u-rs", 1);
	num(&spec, 1, 2);
	sub(&o, 2, &spec);
	num(&status, 1, 2);
	num(&status, 3, 1);
	num(&status, 4, 1);
	num(&status, 5, 0);
	sub(&o, 3, &status);
	same("apps", "ReplicaSet", &o,
	     "{\"metadata\":{\"uid\":\"u-rs\",\"generation\":1},\"spec\":{\"replicas\":2},\"status\":{\"replicas\":2,"
	     "\"observedGeneration\":1,\"readyReplicas\":1}}",
	     "1/2|Progressing|2|0");
	o.len = 0;

	/* a StatefulSet mid-update: revisions differ */
	meta(&o, "u-ss", 2);
	num(&spec, 1, 2);
	sub(&o, 2, &spec);
	num(&status, 1, 2);
	num(&status, 2, 2);
	num(&status, 3, 2);
	str(&status, 6, "web-1");
	str(&status, 7, "web-2");
	sub(&o, 3, &status);
	same("apps", "StatefulSet", &o,
	     "{\"metadata\":{\"uid\":\"u-ss\",\"generation\":2},\"spec\":{\"replicas\":2},\"status\":{\"observedGeneration\":2,"
	     "\"replicas\":2,\"readyReplicas\":2,\"currentRevision\":\"web-1\",\"updateRevision\":\"web-2\"}}",
	     "2/2|Ready|1|0");
	o.len = 0;

	/* a DaemonSet: what it wants is in its status */
	meta(&o, "u-ds", 1);
	num(&status, 3, 4);
	num(&status, 4, 4);
	num(&status, 5, 1);
	num(&status, 6, 4);
	sub(&o, 3, &status);
	same("apps", "DaemonSet", &o,
	     "{\"metadata\":{\"uid\":\"u-ds\",\"generation\":1},\"status\":{\"desiredNumberScheduled\":4,\"numberReady\":4,"
	     "\"observedGeneration\":1,\"updatedNumberScheduled\":4}}",
	     "4/4|Ready|1|1");
	o.len = 0;

	/* a Job that failed, and a suspended CronJob with one active Job */
	meta(&o, "u-job", 1);
	num(&spec, 2, 3);
	sub(&o, 2, &spec);
	condition(&status, 1, "Failed", "True", 5, "BackoffLimitExceeded");
	num(&status, 5, 1);
	sub(&o, 3, &status);
	same("batch", "Job", &o,
	     "{\"metadata\":{\"uid\":\"u-job\"},\"spec\":{\"completions\":3},\"status\":{\"conditions\":[{\"type\":\"Failed\","
	     "\"status\":\"True\",\"reason\":\"BackoffLimitExceeded\"}],\"succeeded\":1}}",
	     "1/3|Failed|3|0");
	o.len = 0;
	meta(&o, "u-cj", 1);
	num(&spec, 4, 1);
	sub(&o, 2, &spec);
	{
		struct owners_buf ref = OWNERS_BUF_INIT;

		str(&ref, 3, "job-1");
		sub(&status, 1, &ref);
		owners_buf_clear(&ref);
	}
	sub(&o, 3, &status);
	same("batch", "CronJob", &o,
	     "{\"metadata\":{\"uid\":\"u-cj\"},\"spec\":{\"suspend\":true},\"status\":{\"active\":[{\"name\":\"job-1\"}]}}",
	     "1 active|Suspended|0|1");
	owners_buf_clear(&o);
	owners_buf_clear(&spec);
	owners_buf_clear(&status);
}

static void others(void)
{
	struct owners_buf o = OWNERS_BUF_INIT, spec = OWNERS_BUF_INIT, status = OWNERS_BUF_INIT,
			  lb = OWNERS_BUF_INIT, ing = OWNERS_BUF_INIT;

	/* a LoadBalancer Service with a hostname */
	meta(&o, "u-svc", 1);
	str(&spec, 4, "LoadBalancer");
	sub(&o, 2, &spec);
	str(&ing, 2, "lb.example.com");
	sub(&lb, 1, &ing);
	sub(&status, 1, &lb);
	sub(&o, 3, &status);
	same("", "Service", &o,
	     "{\"metadata\":{\"uid\":\"u-svc\"},\"spec\":{\"type\":\"LoadBalancer\"},\"status\":{\"loadBalancer\":{"
	     "\"ingress\":[{\"hostname\":\"lb.example.com\"}]}}}",
	     "-|LoadBalancer lb.example.com|1|1");
	o.len = 0;

	/* kinds read by phase and Ready condition */
	meta(&o, "u-ns", 0);
	str(&status, 1, "Terminating");
	sub(&o, 3, &status);
	same("", "Namespace", &o, "{\"metadata\":{\"uid\":\"u-ns\"},\"status\":{\"phase\":\"Terminating\"}}",
	     "-|Terminating|2|0");
	o.len = 0;
	meta(&o, "u-pvc", 0);
	str(&status, 1, "Bound");
	sub(&o, 3, &status);
	same("", "PersistentVolumeClaim", &o, "{\"metadata\":{\"uid\":\"u-pvc\"},\"status\":{\"phase\":\"Bound\"}}",
	     "-|Bound|1|1");
	o.len = 0;
	meta(&o, "u-node", 0);
	condition(&status, 4, "Ready", "False", 5, "KubeletNotReady");
	sub(&o, 3, &status);
	same("", "Node", &o,
	     "{\"metadata\":{\"uid\":\"u-node\"},\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"False\","
	     "\"reason\":\"KubeletNotReady\"}]}}",
	     "False|KubeletNotReady|3|0");

	ok(!owners_object_status_proto_schema("example.com", "Pod"), "a kind of another group has no schema");
	ok(!owners_object_status_proto_schema("", "ConfigMap"), "a kind without a status has none");
	owners_buf_clear(&o);
	owners_buf_clear(&spec);
	owners_buf_clear(&status);
	owners_buf_clear(&lb);
	owners_buf_clear(&ing);
}

int main(void)
{
	pod();
	workloads();
	others();
	return tap_done();
}
