/* The conditional writes that take finalizers off: a merge patch carrying
 * the resourceVersion read and the finalizers that stay, and the body of a
 * namespace's finalize PUT (the object as read, spec.finalizers filtered). */
#include <stdlib.h>
#include <string.h>

#include "finalizer_patch.h"
#include "json.h"
#include "tap.h"

static const char ns_doc[] =
	"{\"kind\":\"Namespace\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"old\",\"uid\":\"u-1\","
	"\"resourceVersion\":\"812\",\"deletionTimestamp\":\"2026-01-01T00:00:00Z\","
	"\"labels\":{\"kubernetes.io/metadata.name\":\"old\"},\"finalizers\":[\"example.com/ns\"]},"
	"\"spec\":{\"finalizers\":[\"kubernetes\",\"example.com/other\"],\"future\":{\"n\":1}},"
	"\"status\":{\"phase\":\"Terminating\",\"conditions\":[{\"type\":\"X\",\"status\":\"True\"}]}}";

int main(void)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_buf out = OWNERS_BUF_INIT;
	struct owners_json_value *doc = NULL, *body = NULL;
	const char *keep2[] = { "example.com/b", "example.com/c" };

	ok(owners_finalizer_patch(&out, "4711", keep2, 2, &err) == 0, "keep two");
	is_str(out.ptr,
	       "{\"metadata\":{\"resourceVersion\":\"4711\",\"finalizers\":[\"example.com/b\",\"example.com/c\"]}}",
	       "a merge patch: the resourceVersion read, and the finalizers that stay, in order");
	owners_buf_reset(&out);
	ok(owners_finalizer_patch(&out, "4711", NULL, 0, &err) == 0, "keep none");
	is_str(out.ptr, "{\"metadata\":{\"resourceVersion\":\"4711\",\"finalizers\":null}}",
	       "none stays: finalizers null removes the field, still conditional");
	owners_buf_reset(&out);
	ok(owners_finalizer_patch(&out, "", keep2, 2, &err) == OWNERS_EINVAL,
	   "no resourceVersion: refused (never an unconditional patch)");
	is_int(out.len, 0, "  nothing written");
	owners_error_clear(&err);
	ok(owners_finalizer_patch(&out, NULL, keep2, 2, &err) == OWNERS_EINVAL, "NULL resourceVersion: refused");
	owners_error_clear(&err);
	{
		const char *odd[] = { "a\"b\\c" };

		owners_buf_reset(&out);
		ok(owners_finalizer_patch(&out, "1", odd, 1, &err) == 0 &&
		   owners_json_parse(&body, out.ptr, out.len, &err) == 0,
		   "a name with quotes and backslashes stays valid JSON");
		is_str(owners_json_string(owners_json_path(body, "metadata", "finalizers", NULL)->items[0]),
		       "a\"b\\c", "  and round-trips");
		owners_json_value_free(body);
		body = NULL;
	}

	ok(owners_json_parse(&doc, ns_doc, sizeof(ns_doc) - 1, &err) == 0, "namespace parses");
	{
		unsigned char keep[] = { 0, 1 };
		const struct owners_json_value *fins;

		owners_buf_reset(&out);
		ok(owners_namespace_finalize_body(&out, doc, keep, &err) == 0, "finalize body built");
		ok(owners_json_parse(&body, out.ptr, out.len, &err) == 0, "  valid JSON");
		fins = owners_json_path(body, "spec", "finalizers", NULL);
		ok(fins && fins->count == 1 &&
		   !strcmp(owners_json_string(fins->items[0]), "example.com/other"),
		   "  spec.finalizers without 'kubernetes', the other entry kept");
		is_str(owners_json_string(owners_json_path(body, "metadata", "resourceVersion", NULL)), "812",
		       "  the resourceVersion read: a concurrent change gives 409");
		is_str(owners_json_string(owners_json_path(body, "metadata", "uid", NULL)), "u-1", "  the uid");
		ok(owners_json_path(body, "metadata", "finalizers", NULL) &&
		   owners_json_path(body, "metadata", "finalizers", NULL)->count == 1,
		   "  metadata.finalizers untouched");
		is_int(owners_json_int(owners_json_path(body, "spec", "future", "n", NULL), 0), 1,
		       "  unknown spec fields re-emitted");
		is_str(owners_json_string(owners_json_path(body, "status", "phase", NULL)), "Terminating",
		       "  status re-emitted");
		ok(strstr(out.ptr, "\"kind\":\"Namespace\",\"apiVersion\":\"v1\",\"metadata\"") == out.ptr + 1,
		   "  field order kept");
		owners_json_value_free(body);
		body = NULL;
	}
	{
		unsigned char keep[] = { 0, 0 };

		owners_buf_reset(&out);
		ok(owners_namespace_finalize_body(&out, doc, keep, &err) == 0, "drop every spec finalizer");
		ok(strstr(out.ptr, "\"spec\":{\"finalizers\":[],\"future\"") != NULL,
		   "  an empty list (the finalize subresource reads spec.finalizers as given)");
	}
	owners_json_value_free(doc);
	doc = NULL;
	{
		static const char no_rv[] = "{\"metadata\":{\"name\":\"x\"},\"spec\":{\"finalizers\":[\"kubernetes\"]}}";
		unsigned char keep[] = { 0 };

		ok(owners_json_parse(&doc, no_rv, sizeof(no_rv) - 1, &err) == 0, "a namespace without resourceVersion");
		owners_buf_reset(&out);
		ok(owners_namespace_finalize_body(&out, doc, keep, &err) == OWNERS_EINVAL,
		   "  refused: never an unconditional finalize");
		owners_error_clear(&err);
		owners_json_value_free(doc);
	}
	owners_buf_clear(&out);
	owners_error_clear(&err);
	return tap_done();
}
