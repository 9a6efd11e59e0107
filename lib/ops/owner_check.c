/*
 * The GC's isDangling() from the client (see owner_check.h): one GET of
 * the owner, or of its group/version's discovery document when its kind
 * was not served when scanned, remembered per owner.
 */
#include "owner_check.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json.h"
#include "object_io.h"
#include "resource.h"
#include "url.h"

void owners_owner_checks_init(struct owners_owner_checks *cc, const struct owners_resource_table *types,
			      struct owners_http_client *http)
{
	memset(cc, 0, sizeof(*cc));
	cc->types = types;
	cc->http = http;
	owners_strset_init(&cc->seen);
}

void owners_owner_checks_clear(struct owners_owner_checks *cc)
{
	owners_strset_clear(&cc->seen);
	owners_strset_init(&cc->seen);
}

/* The discovery document of a group/version: 0 with *out, or the error
 * (404: OWNERS_ENOTFOUND). */
static int get_group_version(struct owners_owner_checks *cc, const char *api_version,
			     struct owners_json_value **out, struct owners_error *err)
{
	const char *slash = strchr(api_version, '/');
	struct owners_http_request req;
	int rc;

	*out = NULL;
	owners_http_request_init(&req);
	if (slash) {
		rc = owners_buf_adds(&req.path, "/apis/");
		if (!rc)
			rc = owners_url_escapen(&req.path, api_version, (size_t)(slash - api_version));
		if (!rc)
			rc = owners_buf_addc(&req.path, '/');
		if (!rc)
			rc = owners_url_escape(&req.path, slash + 1);
	} else {
		rc = owners_buf_adds(&req.path, "/api/");
		if (!rc)
			rc = owners_url_escape(&req.path, api_version);
	}
	if (rc) {
		rc = owners_error_oom(err);
	} else {
		cc->reads++;
		if (owners_http_do(cc->http, &req))
			rc = owners_http_error(err, &req, NULL);
		else
			rc = owners_json_parse(out, req.response.ptr, req.response.len, err);
	}
	owners_http_request_clear(&req);
	return rc;
}

/* The kind was not in the scan's discovery: is it served now? As the GC's
 * REST mapper sees it after a resync. */
static enum owners_owner_verdict check_served(struct owners_owner_checks *cc, const char *api_version,
					      const char *kind, struct owners_buf *why)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_json_value *doc = NULL;
	const struct owners_json_value *res;
	const char *slash = strchr(api_version, '/');
	enum owners_owner_verdict v = OWNERS_OWNER_GONE;
	size_t i;
	int rc;

	if (!*api_version || (slash && (slash == api_version || !slash[1] || strchr(slash + 1, '/'))))
		return OWNERS_OWNER_GONE; /* not a group/version at all: can never be served */
	rc = get_group_version(cc, api_version, &doc, &err);
	if (rc == OWNERS_ENOTFOUND) {
		v = OWNERS_OWNER_GONE;
	} else if (rc) {
		v = OWNERS_OWNER_UNKNOWN;
		owners_buf_addf(why, "cannot read the discovery of '%s': %s", api_version,
				owners_error_message(&err));
	} else {
		res = owners_json_get(doc, "resources");
		for (i = 0; res && res->type == OWNERS_JSON_ARRAY && i < res->count; i++) {
			const char *k = owners_json_string(owners_json_get(res->items[i], "kind"));
			const char *name = owners_json_string(owners_json_get(res->items[i], "name"));

			if (k && name && !strcmp(k, kind) && !strchr(name, '/')) {
				v = OWNERS_OWNER_ALIVE;
				owners_buf_addf(why, "%s %s is served now", api_version, kind);
				break;
			}
		}
	}
	owners_json_value_free(doc);
	owners_error_clear(&err);
	return v;
}

/* isDangling(): the owner by apiVersion, kind and name, in the dependent's
 * namespace when its kind is namespaced; dangling on 404 or another UID. */
