#include "yaml_print.h"

#include <string.h>

static int indent(struct owners_buf *out, int level)
{
	int rc = 0;

	while (!rc && level-- > 0)
		rc = owners_buf_adds(out, "  ");
	return rc;
}

static int scalar(struct owners_buf *out, const struct owners_json_value *v)
{
	switch (v->type) {
	case OWNERS_JSON_NULL:
		return owners_buf_adds(out, "null");
	case OWNERS_JSON_BOOL:
		return owners_buf_adds(out, v->boolean ? "true" : "false");
	case OWNERS_JSON_NUMBER:
		return owners_buf_adds(out, v->string);
	case OWNERS_JSON_STRING:
		return owners_json_quote(out, v->string, strlen(v->string));
	default:
		return 0;
	}
}

static int is_empty_container(const struct owners_json_value *v)
{
	return (v->type == OWNERS_JSON_OBJECT || v->type == OWNERS_JSON_ARRAY) && !v->count;
}

static int value(struct owners_buf *out, const struct owners_json_value *v, int level);

/* Writes the part after "key:" or "-": inline scalar, or a nested block. */
static int after_marker(struct owners_buf *out, const struct owners_json_value *v, int level)
{
	int rc;

	if (is_empty_container(v))
		return owners_buf_adds(out, v->type == OWNERS_JSON_OBJECT ? " {}\n" : " []\n");
	if (v->type == OWNERS_JSON_OBJECT || v->type == OWNERS_JSON_ARRAY) {
		rc = owners_buf_addc(out, '\n');
		return rc ? rc : value(out, v, level + 1);
	}
	rc = owners_buf_addc(out, ' ');
	if (!rc)
		rc = scalar(out, v);
	return rc ? rc : owners_buf_addc(out, '\n');
}

static int value(struct owners_buf *out, const struct owners_json_value *v, int level)
{
	size_t i;
	int rc = 0;

	if (v->type == OWNERS_JSON_OBJECT) {
		for (i = 0; !rc && i < v->count; i++) {
			rc = indent(out, level);
			if (!rc)
				rc = owners_json_quote(out, v->keys[i], strlen(v->keys[i]));
			if (!rc)
				rc = owners_buf_addc(out, ':');
			if (!rc)
				rc = after_marker(out, v->items[i], level);
		}
		return rc;
	}
	if (v->type == OWNERS_JSON_ARRAY) {
		for (i = 0; !rc && i < v->count; i++) {
			rc = indent(out, level);
			if (!rc)
				rc = owners_buf_addc(out, '-');
			if (!rc)
				rc = after_marker(out, v->items[i], level);
		}
		return rc;
	}
	rc = indent(out, level);
	if (!rc)
		rc = scalar(out, v);
	return rc ? rc : owners_buf_addc(out, '\n');
}

int owners_yaml_print(struct owners_buf *out, const struct owners_json_value *v)
{
	if (is_empty_container(v))
		return owners_buf_adds(out, v->type == OWNERS_JSON_OBJECT ? "{}\n" : "[]\n");
	return value(out, v, 0);
}
