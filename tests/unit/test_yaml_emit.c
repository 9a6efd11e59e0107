/* -o yaml: kubectl's look, and every value read back as it was written. */
#include <string.h>

#include "tap.h"
#include "yaml_emit.h"

static void test_document(void)
{
	const char *doc =
		"{\"kind\":\"OwnersTree\",\"a\":\"yes\",\"n\":3,\"b\":true,\"z\":null,"
		"\"l\":[{\"k\":\"v\",\"k2\":\"0\"},[],\"x\\\"y\"],\"e\":{},\"t\":\"2026-01-01\","
		"\"star\":\"*x\",\"multi\":\"a\\nb\",\"ctl\":\"a\\u0001b\",\"name\":\"web-7887448d46\","
		"\"true\":\"key\",\"colon\":\"a: b\"}";
	struct owners_buf out = OWNERS_BUF_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;

	ok(owners_yaml_from_json(&out, doc, strlen(doc), &err) == 0, "converted");
	is_str(out.ptr,
	       "kind: OwnersTree\n"
	       "a: \"yes\"\n"
	       "\"n\": 3\n"
	       "b: true\n"
	       "z: null\n"
	       "l:\n"
	       "- k: v\n"
	       "  k2: \"0\"\n"
	       "- []\n"
	       "- x\"y\n"
	       "e: {}\n"
	       "t: \"2026-01-01\"\n"
	       "star: '*x'\n"
	       "multi: |-\n"
	       "  a\n"
	       "  b\n"
	       "ctl: \"a\\x01b\"\n"
	       "name: web-7887448d46\n"
	       "\"true\": key\n"
	       "colon: 'a: b'\n",
	       "plain where YAML allows it, quoted where a plain scalar would change type or meaning, "
	       "\"- key: value\" sequences, control characters escaped");
	owners_buf_clear(&out);
	owners_buf_reset(&out);
	ok(owners_yaml_from_json(&out, "{\"a\":", 5, &err) != 0 && err.code, "invalid JSON is an error");
	owners_error_clear(&err);
	owners_buf_clear(&out);
	ok(owners_yaml_from_json(&out, "[]", 2, &err) == 0 && !strcmp(out.ptr, "[]\n"), "an empty list");
	owners_buf_clear(&out);
}

static void test_types(void)
{
	static const char *const changes[] = {
		"", "~", "null", "NULL", "true", "False", "yes", "NO", "on", "Off", "y", "N", "=", "<<",
		"0", "-1", "+12", "1_000", "0x1F", "0o17", "0b101", "017", "1.5", ".5", "-.5", "1e3",
		"6.02e+23", "1:30", "190:20:30", ".inf", "-.Inf", ".NaN", "2026-01-01", "2001-12-14t21:59:43.10-05:00",
		NULL,
	};
	static const char *const stays[] = {
		"web", "web-7887448d46", "7887448d46", "1a", "0x", "0xg", "1.2.3", "e3", "1e", "inf", "nan",
		"yess", "Nope", "2026-1", "12:", "v1", "apps/v1", "-", ".", "1-2", NULL,
	};
	size_t i;

	for (i = 0; changes[i]; i++)
		ok(owners_yaml_plain_changes_type(changes[i], strlen(changes[i])),
		   "'%s' written plain would not read back as that string", changes[i]);
	for (i = 0; stays[i]; i++)
		ok(!owners_yaml_plain_changes_type(stays[i], strlen(stays[i])), "'%s' is a plain string",
		   stays[i]);
}

int main(void)
{
	test_document();
	test_types();
	return tap_done();
}