static enum owners_owner_verdict check_now(struct owners_owner_checks *cc,
					   const struct owners_node *dep,
					   const struct owners_ref *ref, const char *uid,
					   struct owners_buf *why)
{
	const struct owners_resource *r = NULL;
	enum owners_ref_mapping m = owners_resource_map_ref(cc->types, ref->type->api_version, ref->type->kind, &r);
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_json_value *doc = NULL;
	struct owners_object_get_request q = { { NULL, NULL, NULL }, NULL, 0, NULL };
	enum owners_owner_verdict v;
	int rc;

	if (m == OWNERS_REF_UNMAPPED)
		return check_served(cc, ref->type->api_version, ref->type->kind, why);
	if (m == OWNERS_REF_MAPPING_BLIND) {
		owners_buf_addf(why, "owner %s/%s could not be checked: its API group failed discovery",
				ref->type->kind, ref->name);
		return OWNERS_OWNER_UNKNOWN;
	}
	if (r->namespaced && !*dep->place->namespace_)
		return OWNERS_OWNER_GONE; /* a cluster-scoped object can never have a namespaced owner */
	if (m == OWNERS_REF_MAPPED_MISSING)
		return OWNERS_OWNER_GONE; /* the mapper's guessed resource: the GC's lookup is a 404 */
	r = owners_graph_lookup_type(cc->types, r);
	q.key.type = r;
	q.key.ns = r->namespaced ? dep->place->namespace_ : NULL;
	q.key.name = ref->name;
	cc->reads++;
	rc = owners_object_get(&doc, cc->http, &q, &err);
	if (rc == OWNERS_ENOTFOUND) {
		v = OWNERS_OWNER_GONE;
	} else if (rc) {
		v = OWNERS_OWNER_UNKNOWN;
		owners_buf_addf(why, "owner %s/%s could not be checked: %s", ref->type->kind, ref->name,
				owners_error_message(&err));
	} else if (strcmp(owners_object_io_meta_string(doc, "uid"), uid)) {
		v = OWNERS_OWNER_GONE; /* re-created: another UID */
	} else {
		v = OWNERS_OWNER_ALIVE;
		owners_buf_addf(why, "owner %s/%s exists now", ref->type->kind, ref->name);
	}
	owners_json_value_free(doc);
	owners_error_clear(&err);
	return v;
}

int owners_owner_check(enum owners_owner_verdict *v, const char **why,
		       struct owners_owner_checks *cc, const struct owners_node *dep,
		       const struct owners_ref *ref, const char *uid)
{
	const struct owners_resource *r = NULL;
	struct owners_buf key = OWNERS_BUF_INIT, text = OWNERS_BUF_INIT;
	struct owners_strset_entry *e;
	int rc;

	*v = OWNERS_OWNER_UNKNOWN;
	*why = NULL;
	owners_resource_map_ref(cc->types, ref->type->api_version, ref->type->kind, &r);
	/* Names, kinds and apiVersions never hold a newline. */
	rc = owners_buf_addf(&key, "%s\n%s\n%s\n%s\n%s", ref->type->api_version, ref->type->kind,
			     r && r->namespaced ? dep->place->namespace_ : "", ref->name, uid);
	if (!rc && (e = owners_strset_get(&cc->seen, key.ptr))) {
		*v = (enum owners_owner_verdict)e->flag;
		*why = e->value;
		goto out;
	}
	if (rc)
		goto out;
	if (cc->read) {
		cc->reads++;
		*v = cc->read(cc->read_ctx, dep, ref, uid);
	} else {
		*v = check_now(cc, dep, ref, uid, &text);
	}
	if (!(e = owners_strset_add(&cc->seen, key.ptr, text.len ? text.ptr : NULL))) {
		rc = OWNERS_ENOMEM;
		goto out;
	}
	e->flag = (int)*v;
	*why = e->value;
out:
	owners_buf_clear(&key);
	owners_buf_clear(&text);
	return rc;
}
