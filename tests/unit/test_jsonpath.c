/* kubectl's -o jsonpath and -o custom-columns, as kubectl get users write
 * them, over a small document. */
#include <stdlib.h>
#include <string.h>

#include "jsonpath.h"
#include "tap.h"

static const char doc_text[] =
	"{\"kind\":\"OwnersTree\",\"items\":["
	"{\"kind\":\"Deployment\",\"name\":\"web\",\"uid\":\"u1\",\"replicas\":3,\"labels\":{\"app\":\"web\"},"
	"\"dependents\":[{\"kind\":\"ReplicaSet\",\"name\":\"web-1\",\"replicas\":3,"
	"\"dependents\":[{\"kind\":\"Pod\",\"name\":\"web-1-a\"},{\"kind\":\"Pod\",\"name\":\"web-1-b\"}]}]},"
	"{\"kind\":\"ConfigMap\",\"name\":\"cfg\",\"uid\":\"u2\",\"dependents\":[]}]}";

static const char nested_text[] =
	"{\"items\":[{\"metadata\":{\"name\":\"web\"},\"owners\":{\"depth\":0,\"dependents\":["
	"{\"metadata\":{\"name\":\"web-1\"},\"owners\":{\"depth\":1,\"dependents\":[]}}]}}]}";

static struct owners_json_value *doc, *nested_doc;
static struct owners_buf out_jp; /* what jp() returns points into it */
static int allow_missing;        /* --allow-missing-template-keys; 0 unless a check sets it */

static const char *jp(const char *t)
{
	struct owners_buf *out = &out_jp;
	struct owners_error err = OWNERS_ERROR_INIT;

	owners_buf_clear(out);
	if (owners_jsonpath_print(out, t, doc, allow_missing, &err)) {
		static char msg[256];

		snprintf(msg, sizeof(msg), "ERROR %s", owners_error_message(&err));
		owners_error_clear(&err);
		return msg;
	}
	return out->ptr ? out->ptr : "";
}

