/*
 * The streaming JSON parser (lib/codec/json.c, yajl underneath): events in order, strict on
 * what it hands out, the same events however the input is split, and
 * declined values (OWNERS_JSON_SKIP) passed over without events, strings
 * with brackets and escaped quotes included.
 */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "tap.h"

struct rec {
	struct owners_buf out;
	int skip_arrays; /* decline every array */
};

static void addf(struct rec *r, const char *tag, const char *s, size_t n)
{
	owners_buf_adds(&r->out, tag);
	if (s) {
		owners_buf_addc(&r->out, ':');
		owners_buf_add(&r->out, s, n);
	}
	owners_buf_addc(&r->out, ' ');
}

static int r_null(void *c) { addf(c, "null", NULL, 0); return 0; }
static int r_bool(void *c, int v) { addf(c, v ? "true" : "false", NULL, 0); return 0; }
static int r_number(void *c, const char *s, size_t n) { addf(c, "n", s, n); return 0; }
static int r_string(void *c, const char *s, size_t n) { addf(c, "s", s, n); return 0; }
static int r_key(void *c, const char *s, size_t n) { addf(c, "k", s, n); return 0; }
static int r_start_map(void *c) { addf(c, "{", NULL, 0); return 0; }
static int r_end_map(void *c) { addf(c, "}", NULL, 0); return 0; }
static int r_end_array(void *c) { addf(c, "]", NULL, 0); return 0; }
static int r_start_array(void *c)
{
	struct rec *r = c;

	addf(c, r->skip_arrays ? "[skipped]" : "[", NULL, 0);
	return r->skip_arrays ? OWNERS_JSON_SKIP : 0;
}

static const struct owners_json_callbacks cbs = {
	r_null, r_bool, r_number, r_string, r_start_map, r_key, r_end_map, r_start_array, r_end_array,
};

/* Parses doc fed in pieces of at most step bytes (0: split once at cut);
 * returns the events, or "error" plus the message. */
static int run(struct owners_buf *got, const char *doc, size_t len, size_t step, size_t cut,
	       int skip_arrays)
{
	struct rec r;
	struct owners_json_parser *p;
	struct owners_error err = OWNERS_ERROR_INIT;
	size_t i = 0;
	int rc = 0;

	memset(&r, 0, sizeof(r));
	owners_buf_init(&r.out);
	r.skip_arrays = skip_arrays;
	owners_json_parser_new(&p, &cbs, &r);
	if (step) {
		for (i = 0; !rc && i < len; i += step)
			rc = owners_json_parser_feed(p, doc + i, len - i < step ? len - i : step, &err);
	} else {
		rc = owners_json_parser_feed(p, doc, cut, &err);
		if (!rc)
			rc = owners_json_parser_feed(p, doc + cut, len - cut, &err);
	}
	if (!rc)
		rc = owners_json_parser_finish(p, &err);
	owners_buf_reset(got);
	if (rc)
		owners_buf_addf(got, "error %s", owners_error_message(&err));
	else
		owners_buf_add(got, r.out.ptr, r.out.len);
	owners_error_clear(&err);
	owners_json_parser_free(p);
	owners_buf_clear(&r.out);
	return rc;
}

static const struct {
	const char *doc;
	int skip;
	const char *want;
} good[] = {
	{ "{\"a\":1,\"b\":[true,false,null],\"c\":{}}", 0,
	  "{ k:a n:1 k:b [ true false null ] k:c { } } " },
	{ " [ -0.5e+10 , 0 , 12345678901234567890 ] ", 0, "[ n:-0.5e+10 n:0 n:12345678901234567890 ] " },
	{ "\"esc \\\" \\\\ \\/ \\n \\u00e9 \\ud83d\\ude00\"", 0, "s:esc \" \\ / \n \xc3\xa9 \xf0\x9f\x98\x80 " },
	{ "\"caf\xc3\xa9\"", 0, "s:caf\xc3\xa9 " },
	{ "42", 0, "n:42 " },
	{ "{\"m\":[{\"x\":\"]}\\\"[{\"},[[1,2],{\"y\":\"\\\\\"}]],\"after\":true}", 1,
	  "{ k:m [skipped] k:after true } " },
	{ "[[\"a\",[\"b]\"]],\"c\"]", 1, "[skipped] " },
	{ "{\"k\":[]}", 1, "{ k:k [skipped] } " },
};

