#include "proto_tree.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "grow.h"
#include "owners_error.h"
#include "varint.h"

/* Kubernetes' objects nest a few levels; anything deeper is not one. */
#define MAX_DEPTH 32

static struct owners_json_value *node(enum owners_json_type type)
{
	struct owners_json_value *v = calloc(1, sizeof(*v));

	if (v)
		v->type = type;
	return v;
}

/* Appends v under key (an object) or at the end (an array); v is freed
 * on failure. */
static int attach(struct owners_json_value *parent, const char *key, struct owners_json_value *v)
{
	char *k = NULL;

	if (!v)
		return OWNERS_ENOMEM;
	if ((key && !(k = owners_strdup(key))) || OWNERS_GROW(parent->items, parent->cap, parent->count + 1) ||
	    (key && OWNERS_GROW(parent->keys, parent->cap_keys, parent->count + 1))) {
		free(k);
		owners_json_value_free(v);
		return OWNERS_ENOMEM;
	}
	if (key)
		parent->keys[parent->count] = k;
	parent->items[parent->count++] = v;
	return 0;
}

/* The array under key in obj, made when it is not there yet. */
static struct owners_json_value *array_of(struct owners_json_value *obj, const char *key)
{
	struct owners_json_value *a;
	size_t i;

	for (i = 0; i < obj->count; i++)
		if (!strcmp(obj->keys[i], key))
			return obj->items[i]->type == OWNERS_JSON_ARRAY ? obj->items[i] : NULL;
	a = node(OWNERS_JSON_ARRAY);
	return attach(obj, key, a) ? NULL : a;
}

/* The value already under key (a later occurrence of a singular field
 * replaces it, as protobuf merges scalars). */
static void drop_key(struct owners_json_value *obj, const char *key)
{
	size_t i;

	for (i = 0; i < obj->count; i++)
		if (!strcmp(obj->keys[i], key)) {
			free(obj->keys[i]);
			owners_json_value_free(obj->items[i]);
			memmove(obj->keys + i, obj->keys + i + 1, (obj->count - i - 1) * sizeof(*obj->keys));
			memmove(obj->items + i, obj->items + i + 1, (obj->count - i - 1) * sizeof(*obj->items));
			obj->count--;
			return;
		}
}

static const struct owners_proto_field *field_of(const struct owners_proto_schema *s, uint32_t number)
{
	size_t i;

	for (i = 0; i < s->count; i++)
		if (s->fields[i].number == number)
			return &s->fields[i];
	return NULL;
}

static int message(struct owners_json_value *obj, const struct owners_proto_schema *s, const uint8_t *p,
		   const uint8_t *end, int depth);

/* The value of field f whose bytes (or varint) were just read. */
static struct owners_json_value *value(const struct owners_proto_field *f, uint64_t v, const uint8_t *body,
				       uint64_t len, int depth, int *rc)
{
	struct owners_json_value *out;
	char num[32];

	*rc = 0;
	switch (f->type) {
	case OWNERS_PROTO_STRING:
		if (!len)
			return NULL; /* omitempty */
		out = node(OWNERS_JSON_STRING);
		if (out && !(out->string = owners_strndup((const char *)body, (size_t)len))) {
			free(out);
			out = NULL;
		}
		break;
	case OWNERS_PROTO_INT:
		/* int32 and int64 are both sign-extended to 64 bits. */
		snprintf(num, sizeof(num), "%" PRId64, (int64_t)v);
		out = node(OWNERS_JSON_NUMBER);
		if (out && !(out->string = owners_strdup(num))) {
			free(out);
			out = NULL;
		}
		break;
	case OWNERS_PROTO_BOOL:
		if ((out = node(OWNERS_JSON_BOOL)))
			out->boolean = v != 0;
		break;
	default:
		if (!(out = node(OWNERS_JSON_OBJECT)))
			break;
		if (f->message && (*rc = message(out, f->message, body, body + len, depth + 1))) {
			owners_json_value_free(out);
			return NULL;
		}
		return out;
	}
	if (!out)
		*rc = OWNERS_ENOMEM;
	return out;
}

static int message(struct owners_json_value *obj, const struct owners_proto_schema *s, const uint8_t *p,
		   const uint8_t *end, int depth)
{
	if (depth > MAX_DEPTH)
		return OWNERS_EPROTO;
	while (p < end) {
		const struct owners_proto_field *f;
		const uint8_t *body = NULL;
		uint64_t key, v = 0, len = 0;
		struct owners_json_value *val, *arr;
		int rc;

		if (owners_varint_read(&p, end, &key) || !(key >> 3))
			return OWNERS_EPROTO;
		switch (key & 7) {
		case 0:
			if (owners_varint_read(&p, end, &v))
				return OWNERS_EPROTO;
			break;
		case 1:
		case 5:
			len = (key & 7) == 1 ? 8 : 4;
			if ((uint64_t)(end - p) < len)
				return OWNERS_EPROTO;
			p += len;
			break;
		case 2:
			if (owners_varint_read(&p, end, &len) || len > (uint64_t)(end - p))
				return OWNERS_EPROTO;
			body = p;
			p += len;
			break;
		default:
			return OWNERS_EPROTO;
		}
		if (key >> 3 > UINT32_MAX || !(f = field_of(s, (uint32_t)(key >> 3))))
			continue;
		/* A field of the wrong wire type is damage, not a value. */
		if (((f->type == OWNERS_PROTO_STRING || f->type == OWNERS_PROTO_MESSAGE) && (key & 7) != 2) ||
		    ((f->type == OWNERS_PROTO_INT || f->type == OWNERS_PROTO_BOOL) && (key & 7) != 0))
			return OWNERS_EPROTO;
		val = value(f, v, body, len, depth, &rc);
		if (rc)
			return rc;
		if (f->repeated) {
			/* An empty string in a list is still an element. */
			if (!val && !(val = node(OWNERS_JSON_STRING)))
				return OWNERS_ENOMEM;
			if (val->type == OWNERS_JSON_STRING && !val->string && !(val->string = owners_strdup(""))) {
				owners_json_value_free(val);
				return OWNERS_ENOMEM;
			}
			if (!(arr = array_of(obj, f->name))) {
				owners_json_value_free(val);
				return OWNERS_ENOMEM;
			}
			if ((rc = attach(arr, NULL, val)))
				return rc;
			continue;
		}
		drop_key(obj, f->name);
		if (val && (rc = attach(obj, f->name, val)))
			return rc;
	}
	return 0;
}

int owners_proto_tree(struct owners_json_value **out, const struct owners_proto_schema *schema,
		      const char *data, size_t len)
{
	struct owners_json_value *obj = node(OWNERS_JSON_OBJECT);
	int rc;

	*out = NULL;
	if (!obj)
		return OWNERS_ENOMEM;
	rc = message(obj, schema, (const uint8_t *)data, (const uint8_t *)data + len, 0);
	if (rc) {
		owners_json_value_free(obj);
		return rc;
	}
	*out = obj;
	return 0;
}
