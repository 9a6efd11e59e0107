/* libFuzzer target: the JSON push parser (yajl) and the tree built on it.
 * The first byte says how the document is cut into chunks and whether
 * objects are declined (OWNERS_JSON_SKIP); the rest is the document. Its
 * events, fed whole and in those chunks, must be the same; a document
 * that parses into a tree is written again by the generator and parsed
 * again to the same text. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

struct events {
	struct owners_buf b;
	int skip_maps;
	int depth;
};

static int add(struct events *e, char tag, const char *s, size_t len)
{
	return owners_buf_addc(&e->b, tag) || owners_buf_add(&e->b, s, len) || owners_buf_addc(&e->b, 0);
}

static int e_null(void *ctx) { return add(ctx, 'n', "", 0); }
static int e_bool(void *ctx, int v) { return add(ctx, v ? 't' : 'f', "", 0); }
static int e_number(void *ctx, const char *s, size_t len) { return add(ctx, '#', s, len); }
static int e_string(void *ctx, const char *s, size_t len) { return add(ctx, '"', s, len); }
static int e_key(void *ctx, const char *s, size_t len) { return add(ctx, ':', s, len); }
static int e_end_map(void *ctx) { return add(ctx, '}', "", 0); }
static int e_start_array(void *ctx) { return add(ctx, '[', "", 0); }
static int e_end_array(void *ctx) { return add(ctx, ']', "", 0); }

static int e_start_map(void *ctx)
{
	struct events *e = ctx;

	/* Below the top, every object declined when asked: none of it is told. */
	if (e->skip_maps && e->depth++)
		return add(ctx, 's', "", 0) ? 1 : OWNERS_JSON_SKIP;
	return add(ctx, '{', "", 0);
}

static const struct owners_json_callbacks cbs = {
	e_null, e_bool, e_number, e_string, e_start_map, e_key, e_end_map, e_start_array, e_end_array,
};

static int events(const char *doc, size_t len, size_t step, int skip_maps, struct owners_buf *out)
{
	struct events e = { OWNERS_BUF_INIT, skip_maps, 0 };
	struct owners_json_parser *p;
	size_t at;
	int rc = 0;

	if (owners_json_parser_new(&p, &cbs, &e))
		return -1;
	if (!step)
		step = len ? len : 1;
	for (at = 0; !rc && at < len; at += step)
		rc = owners_json_parser_feed(p, doc + at, at + step <= len ? step : len - at, NULL);
	if (!rc)
		rc = owners_json_parser_finish(p, NULL);
	owners_json_parser_free(p);
	*out = e.b;
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct owners_buf whole, chunked, text = OWNERS_BUF_INIT, again = OWNERS_BUF_INIT;
	struct owners_json_value *v = NULL, *w = NULL;
	const char *doc = (const char *)data + 1;
	int rc_whole, rc_chunked, skip;

	if (!size)
		return 0;
	skip = data[0] & 0x80;
	rc_whole = events(doc, size - 1, 0, skip, &whole);
	rc_chunked = events(doc, size - 1, (size_t)(data[0] & 0x3f) + 1, skip, &chunked);
	if (!rc_whole != !rc_chunked ||
	    (!rc_whole && (whole.len != chunked.len || memcmp(whole.ptr, chunked.ptr, whole.len))))
		abort(); /* whole and chunked disagree */
	owners_buf_clear(&whole);
	owners_buf_clear(&chunked);
	if (!owners_json_parse(&v, doc, size - 1, NULL)) {
		struct owners_json_gen *g;

		if (!owners_json_gen_new(&g, &text, data[0] & 0x40) && !owners_json_gen_value(g, v) &&
		    !owners_json_gen_error(g)) {
			struct owners_json_gen *g2;
			int no_g2 = owners_json_gen_new(&g2, &again, data[0] & 0x40);

			/* What the generator wrote parses, and writes the same again. */
			if (owners_json_parse(&w, text.ptr, text.len, NULL))
				abort();
			if (!no_g2 && (owners_json_gen_value(g2, w) || again.len != text.len ||
				       memcmp(again.ptr, text.ptr, text.len)))
				abort();
			owners_json_gen_free(g2);
		}
		owners_json_gen_free(g);
	}
	owners_json_value_free(v);
	owners_json_value_free(w);
	owners_buf_clear(&text);
	owners_buf_clear(&again);
	return 0;
}
