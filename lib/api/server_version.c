#include "server_version.h"

#include <string.h>

int owners_server_version_get(struct owners_json_value **doc, struct owners_http_client *c,
			      struct owners_error *err)
{
	struct owners_http_request req;
	int rc;

	*doc = NULL;
	owners_http_request_init(&req);
	if (owners_buf_adds(&req.path, "/version")) {
		owners_http_request_clear(&req);
		return owners_error_oom(err);
	}
	if (owners_http_do(c, &req))
		rc = owners_http_error(err, &req, "cannot get the server version");
	else
		rc = owners_json_parse(doc, req.response.ptr, req.response.len, err);
	owners_http_request_clear(&req);
	if (!rc && !owners_json_path(*doc, "gitVersion", NULL)) {
		owners_json_value_free(*doc);
		*doc = NULL;
		rc = owners_error_set(err, OWNERS_EPROTO,
				      "cannot get the server version: /version has no gitVersion");
	}
	return rc;
}

const char *owners_server_version_git(const struct owners_json_value *doc)
{
	const char *s = owners_json_string(owners_json_path(doc, "gitVersion", NULL));

	return s ? s : "";
}
