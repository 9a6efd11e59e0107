/* The conditional patch that removes ownerReferences: a JSON merge patch
 * carrying the resourceVersion read, the kept references re-emitted
 * verbatim. */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "patch.h"
#include "tap.h"

static const char *object =
	"{\"metadata\":{\"name\":\"x\",\"resourceVersion\":\"4711\",\"ownerReferences\":["
	"{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"gone\",\"uid\":\"u-1\"},"
	"{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"name\":\"web-1\",\"uid\":\"u-2\","
	"\"controller\":true,\"blockOwnerDeletion\":true,\"futureField\":{\"n\":12,\"l\":[1,null]}},"
	"{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"live\",\"uid\":\"u-3\","
	"\"controller\":false}]}}";

static const struct owners_json_value *refs_of(const struct owners_json_value *doc)
{
	return owners_json_path(doc, "metadata", "ownerReferences", NULL);
}

int main(void)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_json_value *doc = NULL, *patch = NULL;
	struct owners_buf out = OWNERS_BUF_INIT;
	const struct owners_json_value *refs;

	ok(owners_json_parse(&doc, object, strlen(object), &err) == 0, "object parses");
	refs = refs_of(doc);

	{
		unsigned char keep[] = { 0, 1, 1 };

		ok(owners_patch_owner_refs(&out, "4711", refs, keep, NULL, &err) == 0, "drop the first reference");
		is_str(out.ptr,
		       "{\"metadata\":{\"resourceVersion\":\"4711\",\"ownerReferences\":["
		       "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"name\":\"web-1\",\"uid\":\"u-2\","
		       "\"controller\":true,\"blockOwnerDeletion\":true,\"futureField\":{\"n\":12,\"l\":[1,null]}},"
		       "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"live\",\"uid\":\"u-3\","
		       "\"controller\":false}]}}",
		       "kept references verbatim, every field (unknown ones too), in order; resourceVersion set");
		ok(owners_json_parse(&patch, out.ptr, out.len, &err) == 0, "the patch is valid JSON");
		is_int(refs_of(patch)->count, 2, "two references left");
		owners_json_value_free(patch);
		patch = NULL;
	}
	{
		unsigned char keep[] = { 0, 1, 0 };
		const char *const api_versions[] = { NULL, "apps/v2", NULL };

		owners_buf_reset(&out);
		ok(owners_patch_owner_refs(&out, "4711", refs, keep, api_versions, &err) == 0, "repair an apiVersion");
		is_str(out.ptr,
		       "{\"metadata\":{\"resourceVersion\":\"4711\",\"ownerReferences\":["
		       "{\"apiVersion\":\"apps/v2\",\"kind\":\"ReplicaSet\",\"name\":\"web-1\",\"uid\":\"u-2\","
		       "\"controller\":true,\"blockOwnerDeletion\":true,\"futureField\":{\"n\":12,\"l\":[1,null]}}]}}",
		       "a repaired reference: only its apiVersion changes, every other field as read, in place");
	}
	{
		unsigned char keep[] = { 1, 0, 1 };

		owners_buf_reset(&out);
		ok(owners_patch_owner_refs(&out, "4711", refs, keep, NULL, &err) == 0, "drop the middle reference");
		ok(strstr(out.ptr, "u-1") && !strstr(out.ptr, "u-2") && strstr(out.ptr, "u-3"),
		   "the others stay");
		ok(strstr(out.ptr, "u-1") < strstr(out.ptr, "u-3"), "order kept");
	}
	{
		unsigned char keep[] = { 0, 0, 0 };

		owners_buf_reset(&out);
		ok(owners_patch_owner_refs(&out, "4711", refs, keep, NULL, &err) == 0, "drop all");
		is_str(out.ptr, "{\"metadata\":{\"resourceVersion\":\"4711\",\"ownerReferences\":null}}",
		       "nothing kept: ownerReferences null removes the field (merge patch)");
	}
	{
		owners_buf_reset(&out);
		ok(owners_patch_owner_refs(&out, "1", NULL, NULL, NULL, &err) == 0, "no references at all");
		is_str(out.ptr, "{\"metadata\":{\"resourceVersion\":\"1\",\"ownerReferences\":null}}",
		       "  still conditional");
	}
	{
		unsigned char keep[] = { 0, 1, 1 };

		owners_buf_reset(&out);
		ok(owners_patch_owner_refs(&out, "", refs, keep, NULL, &err) == OWNERS_EINVAL,
		   "no resourceVersion: refused (never an unconditional patch)");
		is_int(out.len, 0, "  nothing written");
		owners_error_clear(&err);
		ok(owners_patch_owner_refs(&out, NULL, refs, keep, NULL, &err) == OWNERS_EINVAL, "NULL too");
		owners_error_clear(&err);
		ok(owners_patch_owner_refs(&out, "1", owners_json_get(doc, "metadata"), keep, NULL, &err) ==
			   OWNERS_EINVAL, "ownerReferences that is not a list: refused");
		owners_error_clear(&err);
	}
	{
		/* resourceVersions and names needing escapes survive */
		const char *odd = "{\"ownerReferences\":[{\"name\":\"a\\\"b\\\\c\",\"uid\":\"\\u00e9\"}]}";
		struct owners_json_value *o = NULL;
		unsigned char keep[] = { 1 };

		ok(owners_json_parse(&o, odd, strlen(odd), &err) == 0, "odd strings parse");
		owners_buf_reset(&out);
		ok(owners_patch_owner_refs(&out, "9\"9", owners_json_get(o, "ownerReferences"), keep, NULL, &err) == 0,
		   "patch with odd strings");
		ok(owners_json_parse(&patch, out.ptr, out.len, &err) == 0, "  is valid JSON");
		is_str(owners_json_string(owners_json_path(patch, "metadata", "resourceVersion", NULL)), "9\"9",
		       "  resourceVersion round-trips");
		is_str(owners_json_string(owners_json_get(refs_of(patch)->items[0], "name")), "a\"b\\c",
		       "  name round-trips");
		is_str(owners_json_string(owners_json_get(refs_of(patch)->items[0], "uid")), "\xc3\xa9",
		       "  UTF-8 round-trips");
		owners_json_value_free(patch);
		owners_json_value_free(o);
	}
	owners_json_value_free(doc);
	owners_buf_clear(&out);
	owners_error_clear(&err);
	return tap_done();
}
