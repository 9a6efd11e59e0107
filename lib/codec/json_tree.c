/*
 * The small tree (see json.h): built from the push parser's events, for
 * small documents only (exec credential output, Status bodies, discovery
 * documents). No yajl call here: the parser underneath is json.c's.
 */
#include "json.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

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
	if (OWNERS_GROW(parent->items, parent->cap, parent->count + 1) ||
	    (parent->type == OWNERS_JSON_OBJECT &&
	     OWNERS_GROW(parent->keys, parent->cap_keys, parent->count + 1)))
		goto oom;
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

struct owners_json_builder {
	struct tree_builder b;
};

const struct owners_json_callbacks *owners_json_builder_events(void)
{
	return &tree_callbacks;
}

int owners_json_builder_new(struct owners_json_builder **out)
{
	return (*out = calloc(1, sizeof(**out))) ? 0 : OWNERS_ENOMEM;
}

/* Forgets what was being built (a document cut short, or taken). */
static void builder_reset(struct tree_builder *b)
{
	owners_json_value_free(b->root);
	free(b->pending_key);
	memset(b, 0, sizeof(*b));
}

int owners_json_builder_take(struct owners_json_builder *jb, struct owners_json_value **out)
{
	struct tree_builder *b = &jb->b;
	int rc = b->oom ? OWNERS_ENOMEM : b->depth || !b->root ? OWNERS_EPROTO : 0;

	*out = NULL;
	if (!rc) {
		*out = b->root;
		b->root = NULL;
	}
	builder_reset(b);
	return rc;
}

void owners_json_builder_reset(struct owners_json_builder *jb)
{
	builder_reset(&jb->b);
}

void owners_json_builder_free(struct owners_json_builder *jb)
{
	if (!jb)
		return;
	builder_reset(&jb->b);
	free(jb);
}

int owners_json_parse(struct owners_json_value **out, const char *data, size_t len,
		      struct owners_error *err)
{
	return owners_json_parse_steps(out, data, len, 0, err);
}

int owners_json_parse_steps(struct owners_json_value **out, const char *data, size_t len,
			    size_t step, struct owners_error *err)
{
	struct tree_builder b;
	struct owners_json_parser *p;
	size_t at = 0;
	int rc = 0;

	*out = NULL;
	memset(&b, 0, sizeof(b));
	if (owners_json_parser_new(&p, &tree_callbacks, &b))
		return owners_error_oom(err);
	if (!step)
		step = len ? len : 1;
	for (; !rc && at < len; at += step)
		rc = owners_json_parser_feed(p, data + at, len - at < step ? len - at : step, NULL);
	if (!rc)
		rc = owners_json_parser_finish(p, NULL);
	if (!rc && !b.root)
		rc = OWNERS_EPROTO;
	if (rc) {
		/* Out of memory in the tree (b.oom) or in the tokenizer itself
		 * (its nesting stack, a token split across chunks). */
		if (b.oom || rc == OWNERS_ENOMEM)
			rc = owners_error_oom(err);
		else
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

size_t owners_json_array_count(const struct owners_json_value *v)
{
	return v && v->type == OWNERS_JSON_ARRAY ? v->count : 0;
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