static const char *const bad[] = {
	"", "{", "{\"a\"}", "{\"a\":}", "[1,]", "{\"a\":1,}", "[01]", "[1.]", "[-]", "[tru]", "[nul]",
	"\"\\x\"", "\"a\tb\"", "\"\xff\"", "{} {}", "[] x", "{'a':1}",
	"[1 2]", "{\"a\" 1}", "]", "[}", "{]",
};

/* The generator: kubectl's -o json layout, JSON's escapes, the first
 * error kept. */
static void test_generator(void)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	struct owners_json_gen *g;
	struct owners_json_value *v = NULL;
	int pretty, rc;

	for (pretty = 0; pretty < 2; pretty++) {
		owners_buf_reset(&b);
		owners_json_gen_new(&g, &b, pretty);
		owners_json_gen_typed_open(g, "List", "v1");
		owners_json_gen_string(g, "items");
		owners_json_gen_array_open(g);
		owners_json_gen_map_open(g);
		owners_json_gen_kv_int(g, "n", -5);
		owners_json_gen_kv_bool(g, "b", 1);
		owners_json_gen_string(g, "z");
		owners_json_gen_null(g);
		owners_json_gen_map_close(g);
		owners_json_gen_array_open(g);
		owners_json_gen_array_close(g);
		owners_json_gen_map_open(g);
		owners_json_gen_map_close(g);
		owners_json_gen_array_close(g);
		owners_json_gen_kv(g, "s", "q\"b\\s/\n\r\t\b\f\x01\x1f é");
		owners_json_gen_kv(g, "absent", NULL);
		rc = owners_json_gen_map_close(g);
		ok(rc == 0 && owners_json_gen_error(g) == 0, "%s: no error", pretty ? "pretty" : "compact");
		owners_json_gen_free(g);
		if (!pretty)
			is_str(b.ptr,
			       "{\"kind\":\"List\",\"apiVersion\":\"v1\",\"items\":[{\"n\":-5,\"b\":true,\"z\":null},[],{}],"
			       "\"s\":\"q\\\"b\\\\s/\\n\\r\\t\\b\\f\\u0001\\u001F é\"}",
			       "compact: one line, JSON's short escapes, \\u00XX (yajl's capitals) for other control characters");
		else
			is_str(b.ptr,
			       "{\n    \"kind\": \"List\",\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {\n"
			       "            \"n\": -5,\n            \"b\": true,\n            \"z\": null\n        },\n"
			       "        [],\n        {}\n"
			       "    ],\n    \"s\": \"q\\\"b\\\\s/\\n\\r\\t\\b\\f\\u0001\\u001F é\"\n}\n",
			       "pretty: kubectl's four-space indent, \"key\": value, empty containers on one line, a final newline");
		ok(owners_json_parse(&v, b.ptr, b.len, NULL) == 0 &&
			   !strcmp(owners_json_string(owners_json_get(v, "s")), "q\"b\\s/\n\r\t\b\f\x01\x1f é"),
		   "%s: our parser reads the string back as it was", pretty ? "pretty" : "compact");
		owners_json_value_free(v);
		v = NULL;
	}

	/* Misuse: the first error stays, whatever comes after. */
	owners_buf_reset(&b);
	owners_json_gen_new(&g, &b, 0);
	owners_json_gen_map_open(g);
	is_int(owners_json_gen_int(g, 1), OWNERS_EINVAL, "a key that is not a string: EINVAL");
	is_int(owners_json_gen_string(g, "k"), OWNERS_EINVAL, "  and every call after returns it");
	is_int(owners_json_gen_error(g), OWNERS_EINVAL, "  owners_json_gen_error() too");
	owners_json_gen_free(g);

	owners_json_gen_new(&g, &b, 0);
	owners_json_gen_array_open(g);
	is_int(owners_json_gen_map_close(g), OWNERS_EINVAL, "closing a map that is not open: EINVAL");
	owners_json_gen_free(g);

	owners_json_gen_new(&g, &b, 0);
	owners_json_gen_map_open(g);
	owners_json_gen_string(g, "k");
	is_int(owners_json_gen_map_close(g), OWNERS_EINVAL, "a key without its value: EINVAL");
	owners_json_gen_free(g);

	owners_json_gen_new(&g, &b, 0);
	owners_json_gen_null(g);
	is_int(owners_json_gen_null(g), OWNERS_EINVAL, "a second document: EINVAL");
	owners_json_gen_free(g);

	owners_json_gen_new(&g, &b, 0);
	for (rc = 0; rc < 127; rc++)
		owners_json_gen_array_open(g);
	is_int(owners_json_gen_error(g), 0, "127 levels deep: fine");
	is_int(owners_json_gen_array_open(g), OWNERS_EINVAL, "128 (yajl's limit): EINVAL");
	owners_json_gen_free(g);
	owners_buf_clear(&b);
}

