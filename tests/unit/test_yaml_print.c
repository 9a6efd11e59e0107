/* -o yaml: every value survives as YAML would read it. */
#include "json.h"
#include "tap.h"
#include "yaml_print.h"

int main(void)
{
	const char *doc = "{\"a\":\"yes\",\"n\":3,\"b\":true,\"z\":null,\"l\":[{\"k\":\"v\"},[],\"x\\\"y\"],\"e\":{}}";
	struct owners_json_value *v = NULL;
	struct owners_buf out = OWNERS_BUF_INIT;

	ok(owners_json_parse(&v, doc, strlen(doc), NULL) == 0, "parsed");
	ok(owners_yaml_print(&out, v) == 0, "printed");
	is_str(out.ptr,
	       "\"a\": \"yes\"\n\"n\": 3\n\"b\": true\n\"z\": null\n\"l\":\n  -\n    \"k\": \"v\"\n  - []\n"
	       "  - \"x\\\"y\"\n\"e\": {}\n",
	       "block YAML with quoted strings (\"yes\" stays a string)");
	owners_buf_release(&out);
	owners_json_value_free(v);
	return tap_done();
}
