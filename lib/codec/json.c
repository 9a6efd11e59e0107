#include "json.h"
#include "yajl_alloc.h"

#include <yajl/yajl_parse.h>
#include <yajl/yajl_version.h>

#include <stdio.h>
#include <stdlib.h>

/*
 * yajl's push parser, fed each chunk as it arrives (strict JSON: UTF-8
 * validated, no comments, one document, nothing after it). Its callbacks
 * are turned into ours; a value a callback declines (OWNERS_JSON_SKIP) is
 * still tokenized by yajl, but nothing of it reaches a callback: only its
 * depth is followed, to know where it ends.
 */
struct owners_json_parser {
	const struct owners_json_callbacks *cb;
	void *ctx;
	yajl_handle y;
	size_t skip;   /* > 0: inside a declined value, this many containers deep */
	int stopped;   /* a callback said stop */
	int failed;    /* sticky: OWNERS_EPROTO */
	size_t offset; /* bytes fed before the current chunk */
};

/* yajl wants 1 to go on, 0 to cancel. */
static int go_on(struct owners_json_parser *p, int rc)
{
	if (rc)
		p->stopped = 1;
	return !rc;
}

static int y_null(void *ctx)
{
	struct owners_json_parser *p = ctx;

	return p->skip || !p->cb->on_null || go_on(p, p->cb->on_null(p->ctx));
}

static int y_boolean(void *ctx, int value)
{
	struct owners_json_parser *p = ctx;

	return p->skip || !p->cb->on_bool || go_on(p, p->cb->on_bool(p->ctx, value));
}

/* Numbers stay text (on_number), so 64-bit values are never rounded. */
static int y_number(void *ctx, const char *s, size_t len)
{
	struct owners_json_parser *p = ctx;

	return p->skip || !p->cb->on_number || go_on(p, p->cb->on_number(p->ctx, s, len));
}

static int y_string(void *ctx, const unsigned char *s, size_t len)
{
	struct owners_json_parser *p = ctx;

	return p->skip || !p->cb->on_string || go_on(p, p->cb->on_string(p->ctx, (const char *)s, len));
}

static int y_key(void *ctx, const unsigned char *s, size_t len)
{
	struct owners_json_parser *p = ctx;

	return p->skip || !p->cb->on_key || go_on(p, p->cb->on_key(p->ctx, (const char *)s, len));
}

static int y_open(struct owners_json_parser *p, int (*fn)(void *))
{
	int rc;

	if (p->skip) {
		p->skip++;
		return 1;
	}
	rc = fn ? fn(p->ctx) : 0;
	if (rc == OWNERS_JSON_SKIP) {
		p->skip = 1;
		return 1;
	}
	return go_on(p, rc);
}

static int y_close(struct owners_json_parser *p, int (*fn)(void *))
{
	if (p->skip) {
		p->skip--; /* the declined value's own end is not told either */
		return 1;
	}
	return !fn || go_on(p, fn(p->ctx));
}

static int y_start_map(void *ctx)
{
	struct owners_json_parser *p = ctx;

	return y_open(p, p->cb->on_start_map);
}

static int y_end_map(void *ctx)
{
	struct owners_json_parser *p = ctx;

	return y_close(p, p->cb->on_end_map);
}

static int y_start_array(void *ctx)
{
	struct owners_json_parser *p = ctx;

	return y_open(p, p->cb->on_start_array);
}

static int y_end_array(void *ctx)
{
	struct owners_json_parser *p = ctx;

	return y_close(p, p->cb->on_end_array);
}

static const yajl_callbacks y_callbacks = {
	y_null, y_boolean, NULL, NULL, y_number, y_string,
	y_start_map, y_key, y_end_map, y_start_array, y_end_array,
};

int owners_json_parser_new(struct owners_json_parser **out, const struct owners_json_callbacks *cb,
			   void *ctx)
{
	struct owners_json_parser *p = calloc(1, sizeof(*p));

	*out = NULL;
	if (!p)
		return OWNERS_ENOMEM;
	p->cb = cb;
	p->ctx = ctx;
	/* Never NULL: a failed allocation of yajl's ends the program
	 * (yajl_alloc.c). */
	p->y = yajl_alloc(&y_callbacks, &owners_yajl_alloc_funcs, p);
	*out = p;
	return 0;
}

void owners_json_parser_free(struct owners_json_parser *p)
{
	if (!p)
		return;
	yajl_free(p->y);
	free(p);
}

/* What yajl said, as one line: "invalid JSON: <its words> at byte N". */
static int y_failed(struct owners_json_parser *p, yajl_status st, const char *data, size_t len,
		    struct owners_error *err)
{
	unsigned char *words;
	size_t at = p->offset + yajl_get_bytes_consumed(p->y);

	p->failed = OWNERS_EPROTO;
	if (st == yajl_status_client_canceled || p->stopped)
		return owners_error_set(err, OWNERS_EPROTO, "unexpected JSON structure");
	words = yajl_get_error(p->y, 0, (const unsigned char *)data, len);
	owners_error_set(err, OWNERS_EPROTO, "invalid JSON: %s at byte %zu",
			 words ? (const char *)words : "parse error", at);
	if (words)
		yajl_free_error(p->y, words);
	return OWNERS_EPROTO;
}

int owners_json_parser_feed(struct owners_json_parser *p, const char *data, size_t len,
			    struct owners_error *err)
{
	yajl_status st;

	if (p->failed)
		return owners_error_set(err, p->failed, "invalid JSON: the parse failed already");
	st = yajl_parse(p->y, (const unsigned char *)data, len);
	if (st != yajl_status_ok)
		return y_failed(p, st, data, len, err);
	p->offset += len;
	return 0;
}

int owners_json_parser_finish(struct owners_json_parser *p, struct owners_error *err)
{
	yajl_status st;

	if (p->failed)
		return owners_error_set(err, p->failed, "invalid JSON: the parse failed already");
	st = yajl_complete_parse(p->y);
	if (st != yajl_status_ok)
		return y_failed(p, st, NULL, 0, err);
	return 0;
}

const char *owners_json_library_version(void)
{
	static char text[32];
	int v = yajl_version();

	snprintf(text, sizeof(text), "%d.%d.%d", v / 10000, v / 100 % 100, v % 100);
	return text;
}
