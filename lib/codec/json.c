#include "json.h"

#include <yajl/yajl_gen.h>
#include <yajl/yajl_parse.h>
#include <yajl/yajl_version.h>

#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <stdio.h>

/* ---- yajl's allocations ---------------------------------------------- */

/* Through the project's allocator (malloc, which the allocation-failure
 * tests replace), so that those tests fail yajl's allocations too. yajl
 * 2.1 does not check most of its own allocations (its handles, lexer,
 * buffers and stacks are written to at once), so a failed one never
 * returns to it: the program ends through owners_oom_fatal() with the
 * same clean out-of-memory message and exit code as anywhere else. */
static void *yajl_malloc_cb(void *ctx, size_t n)
{
	void *p = malloc(n);

	(void)ctx;
	if (!p)
		owners_oom_fatal();
	return p;
}

static void *yajl_realloc_cb(void *ctx, void *p, size_t n)
{
	void *q = realloc(p, n);

	(void)ctx;
	if (!q)
		owners_oom_fatal();
	return q;
}

static void yajl_free_cb(void *ctx, void *p)
{
	(void)ctx;
	free(p);
}

static yajl_alloc_funcs owners_yajl_alloc_funcs = { yajl_malloc_cb, yajl_realloc_cb, yajl_free_cb, NULL };

/* ---- streaming parser ------------------------------------------------ */

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

