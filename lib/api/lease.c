#include "lease.h"

#include <string.h>

#include "json.h"
#include "timeutil.h"

int owners_lease_parse(struct owners_lease *out, const char *data, size_t len)
{
	struct owners_json_value *v = NULL;
	const char *renew;
	long long duration;

	memset(out, 0, sizeof(*out));
	if (owners_json_parse(&v, data, len, NULL))
		return OWNERS_EPROTO;
	renew = owners_json_string(owners_json_path(v, "spec", "renewTime", NULL));
	if (renew && owners_time_parse_rfc3339(&out->renewed, renew))
		out->renewed = 0;
	duration = owners_json_int(owners_json_path(v, "spec", "leaseDurationSeconds", NULL), 0);
	out->duration = duration > 0 ? (long)duration : 0;
	owners_json_value_free(v);
	return 0;
}

int owners_lease_fetch(struct owners_http_client *c, const char *ns, const char *name, struct owners_buf *body,
		       int64_t *read_at)
{
	struct owners_http_request req;
	int rc;

	*read_at = 0;
	owners_http_request_init(&req);
	req.method = "GET";
	rc = owners_buf_addf(&req.path, "/apis/coordination.k8s.io/v1/namespaces/%s/leases/%s", ns, name);
	if (!rc)
		rc = owners_http_do(c, &req);
	if (!rc && req.err.code)
		rc = req.err.code;
	if (!rc)
		rc = owners_buf_add(body, req.response.ptr ? req.response.ptr : "", req.response.len);
	if (!rc)
		*read_at = req.date;
	owners_http_request_clear(&req);
	return rc;
}

int owners_lease_get(struct owners_http_client *c, const char *ns, const char *name, struct owners_lease *out)
{
	struct owners_buf body = OWNERS_BUF_INIT;
	int64_t read_at;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = owners_lease_fetch(c, ns, name, &body, &read_at);
	if (!rc)
		rc = owners_lease_parse(out, body.ptr ? body.ptr : "", body.len);
	if (!rc)
		out->read_at = read_at;
	owners_buf_clear(&body);
	return rc;
}