/* The tree, whatever the chunks: the same text written back at every step. */
static void test_tree_steps(void)
{
	static const char doc[] = "{\"kind\":\"APIGroupDiscoveryList\",\"items\":[{\"n\":-1.5e3,"
				  "\"s\":\"\\u00e9\\n\",\"b\":[true,false,null],\"e\":{}}]}";
	struct owners_json_value *v = NULL;
	struct owners_buf whole = OWNERS_BUF_INIT, got = OWNERS_BUF_INIT;
	struct owners_json_gen *g;
	size_t step, len = strlen(doc);
	int all_same = 1;

	ok(owners_json_parse(&v, doc, len, NULL) == 0, "tree: parses whole");
	owners_json_gen_new(&g, &whole, 0);
	owners_json_gen_value(g, v);
	owners_json_gen_free(g);
	owners_json_value_free(v);
	for (step = 1; step <= len; step++) {
		v = NULL;
		owners_buf_reset(&got);
		if (owners_json_parse_steps(&v, doc, len, step, NULL)) {
			all_same = 0;
			printf("#   step %zu: failed\n", step);
			continue;
		}
		owners_json_gen_new(&g, &got, 0);
		owners_json_gen_value(g, v);
		owners_json_gen_free(g);
		owners_json_value_free(v);
		if (got.len != whole.len || memcmp(got.ptr, whole.ptr, got.len)) {
			all_same = 0;
			printf("#   step %zu: %.*s\n", step, (int)got.len, got.ptr);
		}
	}
	ok(all_same, "tree: the same document fed 1 to %zu bytes at a time", len);
	v = NULL;
	is_int(owners_json_parse_steps(&v, doc, len - 1, 1, NULL), OWNERS_EPROTO,
	       "tree: a document cut short fails byte by byte too");
	ok(v == NULL, "  and hands back no tree");
	owners_buf_clear(&whole);
	owners_buf_clear(&got);
}

int main(void)
{
	struct owners_buf got = OWNERS_BUF_INIT, once = OWNERS_BUF_INIT;
	size_t i, k;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		size_t len = strlen(good[i].doc);
		int all_same = 1;

		run(&once, good[i].doc, len, len ? len : 1, 0, good[i].skip);
		is_str(once.ptr, good[i].want, "document %zu: its events", i);
		for (k = 0; k <= len; k++) {
			run(&got, good[i].doc, len, 0, k, good[i].skip);
			if (strcmp(got.ptr, once.ptr)) {
				all_same = 0;
				printf("#   split at %zu: %s\n", k, got.ptr);
			}
		}
		ok(all_same, "document %zu: the same events when split at each of its %zu boundaries", i, len + 1);
		run(&got, good[i].doc, len, 1, 0, good[i].skip);
		is_str(got.ptr, once.ptr, "document %zu: the same events fed byte by byte", i);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t len = strlen(bad[i]);

		ok(run(&got, bad[i], len, len ? len : 1, 0, 0) == OWNERS_EPROTO &&
			   !strncmp(got.ptr, "error invalid JSON", 18),
		   "bad document %zu is invalid JSON (%s)", i, got.ptr);
		ok(run(&got, bad[i], len, 1, 0, 0) == OWNERS_EPROTO, "bad document %zu, byte by byte, too", i);
	}
	/* yajl checks UTF-8's structure, not overlong forms or encoded UTF-16
	 * surrogates (Go's encoder, the apiserver's, never writes either):
	 * they read as strings, byte for byte. */
	ok(run(&got, "\"\xc0\xaf\"", 4, 4, 0, 0) == 0 && run(&got, "\"\xed\xa0\x80\"", 5, 5, 0, 0) == 0,
	   "an overlong form and an encoded surrogate are passed on as they are (yajl)");
	owners_buf_clear(&got);
	owners_buf_clear(&once);
	test_generator();
	test_tree_steps();
	return tap_done();
}
