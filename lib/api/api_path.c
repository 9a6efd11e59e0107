#include "api_path.h"

#include <string.h>

#include "url.h"

static int add_prefix(struct owners_buf *out, const struct owners_resource *r)
{
	if (!*r->group)
		return owners_buf_addf(out, "/api/%s", r->version);
	return owners_buf_addf(out, "/apis/%s/%s", r->group, r->version);
}

static int add_segment(struct owners_buf *out, const char *s)
{
	int rc = owners_buf_addc(out, '/');

	return rc ? rc : owners_url_escape(out, s);
}

int owners_api_path_collection(struct owners_buf *out, const struct owners_resource *r,
			       const char *ns)
{
	int rc = add_prefix(out, r);

	if (!rc && r->namespaced && ns && *ns) {
		rc = owners_buf_adds(out, "/namespaces");
		if (!rc)
			rc = add_segment(out, ns);
	}
	return rc ? rc : add_segment(out, r->resource);
}

int owners_api_path_object(struct owners_buf *out, const struct owners_resource *r,
			   const char *ns, const char *name, const char *subresource)
{
	int rc = owners_api_path_collection(out, r, r->namespaced ? ns : NULL);

	if (!rc)
		rc = add_segment(out, name);
	if (!rc && subresource)
		rc = add_segment(out, subresource);
	return rc;
}

int owners_api_type_name(struct owners_buf *out, const struct owners_resource *r)
{
	if (!*r->group)
		return owners_buf_adds(out, r->resource);
	return owners_buf_addf(out, "%s.%s", r->resource, r->group);
}

int owners_api_object_name(struct owners_buf *out, const char *kind, const char *group,
			   const char *name)
{
	size_t i, start = out->len;
	int rc = owners_buf_adds(out, kind);

	for (i = start; i < out->len; i++)
		if (out->ptr[i] >= 'A' && out->ptr[i] <= 'Z')
			out->ptr[i] = (char)(out->ptr[i] - 'A' + 'a');
	if (!rc && *group)
		rc = owners_buf_addf(out, ".%s", group);
	if (!rc)
		rc = owners_buf_addf(out, "/%s", name);
	return rc;
}
