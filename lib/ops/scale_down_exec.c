#include "scale_down_exec.h"

#include "patch.h"

int owners_scale_read(struct owners_scale_state *st, struct owners_http_client *c,
		      const struct owners_node *n, enum owners_scale_how how, struct owners_error *err)
{
	const struct owners_object_get_request object = {
		.key = { n->place->resource, n->place->namespace_, n->name },
		.uid = OWNERS_NODE_UID(n),
		.full = 1,
	};
	const struct owners_object_get_request scale = {
		.key = { n->place->resource, n->place->namespace_, n->name }, .subresource = "scale",
	};
	struct owners_json_value *doc = NULL, *sdoc = NULL;
	int through_scale = how == OWNERS_SCALE_SUBRESOURCE || how == OWNERS_SCALE_DEPLOYMENT;
	int rc = owners_object_get(&doc, c, &object, err);

	if (!rc && through_scale)
		rc = owners_object_get(&sdoc, c, &scale, err);
	if (!rc && owners_scale_state_read(st, how, doc, sdoc))
		rc = owners_error_set(err, OWNERS_EPROTO, "%s '%s': the server's answer is not an object",
				      n->place->kind, n->name);
	owners_json_value_free(doc);
	owners_json_value_free(sdoc);
	return rc;
}

int owners_scale_write(struct owners_http_client *c, const struct owners_scale_write_request *q,
		       struct owners_error *err)
{
	const struct owners_node *n = q->n;
	const struct owners_scale_state *st = q->st;
	enum owners_scale_how how = q->how;
	enum owners_scale_write what = q->what;
	struct owners_buf body = OWNERS_BUF_INIT;
	struct owners_object_write_request w = {
		.method = "PATCH",
		.content_type = OWNERS_MERGE_PATCH_TYPE,
		.key = { n->place->resource, n->place->namespace_, n->name },
		.body = &body,
		.dry_run = q->dry_run,
	};
	int rc;

	if (what == OWNERS_SCALE_WRITE_ZERO) {
		rc = owners_scale_zero_patch(&body, st->resource_version, how, err);
		if (how != OWNERS_SCALE_JOB)
			w.subresource = "scale";
	} else {
		rc = owners_scale_pause_patch(&body, st->resource_version,
					      what == OWNERS_SCALE_WRITE_PAUSE, err);
	}
	if (!rc)
		rc = owners_object_write(NULL, c, &w, err);
	owners_buf_clear(&body);
	return rc;
}
