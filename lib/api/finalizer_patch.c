#include "finalizer_patch.h"

#include <string.h>

#include "patch.h"

int owners_finalizer_patch(struct owners_buf *out, const char *resource_version,
			   const char *const *keep, size_t n_keep, struct owners_error *err)
{
	struct owners_json_gen *j;
	size_t i;
	int rc;

	if ((rc = owners_patch_begin(&j, out, resource_version, err)))
		return rc;
	rc = owners_json_gen_string(j, "finalizers");
	if (!rc && !n_keep) {
		rc = owners_json_gen_null(j);
	} else if (!rc) {
		rc = owners_json_gen_array_open(j);
		for (i = 0; !rc && i < n_keep; i++)
			rc = owners_json_gen_string(j, keep[i]);
		if (!rc)
			rc = owners_json_gen_array_close(j);
	}
	rc = owners_patch_end(j) || rc;
	return rc ? owners_error_oom(err) : 0;
}

/* spec, with its finalizers filtered */
static int gen_spec(struct owners_json_gen *j, const struct owners_json_value *spec,
		    const unsigned char *keep)
{
	size_t i, k;
	int rc = owners_json_gen_map_open(j);

	for (i = 0; !rc && i < spec->count; i++) {
		const struct owners_json_value *v = spec->items[i];

		rc = owners_json_gen_string(j, spec->keys[i]);
		if (rc)
			break;
		if (strcmp(spec->keys[i], "finalizers") || v->type != OWNERS_JSON_ARRAY) {
			rc = owners_json_gen_value(j, v);
			continue;
		}
		rc = owners_json_gen_array_open(j);
		for (k = 0; !rc && k < v->count; k++)
			if (keep[k])
				rc = owners_json_gen_value(j, v->items[k]);
		if (!rc)
			rc = owners_json_gen_array_close(j);
	}
	return rc ? rc : owners_json_gen_map_close(j);
}

int owners_namespace_finalize_body(struct owners_buf *out, const struct owners_json_value *object,
				   const unsigned char *keep, struct owners_error *err)
{
	const char *rv = owners_json_string(owners_json_path(object, "metadata", "resourceVersion", NULL));
	struct owners_json_gen *j;
	size_t i;
	int rc;

	if (!object || object->type != OWNERS_JSON_OBJECT)
		return owners_error_set(err, OWNERS_EINVAL, "the namespace is not a JSON object");
	if (!rv || !*rv)
		return owners_error_set(err, OWNERS_EINVAL,
					"refusing to finalize a namespace without a resourceVersion");
	if (owners_json_gen_new(&j, out, 0))
		return owners_error_oom(err);
	rc = owners_json_gen_map_open(j);
	for (i = 0; !rc && i < object->count; i++) {
		const struct owners_json_value *v = object->items[i];

		rc = owners_json_gen_string(j, object->keys[i]);
		if (!rc && !strcmp(object->keys[i], "spec") && v->type == OWNERS_JSON_OBJECT)
			rc = gen_spec(j, v, keep);
		else if (!rc)
			rc = owners_json_gen_value(j, v);
	}
	if (!rc)
		rc = owners_json_gen_map_close(j);
	owners_json_gen_free(j);
	return rc ? owners_error_oom(err) : 0;
}
