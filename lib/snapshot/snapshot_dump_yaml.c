#include "snapshot_dump_yaml.h"

#include <errno.h>
#include <string.h>
#include <yaml.h>

struct reader {
	const char *name;
	struct owners_snapshot_dump_tree *t;
	yaml_parser_t parser;
	size_t skip; /* > 0: inside a value the builder declined, this deep */
	size_t documents;
	unsigned long line;
};

/* A plain scalar written as JSON writes a number. */
static int json_number(const char *s, size_t len)
{
	size_t i = 0;

	if (i < len && s[i] == '-')
		i++;
	if (i == len || s[i] < '0' || s[i] > '9')
		return 0;
	if (s[i] == '0')
		i++;
	else
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
	if (i < len && s[i] == '.') {
		if (++i == len || s[i] < '0' || s[i] > '9')
			return 0;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		if (++i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		if (i == len || s[i] < '0' || s[i] > '9')
			return 0;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	return i == len;
}

static int word_is(const char *s, size_t len, const char *a, const char *b, const char *c)
{
	return (strlen(a) == len && !memcmp(s, a, len)) ||
	       (strlen(b) == len && !memcmp(s, b, len)) || (strlen(c) == len && !memcmp(s, c, len));
}

static enum owners_json_type scalar_type(const yaml_event_t *e)
{
	const char *s = (const char *)e->data.scalar.value;
	size_t len = e->data.scalar.length;
	const char *tag = (const char *)e->data.scalar.tag;

	if (e->data.scalar.style != YAML_PLAIN_SCALAR_STYLE || (tag && !strcmp(tag, YAML_STR_TAG)))
		return OWNERS_JSON_STRING;
	if (!len || word_is(s, len, "~", "null", "Null") || word_is(s, len, "NULL", "", ""))
		return OWNERS_JSON_NULL;
	if (word_is(s, len, "true", "True", "TRUE") || word_is(s, len, "false", "False", "FALSE"))
		return OWNERS_JSON_BOOL;
	return json_number(s, len) ? OWNERS_JSON_NUMBER : OWNERS_JSON_STRING;
}

static int scalar(struct reader *r, const yaml_event_t *e)
{
	const char *s = (const char *)e->data.scalar.value;
	size_t len = e->data.scalar.length;
	enum owners_json_type type;

	if (owners_snapshot_dump_tree_wants_key(r->t))
		return owners_snapshot_dump_tree_key(r->t, s, len);
	type = scalar_type(e);
	if (type == OWNERS_JSON_BOOL) {
		const char *word = s[0] == 't' || s[0] == 'T' ? "true" : "false";

		return owners_snapshot_dump_tree_scalar(r->t, type, word, strlen(word));
	}
	return owners_snapshot_dump_tree_scalar(r->t, type, s, len);
}

static int open_value(struct reader *r, enum owners_json_type type, struct owners_error *err)
{
	int rc;

	if (r->skip) {
		r->skip++;
		return 0;
	}
	if (owners_snapshot_dump_tree_wants_key(r->t))
		return owners_error_set(err, OWNERS_EPROTO,
					"%s: line %lu: a key that is not a string", r->name,
					r->line);
	rc = owners_snapshot_dump_tree_open(r->t, type);
	if (rc == OWNERS_JSON_SKIP) {
		r->skip = 1;
		rc = 0;
	}
	return rc;
}

/* One event into the builder: 0, a builder's code (its words are asked
 * for by the caller), or a code with err set here. */
static int event(struct reader *r, const yaml_event_t *e, struct owners_error *err)
{
	switch (e->type) {
	case YAML_DOCUMENT_START_EVENT: owners_snapshot_dump_tree_begin(r->t); return 0;
	case YAML_DOCUMENT_END_EVENT: r->documents++; return owners_snapshot_dump_tree_end(r->t);
	case YAML_MAPPING_START_EVENT: return open_value(r, OWNERS_JSON_OBJECT, err);
	case YAML_SEQUENCE_START_EVENT: return open_value(r, OWNERS_JSON_ARRAY, err);
	case YAML_MAPPING_END_EVENT:
	case YAML_SEQUENCE_END_EVENT:
		if (r->skip) {
			r->skip--;
			return 0;
		}
		return owners_snapshot_dump_tree_close(r->t);
	case YAML_SCALAR_EVENT: return r->skip ? 0 : scalar(r, e);
	case YAML_ALIAS_EVENT:
		return owners_error_set(
			err, OWNERS_EPROTO,
			"%s: line %lu: an alias (*%s): a dump is never written with them", r->name,
			r->line, (const char *)e->data.alias.anchor);
	default: return 0;
	}
}

static int parse_error(struct reader *r, struct owners_error *err)
{
	const yaml_parser_t *p = &r->parser;

	if (p->error == YAML_MEMORY_ERROR)
		return owners_error_oom(err);
	if (p->error == YAML_READER_ERROR && !p->problem_offset && !p->problem)
		return owners_error_set(err, OWNERS_EIO, "%s: cannot read: %s", r->name,
					strerror(errno ? errno : EIO));
	return owners_error_set(err, OWNERS_EPROTO, "%s: line %lu: invalid YAML: %s%s%s", r->name,
				(unsigned long)p->problem_mark.line + 1,
				p->problem ? p->problem : "parse error", p->context ? ", " : "",
				p->context ? p->context : "");
}

/* The builder failed: its words, with the file and line. */
static int builder_failed(struct reader *r, int rc, struct owners_error *err)
{
	struct owners_error why = OWNERS_ERROR_INIT;

	if (!owners_snapshot_dump_tree_error(r->t, &why))
		return rc;
	if (why.code == OWNERS_ESTOP || why.code == OWNERS_ENOMEM)
		owners_error_set(err, why.code, "%s", why.msg.ptr);
	else
		owners_error_set(err, why.code, "%s: line %lu: %s", r->name, r->line, why.msg.ptr);
	rc = why.code;
	owners_error_clear(&why);
	return rc;
}

int owners_snapshot_dump_yaml_read(size_t *documents, FILE *f, const char *name,
				   struct owners_snapshot_dump_tree *t, struct owners_error *err)
{
	struct reader r;
	yaml_event_t e;
	int rc = 0, done = 0;

	memset(&r, 0, sizeof(r));
	r.name = name;
	r.t = t;
	if (!yaml_parser_initialize(&r.parser))
		return owners_error_oom(err);
	yaml_parser_set_input_file(&r.parser, f);
	while (!rc && !done) {
		if (!yaml_parser_parse(&r.parser, &e)) {
			rc = parse_error(&r, err);
			break;
		}
		r.line = (unsigned long)e.start_mark.line + 1;
		owners_snapshot_dump_tree_at(t, r.line);
		owners_snapshot_dump_tree_read_to(t, (uint64_t)e.end_mark.index);
		done = e.type == YAML_STREAM_END_EVENT;
		rc = event(&r, &e, err);
		if (rc)
			rc = builder_failed(&r, rc, err);
		yaml_event_delete(&e);
	}
	yaml_parser_delete(&r.parser);
	if (documents)
		*documents = r.documents;
	return rc;
}
