/* SelfSubjectAccessReview: the body sent and the answers read. */
#include <stdlib.h>
#include <string.h>

#include "access_review.h"
#include "tap.h"

static void test_body(void)
{
	struct owners_access_check c = { "delete", "apps", "deployments", "web", OWNERS_ACCESS_UNKNOWN, NULL, NULL, NULL };
	struct owners_buf b = OWNERS_BUF_INIT;

	ok(owners_access_review_json(&b, &c) == 0, "body built");
	is_str(b.ptr,
	       "{\"kind\":\"SelfSubjectAccessReview\",\"apiVersion\":\"authorization.k8s.io/v1\",\"spec\":"
	       "{\"resourceAttributes\":{\"verb\":\"delete\",\"group\":\"apps\",\"resource\":\"deployments\","
	       "\"namespace\":\"web\"}}}",
	       "a namespaced check names its namespace");
	owners_buf_clear(&b);
	c.group = "";
	c.resource = "nodes";
	c.namespace_ = "";
	c.verb = "patch";
	ok(owners_access_review_json(&b, &c) == 0, "body built (cluster scope)");
	is_str(b.ptr,
	       "{\"kind\":\"SelfSubjectAccessReview\",\"apiVersion\":\"authorization.k8s.io/v1\",\"spec\":"
	       "{\"resourceAttributes\":{\"verb\":\"patch\",\"group\":\"\",\"resource\":\"nodes\"}}}",
	       "a cluster-scoped check has no namespace; the core group is \"\"");
	owners_buf_clear(&b);
	c.group = "apps";
	c.resource = "statefulsets";
	c.subresource = "scale";
	ok(owners_access_review_json(&b, &c) == 0, "body built (a subresource)");
	is_str(b.ptr,
	       "{\"kind\":\"SelfSubjectAccessReview\",\"apiVersion\":\"authorization.k8s.io/v1\",\"spec\":"
	       "{\"resourceAttributes\":{\"verb\":\"patch\",\"group\":\"apps\",\"resource\":\"statefulsets\","
	       "\"subresource\":\"scale\"}}}",
	       "a check of a subresource names it (patch statefulsets/scale)");
	owners_buf_clear(&b);
	c.subresource = NULL;
	c.resource = "configmaps";
	c.group = "";
	c.namespace_ = "default";
	c.name = "dep-secret";
	ok(owners_access_review_json(&b, &c) == 0, "body built (one object by name)");
	is_str(b.ptr,
	       "{\"kind\":\"SelfSubjectAccessReview\",\"apiVersion\":\"authorization.k8s.io/v1\",\"spec\":"
	       "{\"resourceAttributes\":{\"verb\":\"patch\",\"group\":\"\",\"resource\":\"configmaps\","
	       "\"namespace\":\"default\",\"name\":\"dep-secret\"}}}",
	       "a check of one object names it (a Role's resourceNames may grant it alone)");
	owners_buf_clear(&b);
}

static int parse(struct owners_access_check *c, const char *json)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	int rc = owners_access_review_parse(c, json, strlen(json), &err);

	owners_error_clear(&err);
	return rc;
}

static void test_answers(void)
{
	struct owners_access_check c = { "delete", "", "pods", "x", OWNERS_ACCESS_UNKNOWN, NULL, NULL, NULL };

	ok(parse(&c, "{\"kind\":\"SelfSubjectAccessReview\",\"apiVersion\":\"authorization.k8s.io/v1\","
		     "\"status\":{\"allowed\":true,\"reason\":\"RBAC: allowed by ClusterRoleBinding \\\"x\\\"\"}}") == 0 &&
		   c.verdict == OWNERS_ACCESS_ALLOWED,
	   "allowed: true is allowed");
	is_str(c.reason, "RBAC: allowed by ClusterRoleBinding \"x\"", "the authorizer's reason is kept");
	ok(parse(&c, "{\"kind\":\"SelfSubjectAccessReview\",\"status\":{\"allowed\":false}}") == 0 &&
		   c.verdict == OWNERS_ACCESS_DENIED && c.reason == NULL,
	   "allowed: false without a reason is denied (an authorizer with no opinion denies)");
	ok(parse(&c, "{\"kind\":\"SelfSubjectAccessReview\",\"status\":{\"allowed\":false,\"denied\":true,"
		     "\"reason\":\"webhook says no\"}}") == 0 &&
		   c.verdict == OWNERS_ACCESS_DENIED && c.reason && !strcmp(c.reason, "webhook says no"),
	   "denied: true is denied, with its reason");
	ok(parse(&c, "{\"kind\":\"SelfSubjectAccessReview\",\"status\":{\"evaluationError\":\"cannot read roles\"}}") ==
			   0 &&
		   c.verdict == OWNERS_ACCESS_DENIED && c.reason && !strcmp(c.reason, "cannot read roles"),
	   "no allowed field: denied, the evaluation error as reason");
	c.verdict = OWNERS_ACCESS_UNKNOWN;
	ok(parse(&c, "{\"kind\":\"Status\",\"status\":\"Failure\"}") == OWNERS_EPROTO &&
		   c.verdict == OWNERS_ACCESS_UNKNOWN,
	   "a Status (or any other kind) is not an answer: no verdict");
	ok(parse(&c, "{\"kind\":\"SelfSubjectAccessReview\"}") == OWNERS_EPROTO, "a review without a status: no verdict");
	ok(parse(&c, "{\"kind\":\"SelfSubjectAccessReview\",\"status\":[true]}") == OWNERS_EPROTO,
	   "a status that is not an object: no verdict");
	ok(parse(&c, "garbage") != 0 && c.verdict == OWNERS_ACCESS_UNKNOWN, "garbage: an error, no verdict");
	owners_access_checks_clear(&c, 1);
	ok(c.reason == NULL && c.verdict == OWNERS_ACCESS_UNKNOWN, "cleared");
}

int main(void)
{
	test_body();
	test_answers();
	return tap_done();
}
