#include "object_io.h"

#include <string.h>

#include "api_path.h"
#include "url.h"

int owners_object_get(struct owners_json_value **doc, struct owners_http_client *c,
		      const struct owners_object_get_request *q, struct owners_error *err)
{
	const struct owners_object_key *k = &q->key;
	struct owners_http_request req;
	int rc;

	*doc = NULL;
	owners_http_request_init(&req);
	req.accept = q->full || q->subresource ? NULL : OWNERS_ACCEPT_OBJECT_METADATA;
	if (owners_api_path_object(&req.path, k->type, k->ns, k->name, q->subresource)) {
		owners_http_request_clear(&req);
		return owners_error_oom(err);
	}
	if (owners_http_do(c, &req))
		rc = owners_http_error(err, &req, NULL);
	else
		rc = owners_json_parse(doc, req.response.ptr, req.response.len, err);
	owners_http_request_clear(&req);
	if (!rc && q->uid && strcmp(owners_object_io_meta_string(*doc, "uid"), q->uid)) {
		owners_json_value_free(*doc);
		*doc = NULL;
		rc = owners_error_set(err, OWNERS_ENOTFOUND, "%s '%s' was replaced by another object",
				      k->type->kind, k->name);
	}
	return rc;
}

int owners_dry_run_parse(const char *word, enum owners_dry_run *out)
{
	static const enum owners_dry_run all[] = { OWNERS_DRY_RUN_NONE, OWNERS_DRY_RUN_SERVER,
						   OWNERS_DRY_RUN_CLIENT };
	size_t i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (word && !strcmp(word, owners_dry_run_name(all[i]))) {
			*out = all[i];
			return 0;
		}
	return OWNERS_EINVAL;
}

const char *owners_dry_run_name(enum owners_dry_run d)
{
	switch (d) {
	case OWNERS_DRY_RUN_SERVER: return "server";
	case OWNERS_DRY_RUN_CLIENT: return "client";
	case OWNERS_DRY_RUN_NONE: break;
	}
	return "none";
}

int owners_object_write(long *status, struct owners_http_client *c,
			const struct owners_object_write_request *w, struct owners_error *err)
{
	const struct owners_object_key *k = &w->key;
	struct owners_http_request req;
	int rc;

	if (status)
		*status = 0;
	if (w->dry_run == OWNERS_DRY_RUN_CLIENT) {
		/* Decided from what was read; nothing leaves the client. */
		if (status)
			*status = 200;
		return 0;
	}
	owners_http_request_init(&req);
	req.method = w->method;
	req.content_type = w->content_type;
	req.accept = w->subresource ? NULL : OWNERS_ACCEPT_OBJECT_METADATA;
	/* Conditional on the resourceVersion: sending it twice is harmless. */
	req.idempotent = 1;
	rc = owners_api_path_object(&req.path, k->type, k->ns, k->name, w->subresource);
	if (!rc && w->dry_run == OWNERS_DRY_RUN_SERVER)
		rc = owners_url_add_query(&req.path, "dryRun", "All");
	if (!rc)
		rc = owners_buf_add(&req.body, w->body->ptr, w->body->len);
	if (rc) {
		owners_http_request_clear(&req);
		return owners_error_oom(err);
	}
	rc = owners_http_do(c, &req);
	if (status)
		*status = req.status;
	if (rc)
		rc = owners_http_error(err, &req, NULL);
	owners_http_request_clear(&req);
	return rc;
}

const char *owners_object_io_meta_string(const struct owners_json_value *doc, const char *key)
{
	const char *s = owners_json_string(owners_json_path(doc, "metadata", key, NULL));

	return s ? s : "";
}
