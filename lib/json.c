#include "json.h"

#include <stdarg.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_parse.h>
#include <yajl/yajl_version.h>
#include <stdio.h>

/* ---- streaming parser ------------------------------------------------ */

struct owners_json_parser {
	yajl_handle handle;
	const struct owners_json_callbacks *cb;
	void *ctx;
};

/* yajl wants non-zero to continue; ours want 0. These adapters flip it. */
static int y_null(void *c)
{
	struct owners_json_parser *p = c;
	return p->cb->on_null ? !p->cb->on_null(p->ctx) : 1;
}

static int y_bool(void *c, int v)
{
	struct owners_json_parser *p = c;
	return p->cb->on_bool ? !p->cb->on_bool(p->ctx, v) : 1;
}

static int y_number(void *c, const char *s, size_t len)
{
	struct owners_json_parser *p = c;
	return p->cb->on_number ? !p->cb->on_number(p->ctx, s, len) : 1;
}

static int y_string(void *c, const unsigned char *s, size_t len)
{
	struct owners_json_parser *p = c;
	return p->cb->on_string ? !p->cb->on_string(p->ctx, (const char *)s, len) : 1;
}

static int y_start_map(void *c)
{
	struct owners_json_parser *p = c;
	return p->cb->on_start_map ? !p->cb->on_start_map(p->ctx) : 1;
}

static int y_key(void *c, const unsigned char *s, size_t len)
{
	struct owners_json_parser *p = c;
	return p->cb->on_key ? !p->cb->on_key(p->ctx, (const char *)s, len) : 1;
}

static int y_end_map(void *c)
{
	struct owners_json_parser *p = c;
	return p->cb->on_end_map ? !p->cb->on_end_map(p->ctx) : 1;
}

static int y_start_array(void *c)
{
	struct owners_json_parser *p = c;
	return p->cb->on_start_array ? !p->cb->on_start_array(p->ctx) : 1;
}

static int y_end_array(void *c)
{
	struct owners_json_parser *p = c;
	return p->cb->on_end_array ? !p->cb->on_end_array(p->ctx) : 1;
}

static const yajl_callbacks y_callbacks = {
	y_null, y_bool, NULL, NULL, y_number, y_string,
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
	p->handle = yajl_alloc(&y_callbacks, NULL, p);
	if (!p->handle) {
		free(p);
		return NULL;
	}
	/* Numbers stay text (on_number), so 64-bit values are never rounded. */
	return p;
}

static int parse_status(struct owners_json_parser *p, yajl_status st, const char *data,
			size_t len, struct owners_error *err)
{
	unsigned char *why;

	if (st == yajl_status_ok)
		return 0;
	if (st == yajl_status_client_canceled)
		return owners_error_set(err, OWNERS_EPROTO, "unexpected JSON structure");
	why = yajl_get_error(p->handle, 0, (const unsigned char *)data, len);
	if (why) {
		/* yajl ends its messages with ".\n"; ours are one bare line. */
		size_t n = strlen((char *)why);

		while (n && (why[n - 1] == '\n' || why[n - 1] == '.' || why[n - 1] == ' '))
			why[--n] = '\0';
	}
	owners_error_set(err, OWNERS_EPROTO, "invalid JSON: %s", why ? (char *)why : "parse error");
	if (why)
		yajl_free_error(p->handle, why);
	return OWNERS_EPROTO;
}

int owners_json_parser_feed(struct owners_json_parser *p, const char *data, size_t len,
			    struct owners_error *err)
{
	return parse_status(p, yajl_parse(p->handle, (const unsigned char *)data, len), data, len,
			    err);
}

int owners_json_parser_finish(struct owners_json_parser *p, struct owners_error *err)
{
	return parse_status(p, yajl_complete_parse(p->handle), NULL, 0, err);
}

void owners_json_parser_free(struct owners_json_parser *p)
{
	if (!p)
		return;
	yajl_free(p->handle);
	free(p);
}

/* ---- small tree ------------------------------------------------------ */

#define TREE_MAX_DEPTH 256

struct tree_builder {
	struct owners_json_value *root;
	struct owners_json_value *stack[TREE_MAX_DEPTH];
	size_t depth;
	char *pending_key;
	int oom;
};

void owners_json_value_free(struct owners_json_value *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->count; i++) {
		if (v->keys)
			free(v->keys[i]);
		owners_json_value_free(v->items[i]);
	}
	free(v->keys);
	free(v->items);
	free(v->string);
	free(v);
}

