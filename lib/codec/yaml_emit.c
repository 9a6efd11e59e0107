#include "yaml_emit.h"

#include <string.h>
#include <yaml.h>

#include "json.h"

/* ---- which plain scalars would change type ------------------------------ */

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int all_of(const char *s, size_t from, size_t len, const char *set)
{
	size_t i;

	if (from >= len)
		return 0;
	for (i = from; i < len; i++)
		if (!strchr(set, s[i]) || !s[i])
			return 0;
	return 1;
}

/* Integers and floats in every notation YAML 1.1 or 1.2 resolves:
 * 12, -3, 1_000, 0x1F, 0o17, 0b101, 017, 1.5, .5, 1e3, 6.02e+23, 1:30
 * (sexagesimal), .inf, -.Inf, .NaN. */
static int number_like(const char *s, size_t len)
{
	static const char *const special[] = { "inf", "Inf", "INF", "nan", "NaN", "NAN", NULL };
	size_t i = 0, k;
	int digits = 0;

	if (i < len && (s[i] == '+' || s[i] == '-'))
		i++;
	if (i < len && s[i] == '.')
		for (k = 0; special[k]; k++)
			if (len - i - 1 == 3 && !memcmp(s + i + 1, special[k], 3))
				return 1;
	if (len - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'o' || s[i + 1] == 'b'))
		return all_of(s, i + 2, len,
			      s[i + 1] == 'x' ? "0123456789abcdefABCDEF_" : s[i + 1] == 'o' ? "01234567_" : "01_");
	for (; i < len && (is_digit(s[i]) || s[i] == '_'); i++)
		digits |= is_digit(s[i]);
	while (digits && i < len && s[i] == ':') {
		for (i++, k = 0; i < len && is_digit(s[i]); i++, k++)
			;
		if (!k)
			return 0;
	}
	if (i < len && s[i] == '.')
		for (i++; i < len && (is_digit(s[i]) || s[i] == '_'); i++)
			digits |= is_digit(s[i]);
	if (digits && i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		for (k = 0; i < len && is_digit(s[i]); i++, k++)
			;
		if (!k)
			return 0;
	}
	return digits && i == len;
}

/* YYYY-M-D and everything that starts like it (the timestamp forms). */
static int timestamp_like(const char *s, size_t len)
{
	size_t i, k;

	if (len < 8 || !is_digit(s[0]) || !is_digit(s[1]) || !is_digit(s[2]) || !is_digit(s[3]) ||
	    s[4] != '-')
		return 0;
	for (i = 5, k = 0; i < len && is_digit(s[i]); i++, k++)
		;
	if (k < 1 || k > 2 || i >= len || s[i] != '-')
		return 0;
	return i + 1 < len && is_digit(s[i + 1]);
}

int owners_yaml_plain_changes_type(const char *s, size_t len)
{
	/* null, and the booleans of YAML 1.1 (go-yaml's list, a superset of
	 * PyYAML's) and 1.2; "=" and "<<" are the value and merge keys. */
	static const char *const words[] = {
		"~", "null", "Null", "NULL",
		"true", "True", "TRUE", "false", "False", "FALSE",
		"yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF",
		"y", "Y", "n", "N", "=", "<<", NULL,
	};
	size_t i;

	if (!len)
		return 1;
	for (i = 0; words[i]; i++)
		if (strlen(words[i]) == len && !memcmp(words[i], s, len))
			return 1;
	return number_like(s, len) || timestamp_like(s, len);
}

/* ---- JSON events to YAML events ----------------------------------------- */

struct emit {
	yaml_emitter_t emitter;
	struct owners_buf *out;
	int failed;   /* OWNERS_E* once something went wrong */
};

static int write_out(void *data, unsigned char *buffer, size_t size)
{
	struct emit *e = data;

	if (owners_buf_add(e->out, (const char *)buffer, size)) {
		e->failed = OWNERS_ENOMEM;
		return 0;
	}
	return 1;
}

static int send(struct emit *e, yaml_event_t *ev, int made)
{
	if (!made) {
		e->failed = OWNERS_ENOMEM;
		return 1;
	}
	if (!yaml_emitter_emit(&e->emitter, ev)) {
		if (!e->failed)
			e->failed = e->emitter.error == YAML_MEMORY_ERROR ? OWNERS_ENOMEM : OWNERS_EPROTO;
		return 1;
	}
	return 0;
}

