#include "access_review.h"

#include <stdlib.h>
#include <string.h>

#include "json.h"

#define REVIEW_PATH "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"

int owners_access_review_json(struct owners_buf *out, const struct owners_access_check *c)
{
	struct owners_json_gen *j;
	int rc;

	if (owners_json_gen_new(&j, out, 0))
		return OWNERS_ENOMEM;
	owners_json_gen_typed_open(j, "SelfSubjectAccessReview", "authorization.k8s.io/v1");
	owners_json_gen_string(j, "spec");
	owners_json_gen_map_open(j);
	owners_json_gen_string(j, "resourceAttributes");
	owners_json_gen_map_open(j);
	owners_json_gen_kv(j, "verb", c->verb);
	owners_json_gen_kv(j, "group", c->group);
	owners_json_gen_kv(j, "resource", c->resource);
	if (c->subresource && *c->subresource)
		owners_json_gen_kv(j, "subresource", c->subresource);
	/* An empty namespace asks about every namespace (or cluster scope). */
	if (c->namespace_ && *c->namespace_)
		owners_json_gen_kv(j, "namespace", c->namespace_);
	if (c->name && *c->name)
		owners_json_gen_kv(j, "name", c->name);
	owners_json_gen_map_close(j);
	owners_json_gen_map_close(j);
	owners_json_gen_map_close(j);
	rc = owners_json_gen_error(j);
	owners_json_gen_free(j);
	return rc;
}

static void set_reason(struct owners_access_check *c, const char *reason)
{
	free(c->reason);
	c->reason = reason && *reason ? owners_strdup(reason) : NULL;
}

int owners_access_review_parse(struct owners_access_check *c, const char *data, size_t len,
			       struct owners_error *err)
{
	struct owners_json_value *doc = NULL;
	const struct owners_json_value *status;
	const char *kind;
	int rc;

	if ((rc = owners_json_parse(&doc, data, len, err)))
		return rc;
	status = owners_json_get(doc, "status");
	kind = owners_json_string(owners_json_get(doc, "kind"));
	if (!status || status->type != OWNERS_JSON_OBJECT || !kind || strcmp(kind, "SelfSubjectAccessReview")) {
		owners_json_value_free(doc);
		return owners_error_set(err, OWNERS_EPROTO, "not a SelfSubjectAccessReview with a status");
	}
	/* "denied" may be true only with allowed false; an authorizer with no
	 * opinion leaves both false: not allowed. */
	c->verdict = owners_json_bool(owners_json_get(status, "allowed"), 0) ? OWNERS_ACCESS_ALLOWED
									      : OWNERS_ACCESS_DENIED;
	set_reason(c, owners_json_string(owners_json_get(status, "reason")));
	if (!c->reason)
		set_reason(c, owners_json_string(owners_json_get(status, "evaluationError")));
	owners_json_value_free(doc);
	return 0;
}

struct review {
	struct owners_http_request req;
	struct owners_access_check *check;
};

static void review_done(void *ctx, struct owners_http_request *r)
{
	struct review *v = ctx;
	struct owners_error err = OWNERS_ERROR_INIT;

	if (r->err.code) {
		/* No verdict: the request will be authorized when it is made. */
		v->check->verdict = OWNERS_ACCESS_UNKNOWN;
		set_reason(v->check, owners_error_message(&r->err));
		return;
	}
	if (owners_access_review_parse(v->check, r->response.ptr ? r->response.ptr : "", r->response.len, &err)) {
		v->check->verdict = OWNERS_ACCESS_UNKNOWN;
		set_reason(v->check, owners_error_message(&err));
	}
	owners_error_clear(&err);
}

int owners_access_check_all(struct owners_http_client *h, struct owners_access_check *checks, size_t n,
			    struct owners_error *err)
{
	struct review *v;
	size_t i, submitted = 0;
	int rc = 0;

	if (!n)
		return 0;
	if (!(v = calloc(n, sizeof(*v))))
		return owners_error_oom(err);
	for (i = 0; i < n && !rc; i++) {
		checks[i].verdict = OWNERS_ACCESS_UNKNOWN;
		owners_http_request_init(&v[i].req);
		v[i].check = &checks[i];
		v[i].req.method = "POST";
		v[i].req.content_type = "application/json";
		/* Creating a review changes nothing: safe to send again. */
		v[i].req.idempotent = 1;
		v[i].req.on_done = review_done;
		v[i].req.ctx = &v[i];
		if (owners_buf_add(&v[i].req.path, REVIEW_PATH, strlen(REVIEW_PATH)) ||
		    owners_access_review_json(&v[i].req.body, &checks[i]) ||
		    owners_http_submit(h, &v[i].req))
			rc = owners_error_oom(err);
		else
			submitted++;
	}
	/* Whatever was queued runs to the end even after a failure: the
	 * client must not keep requests that are about to be freed. */
	if (submitted) {
		struct owners_error run_err = OWNERS_ERROR_INIT;

		if (owners_http_run(h, &run_err) && !rc)
			rc = owners_error_set(err, run_err.code ? run_err.code : OWNERS_ENET, "%s",
					      owners_error_message(&run_err));
		owners_error_clear(&run_err);
	}
	for (i = 0; i < n; i++)
		owners_http_request_clear(&v[i].req);
	free(v);
	return rc;
}

void owners_access_checks_clear(struct owners_access_check *checks, size_t n)
{
	size_t i;

	/* The array is the caller's (it may be reused or freed); only what
	 * each check owns goes. */
	for (i = 0; checks && i < n; i++) {
		free(checks[i].reason);
		memset(&checks[i], 0, sizeof(checks[i]));
	}
}