static int tree_attach(struct tree_builder *b, struct owners_json_value *v)
{
	struct owners_json_value *parent;

	if (!v) {
		b->oom = 1;
		return 1;
	}
	if (!b->depth) {
		if (b->root) { /* a second top-level value: not one document */
			owners_json_value_free(v);
			return 1;
		}
		b->root = v;
		return 0;
	}
	parent = b->stack[b->depth - 1];
	if (parent->count == parent->cap) {
		size_t cap = parent->cap ? parent->cap * 2 : 4;
		struct owners_json_value **items = realloc(parent->items, cap * sizeof(*items));
		char **keys;

		if (!items)
			goto oom;
		parent->items = items;
		if (parent->type == OWNERS_JSON_OBJECT) {
			keys = realloc(parent->keys, cap * sizeof(*keys));
			if (!keys)
				goto oom;
			parent->keys = keys;
		}
		parent->cap = cap;
	}
	if (parent->type == OWNERS_JSON_OBJECT) {
		parent->keys[parent->count] = b->pending_key;
		b->pending_key = NULL;
	}
	parent->items[parent->count++] = v;
	return 0;
oom:
	owners_json_value_free(v);
	b->oom = 1;
	return 1;
}

static struct owners_json_value *tree_new(enum owners_json_type type)
{
	struct owners_json_value *v = calloc(1, sizeof(*v));

	if (v)
		v->type = type;
	return v;
}

static int t_null(void *ctx)
{
	return tree_attach(ctx, tree_new(OWNERS_JSON_NULL));
}

static int t_bool(void *ctx, int value)
{
	struct owners_json_value *v = tree_new(OWNERS_JSON_BOOL);

	if (v)
		v->boolean = value;
	return tree_attach(ctx, v);
}

static int t_scalar(void *ctx, enum owners_json_type type, const char *s, size_t len)
{
	struct owners_json_value *v = tree_new(type);

	if (v && !(v->string = owners_strndup(s, len))) {
		free(v);
		v = NULL;
	}
	return tree_attach(ctx, v);
}

static int t_number(void *ctx, const char *s, size_t len)
{
	return t_scalar(ctx, OWNERS_JSON_NUMBER, s, len);
}

static int t_string(void *ctx, const char *s, size_t len)
{
	return t_scalar(ctx, OWNERS_JSON_STRING, s, len);
}

static int t_open(void *ctx, enum owners_json_type type)
{
	struct tree_builder *b = ctx;
	struct owners_json_value *v;

	if (b->depth == TREE_MAX_DEPTH)
		return 1;
	v = tree_new(type);
	if (tree_attach(b, v))
		return 1;
	b->stack[b->depth++] = v;
	return 0;
}

static int t_start_map(void *ctx)
{
	return t_open(ctx, OWNERS_JSON_OBJECT);
}

static int t_start_array(void *ctx)
{
	return t_open(ctx, OWNERS_JSON_ARRAY);
}

static int t_key(void *ctx, const char *s, size_t len)
{
	struct tree_builder *b = ctx;

	free(b->pending_key);
	b->pending_key = owners_strndup(s, len);
	if (!b->pending_key) {
		b->oom = 1;
		return 1;
	}
	return 0;
}

static int t_close(void *ctx)
{
	struct tree_builder *b = ctx;

	b->depth--;
	return 0;
}

static const struct owners_json_callbacks tree_callbacks = {
	t_null, t_bool, t_number, t_string, t_start_map, t_key, t_close, t_start_array, t_close,
};

int owners_json_parse(struct owners_json_value **out, const char *data, size_t len,
		      struct owners_error *err)
{
	struct tree_builder b;
	struct owners_json_parser *p;
	int rc;

	*out = NULL;
	memset(&b, 0, sizeof(b));
	p = owners_json_parser_new(&tree_callbacks, &b);
	if (!p)
		return owners_error_oom(err);
	rc = owners_json_parser_feed(p, data, len, NULL);
	if (!rc)
		rc = owners_json_parser_finish(p, NULL);
	if (!rc && !b.root)
		rc = OWNERS_EPROTO;
	if (rc) {
		if (b.oom)
			rc = owners_error_oom(err);
		else
			/* Re-run for yajl's message only when it is not our own stop. */
			rc = owners_error_set(err, OWNERS_EPROTO, "invalid JSON document");
		owners_json_value_free(b.root);
		b.root = NULL;
	}
	free(b.pending_key);
	owners_json_parser_free(p);
	*out = b.root;
	return rc;
}

const struct owners_json_value *owners_json_get(const struct owners_json_value *v,
						const char *key)
{
	size_t i;

	if (!v || v->type != OWNERS_JSON_OBJECT)
		return NULL;
	for (i = 0; i < v->count; i++)
		if (!strcmp(v->keys[i], key))
			return v->items[i];
	return NULL;
}