int main(void)
{
	struct owners_buf out = OWNERS_BUF_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;

	ok(owners_json_parse(&doc, doc_text, strlen(doc_text), NULL) == 0, "the document parses");
	ok(owners_json_parse(&nested_doc, nested_text, strlen(nested_text), NULL) == 0, "the nested one too");
	is_str(jp("{.kind}"), "OwnersTree", "a field");
	is_str(jp("{.items[*].name}"), "web cfg", "every item's field, joined by spaces");
	is_str(jp("{.items[0].name}"), "web", "an index");
	is_str(jp("{.items[-1].name}"), "cfg", "a negative index");
	is_str(jp("{.items[0:1].kind}"), "Deployment", "a slice");
	is_str(jp("{.items[99999999999999999999999].kind}{.items[-99999999999999999999:1].kind}"), "Deployment",
	       "indexes past either end (beyond a long) are the ends, never an overflow");
	is_str(jp("{['kind']}"), "OwnersTree", "a name in brackets");
	is_str(jp("{..name}"), "web web-1 web-1-a web-1-b cfg", "recursive descent, in document order");
	is_str(jp("{.items[?(@.kind==\"ConfigMap\")].uid}"), "u2", "a filter on a string");
	is_str(jp("{.items[?(@.replicas>=3)].name}"), "web", "a filter on a number");
	is_str(jp("{.items[?(@.labels)].name}"), "web", "a filter on presence");
	is_str(jp("{.items[0].labels}"), "{\"app\":\"web\"}", "an object prints as compact JSON");
	is_str(jp("{range .items[*]}{.name}{\"\\t\"}{.kind}{\"\\n\"}{end}"), "web\tDeployment\ncfg\tConfigMap\n",
	       "range ... end, literals with escapes, @ the current item");
	is_str(jp("{range .items[*]}[{range .dependents[*]}{.name};{end}]{end}"), "[web-1;][]", "nested ranges");
	is_str(jp("names: {.items[*].name}!"), "names: web cfg!", "text around actions");
	is_str(jp("{.nothing.here}"), "ERROR error executing jsonpath '{.nothing.here}': nothing is not found",
	       "a key that is not there is an error, as kubectl's -o jsonpath");
	is_str(jp("{.items[*].nope}"), "ERROR error executing jsonpath '{.items[*].nope}': nope is not found",
	       "a name no item has is an error naming it");
	is_str(jp("{.items[*].replicas}"), "3", "a name some items have: theirs, no error (as kubectl)");
	is_str(jp("{.items[?(@.kind==\"Secret\")].name}"), "", "a name looked up in no values: nothing, no error");
	is_str(jp("{range .items[*]}{.nope}{end}"),
	       "ERROR error executing jsonpath '{range .items[*]}{.nope}{end}': nope is not found",
	       "a name an item in a range lacks is an error");
	is_str(jp("{.items[?(@.nope)].name}"), "", "a filter on a name no item has is no error");
	/* kubectl's default, --allow-missing-template-keys=true (#43) */
	allow_missing = 1;
	is_str(jp("{.nothing.here}"), "", "missing keys allowed: a key not there prints nothing");
	is_str(jp("{range .items[*]}{.name}={.replicas};{end}"), "web=3;cfg=;",
	       "  a key one item lacks prints nothing for it, the others print");
	is_str(jp("{.items[*].nope}"), "", "  a name no item has: nothing, no error");
	allow_missing = 0;
	{
		struct owners_error e = OWNERS_ERROR_INIT;
		struct owners_buf o = OWNERS_BUF_INIT;

		is_int(owners_jsonpath_print(&o, "{.items[*].nope}", doc, 0, &e), OWNERS_ENOTFOUND,
		       "not found is OWNERS_ENOTFOUND (exit 1), not a usage error");
		owners_error_clear(&e);
		is_int(owners_jsonpath_print(&o, "", doc, 1, &e), OWNERS_EINVAL, "an empty template is a usage error");
		owners_error_clear(&e);
		owners_buf_clear(&o);
	}
	is_str(jp("{range .items[*]}{$.kind} {end}"), "OwnersTree OwnersTree ", "$ is the root inside a range");
	ok(strstr(jp("{.items[0"), "ERROR error parsing jsonpath {.items[0: unclosed") != NULL,
	   "an unclosed action is an error naming the template");
	ok(strstr(jp("{range .items[*]}{.name}"), "range without end") != NULL, "range without end");
	ok(strstr(jp("{end}"), "end without range") != NULL, "end without range");

	is_int(owners_custom_columns_print(&out, "KIND:.kind,NAME:.name,UID:{.uid}", doc, NULL, 0, &err), 0,
	       "custom-columns");
	is_str(out.ptr, "KIND         NAME   UID\nDeployment   web    u1\nConfigMap    cfg    u2\n",
	       "custom-columns: a header, kubectl's spacing, one row per item");
	owners_buf_reset(&out);
	is_int(owners_custom_columns_print(&out, "NAME:.name,R:.replicas", doc, "dependents", 1, &err), 0,
	       "custom-columns over nested dependents");
	is_str(out.ptr, "web       3\nweb-1     3\nweb-1-a   <none>\nweb-1-b   <none>\ncfg       <none>\n",
	       "  depth first, no header, <none> where the path finds nothing");
	owners_buf_reset(&out);
	is_int(owners_custom_columns_print(&out, "", doc, NULL, 0, &err), OWNERS_EINVAL, "an empty spec is an error");
	is_str(owners_error_message(&err), "custom-columns format specified but no custom columns given",
	       "  in kubectl's words");
	ok(out.len == 0, "  and prints nothing (no blank lines)");
	owners_error_clear(&err);
	is_int(owners_custom_columns_print(&out, "NAME:.metadata.name,N:.owners.depth", nested_doc, "owners.dependents",
					   1, &err),
	       0, "custom-columns over a dotted nested path");
	is_str(out.ptr, "web     0\nweb-1   1\n", "  each item and its nested ones under owners.dependents");
	owners_buf_reset(&out);
	is_int(owners_custom_columns_print(&out, "NAME", doc, NULL, 0, &err), OWNERS_EINVAL, "a column without a path");
	ok(strstr(owners_error_message(&err), "HEADER:.path") != NULL, "  says the format");
	owners_error_clear(&err);
	owners_buf_clear(&out);
	owners_json_value_free(doc);
	owners_json_value_free(nested_doc);
	owners_buf_clear(&out_jp);
	return tap_done();
}
