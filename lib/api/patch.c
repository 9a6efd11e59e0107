#include "patch.h"

#include <string.h>

int owners_patch_begin(struct owners_json_gen **gen, struct owners_buf *out,
		       const char *resource_version, struct owners_error *err)
{
	struct owners_json_gen *j;
	int rc;

	*gen = NULL;
	if (!resource_version || !*resource_version)
		return owners_error_set(err, OWNERS_EINVAL,
					"refusing to build a patch without a resourceVersion");
	if (owners_json_gen_new(&j, out, 0))
		return owners_error_oom(err);
	rc = owners_json_gen_map_open(j);
	if (!rc)
		rc = owners_json_gen_string(j, "metadata");
	if (!rc)
		rc = owners_json_gen_map_open(j);
	/* The resourceVersion is what makes the patch conditional: the server
	 * answers 409 if the object changed since it was read. */
	if (!rc)
		rc = owners_json_gen_kv(j, "resourceVersion", resource_version);
	if (rc) {
		owners_json_gen_free(j);
		return owners_error_oom(err);
	}
	*gen = j;
	return 0;
}

int owners_patch_end(struct owners_json_gen *gen)
{
	int rc;

	owners_json_gen_map_close(gen);
	owners_json_gen_map_close(gen);
	rc = owners_json_gen_error(gen);
	owners_json_gen_free(gen);
	return rc;
}

/* One reference as read, its apiVersion replaced. */
static int gen_ref_with_api_version(struct owners_json_gen *j, const struct owners_json_value *ref,
				    const char *api_version)
{
	size_t i;
	int rc;

	if (ref->type != OWNERS_JSON_OBJECT)
		return owners_json_gen_value(j, ref);
	rc = owners_json_gen_map_open(j);
	for (i = 0; !rc && i < ref->count; i++) {
		rc = owners_json_gen_string(j, ref->keys[i]);
		if (!rc)
			rc = strcmp(ref->keys[i], "apiVersion") ? owners_json_gen_value(j, ref->items[i])
								 : owners_json_gen_string(j, api_version);
	}
	return rc ? rc : owners_json_gen_map_close(j);
}

int owners_patch_owner_refs(struct owners_buf *out, const char *resource_version,
			    const struct owners_json_value *refs, const unsigned char *keep,
			    const char *const *api_versions, struct owners_error *err)
{
	struct owners_json_gen *j = NULL;
	size_t i, kept = 0;
	int rc;

	if (refs && refs->type != OWNERS_JSON_ARRAY)
		return owners_error_set(err, OWNERS_EINVAL, "ownerReferences is not a list");
	if ((rc = owners_patch_begin(&j, out, resource_version, err)))
		return rc;
	rc = owners_json_gen_string(j, "ownerReferences");
	for (i = 0; refs && i < refs->count; i++)
		kept += keep[i] != 0;
	if (!rc && !kept) {
		rc = owners_json_gen_null(j);
	} else if (!rc) {
		rc = owners_json_gen_array_open(j);
		for (i = 0; !rc && i < refs->count; i++)
			if (keep[i])
				rc = api_versions && api_versions[i]
					     ? gen_ref_with_api_version(j, refs->items[i], api_versions[i])
					     : owners_json_gen_value(j, refs->items[i]);
		if (!rc)
			rc = owners_json_gen_array_close(j);
	}
	rc = owners_patch_end(j) || rc;
	return rc ? owners_error_oom(err) : 0;
}