struct owners_json_parser *owners_json_parser_new(const struct owners_json_callbacks *cb,
						   void *ctx)
{
	struct owners_json_parser *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->cb = cb;
	p->ctx = ctx;
	p->y = yajl_alloc(&y_callbacks, &owners_yajl_alloc_funcs, p);
	return p;
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

/* ---- generator ------------------------------------------------------- */

/* yajl_gen writes through a print callback straight into the caller's
 * buffer: compact, or pretty in kubectl's -o json layout (four-space
 * indent, "key": value, a newline after the document). Around it the
 * wrapper keeps what yajl does not: the first error (every later call
 * returns it, so a caller may check only the last one), the kind of each
 * open container (yajl would close a map with "]"), a map's key/value
 * parity, and kubectl's [] and {} for empty containers (yajl writes them
 * over two lines). */
#define GEN_MAX_DEPTH 128 /* yajl's YAJL_MAX_DEPTH */

struct owners_json_gen {
	yajl_gen y;
	struct owners_buf *out;
	int pretty;
	int err;                     /* the first error, kept */
	int oom;                     /* the print callback could not append */
	int depth;
	char kind[GEN_MAX_DEPTH];    /* '{' or '[' per open container */
	size_t count[GEN_MAX_DEPTH]; /* tokens written in it (a map counts keys and values) */
	size_t bracket[GEN_MAX_DEPTH]; /* where its opening bracket is in out */
};

static void gen_print(void *ctx, const char *s, size_t len)
{
	struct owners_json_gen *g = ctx;

	if (!g->oom && owners_buf_add(g->out, s, len))
		g->oom = 1;
}

struct owners_json_gen *owners_json_gen_new(struct owners_buf *out, int pretty)
{
	struct owners_json_gen *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->y = yajl_gen_alloc(&owners_yajl_alloc_funcs);
	if (!g->y) {
		free(g);
		return NULL;
	}
	g->out = out;
	g->pretty = pretty;
	yajl_gen_config(g->y, yajl_gen_print_callback, gen_print, g);
	if (pretty) {
		yajl_gen_config(g->y, yajl_gen_beautify, 1);
		yajl_gen_config(g->y, yajl_gen_indent_string, "    ");
	}
	return g;
}

void owners_json_gen_free(struct owners_json_gen *g)
{
	if (!g)
		return;
	yajl_gen_free(g->y);
	free(g);
}

int owners_json_gen_error(const struct owners_json_gen *g)
{
	return g->err;
}

static int gen_fail(struct owners_json_gen *g, int rc)
{
	if (!g->err)
		g->err = rc;
	return g->err;
}

/* After a yajl call: its status, or a failed append, becomes the kept
 * error (any yajl status but ok is a misuse: a second document, a key
 * that is not a string, too deep). */
static int gen_check(struct owners_json_gen *g, yajl_gen_status st)
{
	if (g->oom)
		return gen_fail(g, OWNERS_ENOMEM);
	return st == yajl_gen_status_ok ? 0 : gen_fail(g, OWNERS_EINVAL);
}

/* Before a token: a value in a map must follow a key. */
static int gen_before(struct owners_json_gen *g, int is_string)
{
	if (g->err)
		return g->err;
	if (g->depth && g->kind[g->depth - 1] == '{' && !(g->count[g->depth - 1] % 2) && !is_string)
		return gen_fail(g, OWNERS_EINVAL);
	if (g->depth)
		g->count[g->depth - 1]++;
	return 0;
}

int owners_json_gen_stringn(struct owners_json_gen *g, const char *s, size_t len)
{
	int rc = gen_before(g, 1);

	return rc ? rc : gen_check(g, yajl_gen_string(g->y, (const unsigned char *)s, len));
}

int owners_json_gen_string(struct owners_json_gen *g, const char *s)
{
	return owners_json_gen_stringn(g, s, strlen(s));
}

int owners_json_gen_int(struct owners_json_gen *g, long long v)
{
	int rc = gen_before(g, 0);

	return rc ? rc : gen_check(g, yajl_gen_integer(g->y, v));
}

int owners_json_gen_bool(struct owners_json_gen *g, int v)
{
	int rc = gen_before(g, 0);

	return rc ? rc : gen_check(g, yajl_gen_bool(g->y, v));
}

int owners_json_gen_null(struct owners_json_gen *g)
{
	int rc = gen_before(g, 0);

	return rc ? rc : gen_check(g, yajl_gen_null(g->y));
}

int owners_json_gen_number(struct owners_json_gen *g, const char *text, size_t len)
{
	int rc = gen_before(g, 0);

	return rc ? rc : gen_check(g, yajl_gen_number(g->y, text, len));
}

static int gen_open(struct owners_json_gen *g, char bracket)
{
	int rc = gen_before(g, 0);

	if (rc)
		return rc;
	if (g->depth >= GEN_MAX_DEPTH)
		return gen_fail(g, OWNERS_EINVAL);
	if ((rc = gen_check(g, bracket == '{' ? yajl_gen_map_open(g->y) : yajl_gen_array_open(g->y))))
		return rc;
	/* yajl has written the bracket, and in pretty mode a newline after it. */
	g->bracket[g->depth] = g->out->len - (g->pretty ? 2 : 1);
	g->kind[g->depth] = bracket;
	g->count[g->depth] = 0;
	g->depth++;
	return 0;
}

static int gen_close(struct owners_json_gen *g, char open, char bracket)
{
	size_t n, at;
	int rc;

	if (g->err)
		return g->err;
	if (!g->depth || g->kind[g->depth - 1] != open)
		return gen_fail(g, OWNERS_EINVAL);
	n = g->count[g->depth - 1];
	if (open == '{' && n % 2)
		return gen_fail(g, OWNERS_EINVAL); /* a key without its value */
	at = g->bracket[g->depth - 1];
	g->depth--;
	if ((rc = gen_check(g, open == '{' ? yajl_gen_map_close(g->y) : yajl_gen_array_close(g->y))))
		return rc;
	if (n || !g->pretty)
		return 0;
	/* Empty: [] or {} on one line, as kubectl writes them. */
	owners_buf_truncate(g->out, at + 1);
	if (owners_buf_addc(g->out, bracket) || (!g->depth && owners_buf_addc(g->out, '\n')))
		return gen_fail(g, OWNERS_ENOMEM);
	return 0;
}

int owners_json_gen_map_open(struct owners_json_gen *g)
{
	return gen_open(g, '{');
}

int owners_json_gen_map_close(struct owners_json_gen *g)
{
	return gen_close(g, '{', '}');
}

int owners_json_gen_array_open(struct owners_json_gen *g)
{
	return gen_open(g, '[');
}

int owners_json_gen_array_close(struct owners_json_gen *g)
{
	return gen_close(g, '[', ']');
}

int owners_json_gen_kv(struct owners_json_gen *g, const char *key, const char *value)
{
	int rc;

	if (!value)
		return g->err;
	rc = owners_json_gen_string(g, key);
	return rc ? rc : owners_json_gen_string(g, value);
}

int owners_json_gen_typed_open(struct owners_json_gen *g, const char *kind, const char *api_version)
{
	int rc = owners_json_gen_map_open(g);

	if (!rc)
		rc = owners_json_gen_kv(g, "kind", kind);
	if (!rc)
		rc = owners_json_gen_kv(g, "apiVersion", api_version);
	return rc;
}

int owners_json_gen_kv_bool(struct owners_json_gen *g, const char *key, int value)
{
	int rc = owners_json_gen_string(g, key);

	return rc ? rc : owners_json_gen_bool(g, value);
}

int owners_json_gen_kv_int(struct owners_json_gen *g, const char *key, long long value)
{
	int rc = owners_json_gen_string(g, key);

	return rc ? rc : owners_json_gen_int(g, value);
}

int owners_json_gen_kv_time(struct owners_json_gen *g, const char *key, int64_t t)
{
	char text[32];
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t)
		return g->err;
	/* Kept like every other error, so a run of calls is checked once. */
	if (!gmtime_r(&tt, &tm) || !strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return gen_fail(g, OWNERS_EINVAL);
	return owners_json_gen_kv(g, key, text);
}

int owners_json_gen_value(struct owners_json_gen *g, const struct owners_json_value *v)
{
	size_t i;
	int rc = 0;

	switch (v->type) {
	case OWNERS_JSON_NULL:
		return owners_json_gen_null(g);
	case OWNERS_JSON_BOOL:
		return owners_json_gen_bool(g, v->boolean);
	case OWNERS_JSON_NUMBER:
		return owners_json_gen_number(g, v->string, strlen(v->string));
	case OWNERS_JSON_STRING:
		return owners_json_gen_string(g, v->string);
	case OWNERS_JSON_OBJECT:
		rc = owners_json_gen_map_open(g);
		for (i = 0; !rc && i < v->count; i++) {
			rc = owners_json_gen_string(g, v->keys[i]);
			if (!rc)
				rc = owners_json_gen_value(g, v->items[i]);
		}
		return rc ? rc : owners_json_gen_map_close(g);
	case OWNERS_JSON_ARRAY:
		rc = owners_json_gen_array_open(g);
		for (i = 0; !rc && i < v->count; i++)
			rc = owners_json_gen_value(g, v->items[i]);
		return rc ? rc : owners_json_gen_array_close(g);
	}
	return gen_fail(g, OWNERS_EINVAL);
}

int owners_json_quote(struct owners_buf *out, const char *s, size_t len)
{
	struct owners_json_gen *g = owners_json_gen_new(out, 0);
	int rc;

	if (!g)
		return OWNERS_ENOMEM;
	rc = owners_json_gen_stringn(g, s, len);
	owners_json_gen_free(g);
	return rc;
}

const char *owners_json_library_version(void)
{
	static char text[32];
	int v = yajl_version();

	snprintf(text, sizeof(text), "%d.%d.%d", v / 10000, v / 100 % 100, v % 100);
	return text;
}
