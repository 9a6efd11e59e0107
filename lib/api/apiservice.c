#include "apiservice.h"

#include <string.h>

#include "json.h"

int owners_apiservice_unavailable(struct owners_buf *out, const char *data, size_t len)
{
	struct owners_json_value *v = NULL;
	const struct owners_json_value *conds;
	const char *name;
	size_t i;
	int rc = 0;

	if (owners_json_parse(&v, data, len, NULL))
		return OWNERS_EPROTO;
	name = owners_json_string(owners_json_path(v, "metadata", "name", NULL));
	conds = owners_json_path(v, "status", "conditions", NULL);
	for (i = 0; !rc && conds && conds->type == OWNERS_JSON_ARRAY && i < conds->count; i++) {
		const struct owners_json_value *c = conds->items[i];
		const char *type = owners_json_string(owners_json_get(c, "type"));
		const char *status = owners_json_string(owners_json_get(c, "status"));
		const char *reason = owners_json_string(owners_json_get(c, "reason"));
		const char *message = owners_json_string(owners_json_get(c, "message"));

		if (!type || strcmp(type, "Available") || (status && !strcmp(status, "True")))
			continue;
		rc = owners_buf_addf(out, "APIService %s is not available", name ? name : "?");
		if (!rc && reason)
			rc = owners_buf_addf(out, ": %s", reason);
		if (!rc && message)
			rc = owners_buf_addf(out, ": %s", message);
		rc = rc ? rc : 1;
	}
	owners_json_value_free(v);
	return rc;
}

int owners_apiservice_reason(struct owners_http_client *c, const char *group_version, struct owners_buf *out)
{
	struct owners_http_request req;
	const char *slash = strchr(group_version, '/');
	int rc;

	if (!slash)
		return 0; /* the core group is not aggregated */
	owners_http_request_init(&req);
	req.method = "GET";
	/* the APIService's name: VERSION.GROUP */
	rc = owners_buf_addf(&req.path, "/apis/apiregistration.k8s.io/v1/apiservices/%s.%.*s", slash + 1,
			     (int)(slash - group_version), group_version);
	if (!rc && !owners_http_do(c, &req))
		rc = owners_apiservice_unavailable(out, req.response.ptr, req.response.len);
	owners_http_request_clear(&req);
	return rc == 1 ? 1 : 0;
}
