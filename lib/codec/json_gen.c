#include "json.h"
#include "yajl_alloc.h"

#include <yajl/yajl_gen.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

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

int owners_json_gen_new(struct owners_json_gen **out, struct owners_buf *buf, int pretty)
{
	struct owners_json_gen *g = calloc(1, sizeof(*g));

	*out = NULL;
	if (!g)
		return OWNERS_ENOMEM;
	g->y = yajl_gen_alloc(&owners_yajl_alloc_funcs);
	if (!g->y) {
		free(g);
		return OWNERS_ENOMEM;
	}
	g->out = buf;
	g->pretty = pretty;
	yajl_gen_config(g->y, yajl_gen_print_callback, gen_print, g);
	if (pretty) {
		yajl_gen_config(g->y, yajl_gen_beautify, 1);
		yajl_gen_config(g->y, yajl_gen_indent_string, "    ");
	}
	*out = g;
	return 0;
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

int owners_json_gen_kv_strings(struct owners_json_gen *g, const char *key, const char *const *strings,
			       size_t n)
{
	size_t i;

	owners_json_gen_string(g, key);
	owners_json_gen_array_open(g);
	for (i = 0; i < n; i++)
		owners_json_gen_string(g, strings[i]);
	return owners_json_gen_array_close(g);
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
	struct owners_json_gen *g;
	int rc;

	if (owners_json_gen_new(&g, out, 0))
		return OWNERS_ENOMEM;
	rc = owners_json_gen_stringn(g, s, len);
	owners_json_gen_free(g);
	return rc;
}