static int scalar(struct emit *e, const char *s, size_t len, yaml_scalar_style_t style)
{
	yaml_event_t ev;

	return send(e, &ev, yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)len, 1, 1,
							 style));
}

static int on_string(void *ctx, const char *s, size_t len)
{
	yaml_scalar_style_t style = YAML_PLAIN_SCALAR_STYLE;

	if (owners_yaml_plain_changes_type(s, len))
		style = YAML_DOUBLE_QUOTED_SCALAR_STYLE;
	else if (memchr(s, '\n', len))
		style = YAML_LITERAL_SCALAR_STYLE;
	/* Otherwise plain; libyaml quotes it when plain is not allowed (a
	 * leading "*", "&", "- ", ": " inside, control characters...). */
	return scalar(ctx, s, len, style);
}

static int on_number(void *ctx, const char *text, size_t len)
{
	return scalar(ctx, text, len, YAML_PLAIN_SCALAR_STYLE);
}

static int on_bool(void *ctx, int value)
{
	return scalar(ctx, value ? "true" : "false", value ? 4 : 5, YAML_PLAIN_SCALAR_STYLE);
}

static int on_null(void *ctx)
{
	return scalar(ctx, "null", 4, YAML_PLAIN_SCALAR_STYLE);
}

static int on_start_map(void *ctx)
{
	yaml_event_t ev;

	return send(ctx, &ev, yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE));
}

static int on_end_map(void *ctx)
{
	yaml_event_t ev;

	return send(ctx, &ev, yaml_mapping_end_event_initialize(&ev));
}

static int on_start_array(void *ctx)
{
	yaml_event_t ev;

	return send(ctx, &ev, yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE));
}

static int on_end_array(void *ctx)
{
	yaml_event_t ev;

	return send(ctx, &ev, yaml_sequence_end_event_initialize(&ev));
}

static int begin(struct emit *e)
{
	yaml_event_t ev;

	return send(e, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING)) ||
	       send(e, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1));
}

static int end(struct emit *e)
{
	yaml_event_t ev;

	return send(e, &ev, yaml_document_end_event_initialize(&ev, 1)) ||
	       send(e, &ev, yaml_stream_end_event_initialize(&ev));
}

int owners_yaml_from_json(struct owners_buf *out, const char *json, size_t len,
			  struct owners_error *err)
{
	static const struct owners_json_callbacks cb = {
		on_null, on_bool, on_number, on_string, on_start_map, on_string, on_end_map,
		on_start_array, on_end_array,
	};
	struct owners_error parse_err = OWNERS_ERROR_INIT;
	struct owners_json_parser *p = NULL;
	struct emit e;
	int rc = 0;

	memset(&e, 0, sizeof(e));
	e.out = out;
	if (!yaml_emitter_initialize(&e.emitter))
		return owners_error_oom(err);
	yaml_emitter_set_output(&e.emitter, write_out, &e);
	yaml_emitter_set_unicode(&e.emitter, 1);
	yaml_emitter_set_width(&e.emitter, -1);
	yaml_emitter_set_indent(&e.emitter, 2);
	if (!begin(&e) && owners_json_parser_new(&p, &cb, &e))
		e.failed = OWNERS_ENOMEM;
	if (!e.failed) {
		rc = owners_json_parser_feed(p, json, len, &parse_err);
		if (!rc)
			rc = owners_json_parser_finish(p, &parse_err);
	}
	if (!rc && !e.failed && (end(&e) || !yaml_emitter_flush(&e.emitter)) && !e.failed)
		e.failed = OWNERS_EPROTO;
	/* A failure of the emitter (or of memory) stopped the parse: say that,
	 * not the parser's "stopped by a callback". */
	if (e.failed == OWNERS_ENOMEM)
		rc = owners_error_oom(err);
	else if (e.failed)
		rc = owners_error_set(err, OWNERS_EPROTO, "cannot write YAML: %s",
				      e.emitter.problem ? e.emitter.problem : "the emitter failed");
	else if (rc)
		rc = owners_error_set(err, rc, "%s", owners_error_message(&parse_err));
	owners_error_clear(&parse_err);
	owners_json_parser_free(p);
	yaml_emitter_delete(&e.emitter);
	return rc;
}