const struct owners_json_value *owners_json_path(const struct owners_json_value *v, ...)
{
	va_list ap;
	const char *key;

	va_start(ap, v);
	while (v && (key = va_arg(ap, const char *)))
		v = owners_json_get(v, key);
	va_end(ap);
	return v;
}

const char *owners_json_string(const struct owners_json_value *v)
{
	return v && v->type == OWNERS_JSON_STRING ? v->string : NULL;
}

int owners_json_bool(const struct owners_json_value *v, int dflt)
{
	return v && v->type == OWNERS_JSON_BOOL ? v->boolean : dflt;
}

int64_t owners_json_int(const struct owners_json_value *v, int64_t dflt)
{
	char *end;
	long long n;

	if (!v || v->type != OWNERS_JSON_NUMBER)
		return dflt;
	n = strtoll(v->string, &end, 10);
	return end == v->string ? dflt : (int64_t)n;
}

/* ---- generator ------------------------------------------------------- */

struct owners_json_gen {
	yajl_gen gen;
	struct owners_buf *out;
	int oom;
};

static void gen_print(void *ctx, const char *s, size_t len)
{
	struct owners_json_gen *g = ctx;

	if (owners_buf_add(g->out, s, len))
		g->oom = 1;
}

struct owners_json_gen *owners_json_gen_new(struct owners_buf *out, int pretty)
{
	struct owners_json_gen *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->out = out;
	g->gen = yajl_gen_alloc(NULL);
	if (!g->gen) {
		free(g);
		return NULL;
	}
	yajl_gen_config(g->gen, yajl_gen_print_callback, gen_print, g);
	if (pretty) {
		yajl_gen_config(g->gen, yajl_gen_beautify, 1);
		yajl_gen_config(g->gen, yajl_gen_indent_string, "  ");
	}
	yajl_gen_config(g->gen, yajl_gen_validate_utf8, 0);
	return g;
}

void owners_json_gen_free(struct owners_json_gen *g)
{
	if (!g)
		return;
	yajl_gen_free(g->gen);
	free(g);
}

static int gen_rc(struct owners_json_gen *g, yajl_gen_status st)
{
	if (g->oom)
		return OWNERS_ENOMEM;
	return st == yajl_gen_status_ok ? 0 : OWNERS_EINVAL;
}

int owners_json_gen_stringn(struct owners_json_gen *g, const char *s, size_t len)
{
	return gen_rc(g, yajl_gen_string(g->gen, (const unsigned char *)s, len));
}

int owners_json_gen_string(struct owners_json_gen *g, const char *s)
{
	return owners_json_gen_stringn(g, s, strlen(s));
}

int owners_json_gen_int(struct owners_json_gen *g, long long v)
{
	return gen_rc(g, yajl_gen_integer(g->gen, v));
}

int owners_json_gen_bool(struct owners_json_gen *g, int v)
{
	return gen_rc(g, yajl_gen_bool(g->gen, v));
}

int owners_json_gen_null(struct owners_json_gen *g)
{
	return gen_rc(g, yajl_gen_null(g->gen));
}

int owners_json_gen_map_open(struct owners_json_gen *g)
{
	return gen_rc(g, yajl_gen_map_open(g->gen));
}

int owners_json_gen_map_close(struct owners_json_gen *g)
{
	return gen_rc(g, yajl_gen_map_close(g->gen));
}

int owners_json_gen_array_open(struct owners_json_gen *g)
{
	return gen_rc(g, yajl_gen_array_open(g->gen));
}

int owners_json_gen_array_close(struct owners_json_gen *g)
{
	return gen_rc(g, yajl_gen_array_close(g->gen));
}

int owners_json_gen_kv(struct owners_json_gen *g, const char *key, const char *value)
{
	int rc;

	if (!value)
		return 0;
	rc = owners_json_gen_string(g, key);
	return rc ? rc : owners_json_gen_string(g, value);
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
		return 0;
	if (!gmtime_r(&tt, &tm) || !strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return OWNERS_EINVAL;
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
		return gen_rc(g, yajl_gen_number(g->gen, v->string, strlen(v->string)));
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
	return OWNERS_EINVAL;
}

int owners_json_quote(struct owners_buf *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;
	int rc = owners_buf_addc(out, '"');

	for (i = 0; !rc && i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			char esc[2] = { '\\', (char)c };
			rc = owners_buf_add(out, esc, 2);
		} else if (c < 0x20) {
			char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
			rc = owners_buf_add(out, esc, 6);
		} else {
			rc = owners_buf_addc(out, (char)c);
		}
	}
	return rc ? rc : owners_buf_addc(out, '"');
}

const char *owners_json_backend_version(void)
{
	static char text[32];
	int v = yajl_version();

	snprintf(text, sizeof(text), "yajl %d.%d.%d", v / 10000, v / 100 % 100, v % 100);
	return text;
}
